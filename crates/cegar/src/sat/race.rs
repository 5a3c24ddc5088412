//! Racing solvers: one incremental formula held by several solvers, and
//! each call answered by whichever finishes first.
//!
//! CDCL run times on one formula vary a lot with the order of its clauses (on
//! 09-tropical-rain/07 the proof took from 30 s to 84 s over three orders), and
//! varisat cannot be interrupted, so a portfolio is the way to cut the long
//! tail. A [`Race`] is itself a [`Backend`]: the loop sees one solver.
//!
//! How a call runs: the first member, the *leader*, starts on it at once. If
//! no answer comes within the *head start*, every other member joins; the
//! first answer wins. A loser that can be interrupted (CaDiCaL) is stopped;
//! one that cannot (varisat) finishes its call in the background (its answer
//! is dropped) and then takes part again. Every member is sent each call,
//! with the clauses added since, as it starts; it waits on its own thread
//! until the head start is over (or a newer call comes), and only then adds
//! every clause it has not seen and joins. Clauses are only ever added, so
//! every member's learned clauses stay valid. Calls that end within
//! the head start are answered by the leader alone, exactly as a single
//! solver would, so small levels behave deterministically. The first call's
//! head start is shorter (see [`Race::head_start_of`]).
//!
//! When the leader is CaDiCaL it runs on the caller's thread, so a short
//! call costs no hand-over between threads (most calls of a solve are
//! short); a member that answers first stops it through its cancel flag.
//! Another leader (varisat cannot be stopped) runs on a thread of its own,
//! like the other members.
//!
//! Members differ by clause order: the leader gets the clauses in the order
//! the loop added them; member `i > 0` gets its first batch (the whole
//! encoding) shuffled with seed `i`. With [`Race::simplified_start`], members
//! `i > 0` hold another start instead (the loop gives them another encoding
//! of the same problem, simplified by variable elimination), which is faster
//! on some levels and slower on others; the race extends their models to the
//! variables of the leader's formula before it returns them.

use super::elim::Background;
use super::{Answer, Backend, Solved, SolverChoice};
use crate::xorshift::XorShift;
use rustsat::types::{Clause, Lit};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// The most the first call of a race runs alone (see [`Race::head_start_of`]).
const FIRST_CALL_HEAD_START: Duration = Duration::from_millis(100);

/// How often a waiting race looks at its interrupt flag and the deadline.
const INTERRUPT_POLL: Duration = Duration::from_millis(2);

/// One call for a member thread: the clauses it has not seen yet, then the
/// solve, from `start_at` on unless the call is answered by then.
struct Job {
    clauses: Vec<Clause>,
    /// For a member's first job with [`Race::simplified_start`]: the
    /// simplified clauses, which come before `clauses`.
    alt: Option<Arc<Background>>,
    assumptions: Vec<Lit>,
    n_vars: u32,
    deadline: Option<Instant>,
    call: u64,
    start_at: Instant,
}

/// The answer that won call `call`, from member `member`.
struct Done {
    member: usize,
    call: u64,
    answer: Solved,
    core: Option<Vec<Lit>>,
}

/// What a member thread shares with the race.
#[derive(Clone)]
struct Shared {
    /// The last call answered: a member's answer counts only if it moves
    /// this from `call - 1` to `call` first.
    answered: Arc<AtomicU64>,
    /// The leader running on the caller's thread, stopped when a member
    /// wins (see [`Leader`]).
    leader_cancel: Option<Arc<AtomicBool>>,
    results: mpsc::Sender<Done>,
}

/// Claims call `call` (from 1) for its first answer, given `answered`, the
/// last call answered: `false` when it was answered already.
fn claim(answered: &AtomicU64, call: u64) -> bool {
    answered
        .compare_exchange(call - 1, call, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
}

/// A member on a thread of its own, as the race sees it.
struct Member {
    jobs: mpsc::Sender<Job>,
    /// Set to stop the member's call once another member has answered it
    /// (only backends that can be interrupted look at it).
    cancel: Arc<AtomicBool>,
}

/// Member 0 on the caller's thread: a solver that can be interrupted.
struct Leader {
    backend: Box<dyn Backend>,
    /// Set by the member that wins a call, to stop the leader's run of it.
    cancel: Arc<AtomicBool>,
}

/// Several copies of one solver racing on every call (see the module docs).
pub struct Race {
    /// The clauses added since the last call, for the member threads (every
    /// member is sent every call, so one buffer serves them all).
    unsent: Vec<Clause>,
    /// How many clauses were sent before `unsent`.
    sent: usize,
    /// Member 0 when it runs on the caller's thread (CaDiCaL).
    leader: Option<Leader>,
    /// The members on threads of their own: `1..n` with a leader, else `0..n`.
    members: Vec<Member>,
    /// The index of `members[0]`.
    first_thread: usize,
    results: mpsc::Receiver<Done>,
    answered: Arc<AtomicU64>,
    call: u64,
    /// The call whose members join early, as a first call's (1, or the
    /// one after [`Backend::next_call_is_first`]).
    first_call: u64,
    core: Option<Vec<Lit>>,
    /// The member whose answer the last call returned (`None`: no answer).
    answered_by: Option<usize>,
    head_start: Duration,
    /// Another start for members `i > 0`: `(k, elimination)`, the
    /// simplified clauses stand in for the first `k` clauses added and the
    /// extension completes their models (see [`Race::simplified_start`]).
    alt_start: Option<(usize, Arc<Background>)>,
    /// Whether the members have been sent their first call (with the
    /// simplified start).
    started: bool,
    /// When set, the running call stops with `Unknown` (see
    /// [`Backend::interrupt_on`]).
    interrupt: Option<Arc<AtomicBool>>,
}

impl Race {
    /// `n` members (at least one) of `solver`; a call that runs longer than
    /// `head_start` is raced by all members.
    pub fn new(solver: &SolverChoice, n: usize, head_start: Duration) -> Race {
        let n = n.max(1);
        let (done_tx, results) = mpsc::channel::<Done>();
        let answered = Arc::new(AtomicU64::new(0));
        let leader = match solver.member(0) {
            SolverChoice::Cadical => {
                let cancel = Arc::new(AtomicBool::new(false));
                solver
                    .build_cancellable(cancel.clone())
                    .ok()
                    .map(|backend| Leader { backend, cancel })
            }
            _ => None,
        };
        let shared = Shared {
            answered: answered.clone(),
            leader_cancel: leader.as_ref().map(|l| l.cancel.clone()),
            results: done_tx,
        };
        let first_thread = usize::from(leader.is_some());
        let members = (first_thread..n)
            .map(|i| spawn_member(i, solver.member(i), &shared))
            .collect();
        Race {
            unsent: Vec::new(),
            sent: 0,
            leader,
            members,
            first_thread,
            results,
            answered,
            call: 0,
            first_call: 1,
            core: None,
            answered_by: None,
            head_start,
            alt_start: None,
            started: false,
            interrupt: None,
        }
    }

    /// Members `i > 0` hold the clauses `elim` gives instead of the first
    /// `k` clauses added: the encoding simplified by variable elimination,
    /// or another encoding of the same thing simplified. Their models are
    /// completed by its extension before the race returns them, so every
    /// answer is a model of every clause added (when the clauses are
    /// `∃X. added[..k]` for
    /// the eliminated `X`, and both agree on the variables they share). Every
    /// clause added after the first `k` must keep its meaning for both (for
    /// elimination: name no eliminated variable). The elimination may still
    /// be running: a member waits for it, on its own thread, before its
    /// first call.
    pub fn simplified_start(mut self, k: usize, elim: Arc<Background>) -> Race {
        self.alt_start = Some((k, elim));
        self
    }

    /// The member whose answer the last call returned (0 is the leader);
    /// `None` when it returned `Unknown`.
    pub fn answered_by(&self) -> Option<usize> {
        self.answered_by
    }

    /// How long call number `call` (from 1) runs alone before the other
    /// members join: the head start, at most [`FIRST_CALL_HEAD_START`] for
    /// the first call. The first call is over a solver that has learnt
    /// nothing yet, and on a hard level it is the longest of all (a first
    /// layout over the whole board), so the other members join it early; a
    /// small level's first call still ends well within its head start,
    /// alone, as before.
    fn head_start_of(&self, call: u64) -> Duration {
        match call == self.first_call {
            true => self.head_start.min(FIRST_CALL_HEAD_START),
            false => self.head_start,
        }
    }

    /// Sends every member thread the current call with the clauses added
    /// since the last one: member `i` starts at once when it is the first
    /// member, else after the head start. On the first call, members
    /// `i > 0` get the simplified start in place of the first `k` clauses.
    fn send_jobs(
        &mut self,
        assumptions: &[Lit],
        n_vars: u32,
        deadline: Option<Instant>,
    ) -> Result<(), String> {
        let now = Instant::now();
        let joins = now + self.head_start_of(self.call);
        let clauses = std::mem::take(&mut self.unsent);
        let replaced = match (&self.alt_start, self.started) {
            (Some((k, _)), false) => k.saturating_sub(self.sent).min(clauses.len()),
            _ => 0,
        };
        let alt = self.alt_start.as_ref().filter(|_| !self.started);
        let added = clauses.len();
        let last = self.members.len().saturating_sub(1);
        // Every member but the last gets a copy; the last gets the buffer.
        let mut clauses = Some(clauses);
        for (j, m) in self.members.iter().enumerate() {
            let i = j + self.first_thread;
            let (alt, from) = match alt {
                Some((_, elim)) if i > 0 => (Some(elim.clone()), replaced),
                _ => (None, 0),
            };
            let batch = match j == last {
                true => {
                    let mut c = clauses.take().unwrap_or_default();
                    c.drain(..from);
                    c
                }
                false => clauses
                    .as_deref()
                    .map_or_else(Vec::new, |c| c[from..].to_vec()),
            };
            let job = Job {
                clauses: batch,
                alt,
                assumptions: assumptions.to_vec(),
                n_vars,
                deadline,
                call: self.call,
                start_at: if i == 0 { now } else { joins },
            };
            m.jobs
                .send(job)
                .map_err(|_| format!("solver thread {i} is gone"))?;
        }
        self.sent += added;
        self.started = true;
        Ok(())
    }

    /// Asks every member thread to stop its run of the call just answered;
    /// a backend that cannot be interrupted finishes it anyway.
    fn cancel_members(&self) {
        for m in &self.members {
            m.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Whether the interrupt flag is set.
    fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
    }

    /// Claims the current call for the caller's own answer; `false` when a
    /// member claimed it first (its answer is on the way).
    fn claim(&self) -> bool {
        claim(&self.answered, self.call)
    }

    /// Waits for the member's answer that claimed the current call; with
    /// `give_up`, returns `None` once it holds and the call could be claimed
    /// for `Unknown` instead.
    fn winner(&mut self, give_up: impl Fn(&Race) -> bool) -> Result<Option<Done>, String> {
        loop {
            match self.results.recv_timeout(INTERRUPT_POLL) {
                Ok(d) if d.call == self.call => return Ok(Some(d)),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    if give_up(self) && self.claim() {
                        return Ok(None);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("every solver thread is gone".into())
                }
            }
        }
    }

    /// A member's winning answer, its model completed where the member held
    /// the simplified start.
    fn member_answer(&mut self, d: Done) -> Solved {
        self.core = d.core;
        self.answered_by = Some(d.member);
        match (d.answer, &self.alt_start) {
            (Ok(Answer::Sat(mut model)), Some((_, elim))) if d.member > 0 => {
                elim.wait().ext.extend(&mut model);
                Ok(Answer::Sat(model))
            }
            (answer, _) => answer,
        }
    }

    /// The call with the leader on this thread: its answer, unless a member
    /// claimed the call first (and stopped the leader).
    fn solve_with_leader(
        &mut self,
        assumptions: &[Lit],
        n_vars: u32,
        deadline: Option<Instant>,
    ) -> Solved {
        let Some(leader) = self.leader.as_mut() else {
            return Err("internal error: no leader".into());
        };
        let answer = leader.backend.solve(assumptions, n_vars, deadline);
        if self.claim() {
            self.cancel_members();
            self.answered_by = (!matches!(answer, Ok(Answer::Unknown))).then_some(0);
            if let (Ok(Answer::Unsat), Some(leader)) = (&answer, self.leader.as_mut()) {
                self.core = leader.backend.core();
            }
            return answer;
        }
        match self.winner(|_| false)? {
            Some(d) => {
                self.cancel_members();
                self.member_answer(d)
            }
            None => Ok(Answer::Unknown),
        }
    }

    /// The call with every member on a thread: the first answer, or
    /// `Unknown` at the deadline or the interrupt.
    fn solve_on_threads(&mut self, deadline: Option<Instant>) -> Solved {
        let stop = move |race: &Race| race.interrupted() || super::must_stop(deadline);
        let done = self.winner(stop)?;
        self.cancel_members();
        match done {
            Some(d) => self.member_answer(d),
            None => Ok(Answer::Unknown),
        }
    }
}

/// Starts member `i`'s thread.
fn spawn_member(i: usize, solver: &SolverChoice, shared: &Shared) -> Member {
    let (jobs, rx) = mpsc::channel::<Job>();
    let solver = solver.clone();
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = cancel.clone();
    let shared = shared.clone();
    // If the thread cannot start, its sender fails at the first call and
    // the race reports it.
    let _ = thread::Builder::new()
        .name(format!("cegar-sat-{i}"))
        .spawn(move || member(i, &solver, &stop, &rx, &shared));
    Member { jobs, cancel }
}

/// A member's thread: answers each job's call from its start time on,
/// unless the call is answered by then or a newer job came. Its solver is
/// built (solvers need not be `Send`), and the clauses of every job are
/// added, only when it first has a call to run, so a race whose calls all
/// end within their head start keeps the other members idle. Runs until
/// the race is dropped.
fn member(
    i: usize,
    solver: &SolverChoice,
    cancel: &Arc<AtomicBool>,
    jobs: &mpsc::Receiver<Job>,
    shared: &Shared,
) {
    let mut backend: Option<Box<dyn Backend>> = None;
    let mut pending = Pending::default();
    let mut next = jobs.recv();
    while let Ok(mut job) = next {
        pending.take(&mut job);
        let wait = job.start_at.saturating_duration_since(Instant::now());
        if !wait.is_zero() {
            match jobs.recv_timeout(wait) {
                Ok(newer) => {
                    next = Ok(newer);
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        // Lowered before the look at `answered`: a call answered after the
        // look has its cancel flag raised after this.
        cancel.store(false, Ordering::SeqCst);
        if shared.answered.load(Ordering::SeqCst) < job.call {
            let b = match &mut backend {
                Some(b) => b,
                None => match solver.build_cancellable(cancel.clone()) {
                    Ok(b) => backend.insert(b),
                    Err(e) => return report_error(i, e, &job, shared),
                },
            };
            pending.add_to(i, b.as_mut());
            let answer = b.solve(&job.assumptions, job.n_vars, job.deadline);
            let won = !matches!(answer, Ok(Answer::Unknown)) && claim(&shared.answered, job.call);
            if won && !send_win(i, b.as_mut(), answer, &job, shared) {
                return;
            }
        }
        next = jobs.recv();
    }
}

/// The clauses a member has been sent but has not added yet.
#[derive(Default)]
struct Pending {
    /// The simplified start, until it is added.
    alt: Option<Arc<Background>>,
    clauses: Vec<Clause>,
    /// Whether anything was added yet (the first batch is shuffled).
    started: bool,
}

impl Pending {
    /// Takes the job's clauses.
    fn take(&mut self, job: &mut Job) {
        if let Some(alt) = job.alt.take() {
            self.alt = Some(alt);
        }
        self.clauses.append(&mut job.clauses);
    }

    /// Adds them to member `i`'s solver: on its first call, the simplified
    /// start first (when there is one), the whole batch shuffled with seed
    /// `i` for members `i > 0`.
    fn add_to(&mut self, i: usize, b: &mut dyn Backend) {
        let mut batch = match self.alt.take() {
            Some(elim) => {
                let mut c = elim.wait().clauses.clone();
                c.append(&mut self.clauses);
                c
            }
            None => std::mem::take(&mut self.clauses),
        };
        if !self.started && i > 0 {
            shuffle(&mut batch, i as u64);
        }
        self.started = true;
        batch.iter().for_each(|cl| b.add_clause(cl));
    }
}

/// Sends the answer that won `job`'s call, after stopping the leader;
/// `false` when the race is gone.
fn send_win(i: usize, b: &mut dyn Backend, answer: Solved, job: &Job, shared: &Shared) -> bool {
    if let Some(c) = &shared.leader_cancel {
        c.store(true, Ordering::SeqCst);
    }
    let core = match answer {
        Ok(Answer::Unsat) => b.core(),
        _ => None,
    };
    let done = Done {
        member: i,
        call: job.call,
        answer,
        core,
    };
    shared.results.send(done).is_ok()
}

/// A member whose solver could not be built answers its first call with
/// the error.
fn report_error(i: usize, e: String, job: &Job, shared: &Shared) {
    if claim(&shared.answered, job.call) {
        let _ = shared.results.send(Done {
            member: i,
            call: job.call,
            answer: Err(e),
            core: None,
        });
    }
}

/// Shuffles `v` with a xorshift generator seeded by `seed` (the same
/// permutation as the loop's `Options::seed` uses).
pub fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

impl Backend for Race {
    fn add_clause(&mut self, clause: &Clause) {
        if let Some(l) = self.leader.as_mut() {
            l.backend.add_clause(clause);
        }
        if !self.members.is_empty() {
            self.unsent.push(clause.clone());
        }
    }

    fn solve(&mut self, assumptions: &[Lit], n_vars: u32, deadline: Option<Instant>) -> Solved {
        self.call += 1;
        self.core = None;
        self.answered_by = None;
        if self.interrupted() && self.claim() {
            return Ok(Answer::Unknown);
        }
        // The leader's cancel flag is lowered before the members get the
        // call: a member that answers it at once raises the flag after this
        // (lowered after the jobs were sent, a quick member's raise could be
        // lost, and the leader would run its call to the end). A raise for
        // an earlier call came before that call's answer was read.
        if let Some(l) = self.leader.as_ref() {
            l.cancel.store(false, Ordering::SeqCst);
        }
        self.send_jobs(assumptions, n_vars, deadline)?;
        match self.leader {
            Some(_) => self.solve_with_leader(assumptions, n_vars, deadline),
            None => self.solve_on_threads(deadline),
        }
    }

    fn core(&mut self) -> Option<Vec<Lit>> {
        self.core.clone()
    }

    fn interrupt_on(&mut self, flag: Option<Arc<AtomicBool>>) {
        if let Some(l) = self.leader.as_mut() {
            l.backend.interrupt_on(flag.clone());
        }
        self.interrupt = flag;
    }

    fn next_call_is_first(&mut self) {
        self.first_call = self.call + 1;
    }
}

impl Drop for Race {
    /// Stops the members' running calls (those that can be stopped); their
    /// threads end when they see the race gone.
    fn drop(&mut self) {
        self.cancel_members();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::testing::{lit, satisfies};
    use crate::sat::VarisatBackend;

    /// Solves under `assumptions` with the race and with one solver that
    /// holds `clauses`: the answers agree, a model satisfies every clause and
    /// assumption, and a core is an unsatisfiable subset of the assumptions.
    /// Counts the answer in `seen` (SAT, UNSAT).
    fn check_call(
        race: &mut Race,
        one: &mut VarisatBackend,
        clauses: &[Clause],
        assumptions: &[Lit],
        n_vars: u32,
        seen: &mut (usize, usize),
    ) {
        let want = one
            .solve(assumptions, n_vars, None)
            .expect("varisat answers");
        match race
            .solve(assumptions, n_vars, None)
            .expect("the race answers")
        {
            Answer::Sat(model) => {
                seen.0 += 1;
                assert!(matches!(want, Answer::Sat(_)));
                assert!(satisfies(&model, clauses, assumptions));
            }
            Answer::Unsat => {
                seen.1 += 1;
                assert_eq!(want, Answer::Unsat);
                if let Some(core) = race.core() {
                    assert!(core.iter().all(|l| assumptions.contains(l)));
                    let mut check = VarisatBackend::default();
                    clauses.iter().for_each(|cl| check.add_clause(cl));
                    let again = check.solve(&core, n_vars, None).expect("answers");
                    assert_eq!(again, Answer::Unsat, "the core is unsatisfiable");
                }
            }
            Answer::Unknown => panic!("no deadline was given"),
        }
    }

    /// Every call races from the start (no head start), over random
    /// incremental formulas: the race agrees with one solver on SAT/UNSAT, its
    /// models satisfy every clause and assumption, and its cores are
    /// unsatisfiable subsets of the assumptions.
    #[test]
    fn a_race_answers_like_one_solver() {
        race_answers_like_one_solver(&SolverChoice::Varisat);
    }

    /// The same with CaDiCaL, whose losers are interrupted, and with a
    /// portfolio of both solvers.
    #[test]
    fn races_of_cadical_and_of_both_solvers_answer_like_one_solver() {
        race_answers_like_one_solver(&SolverChoice::Cadical);
        race_answers_like_one_solver(&SolverChoice::Portfolio(vec![
            SolverChoice::Cadical,
            SolverChoice::Varisat,
        ]));
    }

    /// The pigeonhole formula: `n + 1` pigeons in `n` holes (UNSAT, and
    /// hard for CDCL solvers from about ten holes on).
    fn pigeonhole(n: u32) -> Vec<Clause> {
        let p = |i: u32, j: u32| Lit::positive(i * n + j);
        let mut clauses: Vec<Clause> = (0..=n).map(|i| (0..n).map(|j| p(i, j)).collect()).collect();
        for j in 0..n {
            for a in 0..=n {
                for b in a + 1..=n {
                    clauses.push(Clause::from([!p(a, j), !p(b, j)]));
                }
            }
        }
        clauses
    }

    /// A race told to listen to a flag answers `Unknown` once it is set:
    /// at once when it is set before the call, and during a long call (a
    /// pigeonhole formula no solver finishes quickly) when another thread
    /// sets it; after the flag is lowered, the race answers again.
    #[test]
    fn a_raised_flag_interrupts_the_call() {
        let n = 12;
        let mut race = Race::new(&SolverChoice::Cadical, 2, Duration::ZERO);
        pigeonhole(n).iter().for_each(|cl| race.add_clause(cl));
        let flag = Arc::new(AtomicBool::new(true));
        race.interrupt_on(Some(flag.clone()));
        let vars = (n + 1) * n;
        assert_eq!(race.solve(&[], vars, None), Ok(Answer::Unknown));
        flag.store(false, Ordering::SeqCst);
        let raise = flag.clone();
        let setter = thread::spawn(move || {
            thread::sleep(Duration::from_millis(20));
            raise.store(true, Ordering::SeqCst);
        });
        assert_eq!(race.solve(&[], vars, None), Ok(Answer::Unknown));
        setter.join().expect("the setter ends");
        flag.store(false, Ordering::SeqCst);
        let pigeon = Lit::positive(0);
        assert_eq!(
            race.solve(&[pigeon, !pigeon], vars, None),
            Ok(Answer::Unsat)
        );
    }

    /// A member that answers first stops the leader on the caller's thread,
    /// and its answer is the race's: the leader holds a pigeonhole formula
    /// (slow to refute), the member a start that is plainly contradictory
    /// (as unsatisfiable, so a valid other start for it).
    #[test]
    fn a_member_that_answers_first_stops_the_leader() {
        let n = 11;
        let vars = (n + 1) * n;
        let a = Lit::positive(0);
        let contradiction = vec![Clause::from([a]), Clause::from([!a])];
        let frozen = vec![true; vars as usize];
        let elim = Arc::new(Background::start(contradiction, vars, frozen));
        let php = pigeonhole(n);
        let mut race =
            Race::new(&SolverChoice::Cadical, 2, Duration::ZERO).simplified_start(php.len(), elim);
        php.iter().for_each(|cl| race.add_clause(cl));
        assert_eq!(race.solve(&[], vars, None), Ok(Answer::Unsat));
        assert_eq!(race.answered_by(), Some(1));
        assert_eq!(race.solve(&[a, !a], vars, None), Ok(Answer::Unsat));
    }

    /// Members that wait out the head start keep the clauses of every call
    /// they skipped: a pigeonhole formula is added a few clauses at a time,
    /// with a call after each (the short ones answered by the first copy
    /// while the others wait, the long ones at the end joined by all), and
    /// every model must satisfy every clause added so far. A member that
    /// missed a clause would answer with a model that breaks it, or SAT to
    /// the whole formula, at once.
    #[test]
    fn members_that_wait_keep_the_clauses_of_skipped_calls() {
        let n = 8;
        let vars = (n + 1) * n;
        for solver in [SolverChoice::Cadical, SolverChoice::Varisat] {
            let mut race = Race::new(&solver, 3, Duration::from_millis(1));
            let mut added: Vec<Clause> = Vec::new();
            let mut last = None;
            for chunk in pigeonhole(n).chunks(12) {
                for cl in chunk {
                    race.add_clause(cl);
                    added.push(cl.clone());
                }
                let answer = race.solve(&[], vars, None).expect("the race answers");
                if let Answer::Sat(model) = &answer {
                    assert!(satisfies(model, &added, &[]), "{solver:?}");
                }
                last = Some(answer);
            }
            assert_eq!(last, Some(Answer::Unsat), "{solver:?}");
        }
    }

    /// The clauses a waiting member is sent pile up in order, and its first
    /// batch (the simplified start first, when there is one) is shuffled for
    /// members `i > 0`: exactly the clauses sent, each once.
    #[test]
    fn pending_clauses_are_added_once_each() {
        let cl = |v: u32| Clause::from([Lit::positive(v)]);
        let job = |clauses: Vec<Clause>, alt: Option<Arc<Background>>| Job {
            clauses,
            alt,
            assumptions: Vec::new(),
            n_vars: 8,
            deadline: None,
            call: 1,
            start_at: Instant::now(),
        };
        let alt = Arc::new(Background::start(vec![cl(7)], 8, vec![true; 8]));
        let mut pending = Pending::default();
        pending.take(&mut job(vec![cl(0), cl(1)], Some(alt)));
        pending.take(&mut job(vec![cl(2)], None));
        let mut seen = Recorder::default();
        pending.add_to(1, &mut seen);
        let mut got = seen.0.clone();
        got.sort_by_key(|c| c[0].var().idx());
        assert_eq!(got, vec![cl(0), cl(1), cl(2), cl(7)]);
        pending.take(&mut job(vec![cl(3), cl(4)], None));
        pending.add_to(1, &mut seen);
        assert_eq!(
            seen.0[4..],
            [cl(3), cl(4)],
            "later batches keep their order"
        );
    }

    /// A backend that only records the clauses it gets.
    #[derive(Default)]
    struct Recorder(Vec<Clause>);

    impl Backend for Recorder {
        fn add_clause(&mut self, clause: &Clause) {
            self.0.push(clause.clone());
        }

        fn solve(&mut self, _: &[Lit], _: u32, _: Option<Instant>) -> Solved {
            Ok(Answer::Unknown)
        }
    }

    fn race_answers_like_one_solver(solver: &SolverChoice) {
        const VARS: u64 = 24;
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        let mut seen = (0, 0);
        for round in 0..6 {
            let mut race = Race::new(solver, 3, Duration::ZERO);
            let mut one = VarisatBackend::default();
            let mut clauses: Vec<Clause> = Vec::new();
            for _ in 0..12 {
                for _ in 0..(6 + round) {
                    let cl: Clause = (0..3).map(|_| lit(&mut rng, VARS)).collect();
                    race.add_clause(&cl);
                    one.add_clause(&cl);
                    clauses.push(cl);
                }
                let assumptions: Vec<Lit> =
                    (0..rng.below(5)).map(|_| lit(&mut rng, VARS)).collect();
                let n = VARS as u32;
                check_call(&mut race, &mut one, &clauses, &assumptions, n, &mut seen);
            }
        }
        assert!(seen.0 > 5 && seen.1 > 5, "{seen:?} (sat, unsat)");
    }

    /// Members `i > 0` hold the encoding after variable elimination: every
    /// answer still agrees with one solver on the plain formula, and every
    /// model (extended by the race where a simplified member found it)
    /// satisfies all of its clauses.
    #[test]
    fn a_race_with_a_simplified_start_answers_like_one_solver() {
        const VARS: u64 = 30;
        const KEPT: u64 = 10;
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut seen = (0, 0);
        for _ in 0..6 {
            // Implications between variables make chains to eliminate.
            let first: Vec<Clause> = (0..45)
                .map(|_| (0..2 + rng.below(2)).map(|_| lit(&mut rng, VARS)).collect())
                .collect();
            let frozen: Vec<bool> = (0..VARS).map(|v| v < KEPT).collect();
            let elim = Arc::new(Background::start(first.clone(), VARS as u32, frozen));
            let mut race = Race::new(&SolverChoice::Varisat, 3, Duration::ZERO)
                .simplified_start(first.len(), elim.clone());
            let mut one = VarisatBackend::default();
            let mut clauses = first.clone();
            for cl in &first {
                race.add_clause(cl);
                one.add_clause(cl);
            }
            for _ in 0..10 {
                let cl: Clause = (0..3).map(|_| lit(&mut rng, KEPT)).collect();
                race.add_clause(&cl);
                one.add_clause(&cl);
                clauses.push(cl);
                let assumptions: Vec<Lit> =
                    (0..rng.below(3)).map(|_| lit(&mut rng, KEPT)).collect();
                let n = VARS as u32;
                check_call(&mut race, &mut one, &clauses, &assumptions, n, &mut seen);
            }
            assert!(elim.wait().ext.eliminated > 0);
        }
        assert!(seen.0 > 5 && seen.1 > 5, "{seen:?} (sat, unsat)");
    }

    #[test]
    fn members_see_every_clause_even_after_losing() {
        // Member 1 joins late and must catch up on clauses added before it
        // ever ran: a formula that is only UNSAT with the early clauses.
        let mut race = Race::new(&SolverChoice::Varisat, 2, Duration::ZERO);
        let a = Lit::new(0, false);
        let b = Lit::new(1, false);
        race.add_clause(&Clause::from([a]));
        assert!(matches!(race.solve(&[], 2, None), Ok(Answer::Sat(_))));
        race.add_clause(&Clause::from([!a, b]));
        for _ in 0..20 {
            assert_eq!(race.solve(&[!b], 2, None), Ok(Answer::Unsat));
            assert!(matches!(race.solve(&[b], 2, None), Ok(Answer::Sat(m)) if m[0] && m[1]));
        }
    }

    /// The first call is raced after the head start or
    /// [`FIRST_CALL_HEAD_START`], whichever is shorter; every later one
    /// after the whole head start.
    #[test]
    fn the_first_call_is_raced_sooner() {
        let race = Race::new(&SolverChoice::Varisat, 2, Duration::from_secs(1));
        assert_eq!(race.head_start_of(1), Duration::from_millis(100));
        assert_eq!(race.head_start_of(2), Duration::from_secs(1));
        assert_eq!(race.head_start_of(40), Duration::from_secs(1));
        let race = Race::new(&SolverChoice::Varisat, 2, Duration::from_millis(50));
        assert_eq!(race.head_start_of(1), Duration::from_millis(50));
        assert_eq!(race.head_start_of(2), Duration::from_millis(50));
    }

    /// After focused calls (short preliminaries), the call that
    /// [`Backend::next_call_is_first`] names is raced as soon as a first
    /// call, and the first call no longer is.
    #[test]
    fn the_first_call_after_preliminaries_is_raced_sooner() {
        let mut race = Race::new(&SolverChoice::Varisat, 2, Duration::from_secs(1));
        let a = Lit::new(0, false);
        race.add_clause(&Clause::from([a]));
        for _ in 0..3 {
            assert!(matches!(race.solve(&[], 1, None), Ok(Answer::Sat(_))));
        }
        race.next_call_is_first();
        assert_eq!(race.head_start_of(4), Duration::from_millis(100));
        assert_eq!(race.head_start_of(1), Duration::from_secs(1));
        assert_eq!(race.head_start_of(5), Duration::from_secs(1));
    }
}

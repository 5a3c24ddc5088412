//! Racing solvers: one incremental formula held by several solvers, each on its
//! own thread, and each call answered by whichever finishes first.
//!
//! CDCL run times on one formula vary a lot with the order of its clauses (on
//! 09-tropical-rain/07 the proof took from 30 s to 84 s over three orders), and
//! varisat cannot be interrupted, so a portfolio is the way to cut the long
//! tail. A [`Race`] is itself a [`Backend`]: the loop sees one solver.
//!
//! How a call runs: it goes to one idle member first. If no answer comes within
//! the *head start*, every other idle member starts on it too, each having caught
//! up on the clauses added since its last call; the first answer wins. A loser
//! that can be interrupted (CaDiCaL) is stopped; one that cannot (varisat)
//! finishes its call in the background (its answer is dropped) and then takes part again, with every clause it missed. Clauses are
//! only ever added, so every member's learned clauses stay valid. Calls that end
//! within the head start are answered by the first member alone, exactly as a
//! single solver would, so small levels behave deterministically. The first
//! call's head start is shorter (see [`Race::head_start_of`]).
//!
//! Members differ by clause order: member 0 gets the clauses in the order the
//! loop added them; member `i > 0` gets its first batch (the whole encoding)
//! shuffled with seed `i`. With [`Race::simplified_start`], members `i > 0`
//! hold another start instead (the loop gives them another encoding of the
//! same problem, simplified by variable elimination), which is faster on some
//! levels and slower on others; the race extends their models to the
//! variables of the first member's formula before it returns them.

use super::elim::Background;
use super::{Answer, Backend, Solved, SolverChoice};
use crate::xorshift::XorShift;
use rustsat::types::{Clause, Lit};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// The most the first call of a race runs alone (see [`Race::head_start_of`]).
const FIRST_CALL_HEAD_START: Duration = Duration::from_millis(100);

/// One call for a member: the clauses it has not seen yet, then the solve.
struct Job {
    clauses: Vec<Clause>,
    assumptions: Vec<Lit>,
    n_vars: u32,
    deadline: Option<Instant>,
    call: u64,
}

/// A member's answer to call `call`.
struct Done {
    member: usize,
    call: u64,
    answer: Solved,
    core: Option<Vec<Lit>>,
}

struct Member {
    jobs: mpsc::Sender<Job>,
    /// Set to stop the member's call once another member has answered it
    /// (only backends that can be interrupted look at it).
    cancel: Arc<AtomicBool>,
    /// How many clauses of the log it has been sent.
    synced: usize,
    /// The call it is working on, if any.
    busy: Option<u64>,
}

/// Several copies of one solver racing on every call (see the module docs).
pub struct Race {
    log: Vec<Clause>,
    members: Vec<Member>,
    results: mpsc::Receiver<Done>,
    call: u64,
    core: Option<Vec<Lit>>,
    head_start: Duration,
    /// Another start for members `i > 0`: `(k, elimination)`, the
    /// simplified clauses stand in for the first `k` clauses of the log and
    /// the extension completes their models (see [`Race::simplified_start`]).
    alt_start: Option<(usize, Arc<Background>)>,
    /// When set, the running call stops with `Unknown` (see
    /// [`Backend::interrupt_on`]).
    interrupt: Option<Arc<AtomicBool>>,
}

/// How often a call that can be interrupted looks at its flag.
const INTERRUPT_POLL: Duration = Duration::from_millis(2);

impl Race {
    /// `n` members (at least one) of `solver`; a call that runs longer than
    /// `head_start` is raced by all idle members.
    pub fn new(solver: &SolverChoice, n: usize, head_start: Duration) -> Race {
        let (done_tx, results) = mpsc::channel::<Done>();
        let members = (0..n.max(1))
            .map(|i| {
                let (jobs, rx) = mpsc::channel::<Job>();
                let solver = solver.member(i).clone();
                let done = done_tx.clone();
                let cancel = Arc::new(AtomicBool::new(false));
                let stop = cancel.clone();
                // If the thread cannot start, its sender fails at the first
                // call and the race reports it.
                let _ = thread::Builder::new()
                    .name(format!("cegar-sat-{i}"))
                    .spawn(move || member(i, &solver, stop, &rx, &done));
                Member {
                    jobs,
                    cancel,
                    synced: 0,
                    busy: None,
                }
            })
            .collect();
        Race {
            log: Vec::new(),
            members,
            results,
            call: 0,
            core: None,
            head_start,
            alt_start: None,
            interrupt: None,
        }
    }

    /// Members `i > 0` hold the clauses `elim` gives instead of the first
    /// `k` clauses added: the encoding simplified by variable elimination,
    /// or another encoding of the same thing simplified. Their models are
    /// completed by its extension before the race returns them, so every
    /// answer is a model of the log (when the clauses are `∃X. log[..k]` for
    /// the eliminated `X`, and both agree on the variables they share). Every
    /// clause added after the first `k` must keep its meaning for both (for
    /// elimination: name no eliminated variable). The elimination may still
    /// be running: a member waits for it when it first starts, after its
    /// first call's head start.
    pub fn simplified_start(mut self, k: usize, elim: Arc<Background>) -> Race {
        self.alt_start = Some((k, elim));
        self
    }

    /// How long call number `call` (from 1) runs alone before the idle
    /// members join: the head start, at most [`FIRST_CALL_HEAD_START`] for
    /// the first call. The first call is over a solver that has learnt
    /// nothing yet, and on a hard level it is the longest of all (a first
    /// layout over the whole board), so the other members join it early; a
    /// small level's first call still ends well within its head start,
    /// alone, as before.
    fn head_start_of(&self, call: u64) -> Duration {
        match call {
            1 => self.head_start.min(FIRST_CALL_HEAD_START),
            _ => self.head_start,
        }
    }

    /// Starts member `i` on the current call.
    fn start(
        &mut self,
        i: usize,
        assumptions: &[Lit],
        n_vars: u32,
        deadline: Option<Instant>,
    ) -> Result<(), String> {
        let m = &mut self.members[i];
        let clauses = match &self.alt_start {
            Some((k, elim)) if i > 0 && m.synced == 0 => {
                let mut c = elim.wait().clauses.clone();
                c.extend_from_slice(&self.log[(*k).min(self.log.len())..]);
                c
            }
            _ => self.log[m.synced..].to_vec(),
        };
        m.cancel.store(false, Ordering::SeqCst);
        let job = Job {
            clauses,
            assumptions: assumptions.to_vec(),
            n_vars,
            deadline,
            call: self.call,
        };
        m.jobs
            .send(job)
            .map_err(|_| format!("solver thread {i} is gone"))?;
        m.synced = self.log.len();
        m.busy = Some(self.call);
        Ok(())
    }

    /// Asks every member still working on `call` to stop (it has been
    /// answered); a backend that cannot be interrupted finishes it anyway.
    fn cancel_others(&self, call: u64) {
        for m in self.members.iter().filter(|m| m.busy == Some(call)) {
            m.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Whether the interrupt flag is set.
    fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
    }

    fn idle(&self) -> Vec<usize> {
        (0..self.members.len())
            .filter(|&i| self.members[i].busy.is_none())
            .collect()
    }

    /// Waits for any member's answer (`None` at the timeout).
    fn next(&mut self, timeout: Option<Duration>) -> Result<Option<Done>, String> {
        let got = match timeout {
            Some(t) => match self.results.recv_timeout(t) {
                Ok(d) => Some(d),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("every solver thread is gone".into())
                }
            },
            None => Some(
                self.results
                    .recv()
                    .map_err(|_| "every solver thread is gone".to_string())?,
            ),
        };
        if let Some(d) = &got {
            self.members[d.member].busy = None;
        }
        Ok(got)
    }
}

/// A member's thread: builds its own solver (solvers need not be `Send`) and
/// answers jobs until the race is dropped.
fn member(
    i: usize,
    solver: &SolverChoice,
    cancel: Arc<AtomicBool>,
    jobs: &mpsc::Receiver<Job>,
    done: &mpsc::Sender<Done>,
) {
    let mut backend: Option<Box<dyn Backend>> = None;
    let mut first = true;
    while let Ok(mut job) = jobs.recv() {
        let b = match &mut backend {
            Some(b) => b,
            None => match solver.build_cancellable(cancel.clone()) {
                Ok(b) => backend.insert(b),
                Err(e) => {
                    let _ = done.send(Done {
                        member: i,
                        call: job.call,
                        answer: Err(e),
                        core: None,
                    });
                    return;
                }
            },
        };
        if first && i > 0 {
            shuffle(&mut job.clauses, i as u64);
        }
        first = false;
        for cl in &job.clauses {
            b.add_clause(cl);
        }
        let answer = b.solve(&job.assumptions, job.n_vars, job.deadline);
        let core = match answer {
            Ok(Answer::Unsat) => b.core(),
            _ => None,
        };
        let sent = done.send(Done {
            member: i,
            call: job.call,
            answer,
            core,
        });
        if sent.is_err() {
            return;
        }
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
        self.log.push(clause.clone());
    }

    fn solve(&mut self, assumptions: &[Lit], n_vars: u32, deadline: Option<Instant>) -> Solved {
        self.call += 1;
        self.core = None;
        let call = self.call;
        // The first member: an idle one, or the first to finish an old call.
        while self.idle().is_empty() {
            self.next(None)?;
        }
        let started = Instant::now();
        let first = self.idle()[0];
        self.start(first, assumptions, n_vars, deadline)?;
        let head_start = self.head_start_of(call);
        loop {
            let open = started.elapsed() >= head_start;
            if open {
                for i in self.idle() {
                    self.start(i, assumptions, n_vars, deadline)?;
                }
            }
            // Before the head start is over, wake up when it is (if someone
            // could join); after it, or with nobody idle, wait for an answer.
            let wait = if open || self.idle().is_empty() {
                None
            } else {
                Some(head_start.saturating_sub(started.elapsed()))
            };
            if self.interrupted() {
                self.cancel_others(call);
                return Ok(Answer::Unknown);
            }
            let wait = match self.interrupt {
                Some(_) => Some(wait.map_or(INTERRUPT_POLL, |w| w.min(INTERRUPT_POLL))),
                None => wait,
            };
            if let Some(d) = self.next(wait)? {
                if d.call == call {
                    self.cancel_others(call);
                    self.core = d.core;
                    return match (d.answer, &self.alt_start) {
                        (Ok(Answer::Sat(mut model)), Some((_, elim))) if d.member > 0 => {
                            elim.wait().ext.extend(&mut model);
                            Ok(Answer::Sat(model))
                        }
                        (answer, _) => answer,
                    };
                }
            }
        }
    }

    fn core(&mut self) -> Option<Vec<Lit>> {
        self.core.clone()
    }

    fn interrupt_on(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
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
}

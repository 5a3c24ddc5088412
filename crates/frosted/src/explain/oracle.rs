//! "Can these requirements hold together?", answered by the encode–simulate
//! loop of a solve, on one incremental solver that keeps everything it
//! learned from one question to the next.
//!
//! The level is encoded with requirement switches
//! ([`EncodeOptions::requirement_switches`]); a question assumes the
//! switches of its requirements, and `strong` while searching, `¬strong`
//! (only relaxations of the rules) while proving. An UNSAT answer while
//! proving (or one whose failed assumptions leave `strong` out) is a proof that no layout meets those
//! requirements, and the solver's failed assumptions name a subset that is
//! already impossible. A model is replayed by the simulator: the answer is
//! "yes" only when the run does not fail and meets every requirement asked
//! for. Otherwise the run becomes clauses that are true of every layout
//! whatever is asked later: the counterexample X1 as it is when the run
//! failed (every layout that agrees with it on the cells the run saw fails
//! the same way), and `X1 ∨ ¬switch(r)` for each requirement `r` the run
//! missed (every such layout misses `r` too). The wrong-branch clauses X2
//! are not used here (they rest on the run failing, which holds, but are
//! only an optimisation). When the SAT call was slow compared with the run,
//! the layouts one visited cell away from the rejected one are run too, and
//! each one rejected gets the same clauses (or is the answer)
//! ([`Oracle::run_neighbours`]): layouts the solver would otherwise have
//! proposed one SAT call at a time.
//!
//! After a question's first rejected layout, a walk from the runs kept so
//! far ([`super::walk`]) looks for a layout meeting the question by
//! changing one cell at a time, with the simulator only: a question whose
//! answer is "yes" but whose layouts the relaxation proposes badly (each
//! rejection one more SAT call) is often answered there. A walk adds no
//! clause; what it finds is judged like any model.
//!
//! What the solve before it learned comes in through [`Oracle::import`]:
//! the same clauses, made from the layouts that solve rejected
//! ([`Learned`]), and its runs that did not fail. With several threads the
//! solver is a race of copies ([`cegar::sat::race`]), as in a solve.

use super::learned::{Cut, Learned};
use super::pool::Pool;
use super::trace::{self, Trace};
use super::walk::{walk, Budget};
use super::{Reading, Watch, Work};
use crate::encode::{EncodeOptions, Encoding, FreeId, LoopGates, CHOICES};
use crate::grid::CellId;
use crate::level::Level;
use crate::requirement::{requirements, Achieved, Requirement};
use crate::sim::{simulate, Outcome};
use cegar::keyed::StorageKey as _;
use cegar::sat::race::Race;
use cegar::sat::{Answer, Backend, SolverChoice};
use cegar::solve::RACE_HEAD_START;
use cegar::xorshift::XorShift;
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A layout the simulator accepted, and what its run achieved.
#[derive(Clone)]
pub struct Witness {
    pub layout: Level,
    pub achieved: Achieved,
}

/// The default of [`super::ExplainOptions::neighbours_after`] from the
/// command line (`--explain-neighbours`): while the core is searched, a
/// rejected layout's neighbours are run when the SAT call that proposed it
/// took at least 100 times as long as its run, so where SAT calls are cheap
/// the loop goes on as before (running every neighbour of the
/// near-solutions of 12-deepest-midnight/03, under a millisecond a call,
/// took the explanation from 13 s to 60–80 s, as the clauses they add
/// slowed every later call; hence also none for the near-solutions). Where
/// calls are long (04-romantic-twilight/11, about 0.1 s), the core took 38
/// to 46 SAT calls instead of 101 to 113 (with the walks and the first
/// round of 8 calls). Before the walks it was off: on 12-deepest-midnight/03
/// the neighbours led the deletion to another minimal core whose last
/// question needed about 8 100 SAT calls; with the walks that core costs
/// 22 calls with or without them. The rule rests on timings, so a
/// one-thread explanation may vary from run to run.
pub const NEIGHBOURS_AFTER: u32 = 100;

/// The seed of the walks' generator: any fixed number (not zero) makes an
/// explanation the same from run to run.
const WALK_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The answer to one question.
pub enum Verdict {
    /// A layout whose run does not fail and meets every requirement asked for.
    Met(Witness),
    /// A proof that no layout meets them; the subset named by the solver's
    /// failed assumptions (in the order asked), itself impossible.
    Impossible(Vec<Requirement>),
    /// The deadline passed, or the question's SAT calls ran out, first.
    Unknown,
}

/// The level's encoding with requirement switches, on one solver.
pub struct Oracle {
    level: Level,
    enc: Encoding,
    backend: Box<dyn Backend>,
    vars: BasicVarManager,
    gates: LoopGates,
    switches: Vec<(Requirement, Lit)>,
    deadline: Option<Instant>,
    /// Runs that did not fail, none meeting a subset of what another meets.
    pool: Pool,
    /// Sets of requirements proved impossible.
    impossible: Vec<Vec<Requirement>>,
    /// Questions asked, SAT calls made, layouts the simulator rejected, and
    /// neighbours of rejected layouts run ([`Oracle::run_neighbours`]).
    pub questions: usize,
    pub calls: usize,
    pub counterexamples: usize,
    pub neighbours: usize,
    /// Where the counts are shown while questions run.
    watch: Option<Arc<Watch>>,
    /// Where trace lines go (`--debug-trace`).
    trace: Option<Trace>,
    /// Run a rejected layout's neighbours when its SAT call took at least
    /// this many times as long as its run ([`Oracle::run_neighbours`]);
    /// `None`: never.
    neighbours_after: Option<u32>,
    /// Runs made by walks ([`Oracle::walk`]).
    pub walked: usize,
    /// Runs a question's walk gets after its first rejected layout;
    /// `None`: no walk.
    walk_runs: Option<usize>,
    /// Where the walks draw their changes from.
    rng: XorShift,
}

impl Oracle {
    /// Encodes `level` (with `max_belts`, the belt bound gets a switch too)
    /// for `solver` (`threads` racing copies of it); every question gives up
    /// at `deadline`.
    pub fn new(
        level: &Level,
        opts: &EncodeOptions,
        solver: &SolverChoice,
        threads: usize,
        max_belts: Option<usize>,
        deadline: Option<Instant>,
    ) -> Result<Oracle, String> {
        let opts = EncodeOptions {
            requirement_switches: true,
            ..opts.clone()
        };
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let mut enc = Encoding::new(level, &opts, &mut cnf, &mut vars);
        let mut backend: Box<dyn Backend> = match threads > 1 {
            true => Box::new(Race::new(solver, threads, RACE_HEAD_START)),
            false => solver.build()?,
        };
        for cl in cnf {
            backend.add_clause(&cl);
        }
        let mut switches = enc.switches.clone();
        if let Some(k) = max_belts {
            let on = vars.new_lit();
            if k < enc.free.len() {
                for cl in enc.bound_belts(k, &mut vars) {
                    backend.add_clause(&cl);
                }
                for a in enc.belts.at_most(k).unwrap_or_default() {
                    backend.add_clause(&Clause::from([!on, a]));
                }
            }
            switches.push((Requirement::MaxBelts(k), on));
        }
        Ok(Oracle {
            level: level.clone(),
            enc,
            backend,
            vars,
            gates: LoopGates::new(),
            switches,
            deadline,
            pool: Pool::new(&requirements(level, max_belts)),
            impossible: Vec::new(),
            questions: 0,
            calls: 0,
            counterexamples: 0,
            neighbours: 0,
            watch: None,
            trace: None,
            neighbours_after: None,
            walked: 0,
            walk_runs: None,
            rng: XorShift(WALK_SEED),
        })
    }

    /// Runs a rejected layout's neighbours when the SAT call that proposed
    /// it took at least `ratio` times as long as its run (`None`: never).
    pub fn runs_neighbours(&mut self, ratio: Option<u32>) {
        self.neighbours_after = ratio;
    }

    /// Gives each question a walk of `runs` runs after its first rejected
    /// layout (`None`: no walk).
    pub fn walks(&mut self, runs: Option<usize>) {
        self.walk_runs = runs;
    }

    /// Shows the counts in `watch` at every SAT call from now on.
    pub fn watched_by(&mut self, watch: Option<Arc<Watch>>) {
        self.watch = watch;
    }

    /// Sends a trace line for every question, SAT call, rejected layout and
    /// walk from now on (`None`: none).
    pub fn traced_by(&mut self, trace: Option<Trace>) {
        self.trace = trace;
    }

    /// Sends the line `text()` makes, when tracing.
    fn trace(&self, text: impl FnOnce() -> String) {
        if let Some(t) = &self.trace {
            t.line(&text());
        }
    }

    /// The switch of `r`.
    fn switch(&self, r: Requirement) -> Option<Lit> {
        self.switches.iter().find(|p| p.0 == r).map(|p| p.1)
    }

    /// Gives the solver the clauses of the layouts a solve rejected, and
    /// keeps its runs that did not fail (see [`Learned`]).
    pub fn import(&mut self, learned: &Learned) {
        for cut in &learned.cuts {
            self.cut(cut);
        }
        for w in learned.pool.runs() {
            self.pool.remember(w);
        }
    }

    /// The clauses of one rejected layout: X1 over the cells its run
    /// visited when the run failed, else `X1 ∨ ¬switch(r)` per requirement
    /// `r` it missed (judged by the solve against the same requirements,
    /// the belt bound included).
    fn cut(&mut self, cut: &Cut) {
        let x1: Clause = cut
            .choices
            .iter()
            .map(|&(i, o)| !self.enc.choice[FreeId::create_from_index(i as usize)][usize::from(o)])
            .collect();
        let Some(missed) = &cut.missed else {
            self.backend.add_clause(&x1);
            return;
        };
        for &r in missed {
            if let Some(on) = self.switch(r) {
                let mut cl = x1.clone();
                cl.add(!on);
                self.backend.add_clause(&cl);
            }
        }
    }

    /// Records that no layout meets `reqs`, proved elsewhere (the solve's
    /// verdict): a later question holding them all is answered at once.
    pub fn known_impossible(&mut self, reqs: &[Requirement]) {
        self.impossible.push(reqs.to_vec());
    }

    /// The questions, SAT calls and rejected layouts so far, and the time
    /// since `start`.
    pub fn work(&self, start: Instant) -> Work {
        Work {
            questions: self.questions,
            calls: self.calls,
            counterexamples: self.counterexamples,
            neighbours: self.neighbours,
            walked: self.walked,
            time: start.elapsed(),
        }
    }

    /// The level asked about.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The runs seen so far that did not fail.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Can `reqs` hold together? Answered from what is known when it can
    /// ([`Oracle::recall`]), else asked ([`Oracle::solve`]).
    pub fn ask(&mut self, reqs: &[Requirement]) -> Result<Verdict, String> {
        self.ask_within(reqs, None)
    }

    /// [`Oracle::ask`], giving up on this question (`Unknown`) after
    /// `calls` SAT calls as well as at the oracle's deadline. What the calls
    /// learned stays, so asking again later goes on from there.
    pub fn ask_within(
        &mut self,
        reqs: &[Requirement],
        calls: Option<usize>,
    ) -> Result<Verdict, String> {
        if let Some(v) = self.recall(reqs) {
            return Ok(v);
        }
        self.questions += 1;
        self.trace(|| trace::question_line(&self.level, self.questions, reqs, calls));
        let v = self.solve(reqs, calls.map(|n| self.calls + n))?;
        self.trace(|| trace::verdict_line(self.questions, &v));
        if let Verdict::Impossible(c) = &v {
            self.impossible.push(c.clone());
        }
        Ok(v)
    }

    /// The answer to `reqs` from what is known already: a layout of the
    /// pool that meets them all, or a set proved impossible that they
    /// contain.
    fn recall(&self, reqs: &[Requirement]) -> Option<Verdict> {
        if let Some(w) = self.pool.meeting(reqs) {
            return Some(Verdict::Met(w.clone()));
        }
        let known = self
            .impossible
            .iter()
            .find(|c| c.iter().all(|r| reqs.contains(r)))?;
        Some(Verdict::Impossible(known.clone()))
    }

    /// Asks the solver until a layout the simulator accepts for `reqs`, a
    /// proof, the deadline, or (with `last_call`) that many SAT calls made
    /// by the oracle in all; after the first rejected layout, a walk
    /// ([`Oracle::walk`]) may find the layout instead. Like a solve,
    /// it searches with the strengthenings (`strong`) first, which finds
    /// layouts with fewer rejections, and proves without them: an UNSAT
    /// answer is a proof only when its failed assumptions leave `strong`
    /// out, or once `¬strong` is assumed.
    fn solve(&mut self, reqs: &[Requirement], last_call: Option<usize>) -> Result<Verdict, String> {
        let mut proving = !self.enc.adds_strength;
        let deadline = self.deadline;
        let mut walk_tried = false;
        loop {
            let spent = last_call.is_some_and(|n| self.calls >= n);
            if spent || deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(Verdict::Unknown);
            }
            let mode = match proving {
                true => !self.enc.strong,
                false => self.enc.strong,
            };
            let mut assumptions = vec![mode];
            assumptions.extend(reqs.iter().filter_map(|&r| self.switch(r)));
            self.calls += 1;
            self.show(reqs);
            let n = self.vars.n_used();
            let asked = Instant::now();
            let answer = self.backend.solve(&assumptions, n, deadline)?;
            self.trace(|| trace::call_line(self.calls, proving, &answer, asked.elapsed()));
            match answer {
                Answer::Unknown => return Ok(Verdict::Unknown),
                Answer::Unsat => {
                    let core = self.backend.core();
                    if proving || core.as_ref().is_some_and(|c| !c.contains(&mode)) {
                        return Ok(Verdict::Impossible(self.failed(reqs, core)));
                    }
                    proving = true;
                }
                Answer::Sat(model) => {
                    if let Some(w) = self.replay(&model, reqs, asked.elapsed()) {
                        return Ok(Verdict::Met(w));
                    }
                    if !walk_tried {
                        walk_tried = true;
                        if let Some(w) = self.walk(reqs) {
                            return Ok(Verdict::Met(w));
                        }
                    }
                }
            }
        }
    }

    /// A layout meeting `reqs` found by a walk from the pool's runs
    /// ([`walk`]), whose runs that did not fail join the pool.
    fn walk(&mut self, reqs: &[Requirement]) -> Option<Witness> {
        let runs = self.walk_runs?;
        let starts: Vec<Witness> = self.pool.runs().cloned().collect();
        let pool = &mut self.pool;
        let budget = Budget {
            runs,
            deadline: self.deadline,
        };
        let walked = walk(&self.level, &starts, reqs, budget, &mut self.rng, |w| {
            pool.remember(w)
        });
        self.walked += walked.runs;
        self.trace(|| trace::walk_line(walked.runs, walked.found.is_some()));
        walked.found
    }

    /// Shows the counts in the watch, if any, while `reqs` is asked.
    fn show(&self, reqs: &[Requirement]) {
        if let Some(w) = &self.watch {
            w.publish(Reading {
                questions: self.questions,
                asking: reqs.len(),
                calls: self.calls,
                counterexamples: self.counterexamples,
            });
        }
    }

    /// The requirements of `reqs` whose switches the solver's last UNSAT
    /// answer needed (all of them when it cannot tell).
    fn failed(&self, reqs: &[Requirement], core: Option<Vec<Lit>>) -> Vec<Requirement> {
        let Some(core) = core else {
            return reqs.to_vec();
        };
        reqs.iter()
            .copied()
            .filter(|&r| self.switch(r).is_some_and(|l| core.contains(&l)))
            .collect()
    }

    /// Reads a model, adds its loop formulas, runs its layout: the witness
    /// when the run meets `reqs`, else `None` after adding the clauses
    /// that block it, and those of the neighbours run within half of
    /// `call`, the time of the SAT call that proposed it, when that call
    /// took long enough ([`Oracle::run_neighbours`]), unless one of them is
    /// a witness.
    fn replay(&mut self, model: &[bool], reqs: &[Requirement], call: Duration) -> Option<Witness> {
        let founded = self.enc.founded(model);
        let lemmas = self
            .enc
            .unfounded(model, &founded, &mut self.vars, &mut self.gates, None);
        for cl in &lemmas {
            self.backend.add_clause(cl);
        }
        let layout = match lemmas.is_empty() {
            true => self.enc.decode(model),
            false => self.enc.decode_founded(model, &founded),
        };
        let ran = Instant::now();
        let outcome = simulate(&layout);
        let run_time = ran.elapsed();
        if let Some(w) = self.judge(&layout, &outcome, reqs) {
            return Some(w);
        }
        self.counterexamples += 1;
        self.trace(|| {
            let shown = self.trace.as_ref().is_some_and(|t| t.layouts);
            trace::rejected_lines(&self.level, &layout, &outcome, reqs, shown)
        });
        self.show(reqs);
        match self.neighbours_after {
            Some(ratio) if call >= run_time * ratio => {}
            _ => return None,
        }
        let before = self.neighbours;
        let found = self.run_neighbours(&layout, &outcome, reqs, call / 2);
        self.trace(|| trace::neighbours_line(self.neighbours - before, found.is_some()));
        found
    }

    /// Keeps the run of `layout` in the pool; the witness when it does not
    /// fail and meets `reqs`. Otherwise adds the clauses that block every
    /// layout agreeing with it on the cells its run visited: X1 when the
    /// run failed, else `X1 ∨ ¬switch(r)` for each requirement `r` it missed.
    fn judge(
        &mut self,
        layout: &Level,
        outcome: &Outcome,
        reqs: &[Requirement],
    ) -> Option<Witness> {
        let achieved = Achieved::of(&self.level, layout, outcome);
        let witness = Witness {
            layout: layout.clone(),
            achieved,
        };
        self.pool.remember(&witness);
        if witness.achieved.ran && reqs.iter().all(|&r| witness.achieved.meets(r)) {
            return Some(witness);
        }
        let cex = self.enc.counterexample(layout, outcome);
        if !witness.achieved.ran {
            self.backend.add_clause(&cex);
            return None;
        }
        let missed: Vec<Lit> = self
            .switches
            .iter()
            .filter(|(r, _)| !witness.achieved.meets(*r))
            .map(|p| p.1)
            .collect();
        for off in missed {
            let mut cl = cex.clone();
            cl.add(!off);
            self.backend.add_clause(&cl);
        }
        None
    }

    /// Runs the layouts that differ from the rejected `layout` on one free
    /// cell its run visited (every other choice there), judging each
    /// ([`Oracle::judge`]), until `budget` is spent (half the time of the
    /// SAT call that proposed `layout`, so running them adds at most half to
    /// the time of a question, while a neighbour blocked now is one layout
    /// the solver does not propose later); the first that meets `reqs` is the
    /// witness. The cells are taken from a place that moves on at each
    /// rejection, so that short budgets do not run the same cells each time.
    fn run_neighbours(
        &mut self,
        layout: &Level,
        outcome: &Outcome,
        reqs: &[Requirement],
        budget: Duration,
    ) -> Option<Witness> {
        let start = Instant::now();
        let cells: Vec<CellId> = self
            .level
            .free_cells()
            .filter(|c| outcome.visited[c.index()])
            .collect();
        if cells.is_empty() {
            return None;
        }
        let first = self.counterexamples % cells.len();
        for &c in cells[first..].iter().chain(&cells[..first]) {
            let now = layout.tile(c).belt();
            for other in CHOICES.into_iter().filter(|&o| o != now) {
                if start.elapsed() >= budget {
                    return None;
                }
                let neighbour = layout.with_choice(c, other);
                let run = simulate(&neighbour);
                self.neighbours += 1;
                if let Some(w) = self.judge(&neighbour, &run, reqs) {
                    return Some(w);
                }
            }
        }
        None
    }
}

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
//! only an optimisation).

use crate::encode::{EncodeOptions, Encoding, LoopGates};
use crate::level::Level;
use crate::requirement::{Achieved, Requirement};
use crate::sim::simulate;
use cegar::sat::{Answer, Backend, SolverChoice};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::time::Instant;

/// A layout the simulator accepted, and what its run achieved.
#[derive(Clone)]
pub struct Witness {
    pub layout: Level,
    pub achieved: Achieved,
}

/// The answer to one question.
pub enum Verdict {
    /// A layout whose run does not fail and meets every requirement asked for.
    Met(Witness),
    /// A proof that no layout meets them; the subset named by the solver's
    /// failed assumptions (in the order asked), itself impossible.
    Impossible(Vec<Requirement>),
    /// The deadline passed first.
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
    pool: Vec<Witness>,
    /// Sets of requirements proved impossible.
    impossible: Vec<Vec<Requirement>>,
    /// Questions asked, SAT calls made, and layouts the simulator rejected.
    pub questions: usize,
    pub calls: usize,
    pub counterexamples: usize,
}

impl Oracle {
    /// Encodes `level` (with `max_belts`, the belt bound gets a switch too)
    /// for `solver`; every question gives up at `deadline`.
    pub fn new(
        level: &Level,
        opts: &EncodeOptions,
        solver: &SolverChoice,
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
        let mut backend = solver.build()?;
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
            pool: Vec::new(),
            impossible: Vec::new(),
            questions: 0,
            calls: 0,
            counterexamples: 0,
        })
    }

    /// The switch of `r`.
    fn switch(&self, r: Requirement) -> Option<Lit> {
        self.switches.iter().find(|p| p.0 == r).map(|p| p.1)
    }

    /// Can `reqs` hold together? Answered from what is known when it can
    /// ([`Oracle::recall`]), else asked ([`Oracle::solve`]).
    pub fn ask(&mut self, reqs: &[Requirement]) -> Result<Verdict, String> {
        if let Some(v) = self.recall(reqs) {
            return Ok(v);
        }
        self.questions += 1;
        let v = self.solve(reqs)?;
        if let Verdict::Impossible(c) = &v {
            self.impossible.push(c.clone());
        }
        Ok(v)
    }

    /// The answer to `reqs` from what is known already: a layout of the
    /// pool that meets them all, or a set proved impossible that they
    /// contain.
    fn recall(&self, reqs: &[Requirement]) -> Option<Verdict> {
        if let Some(w) = self
            .pool
            .iter()
            .find(|w| reqs.iter().all(|&r| w.achieved.meets(r)))
        {
            return Some(Verdict::Met(w.clone()));
        }
        let known = self
            .impossible
            .iter()
            .find(|c| c.iter().all(|r| reqs.contains(r)))?;
        Some(Verdict::Impossible(known.clone()))
    }

    /// Keeps a run that did not fail in the pool, unless a layout there
    /// meets every requirement it meets (and drops those it outdoes).
    fn remember(&mut self, w: &Witness) {
        let meets = |x: &Witness| -> Vec<bool> {
            self.switches
                .iter()
                .map(|p| x.achieved.meets(p.0))
                .collect()
        };
        let new = meets(w);
        let covers = |a: &[bool], b: &[bool]| a.iter().zip(b).all(|(x, y)| *x || !*y);
        let old: Vec<Vec<bool>> = self.pool.iter().map(meets).collect();
        if old.iter().any(|o| covers(o, &new)) {
            return;
        }
        let mut i = 0;
        self.pool.retain(|_| {
            i += 1;
            !covers(&new, &old[i - 1])
        });
        self.pool.push(w.clone());
    }

    /// Asks the solver until a layout the simulator accepts for `reqs`, a
    /// proof, or the deadline. Like a solve,
    /// it searches with the strengthenings (`strong`) first, which finds
    /// layouts with fewer rejections, and proves without them: an UNSAT
    /// answer is a proof only when its failed assumptions leave `strong`
    /// out, or once `¬strong` is assumed.
    fn solve(&mut self, reqs: &[Requirement]) -> Result<Verdict, String> {
        let mut proving = !self.enc.adds_strength;
        loop {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(Verdict::Unknown);
            }
            let mode = match proving {
                true => !self.enc.strong,
                false => self.enc.strong,
            };
            let mut assumptions = vec![mode];
            assumptions.extend(reqs.iter().filter_map(|&r| self.switch(r)));
            self.calls += 1;
            let n = self.vars.n_used();
            match self.backend.solve(&assumptions, n, self.deadline)? {
                Answer::Unknown => return Ok(Verdict::Unknown),
                Answer::Unsat => {
                    let core = self.backend.core();
                    if proving || core.as_ref().is_some_and(|c| !c.contains(&mode)) {
                        return Ok(Verdict::Impossible(self.failed(reqs, core)));
                    }
                    proving = true;
                }
                Answer::Sat(model) => {
                    if let Some(w) = self.replay(&model, reqs) {
                        return Ok(Verdict::Met(w));
                    }
                }
            }
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
    /// that block it.
    fn replay(&mut self, model: &[bool], reqs: &[Requirement]) -> Option<Witness> {
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
        let outcome = simulate(&layout);
        let achieved = Achieved::of(&self.level, &layout, &outcome);
        let witness = Witness { layout, achieved };
        if witness.achieved.ran {
            self.remember(&witness);
        }
        if witness.achieved.ran && reqs.iter().all(|&r| witness.achieved.meets(r)) {
            return Some(witness);
        }
        let (layout, achieved) = (witness.layout, witness.achieved);
        self.counterexamples += 1;
        let cex = self.enc.counterexample(&layout, &outcome);
        if !achieved.ran {
            self.backend.add_clause(&cex);
            return None;
        }
        let missed: Vec<Lit> = self
            .switches
            .iter()
            .filter(|(r, _)| !achieved.meets(*r))
            .map(|p| p.1)
            .collect();
        for off in missed {
            let mut cl = cex.clone();
            cl.add(!off);
            self.backend.add_clause(&cl);
        }
        None
    }
}

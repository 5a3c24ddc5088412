//! CaDiCaL linked in through the `cadical` crate, which builds CaDiCaL's C++
//! sources with the `cc` crate (a C++ compiler, nothing else: no libclang, no
//! system library), so it is always built in.
//!
//! Unlike varisat it can be interrupted: a call stops with
//! [`Answer::Unknown`] at its deadline, at [`super::stop_all`], or when the
//! caller's cancel flag is set (a race member whose call was answered by
//! another member).

use super::{must_stop, Answer, Backend, Solved};
use rustsat::types::{Clause, Lit};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// When a running call must stop.
struct Stop {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    interrupt: Option<Arc<AtomicBool>>,
}

/// Whether `flag` is there and set.
fn raised(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
}

impl cadical::Callbacks for Stop {
    fn terminate(&mut self) -> bool {
        must_stop(self.deadline) || raised(&self.cancel) || raised(&self.interrupt)
    }
}

/// CaDiCaL's configuration: `plain`, its default options without any of its
/// preprocessing and inprocessing (variable elimination, probing,
/// subsumption, vivification, ...). The loop makes many short incremental
/// calls, and the racing copies after the first already hold a formula
/// simplified by variable elimination (`super::elim`); measured against the
/// default options in docs/performance.md ("CaDiCaL's plain configuration").
const CONFIG: &str = "plain";

/// One CaDiCaL solver ([`CONFIG`]).
pub struct CadicalBackend {
    solver: cadical::Solver<Stop>,
    buf: Vec<i32>,
    /// The assumptions of the last call, for [`Backend::core`].
    assumed: Vec<Lit>,
    cancel: Option<Arc<AtomicBool>>,
    /// See [`Backend::interrupt_on`].
    interrupt: Option<Arc<AtomicBool>>,
}

impl Default for CadicalBackend {
    fn default() -> Self {
        CadicalBackend {
            // The configuration is a constant CaDiCaL knows; should it ever
            // refuse it, its defaults do.
            solver: cadical::Solver::with_config(CONFIG).unwrap_or_else(|_| cadical::Solver::new()),
            buf: Vec::new(),
            assumed: Vec::new(),
            cancel: None,
            interrupt: None,
        }
    }
}

impl CadicalBackend {
    /// A solver whose calls also stop (with [`Answer::Unknown`]) while
    /// `cancel` is set.
    pub fn cancellable(cancel: Arc<AtomicBool>) -> Self {
        CadicalBackend {
            cancel: Some(cancel),
            ..CadicalBackend::default()
        }
    }
}

/// DIMACS numbering: variable `v` is `v + 1`, negative when negated.
fn to_dimacs(l: Lit) -> i32 {
    let v = l.var().idx() as i32 + 1;
    if l.is_neg() {
        -v
    } else {
        v
    }
}

impl Backend for CadicalBackend {
    fn add_clause(&mut self, clause: &Clause) {
        self.buf.clear();
        self.buf.extend(clause.iter().map(|&l| to_dimacs(l)));
        self.solver.add_clause(self.buf.iter().copied());
    }

    fn solve(&mut self, assumptions: &[Lit], n_vars: u32, deadline: Option<Instant>) -> Solved {
        // Every variable of the model exists in the solver, even one that no
        // clause names yet.
        if n_vars > 0 && self.solver.max_variable() < n_vars as i32 {
            self.solver.reserve(n_vars as i32);
        }
        self.solver.set_callbacks(Some(Stop {
            deadline,
            cancel: self.cancel.clone(),
            interrupt: self.interrupt.clone(),
        }));
        self.assumed = assumptions.to_vec();
        let answer = self
            .solver
            .solve_with(assumptions.iter().map(|&l| to_dimacs(l)));
        self.solver.set_callbacks(None);
        match answer {
            Some(true) => {
                let model = (0..n_vars)
                    .map(|v| self.solver.value(v as i32 + 1) == Some(true))
                    .collect();
                Ok(Answer::Sat(model))
            }
            Some(false) => Ok(Answer::Unsat),
            None => Ok(Answer::Unknown),
        }
    }

    fn core(&mut self) -> Option<Vec<Lit>> {
        if self.solver.status() != Some(false) {
            return None;
        }
        let assumed = std::mem::take(&mut self.assumed);
        let core = assumed
            .iter()
            .copied()
            .filter(|&l| self.solver.failed(to_dimacs(l)))
            .collect();
        self.assumed = assumed;
        Some(core)
    }

    fn interrupt_on(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.interrupt = flag;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::testing::{holds, lit};
    use crate::sat::VarisatBackend;
    use crate::xorshift::XorShift;

    /// The configuration is one CaDiCaL knows (else every solver would
    /// quietly fall back to the default options).
    #[test]
    fn the_configuration_is_known_to_cadical() {
        assert!(cadical::Solver::<Stop>::with_config(CONFIG).is_ok());
        assert!(cadical::Solver::<Stop>::with_config("no such configuration").is_err());
    }

    /// Over random incremental formulas with assumptions, CaDiCaL agrees with
    /// varisat on SAT/UNSAT, its models satisfy every clause and assumption,
    /// and its cores are unsatisfiable subsets of the assumptions.
    #[test]
    fn cadical_answers_like_varisat() {
        const VARS: u64 = 24;
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        let mut seen = (0, 0);
        for round in 0..8 {
            let mut cad = CadicalBackend::default();
            let mut one = VarisatBackend::default();
            let mut clauses: Vec<Clause> = Vec::new();
            for _ in 0..12 {
                for _ in 0..(6 + round) {
                    let cl: Clause = (0..3).map(|_| lit(&mut rng, VARS)).collect();
                    cad.add_clause(&cl);
                    one.add_clause(&cl);
                    clauses.push(cl);
                }
                let assumptions: Vec<Lit> =
                    (0..rng.below(5)).map(|_| lit(&mut rng, VARS)).collect();
                let want = one.solve(&assumptions, VARS as u32, None).expect("varisat");
                match cad.solve(&assumptions, VARS as u32, None).expect("cadical") {
                    Answer::Sat(m) => {
                        seen.0 += 1;
                        assert!(matches!(want, Answer::Sat(_)));
                        assert!(clauses.iter().all(|c| c.iter().any(|&l| holds(&m, l))));
                        assert!(assumptions.iter().all(|&l| holds(&m, l)));
                    }
                    Answer::Unsat => {
                        seen.1 += 1;
                        assert_eq!(want, Answer::Unsat);
                        let core = cad.core().expect("a core after UNSAT");
                        assert!(core.iter().all(|l| assumptions.contains(l)));
                        let mut check = VarisatBackend::default();
                        clauses.iter().for_each(|cl| check.add_clause(cl));
                        let again = check.solve(&core, VARS as u32, None).expect("answers");
                        assert_eq!(again, Answer::Unsat, "the core is unsatisfiable");
                    }
                    Answer::Unknown => panic!("no deadline was given"),
                }
            }
        }
        assert!(seen.0 > 5 && seen.1 > 5, "{seen:?} (sat, unsat)");
    }

    /// A set cancel flag stops the call without an answer.
    #[test]
    fn a_cancelled_call_has_no_answer() {
        let flag = Arc::new(AtomicBool::new(true));
        let mut cad = CadicalBackend::cancellable(flag);
        let a = Lit::new(0, false);
        cad.add_clause(&Clause::from([a, Lit::new(1, false)]));
        assert_eq!(cad.solve(&[], 2, None), Ok(Answer::Unknown));
    }
}

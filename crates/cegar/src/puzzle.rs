//! The seam between the loop and a puzzle: what a puzzle must give the loop
//! (an encoding, a way to read a model, an exact check) and what it may give
//! (a lower bound proved without SAT, windows for a neighbourhood search, a
//! second view of its formula for racing copies).
//!
//! The loop knows candidates only through this trait: it never looks inside
//! one. A candidate is whatever the puzzle's answer is (a placement of
//! pieces, a path); its *cost* is the number the loop pushes down (pieces
//! placed, cells used).

use crate::report::Nouns;
use rustsat::instances::{Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::sync::atomic::AtomicBool;

/// What the encoding tells the loop, once it is written.
#[derive(Clone, Debug, Default)]
pub struct Encoded {
    /// Switches on the *strengthenings*: constraints that prune hard but may
    /// cut off real solutions. The loop assumes it while searching and its
    /// negation while proving, so that an UNSAT answer while proving is a
    /// proof. `None`: the encoding has no strengthening.
    pub strong: Option<Lit>,
    /// Whether assuming `strong` adds anything; when not, the loop proves
    /// from its first call.
    pub adds_strength: bool,
    /// Requirement switches, assumed in every call.
    pub goals: Vec<Lit>,
    /// The number of *decisions*: the units the neighbourhood search frees
    /// or keeps (free cells, say). 0 turns the neighbourhood search off.
    pub decisions: usize,
    /// The largest cost any candidate can have; a bound at or above it is
    /// no bound.
    pub max_cost: usize,
}

/// What a model means.
#[derive(Clone, Debug)]
pub struct Decoded<C> {
    /// The candidate to check; `None` when the model describes none (a
    /// detached cycle, say): the lemmas must then rule the model out.
    pub candidate: Option<C>,
    /// Clauses that every solution satisfies (loop formulas, cycle cuts)
    /// and that this model violates; the loop adds them.
    pub lemmas: Vec<Clause>,
    /// One justification per lemma, opaque to the loop, for certificates
    /// ([`crate::solve::Origin::Lemma`]); may be empty when not recording.
    pub notes: Vec<String>,
}

/// The exact check's verdict on a candidate.
#[derive(Clone, Debug)]
pub enum Check {
    /// The candidate solves the puzzle at this cost.
    Accepted { cost: usize },
    /// The candidate fails. Each clause blocks it and every candidate that
    /// fails for the same reason (and no solution); the first is the
    /// counterexample proper. `reason` says why, when asked for.
    Rejected {
        clauses: Vec<Clause>,
        reason: Option<String>,
    },
}

/// A lower bound's answer to "could a solution cost at most `k`?".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No solution costs at most `k`: a proof.
    Refuted,
    /// The bound cannot rule it out.
    Allowed,
    /// The search ran out of its budget of work.
    OutOfBudget,
}

/// A lower bound on the cost of every solution, proved without SAT. It is
/// `Send`, since the loop runs its searches on a thread of their own.
pub trait LowerBound: Send {
    /// Its name in claims and proofs ("the chain bound").
    fn name(&self) -> &'static str;
    /// Could a solution cost at most `k`? May do `budget` units of work.
    fn allows(&self, k: usize, budget: u64) -> Bound;
    /// [`LowerBound::allows`], giving up with `OutOfBudget` soon after
    /// `stop` is set (the loop stops a search whose question a newer one
    /// has made moot). By default `stop` is not looked at.
    fn allows_unless(&self, k: usize, budget: u64, stop: &AtomicBool) -> Bound {
        let _ = stop;
        self.allows(k, budget)
    }
    /// Whether it has a deeper search ([`LowerBound::allows_deeper`]).
    fn has_deeper(&self) -> bool {
        false
    }
    /// The deeper search, where the bound has one: as
    /// [`LowerBound::allows_unless`], but harder per unit of budget, so
    /// that it refutes bounds the plain search allows. The loop asks it,
    /// with a small budget, only when the plain search allowed one unit
    /// under a verified candidate. By default it runs out at once.
    fn allows_deeper(&self, k: usize, budget: u64, stop: &AtomicBool) -> Bound {
        let _ = (k, budget, stop);
        Bound::OutOfBudget
    }
    /// The work done so far, in the units of `budget`.
    fn work(&self) -> u64;
}

/// The largest cost below `below` that `lb` refutes (no candidate costs at
/// most it), searched by bisection with `budget` units of work per
/// question; `None` when it refutes none it was asked. A question that runs
/// out of its budget counts as not refuted, so the answer is a proof, not
/// necessarily the largest the bound could refute.
pub fn largest_refuted(lb: &dyn LowerBound, below: usize, budget: u64) -> Option<usize> {
    let (mut refuted, mut from, mut to) = (None, 0, below);
    while from < to {
        let k = from + (to - from) / 2;
        match lb.allows(k, budget) {
            Bound::Refuted => (refuted, from) = (Some(k), k + 1),
            _ => to = k,
        }
    }
    refuted
}

/// One decision of a candidate, for the neighbourhood search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// True exactly when the decision is as in the candidate.
    pub keep: Lit,
    /// The candidate pays for this decision (it costs a unit).
    pub costs: bool,
}

/// A puzzle the loop can solve. The loop calls [`Puzzle::encode`] once,
/// first; then it asks the solver, reads each model with
/// [`Puzzle::decode`], checks each candidate with [`Puzzle::check`], and
/// adds what they return, until it has a cheapest solution or a proof.
///
/// Soundness rests on three promises: every clause of the encoding without
/// `strong` holds for every solution (a *relaxation*); every lemma and every
/// counterexample clause holds for every solution; a lower bound's
/// `Refuted` is a proof. Then UNSAT while proving means no solution.
pub trait Puzzle {
    /// A candidate answer (a layout, a track).
    type Candidate: Clone;

    /// Writes the encoding into `cnf`, asking `vars` for variables.
    fn encode(&mut self, cnf: &mut Cnf, vars: &mut dyn ManageVars) -> Result<Encoded, String>;

    /// Makes "cost at most `k`" available: returns the clauses that it needs
    /// first (a lazily built counter; often none) and the literals to assume.
    fn cost_at_most(&mut self, k: usize, vars: &mut dyn ManageVars) -> (Vec<Clause>, Vec<Lit>);

    /// Reads a model (`model[v]`: the value of variable `v`).
    fn decode(&mut self, model: &[bool], vars: &mut dyn ManageVars) -> Decoded<Self::Candidate>;

    /// Runs the exact check; `explain`: say why a rejected candidate fails.
    fn check(&mut self, candidate: &Self::Candidate, explain: bool) -> Check;

    /// For enumeration ([`crate::enumerate`]): a clause that the accepted
    /// `candidate`, and every candidate the puzzle counts as the same
    /// solution, violate, and every other solution satisfies. By default:
    /// some decision ([`Puzzle::decisions_of`]) differs from the
    /// candidate's; `None` when the puzzle has no decisions (it cannot
    /// enumerate).
    fn block(&mut self, candidate: &Self::Candidate) -> Option<Clause> {
        let decisions = self.decisions_of(candidate);
        (!decisions.is_empty()).then(|| decisions.iter().map(|d| !d.keep).collect())
    }

    /// A candidate built without the solver (a heuristic), asked once
    /// before the first SAT call when [`crate::solve::Options::sketch`] is
    /// on; the loop checks it like any model's candidate, so a wrong one
    /// only costs its check. By default there is none.
    fn sketch(&mut self) -> Option<Self::Candidate> {
        None
    }

    /// A lower bound for this instance, or why there is none.
    fn lower_bound(&self) -> Result<Box<dyn LowerBound>, String> {
        Err("this puzzle has no lower bound".into())
    }

    /// Windows for the neighbourhood search: sets of decisions (indices
    /// below [`Encoded::decisions`], sorted) to free while the others keep
    /// their values.
    fn windows(&self) -> Vec<Vec<usize>> {
        Vec::new()
    }

    /// Windows that follow a verified candidate (for example the decisions
    /// one part of it uses, and those beside them), tried after
    /// [`Puzzle::windows`] in the neighbourhood search around it. Same form
    /// as [`Puzzle::windows`]; by default none.
    fn windows_around(&mut self, _candidate: &Self::Candidate) -> Vec<Vec<usize>> {
        Vec::new()
    }

    /// Focus for the first searches: sets of literals to assume, narrowest
    /// first, each keeping the search to a part of the instance where a
    /// candidate is likely (none: no focus). Until the first verified
    /// candidate, a call over the whole instance (searching or proving)
    /// assumes the current set for a short slice; an UNSAT answer or a
    /// slice run out moves to the next set, then
    /// to none. A model under a focus is a model of the formula, judged like
    /// any other; an UNSAT answer under it proves nothing and is never
    /// reported as a proof. The literals must be interface variables.
    fn focus(&self) -> Vec<Vec<Lit>> {
        Vec::new()
    }

    /// The candidate's decisions, one per decision index.
    fn decisions_of(&self, _candidate: &Self::Candidate) -> Vec<Decision> {
        Vec::new()
    }

    /// A second view of the formula for racing copies after the first:
    /// clauses equivalent to `first` on the [`Puzzle::interface`]
    /// variables, which the copies hold with no variable eliminated (unit
    /// clauses propagated only). `None`: the copies hold the first view,
    /// simplified by variable elimination.
    fn second_view(
        &mut self,
        _first: &[Clause],
        _vars: &mut dyn ManageVars,
    ) -> Option<Vec<Clause>> {
        None
    }

    /// Per variable: later clauses or assumptions may name it, so variable
    /// elimination must keep it.
    fn interface(&self) -> Vec<bool> {
        Vec::new()
    }

    /// The puzzle's words for claims and dumps.
    fn nouns(&self) -> Nouns {
        Nouns {
            candidate: "candidate",
            unit: "unit",
            units: "units",
            instance: "instance",
            checker: "check",
        }
    }

    /// Comment lines that name the variables, for formula dumps.
    fn variable_comments(&self) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bound that refutes every cost up to `refutes` (none: `None`), and
    /// runs out of its budget from `out` on (allowing the rest).
    struct Fake {
        refutes: Option<usize>,
        out: usize,
    }

    impl LowerBound for Fake {
        fn name(&self) -> &'static str {
            "fake"
        }
        fn allows(&self, k: usize, _budget: u64) -> Bound {
            match k {
                k if self.refutes.is_some_and(|r| k <= r) => Bound::Refuted,
                k if k >= self.out => Bound::OutOfBudget,
                _ => Bound::Allowed,
            }
        }
        fn work(&self) -> u64 {
            0
        }
    }

    #[test]
    fn the_bisection_finds_the_largest_cost_refuted_below_the_cap() {
        let lb = Fake {
            refutes: Some(6),
            out: usize::MAX,
        };
        assert_eq!(largest_refuted(&lb, 20, 1), Some(6));
        assert_eq!(largest_refuted(&lb, 7, 1), Some(6));
        // Only costs under the cap are asked.
        assert_eq!(largest_refuted(&lb, 4, 1), Some(3));
        assert_eq!(largest_refuted(&lb, 0, 1), None);
    }

    #[test]
    fn a_question_out_of_budget_is_no_refutation() {
        // Refuted up to 6, out of budget from 3: the answer is what was
        // refuted among the questions asked, never more.
        let lb = Fake {
            refutes: Some(6),
            out: 3,
        };
        let k = largest_refuted(&lb, 20, 1);
        assert!(k.is_some_and(|k| k <= 6), "{k:?}");
        let none = Fake {
            refutes: None,
            out: 10,
        };
        assert_eq!(largest_refuted(&none, 20, 1), None);
    }
}

//! The cardinality bound on a candidate's cost: a totalizer over the
//! literals that each cost one unit, whose bounds the loop sets by
//! assumptions ("at most `k`").
//!
//! On a large instance the totalizer for every bound costs clauses in the
//! square of the number of literals, so it may be built *lazily*: only for
//! the bounds up to some `k` at first, and grown when the loop asks for more
//! (to at least twice its last size, so a descent of bounds re-encodes
//! rarely). Either way it is exact: it never changes what "at most `k`"
//! means, only when its clauses are written.

use rustsat::encodings::card::{BoundUpper, BoundUpperIncremental, Totalizer};
use rustsat::instances::{Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::ops::Range;

/// Counts the literals that hold.
#[derive(Default)]
pub struct CostCounter {
    totalizer: Totalizer,
    /// How many literals it counts.
    n: usize,
    /// The largest bound encoded so far.
    upto: usize,
    /// When it is lazy, the variables of its first encoding: later bounds
    /// add clauses on them, so variable elimination must keep them.
    lazy_vars: Range<usize>,
}

impl CostCounter {
    /// Counts `lits`, with every bound up to `upto` encoded now (all of
    /// them when `upto` is at least their number). Returns the clauses
    /// written.
    pub fn new(lits: Vec<Lit>, upto: usize, vars: &mut dyn ManageVars) -> (CostCounter, Cnf) {
        let n = lits.len();
        let upto = upto.min(n);
        let mut totalizer = Totalizer::from_iter(lits);
        let mut cnf = Cnf::new();
        let first_var = vars.n_used() as usize;
        // A totalizer only runs out of memory on absurd sizes; then fewer
        // bounds are encoded and `assumptions` says so by being empty.
        let _ = totalizer.encode_ub(0..=upto, &mut cnf, vars);
        let lazy_vars = match upto < n {
            true => first_var..vars.n_used() as usize,
            false => 0..0,
        };
        let counter = CostCounter {
            totalizer,
            n,
            upto,
            lazy_vars,
        };
        (counter, cnf)
    }

    /// The largest `k` for which [`CostCounter::at_most`] works now.
    pub fn encoded_upto(&self) -> usize {
        self.upto
    }

    /// Makes "at most `k`" available: the clauses that takes (none where
    /// the counter already covers `k`).
    pub fn encode_at_most(&mut self, k: usize, vars: &mut dyn ManageVars) -> Vec<Clause> {
        if k <= self.upto || self.upto >= self.n {
            return Vec::new();
        }
        let upto = k.max(2 * self.upto).min(self.n);
        let mut cnf = Cnf::new();
        let _ = self.totalizer.encode_ub_change(0..=upto, &mut cnf, vars);
        self.upto = upto;
        cnf.into_iter().collect()
    }

    /// The literals to assume for "at most `k`" (empty when it bounds
    /// nothing), or `None` when `k` is not encoded yet.
    pub fn at_most(&self, k: usize) -> Option<Vec<Lit>> {
        self.totalizer.enforce_ub(k).ok()
    }

    /// Marks the variables later clauses or assumptions may name: the
    /// outputs of every bound, and the lazy counter's inner variables.
    pub fn mark_interface(&self, keep: &mut [bool]) {
        let mut mark = |v: usize| {
            if let Some(k) = keep.get_mut(v) {
                *k = true;
            }
        };
        self.lazy_vars.clone().for_each(&mut mark);
        for b in 0..=self.n {
            for l in self.at_most(b).unwrap_or_default() {
                mark(l.var().idx());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::{Answer, Backend, VarisatBackend};
    use rustsat::instances::BasicVarManager;

    /// Whatever is encoded when, "at most k" holds exactly for the
    /// assignments with at most `k` true literals.
    #[test]
    fn at_most_k_means_at_most_k_eager_or_lazy() {
        for first in [0, 2, 5] {
            let mut vars = BasicVarManager::default();
            let lits: Vec<Lit> = (0..5).map(|_| vars.new_lit()).collect();
            let (mut counter, cnf) = CostCounter::new(lits.clone(), first, &mut vars);
            let mut solver = VarisatBackend::default();
            cnf.iter().for_each(|cl| solver.add_clause(cl));
            for k in (0..5).rev() {
                for cl in counter.encode_at_most(k, &mut vars) {
                    solver.add_clause(&cl);
                }
                for forced in 0..=5 {
                    let mut assume = counter.at_most(k).expect("encoded");
                    assume.extend(&lits[..forced]);
                    let answer = solver.solve(&assume, vars.n_used(), None);
                    let sat = matches!(answer, Ok(Answer::Sat(_)));
                    assert_eq!(sat, forced <= k, "first {first}, k {k}, forced {forced}");
                }
            }
        }
    }
}

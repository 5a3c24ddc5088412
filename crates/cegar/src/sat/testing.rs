//! Helpers for the backends' tests: random literals and model checks.

use super::{Clause, Lit};
use crate::xorshift::XorShift;

/// A random literal over `vars` variables.
pub fn lit(rng: &mut XorShift, vars: u64) -> Lit {
    Lit::new(rng.below(vars) as u32, rng.below(2) == 1)
}

/// Whether `model` makes `l` true.
pub fn holds(model: &[bool], l: Lit) -> bool {
    model[l.var().idx()] != l.is_neg()
}

/// The model satisfies every clause and every assumption.
pub fn satisfies(model: &[bool], clauses: &[Clause], assumptions: &[Lit]) -> bool {
    clauses.iter().all(|cl| cl.iter().any(|&l| holds(model, l)))
        && assumptions.iter().all(|&l| holds(model, l))
}

//! A puzzle-independent CEGAR back end: SAT backends behind one trait, DIMACS
//! writing and reading, variable elimination, racing solvers, and encodings that
//! any grid puzzle can use.

pub mod acyclic;
pub mod keyed;
pub mod sat;
pub mod xorshift;

//! A puzzle-independent CEGAR back end for grid puzzles whose answers are
//! checked by an exact simulation.
//!
//! A puzzle plugs in through [`Puzzle`]: it writes its encoding into a clause
//! collector, reads models, and checks candidates exactly. The loop
//! ([`solve()`]) asks a SAT backend ([`sat`]: varisat, CaDiCaL, any DIMACS
//! solver binary, or a race of them), checks every candidate, refines on each
//! failure, pushes the cost down, and proves. It knows nothing of any puzzle.
//!
//! - [`puzzle`]: the seam (the trait, what it returns);
//! - [`solve`](mod@solve): the loop and its options and events;
//! - [`report`]: statuses, claims and proofs as types;
//! - [`sat`]: backends, DIMACS, variable elimination, racing;
//! - [`acyclic`], [`cost`], [`keyed`]: building blocks for encodings.

pub mod acyclic;
pub mod cost;
pub mod keyed;
pub mod puzzle;
pub mod record;
pub mod report;
pub mod sat;
pub mod solve;
pub mod xorshift;

pub use puzzle::{largest_refuted, Bound, Check, Decision, Decoded, Encoded, LowerBound, Puzzle};
pub use report::{Claim, Counts, Nouns, Progress, Proof, ProofMethod, Report, Status, Stop, Times};
pub use solve::{
    enumerate, solve, EnumEnd, Enumeration, Event, Options, Origin, FOCUS_SLICE, REPAIR_FROM,
    RESTARTS, RESTART_SLICE,
};

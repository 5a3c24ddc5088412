//! Why a level has no solution: its requirements ([`requirement`]) each
//! behind a switch, a minimal set of them that no layout meets together (a
//! core, [`core`]), found by the same encode–simulate loop as a solve
//! ([`oracle`]), and for each requirement of the core a near-solution that
//! meets as many of the others as can hold without it.

pub mod requirement;

pub use requirement::{requirements, Achieved, Requirement};

//! Freshly Frosted: the level format, the exact simulator, and a SAT-based solver
//! that places belts and proves things about them.
//!
//! The modules, from the bottom up:
//! - [`grid`]: typed directions, cells and donut kinds;
//! - [`level`] and [`parse`]: the level model and the level format;
//! - [`sim`]: the exact tick-by-tick simulator, the trusted reference;
//! - [`judge`]: whether a layout solves its level, and why not;
//! - [`requirement`]: the rules' section 5, one requirement at a time;
//! - [`encode`]: the SAT encoding, and [`chains`]: the chain bound;
//! - [`explain`]: why a level has no solution (level check, cores,
//!   near-solutions), [`certify`]: re-deriving a certificate's clauses,
//!   [`generate`]: new levels built around a hidden layout;
//! - [`improve`] and [`focus`]: the neighbourhood search's windows, and the
//!   corridors the first searches look in;
//! - [`picture`]: the level as an SVG and the run as an HTML replay;
//! - [`puzzle`]: all of it as a [`cegar::Puzzle`], for the solve loop.

pub mod branch;
pub mod certify;
pub mod chains;
pub mod encode;
pub mod explain;
pub mod focus;
pub mod generate;
pub mod grid;
pub mod improve;
pub mod judge;
pub mod level;
pub mod parse;
pub mod picture;
pub mod puzzle;
pub mod render;
pub mod requirement;
pub mod sim;
pub mod sketch;

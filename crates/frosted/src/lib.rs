//! Freshly Frosted: the level format, the exact simulator, and a SAT-based solver
//! that places belts and proves things about them.
//!
//! The modules, from the bottom up:
//! - [`grid`]: typed directions, cells and donut kinds;
//! - [`level`] and [`parse`]: the level model and the level format;
//! - [`sim`]: the exact tick-by-tick simulator, the trusted reference;
//! - [`judge`]: whether a layout solves its level, and why not.

/// `eprintln!` that cannot panic (temporary: the solve loop moves to `cegar`).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod branch;
pub mod chains;
pub mod encode;
pub mod grid;
pub mod improve;
pub mod judge;
pub mod level;
pub mod parse;
pub mod puzzle;
pub mod render;
pub mod sim;
pub mod solve_loop;

//! The `frosted` command line, and the names the tests and benchmarks use: the
//! puzzle's modules (from `freshly-frosted`) and the back end's (`cegar`) under
//! one roof.

/// `eprintln!` that cannot panic: when stderr cannot be written (a full disk,
/// a closed stderr) the line is dropped, as there is nowhere left to report it.
/// Defined before the modules, so that all of them see it.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod cli;

pub use ::cegar::{sat, xorshift};
pub use freshly_frosted::{
    branch, certify, chains, encode, explain, grid, improve, judge, level, parse, render, sim,
    sketch,
};
pub use snippet;

//! `frosted generate`: new levels in the game's style, each built around a
//! hidden layout so that it is solvable by construction.
//!
//! An attempt ([`build`]) places sources and draws belt paths from them past
//! toppers (beside waypoints) to targets, through splitters, teleporters
//! (one or several outs), sorting bumpers, merges and crossovers, as the
//! [`Spec`] allows. [`finish`] runs the simulator on that hidden layout,
//! sets each target's kind and `:targets` from what the run delivered,
//! removes the belts (keeping a few as preset belts), and checks with the
//! judge that the hidden layout solves the level. An attempt that finds no
//! room, or whose run fails, is dropped and the next one is tried: attempt
//! `i` draws from its own stream of the seed, so the same seed and options
//! always give the same level.

mod board;
mod build;
mod ends;
mod finish;
mod rng;
mod spec;
mod streams;
mod unique;

pub use finish::Pair;
pub use spec::{Mechanic, Request, Spec, Style};
pub use unique::{uniqueness, Uniqueness};

use rng::{mix, Rng};

/// The most attempts tried for one level before giving up.
pub const MAX_ATTEMPTS: usize = 2000;

/// A generated level, its hidden layout, and how it was made.
#[derive(Clone, Debug)]
pub struct Generated {
    pub pair: Pair,
    pub spec: Spec,
    /// The attempt (from 0) that gave the level.
    pub attempt: usize,
}

/// The random stream of attempt `attempt` of `seed`.
fn attempt_rng(seed: u64, attempt: usize) -> Rng {
    Rng::new(mix(seed) ^ mix(attempt as u64 + 1).rotate_left(17))
}

/// Generates a level for `request`: the first attempt whose hidden layout
/// solves its level and that `accept` takes (`--unique` asks for a unique
/// minimal layout there). Errors when the request is impossible or no
/// attempt succeeds within [`MAX_ATTEMPTS`].
pub fn generate(
    request: &Request,
    accept: &mut dyn FnMut(&Pair) -> bool,
) -> Result<Generated, String> {
    let spec = request.resolve()?;
    for attempt in 0..MAX_ATTEMPTS {
        let mut rng = attempt_rng(request.seed, attempt);
        let Some(board) = build::build(&spec, &mut rng) else {
            continue;
        };
        let Some(mut pair) = finish::finish(&board, &spec, &mut rng) else {
            continue;
        };
        if !accept(&pair) {
            continue;
        }
        let comments = spec.comments(request, attempt);
        pair.level.flags.comments = comments.clone();
        pair.layout.flags = pair.level.flags.clone();
        pair.layout
            .flags
            .comments
            .push("the hidden layout the level was built around".into());
        return Ok(Generated {
            pair,
            spec,
            attempt,
        });
    }
    Err(format!(
        "no level found in {MAX_ATTEMPTS} attempts for {}; try another seed, a larger size or fewer mechanics",
        spec.describe()
    ))
}

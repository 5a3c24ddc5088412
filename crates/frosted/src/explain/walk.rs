//! A layout for a question found without the solver: a walk over layouts
//! that starts from the runs kept so far (those closest to the question
//! first) and changes one `.` cell at a time (one the run visited or next
//! to one it visited), keeping a change whose run is no further from the
//! requirements asked for ([`Achieved::shortfall`]).
//!
//! A walk can only answer "yes": what it finds is a layout the simulator
//! ran, judged against the requirements like any other. When it finds
//! nothing, nothing is concluded and the solver is asked as before, with
//! the same formula: a walk adds no clause. Its runs that did not fail are
//! handed back (the oracle keeps them in its pool), so a later question
//! one of them answers costs nothing either. It draws its changes from a
//! seeded generator, so an explanation is the same from run to run.

use super::oracle::Witness;
use crate::encode::CHOICES;
use crate::grid::{CellId, Dir};
use crate::level::{Level, Tile};
use crate::requirement::{Achieved, Requirement};
use crate::sim::simulate;
use cegar::xorshift::XorShift;
use std::time::Instant;

/// The runs a question's walk may make, the default of
/// [`super::ExplainOptions::walk_runs`] (`--explain-walk`).
pub const WALK_RUNS: usize = 2_000;

/// Runs from one start without coming closer before the walk moves on to
/// the next start.
const PATIENCE: usize = 200;

/// How long a walk may go on: at most `runs` steps, and not past `deadline`.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub runs: usize,
    pub deadline: Option<Instant>,
}

impl Budget {
    /// Whether a walk that made `made` runs must stop.
    fn spent(&self, made: usize) -> bool {
        made >= self.runs || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What a walk found, and how many runs it made.
pub struct Walked {
    pub found: Option<Witness>,
    pub runs: usize,
}

/// How far `w` is from meeting every requirement of `reqs`: 0 when it meets
/// them all.
fn distance(w: &Achieved, reqs: &[Requirement]) -> usize {
    reqs.iter().map(|&r| w.shortfall(r)).sum()
}

/// A layout of `level` meeting every requirement of `reqs`, looked for
/// within `budget` (its runs are steps: a step is one run, or the end of a
/// start with no `.` cell near its run) from `starts` (runs that did not
/// fail), taken in turn, each until [`PATIENCE`] steps bring it no closer;
/// `seen` gets every run made that did not fail.
pub fn walk(
    level: &Level,
    starts: &[Witness],
    reqs: &[Requirement],
    budget: Budget,
    rng: &mut XorShift,
    mut seen: impl FnMut(&Witness),
) -> Walked {
    let mut order: Vec<&Witness> = starts.iter().collect();
    order.sort_by_key(|w| distance(&w.achieved, reqs));
    let free: Vec<bool> = level.tiles.iter().map(|&t| t == Tile::Empty).collect();
    let mut made = 0;
    for start in order.iter().cycle() {
        if budget.spent(made) {
            break;
        }
        let mut here = (*start).clone();
        let mut near = cells_near_the_run(level, &free, &simulate(&here.layout).visited);
        let mut best = distance(&here.achieved, reqs);
        let mut stale = 0;
        while !budget.spent(made) && stale < PATIENCE {
            made += 1;
            stale += 1;
            if near.is_empty() {
                break;
            }
            let c = near[rng.below(near.len() as u64) as usize];
            let other = another_choice(here.layout.tile(c).belt(), rng);
            let layout = here.layout.with_choice(c, other);
            let outcome = simulate(&layout);
            let achieved = Achieved::of(level, &layout, &outcome);
            if !achieved.ran {
                continue;
            }
            let w = Witness { layout, achieved };
            seen(&w);
            let d = distance(&w.achieved, reqs);
            if d == 0 {
                return Walked {
                    found: Some(w),
                    runs: made,
                };
            }
            if d <= best {
                stale = if d < best { 0 } else { stale };
                best = d;
                here = w;
                near = cells_near_the_run(level, &free, &outcome.visited);
            }
        }
    }
    Walked {
        found: None,
        runs: made,
    }
}

/// The `.` cells the run visited or next to one it visited (where a change
/// can alter the run), in scan order.
fn cells_near_the_run(level: &Level, free: &[bool], visited: &[bool]) -> Vec<CellId> {
    let near = |c: CellId| {
        visited[c.index()]
            || Dir::ALL
                .iter()
                .any(|&d| level.shape.step(c, d).is_some_and(|n| visited[n.index()]))
    };
    level
        .shape
        .cells()
        .filter(|c| free[c.index()] && near(*c))
        .collect()
}

/// One of the other options of a `.` cell, at random.
fn another_choice(now: Option<Dir>, rng: &mut XorShift) -> Option<Dir> {
    let others: Vec<Option<Dir>> = CHOICES.into_iter().filter(|&o| o != now).collect();
    others[rng.below(others.len() as u64) as usize]
}

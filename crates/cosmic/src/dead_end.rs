//! Where a failed track went wrong for good: the shortest prefix after which
//! no way of going on can solve the level. The loop blocks that prefix, and
//! with it every track that starts the same way.
//!
//! After moment `k` (the engine on `path[k]`, not the exit), the run so far
//! depends on `path[0..=k]` alone. The prefix is a *dead end* when, after
//! that moment:
//! - every car is gooped and a Purple or Orange alien remains (no car will
//!   ever take it, rules §4.4); or
//! - some remaining alien or house has no neighbour where a car can still
//!   be handled: the last `length` cells of the prefix (cars behind the
//!   engine reach them later) and the cells the track can still reach from
//!   `path[k]` without touching a used or blocked cell; or
//! - the exit cannot be reached that way.
//!
//! Each of these leaves an alien or a house unserved (or no track at all),
//! so every track with the prefix fails. That holds too for a track whose
//! exit comes right after `path[k]`, where moment `k` does not happen: the
//! run then stops one moment earlier, with at least the same aliens and
//! houses left (a moment only ever removes some), and its exit is next to
//! `path[k]`, so the third case does not apply to it.

use crate::grid::{Color, Point};
use crate::level::Level;
use crate::sim::Train;
use std::collections::{HashSet, VecDeque};

/// The shortest dead-end prefix of `path`, as its last index `k`; `None`
/// when the run only fails at its end.
pub fn dead_end(level: &Level, path: &[Point]) -> Option<usize> {
    let mut train = Train::new(level);
    let mut events = Vec::new();
    for k in 1..path.len().saturating_sub(1) {
        train.moment(level, path, k, &mut events);
        events.clear();
        if is_dead_end(level, path, k, &train) {
            return Some(k);
        }
    }
    None
}

/// Whether the run cannot succeed after moment `k` (see the module doc).
fn is_dead_end(level: &Level, path: &[Point], k: usize, train: &Train) -> bool {
    if gooped_out(level, train) {
        return true;
    }
    let used: HashSet<Point> = path[..=k].iter().copied().collect();
    let Some(ahead) = reachable(level, path[k], &used) else {
        return true;
    };
    let behind = &path[(k + 1).saturating_sub(level.length)..=k];
    let can_serve = |p: Point| {
        p.neighbours()
            .iter()
            .any(|q| ahead.contains(q) || behind.contains(q))
    };
    let left = train
        .remaining_aliens()
        .iter()
        .chain(train.remaining_houses());
    let stranded = |&e: &usize| !can_serve(level.entities[e].0);
    left.into_iter().any(stranded)
}

/// Every car is gooped and a Purple or Orange alien is still waiting.
fn gooped_out(level: &Level, train: &Train) -> bool {
    use crate::grid::Entity;
    let all_gooped = train.cars().iter().all(|c| c.gooped);
    all_gooped
        && train
            .remaining_aliens()
            .iter()
            .any(|&e| matches!(level.entities[e].1, Entity::Alien(c) if c != Color::Green))
}

/// The cells the track can still use after `from` (not the exit: no car is
/// handled there), or `None` when it cannot reach the exit.
fn reachable(level: &Level, from: Point, used: &HashSet<Point>) -> Option<HashSet<Point>> {
    let free =
        |p: Point| !used.contains(&p) && (level.in_grid(p) && !level.blocked(p) || p == level.exit);
    let mut seen = HashSet::new();
    let mut todo = VecDeque::from([from]);
    let mut exit = false;
    while let Some(p) = todo.pop_front() {
        for q in p.neighbours() {
            if q == level.exit {
                exit = true;
            } else if free(q) && seen.insert(q) {
                todo.push_back(q);
            }
        }
    }
    exit.then_some(seen)
}

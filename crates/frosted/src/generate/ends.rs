//! How a stream ends: at a target, by merging into a finished stream, or
//! by branching (a splitter, a teleporter with one or several outs, a
//! sorting bumper) into new streams with plans of their own. The count of
//! targets asked for decides between them; then the decoys (toppers and
//! bumpers that the hidden layout may not need) are scattered.

use super::build::{Builder, Op};
use super::streams::Stream;
use super::{Mechanic, Style};
use crate::grid::{Dir, Kind};
use crate::level::Tile;

impl Builder<'_> {
    /// Ends the stream as the target count asks.
    pub(super) fn decide(&mut self, mut s: Stream) -> Option<()> {
        let want = self.spec.want_targets;
        if self.ends < want {
            if let Some(r) = self.branch(&mut s) {
                return r;
            }
        }
        if self.ends > want && self.spec.has(Mechanic::Merges) && !self.done.is_empty() {
            let done = self.done.clone();
            if self.board.merge(&mut s, &done) {
                self.ends -= 1;
                self.done.push(s.id);
                return Some(());
            }
        }
        self.end_at_target(s)
    }

    /// Walks to a waypoint (with a bumper turn on the way, sometimes) and
    /// ends at a target there; where there is no room to walk, the target
    /// stands on the head.
    fn end_at_target(&mut self, mut s: Stream) -> Option<()> {
        if self.spec.has(Mechanic::Bumpers) && s.kinds.count_ones() == 1 && self.rng.chance(1, 3) {
            if let Some(w) = self.waypoint(s.cell, 4) {
                if self.board.walk_to(&mut s, w) {
                    if let Some(mut next) = self.board.bumper(&mut self.ids, &s, self.rng) {
                        s = next.pop()?;
                    }
                }
            }
        }
        if let Some(w) = self.waypoint(s.cell, 1) {
            self.board.walk_to(&mut s, w);
        }
        self.board.target(&s);
        self.done.push(s.id);
        Some(())
    }

    /// Branches the stream with a mechanic the spec allows; `None` when
    /// none is allowed (the caller ends it otherwise), `Some(None)` when
    /// the branch found no room.
    fn branch(&mut self, s: &mut Stream) -> Option<Option<()>> {
        let mut ways = Vec::new();
        if self.spec.has(Mechanic::Splitters) {
            ways.push(0);
        }
        if self.spec.has(Mechanic::MultiOut) && !self.channels.is_empty() {
            ways.push(1);
        }
        if self.spec.has(Mechanic::Bumpers) && s.kinds.count_ones() > 1 {
            ways.push(2);
        }
        if ways.is_empty() {
            return None;
        }
        let w = self.waypoint(s.cell, 4)?;
        if !self.board.walk_to(s, w) {
            return Some(None);
        }
        let way = self.rng.pick(&ways);
        let s = s.clone();
        Some(match way {
            0 => self.split(s),
            1 => {
                let outs = (self.spec.want_targets + 1 - self.ends).clamp(2, 3);
                self.teleport(s, outs, &[])
            }
            _ => self.sort(s),
        })
    }

    /// A plan for a stream born at a branch.
    fn child_plan(&mut self) -> Vec<Op> {
        let n = match self.spec.style {
            Style::TeleportSplit => self.rng.range(2, 3),
            Style::Game => self.toppers().saturating_sub(1),
            _ => self.toppers().min(2),
        };
        let mut plan = vec![Op::Topper; n];
        plan.push(Op::Decide);
        plan
    }

    /// Ends the stream at a splitter on its head.
    pub(super) fn split(&mut self, s: Stream) -> Option<()> {
        let children = self.board.splitter(&mut self.ids, &s)?;
        self.ends += children.len() - 1;
        for c in children {
            let plan = self.child_plan();
            self.open.push_back((c, plan));
        }
        Some(())
    }

    /// Ends the stream at a teleporter in (after a walk to a waypoint) with
    /// `outs` outs; each out's stream follows `then`, or a child plan.
    pub(super) fn teleport(&mut self, mut s: Stream, outs: usize, then: &[Op]) -> Option<()> {
        let Some(&ch) = self.channels.first() else {
            // Both channels are in use: the stream goes on without.
            return self.follow(s, then.to_vec());
        };
        self.channels.remove(0);
        let w = self.waypoint(s.cell, 1)?;
        if !self.board.walk_to(&mut s, w) {
            return None;
        }
        let far = self.spec.style != Style::Game;
        let next_to_splitter =
            self.spec.style == Style::MultiOut || then.first() == Some(&Op::Splitter);
        let children = self.board.teleporter(
            &mut self.ids,
            &s,
            ch,
            outs,
            (far, next_to_splitter),
            self.rng,
        )?;
        self.ends += children.len() - 1;
        for c in children {
            let plan = match (then.is_empty(), next_to_splitter) {
                (false, _) => then.to_vec(),
                (true, true) => vec![Op::Splitter],
                (true, false) => self.child_plan(),
            };
            self.open.push_back((c, plan));
        }
        Some(())
    }

    /// Ends a stream of several kinds at a bumper that pushes one kind aside.
    fn sort(&mut self, s: Stream) -> Option<()> {
        let children = self.board.bumper(&mut self.ids, &s, self.rng)?;
        self.ends += children.len() - 1;
        for c in children {
            let plan = self.child_plan();
            self.open.push_back((c, plan));
        }
        Some(())
    }

    /// Toppers and bumpers on free cells, facing anywhere, as the game has
    /// them: most do nothing, and the run decides what they do.
    pub(super) fn decoys(&mut self) {
        let mut pieces = Vec::new();
        if self.spec.has(Mechanic::Toppers) {
            pieces.extend((0..self.rng.below(3)).map(|_| 0));
        }
        if self.spec.has(Mechanic::Bumpers) {
            pieces.extend((0..self.rng.below(2)).map(|_| 1));
        }
        for piece in pieces {
            let cells = self.board.free_cells();
            if cells.is_empty() {
                return;
            }
            let c = self.rng.pick(&cells);
            let dir = self.rng.pick(&Dir::ALL);
            let kind = Kind::ALL[self.rng.range(1, 4)];
            let tile = match piece {
                0 => Tile::Topper { kind, dir },
                _ => Tile::Bumper { dir, kind },
            };
            self.board.put(c, tile);
        }
    }
}

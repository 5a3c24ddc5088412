//! One attempt at a hidden layout: sources, then each stream follows its
//! plan (toppers at waypoints, then an end: a target, a merge, or a branch
//! into new streams) until every stream has ended. The attempt fails (`None`)
//! when a route or a piece finds no room; the caller tries the next attempt.

use super::board::{Board, StreamId};
use super::rng::Rng;
use super::streams::{Ids, Stream};
use super::{Mechanic, Spec, Style};
use crate::grid::{CellId, Dir, Shape};
use crate::level::{Channel, Tile};
use std::collections::VecDeque;

/// What a stream does next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Op {
    /// Walk to a waypoint and put a topper beside it.
    Topper,
    /// Walk a little, then end at a teleporter in with this many outs.
    Teleport(usize),
    /// End at a splitter right here (a teleporter out's first cell).
    Splitter,
    /// End the stream as the target count asks: branch, merge or target.
    Decide,
}

/// The attempt's state.
pub(super) struct Builder<'a> {
    pub(super) spec: &'a Spec,
    pub(super) rng: &'a mut Rng,
    pub(super) board: Board,
    pub(super) ids: Ids,
    pub(super) open: VecDeque<(Stream, Vec<Op>)>,
    /// Targets placed plus streams still open.
    pub(super) ends: usize,
    /// Streams whose donuts all reach a target (merges may join them).
    pub(super) done: Vec<StreamId>,
    pub(super) channels: Vec<Channel>,
}

/// Builds the hidden layout for `spec`, or `None` when this attempt fails.
pub fn build(spec: &Spec, rng: &mut Rng) -> Option<Board> {
    let shape = Shape {
        width: spec.width,
        height: spec.height,
    };
    let board = Board::new(shape, spec.has(Mechanic::Crossovers), rng);
    let mut b = Builder {
        spec,
        rng,
        board,
        ids: Ids::default(),
        open: VecDeque::new(),
        ends: 0,
        done: Vec::new(),
        channels: vec![Channel::T, Channel::U],
    };
    for i in 0..spec.sources {
        b.source(i)?;
    }
    while let Some((s, plan)) = b.open.pop_front() {
        b.follow(s, plan)?;
    }
    b.decoys();
    let placed = b.board.tiles.iter().filter(|t| t.is_target()).count();
    match spec.targets {
        Some(n) if n != placed => None,
        _ => Some(b.board),
    }
}

impl Builder<'_> {
    /// Places source `i` and opens its stream with the style's plan.
    fn source(&mut self, i: usize) -> Option<()> {
        let any = self.spec.has(Mechanic::AnySources) && (i > 0 || self.rng.chance(2, 3));
        let spots = self.source_spots();
        if spots.is_empty() {
            return None;
        }
        let (c, d) = self.rng.pick(&spots);
        let tile = if any {
            Tile::AnySource(d)
        } else {
            Tile::Source(d)
        };
        self.board.put(c, tile);
        let head = self.board.free_step(c, d)?;
        let kinds = if any { 0b11111 } else { 1 };
        let s = self.board.open(&mut self.ids, head, d, kinds);
        let plan = self.source_plan();
        self.ends += 1;
        self.open.push_back((s, plan));
        Some(())
    }

    /// Where a source may stand: a free cell facing a free one; on the
    /// border facing inwards, as in the game, half of the time.
    fn source_spots(&mut self) -> Vec<(CellId, Dir)> {
        let border = self.rng.chance(1, 2);
        let shape = self.board.shape;
        let mut spots = Vec::new();
        for c in self.board.free_cells() {
            let p = shape.pos(c);
            let on_border =
                p.x == 0 || p.y == 0 || p.x + 1 == shape.width || p.y + 1 == shape.height;
            for d in Dir::ALL {
                let room = self
                    .board
                    .free_step(c, d)
                    .is_some_and(|n| self.board.exits_from(n, d) > 0);
                if room && (on_border || !border) {
                    spots.push((c, d));
                }
            }
        }
        spots
    }

    /// The first ops of a source's stream, by style.
    fn source_plan(&mut self) -> Vec<Op> {
        let tele = self.spec.has(Mechanic::Teleporters);
        match self.spec.style {
            Style::TeleportSplit => vec![Op::Teleport(1), Op::Splitter],
            Style::MultiOut => {
                let outs = self.rng.range(2, 3);
                vec![Op::Teleport(outs)]
            }
            Style::Far => vec![Op::Topper; self.rng.range(2, 3)]
                .into_iter()
                .chain([Op::Decide])
                .collect(),
            Style::Game => {
                let mut plan = vec![Op::Topper; self.toppers()];
                if tele && self.rng.chance(1, 3) {
                    plan.insert(self.rng.below(plan.len() + 1), Op::Teleport(1));
                }
                plan.push(Op::Decide);
                plan
            }
        }
    }

    /// How many toppers a stream meets (none without the mechanic).
    pub(super) fn toppers(&mut self) -> usize {
        if !self.spec.has(Mechanic::Toppers) {
            return 0;
        }
        let most = 1 + (self.spec.width * self.spec.height) / 40;
        self.rng.range(1, most.min(4))
    }

    /// Follows a stream's plan to its end; `None` when something found no room.
    pub(super) fn follow(&mut self, mut s: Stream, plan: Vec<Op>) -> Option<()> {
        for (i, &op) in plan.iter().enumerate() {
            match op {
                Op::Topper => self.topper(&mut s)?,
                Op::Teleport(outs) => return self.teleport(s, outs, &plan[i + 1..]),
                Op::Splitter => return self.split(s),
                Op::Decide => return self.decide(s),
            }
        }
        self.decide(s)
    }

    /// A waypoint for the head: a random free cell it can reach with at
    /// least `room` free neighbours (fewer when there is none), or with the
    /// style `far` the farthest of a few.
    pub(super) fn waypoint(&mut self, from: CellId, room: usize) -> Option<CellId> {
        let reach = self.board.reachable(from);
        let roomy: Vec<CellId> = reach
            .iter()
            .copied()
            .filter(|&c| self.board.room(c) >= room)
            .collect();
        let cells = if roomy.is_empty() { reach } else { roomy };
        if cells.is_empty() {
            return None;
        }
        let tries = if self.spec.style == Style::Far { 8 } else { 1 };
        (0..tries)
            .map(|_| self.rng.pick(&cells))
            .max_by_key(|&c| self.board.distance(c, from))
    }

    /// Walks to a waypoint and puts a topper beside the head (walking on to
    /// another waypoint, up to three times, when there is no room there).
    /// A stream with no room for its topper goes on without it.
    fn topper(&mut self, s: &mut Stream) -> Option<()> {
        for _ in 0..3 {
            let Some(w) = self.waypoint(s.cell, 3) else {
                break;
            };
            if !self.board.walk_to(s, w) || self.board.topper(s, self.rng) {
                break;
            }
        }
        Some(())
    }
}

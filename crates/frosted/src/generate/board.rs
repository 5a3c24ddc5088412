//! The board a level is built on: the level's tiles with the hidden layout's
//! belts on them, which cells are taken, and routing a belt path between two
//! cells over the cells still free (crossing straight belts through new
//! crossovers, when they are allowed).

use super::rng::Rng;
use crate::grid::{CellId, Dir, Shape};
use crate::level::Tile;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Who laid a belt: the stream (see [`super::streams`]) it belongs to.
pub type StreamId = usize;

/// The level under construction, with the hidden layout's belts.
pub struct Board {
    pub shape: Shape,
    pub tiles: Vec<Tile>,
    /// Taken: something stands here or a stream will pass here.
    pub taken: Vec<bool>,
    /// For a hidden belt: the direction donuts arrive in, and its stream.
    pub laid: Vec<Option<(Dir, StreamId)>>,
    /// The cost of routing over each cell: random, so paths wander.
    weight: Vec<u32>,
    /// Whether a path may cross a straight belt through a new crossover.
    pub crossings: bool,
}

/// One step of a route: from a cell, in a direction, over a crossover or not.
#[derive(Copy, Clone, Debug)]
pub struct Step {
    pub from: CellId,
    pub dir: Dir,
    /// The step jumps over this straight belt, which becomes a crossover.
    pub over: Option<CellId>,
}

impl Board {
    /// An empty board of `shape`, with random routing weights.
    pub fn new(shape: Shape, crossings: bool, rng: &mut Rng) -> Board {
        let n = shape.len();
        Board {
            shape,
            tiles: vec![Tile::Empty; n],
            taken: vec![false; n],
            laid: vec![None; n],
            weight: (0..n).map(|_| 1 + rng.below(4) as u32).collect(),
            crossings,
        }
    }

    /// Whether `c` is still free for anything.
    pub fn free(&self, c: CellId) -> bool {
        self.tiles[c.index()] == Tile::Empty && !self.taken[c.index()]
    }

    /// The neighbour of `c` towards `d`, if it is on the board and free.
    pub fn free_step(&self, c: CellId, d: Dir) -> Option<CellId> {
        self.shape.step(c, d).filter(|&n| self.free(n))
    }

    /// How many free neighbours `c` has, not counting the one behind a
    /// donut that arrived moving `d`.
    pub fn exits_from(&self, c: CellId, d: Dir) -> usize {
        Dir::ALL
            .into_iter()
            .filter(|&e| e != d.opposite() && self.free_step(c, e).is_some())
            .count()
    }

    /// Puts `tile` on `c` and marks it taken.
    pub fn put(&mut self, c: CellId, tile: Tile) {
        self.tiles[c.index()] = tile;
        self.taken[c.index()] = true;
    }

    /// Manhattan distance between two cells.
    pub fn distance(&self, a: CellId, b: CellId) -> usize {
        self.shape.pos(a).manhattan(self.shape.pos(b))
    }

    /// The free cells, row-major.
    pub fn free_cells(&self) -> Vec<CellId> {
        self.shape.cells().filter(|&c| self.free(c)).collect()
    }

    /// The moves out of `c` a route may take: to a free neighbour, or over a
    /// straight perpendicular belt to the free cell beyond it.
    fn moves(&self, c: CellId) -> Vec<Step> {
        let mut out = Vec::new();
        for d in Dir::ALL {
            let Some(n) = self.shape.step(c, d) else {
                continue;
            };
            if self.free(n) {
                out.push(Step {
                    from: c,
                    dir: d,
                    over: None,
                });
            } else if self.crossable(n, d) && self.free_step(n, d).is_some() {
                out.push(Step {
                    from: c,
                    dir: d,
                    over: Some(n),
                });
            }
        }
        out
    }

    /// Whether a route moving `d` may cross the belt on `b`: a straight
    /// hidden belt at right angles to `d`.
    fn crossable(&self, b: CellId, d: Dir) -> bool {
        let straight = match (self.tiles[b.index()], self.laid[b.index()]) {
            (Tile::Belt(out), Some((arrive, _))) => out == arrive,
            _ => false,
        };
        self.crossings
            && straight
            && self.laid[b.index()].is_some_and(|(a, _)| a.is_vertical() != d.is_vertical())
    }

    /// The cheapest route from `from` to any cell `goal` accepts (a free
    /// cell other than `from`), by the random weights; `None` when there is none.
    pub fn route(&self, from: CellId, goal: &dyn Fn(CellId) -> bool) -> Option<Vec<Step>> {
        let n = self.shape.len();
        let mut best = vec![u32::MAX; n];
        let mut back: Vec<Option<Step>> = vec![None; n];
        let mut heap = BinaryHeap::new();
        best[from.index()] = 0;
        heap.push(Reverse((0u32, from.0)));
        while let Some(Reverse((cost, c))) = heap.pop() {
            let c = CellId(c);
            if cost > best[c.index()] {
                continue;
            }
            if c != from && goal(c) {
                return Some(self.unwind(&back, from, c));
            }
            for step in self.moves(c) {
                let to = self.landing(step);
                let extra = if step.over.is_some() { 3 } else { 0 };
                let next = cost + self.weight[to.index()] + extra;
                if next < best[to.index()] {
                    best[to.index()] = next;
                    back[to.index()] = Some(step);
                    heap.push(Reverse((next, to.0)));
                }
            }
        }
        None
    }

    /// The free cells a route from `from` can reach, row-major.
    pub fn reachable(&self, from: CellId) -> Vec<CellId> {
        let mut seen = vec![false; self.shape.len()];
        let mut stack = vec![from];
        seen[from.index()] = true;
        while let Some(c) = stack.pop() {
            for step in self.moves(c) {
                let to = self.landing(step);
                if !seen[to.index()] {
                    seen[to.index()] = true;
                    stack.push(to);
                }
            }
        }
        seen[from.index()] = false;
        self.shape.cells().filter(|c| seen[c.index()]).collect()
    }

    /// How many of `c`'s neighbours are free.
    pub fn room(&self, c: CellId) -> usize {
        Dir::ALL
            .into_iter()
            .filter(|&d| self.free_step(c, d).is_some())
            .count()
    }

    /// Where a step lands.
    pub fn landing(&self, step: Step) -> CellId {
        let mid = step.over.unwrap_or(step.from);
        let to = self.shape.step(mid, step.dir);
        to.expect("a route's steps stay on the board")
    }

    /// The steps from `from` to `to`, following the back pointers.
    fn unwind(&self, back: &[Option<Step>], from: CellId, to: CellId) -> Vec<Step> {
        let mut steps = Vec::new();
        let mut c = to;
        while c != from {
            let Some(s) = back[c.index()] else { break };
            steps.push(s);
            c = s.from;
        }
        steps.reverse();
        steps
    }
}

//! Reading a model as a track, and the clauses the loop learns from it:
//! cuts against detached cycles, and the clause that blocks every track
//! sharing a failed prefix.
//!
//! The encoding's degree constraints let a model hold, beside the path from
//! the entrance to the exit, cycles of used cells that no path reaches. Such
//! a cycle is not a track (T3 and T6 hold on it, but nothing enters it from
//! the entrance): a *cycle cut* says that if one of its cells is used, some
//! move enters the cycle's cells from outside. Every real track satisfies
//! it (its path from the entrance reaches that cell, and enters the set on
//! the way), so the cuts are relaxations, added lazily.

use super::{CellId, Encoding};
use crate::grid::Point;
use crate::track::Track;
use cegar::keyed::StorageKey;
use rustsat::types::{Clause, Lit};

/// A model read as a track, with the cycles beside it.
pub struct ReadModel {
    /// The path from the entrance along the chosen moves.
    pub track: Track,
    /// Used cells the path does not reach, one cycle each.
    pub cycles: Vec<Vec<CellId>>,
}

impl Encoding {
    /// The move the model makes from `c`, if any.
    fn next_cell(&self, model: &[bool], c: CellId) -> Option<CellId> {
        self.out_moves[c]
            .iter()
            .map(|&m| self.moves[m])
            .find(|m| Encoding::holds(model, m.lit))
            .map(|m| m.to)
    }

    /// Follows the chosen moves from `start` until a cell without one, or a
    /// cell seen before.
    fn follow(&self, model: &[bool], start: CellId, seen: &mut [bool]) -> Vec<CellId> {
        let mut cells = Vec::new();
        let mut c = Some(start);
        while let Some(now) = c {
            if std::mem::replace(&mut seen[now.index()], true) {
                break;
            }
            cells.push(now);
            c = self.next_cell(model, now);
        }
        cells
    }

    /// Reads `model`: the path from the entrance, and every cycle beside it.
    pub fn read(&self, model: &[bool]) -> ReadModel {
        let mut seen = vec![false; self.cells.len()];
        let path = self.follow(model, self.entrance, &mut seen);
        let track = Track(path.iter().map(|&c| self.cells[c]).collect());
        let mut cycles = Vec::new();
        for c in self.cells.keys() {
            if !seen[c.index()] && Encoding::holds(model, self.on[c]) {
                cycles.push(self.follow(model, c, &mut seen));
            }
        }
        ReadModel { track, cycles }
    }

    /// The cuts against a detached cycle: for each of its cells, "unused, or
    /// some move enters the cycle's cells from outside".
    pub fn cycle_cuts(&self, cycle: &[CellId]) -> Vec<Clause> {
        let mut inside = vec![false; self.cells.len()];
        cycle.iter().for_each(|c| inside[c.index()] = true);
        let entering: Vec<Lit> = self
            .moves
            .iter()
            .filter(|m| inside[m.to.index()] && !inside[m.from.index()])
            .map(|m| m.lit)
            .collect();
        cycle
            .iter()
            .map(|&c| {
                let mut cl = Clause::from([!self.on[c]]);
                entering.iter().for_each(|&l| cl.add(l));
                cl
            })
            .collect()
    }

    /// The literals that fix exactly `path`: its cells used, every other
    /// cell unused, its moves made; `None` when two consecutive cells of it
    /// are not a move (it is no valid track).
    pub fn fixing(&self, path: &[Point]) -> Option<Vec<Lit>> {
        let mut fixed: Vec<Lit> = self
            .cells
            .enumerate()
            .map(|(c, p)| {
                if path.contains(p) {
                    self.on[c]
                } else {
                    !self.on[c]
                }
            })
            .collect();
        for pair in path.windows(2) {
            let (a, b) = (self.cell(pair[0])?, self.cell(pair[1])?);
            fixed.push(self.moves[self.move_between(a, b)?].lit);
        }
        Some(fixed)
    }

    /// "The track does not start with `prefix`": one of its moves is not
    /// made. Every track that starts with those cells, in that order, makes
    /// all of them, and only those do (a track is a path from the entrance).
    pub fn not_this_prefix(&self, prefix: &[Point]) -> Clause {
        let cells: Vec<Option<CellId>> = prefix.iter().map(|&p| self.cell(p)).collect();
        let mut cl = Clause::new();
        for pair in cells.windows(2) {
            if let [Some(a), Some(b)] = *pair {
                if let Some(m) = self.move_between(a, b) {
                    cl.add(!self.moves[m].lit);
                }
            }
        }
        cl
    }
}

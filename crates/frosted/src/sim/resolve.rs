//! Steps 3 and 4 of a tick: which moves are refused, at merges and crossovers,
//! and then behind every refused move until nothing changes.

use super::simulator::{Simulator, NONE};
use super::Cross;
use crate::grid::Dir;
use crate::level::Tile;

impl Simulator {
    /// Steps 3 and 4: merges, crossovers, then the blocking fixpoint.
    pub(super) fn resolve_conflicts(&mut self) {
        self.order_moves_by_destination();
        let m = self.moves.len();
        let mut g = 0;
        while g < m {
            let q = self.moves[self.order[g] as usize].to;
            let mut end = g + 1;
            while end < m && self.moves[self.order[end] as usize].to == q {
                end += 1;
            }
            if self.board.tile(q) == Tile::Crossover {
                self.refuse_against_crossover(g, end);
            } else if end - g >= 2 {
                self.resolve_merge(g, end);
            }
            g = end;
        }
        self.refuse_behind_refused();
    }

    /// Fills `order` with the move indices sorted by their destination's scan
    /// position (then collection order), so that the moves into one cell are
    /// next to each other.
    #[inline]
    fn order_moves_by_destination(&mut self) {
        let m = self.moves.len();
        self.order.clear();
        self.order.extend(0..m as u32);
        let scan_pos = &self.board.scan_pos;
        let moves = &self.moves;
        self.order
            .sort_unstable_by_key(|&i| (scan_pos[moves[i as usize].to.index()], i));
    }

    /// Step 3 at a crossover: the moves `order[g..end]` into it are refused
    /// when it is occupied or open only along the other axis.
    #[inline]
    fn refuse_against_crossover(&mut self, g: usize, end: usize) {
        let q = self.moves[self.order[g] as usize].to;
        let state = self.cells[q.index()].cross;
        for &i in &self.order[g..end] {
            let mv = &mut self.moves[i as usize];
            let vertical = mv.dir.is_some_and(Dir::is_vertical);
            mv.refused = match state {
                Cross::Occupied(_) => true,
                Cross::OpenHorizontal => vertical,
                Cross::OpenVertical => !vertical,
                Cross::Open => false,
            };
        }
    }

    /// Step 3 at a merge: of the moves `order[g..end]` into one cell, the one
    /// that has waited longest (then the most topped, then the first
    /// collected) goes; the others are refused and wait one tick more.
    #[inline]
    fn resolve_merge(&mut self, g: usize, end: usize) {
        let cells = &self.cells;
        let moves = &self.moves;
        let winner = self.order[g..end]
            .iter()
            .copied()
            .max_by_key(|&i| {
                let mv = &moves[i as usize];
                (
                    cells[mv.from.index()].waiting,
                    mv.rank,
                    std::cmp::Reverse(i),
                )
            })
            .unwrap_or(self.order[g]);
        for j in g..end {
            let i = self.order[j] as usize;
            let from = self.moves[i].from.index();
            if i as u32 == winner {
                self.cells[from].waiting = 0;
            } else {
                self.cells[from].waiting += 1;
                self.moves[i].refused = true;
            }
        }
    }

    /// Step 4: a move into the `from` cell of a refused move is refused, until
    /// nothing changes. Moves are chained by destination so each is visited once.
    #[inline]
    fn refuse_behind_refused(&mut self) {
        let m = self.moves.len();
        self.next_into.clear();
        for i in 0..m {
            let to = self.moves[i].to.index();
            self.next_into.push(self.first_into[to]);
            self.first_into[to] = i as u32;
        }
        self.stack.clear();
        for i in 0..m {
            let from = self.moves[i].from;
            if self.moves[i].refused && !self.refused_from[from.index()] {
                self.refused_from[from.index()] = true;
                self.stack.push(from);
            }
        }
        while let Some(c) = self.stack.pop() {
            let mut i = self.first_into[c.index()];
            while i != NONE {
                let mv = &mut self.moves[i as usize];
                if !mv.refused {
                    mv.refused = true;
                    let from = mv.from;
                    if !self.refused_from[from.index()] {
                        self.refused_from[from.index()] = true;
                        self.stack.push(from);
                    }
                }
                i = self.next_into[i as usize];
            }
        }
        for mv in &self.moves {
            self.first_into[mv.to.index()] = NONE;
            self.refused_from[mv.from.index()] = false;
        }
    }
}

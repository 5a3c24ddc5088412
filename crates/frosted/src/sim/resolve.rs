//! Steps 3 and 4 of a tick: which moves are refused, at merges and crossovers,
//! and then behind every refused move until nothing changes.

use super::simulator::{Simulator, NONE};
use super::Cross;
use crate::grid::{CellId, Dir};
use crate::level::Tile;

impl Simulator {
    /// Steps 3 and 4: merges, crossovers, then the blocking fixpoint.
    pub(super) fn resolve_conflicts(&mut self) {
        self.chain_moves_by_destination();
        for j in 0..self.contested.len() {
            let q = self.contested[j];
            if self.board.tile(q) == Tile::Crossover {
                self.refuse_against_crossover(q);
            } else {
                self.resolve_merge(q);
            }
        }
        self.refuse_behind_refused();
    }

    /// Chains the moves into each cell (`first_into`, then `next_into`),
    /// and lists in `contested`, in scan order, the cells where step 3 has
    /// something to decide: crossovers a move enters, and merges (cells two
    /// or more moves enter). Step 3 handles them in that order, since the
    /// `waiting` counters a merge changes are read by the merges after it.
    #[inline]
    fn chain_moves_by_destination(&mut self) {
        self.next_into.clear();
        self.contested.clear();
        for i in 0..self.moves.len() {
            let to = self.moves[i].to;
            let prev = self.first_into[to.index()];
            self.next_into.push(prev);
            self.first_into[to.index()] = i as u32;
            let contested = match self.board.tile(to) == Tile::Crossover {
                true => prev == NONE,
                false => prev != NONE && self.next_into[prev as usize] == NONE,
            };
            if contested {
                self.contested.push(to);
            }
        }
        let scan_pos = &self.board.scan_pos;
        self.contested.sort_unstable_by_key(|q| scan_pos[q.index()]);
    }

    /// The moves into `q`, last collected first.
    fn moves_into(&self, q: CellId) -> impl Iterator<Item = usize> + '_ {
        let mut i = self.first_into[q.index()];
        std::iter::from_fn(move || {
            let this = i;
            (this != NONE).then(|| {
                i = self.next_into[this as usize];
                this as usize
            })
        })
    }

    /// Step 3 at a crossover: the moves into `q` are refused when it is
    /// occupied or open only along the other axis.
    #[inline]
    fn refuse_against_crossover(&mut self, q: CellId) {
        let state = self.cells[q.index()].cross;
        let mut i = self.first_into[q.index()];
        while i != NONE {
            let mv = &mut self.moves[i as usize];
            let vertical = mv.dir.is_some_and(Dir::is_vertical);
            mv.refused = match state {
                Cross::Occupied(_) => true,
                Cross::OpenHorizontal => vertical,
                Cross::OpenVertical => !vertical,
                Cross::Open => false,
            };
            i = self.next_into[i as usize];
        }
    }

    /// Step 3 at a merge: of the moves into `q`, the one that has waited
    /// longest (then the most topped, then the first collected) goes; the
    /// others are refused and wait one tick more.
    #[inline]
    fn resolve_merge(&mut self, q: CellId) {
        let cells = &self.cells;
        let moves = &self.moves;
        let Some(winner) = self.moves_into(q).max_by_key(|&i| {
            let mv = &moves[i];
            (
                cells[mv.from.index()].waiting,
                mv.rank,
                std::cmp::Reverse(i),
            )
        }) else {
            return;
        };
        let mut i = self.first_into[q.index()];
        while i != NONE {
            let from = self.moves[i as usize].from.index();
            if i as usize == winner {
                self.cells[from].waiting = 0;
            } else {
                self.cells[from].waiting += 1;
                self.moves[i as usize].refused = true;
            }
            i = self.next_into[i as usize];
        }
    }

    /// Step 4: a move into the `from` cell of a refused move is refused, until
    /// nothing changes. The moves are chained by destination
    /// ([`Simulator::chain_moves_by_destination`]), so each is visited once.
    #[inline]
    fn refuse_behind_refused(&mut self) {
        let m = self.moves.len();
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

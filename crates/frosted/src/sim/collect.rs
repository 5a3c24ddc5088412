//! Step 2 of a tick: the moves the donuts want, collected in scan order, with
//! the failures and stranded donuts the scan finds, and the deliveries made.

use super::simulator::Simulator;
use super::{Cross, Delivery, Donut, End, Failure};
use crate::grid::{CellId, Dir, Kind};
use crate::level::Tile;

/// One move wanted this tick.
#[derive(Copy, Clone, Debug)]
pub(super) struct Move {
    pub(super) from: CellId,
    pub(super) to: CellId,
    pub(super) donut: Donut,
    /// The kind that ranks this move at a merge: the kind standing on `from` (plain
    /// for a fresh donut from a source).
    pub(super) rank: Kind,
    /// The direction moved, `None` for a teleport.
    pub(super) dir: Option<Dir>,
    pub(super) refused: bool,
}

impl Simulator {
    /// Adds the move of `donut` from `from` towards `dir`, ranked `rank` at a
    /// merge; fails if the move leaves the grid or enters a cell that cannot be
    /// entered moving `dir`.
    fn push_move(
        &mut self,
        from: CellId,
        dir: Dir,
        donut: Donut,
        rank: Kind,
    ) -> Result<(), Failure> {
        let Some(to) = self.board.step(from, dir) else {
            return Err(Failure::OffGrid { from, dir, donut });
        };
        if !self.board.tile(to).can_enter(dir) {
            return Err(Failure::CannotEnter {
                from,
                to,
                dir,
                donut,
            });
        }
        self.moves.push(Move {
            from,
            to,
            donut,
            rank,
            dir: Some(dir),
            refused: false,
        });
        Ok(())
    }

    /// Step 2: collects the moves wanted, in scan order. Returns the end if the scan
    /// finds a failure or a stranded donut.
    pub(super) fn collect_moves(&mut self) -> Option<End> {
        self.moves.clear();
        let t = self.tick;
        for i in 0..self.board.scan.len() {
            let p = self.board.scan[i];
            let tile = self.board.tile(p);
            let result = match tile {
                Tile::Source(d) => {
                    let donut = Donut {
                        kind: Kind::PLAIN,
                        origin: p,
                    };
                    self.push_move(p, d, donut, Kind::PLAIN)
                }
                Tile::AnySource(d) => {
                    let st = &mut self.cells[p.index()];
                    let kind = st.cycle;
                    st.cycle = kind.cycle_next();
                    self.push_move(p, d, Donut { kind, origin: p }, Kind::PLAIN)
                }
                _ => {
                    let Some(donut) = self.cells[p.index()].donut else {
                        continue;
                    };
                    self.visited[p.index()] = true;
                    if let Some(occ) = &mut self.occupancy {
                        let entry = match self.cells[p.index()].cross {
                            Cross::Occupied(d) if tile == Tile::Crossover => Some(d),
                            _ => None,
                        };
                        occ.insert((p, donut.kind, donut.origin, entry));
                    }
                    if tile == Tile::Empty {
                        return Some(End::Stranded {
                            tick: t,
                            cell: p,
                            donut,
                        });
                    }
                    self.donut_move(p, tile, donut)
                }
            };
            if let Err(failure) = result {
                return Some(End::Failed { tick: t, failure });
            }
        }
        None
    }

    /// The move (or delivery) of the donut standing on `p`.
    fn donut_move(&mut self, p: CellId, tile: Tile, donut: Donut) -> Result<(), Failure> {
        let k = donut.kind;
        let bumped = self.board.bumpers[p.index()];
        if let Some(d) = Dir::ALL.into_iter().find(|d| bumped[d.index()] == Some(k)) {
            return self.push_move(p, d, donut, k);
        }
        match tile {
            Tile::Belt(d) | Tile::TeleOut(_, d) => self.push_move(p, d, donut, k),
            Tile::Target { accepts, .. } => {
                if !accepts.accepts(k) {
                    return Err(Failure::WrongDelivery { target: p, donut });
                }
                self.record_delivery(p, donut);
                Ok(())
            }
            Tile::Splitter(f) => {
                let d = if self.cells[p.index()].next_right {
                    f.turn_right()
                } else {
                    f.turn_left()
                };
                self.push_move(p, d, donut, k)
            }
            Tile::TeleIn(ch) => {
                let n = self.board.outs[ch as usize].len();
                for j in 0..n {
                    let to = self.board.outs[ch as usize][j];
                    self.moves.push(Move {
                        from: p,
                        to,
                        donut,
                        rank: k,
                        dir: None,
                        refused: false,
                    });
                }
                Ok(())
            }
            Tile::Crossover => match self.cells[p.index()].cross {
                Cross::Occupied(d) => self.push_move(p, d, donut, k),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// Records the delivery of `donut` at target `p`, the first time this
    /// target gets this kind from this source.
    #[inline]
    fn record_delivery(&mut self, p: CellId, donut: Donut) {
        let b = &self.board;
        let ix = (b.target_ix[p.index()] as usize * b.n_sources
            + b.source_ix[donut.origin.index()] as usize)
            * Kind::COUNT
            + donut.kind.index();
        if !self.delivered[ix] {
            self.delivered[ix] = true;
            self.deliveries.push(Delivery {
                target: p,
                origin: donut.origin,
                kind: donut.kind,
                tick: self.tick,
            });
        }
    }
}

//! The SAT encoding of a Cosmic Express level: the track as a simple path of
//! cells from the entrance to the exit (documented, constraint by
//! constraint, in `encodings/cosmic-express.md`).
//!
//! Every constraint here holds for every valid track that solves the level
//! (a *relaxation*): the cells and moves of a track, one way in and one way
//! out of each track cell, and a handled track cell next to every alien and
//! every house. Detached cycles, boarding order, seats and goop are left to
//! the loop: cycles are cut when a model has them ([`cycles`]), and the
//! train's run is checked by the simulator, whose failures become clauses
//! ([`crate::puzzle`]).

pub mod cycles;
mod names;
mod run;

use crate::grid::Point;
use crate::level::Level;
use cegar::cost::CostCounter;
use cegar::keyed::KeyedVec;
use rustsat::encodings::am1::{Encode as _, Pairwise};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};
use std::collections::HashMap;

cegar::keyed_index!(
    /// A cell a track may use (an unblocked grid cell, the entrance, the exit).
    pub struct CellId;
);
cegar::keyed_index!(
    /// A move between two adjacent cells, in one direction.
    pub struct MoveId;
);

/// A move of the track: from one cell to the next.
#[derive(Copy, Clone, Debug)]
pub struct Move {
    pub from: CellId,
    pub to: CellId,
    /// True when the track makes this move.
    pub lit: Lit,
}

/// The encoded level.
pub struct Encoding {
    /// The cells a track may use, row-major.
    pub cells: KeyedVec<CellId, Point>,
    index: HashMap<Point, CellId>,
    pub entrance: CellId,
    pub exit: CellId,
    /// Per cell: the track uses it.
    pub on: KeyedVec<CellId, Lit>,
    pub moves: KeyedVec<MoveId, Move>,
    /// Per cell: the moves that leave it, and the moves that enter it.
    pub out_moves: KeyedVec<CellId, Vec<MoveId>>,
    pub in_moves: KeyedVec<CellId, Vec<MoveId>>,
    /// Counts the track's cells (entrance and exit included).
    pub cells_used: CostCounter,
}

/// Above this many cells, the cell counter is encoded only for the bounds
/// the loop asks for.
const LAZY_COUNTER_FROM: usize = 1000;

impl Encoding {
    /// Encodes `level`, writing clauses into `col`.
    pub fn new(level: &Level, col: &mut impl CollectClauses, vm: &mut dyn ManageVars) -> Encoding {
        let mut enc = Encoding::cells_and_moves(level, vm);
        enc.track_starts_and_ends(col);
        enc.track_cells_have_one_way_in_and_out(col, vm);
        enc.moves_need_both_cells(col);
        enc.no_move_goes_straight_back(col);
        enc.every_entity_is_next_to_a_handled_cell(level, col, vm);
        enc.count_cells(col, vm);
        enc.run_is_solved(level, col, vm);
        enc
    }

    /// The variables: a cell's `on`, and each move between adjacent cells.
    fn cells_and_moves(level: &Level, vm: &mut dyn ManageVars) -> Encoding {
        let cells: KeyedVec<CellId, Point> = level.track_cells().into_iter().collect();
        let index: HashMap<Point, CellId> = cells.enumerate().map(|(c, &p)| (p, c)).collect();
        let on = cells.iter().map(|_| vm.new_lit()).collect();
        let mut moves = KeyedVec::new();
        let mut out_moves = KeyedVec::filled(cells.len(), Vec::new());
        let mut in_moves = KeyedVec::filled(cells.len(), Vec::new());
        for (from, p) in cells.enumerate() {
            for q in p.neighbours() {
                let Some(&to) = index.get(&q) else { continue };
                let m = moves.push(Move {
                    from,
                    to,
                    lit: vm.new_lit(),
                });
                out_moves[from].push(m);
                in_moves[to].push(m);
            }
        }
        let lookup = |p: Point| index.get(&p).copied();
        let (Some(entrance), Some(exit)) = (lookup(level.entrance), lookup(level.exit)) else {
            unreachable!("track_cells includes the entrance and the exit")
        };
        Encoding {
            cells,
            index,
            entrance,
            exit,
            on,
            moves,
            out_moves,
            in_moves,
            cells_used: CostCounter::default(),
        }
    }

    /// The cell at `p`, if a track may use it.
    pub fn cell(&self, p: Point) -> Option<CellId> {
        self.index.get(&p).copied()
    }

    /// T1, T2: the track starts on the entrance and ends on the exit: the
    /// entrance is used and entered by no move, the exit used and left by
    /// no move.
    fn track_starts_and_ends(&self, col: &mut impl CollectClauses) {
        let _ = col.add_clause(Clause::from([self.on[self.entrance]]));
        let _ = col.add_clause(Clause::from([self.on[self.exit]]));
        for &m in self.in_moves[self.entrance]
            .iter()
            .chain(&self.out_moves[self.exit])
        {
            let _ = col.add_clause(Clause::from([!self.moves[m].lit]));
        }
    }

    /// T3, T6: a used cell is left by exactly one move (but the exit) and
    /// entered by exactly one (but the entrance); an unused cell by none.
    fn track_cells_have_one_way_in_and_out(
        &self,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        for c in self.cells.keys() {
            let sides = [
                (c != self.exit, &self.out_moves[c]),
                (c != self.entrance, &self.in_moves[c]),
            ];
            for (needed, moves) in sides {
                let lits: Vec<Lit> = moves.iter().map(|&m| self.moves[m].lit).collect();
                if needed {
                    let mut cl = Clause::from([!self.on[c]]);
                    lits.iter().for_each(|&l| cl.add(l));
                    let _ = col.add_clause(cl);
                }
                let _ = Pairwise::from_iter(lits).encode(col, vm);
            }
        }
    }

    /// A move joins two used cells.
    fn moves_need_both_cells(&self, col: &mut impl CollectClauses) {
        for m in self.moves.iter() {
            let _ = col.add_clause(Clause::from([!m.lit, self.on[m.from]]));
            let _ = col.add_clause(Clause::from([!m.lit, self.on[m.to]]));
        }
    }

    /// T6 for two cells: no move and its reverse together (a cycle of two).
    fn no_move_goes_straight_back(&self, col: &mut impl CollectClauses) {
        for m in self.moves.iter() {
            if m.from < m.to {
                if let Some(back) = self.move_between(m.to, m.from) {
                    let _ = col.add_clause(Clause::from([!m.lit, !self.moves[back].lit]));
                }
            }
        }
    }

    /// The move from `from` to `to`, if they are adjacent track cells.
    pub fn move_between(&self, from: CellId, to: CellId) -> Option<MoveId> {
        self.out_moves[from]
            .iter()
            .copied()
            .find(|&m| self.moves[m].to == to)
    }

    /// Every alien and every house is served from a track cell next to it
    /// where a car is handled; no car is ever handled on the exit or on the
    /// cell before it (rules §4.2), so one of its neighbours is used and is
    /// neither (`handled`).
    fn every_entity_is_next_to_a_handled_cell(
        &self,
        level: &Level,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        let mut handled: HashMap<CellId, Lit> = HashMap::new();
        let entities = level.aliens().into_iter().chain(level.houses());
        for (_, p, _) in entities {
            let mut cl = Clause::new();
            for q in p.neighbours() {
                let Some(c) = self.cell(q).filter(|&c| c != self.exit) else {
                    continue;
                };
                let h = *handled
                    .entry(c)
                    .or_insert_with(|| self.handled_literal(c, col, vm));
                cl.add(h);
            }
            let _ = col.add_clause(cl);
        }
    }

    /// A literal that implies "the track uses `c` and does not go from it
    /// to the exit": `on[c]` itself where `c` is not next to the exit.
    fn handled_literal(
        &self,
        c: CellId,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) -> Lit {
        let Some(to_exit) = self.move_between(c, self.exit) else {
            return self.on[c];
        };
        let h = vm.new_lit();
        let _ = col.add_clause(Clause::from([!h, self.on[c]]));
        let _ = col.add_clause(Clause::from([!h, !self.moves[to_exit].lit]));
        h
    }

    /// The cost: the number of track cells, entrance and exit included,
    /// counted by the core's [`CostCounter`] (eager for every bound on
    /// boards of the game's size).
    fn count_cells(&mut self, col: &mut impl CollectClauses, vm: &mut dyn ManageVars) {
        let n = self.cells.len();
        let upto = if n > LAZY_COUNTER_FROM { 0 } else { n };
        let (counter, cnf) = CostCounter::new(self.on.iter().copied().collect(), upto, vm);
        self.cells_used = counter;
        for cl in cnf {
            let _ = col.add_clause(cl);
        }
    }

    /// Whether `model` makes `l` true (a variable it does not cover is false).
    pub fn holds(model: &[bool], l: Lit) -> bool {
        model.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg()
    }
}

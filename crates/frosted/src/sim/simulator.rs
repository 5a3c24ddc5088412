//! The run of a simulation: the state, one tick after another in the order of
//! the rules' steps, and the two ends found before a tick moves anything:
//! a starved merge and a steady state (step 1).

use super::board::Board;
use super::collect::Move;
use super::{CellState, Delivery, End, Failure, Outcome, Seen, MAX_TICKS};
use crate::grid::{CellId, Kind};
use crate::level::{Channel, Level};
use std::collections::HashMap;

/// A running simulation.
pub struct Simulator {
    pub(super) board: Board,
    pub(super) cells: Vec<CellState>,
    /// The number of the next tick to run (the first tick is 1).
    pub(super) tick: u32,
    pub(super) end: Option<End>,
    pub(super) deliveries: Vec<Delivery>,
    pub(super) delivered: Vec<bool>,
    pub(super) visited: Vec<bool>,
    pub(super) occupancy: Option<std::collections::HashSet<Seen>>,
    pub(super) history: HashMap<u64, u32>,
    /// The state at the start of tick `1 + i * checkpoint_every`, for every
    /// `i` reached so far (with steady-state detection).
    checkpoints: Vec<Vec<CellState>>,
    checkpoint_every: u32,
    pub(super) detect_steady: bool,
    // Work buffers, reused every tick.
    pub(super) moves: Vec<Move>,
    pub(super) contested: Vec<CellId>,
    pub(super) refused_from: Vec<bool>,
    pub(super) first_into: Vec<u32>,
    pub(super) next_into: Vec<u32>,
    pub(super) stack: Vec<CellId>,
}

/// How often the state is kept while a run looks for its steady state: a
/// hash match is confirmed by replaying at most this many ticks from the
/// last state kept before the earlier tick.
const CHECKPOINT_EVERY: u32 = 256;

/// No move: the end of a chain of moves into one cell.
pub(super) const NONE: u32 = u32::MAX;

impl Simulator {
    pub fn new(level: &Level) -> Simulator {
        Simulator::on(Board::new(level))
    }

    /// A simulation on `board`, at the start of its first tick.
    fn on(board: Board) -> Simulator {
        let n = board.shape.len();
        let delivered = vec![false; board.n_targets * board.n_sources * Kind::COUNT];
        Simulator {
            board,
            cells: vec![CellState::START; n],
            tick: 1,
            end: None,
            deliveries: Vec::new(),
            delivered,
            visited: vec![false; n],
            occupancy: None,
            history: HashMap::with_capacity(256),
            checkpoints: Vec::new(),
            checkpoint_every: CHECKPOINT_EVERY,
            detect_steady: true,
            moves: Vec::with_capacity(n),
            contested: Vec::with_capacity(n),
            refused_from: vec![false; n],
            first_into: vec![NONE; n],
            next_into: Vec::with_capacity(n),
            stack: Vec::with_capacity(n),
        }
    }

    /// A simulator that also records every donut seen at a scan (for checking
    /// that real runs satisfy the SAT encoding).
    pub fn recording(level: &Level) -> Simulator {
        let mut s = Simulator::new(level);
        s.occupancy = Some(Default::default());
        s
    }

    /// The state of every cell (row-major).
    pub fn cells(&self) -> &[CellState] {
        &self.cells
    }

    /// The number of the next tick to run.
    pub fn tick(&self) -> u32 {
        self.tick
    }

    pub fn end(&self) -> Option<End> {
        self.end
    }

    pub fn deliveries(&self) -> &[Delivery] {
        &self.deliveries
    }

    /// Runs to the end.
    pub fn run(mut self) -> Outcome {
        while self.end.is_none() {
            self.step();
        }
        self.into_outcome()
    }

    pub fn into_outcome(self) -> Outcome {
        Outcome {
            end: self.end.unwrap_or(End::TickLimit { tick: self.tick }),
            deliveries: self.deliveries,
            visited: self.visited,
            occupancy: self
                .occupancy
                .map(|o| {
                    let mut v: Vec<Seen> = o.into_iter().collect();
                    v.sort_unstable();
                    v
                })
                .unwrap_or_default(),
        }
    }

    fn packed_state(&self) -> impl Iterator<Item = u64> + '_ {
        self.cells.iter().map(CellState::pack)
    }

    fn state_hash(&self) -> u64 {
        let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
        for w in self.packed_state() {
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        h ^ (h >> 29)
    }

    /// Runs one tick. Returns how the simulation ended, once it has.
    pub fn step(&mut self) -> Option<End> {
        if self.end.is_some() {
            return self.end;
        }
        let end = self
            .starved_merge()
            .or_else(|| self.steady_state())
            .or_else(|| self.tick_limit())
            .or_else(|| self.collect_moves());
        if let Some(end) = end {
            return self.finish(end);
        }
        self.resolve_conflicts();
        self.apply_moves();
        self.apply_toppers();
        self.tick += 1;
        None
    }

    /// A merge that has kept refusing the donut on a cell for more ticks than
    /// the board has cells, first in scan order.
    fn starved_merge(&self) -> Option<End> {
        let limit = (self.board.shape.len()) as u32;
        let c = *self
            .board
            .scan
            .iter()
            .find(|c| self.cells[c.index()].waiting > limit)?;
        let failure = Failure::Starved {
            cell: c,
            waiting: self.cells[c.index()].waiting,
        };
        Some(End::Failed {
            tick: self.tick,
            failure,
        })
    }

    /// The steady state, if the state now equals one at an earlier tick's
    /// start; records this tick's state hash when it is new.
    fn steady_state(&mut self) -> Option<End> {
        if !self.detect_steady {
            return None;
        }
        let t = self.tick;
        if (t - 1).is_multiple_of(self.checkpoint_every) {
            self.checkpoints.push(self.cells.clone());
        }
        let h = self.state_hash();
        match self.history.get(&h) {
            Some(&earlier) => self.equals_state_at(earlier).then_some(End::Steady {
                tick: t,
                period: t - earlier,
            }),
            None => {
                self.history.insert(h, t);
                None
            }
        }
    }

    /// The safety net of [`MAX_TICKS`].
    fn tick_limit(&self) -> Option<End> {
        (self.tick >= MAX_TICKS).then_some(End::TickLimit { tick: self.tick })
    }

    fn finish(&mut self, end: End) -> Option<End> {
        self.end = Some(end);
        Some(end)
    }

    /// Confirms a hash match: replays the run from the last state kept
    /// before tick `earlier` (a checkpoint) to the start of `earlier`, and
    /// compares the full states.
    fn equals_state_at(&self, earlier: u32) -> bool {
        let i = (earlier - 1) / self.checkpoint_every;
        let Some(kept) = self.checkpoints.get(i as usize) else {
            return false;
        };
        let mut replay = Simulator::on(self.board.clone());
        replay.cells.clone_from(kept);
        replay.tick = 1 + i * self.checkpoint_every;
        replay.detect_steady = false;
        while replay.tick < earlier {
            if replay.step().is_some() {
                return false;
            }
        }
        replay.packed_state().eq(self.packed_state())
    }

    /// Teleporter outs of a channel, in row-major order.
    pub fn outs(&self, ch: Channel) -> &[CellId] {
        &self.board.outs[ch as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Dir;
    use crate::level::Tile;
    use cegar::xorshift::XorShift;
    use std::path::Path;

    /// The end of a run found without hashes or checkpoints: every state
    /// is kept whole, and the first one seen twice is the steady state.
    fn end_by_full_states(level: &Level) -> End {
        let mut sim = Simulator::new(level);
        sim.detect_steady = false;
        let mut seen: HashMap<Vec<u64>, u32> = HashMap::new();
        loop {
            let state: Vec<u64> = sim.packed_state().collect();
            if let Some(&earlier) = seen.get(&state) {
                return End::Steady {
                    tick: sim.tick,
                    period: sim.tick - earlier,
                };
            }
            seen.insert(state, sim.tick);
            if let Some(end) = sim.step() {
                return end;
            }
        }
    }

    /// The end of a run that keeps its state every `every` ticks.
    fn end_with_checkpoints(level: &Level, every: u32) -> End {
        let mut sim = Simulator::new(level);
        sim.checkpoint_every = every;
        sim.run().end
    }

    /// The project's example levels and their layouts (solutions and wrong
    /// ones), and 20 copies of each with a few belts turned at random.
    fn layouts() -> Vec<Level> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels");
        let mut files: Vec<_> = std::fs::read_dir(&root)
            .expect("levels/ is readable")
            .flatten()
            .filter(|d| d.path().is_dir() && d.file_name() != "generated")
            .flat_map(|d| std::fs::read_dir(d.path()).expect("a level folder is readable"))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".txt"))
            .collect();
        files.sort();
        let mut rng = XorShift(7);
        let mut out = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("a level file is readable");
            let Ok(level) = crate::parse::parse(&text) else {
                continue;
            };
            for _ in 0..20 {
                let mut l = level.clone();
                for t in l.tiles.iter_mut() {
                    if matches!(t, Tile::Belt(_)) && rng.below(8) == 0 {
                        *t = Tile::Belt(Dir::ALL[rng.below(4) as usize]);
                    }
                }
                out.push(l);
            }
            out.push(level);
        }
        out
    }

    #[test]
    fn checkpoints_find_the_first_repeated_state() {
        let layouts = layouts();
        assert!(layouts.len() > 500, "{} layouts", layouts.len());
        let mut steady = 0;
        for l in &layouts {
            let truth = end_by_full_states(l);
            steady += matches!(truth, End::Steady { .. }) as usize;
            for every in [1, 3, 64, CHECKPOINT_EVERY, u32::MAX] {
                assert_eq!(end_with_checkpoints(l, every), truth, "every {every}:\n{l}");
            }
        }
        assert!(steady > 100, "only {steady} runs reach a steady state");
    }
}

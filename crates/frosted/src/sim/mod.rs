//! The exact tick-by-tick simulator (rules, section 4): the trusted reference that
//! every layout, hand-made or found by the SAT solver, is judged by.
//!
//! One [`Simulator`] owns the whole state and a few work buffers that are reused
//! every tick, so a tick allocates nothing. Steady state is found by hashing each
//! tick's state; a hash match is confirmed by replaying the run to the earlier
//! tick, from the last state kept before it (one every 256 ticks), and comparing
//! the full states, so a hash collision can never end a run early.
//!
//! This module holds the state and result types; a tick's phases live in their
//! own files, in the order a tick runs them:
//! - `simulator`: the run, the end checks and steady-state detection (step 1);
//! - `collect`: the moves the donuts want, in scan order (step 2);
//! - `resolve`: merges, crossovers and the blocking fixpoint (steps 3 and 4);
//! - `apply`: the moves that go ahead, then the toppers (steps 5 and 6);
//! - `board`: the static facts about the level every tick needs.

mod apply;
mod board;
mod collect;
mod resolve;
mod simulator;

pub use simulator::Simulator;

use crate::grid::{CellId, Dir, Kind};
use crate::level::Level;

/// A donut: its kind and the source cell it came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Donut {
    pub kind: Kind,
    pub origin: CellId,
}

/// A crossover's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cross {
    Open,
    Occupied(Dir),
    OpenHorizontal,
    OpenVertical,
}

/// The state of one cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CellState {
    pub donut: Option<Donut>,
    pub waiting: u32,
    pub next_right: bool,
    pub cross: Cross,
    /// The any-source cycle position: the kind it emits next.
    pub cycle: Kind,
}

impl CellState {
    const START: CellState = CellState {
        donut: None,
        waiting: 0,
        next_right: false,
        cross: Cross::Open,
        cycle: Kind::PLAIN,
    };

    /// Packs the state into one word for hashing and exact comparison.
    fn pack(&self) -> u64 {
        let donut = match self.donut {
            None => 0u64,
            Some(d) => 1 | (d.kind.index() as u64) << 1 | (d.origin.0 as u64 & 0xffff) << 4,
        };
        let cross = match self.cross {
            Cross::Open => 0u64,
            Cross::OpenHorizontal => 1,
            Cross::OpenVertical => 2,
            Cross::Occupied(d) => 3 + d.index() as u64,
        };
        donut
            | (self.waiting as u64) << 20
            | (self.next_right as u64) << 52
            | cross << 53
            | (self.cycle.index() as u64) << 56
    }
}

/// A delivery: a donut of `kind` from `origin` recorded at `target`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Delivery {
    pub target: CellId,
    pub origin: CellId,
    pub kind: Kind,
    /// The first tick this delivery was recorded.
    pub tick: u32,
}

/// Why a simulation failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The tile at `from` pushed a donut off the grid.
    OffGrid {
        from: CellId,
        dir: Dir,
        donut: Donut,
    },
    /// The tile at `from` pushed a donut into `to`, which cannot be entered that way.
    CannotEnter {
        from: CellId,
        to: CellId,
        dir: Dir,
        donut: Donut,
    },
    /// A target received a donut it does not accept.
    WrongDelivery { target: CellId, donut: Donut },
    /// A merge kept refusing the donut on `cell` for longer than width x height ticks.
    Starved { cell: CellId, waiting: u32 },
}

impl Failure {
    /// The cell the failure happened at.
    pub fn cell(&self) -> CellId {
        match *self {
            Failure::OffGrid { from, .. } | Failure::CannotEnter { from, .. } => from,
            Failure::WrongDelivery { target, .. } => target,
            Failure::Starved { cell, .. } => cell,
        }
    }
}

/// How a simulation ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The state at the start of `tick` equals the state `period` ticks earlier.
    Steady {
        tick: u32,
        period: u32,
    },
    /// A donut sat on a cell with neither belt nor entity at the scan of `tick`.
    Stranded {
        tick: u32,
        cell: CellId,
        donut: Donut,
    },
    Failed {
        tick: u32,
        failure: Failure,
    },
    /// A safety net that the rules do not need: the state space is finite, so every
    /// run reaches a steady state, but we stop after [`MAX_TICKS`] all the same.
    TickLimit {
        tick: u32,
    },
}

impl End {
    pub fn tick(&self) -> u32 {
        match *self {
            End::Steady { tick, .. }
            | End::Stranded { tick, .. }
            | End::Failed { tick, .. }
            | End::TickLimit { tick } => tick,
        }
    }
}

/// The result of running a layout to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub end: End,
    /// Distinct `(target, origin, kind)` deliveries, in the order first recorded.
    pub deliveries: Vec<Delivery>,
    /// For each cell (row-major), whether a donut stood on it at some tick's scan.
    /// The run depends on the player's choice on a `.` cell only if that cell is
    /// marked here, which is what makes counterexamples from it sound.
    pub visited: Vec<bool>,
    /// With [`Simulator::recording`]: every donut seen at a scan, as (cell, kind,
    /// origin, direction it entered a crossover). Empty otherwise.
    pub occupancy: Vec<Seen>,
}

/// One donut seen at a scan: cell, kind, origin, and for a crossover the
/// direction it is moving.
pub type Seen = (CellId, Kind, CellId, Option<Dir>);

/// The most ticks a run may take before [`End::TickLimit`].
pub const MAX_TICKS: u32 = 1_000_000;

/// Runs `level` (a layout) to the end.
pub fn simulate(level: &Level) -> Outcome {
    Simulator::new(level).run()
}

#[cfg(test)]
mod rules;

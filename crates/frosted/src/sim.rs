//! The exact tick-by-tick simulator (rules, section 4): the trusted reference that
//! every layout, hand-made or found by the SAT solver, is judged by.
//!
//! One [`Simulator`] owns the whole state and a few work buffers that are reused
//! every tick, so a tick allocates nothing. Steady state is found by hashing each
//! tick's state; a hash match is confirmed by replaying a fresh simulation to the
//! earlier tick and comparing the full states, so a hash collision can never end a
//! run early.

use crate::grid::{CellId, Dir, Kind, Shape};
use crate::level::{Channel, Level, Tile};
use std::collections::HashMap;

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

#[derive(Copy, Clone, Debug)]
struct Move {
    from: CellId,
    to: CellId,
    donut: Donut,
    /// The kind that ranks this move at a merge: the kind standing on `from` (plain
    /// for a fresh donut from a source).
    rank: Kind,
    /// The direction moved, `None` for a teleport.
    dir: Option<Dir>,
    refused: bool,
}

/// Static facts about a level that every tick needs.
struct Board {
    shape: Shape,
    tiles: Vec<Tile>,
    scan: Vec<CellId>,
    /// Position of each cell in scan order.
    scan_pos: Vec<u32>,
    /// For each cell and direction `d` (Up, Down, Left, Right), the kind pushed by a
    /// bumper at `p - d` facing `d`.
    bumpers: Vec<[Option<Kind>; 4]>,
    /// Toppers in scan order: (cell topped, kind given).
    toppers: Vec<(CellId, Kind)>,
    /// Teleporter outs of each channel, in row-major order.
    outs: [Vec<CellId>; 2],
    /// Index of each target and source cell among targets / sources.
    target_ix: Vec<u32>,
    source_ix: Vec<u32>,
    n_targets: usize,
    n_sources: usize,
}

impl Board {
    fn new(level: &Level) -> Board {
        let shape = level.shape;
        let scan: Vec<CellId> = shape.scan_order().collect();
        let mut scan_pos = vec![0; shape.len()];
        for (i, c) in scan.iter().enumerate() {
            scan_pos[c.index()] = i as u32;
        }
        let bumpers = level.bumper_pushes();
        let mut toppers = Vec::new();
        for &c in &scan {
            if let Tile::Topper { kind, dir } = level.tile(c) {
                if let Some(t) = shape.step(c, dir) {
                    toppers.push((t, kind));
                }
            }
        }
        let mut outs = [Vec::new(), Vec::new()];
        let mut target_ix = vec![u32::MAX; shape.len()];
        let mut source_ix = vec![u32::MAX; shape.len()];
        let (mut nt, mut ns) = (0, 0);
        for c in shape.cells() {
            match level.tile(c) {
                Tile::TeleOut(ch, _) => outs[ch as usize].push(c),
                Tile::Target { .. } => {
                    target_ix[c.index()] = nt;
                    nt += 1;
                }
                Tile::Source(_) | Tile::AnySource(_) => {
                    source_ix[c.index()] = ns;
                    ns += 1;
                }
                _ => {}
            }
        }
        Board {
            shape,
            tiles: level.tiles.clone(),
            scan,
            scan_pos,
            bumpers,
            toppers,
            outs,
            target_ix,
            source_ix,
            n_targets: nt as usize,
            n_sources: ns as usize,
        }
    }

    fn tile(&self, c: CellId) -> Tile {
        self.tiles[c.index()]
    }
}

/// A running simulation.
pub struct Simulator {
    board: Board,
    cells: Vec<CellState>,
    /// The number of the next tick to run (the first tick is 1).
    tick: u32,
    end: Option<End>,
    deliveries: Vec<Delivery>,
    delivered: Vec<bool>,
    visited: Vec<bool>,
    occupancy: Option<std::collections::HashSet<Seen>>,
    history: HashMap<u64, u32>,
    detect_steady: bool,
    // Work buffers, reused every tick.
    moves: Vec<Move>,
    order: Vec<u32>,
    refused_from: Vec<bool>,
    first_into: Vec<u32>,
    next_into: Vec<u32>,
    stack: Vec<CellId>,
}

const NONE: u32 = u32::MAX;

impl Simulator {
    pub fn new(level: &Level) -> Simulator {
        let board = Board::new(level);
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
            detect_steady: true,
            moves: Vec::with_capacity(n),
            order: Vec::with_capacity(n),
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
        let t = self.tick;
        let limit = (self.board.shape.len()) as u32;
        if let Some(c) = self
            .board
            .scan
            .iter()
            .find(|c| self.cells[c.index()].waiting > limit)
        {
            let failure = Failure::Starved {
                cell: *c,
                waiting: self.cells[c.index()].waiting,
            };
            return self.finish(End::Failed { tick: t, failure });
        }
        if self.detect_steady {
            let h = self.state_hash();
            if let Some(&earlier) = self.history.get(&h) {
                if self.equals_state_at(earlier) {
                    return self.finish(End::Steady {
                        tick: t,
                        period: t - earlier,
                    });
                }
            } else {
                self.history.insert(h, t);
            }
        }
        if t >= MAX_TICKS {
            return self.finish(End::TickLimit { tick: t });
        }
        if let Some(end) = self.collect_moves() {
            return self.finish(end);
        }
        self.resolve_conflicts();
        self.apply_moves();
        self.apply_toppers();
        self.tick += 1;
        None
    }

    fn finish(&mut self, end: End) -> Option<End> {
        self.end = Some(end);
        Some(end)
    }

    /// Confirms a hash match: replays a fresh run to the start of tick `earlier` and
    /// compares the full states.
    fn equals_state_at(&self, earlier: u32) -> bool {
        let level = Level {
            shape: self.board.shape,
            tiles: self.board.tiles.clone(),
            flags: Default::default(),
        };
        let mut replay = Simulator::new(&level);
        replay.detect_steady = false;
        while replay.tick < earlier {
            if replay.step().is_some() {
                return false;
            }
        }
        replay.packed_state().eq(self.packed_state())
    }

    fn push_move(
        &mut self,
        from: CellId,
        dir: Dir,
        donut: Donut,
        rank: Kind,
    ) -> Result<(), Failure> {
        let Some(to) = self.board.shape.step(from, dir) else {
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
    fn collect_moves(&mut self) -> Option<End> {
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
                let b = &self.board;
                let ix = (b.target_ix[p.index()] as usize * b.n_sources
                    + b.source_ix[donut.origin.index()] as usize)
                    * Kind::COUNT
                    + k.index();
                if !self.delivered[ix] {
                    self.delivered[ix] = true;
                    self.deliveries.push(Delivery {
                        target: p,
                        origin: donut.origin,
                        kind: k,
                        tick: self.tick,
                    });
                }
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

    /// Steps 3 and 4: merges, crossovers, then the blocking fixpoint.
    fn resolve_conflicts(&mut self) {
        let m = self.moves.len();
        self.order.clear();
        self.order.extend(0..m as u32);
        let scan_pos = &self.board.scan_pos;
        let moves = &self.moves;
        self.order
            .sort_unstable_by_key(|&i| (scan_pos[moves[i as usize].to.index()], i));

        let mut g = 0;
        while g < m {
            let q = self.moves[self.order[g] as usize].to;
            let mut end = g + 1;
            while end < m && self.moves[self.order[end] as usize].to == q {
                end += 1;
            }
            if self.board.tile(q) == Tile::Crossover {
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
            } else if end - g >= 2 {
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
            g = end;
        }

        // Step 4: a move into the `from` cell of a refused move is refused, until
        // nothing changes. Moves are chained by destination so each is visited once.
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

    /// Step 5: empty the cells left, then place the donuts in collection order.
    fn apply_moves(&mut self) {
        for mv in self.moves.iter().filter(|m| !m.refused) {
            let st = &mut self.cells[mv.from.index()];
            st.donut = None;
            st.next_right = !st.next_right;
            if self.board.tiles[mv.from.index()] == Tile::Crossover {
                st.cross = match mv.dir {
                    Some(d) if d.is_vertical() => Cross::OpenHorizontal,
                    _ => Cross::OpenVertical,
                };
            }
        }
        for mv in self.moves.iter().filter(|m| !m.refused) {
            let st = &mut self.cells[mv.to.index()];
            st.donut = Some(mv.donut);
            if self.board.tiles[mv.to.index()] == Tile::Crossover {
                if let Some(d) = mv.dir {
                    st.cross = Cross::Occupied(d);
                }
            }
        }
    }

    /// Step 6: toppers, in scan order.
    fn apply_toppers(&mut self) {
        for &(t, kind) in &self.board.toppers {
            if let Some(d) = &mut self.cells[t.index()].donut {
                if kind.prev() == Some(d.kind) {
                    d.kind = kind;
                }
            }
        }
    }

    /// Teleporter outs of a channel, in row-major order.
    pub fn outs(&self, ch: Channel) -> &[CellId] {
        &self.board.outs[ch as usize]
    }
}

/// Runs `level` (a layout) to the end.
pub fn simulate(level: &Level) -> Outcome {
    Simulator::new(level).run()
}

/// One test per rule of sections 4 and 5, each on a tiny board.
#[cfg(test)]
mod rules {
    use super::*;
    use crate::judge::{judge, Reason};
    use crate::parse::parse;

    fn level(text: &str) -> Level {
        parse(text).expect("test level parses")
    }

    fn run(text: &str) -> Outcome {
        simulate(&level(text))
    }

    fn at(l: &Level, x: usize, y: usize) -> CellId {
        l.shape.cell(crate::grid::Pos { x, y })
    }

    fn donut_at(sim: &Simulator, c: CellId) -> Option<Donut> {
        sim.cells()[c.index()].donut
    }

    #[test]
    fn steady_state_ends_the_run_with_its_period() {
        let o = run("+>  >   ->\n");
        assert!(matches!(o.end, End::Steady { .. }), "{:?}", o.end);
        assert_eq!(o.deliveries.len(), 1);
    }

    #[test]
    fn a_source_emits_a_plain_donut_every_tick() {
        let l = level("+>  >   >   >\n#   #   #   #\n");
        let mut s = Simulator::new(&l);
        s.step();
        assert_eq!(
            donut_at(&s, at(&l, 1, 0)).map(|d| d.kind),
            Some(Kind::PLAIN)
        );
        s.step();
        assert!(donut_at(&s, at(&l, 1, 0)).is_some() && donut_at(&s, at(&l, 2, 0)).is_some());
    }

    #[test]
    fn an_any_source_cycles_through_the_kinds() {
        let l = level("+>? >   >   >   >   >   >\n");
        let mut s = Simulator::new(&l);
        for _ in 0..5 {
            s.step();
        }
        let kinds: Vec<usize> = (1..=5)
            .rev()
            .map(|x| donut_at(&s, at(&l, x, 0)).map_or(9, |d| d.kind.index()))
            .collect();
        assert_eq!(kinds, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_donut_on_an_empty_cell_strands_the_run() {
        let l = level("+>  >   .\n");
        let o = simulate(&l);
        assert_eq!(
            o.end,
            End::Stranded {
                tick: 3,
                cell: at(&l, 2, 0),
                donut: Donut {
                    kind: Kind::PLAIN,
                    origin: at(&l, 0, 0)
                }
            }
        );
    }

    #[test]
    fn bumpers_act_before_belts() {
        // The bumper below (1,1) faces up: plain donuts on (1,1) go up, not right.
        let l = level("#   -^  #\n+>  >   >\n#   b^0 #\n");
        let o = simulate(&l);
        assert_eq!(o.deliveries.len(), 1, "{:?}", o.end);
        assert_eq!(o.deliveries[0].target, at(&l, 1, 0));
    }

    #[test]
    fn a_belt_pushing_off_the_grid_fails() {
        let l = level("+>  >\n");
        assert!(matches!(
            simulate(&l).end,
            End::Failed {
                failure: Failure::OffGrid { .. },
                ..
            }
        ));
    }

    #[test]
    fn a_belt_pushing_into_an_unenterable_entity_fails() {
        let l = level("+>  >   #\n");
        assert!(matches!(
            simulate(&l).end,
            End::Failed {
                failure: Failure::CannotEnter { .. },
                ..
            }
        ));
        // A target entered against its facing cannot be entered either.
        let l = level("+>  >   -<\n");
        assert!(matches!(
            simulate(&l).end,
            End::Failed {
                failure: Failure::CannotEnter { .. },
                ..
            }
        ));
    }

    #[test]
    fn a_target_records_accepted_donuts_and_fails_on_others() {
        assert_eq!(run("+>  ->\n").deliveries.len(), 1);
        assert!(matches!(
            run("+>  ->1\n").end,
            End::Failed {
                failure: Failure::WrongDelivery { .. },
                ..
            }
        ));
        assert_eq!(run("+>  ->?\n").deliveries.len(), 1);
    }

    #[test]
    fn a_splitter_sends_left_then_right() {
        // Splitter entered moving right: left is up, right is down.
        let l = level(".   -^? .\n+>  x>  .\n.   -v? .\n");
        let o = simulate(&l);
        let mut d: Vec<(CellId, u32)> = o.deliveries.iter().map(|d| (d.target, d.tick)).collect();
        d.sort_by_key(|x| x.1);
        assert_eq!(d[0].0, at(&l, 1, 0), "the first donut goes left (up)");
        assert_eq!(d[1].0, at(&l, 1, 2));
    }

    #[test]
    fn a_teleporter_copies_to_every_out() {
        let l = level("+>  T-  #\nT+> ->? #\nT+> ->? #\n");
        let o = simulate(&l);
        assert_eq!(o.deliveries.len(), 2, "{:?}", o.end);
    }

    #[test]
    fn a_crossover_passes_straight_and_alternates_axes() {
        // Only the horizontal stream uses the crossover: one donut passes, then the
        // crossover waits for a vertical entry forever.
        let l = level("+>  *   ->\n");
        let o = simulate(&l);
        assert_eq!(o.deliveries.len(), 1);
        assert!(matches!(o.end, End::Steady { .. }));
        let mut s = Simulator::new(&l);
        s.step();
        assert_eq!(
            s.cells()[at(&l, 1, 0).index()].cross,
            Cross::Occupied(Dir::Right)
        );
        s.step();
        assert_eq!(s.cells()[at(&l, 1, 0).index()].cross, Cross::OpenVertical);
    }

    #[test]
    fn merges_rank_by_waiting_then_toppings_then_scan_order() {
        // Two sources feed (1,1) in the same tick: (1,0) is scanned before (0,1)'s
        // ... both fresh donuts rank plain, waiting 0: collection (scan) order wins.
        let l = level("#   +v  #\n+>  >   ->\n#   #   #\n");
        let mut s = Simulator::new(&l);
        s.step();
        assert_eq!(
            donut_at(&s, at(&l, 1, 1)).map(|d| d.origin),
            Some(at(&l, 0, 1))
        );
        // The loser waits; next time it outranks the winner.
        assert_eq!(s.cells()[at(&l, 1, 0).index()].waiting, 1);
        s.step();
        assert_eq!(s.cells()[at(&l, 1, 0).index()].waiting, 0);
        assert_eq!(s.cells()[at(&l, 0, 1).index()].waiting, 1);
    }

    #[test]
    fn merges_prefer_more_toppings_at_equal_waiting() {
        // Belts (1,0)↓ and (0,1)→ both feed (1,1). The donut from the top was
        // frosted on (1,0) by the topper at (2,0) facing left.
        let l = level("+>  v   1<\n+>  >   ->?\n#   #   #\n");
        let o = simulate(&l);
        assert!(!matches!(o.end, End::Failed { .. }), "{:?}", o.end);
        // Tick 2: the source at (0,1) (collected first, plain) and the frosted
        // donut on (1,0) both move into (1,1), both waiting 0: frosting wins.
        let mut s = Simulator::new(&l);
        s.step();
        s.step();
        assert_eq!(donut_at(&s, at(&l, 1, 1)).map(|d| d.kind.index()), Some(1));
        assert_eq!(s.cells()[at(&l, 0, 1).index()].waiting, 1);
    }

    #[test]
    fn blocking_refuses_moves_into_a_refused_donut() {
        // (1,1) is full and refused at the merge: the belt behind it is blocked too.
        let l = level("#   +v  #   #\n+>  >   >   ->\n#   #   #   #\n");
        let mut s = Simulator::new(&l);
        for _ in 0..3 {
            s.step();
        }
        let total: u32 = s.cells().iter().map(|c| c.waiting).sum();
        assert!(total > 0);
        assert!(!matches!(s.end(), Some(End::Failed { .. })));
    }

    #[test]
    fn toppers_act_after_moves_in_scan_order() {
        // Topper 1 at (1,0) and topper 2 at (1,2) both work on (1,1); in scan order
        // the frosting topper comes first, so a plain donut becomes sprinkles in
        // one tick.
        let l = level("#   1v  #\n+>  >   ->?\n#   2^  #\n");
        let mut s = Simulator::new(&l);
        s.step();
        assert_eq!(donut_at(&s, at(&l, 1, 1)).map(|d| d.kind.index()), Some(2));
    }

    #[test]
    fn a_starved_merge_fails_the_run() {
        // A loop of belts keeps (1,1) busy, so the source never gets in.
        let l = level(".   >   v\n+>  ^   <\n");
        let o = simulate(&l);
        assert!(
            matches!(
                o.end,
                End::Failed {
                    failure: Failure::Starved { .. },
                    ..
                } | End::Steady { .. }
                    | End::Stranded { .. }
            ),
            "{:?}",
            o.end
        );
    }

    #[test]
    fn verdicts_follow_section_5() {
        // 5.1: a failed run is not a solution.
        let v = judge(&level("+>  >\n"));
        assert!(matches!(v.reason, Some(Reason::Failed(_))));
        // 5.2: every source delivers.
        let v = judge(&level("+>  ->\n+>  .\n"));
        assert!(
            matches!(v.reason, Some(Reason::SourceNeverDelivered(_))),
            "{:?}",
            v.reason
        );
        // 5.3: every target receives.
        let v = judge(&level("+>  ->\n#   ->\n"));
        assert!(
            matches!(v.reason, Some(Reason::TargetNeverReceived(_))),
            "{:?}",
            v.reason
        );
        // 5.4: :targets compares the multiset of distinct (origin, kind) pairs.
        assert!(judge(&level(":targets 0\n+>  ->\n")).solved());
        let v = judge(&level(":targets 0 0\n+>  ->\n"));
        assert!(matches!(v.reason, Some(Reason::TargetsMismatch { .. })));
    }

    #[test]
    fn the_reason_names_every_silent_source() {
        // Two sources feed loops that never reach the target.
        let l = level("+>  ->  #\n+>  >   v\n#   ^   <\n+>  >   v\n#   ^   <\n");
        let v = judge(&l);
        let want = vec![at(&l, 0, 1), at(&l, 0, 3)];
        assert_eq!(v.reason, Some(Reason::SourceNeverDelivered(want)));
        let text = crate::judge::explain(&l, v.reason.as_ref().unwrap(), &v.outcome);
        assert!(
            text.starts_with(
                "a source facing right at (0, 1) and a source facing right at (0, 3) never"
            ),
            "{text}"
        );
    }
}

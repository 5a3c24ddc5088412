//! Reading a level into the chain view: where a belt each way sends a donut,
//! which free cells lead to each point, the topped cells, the forks'
//! exits and the targets, or why the bound does not apply to the level.

use super::fast_map::FastMap;
use super::{ChainBound, Landing, Waypoint, MAX_WAYPOINTS};
use crate::grid::{CellId, Dir, Kind};
use crate::level::{Accepts, Level, Tile};
use std::cell::{Cell, RefCell};

impl ChainBound {
    /// The chain view of `level`, or why the bound does not apply to it.
    pub fn new(level: &Level) -> Result<ChainBound, String> {
        let sources = sources(level)?;
        bumpers_work_on_free_cells(level)?;
        let lander = Lander::new(level);
        let moves: Vec<[Landing; 4]> = lander
            .free
            .iter()
            .map(|&c| Dir::ALL.map(|d| lander.land(c, d)))
            .collect();
        let starts: Vec<Landing> = sources.iter().map(|&(c, d, _)| lander.land(c, d)).collect();
        let pushes: Vec<_> = lander.free.iter().map(|&c| lander.pushes(c)).collect();
        // Every landing is known before the points are numbered: the exits
        // of a fork found on the way may find further forks.
        let fork_exits = lander.every_fork_exit();
        let back = lander.back_moves(&moves);
        let waypoints = lander.waypoints(&moves, &back, &pushes)?;
        if waypoints.len() > MAX_WAYPOINTS {
            return Err(format!(
                "{} waypoints (cells toppers or bumpers work on)",
                waypoints.len()
            ));
        }
        let fork_cells = lander.fork_cells();
        let fork_tops = fork_cells
            .iter()
            .map(|&c| lander.tops[c.index()].clone())
            .collect();
        let accepts = lander
            .targets
            .iter()
            .map(|&t| match level.tile(t) {
                Tile::Target { accepts, .. } => accepts,
                _ => Accepts::Any,
            })
            .collect();
        let mut required = [0; Kind::COUNT];
        for k in level.flags.targets.iter().flatten() {
            required[k.index()] += 1;
        }
        let xy = (lander.free.iter().chain(&fork_cells).chain(&lander.targets))
            .map(|&c| level.shape.pos(c))
            .collect();
        let mut topped = vec![false; lander.free.len()];
        for w in &waypoints {
            topped[w.cell] = true;
        }
        Ok(ChainBound {
            topped,
            starts,
            emits: sources.iter().map(|&(_, _, kinds)| kinds).collect(),
            fork_tops,
            moves: moves.iter().map(|m| m.map(|l| lander.point(l))).collect(),
            free: lander.free,
            back,
            waypoints,
            fork_exits,
            targets: accepts,
            required,
            bumpers: level
                .shape
                .cells()
                .any(|c| matches!(level.tile(c), Tile::Bumper { .. })),
            first_deliveries: !level
                .shape
                .cells()
                .any(|c| matches!(level.tile(c), Tile::Crossover | Tile::Bumper { .. })),
            cache: RefCell::new(FastMap::default()),
            simple_memo: RefCell::new(FastMap::default()),
            xy,
            simple_paths: false,
            walls: RefCell::new(None),
            pairs: true,
            pair_memo: RefCell::new(FastMap::default()),
            work: Cell::new(0),
            known: Cell::new((None, None)),
        })
    }
}

/// A source's cell, facing and the kinds it emits.
type Emitter = (CellId, Dir, &'static [Kind]);

/// The level's sources (and any-sources), row by row, with their facings
/// and the kinds they emit, or an error when there is none.
fn sources(level: &Level) -> Result<Vec<Emitter>, String> {
    let mut sources = Vec::new();
    for c in level.shape.cells() {
        match level.tile(c) {
            Tile::Source(d) => sources.push((c, d, &[Kind::PLAIN][..])),
            Tile::AnySource(d) => sources.push((c, d, &Kind::ALL[..])),
            _ => {}
        }
    }
    if sources.is_empty() {
        return Err("no source".into());
    }
    Ok(sources)
}

/// An error when a bumper works on a cell that holds donuts but is not a
/// free cell (a preset belt, a target, a splitter, a teleporter, a
/// crossover): a donut there could be pushed off a way the chain view
/// treats as fixed. A bumper working on a free cell makes it a waypoint
/// ([`Lander::waypoints`]); one facing a wall, a source, a topper, a
/// bumper or the edge pushes nothing.
fn bumpers_work_on_free_cells(level: &Level) -> Result<(), String> {
    for c in level.shape.cells() {
        let Tile::Bumper { dir, .. } = level.tile(c) else {
            continue;
        };
        let Some(p) = level.shape.step(c, dir) else {
            continue;
        };
        match level.tile(p) {
            Tile::Empty
            | Tile::Block
            | Tile::Source(_)
            | Tile::AnySource(_)
            | Tile::Topper { .. }
            | Tile::Bumper { .. } => {}
            _ => return Err("a bumper working on a cell a donut passes".into()),
        }
    }
    Ok(())
}

/// The level's cells, numbered the chain view's way: free cells densely,
/// forks and targets each in their own list. The forks are the splitters,
/// then the teleporters in with several outs, then the *passes*: a cell a
/// donut only passes (a preset belt, a crossover, a teleporter) that a
/// topper works on, with the way the donut goes on from it. A pass is a
/// fork with one exit, so the chain that meets it ends there and the
/// toppings happen at a known place of the topology (`Search::kinds_delivered`).
struct Lander<'a> {
    level: &'a Level,
    free: Vec<CellId>,
    /// Per cell: its index among the free cells (`usize::MAX` if not free).
    slot: Vec<usize>,
    forks: Vec<CellId>,
    /// The passes found so far (forks after `forks`), in the order found.
    passes: RefCell<Vec<Pass>>,
    targets: Vec<CellId>,
    /// Per cell: the kinds of the toppers working on it.
    tops: Vec<Vec<Kind>>,
}

/// A topped cell a donut only passes, and how it goes on from there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Pass {
    cell: CellId,
    next: Next,
}

/// How a donut goes on from a cell it only passes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Next {
    /// It moves from this cell towards this side.
    Move(CellId, Dir),
    /// It stands on this teleporter out, then moves its way.
    Stand(CellId, Dir),
}

impl<'a> Lander<'a> {
    fn new(level: &'a Level) -> Lander<'a> {
        let shape = level.shape;
        let free: Vec<CellId> = level.free_cells().collect();
        let mut slot = vec![usize::MAX; shape.len()];
        for (i, c) in free.iter().enumerate() {
            slot[c.index()] = i;
        }
        let splitters = shape
            .cells()
            .filter(|&c| matches!(level.tile(c), Tile::Splitter(_)));
        // Teleporters in with several outs.
        let teleporters = shape.cells().filter(
            |&c| matches!(level.tile(c), Tile::TeleIn(ch) if level.tele_outs(ch).nth(1).is_some()),
        );
        let forks: Vec<CellId> = splitters.chain(teleporters).collect();
        let targets: Vec<CellId> = level.targets().collect();
        let mut tops = vec![Vec::new(); shape.len()];
        for c in shape.cells() {
            if let Tile::Topper { kind, dir } = level.tile(c) {
                if let Some(w) = shape.step(c, dir) {
                    tops[w.index()].push(kind);
                }
            }
        }
        Lander {
            level,
            free,
            slot,
            forks,
            passes: RefCell::new(Vec::new()),
            targets,
            tops,
        }
    }

    /// Whether a topper works on cell `c`.
    fn topped(&self, c: CellId) -> bool {
        !self.tops[c.index()].is_empty()
    }

    /// The fork of the pass through `cell` going on by `next`.
    fn pass(&self, cell: CellId, next: Next) -> Landing {
        let mut passes = self.passes.borrow_mut();
        let p = Pass { cell, next };
        let i = match passes.iter().position(|&q| q == p) {
            Some(i) => i,
            None => {
                passes.push(p);
                passes.len() - 1
            }
        };
        Landing::Fork(self.forks.len() + i)
    }

    /// How many forks there are, passes included (so far, while landings
    /// are still being found).
    fn fork_count(&self) -> usize {
        self.forks.len() + self.passes.borrow().len()
    }

    /// Every fork's cell: the splitters and teleporters, then the passes'.
    fn fork_cells(&self) -> Vec<CellId> {
        let passes = self.passes.borrow();
        self.forks
            .iter()
            .copied()
            .chain(passes.iter().map(|p| p.cell))
            .collect()
    }

    /// The exits of every fork, passes included: those found on the way
    /// to an exit get theirs too, until no new pass is found.
    fn every_fork_exit(&self) -> Vec<Vec<Landing>> {
        let mut exits = Vec::new();
        while exits.len() < self.fork_count() {
            exits.push(self.fork_exits(exits.len()));
        }
        exits
    }

    /// Where the exits of fork `z` send a donut: a splitter's left exit,
    /// then its right one; a teleporter's outs, row by row; a pass's one
    /// way on.
    fn fork_exits(&self, z: usize) -> Vec<Landing> {
        let level = self.level;
        let Some(&cell) = self.forks.get(z) else {
            let pass = self.passes.borrow()[z - self.forks.len()];
            return vec![self.go_on(pass.next)];
        };
        match level.tile(cell) {
            Tile::Splitter(f) => vec![
                self.land(cell, f.turn_left()),
                self.land(cell, f.turn_right()),
            ],
            Tile::TeleIn(ch) => level
                .tele_outs(ch)
                .map(|out| match level.tile(out) {
                    Tile::TeleOut(_, od) => self.go_on(Next::Stand(out, od)),
                    _ => Landing::Invalid,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Where a donut going on by `next` lands: at the pass of a topped
    /// teleporter out it stands on, else where its move takes it.
    fn go_on(&self, next: Next) -> Landing {
        match next {
            Next::Stand(out, od) if self.topped(out) => self.pass(out, Next::Move(out, od)),
            Next::Stand(c, d) | Next::Move(c, d) => self.land(c, d),
        }
    }

    /// Where a donut moving from `from` towards `d` lands, through any
    /// untopped preset belts, crossovers and teleporters with one out on
    /// the way (`Invalid` for a donut that circles them forever: it
    /// delivers nothing, like a dead chain); a topped one is a pass.
    fn land(&self, from: CellId, d: Dir) -> Landing {
        let (level, shape) = (self.level, self.level.shape);
        let index_of = |list: &[CellId], c: CellId| list.iter().position(|&x| x == c);
        let (mut from, mut d) = (from, d);
        for _ in 0..=shape.len() {
            let Some(to) = shape.step(from, d) else {
                return Landing::Invalid;
            };
            match level.tile(to) {
                Tile::Empty => return Landing::Free(self.slot[to.index()]),
                Tile::Splitter(f) if f == d => {
                    return Landing::Fork(index_of(&self.forks, to).unwrap_or(0))
                }
                Tile::Target { dir, .. } if dir == d => {
                    return Landing::Target(index_of(&self.targets, to).unwrap_or(0))
                }
                // A preset belt sends the donut on its way, as a
                // teleporter out does; a crossover sends it on the way it
                // came in.
                Tile::Belt(bd) if self.topped(to) => return self.pass(to, Next::Move(to, bd)),
                Tile::Belt(bd) => (from, d) = (to, bd),
                Tile::Crossover if self.topped(to) => return self.pass(to, Next::Move(to, d)),
                Tile::Crossover => from = to,
                // A teleporter with several outs is a fork; one with a
                // single out sends the donut on from there.
                Tile::TeleIn(ch) => match (index_of(&self.forks, to), level.tele_outs(ch).next()) {
                    (Some(z), _) => return Landing::Fork(z),
                    (None, Some(out)) => match level.tile(out) {
                        Tile::TeleOut(_, od) if self.topped(to) => {
                            return self.pass(to, Next::Stand(out, od))
                        }
                        Tile::TeleOut(_, od) if self.topped(out) => {
                            return self.pass(out, Next::Move(out, od))
                        }
                        Tile::TeleOut(_, od) => (from, d) = (out, od),
                        _ => return Landing::Invalid,
                    },
                    (None, None) => return Landing::Invalid,
                },
                _ => return Landing::Invalid,
            }
        }
        // A ring of teleporters and preset belts: the donut never reaches a
        // free cell.
        Landing::Invalid
    }

    /// The point index of a landing: free cells, then forks, then targets;
    /// none for a refused move.
    fn point(&self, l: Landing) -> Option<usize> {
        let n = self.free.len();
        match l {
            Landing::Free(i) => Some(i),
            Landing::Fork(z) => Some(n + z),
            Landing::Target(t) => Some(n + self.fork_count() + t),
            Landing::Invalid => None,
        }
    }

    /// Per point: the free cells whose belt can lead there.
    fn back_moves(&self, moves: &[[Landing; 4]]) -> Vec<Vec<usize>> {
        let points = self.free.len() + self.fork_count() + self.targets.len();
        let mut back = vec![Vec::new(); points];
        for (i, m) in moves.iter().enumerate() {
            for p in m.iter().filter_map(|&l| self.point(l)) {
                if !back[p].contains(&i) {
                    back[p].push(i);
                }
            }
        }
        back
    }

    /// The waypoints: the topped free cells, with their toppers' kinds and
    /// their ways in and out (an error for a topper working on a target),
    /// then the free cells only bumpers work on; each with where its
    /// bumpers push a donut.
    fn waypoints(
        &self,
        moves: &[[Landing; 4]],
        back: &[Vec<usize>],
        pushes: &[Vec<(Kind, Landing)>],
    ) -> Result<Vec<Waypoint>, String> {
        let (level, shape) = (self.level, self.level.shape);
        let waypoint = |i: usize, kinds: Vec<Kind>| {
            let mut succ: Vec<Landing> = moves[i]
                .iter()
                .copied()
                .filter(|&l| l != Landing::Invalid)
                .collect();
            succ.dedup();
            Waypoint {
                cell: i,
                kinds,
                succ,
                pred: back[i].clone(),
                pushes: pushes[i].clone(),
            }
        };
        let mut worked = vec![false; self.free.len()];
        let mut waypoints = Vec::new();
        // In the order of each cell's first topper, with the kinds of all
        // the toppers working on it.
        for c in shape.cells() {
            let Tile::Topper { dir, .. } = level.tile(c) else {
                continue;
            };
            let Some(w) = shape.step(c, dir) else {
                continue;
            };
            match level.tile(w) {
                Tile::Empty => {
                    let i = self.slot[w.index()];
                    if !std::mem::replace(&mut worked[i], true) {
                        waypoints.push(waypoint(i, self.tops[w.index()].clone()));
                    }
                }
                Tile::Target { .. } => return Err("a topper working on a target".into()),
                // Cells that never hold a donut, and cells a donut only
                // passes (passes: [`Lander::land`]).
                _ => {}
            }
        }
        for i in 0..self.free.len() {
            if !worked[i] && !pushes[i].is_empty() {
                waypoints.push(waypoint(i, Vec::new()));
            }
        }
        Ok(waypoints)
    }

    /// Where the bumpers working on free cell `p` push a donut of their
    /// kind, in the order the rules try them (a bumper below `p` pushing
    /// up first, then down, left, right; the first whose kind matches
    /// wins).
    fn pushes(&self, p: CellId) -> Vec<(Kind, Landing)> {
        let (level, shape) = (self.level, self.level.shape);
        Dir::ALL
            .into_iter()
            .filter_map(
                |d| match shape.step(p, d.opposite()).map(|b| level.tile(b)) {
                    Some(Tile::Bumper { dir, kind }) if dir == d => Some((kind, self.land(p, d))),
                    _ => None,
                },
            )
            .collect()
    }
}

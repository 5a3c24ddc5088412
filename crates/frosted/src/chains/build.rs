//! Reading a level into the chain view: where a belt each way sends a donut,
//! which free cells lead to each point, the topped cells, the splitters'
//! exits and the targets, or why the bound does not apply to the level.

use super::{ChainBound, Landing, Waypoint, MAX_WAYPOINTS};
use crate::grid::{CellId, Dir, Kind};
use crate::level::{Accepts, Level, Tile};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

impl ChainBound {
    /// The chain view of `level`, or why the bound does not apply to it.
    pub fn new(level: &Level) -> Result<ChainBound, String> {
        let sources = plain_sources(level)?;
        let lander = Lander::new(level);
        let moves: Vec<[Landing; 4]> = lander
            .free
            .iter()
            .map(|&c| Dir::ALL.map(|d| lander.land(c, d)))
            .collect();
        let back = lander.back_moves(&moves);
        let waypoints = lander.waypoints(&moves, &back)?;
        if waypoints.len() > MAX_WAYPOINTS {
            return Err(format!("{} topped cells", waypoints.len()));
        }
        let splitter_exits = lander
            .splitters
            .iter()
            .map(|&z| match level.tile(z) {
                Tile::Splitter(f) => [
                    lander.land(z, f.turn_left()),
                    lander.land(z, f.turn_right()),
                ],
                _ => [Landing::Invalid; 2],
            })
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
        Ok(ChainBound {
            starts: sources.iter().map(|&(c, d)| lander.land(c, d)).collect(),
            moves: moves.iter().map(|m| m.map(|l| lander.point(l))).collect(),
            free: lander.free,
            back,
            waypoints,
            splitter_exits,
            targets: accepts,
            required,
            cache: RefCell::new(HashMap::new()),
            work: Cell::new(0),
            known: Cell::new((None, None)),
        })
    }
}

/// The level's sources and their facings, row by row, or the first thing
/// found that puts the level outside the class (bumpers, crossovers, an
/// any-source, a teleporter with several outs, no source).
fn plain_sources(level: &Level) -> Result<Vec<(CellId, Dir)>, String> {
    let mut sources = Vec::new();
    for c in level.shape.cells() {
        match level.tile(c) {
            Tile::Bumper { .. } => return Err("bumpers".into()),
            Tile::Crossover => return Err("crossovers".into()),
            Tile::AnySource(_) => return Err("an any-source".into()),
            Tile::Source(d) => sources.push((c, d)),
            Tile::TeleIn(ch) if level.tele_outs(ch).count() != 1 => {
                return Err("a teleporter with several outs".into());
            }
            _ => {}
        }
    }
    if sources.is_empty() {
        return Err("no source".into());
    }
    Ok(sources)
}

/// The level's cells, numbered the chain view's way: free cells densely,
/// splitters and targets each in their own list.
struct Lander<'a> {
    level: &'a Level,
    free: Vec<CellId>,
    /// Per cell: its index among the free cells (`usize::MAX` if not free).
    slot: Vec<usize>,
    splitters: Vec<CellId>,
    targets: Vec<CellId>,
}

impl<'a> Lander<'a> {
    fn new(level: &'a Level) -> Lander<'a> {
        let shape = level.shape;
        let free: Vec<CellId> = level.free_cells().collect();
        let mut slot = vec![usize::MAX; shape.len()];
        for (i, c) in free.iter().enumerate() {
            slot[c.index()] = i;
        }
        let splitters: Vec<CellId> = shape
            .cells()
            .filter(|&c| matches!(level.tile(c), Tile::Splitter(_)))
            .collect();
        let targets: Vec<CellId> = level.targets().collect();
        Lander {
            level,
            free,
            slot,
            splitters,
            targets,
        }
    }

    /// Where a donut moving from `from` towards `d` lands, through any
    /// teleporters and preset belts on the way (`Invalid` for a donut that
    /// circles them forever: it delivers nothing, like a dead chain).
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
                    return Landing::Splitter(index_of(&self.splitters, to).unwrap_or(0))
                }
                Tile::Target { dir, .. } if dir == d => {
                    return Landing::Target(index_of(&self.targets, to).unwrap_or(0))
                }
                // A preset belt sends the donut on its way, as a
                // teleporter out does.
                Tile::Belt(bd) => (from, d) = (to, bd),
                Tile::TeleIn(ch) => match level.tele_outs(ch).next() {
                    Some(out) => match level.tile(out) {
                        Tile::TeleOut(_, od) => (from, d) = (out, od),
                        _ => return Landing::Invalid,
                    },
                    None => return Landing::Invalid,
                },
                _ => return Landing::Invalid,
            }
        }
        // A ring of teleporters and preset belts: the donut never reaches a
        // free cell.
        Landing::Invalid
    }

    /// The point index of a landing: free cells, then splitters, then
    /// targets; none for a refused move.
    fn point(&self, l: Landing) -> Option<usize> {
        let n = self.free.len();
        match l {
            Landing::Free(i) => Some(i),
            Landing::Splitter(z) => Some(n + z),
            Landing::Target(t) => Some(n + self.splitters.len() + t),
            Landing::Invalid => None,
        }
    }

    /// Per point: the free cells whose belt can lead there.
    fn back_moves(&self, moves: &[[Landing; 4]]) -> Vec<Vec<usize>> {
        let points = self.free.len() + self.splitters.len() + self.targets.len();
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

    /// The topped free cells, with their ways in and out; an error for two
    /// toppers on one cell or a topper working on an entity.
    fn waypoints(
        &self,
        moves: &[[Landing; 4]],
        back: &[Vec<usize>],
    ) -> Result<Vec<Waypoint>, String> {
        let (level, shape) = (self.level, self.level.shape);
        let mut worked = vec![false; self.free.len()];
        let mut waypoints = Vec::new();
        for c in shape.cells() {
            let Tile::Topper { kind, dir } = level.tile(c) else {
                continue;
            };
            let Some(w) = shape.step(c, dir) else {
                continue;
            };
            match level.tile(w) {
                Tile::Empty => {
                    let i = self.slot[w.index()];
                    if std::mem::replace(&mut worked[i], true) {
                        return Err("two toppers working on one cell".into());
                    }
                    let mut succ: Vec<Landing> = moves[i]
                        .iter()
                        .copied()
                        .filter(|&l| l != Landing::Invalid)
                        .collect();
                    succ.dedup();
                    waypoints.push(Waypoint {
                        cell: i,
                        kind,
                        succ,
                        pred: back[i].clone(),
                    });
                }
                // Cells that never hold a donut.
                Tile::Block
                | Tile::Source(_)
                | Tile::AnySource(_)
                | Tile::Topper { .. }
                | Tile::Bumper { .. } => {}
                _ => return Err("a topper working on an entity".into()),
            }
        }
        Ok(waypoints)
    }
}

//! From a built board to a level and its hidden layout: run the simulator
//! on the hidden layout, drop the belts no donut used, let each target accept
//! what it actually received, write `:targets` from the run's deliveries,
//! keep some belts as preset belts, wall off some unused cells, and check
//! the result with the judge.

use super::board::Board;
use super::rng::Rng;
use super::{Mechanic, Spec};
use crate::grid::{Kind, Shape};
use crate::judge::judge;
use crate::level::{Accepts, Flags, Level, Tile};
use std::collections::BTreeSet;

/// A level and a layout that solves it.
#[derive(Clone, Debug)]
pub struct Pair {
    pub level: Level,
    pub layout: Level,
}

/// Turns the board into a level and its hidden layout, or `None` when the
/// hidden layout does not solve it (the attempt is dropped).
pub fn finish(board: &Board, spec: &Spec, rng: &mut Rng) -> Option<Pair> {
    let shape: Shape = board.shape;
    let mut layout = Level {
        shape,
        tiles: board.tiles.clone(),
        flags: Flags::default(),
    };
    let first = judge(&layout);
    if !first.solved() {
        return None;
    }
    let visited = &first.outcome.visited;
    for (t, &v) in layout.tiles.iter_mut().zip(visited) {
        if matches!(t, Tile::Belt(_)) && !v {
            *t = Tile::Empty;
        }
    }
    let kinds = delivered_kinds(&layout, &first.outcome.deliveries);
    let loose = spec.has(Mechanic::TargetsFlag);
    for c in shape.cells() {
        if let Tile::Target { dir, .. } = layout.tile(c) {
            let got = &kinds[c.index()];
            let accepts = match got.len() {
                1 if !(loose && rng.chance(1, 2)) => Accepts::Only(*got.iter().next()?),
                _ => Accepts::Any,
            };
            layout.tiles[c.index()] = Tile::Target { dir, accepts };
        }
    }
    let any_open = layout.tiles.iter().any(|t| {
        matches!(
            t,
            Tile::Target {
                accepts: Accepts::Any,
                ..
            }
        )
    });
    if loose || (any_open && rng.chance(1, 2)) {
        let pairs: BTreeSet<_> = first
            .outcome
            .deliveries
            .iter()
            .map(|d| (d.origin, d.kind))
            .collect();
        let mut wanted: Vec<Kind> = pairs.into_iter().map(|(_, k)| k).collect();
        wanted.sort();
        layout.flags.targets = Some(wanted);
    }
    let level = strip(&layout, spec, rng);
    let pair = Pair { level, layout };
    checked(pair)
}

/// The kinds each target received, by cell.
fn delivered_kinds(layout: &Level, deliveries: &[crate::sim::Delivery]) -> Vec<BTreeSet<Kind>> {
    let mut kinds = vec![BTreeSet::new(); layout.shape.len()];
    for d in deliveries {
        kinds[d.target.index()].insert(d.kind);
    }
    kinds
}

/// The level: the layout without its belts, but for a few kept as preset
/// belts, and with walls on some cells no donut visits.
fn strip(layout: &Level, spec: &Spec, rng: &mut Rng) -> Level {
    let mut level = layout.clone();
    let belts: Vec<usize> = (0..level.tiles.len())
        .filter(|&i| matches!(level.tiles[i], Tile::Belt(_)))
        .collect();
    let keep = match spec.has(Mechanic::Preset) && !belts.is_empty() {
        true => rng.range(1, (belts.len() / 5).max(1)),
        false => 0,
    };
    let mut kept = belts.clone();
    rng.shuffle(&mut kept);
    kept.truncate(keep);
    for &i in &belts {
        if !kept.contains(&i) {
            level.tiles[i] = Tile::Empty;
        }
    }
    if spec.has(Mechanic::Walls) {
        for i in 0..level.tiles.len() {
            if layout.tiles[i] == Tile::Empty && rng.chance(1, 7) {
                level.tiles[i] = Tile::Block;
            }
        }
    }
    level
}

/// The pair, when the layout is a layout of the level that solves it and the
/// level is not solved without belts; `None` otherwise.
fn checked(mut pair: Pair) -> Option<Pair> {
    for (t, l) in pair.layout.tiles.iter_mut().zip(&pair.level.tiles) {
        if *l == Tile::Block {
            *t = Tile::Block;
        }
    }
    pair.layout.check_layout_of(&pair.level).ok()?;
    if !judge(&pair.layout).solved() || judge(&pair.level).solved() {
        return None;
    }
    Some(pair)
}

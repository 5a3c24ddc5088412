//! The level check: plain arguments that prove a level impossible before
//! any SAT call, each a sentence a person can verify on the board. Every
//! argument is sound under the exact rules (its proof is in its doc
//! comment and in `docs/unsolvable.md`); `tests/brute_force.rs` checks on
//! tiny random levels that none fires on a solvable one.

use crate::grid::{CellId, Kind};
use crate::level::{Accepts, Level, Tile};
use crate::requirement::{count_of, kind_words, requirements, Requirement};

/// One argument that fired: its name and its sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argument {
    /// A short stable name: `blocked-source`, `unreachable-target`,
    /// `missing-topper`, `too-few-sources`, `unlisted-kind`, `lockstep`.
    pub name: &'static str,
    pub sentence: String,
    /// The requirements it shows cannot hold together, when it says that
    /// (`None`: it shows every run fails, as a blocked source does). The
    /// explanation starts its core from them.
    pub impossible: Option<Vec<Requirement>>,
}

/// Every argument that proves `level` impossible (empty: none applies,
/// which proves nothing).
pub fn level_check(level: &Level) -> Vec<Argument> {
    let mut found = Vec::new();
    found.extend(blocked_sources(level));
    found.extend(unreachable_targets(level));
    found.extend(missing_toppers(level));
    found.extend(too_few_sources(level));
    found.extend(unlisted_kinds(level));
    found.extend(lockstep(level));
    found
}

fn at(level: &Level, c: CellId) -> String {
    level.pos(c).to_string()
}

/// A source whose first move is off the grid or into a fixed tile that
/// cannot be entered that way. At tick 1 the board holds no donut, so the
/// scan reaches every source; this one's move fails the run (rules §4.2).
fn blocked_sources(level: &Level) -> Vec<Argument> {
    let mut out = Vec::new();
    for s in level.sources() {
        let (Tile::Source(d) | Tile::AnySource(d)) = level.tile(s) else {
            continue;
        };
        let into = match level.shape.step(s, d) {
            None => "off the grid".to_string(),
            Some(c) if !level.tile(c).can_enter(d) => {
                format!(
                    "into {} at {}, which cannot be entered moving {d}",
                    level.tile(c).describe(),
                    at(level, c)
                )
            }
            Some(_) => continue,
        };
        out.push(Argument {
            name: "blocked-source",
            sentence: format!(
                "{} at {} emits {into}: every run fails at tick 1",
                level.tile(s).describe(),
                at(level, s)
            ),
            impossible: None,
        });
    }
    out
}

/// A target entered moving `d` can only receive from the cell behind it
/// (`t - d`): every move into a cell is a step from a neighbour in the
/// move's direction (teleporters land only on their outs). When that cell
/// is off the grid, or a tile no donut ever stands on and that emits
/// nothing that way (a block, a topper, a bumper, a source facing
/// elsewhere), the target never receives (rules §5.3).
fn unreachable_targets(level: &Level) -> Vec<Argument> {
    let mut out = Vec::new();
    for t in level.targets() {
        let Tile::Target { dir, .. } = level.tile(t) else {
            continue;
        };
        let (from, behind) = match level.shape.step(t, dir.opposite()) {
            None => ("beyond the edge".to_string(), "off the grid".to_string()),
            Some(b) => match level.tile(b) {
                Tile::Block | Tile::Topper { .. } | Tile::Bumper { .. } => {
                    (at(level, b), level.tile(b).describe())
                }
                Tile::Source(d) | Tile::AnySource(d) if d != dir => {
                    (at(level, b), level.tile(b).describe())
                }
                _ => continue,
            },
        };
        out.push(Argument {
            name: "unreachable-target",
            sentence: format!(
                "the target at {} is entered moving {dir}, so only from the cell {from}, which is {behind}: no donut ever reaches it",
                at(level, t)
            ),
            impossible: Some(vec![Requirement::TargetReceives(t)]),
        });
    }
    out
}

/// The first kind up to `k` that no topper of the level makes, when there
/// is no any-source: plain sources emit plain donuts, and a topper of kind
/// `j` only turns `j - 1` into `j` (rules §1), so a donut of kind `k`
/// passed toppers of every kind `1..=k`.
fn missing_step(level: &Level, k: Kind) -> Option<Kind> {
    let any = level
        .sources()
        .any(|s| matches!(level.tile(s), Tile::AnySource(_)));
    if any {
        return None;
    }
    let made = |j: Kind| {
        level
            .shape
            .cells()
            .any(|c| matches!(level.tile(c), Tile::Topper { kind, .. } if kind == j))
    };
    Kind::ALL[1..=k.index()].iter().copied().find(|&j| !made(j))
}

/// A target that accepts only kind `k`, or `:targets` naming `k`, when no
/// donut of kind `k` can ever exist ([`missing_step`]).
fn missing_toppers(level: &Level) -> Vec<Argument> {
    let mut out = Vec::new();
    let no_topper = |j: Kind| format!("no topper makes {} and there is no any-source", j.name());
    for t in level.targets() {
        if let Tile::Target {
            accepts: Accepts::Only(k),
            ..
        } = level.tile(t)
        {
            if let Some(j) = missing_step(level, k) {
                out.push(Argument {
                    name: "missing-topper",
                    sentence: format!(
                        "{}, so no donut is ever {}, but the target at {} accepts only {} donuts",
                        no_topper(j),
                        k.name(),
                        at(level, t),
                        k.name()
                    ),
                    impossible: Some(vec![Requirement::TargetReceives(t)]),
                });
            }
        }
    }
    out
}

/// The sources that can deliver kind `k`: every any-source, and the plain
/// sources when toppers of every kind up to `k` exist.
fn sources_making(level: &Level, k: Kind) -> usize {
    let any = level
        .sources()
        .filter(|&s| matches!(level.tile(s), Tile::AnySource(_)))
        .count();
    let plain = level.sources().count() - any;
    match all_steps(level, k) {
        true => any + plain,
        false => any,
    }
}

/// Whether toppers of every kind `1..=k` exist (plain sources can make `k`).
fn all_steps(level: &Level, k: Kind) -> bool {
    Kind::ALL[1..=k.index()].iter().all(|&j| {
        level
            .shape
            .cells()
            .any(|c| matches!(level.tile(c), Tile::Topper { kind, .. } if kind == j))
    })
}

/// `:targets` names kind `k` `n` times, so the distinct (source, kind)
/// pairs of the deliveries must hold `n` pairs of kind `k`, from `n`
/// distinct sources that can make `k` (rules §5.4).
fn too_few_sources(level: &Level) -> Vec<Argument> {
    let Some(wanted) = &level.flags.targets else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in Kind::ALL {
        let n = wanted.iter().filter(|&&w| w == k).count();
        let can = sources_making(level, k);
        if n > can {
            out.push(Argument {
                name: "too-few-sources",
                sentence: format!(
                    ":targets asks for {} of {}, but {} can make {}, and :targets counts each (source, kind) pair once (rules §5.4)",
                    count_of(n, "delivery", "deliveries"),
                    kind_words(k),
                    match can { 0 => "no source".to_string(), 1 => "only 1 source".to_string(), c => format!("only {c} sources") },
                    k.name()
                ),
                impossible: Some(vec![Requirement::TargetsKind { kind: k, count: n }]),
            });
        }
    }
    out
}

/// With `:targets`, a target that accepts only kind `k` must receive a
/// donut of kind `k` from some source, which puts a pair of kind `k` among
/// the deliveries: `:targets` must name `k` (rules §5.3, §5.4).
fn unlisted_kinds(level: &Level) -> Vec<Argument> {
    let Some(wanted) = &level.flags.targets else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in level.targets() {
        if let Tile::Target {
            accepts: Accepts::Only(k),
            ..
        } = level.tile(t)
        {
            if !wanted.contains(&k) {
                out.push(Argument {
                    name: "unlisted-kind",
                    sentence: format!(
                        "the target at {} accepts only {} donuts, so it must receive one, but :targets names no {}",
                        at(level, t),
                        k.name(),
                        kind_words(k)
                    ),
                    impossible: Some(vec![
                        Requirement::TargetReceives(t),
                        Requirement::TargetsOthers,
                    ]),
                });
            }
        }
    }
    out
}

/// Whether two toppers work on one cell (a donut waiting there could be
/// topped twice, once per tick).
fn two_toppers_on_a_cell(level: &Level) -> bool {
    let fronts: Vec<CellId> = level
        .shape
        .cells()
        .filter_map(|c| match level.tile(c) {
            Tile::Topper { dir, .. } => level.shape.step(c, dir),
            _ => None,
        })
        .collect();
    fronts
        .iter()
        .enumerate()
        .any(|(i, c)| fronts[..i].contains(c))
}

/// Plain sources only, and nothing that sends two donuts of one source
/// different ways: no any-source, splitter or teleporter, and no cell two
/// toppers work on. Then every donut's way is fixed by the tiles and its
/// kind, and its kind by the cells it stood on (each topper acts once, on
/// arrival), so all the donuts of one source walk the same path with the
/// same toppings: merges and crossovers only delay or drop donuts, and a
/// delivered donut stays on its target. So each source makes at most one
/// (target, source, kind) delivery: at most as many targets are fed, and
/// as many (source, kind) pairs made, as there are sources.
fn lockstep(level: &Level) -> Option<Argument> {
    let sources: Vec<CellId> = level.sources().collect();
    let plain = sources
        .iter()
        .all(|&s| matches!(level.tile(s), Tile::Source(_)));
    if sources.is_empty() || !plain || two_toppers_on_a_cell(level) {
        return None;
    }
    let branching = level.shape.cells().any(|c| {
        matches!(
            level.tile(c),
            Tile::Splitter(_) | Tile::TeleIn(_) | Tile::TeleOut(..)
        )
    });
    if branching {
        return None;
    }
    let n = sources.len();
    let targets = level.targets().count();
    let wanted = level.flags.targets.as_ref().map_or(0, |w| w.len());
    let all = requirements(level, None);
    let of = |pick: fn(&Requirement) -> bool| Some(all.iter().copied().filter(pick).collect());
    let fed = of(|r| matches!(r, Requirement::TargetReceives(_)));
    let pairs = of(|r| matches!(r, Requirement::TargetsKind { .. }));
    let (why, impossible) = match (targets, wanted, n) {
        (t, _, 1) if t >= 2 => (format!("so at most one of the {t} targets can be fed"), fed),
        (_, w, 1) if w >= 2 => (
            format!("so the deliveries make one (source, kind) pair, but :targets asks for {w}"),
            pairs,
        ),
        (t, _, n) if t > n => (format!("so at most {n} of the {t} targets can be fed"), fed),
        (_, w, n) if w > n => (
            format!(
                "so the deliveries make at most {n} (source, kind) pairs, but :targets asks for {w}"
            ),
            pairs,
        ),
        _ => return None,
    };
    let who = match n {
        1 => format!(
            "one plain source (at {}) and no any-source, splitter, teleporter or cell that two toppers work on: every donut follows the same belts and gets the same toppings",
            at(level, sources[0])
        ),
        n => format!(
            "{n} plain sources and no any-source, splitter, teleporter or cell that two toppers work on: the donuts of each source follow the same belts and get the same toppings"
        ),
    };
    Some(Argument {
        name: "lockstep",
        sentence: format!("{who}, {why}"),
        impossible,
    })
}

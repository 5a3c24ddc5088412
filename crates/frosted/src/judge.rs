//! Judging a layout (rules, section 5): run the simulator and check the four
//! conditions, with a precise, human reason when one does not hold.

use crate::grid::{CellId, Dir, Kind, Pos};
use crate::level::{Level, Tile};
use crate::sim::{simulate, Donut, End, Failure, Outcome};
use itertools::Itertools;
use std::collections::BTreeSet;

/// Why a layout is not a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    Failed(Failure),
    /// The run hit the safety tick limit (never seen on real levels).
    TickLimit(u32),
    /// Every source or any-source that is the origin of no delivery (never empty).
    SourceNeverDelivered(Vec<CellId>),
    /// Every target that received nothing (never empty).
    TargetNeverReceived(Vec<CellId>),
    /// `:targets` wanted one multiset of kinds, the distinct (origin, kind) pairs
    /// delivered gave another.
    TargetsMismatch {
        wanted: Vec<Kind>,
        got: Vec<Kind>,
    },
}

/// The verdict on a layout, with the run it came from.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub outcome: Outcome,
    /// `None` when the layout solves the level.
    pub reason: Option<Reason>,
}

impl Verdict {
    pub fn solved(&self) -> bool {
        self.reason.is_none()
    }

    pub fn failed(&self) -> bool {
        matches!(self.outcome.end, End::Failed { .. })
    }
}

/// Judges `layout` (a level with belts added), using `layout`'s own flags.
pub fn judge(layout: &Level) -> Verdict {
    let outcome = simulate(layout);
    let reason = reason_for(layout, &outcome);
    Verdict { outcome, reason }
}

/// The first condition of section 5 that `outcome` breaks, if any.
pub fn reason_for(layout: &Level, outcome: &Outcome) -> Option<Reason> {
    match outcome.end {
        End::Failed { failure, .. } => return Some(Reason::Failed(failure)),
        End::TickLimit { tick } => return Some(Reason::TickLimit(tick)),
        End::Steady { .. } | End::Stranded { .. } => {}
    }
    let d = &outcome.deliveries;
    let silent = unmet(layout.sources(), |s| d.iter().any(|x| x.origin == s));
    if !silent.is_empty() {
        return Some(Reason::SourceNeverDelivered(silent));
    }
    let empty = unmet(layout.targets(), |t| d.iter().any(|x| x.target == t));
    if !empty.is_empty() {
        return Some(Reason::TargetNeverReceived(empty));
    }
    if let Some(wanted) = &layout.flags.targets {
        let pairs: BTreeSet<(CellId, Kind)> = d.iter().map(|x| (x.origin, x.kind)).collect();
        let got: Vec<Kind> = pairs.into_iter().map(|p| p.1).sorted().collect();
        let wanted: Vec<Kind> = wanted.iter().copied().sorted().collect();
        if got != wanted {
            return Some(Reason::TargetsMismatch { wanted, got });
        }
    }
    None
}

/// The cells of `cells` for which `met` does not hold, in scan order.
fn unmet(cells: impl Iterator<Item = CellId>, met: impl Fn(CellId) -> bool) -> Vec<CellId> {
    cells.filter(|&c| !met(c)).collect()
}

fn at(level: &Level, c: CellId) -> String {
    let Pos { x, y } = level.pos(c);
    format!("({x}, {y})")
}

fn kinds(ks: &[Kind]) -> String {
    if ks.is_empty() {
        return "nothing".into();
    }
    ks.iter().map(|k| k.target_code()).join(" ")
}

/// "a source facing left at (9, 1)", or for several cells "a source facing
/// left at (9, 1) and an any-source facing up at (1, 6)".
fn tiles(level: &Level, cells: &[CellId]) -> String {
    let one = |c: &CellId| format!("{} at {}", level.tile(*c).describe(), at(level, *c));
    match cells {
        [init @ .., last] if !init.is_empty() => {
            format!("{} and {}", init.iter().map(one).join(", "), one(last))
        }
        _ => cells.iter().map(one).join(""),
    }
}

/// Who pushed the donut standing on `from` towards `dir`: "a belt pointing right
/// at (1, 2) pushed a plain donut (from the source at (0, 2))", or, when a
/// bumper did it (bumpers act first, rules section 4), "a bumper ... at (1, 3)
/// pushed the plain donut on a belt ... at (1, 2) (from the source at (0, 2))".
fn pushed(level: &Level, from: CellId, dir: Dir, donut: &Donut) -> String {
    let bumper = level.shape.step(from, dir.opposite()).filter(|&b| {
        level.tile(b)
            == Tile::Bumper {
                dir,
                kind: donut.kind,
            }
    });
    match bumper {
        Some(b) => format!(
            "{} at {} pushed the {} donut on {} at {} (from the source at {})",
            level.tile(b).describe(),
            at(level, b),
            donut.kind,
            level.tile(from).describe(),
            at(level, from),
            at(level, donut.origin),
        ),
        None => format!(
            "{} at {} pushed a {} donut (from the source at {})",
            level.tile(from).describe(),
            at(level, from),
            donut.kind,
            at(level, donut.origin),
        ),
    }
}

/// A sentence explaining `reason` on `level`.
pub fn explain(level: &Level, reason: &Reason, outcome: &Outcome) -> String {
    let tick = outcome.end.tick();
    match reason {
        Reason::Failed(f) => match *f {
            Failure::OffGrid { from, dir, donut } => format!(
                "at tick {tick}, {} {dir}, off the grid",
                pushed(level, from, dir, &donut),
            ),
            Failure::CannotEnter {
                from,
                to,
                dir,
                donut,
            } => format!(
                "at tick {tick}, {} {dir} into {} at {}, which cannot be entered that way",
                pushed(level, from, dir, &donut),
                level.tile(to).describe(),
                at(level, to),
            ),
            Failure::WrongDelivery { target, donut } => format!(
                "at tick {tick}, a {} donut (code {}, from the source at {}) reached {} at {}",
                donut.kind,
                donut.kind.target_code(),
                at(level, donut.origin),
                level.tile(target).describe(),
                at(level, target),
            ),
            Failure::Starved { cell, waiting } => format!(
                "at tick {tick}, the donut at {} had lost its merge {waiting} ticks in a row (more than width x height = {}): a starved merge",
                at(level, cell),
                level.shape.len(),
            ),
        },
        Reason::TickLimit(t) => format!("the simulation did not settle within {t} ticks"),
        Reason::SourceNeverDelivered(sources) => format!(
            "{} never delivered a donut to a target (the run ended at tick {tick})",
            tiles(level, sources)
        ),
        Reason::TargetNeverReceived(targets) => format!(
            "{} never received a donut (the run ended at tick {tick})",
            tiles(level, targets)
        ),
        Reason::TargetsMismatch { wanted, got } => format!(
            ":targets wants the kinds {}, but the distinct (source, kind) deliveries have the kinds {}",
            kinds(wanted),
            kinds(got)
        ),
    }
}

/// A sentence saying how the run ended.
pub fn describe_end(level: &Level, end: &End) -> String {
    match *end {
        End::Steady { tick, period } => {
            format!("steady state at tick {tick} (the state repeats every {period} ticks)")
        }
        End::Stranded { tick, cell, donut } => format!(
            "a {} donut stranded at {} at tick {tick}: the cell has no belt",
            donut.kind,
            at(level, cell)
        ),
        End::Failed { tick, failure } => {
            format!("failed at tick {tick} at {}", at(level, failure.cell()))
        }
        End::TickLimit { tick } => format!("stopped at the tick limit ({tick})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn reason_text(text: &str) -> String {
        let l = parse(text).expect("test level parses");
        let v = judge(&l);
        explain(&l, v.reason.as_ref().expect("not a solution"), &v.outcome)
    }

    #[test]
    fn a_failed_push_names_the_bumper_that_made_it() {
        // The bumper below (1, 0) sends plain donuts up, off the grid.
        assert_eq!(
            reason_text("+>  >   ->\n#   b^0 #\n"),
            "at tick 2, a bumper facing up for plain donuts at (1, 1) pushed the plain donut \
             on a belt pointing right at (1, 0) (from the source at (0, 0)) up, off the grid"
        );
        // A bumper for another kind does not push: the belt does.
        assert_eq!(
            reason_text("+>  ^   ->\n#   b^1 #\n"),
            "at tick 2, a belt pointing up at (1, 0) pushed a plain donut \
             (from the source at (0, 0)) up, off the grid"
        );
    }
}

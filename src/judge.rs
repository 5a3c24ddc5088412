//! Judging a layout (rules, section 5): run the simulator and check the four
//! conditions, with a precise, human reason when one does not hold.

use crate::grid::{CellId, Kind, Pos};
use crate::level::Level;
use crate::sim::{simulate, End, Failure, Outcome};
use itertools::Itertools;
use std::collections::BTreeSet;

/// Why a layout is not a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    Failed(Failure),
    /// The run hit the safety tick limit (never seen on real levels).
    TickLimit(u32),
    SourceNeverDelivered(CellId),
    TargetNeverReceived(CellId),
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
    if let Some(s) = layout.sources().find(|s| !d.iter().any(|x| x.origin == *s)) {
        return Some(Reason::SourceNeverDelivered(s));
    }
    if let Some(t) = layout.targets().find(|t| !d.iter().any(|x| x.target == *t)) {
        return Some(Reason::TargetNeverReceived(t));
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

/// A sentence explaining `reason` on `level`.
pub fn explain(level: &Level, reason: &Reason, outcome: &Outcome) -> String {
    let tick = outcome.end.tick();
    match reason {
        Reason::Failed(f) => match *f {
            Failure::OffGrid { from, dir, donut } => format!(
                "at tick {tick}, {} at {} pushed a {} donut (from the source at {}) {dir}, off the grid",
                level.tile(from).describe(),
                at(level, from),
                donut.kind,
                at(level, donut.origin),
            ),
            Failure::CannotEnter {
                from,
                to,
                dir,
                donut,
            } => format!(
                "at tick {tick}, {} at {} pushed a {} donut (from the source at {}) {dir} into {} at {}, which cannot be entered that way",
                level.tile(from).describe(),
                at(level, from),
                donut.kind,
                at(level, donut.origin),
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
        Reason::SourceNeverDelivered(s) => format!(
            "{} at {} never delivered a donut to a target (the run ended at tick {tick})",
            level.tile(*s).describe(),
            at(level, *s)
        ),
        Reason::TargetNeverReceived(t) => format!(
            "{} at {} never received a donut (the run ended at tick {tick})",
            level.tile(*t).describe(),
            at(level, *t)
        ),
        Reason::TargetsMismatch { wanted, got } => format!(
            ":targets wanted {} but the distinct (source, kind) deliveries were {}",
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

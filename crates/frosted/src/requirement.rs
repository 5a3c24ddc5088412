//! The requirements of the rules' section 5, one by one, so that each can
//! be switched on or off: every source (and any-source) is the origin of a
//! delivery, every target receives, each kind `:targets` names comes from
//! exactly as many distinct sources as it asks, no other kind is delivered,
//! and (with `--max-belts`) the belt bound. A layout whose run does not fail
//! solves the level exactly when it meets all of them but the belt bound
//! (condition 1, "the run does not fail", is not a switch: it always holds).

use crate::grid::{CellId, Kind};
use crate::level::{Accepts, Level, Tile};
use crate::sim::{End, Outcome};
use itertools::Itertools;
use std::collections::BTreeSet;

/// One requirement of the rules' section 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Requirement {
    /// The source or any-source at this cell is the origin of a delivery (§5.2).
    SourceDelivers(CellId),
    /// The target at this cell receives a delivery (§5.3).
    TargetReceives(CellId),
    /// Exactly `count` distinct sources deliver `kind` (§5.4, the part of
    /// the `:targets` multiset for a kind it names).
    TargetsKind { kind: Kind, count: usize },
    /// No kind that `:targets` does not name is delivered (§5.4, the rest of
    /// the multiset).
    TargetsOthers,
    /// At most this many belts are placed (`--max-belts`).
    MaxBelts(usize),
}

/// The requirements of `level`, in a fixed order: sources, targets (scan
/// order), the `:targets` kinds, the other kinds, then the belt bound.
pub fn requirements(level: &Level, max_belts: Option<usize>) -> Vec<Requirement> {
    let mut reqs: Vec<Requirement> = level.sources().map(Requirement::SourceDelivers).collect();
    reqs.extend(level.targets().map(Requirement::TargetReceives));
    if let Some(wanted) = &level.flags.targets {
        for kind in Kind::ALL {
            let count = wanted.iter().filter(|&&w| w == kind).count();
            if count > 0 {
                reqs.push(Requirement::TargetsKind { kind, count });
            }
        }
        if Kind::ALL.iter().any(|k| !wanted.contains(k)) {
            reqs.push(Requirement::TargetsOthers);
        }
    }
    reqs.extend(max_belts.map(Requirement::MaxBelts));
    reqs
}

/// What a run of a layout achieved, for judging requirements.
#[derive(Clone, Debug)]
pub struct Achieved {
    /// The run did not fail (nor hit the tick limit).
    pub ran: bool,
    /// The distinct (origin, kind) pairs delivered, and the targets reached.
    pairs: BTreeSet<(CellId, Kind)>,
    targets: BTreeSet<CellId>,
    belts: usize,
    named: Option<Vec<Kind>>,
    /// The distinct (target, origin, kind) deliveries, in the order first made.
    pub deliveries: Vec<(CellId, CellId, Kind)>,
}

impl Achieved {
    /// What `outcome`, the run of `layout` (a layout of `level`), achieved.
    pub fn of(level: &Level, layout: &Level, outcome: &Outcome) -> Achieved {
        let d = &outcome.deliveries;
        Achieved {
            ran: matches!(outcome.end, End::Steady { .. } | End::Stranded { .. }),
            pairs: d.iter().map(|x| (x.origin, x.kind)).collect(),
            targets: d.iter().map(|x| x.target).collect(),
            belts: layout.added_belts(level),
            named: level.flags.targets.clone(),
            deliveries: d.iter().map(|x| (x.target, x.origin, x.kind)).collect(),
        }
    }

    /// Whether the run met `r` (a failed run meets nothing).
    pub fn meets(&self, r: Requirement) -> bool {
        self.ran
            && match r {
                Requirement::SourceDelivers(s) => self.pairs.iter().any(|p| p.0 == s),
                Requirement::TargetReceives(t) => self.targets.contains(&t),
                Requirement::TargetsKind { kind, count } => self.sources_delivering(kind) == count,
                Requirement::TargetsOthers => {
                    let named = self.named.as_deref().unwrap_or(&[]);
                    self.pairs.iter().all(|p| named.contains(&p.1))
                }
                Requirement::MaxBelts(k) => self.belts <= k,
            }
    }

    /// How far the run is from meeting `r`: 0 when it meets it; for a kind
    /// `:targets` names, how many sources too few or too many deliver it;
    /// otherwise 1. A failed run meets nothing: it is as far as a run that
    /// delivers nothing.
    pub fn shortfall(&self, r: Requirement) -> usize {
        match r {
            Requirement::TargetsKind { kind, count } if self.ran => {
                self.sources_delivering(kind).abs_diff(count)
            }
            Requirement::TargetsKind { count, .. } => count,
            r => usize::from(!self.meets(r)),
        }
    }

    /// How many distinct sources delivered `kind`.
    fn sources_delivering(&self, kind: Kind) -> usize {
        self.pairs.iter().filter(|p| p.1 == kind).count()
    }

    /// The belts the layout placed.
    pub fn belts(&self) -> usize {
        self.belts
    }

    /// The kinds of the distinct (origin, kind) pairs, sorted (what
    /// `:targets` is compared with).
    pub fn pair_kinds(&self) -> Vec<Kind> {
        self.pairs.iter().map(|p| p.1).sorted().collect()
    }
}

/// `(x, y)` of a cell, as the rules and every other message write it
/// (0-based, `(0, 0)` the top-left cell).
fn at(level: &Level, c: CellId) -> String {
    level.pos(c).to_string()
}

/// "1 source", "2 sources".
pub fn count_of(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// A kind with its `:targets` code: "cherries (code 15)".
pub fn kind_words(k: Kind) -> String {
    format!("{} (code {})", k.name(), k.target_code())
}

impl Requirement {
    /// The requirement as a clause of a sentence: "the source facing right
    /// at (4, 0) delivers", ":targets asks for 4 deliveries of cherries
    /// (code 15)".
    pub fn words(self, level: &Level) -> String {
        match self {
            Requirement::SourceDelivers(s) => {
                let what = match level.tile(s) {
                    Tile::AnySource(_) => "any-source",
                    _ => "source",
                };
                format!("the {what} at {} delivers", at(level, s))
            }
            Requirement::TargetReceives(t) => {
                let what = match level.tile(t) {
                    Tile::Target {
                        accepts: Accepts::Only(k),
                        ..
                    } => format!("target for {k} donuts"),
                    _ => "target for any donut".into(),
                };
                format!("the {what} at {} receives", at(level, t))
            }
            Requirement::TargetsKind { kind, count } => format!(
                ":targets asks for {} of {} from distinct sources",
                count_of(count, "delivery", "deliveries"),
                kind_words(kind)
            ),
            Requirement::TargetsOthers => {
                ":targets asks for no delivery of a kind it does not name".into()
            }
            Requirement::MaxBelts(k) => {
                format!("at most {} are placed", count_of(k, "belt", "belts"))
            }
        }
    }
}

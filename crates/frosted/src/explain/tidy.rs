//! Fewer belts for a layout shown to the user: a near-solution's layout may
//! come from a walk ([`super::walk`]) or a SAT model, and hold belts that no
//! donut needs. Placed belts are taken away one at a time, each when the
//! run without it still does not fail and meets every requirement the
//! layout met, until none can be. Every layout tried is run by the
//! simulator, and the result is judged like any layout.

use super::oracle::Witness;
use crate::level::{Level, Tile};
use crate::requirement::{Achieved, Requirement};
use crate::sim::simulate;

/// `w` with belts it placed on `.` cells of `level` taken away, one at a
/// time in scan order, each when the run without it does not fail and meets
/// every requirement of `all` that `w` meets; passes repeat until one takes
/// nothing away, so no single belt of the result can be taken away so.
pub fn tidied(level: &Level, w: &Witness, all: &[Requirement]) -> Witness {
    let keep: Vec<Requirement> = all
        .iter()
        .copied()
        .filter(|&r| w.achieved.meets(r))
        .collect();
    let mut best = w.clone();
    loop {
        let belts = best.achieved.belts();
        best = one_pass(level, best, &keep);
        if best.achieved.belts() == belts {
            return best;
        }
    }
}

/// One pass over the belts of `w` in scan order, taking each away when the
/// run without it does not fail and meets all of `keep`.
fn one_pass(level: &Level, w: Witness, keep: &[Requirement]) -> Witness {
    let mut best = w;
    for c in level.free_cells() {
        if best.layout.tile(c) == Tile::Empty {
            continue;
        }
        let layout = best.layout.with_choice(c, None);
        let achieved = Achieved::of(level, &layout, &simulate(&layout));
        if achieved.ran && keep.iter().all(|&r| achieved.meets(r)) {
            best = Witness { layout, achieved };
        }
    }
    best
}

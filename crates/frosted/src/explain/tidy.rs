//! Fewer belts for a layout shown to the user: a near-solution's layout may
//! come from a walk ([`super::walk`]) or a SAT model, and hold belts that no
//! donut needs. Each placed belt is taken away in turn, and the change kept
//! when the run still does not fail and meets every requirement the layout
//! met. What is left is judged again by the simulator, like any layout.

use super::oracle::Witness;
use crate::level::{Level, Tile};
use crate::requirement::{Achieved, Requirement};
use crate::sim::simulate;

/// `w` with each belt it placed on a `.` cell of `level` taken away (in
/// scan order) when the run without it does not fail and meets every
/// requirement of `all` that `w` meets.
pub fn tidied(level: &Level, w: &Witness, all: &[Requirement]) -> Witness {
    let keep: Vec<Requirement> = all
        .iter()
        .copied()
        .filter(|&r| w.achieved.meets(r))
        .collect();
    let mut best = w.clone();
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

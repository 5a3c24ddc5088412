//! Focus: the calls before the first verified candidate look where the
//! puzzle expects one (its [`crate::Puzzle::focus`] sets, narrowest first),
//! each for a short slice, before the whole instance. A focused call only
//! adds assumptions, so its model is a model of the formula; its UNSAT
//! answer, or a slice run out, proves nothing: the focus widens to the next
//! set, and after the last the calls assume none.

use rustsat::types::Lit;
use std::time::{Duration, Instant};

/// The time a focused call gets before the focus widens.
pub const FOCUS_SLICE: Duration = Duration::from_millis(50);

/// The focus sets still to try and the slice each gets (none: focus off).
#[derive(Default)]
pub(super) struct Focus {
    sets: Vec<Vec<Lit>>,
    at: usize,
    slice: Duration,
}

impl Focus {
    /// The puzzle's sets, each tried for `slice`.
    pub(super) fn new(sets: Vec<Vec<Lit>>, slice: Duration) -> Focus {
        Focus { sets, at: 0, slice }
    }

    /// The literals the next call assumes, if it is a focused one.
    pub(super) fn current(&self) -> Option<&[Lit]> {
        self.sets.get(self.at).map(Vec::as_slice)
    }

    /// The end of a focused call's slice started `now`.
    pub(super) fn call_end(&self, now: Instant) -> Instant {
        now + self.slice
    }

    /// The focused call came back UNSAT or out of its slice: the next set.
    pub(super) fn widen(&mut self) {
        self.at += 1;
    }

    /// A candidate was verified: no more focus.
    pub(super) fn end(&mut self) {
        self.at = self.sets.len();
    }

    /// Which set is current (from 0), for the trace.
    pub(super) fn step(&self) -> usize {
        self.at
    }
}

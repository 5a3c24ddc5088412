//! Restarts: another first layout when the proving call is slow.
//!
//! The neighbourhood search descends from the first verified candidate to a
//! local optimum, which can lie far above the optimum (a candidate whose
//! cheaper neighbours all need a change larger than any window). The call
//! over the whole instance at one unit under it is then satisfiable, yet it
//! can run for minutes before it finds anything. So that call gets a time
//! slice; when the slice runs out, the call is put off (the solver keeps
//! what it learned) and a restart's call looks for a candidate elsewhere:
//! searching (with the strengthening), every goal, no cost bound, and a
//! random part of the best candidate's paid decisions changed. The
//! neighbourhood search then descends from what it finds, under a bound of
//! its own while it costs as much as the best or more; a candidate cheaper
//! than the best becomes the best as usual. Slices double after each
//! restart, and after [`Options::restarts`] of them the call runs unsliced.
//!
//! Nothing here proves anything: a restart's call adds assumptions that no
//! solution needs to meet, so its UNSAT answer is dropped (and the call is
//! retried with another draw a few times), and a candidate no cheaper than
//! the best never enters the report. The proof is still the UNSAT answer of
//! the call over the whole instance, or the lower bound.

use super::Options;
use crate::puzzle::Decision;
use crate::xorshift::XorShift;
use rustsat::types::Lit;
use std::time::{Duration, Instant};

/// The first slice of the proving call before a restart: half a second
/// (the calls that prove most levels end well within it).
pub const RESTART_SLICE: Duration = Duration::from_millis(500);

/// How many restarts a solve may make ([`Options::restarts`]).
pub const RESTARTS: usize = 6;

/// A restart's call changes about one in this many paid decisions of the
/// best candidate.
const CHANGED_ONE_IN: u64 = 8;

/// How many times in a row a restart's call may come back UNSAT (the
/// changes it asked for cannot hold together) and be drawn again.
const RETRIES: usize = 5;

/// The restarts' state in one solve.
pub(super) struct Restart {
    /// Restarts still allowed.
    left: usize,
    /// The time the next sliced call gets.
    slice: Duration,
    rng: XorShift,
    /// UNSAT answers of the current restart's call so far.
    retries: usize,
    /// When the current restart's calls (the first and its retries) must
    /// end: one slice for all of them.
    until: Option<Instant>,
    /// The next call is a restart's call.
    pub(super) calling: bool,
    /// While the neighbourhood search descends from a restart's candidate
    /// that costs no less than the best: that candidate's cost.
    pub(super) basin: Option<usize>,
}

impl Restart {
    pub(super) fn new(opts: &Options) -> Restart {
        Restart {
            left: if opts.first { 0 } else { opts.restarts },
            slice: opts.restart_slice,
            rng: XorShift(0x9e37_79b9_7f4a_7c15 ^ opts.seed.unwrap_or(0).wrapping_mul(2) | 1),
            retries: 0,
            until: None,
            calling: false,
            basin: None,
        }
    }

    /// When the next call must end at the latest: a restart's call (with
    /// its retries) within one slice from the put-off, a proving call with
    /// a best candidate one slice from now, while restarts are left. A zero
    /// slice gives a restart's call no limit (see [`Restart::at_once`]).
    pub(super) fn call_end(&self, proving_with_best: bool) -> Option<Instant> {
        match self.calling {
            true => self.until.filter(|_| !self.slice.is_zero()),
            false => (proving_with_best && self.left > 0).then(|| Instant::now() + self.slice),
        }
    }

    /// With a zero slice, a call that would be sliced is put off before it
    /// runs (for tests: small levels' calls end before any deadline is
    /// looked at).
    pub(super) fn at_once(&self, proving_with_best: bool) -> bool {
        !self.calling && proving_with_best && self.left > 0 && self.slice.is_zero()
    }

    /// Whether a call that ran out of its slice is put off for a restart.
    pub(super) fn may_put_off(&self) -> bool {
        self.left > 0
    }

    /// The proving call ran out of its slice: the next call is a restart's.
    pub(super) fn put_off(&mut self) {
        self.left -= 1;
        self.slice *= 2;
        self.retries = 0;
        self.until = Some(Instant::now() + self.slice);
        self.calling = true;
    }

    /// A restart's call was UNSAT: its changes are drawn again, a few
    /// times in a row.
    pub(super) fn retry(&mut self) {
        self.retries += 1;
        self.calling = self.retries <= RETRIES && self.until.is_none_or(|u| Instant::now() < u);
    }

    /// No more restarts, and no call sliced (an enumeration's calls must
    /// each run to their answer).
    pub(super) fn end(&mut self) {
        self.left = 0;
        self.calling = false;
        self.basin = None;
    }

    /// The assumptions that change about one in [`CHANGED_ONE_IN`] of the
    /// best candidate's paid decisions.
    pub(super) fn changes(&mut self, best: &[Decision]) -> Vec<Lit> {
        best.iter()
            .filter(|d| d.costs && self.rng.below(CHANGED_ONE_IN) == 0)
            .map(|d| !d.keep)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn restart() -> Restart {
        Restart::new(&Options {
            restarts: 2,
            ..Options::default()
        })
    }

    /// The proving call is sliced while restarts are left, with the slice
    /// doubled after each; then it runs to its answer.
    #[test]
    fn slices_double_until_no_restart_is_left() {
        let mut r = restart();
        assert_eq!(r.call_end(false), None, "only the proving call is sliced");
        let now = Instant::now();
        let end = r.call_end(true).expect("sliced");
        assert!(end >= now + RESTART_SLICE && end <= Instant::now() + RESTART_SLICE);
        r.put_off();
        let end = r.call_end(false).expect("the restart's call is sliced");
        assert!(end > Instant::now() + RESTART_SLICE, "the slice doubled");
        r.calling = false;
        r.put_off();
        r.calling = false;
        assert!(!r.may_put_off());
        assert_eq!(r.call_end(true), None);
    }

    /// A restart's call drawn UNSAT is drawn again a few times, then given up.
    #[test]
    fn an_unsat_restart_is_retried_a_few_times() {
        let mut r = restart();
        r.put_off();
        for _ in 0..RETRIES {
            r.retry();
            assert!(r.calling);
        }
        r.retry();
        assert!(!r.calling);
    }

    /// Only paid decisions are changed, each as its negated `keep`.
    #[test]
    fn changes_negate_paid_decisions_only() {
        let mut r = restart();
        let best: Vec<Decision> = (0..400)
            .map(|v| Decision {
                keep: Lit::positive(v),
                costs: v % 2 == 0,
            })
            .collect();
        let changes = r.changes(&best);
        assert!(!changes.is_empty() && changes.len() < 100);
        assert!(changes.iter().all(|l| l.is_neg() && l.var().idx() % 2 == 0));
    }
}

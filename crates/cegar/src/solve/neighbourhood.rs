//! The neighbourhood search after each verified candidate: one window of its
//! decisions is freed while the others keep their values, looking for a
//! cheaper candidate nearby before the calls over the whole instance. Its
//! answers prove nothing; it ends after a full round of windows without an
//! improvement.

use crate::puzzle::Decision;
use rustsat::types::Lit;

/// How many candidates the check may reject in one window before the search
/// moves on (timing failures can come in the thousands).
const WINDOW_REJECTS: usize = 20;

/// The windows, and where the search is among them.
#[derive(Default)]
pub(super) struct Neighbourhood {
    /// The windows it tries (decision indices, sorted).
    windows: Vec<Vec<usize>>,
    /// The search around the best candidate, while it lasts.
    around: Option<Around>,
}

/// The search around one candidate.
struct Around {
    /// Per decision: as in the best candidate, and whether it costs.
    decisions: Vec<Decision>,
    /// The window tried now.
    next: usize,
    /// Windows given up since the last improvement.
    failed: usize,
    /// Candidates rejected in this window.
    rejected: usize,
}

impl Neighbourhood {
    pub(super) fn new(windows: Vec<Vec<usize>>) -> Neighbourhood {
        Neighbourhood {
            windows,
            around: None,
        }
    }

    /// Whether there are windows at all.
    pub(super) fn enabled(&self) -> bool {
        !self.windows.is_empty()
    }

    /// The window being searched, if the search is on.
    pub(super) fn current(&self) -> Option<usize> {
        self.around.as_ref().map(|a| a.next)
    }

    /// Starts (or restarts) the search around a candidate with these
    /// decisions, from the window it was at.
    pub(super) fn restart(&mut self, decisions: Vec<Decision>) {
        let next = self.current().unwrap_or(0);
        self.around = Some(Around {
            decisions,
            next,
            failed: 0,
            rejected: 0,
        });
        self.skip_costless_windows();
    }

    /// The assumptions that keep every decision outside the window.
    pub(super) fn assumptions(&self) -> Vec<Lit> {
        let Some(a) = &self.around else {
            return Vec::new();
        };
        let window = &self.windows[a.next];
        (0..a.decisions.len())
            .filter(|i| window.binary_search(i).is_err())
            .map(|i| a.decisions[i].keep)
            .collect()
    }

    /// A candidate of this window was rejected: after too many, move on.
    pub(super) fn rejected(&mut self) {
        if let Some(a) = &mut self.around {
            a.rejected += 1;
            if a.rejected >= WINDOW_REJECTS {
                self.next_window();
            }
        }
    }

    /// Gives up on the current window and moves to the next one.
    pub(super) fn next_window(&mut self) {
        if let Some(a) = &mut self.around {
            a.next = (a.next + 1) % self.windows.len();
            a.failed += 1;
            a.rejected = 0;
        }
        self.skip_costless_windows();
    }

    /// Skips windows where the best candidate pays nothing (nothing cheaper
    /// is possible there), and ends the search after a full round without
    /// an improvement.
    fn skip_costless_windows(&mut self) {
        let n = self.windows.len();
        let Some(a) = &mut self.around else { return };
        while a.failed < n && !self.windows[a.next].iter().any(|&i| a.decisions[i].costs) {
            a.next = (a.next + 1) % n;
            a.failed += 1;
        }
        if a.failed >= n {
            self.around = None;
        }
    }
}

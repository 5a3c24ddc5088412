//! The neighbourhood search after each verified candidate: one window of its
//! decisions is freed while the others keep their values, looking for a
//! cheaper candidate nearby before the calls over the whole instance. Its
//! answers prove nothing; it ends after a full round of windows without an
//! improvement.
//!
//! A window is skipped when a larger window that holds it has been answered
//! UNSAT since the last improvement: freeing fewer decisions of the same
//! candidate, under the same bound and with no fewer clauses, is a
//! restriction of that call, so it is UNSAT too. The round after the last
//! improvement often starts at a large window and wraps round to the small
//! ones, which it then skips.
//!
//! After the puzzle's fixed windows come those that follow the candidate
//! searched around ([`crate::Puzzle::windows_around`]), replaced at each new
//! one. They can hold most of the instance, so each call in one gets a
//! slice; one that runs out proves nothing and the search moves on.

use crate::puzzle::Decision;
use rustsat::types::Lit;
use std::time::{Duration, Instant};

/// How many candidates the check may reject in one window before the search
/// moves on (timing failures can come in the thousands).
const WINDOW_REJECTS: usize = 20;

/// How long a call in a window that follows the candidate may run before
/// the search moves on: such windows can hold most of the instance.
const FOLLOWING_SLICE: Duration = Duration::from_millis(500);

/// How long a call may run while repairing a rejected candidate.
const REPAIR_SLICE: Duration = Duration::from_millis(100);

/// The most time the repair of a rejected candidate gets.
const REPAIR_AT_MOST: Duration = Duration::from_secs(1);

/// The windows, and where the search is among them.
#[derive(Default)]
pub(super) struct Neighbourhood {
    /// The windows it tries (decision indices, sorted): the puzzle's fixed
    /// ones, then those that follow the candidate searched around.
    windows: Vec<Vec<usize>>,
    /// How many of them are fixed.
    fixed: usize,
    /// Per window: the other windows that hold all of its decisions.
    supersets: Vec<Vec<usize>>,
    /// The search around the best candidate, while it lasts.
    around: Option<Around>,
    /// While the search is around a rejected candidate, before any was
    /// verified ([`Neighbourhood::repair`]): when it must end.
    repair_until: Option<Instant>,
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
    /// Per window: answered UNSAT around this candidate.
    unsat: Vec<bool>,
}

impl Neighbourhood {
    pub(super) fn new(windows: Vec<Vec<usize>>) -> Neighbourhood {
        let supersets = (0..windows.len()).map(|i| holders(&windows, i)).collect();
        Neighbourhood {
            fixed: windows.len(),
            windows,
            supersets,
            around: None,
            repair_until: None,
        }
    }

    /// Replaces the windows that follow a candidate by `around` (those
    /// already among the fixed ones left out), and their supersets.
    fn follow(&mut self, around: Vec<Vec<usize>>) {
        let fixed = self.fixed;
        self.windows.truncate(fixed);
        for s in &mut self.supersets {
            s.retain(|&j| j < fixed);
        }
        self.supersets.truncate(fixed);
        for w in around {
            if !w.is_empty() && !self.windows.contains(&w) {
                self.windows.push(w);
            }
        }
        for j in fixed..self.windows.len() {
            for i in 0..j {
                if holds_all(&self.windows[j], &self.windows[i]) {
                    self.supersets[i].push(j);
                }
            }
            self.supersets.push(holders(&self.windows, j));
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
    /// decisions, from the window it was at, with `around` as the windows
    /// that follow it.
    pub(super) fn restart(&mut self, decisions: Vec<Decision>, around: Vec<Vec<usize>>) {
        let at = self.current().unwrap_or(0);
        self.follow(around);
        self.begin(decisions, at % self.windows.len(), None);
    }

    /// Starts a search around a rejected candidate with these decisions,
    /// in the fixed windows from the first, for half as long as `call` (the
    /// call that found it) took, at most [`REPAIR_AT_MOST`]: each call may
    /// find a candidate that differs from it in one window, which the check
    /// judges. Returns the time it gets.
    pub(super) fn repair(&mut self, decisions: Vec<Decision>, call: Duration) -> Duration {
        let budget = (call / 2).min(REPAIR_AT_MOST);
        self.follow(Vec::new());
        self.begin(decisions, 0, Some(Instant::now() + budget));
        budget
    }

    /// Starts the search around a candidate with these decisions at window
    /// `next`.
    fn begin(&mut self, decisions: Vec<Decision>, next: usize, repair_until: Option<Instant>) {
        self.repair_until = repair_until;
        self.around = Some(Around {
            decisions,
            next,
            failed: 0,
            rejected: 0,
            unsat: vec![false; self.windows.len()],
        });
        self.skip_costless_windows();
    }

    /// Whether the search is around a rejected candidate.
    pub(super) fn repairing(&self) -> bool {
        self.repair_until.is_some() && self.around.is_some()
    }

    /// Whether the repair of a rejected candidate is on and its time is up.
    pub(super) fn repair_due(&self) -> bool {
        self.around.is_some() && self.repair_until.is_some_and(|u| Instant::now() >= u)
    }

    /// Ends the search, wherever it is.
    pub(super) fn stop(&mut self) {
        self.around = None;
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

    /// How long the current window's call may run: unlimited in the fixed
    /// windows, a slice in those that follow the candidate.
    pub(super) fn slice(&self) -> Option<Duration> {
        let a = self.around.as_ref()?;
        if self.repair_until.is_some() {
            return Some(REPAIR_SLICE);
        }
        (a.next >= self.fixed).then_some(FOLLOWING_SLICE)
    }

    /// The current window's call ran out of its slice: it proved nothing,
    /// so the windows it holds are still tried.
    pub(super) fn ran_out(&mut self) {
        self.next_window();
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

    /// The current window's call was UNSAT: nothing cheaper by changing
    /// it alone (nor any window it holds). Moves to the next one.
    pub(super) fn unsat_window(&mut self) {
        if let Some(a) = &mut self.around {
            a.unsat[a.next] = true;
        }
        self.next_window();
    }

    /// Gives up on the current window and moves to the next one.
    fn next_window(&mut self) {
        if let Some(a) = &mut self.around {
            a.next = (a.next + 1) % self.windows.len();
            a.failed += 1;
            a.rejected = 0;
        }
        self.skip_costless_windows();
    }

    /// Skips windows where the best candidate pays nothing (nothing cheaper
    /// is possible there) and windows held by one already answered UNSAT,
    /// and ends the search after a full round without an improvement.
    fn skip_costless_windows(&mut self) {
        let n = self.windows.len();
        let Some(a) = &mut self.around else { return };
        let fruitless = |a: &Around, w: usize| {
            !self.windows[w].iter().any(|&i| a.decisions[i].costs)
                || self.supersets[w].iter().any(|&j| a.unsat[j])
        };
        while a.failed < n && fruitless(a, a.next) {
            a.next = (a.next + 1) % n;
            a.failed += 1;
        }
        if a.failed >= n {
            self.around = None;
        }
    }
}

/// The other windows that hold all of window `i`'s decisions.
fn holders(windows: &[Vec<usize>], i: usize) -> Vec<usize> {
    (0..windows.len())
        .filter(|&j| j != i && holds_all(&windows[j], &windows[i]))
        .collect()
}

/// Whether the sorted `big` holds every element of the sorted `small`.
fn holds_all(big: &[usize], small: &[usize]) -> bool {
    let mut rest = big.iter();
    small.iter().all(|x| rest.any(|y| y == x))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn costly(n: u32) -> Vec<Decision> {
        (0..n)
            .map(|v| Decision {
                keep: Lit::positive(v),
                costs: true,
            })
            .collect()
    }

    /// The windows that follow a candidate come after the fixed ones, get a
    /// slice, take part in the supersets both ways, and are replaced at
    /// the next candidate.
    #[test]
    fn windows_that_follow_a_candidate_are_replaced_at_the_next() {
        let mut n = Neighbourhood::new(vec![vec![0], vec![2]]);
        n.restart(costly(4), vec![vec![0, 1], vec![2], vec![1, 2, 3]]);
        assert_eq!(n.windows, vec![vec![0], vec![2], vec![0, 1], vec![1, 2, 3]]);
        assert_eq!(n.supersets, vec![vec![2], vec![3], vec![], vec![]]);
        assert_eq!(n.slice(), None, "a fixed window runs to its answer");
        n.unsat_window();
        n.unsat_window();
        assert_eq!(n.current(), Some(2));
        assert_eq!(n.slice(), Some(FOLLOWING_SLICE));
        n.ran_out();
        assert_eq!(n.current(), Some(3));
        n.restart(costly(4), vec![vec![0, 2]]);
        assert_eq!(n.windows, vec![vec![0], vec![2], vec![0, 2]]);
        assert_eq!(n.supersets, vec![vec![2], vec![2], vec![]]);
        assert_eq!(n.current(), Some(0), "the search was at window 3, now gone");
    }

    /// Repairing a rejected candidate tries the fixed windows from the
    /// first, each call with the repair's slice, until it is stopped or a
    /// verified candidate's search replaces it.
    #[test]
    fn a_rejected_candidate_is_repaired_in_the_fixed_windows() {
        let mut n = Neighbourhood::new(vec![vec![0], vec![2]]);
        n.restart(costly(4), vec![vec![1, 2, 3]]);
        n.unsat_window();
        assert_eq!(n.current(), Some(1));
        let budget = n.repair(costly(4), Duration::from_secs(4));
        assert_eq!(budget, REPAIR_AT_MOST, "half the call, at most a second");
        assert!(n.repairing());
        assert!(!n.repair_due());
        assert_eq!(n.current(), Some(0), "from the first window");
        assert_eq!(n.windows, vec![vec![0], vec![2]], "none that follow");
        assert_eq!(n.slice(), Some(REPAIR_SLICE));
        n.stop();
        assert_eq!(n.current(), None);
        assert!(!n.repairing());
        n.repair(costly(4), Duration::ZERO);
        assert!(n.repair_due(), "no time at all");
        n.restart(costly(4), Vec::new());
        assert!(!n.repairing(), "a verified candidate's search is no repair");
        assert_eq!(n.slice(), None);
    }

    #[test]
    fn holds_all_compares_sorted_sets() {
        assert!(holds_all(&[0, 1, 2, 3], &[1, 3]));
        assert!(holds_all(&[0, 1], &[]));
        assert!(!holds_all(&[0, 1, 3], &[1, 2]));
        assert!(!holds_all(&[1], &[0, 1]));
    }

    /// Once the large window is UNSAT, the windows it holds are skipped,
    /// and the round ends; a window given up after rejected candidates
    /// proves nothing, so the windows it holds are still tried.
    #[test]
    fn windows_held_by_an_unsat_window_are_skipped() {
        let windows = vec![vec![0, 1], vec![0, 1, 2, 3], vec![2, 3]];
        let mut n = Neighbourhood::new(windows.clone());
        n.restart(costly(4), Vec::new());
        assert_eq!(n.current(), Some(0));
        n.unsat_window();
        assert_eq!(n.current(), Some(1));
        n.unsat_window();
        assert_eq!(
            n.current(),
            None,
            "2 and 0 are held by 1: the round is over"
        );

        let mut n = Neighbourhood::new(windows);
        n.restart(costly(4), Vec::new());
        n.unsat_window();
        for _ in 0..WINDOW_REJECTS {
            n.rejected();
        }
        assert_eq!(n.current(), Some(2), "1 was given up, not answered UNSAT");
    }
}

//! Runs that did not fail, kept so that a question one of them already
//! answers costs no SAT call: a layout whose run meets every requirement
//! asked for is a "yes". Only runs that no other kept run outdoes are kept
//! (one outdoes another when it meets every requirement the other meets).

use super::oracle::Witness;
use crate::requirement::Requirement;

/// Kept runs, none meeting a subset of what another meets.
#[derive(Clone, Default)]
pub struct Pool {
    /// The requirements runs are compared on.
    reqs: Vec<Requirement>,
    /// Each run, with which of `reqs` it meets.
    runs: Vec<(Vec<bool>, Witness)>,
}

impl Pool {
    /// An empty pool comparing runs on `reqs`.
    pub fn new(reqs: &[Requirement]) -> Pool {
        Pool {
            reqs: reqs.to_vec(),
            runs: Vec::new(),
        }
    }

    /// A kept run that meets every requirement of `reqs`.
    pub fn meeting(&self, reqs: &[Requirement]) -> Option<&Witness> {
        self.runs
            .iter()
            .map(|p| &p.1)
            .find(|w| reqs.iter().all(|&r| w.achieved.meets(r)))
    }

    /// Keeps `w` (a run that did not fail), unless a kept run meets every
    /// requirement it meets; drops the kept runs it outdoes.
    pub fn remember(&mut self, w: &Witness) {
        if !w.achieved.ran {
            return;
        }
        let new: Vec<bool> = self.reqs.iter().map(|&r| w.achieved.meets(r)).collect();
        let covers = |a: &[bool], b: &[bool]| a.iter().zip(b).all(|(x, y)| *x || !*y);
        if self.runs.iter().any(|(old, _)| covers(old, &new)) {
            return;
        }
        self.runs.retain(|(old, _)| !covers(&new, old));
        self.runs.push((new, w.clone()));
    }

    /// Every kept run.
    pub fn runs(&self) -> impl Iterator<Item = &Witness> {
        self.runs.iter().map(|p| &p.1)
    }
}

//! Counting belts: rustsat's totalizer over "this cell holds a belt", whose
//! outputs bound the layout by assumptions (B1), encoded for every bound up
//! front or, on big boards, lazily ([`Encoding::bound_belts`]); and the
//! distance bound: a donut seen on a node needs at least as many belts as the
//! fewest `.` cells it could have left on its way there (D1).

use super::graph::From;
use super::{Encoding, SourceId};
use cegar::cost::CostCounter;
use cegar::keyed::KeyedVec;
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

/// Per source, [`Encoding::free_distances`].
pub(super) type Distances = KeyedVec<SourceId, Vec<usize>>;

impl Encoding {
    /// Every source's [`Encoding::free_distances`].
    pub(super) fn source_distances(&self) -> Distances {
        self.sources
            .keys()
            .map(|s| self.free_distances(s))
            .collect()
    }

    /// B1's counter: the totalizer over the belts, encoded for every bound,
    /// or, with more than `lazy_from` free cells, only up to the largest D1
    /// distance (what D1 needs); the loop asks for more ([`Encoding::bound_belts`]).
    pub(super) fn count_belts(
        &mut self,
        lazy_from: usize,
        dists: &Distances,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        let n_free = self.free.len();
        let upto = if n_free > lazy_from {
            let far = dists.iter().flatten().filter(|&&d| d != usize::MAX);
            far.copied().max().unwrap_or(0).min(n_free)
        } else {
            n_free
        };
        let has_belt: Vec<Lit> = self.choice.iter().map(|ch| !ch[0]).collect();
        let (counter, cnf) = CostCounter::new(has_belt, upto, vm);
        self.belts = counter;
        for cl in cnf {
            let _ = col.add_clause(cl);
        }
    }

    /// D1 (distance): `q[s][n] → belts ≥ dist(s, cell(n))`, a binary clause
    /// with the counter's output (a unit where the counter cannot count that
    /// far).
    pub(super) fn distances_need_belts(&self, dists: &Distances, col: &mut impl CollectClauses) {
        for (s, dist) in dists.enumerate() {
            for n in self.nodes.keys() {
                let Some(qn) = self.q[s][n] else { continue };
                let d = dist[self.nodes[n].cell.index()];
                if d == 0 || d == usize::MAX {
                    continue;
                }
                match self.belts.at_most(d - 1) {
                    Some(lits) if lits.is_empty() => {
                        let _ = col.add_clause(Clause::from([!qn]));
                    }
                    Some(lits) => {
                        for l in lits {
                            let _ = col.add_clause(Clause::from([!qn, !l]));
                        }
                    }
                    None => {}
                }
            }
        }
    }

    /// For each cell, the fewest `.` cells a donut from source `s` leaves on any
    /// way to it (`usize::MAX` where it cannot go). Computed on cells rather than
    /// nodes, so that a way that crosses a cell twice (with two kinds) counts it
    /// once: loop erasure of a real way gives a path on cells whose every cell but
    /// the last was left, and leaving a `.` cell needs a belt on it.
    pub fn free_distances(&self, s: SourceId) -> Vec<usize> {
        let n_cells = self.level.shape.len();
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n_cells];
        for edge in &self.edges {
            if let From::Node(m) = edge.from {
                out[self.nodes[m].cell.index()].push(self.nodes[edge.to].cell.index());
            }
        }
        let mut free = vec![false; n_cells];
        for &c in &self.free {
            free[c.index()] = true;
        }
        let mut dist = vec![usize::MAX; n_cells];
        let mut deque = std::collections::VecDeque::new();
        for edge in self.landings(s) {
            let c = self.nodes[edge.to].cell.index();
            dist[c] = 0;
            deque.push_back(c);
        }
        // 0-1 breadth-first search: leaving a `.` cell costs one belt.
        while let Some(c) = deque.pop_front() {
            let w = usize::from(free[c]);
            for &t in &out[c] {
                if dist[c] + w < dist[t] {
                    dist[t] = dist[c] + w;
                    if w == 0 {
                        deque.push_front(t);
                    } else {
                        deque.push_back(t);
                    }
                }
            }
        }
        dist
    }

    /// The largest `k` for which `belts.at_most(k)` works now.
    pub fn belts_encoded_upto(&self) -> usize {
        self.belts.encoded_upto()
    }

    /// Makes `belts.at_most(k)` work, returning the clauses that takes (none
    /// where the counter already covers `k`; see [`CostCounter`]).
    pub fn bound_belts(&mut self, k: usize, vm: &mut dyn ManageVars) -> Vec<Clause> {
        self.belts.encode_at_most(k, vm)
    }
}

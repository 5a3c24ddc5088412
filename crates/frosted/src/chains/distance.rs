//! Shortest paths on the chain view: moves between free cells and points,
//! around up to two excluded cells, measured once and cached, and the
//! cheapest way through a merge.

use super::{ChainBound, End, Excl, INF};
use std::sync::Arc;

/// The work of one distance lookup, in the budget's unit (a cell looked at
/// by a distance measured): a lookup in the cache of distances takes about
/// as long as looking at 16 cells.
const LOOKUP_WORK: u64 = 16;

impl ChainBound {
    /// The number of free cells (the first points).
    pub(super) fn n(&self) -> usize {
        self.free.len()
    }

    /// Whether a measured path may run on through free cell `q`: not
    /// through a topped cell, which a chain passes only as one of its
    /// waypoints (each segment between two of them, or before the first
    /// or after the last, passes no other; a path may still start or end
    /// on one).
    fn passable(&self, q: usize) -> bool {
        !self.topped[q]
    }

    /// The point index of a fork's or a target's entry.
    pub(super) fn end_point(&self, e: End) -> usize {
        match e {
            End::Fork(z) => self.n() + z,
            End::Target(t) => self.n() + self.fork_exits.len() + t,
            End::Open => unreachable!("an open end is no point"),
        }
    }

    /// Moves from free cell `a` to every point (free cells, then forks
    /// and targets), never through the cells of `excl` (nor the walls of
    /// [`ChainBound::chain_cost_around`], when set) nor on through a
    /// topped cell other than `a` ([`ChainBound::passable`]); backwards
    /// (`forward` false): moves from every free cell to point `a`.
    pub(super) fn dist(&self, a: usize, excl: Excl, forward: bool) -> Arc<Vec<u32>> {
        let walls = self.walls.borrow();
        if walls.is_none() {
            if let Some(d) = self.cache.borrow().get(&(a, excl, forward)) {
                return d.clone();
            }
        }
        let n = self.n();
        self.work.set(self.work.get() + self.back.len() as u64);
        let walled = |i: usize| walls.as_ref().is_some_and(|w| w.get(i) == Some(&true));
        let blocked = |i: usize| excl.contains(&(i as u32)) || walled(i);
        let mut dist = vec![INF; self.back.len()];
        let mut queue = std::collections::VecDeque::new();
        if forward {
            if !blocked(a) {
                dist[a] = 0;
                queue.push_back(a);
            }
            while let Some(p) = queue.pop_front() {
                for q in self.moves[p].iter().flatten().copied() {
                    if dist[q] == INF && !(q < n && blocked(q)) {
                        dist[q] = dist[p] + 1;
                        if q < n && self.passable(q) {
                            queue.push_back(q);
                        }
                    }
                }
            }
        } else {
            if !(a < n && blocked(a)) {
                dist[a] = 0;
                queue.push_back(a);
            }
            while let Some(p) = queue.pop_front() {
                for &q in &self.back[p] {
                    if dist[q] == INF && !blocked(q) {
                        dist[q] = dist[p] + 1;
                        if self.passable(q) {
                            queue.push_back(q);
                        }
                    }
                }
            }
        }
        let d = Arc::new(dist);
        if walls.is_none() {
            self.cache
                .borrow_mut()
                .insert((a, excl, forward), d.clone());
        }
        d
    }

    /// [`ChainBound::chain_cost`] with the free cells marked in `walls`
    /// walled off (measured without the cache; the tails of the chains
    /// merging in were measured without the walls, which can only make
    /// them shorter).
    pub(super) fn chain_cost_around(
        &self,
        s: usize,
        order: &[usize],
        end: End,
        tails: &[Vec<&[u32]>],
        walls: &[bool],
    ) -> u32 {
        *self.walls.borrow_mut() = Some(walls.to_vec());
        let c = self.chain_cost(s, order, end, tails);
        *self.walls.borrow_mut() = None;
        c
    }

    /// Moves from free cell `a` to point `b` avoiding `excl`. A lookup
    /// costs [`LOOKUP_WORK`] units of work, so that long waypoint orders
    /// count for what they cost.
    pub(super) fn dx(&self, a: usize, b: usize, excl: Excl) -> u32 {
        self.work.set(self.work.get() + LOOKUP_WORK);
        self.dist(a, excl, true)[b]
    }

    /// The least, over free cells `x` outside `excl`, of the moves from `a`
    /// to `x`, then from `x` to `b` (none if `b` is `None`), plus `plus` and
    /// the merging chain's own cells up to `x` (`tail[x]`).
    pub(super) fn via(
        &self,
        a: usize,
        b: Option<usize>,
        excl: Excl,
        tail: &[u32],
        plus: u32,
    ) -> u32 {
        self.work.set(self.work.get() + self.n() as u64);
        let from = self.dist(a, excl, true);
        let to = b.map(|b| self.dist(b, excl, false));
        let mut best = INF;
        for x in 0..self.n() {
            if tail[x] >= INF || from[x] >= INF || excl.contains(&(x as u32)) {
                continue;
            }
            let rest = to.as_ref().map_or(0, |t| t[x]);
            if rest < INF {
                best = best.min(from[x] + rest + plus + tail[x]);
            }
        }
        best
    }
}

//! The fewest cells of a chain that ends in a target or a fork, found by a
//! depth-first search over simple paths instead of a sum of distances.
//!
//! [`ChainBound::chain_cost`] prices each part of a chain (start to first
//! waypoint, waypoint to waypoint, last waypoint to end) by a shortest
//! path that avoids only the waypoints at its two ends, so the parts may
//! share cells. A chain's own cells are one simple path, though: from its
//! start, through its waypoints in order and no other waypoint (a chain
//! that reached another one would own it, or, owned by an earlier chain,
//! would merge there), into its end, which it meets only at the last step
//! (a chain stops at the first fork or target it enters). Where the parts
//! must go round each other (a source whose route has to circle its own
//! toppers and target), the search finds the longer path the board forces.
//! Each node of the search is pruned by the breadth-first distances of
//! the parts still to walk, each around the cells already used, and tries
//! the moves towards the next target first.
//!
//! Off by default ([`ChainBound::with_simple_paths`]): it can raise the
//! bound a lot (on the generated level far-031 from 34 to the minimum, 38
//! belts, which the SAT calls take minutes to prove), but one search there
//! costs some 10^8 units of work against the loop's budget of 4 million
//! (`encodings/appendix-experiments.md`, A13).

use super::{ChainBound, End, INF};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the search over one chain's simple paths found.
pub(super) enum Simple {
    /// The fewest cells of such a path (below the cap it was asked with).
    Fewest(u32),
    /// None has fewer cells than the cap.
    AtLeastCap,
    /// The work allowed ran out first.
    OutOfWork,
}

/// A search's answer kept for the next time: the fewest cells, or that
/// none is below the cap it was given.
#[derive(Clone, Copy, Debug)]
pub(super) enum Memo {
    Fewest(u32),
    AtLeast(u32),
}

/// The state of one search.
pub(super) struct Walk<'a> {
    cb: &'a ChainBound,
    /// The free cells to pass in order, then the end's point.
    targets: Vec<usize>,
    /// Whether a free cell is a waypoint (passed only as the next target).
    waypoint: Vec<bool>,
    used: Vec<bool>,
    /// The breadth-first search's distances and queue, kept between calls.
    dist: Vec<u32>,
    queue: VecDeque<usize>,
    /// Looking for a path of fewer cells than this.
    best: u32,
    found: bool,
    work: u64,
    work_cap: u64,
    /// Set by another thread to make the search give up early.
    stop: Option<&'a AtomicBool>,
    /// Nodes visited (the stop flag is looked at every 256).
    nodes: u64,
    /// When set, every path of fewer cells than `best` is offered to it
    /// (its cells marked in `used`, and how many), and the search stops at
    /// the first it takes (`found`, with what it answered in `taken`).
    offer: Option<Offer<'a>>,
    taken: u32,
}

/// What a path is offered to: `Some(total)` takes it.
pub(super) type Offer<'a> = &'a dyn Fn(&[bool], u32) -> Option<u32>;

impl ChainBound {
    /// The fewest cells of a simple path from free cell `s` through the
    /// waypoints `order` into `end` (a fork or a target), when fewer than
    /// `cap`; `lower` is known to be a lower bound of it. At most
    /// `work_cap` cells looked at (the work is added to the bound's count);
    /// `stop`, when set, ends the search as running out of work does.
    ///
    /// Searched by deepening: is there a path of fewer than `lower + 1`
    /// cells, then of fewer than `lower + 2`, `lower + 4`, ... (each
    /// search with a tight limit prunes hard; the one that finds a path
    /// goes on to the fewest below its limit, and none is below the last
    /// limit tried). What is learnt is kept per (start, order, end).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn simple_chain(
        &self,
        s: usize,
        order: &[usize],
        end: End,
        lower: u32,
        cap: u32,
        work_cap: u64,
        stop: Option<&AtomicBool>,
    ) -> Simple {
        let key = (s, order.to_vec(), self.end_point(end));
        let mut lo = lower;
        match self.simple_memo.borrow().get(&key) {
            Some(&Memo::Fewest(m)) if m < cap => return Simple::Fewest(m),
            Some(&Memo::Fewest(_)) => return Simple::AtLeastCap,
            Some(&Memo::AtLeast(c)) => lo = lo.max(c),
            None => {}
        }
        let until = self.work.get().saturating_add(work_cap);
        let mut step = 1;
        while lo < cap {
            let limit = lo.saturating_add(step).min(cap);
            let left = until.saturating_sub(self.work.get());
            match self.search_simple_chain(s, order, end, limit, left, stop) {
                Simple::Fewest(m) => {
                    self.simple_memo.borrow_mut().insert(key, Memo::Fewest(m));
                    return Simple::Fewest(m);
                }
                Simple::AtLeastCap => {
                    lo = limit;
                    step *= 2;
                    self.simple_memo
                        .borrow_mut()
                        .insert(key.clone(), Memo::AtLeast(lo));
                }
                Simple::OutOfWork => return Simple::OutOfWork,
            }
        }
        Simple::AtLeastCap
    }

    /// Whether a simple path of fewer than `cap` cells exists (the fewest,
    /// when one does), without the memo.
    fn search_simple_chain(
        &self,
        s: usize,
        order: &[usize],
        end: End,
        cap: u32,
        work_cap: u64,
        stop: Option<&AtomicBool>,
    ) -> Simple {
        let mut walk = self.walk(order, end, cap, work_cap, stop);
        match walk.run(s) {
            None => Simple::OutOfWork,
            Some(true) => Simple::Fewest(walk.best),
            Some(false) => Simple::AtLeastCap,
        }
    }

    /// A walk over the simple paths of a chain through the waypoints
    /// `order` into `end`, of fewer cells than `cap` (from the start
    /// [`Walk::run`] is given).
    pub(super) fn walk<'a>(
        &'a self,
        order: &[usize],
        end: End,
        cap: u32,
        work_cap: u64,
        stop: Option<&'a AtomicBool>,
    ) -> Walk<'a> {
        let n = self.n();
        let mut targets: Vec<usize> = order.iter().map(|&w| self.waypoints[w].cell).collect();
        targets.push(self.end_point(end));
        let mut waypoint = vec![false; n];
        for w in &self.waypoints {
            waypoint[w.cell] = true;
        }
        Walk {
            cb: self,
            targets,
            waypoint,
            used: vec![false; n],
            dist: vec![INF; n],
            queue: VecDeque::new(),
            best: cap,
            found: false,
            work: 0,
            work_cap,
            stop,
            nodes: 0,
            offer: None,
            taken: 0,
        }
    }
}

impl<'a> Walk<'a> {
    /// Offers every path of fewer cells than the cap to `offer` instead of
    /// looking for the fewest: the walk stops at the first it takes.
    pub(super) fn offering_to(mut self, offer: Offer<'a>) -> Walk<'a> {
        self.offer = Some(offer);
        self
    }

    /// What the offer answered for the path it took.
    pub(super) fn taken(&self) -> u32 {
        self.taken
    }

    /// Walks from free cell `s`: `None` when the work ran out, else
    /// whether a path was found (or taken). The work is added to the
    /// bound's count.
    pub(super) fn run(&mut self, s: usize) -> Option<bool> {
        let k = usize::from(self.targets.len() > 1 && self.targets[0] == s);
        if self.waypoint[s] && k == 0 {
            return Some(false);
        }
        self.used[s] = true;
        let done = self.extend(s, k, 1);
        self.cb.work.set(self.cb.work.get() + self.work);
        done.then_some(self.found)
    }
}

impl Walk<'_> {
    /// The fewest cells a path from free cell `from` adds to reach target
    /// `k` (its cell counted; the end's point not), avoiding the other
    /// waypoints and the cells used so far.
    fn distance(&mut self, from: usize, k: usize) -> u32 {
        let cb = self.cb;
        let n = cb.n();
        let goal = self.targets[k];
        let (dist, queue) = (&mut self.dist, &mut self.queue);
        dist.fill(INF);
        queue.clear();
        dist[from] = 0;
        queue.push_back(from);
        while let Some(u) = queue.pop_front() {
            self.work += 1;
            for p in cb.moves[u].iter().flatten().copied() {
                if p == goal {
                    return if goal < n { dist[u] + 1 } else { dist[u] };
                }
                if p >= n || dist[p] != INF || self.waypoint[p] || self.used[p] {
                    continue;
                }
                dist[p] = dist[u] + 1;
                queue.push_back(p);
            }
        }
        INF
    }

    /// A lower bound of the cells a path from free cell `u` (next target
    /// `k`) still adds: each part after it measured around the cells used
    /// so far, the first from `u`, the others from their waypoint.
    fn lower(&mut self, u: usize, k: usize) -> u32 {
        let mut total = self.distance(u, k);
        for i in k..self.targets.len() - 1 {
            if total >= INF {
                break;
            }
            let d = self.distance(self.targets[i], i + 1);
            total = total.saturating_add(d).min(INF);
        }
        total
    }

    /// How far point `p` is from target `k` as the crow flies (Manhattan
    /// distance; 0 for the target itself), to order the moves.
    fn toward(&self, p: usize, k: usize) -> u32 {
        let g = self.targets[k];
        if p == g {
            return 0;
        }
        self.cb.xy[p].manhattan(self.cb.xy[g]) as u32
    }

    /// Extends the path that ends on free cell `u` with `len` cells and
    /// next target `k`; `false` when the work ran out.
    fn extend(&mut self, u: usize, k: usize, len: u32) -> bool {
        self.nodes += 1;
        let stopped = || {
            self.nodes.is_multiple_of(256) && self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
        };
        if self.work > self.work_cap || stopped() {
            return false;
        }
        let last = self.targets.len() - 1;
        if len.saturating_add(self.lower(u, k)) >= self.best {
            return true;
        }
        let n = self.cb.n();
        let goal = self.targets[k];
        // The moves that head for the next target first, so that a short
        // path is found early and tightens the pruning.
        let mut next: Vec<(u32, usize)> = self.cb.moves[u]
            .iter()
            .flatten()
            .map(|&p| (self.toward(p, k), p))
            .collect();
        next.sort_unstable();
        for (_, p) in next {
            if p == goal && k == last {
                match self.offer {
                    None => {
                        self.best = len;
                        self.found = true;
                    }
                    Some(offer) => {
                        if let Some(total) = offer(&self.used, len) {
                            self.taken = total;
                            self.found = true;
                            return true;
                        }
                    }
                }
                continue;
            }
            if p >= n || self.used[p] || (self.waypoint[p] && p != goal) {
                continue;
            }
            let next = if p == goal { k + 1 } else { k };
            self.used[p] = true;
            let ok = self.extend(p, next, len + 1);
            self.used[p] = false;
            if !ok {
                return false;
            }
            if self.found && self.offer.is_some() {
                return true;
            }
        }
        true
    }
}

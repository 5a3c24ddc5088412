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
//! the parts still to walk, each around the cells already used (first by
//! the same distances around no cell, read from a table), and tries the
//! moves towards the next target first. On the last part that distance is
//! the answer: a shortest path around the used cells is a simple path. A
//! part's distance is kept with a shortest path that gives it, and
//! measured again only when the walk steps on one of that path's cells (a
//! distance only grows as cells get used, and the path still gives it);
//! a step onto the first cell of the current part's shortest path leaves
//! the rest of it a shortest path on, with no search.
//!
//! Off by default ([`ChainBound::with_simple_paths`]): it can raise the
//! bound a lot (on the generated level far-031 from 34 to the minimum, 38
//! belts, which the SAT calls take minutes to prove), but one search there
//! costs some 10^8 units of work against the loop's budget of 4 million
//! (`encodings/appendix-experiments.md`, A13).

use super::{ChainBound, End, INF, NONE};
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
    /// Per target `k`, the fewest cells a path from each free cell adds to
    /// reach it with no cell used ([`ChainBound::distances_to`]): a lower
    /// bound of that distance whatever the path has used, cheap to read
    /// before the breadth-first search around the used cells.
    to_target: Vec<Vec<u32>>,
    /// Per target `k` (but the last), the same from target `k` to target
    /// `k + 1` and on to the end: `after[k]` sums those parts.
    after: Vec<u32>,
    /// Per part `i` still ahead (from target `i` to target `i + 1`), its
    /// distance around the cells used so far and a shortest path that
    /// gives it (its cells between the two targets): while the path's
    /// cells stay unused the distance cannot change (it only grows as
    /// cells are used, and the path still gives it), so it is measured
    /// again only when the walk steps on one of them.
    parts: Vec<(u32, Vec<usize>)>,
    /// The breadth-first search's distances, parents and queue, kept
    /// between calls.
    dist: Vec<u32>,
    parent: Vec<usize>,
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
        let to_target: Vec<Vec<u32>> = targets
            .iter()
            .map(|&goal| self.distances_to(goal))
            .collect();
        let mut after = vec![0u32; targets.len()];
        for k in (0..targets.len() - 1).rev() {
            let part = to_target[k + 1][targets[k]];
            after[k] = after[k + 1].saturating_add(part).min(INF);
        }
        Walk {
            cb: self,
            targets,
            waypoint,
            used: vec![false; n],
            to_target,
            after,
            parts: Vec::new(),
            dist: vec![INF; n],
            parent: vec![usize::MAX; n],
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

impl ChainBound {
    /// Per free cell `u`, the fewest cells a path from `u` adds to reach
    /// point `goal` (a free cell counted, a fork's or a target's point
    /// not), on through no topped cell: what [`Walk::distance`] measures
    /// with no cell used, read off the bound's cached moves backwards from
    /// `goal` ([`ChainBound::dist`]). `INF` where none reaches it.
    fn distances_to(&self, goal: usize) -> Vec<u32> {
        debug_assert!(self.walls.borrow().is_none(), "the walk sees no walls");
        let moves = self.dist(goal, [NONE, NONE], false);
        let counted = u32::from(goal < self.n());
        (0..self.n())
            .map(|u| match moves[u] {
                m if m >= INF => INF,
                0 => 0,
                m => m - 1 + counted,
            })
            .collect()
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
        self.parts = (0..self.targets.len() - 1)
            .map(|i| self.distance(self.targets[i], i + 1))
            .collect();
        let done = self.extend(s, k, 1, None);
        self.cb.work.set(self.cb.work.get() + self.work);
        done.then_some(self.found)
    }
}

impl Walk<'_> {
    /// The fewest cells a path from free cell `from` adds to reach
    /// target `k` (its cell counted; the end's point not), avoiding the
    /// other waypoints and the cells used so far, and the cells of one such
    /// path between `from` and the target (`INF` and none when no path).
    fn distance(&mut self, from: usize, k: usize) -> (u32, Vec<usize>) {
        let cb = self.cb;
        let n = cb.n();
        let goal = self.targets[k];
        let (dist, parent, queue) = (&mut self.dist, &mut self.parent, &mut self.queue);
        dist.fill(INF);
        queue.clear();
        dist[from] = 0;
        queue.push_back(from);
        while let Some(u) = queue.pop_front() {
            self.work += 1;
            for p in cb.moves[u].iter().flatten().copied() {
                if p == goal {
                    let mut path = Vec::with_capacity(dist[u] as usize);
                    let mut at = u;
                    while at != from {
                        path.push(at);
                        at = parent[at];
                    }
                    path.reverse();
                    let d = if goal < n { dist[u] + 1 } else { dist[u] };
                    return (d, path);
                }
                if p >= n || dist[p] != INF || self.waypoint[p] || self.used[p] {
                    continue;
                }
                dist[p] = dist[u] + 1;
                parent[p] = u;
                queue.push_back(p);
            }
        }
        (INF, Vec::new())
    }

    /// The distance of the parts after target `k` (from it on), as
    /// measured around the cells used so far.
    fn ahead(&self, k: usize) -> u32 {
        self.parts[k..]
            .iter()
            .fold(0u32, |t, &(d, _)| t.saturating_add(d).min(INF))
    }

    /// Marks free cell `p` used, measuring again each part after target
    /// `k` whose path runs through it; returns what it measured before,
    /// for [`Walk::release`].
    fn take(&mut self, p: usize, k: usize) -> Vec<(usize, (u32, Vec<usize>))> {
        self.used[p] = true;
        let mut old = Vec::new();
        for i in k..self.parts.len() {
            // Cells looked at count as work, as the searches' do.
            self.work += self.parts[i].1.len() as u64 + 1;
            if self.parts[i].1.contains(&p) {
                let again = self.distance(self.targets[i], i + 1);
                old.push((i, std::mem::replace(&mut self.parts[i], again)));
            }
        }
        old
    }

    /// Undoes [`Walk::take`].
    fn release(&mut self, p: usize, old: Vec<(usize, (u32, Vec<usize>))>) {
        self.used[p] = false;
        for (i, part) in old {
            self.parts[i] = part;
        }
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
    /// next target `k`; `false` when the work ran out. `witness`, when
    /// given, is a shortest path on to target `k` around the used cells
    /// (its cells after `u`), which spares the breadth-first search.
    fn extend(&mut self, u: usize, k: usize, len: u32, witness: Option<Vec<usize>>) -> bool {
        self.nodes += 1;
        let stopped = || {
            self.nodes.is_multiple_of(256) && self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
        };
        if self.work > self.work_cap || stopped() {
            return false;
        }
        let last = self.targets.len() - 1;
        let cheap = self.to_target[k][u].saturating_add(self.after[k]);
        if len.saturating_add(cheap) >= self.best {
            return true;
        }
        let n = self.cb.n();
        let goal = self.targets[k];
        let (here, witness) = match witness {
            Some(w) => (w.len() as u32 + u32::from(goal < n), w),
            None => self.distance(u, k),
        };
        let lower = here.saturating_add(self.ahead(k)).min(INF);
        if len.saturating_add(lower) >= self.best {
            return true;
        }
        if k == last && self.offer.is_none() {
            // On the last part the breadth-first distance around the used
            // cells is the fewest cells of a simple path: no need to walk it.
            self.best = len + lower;
            self.found = true;
            return true;
        }
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
            // Stepping on the witness's first cell leaves the rest of it a
            // shortest path from there (one cell shorter, and no path is).
            let on = (next == k && witness.first() == Some(&p)).then(|| witness[1..].to_vec());
            self.work += on.as_ref().map_or(1, |w| w.len() as u64 + 1);
            let old = self.take(p, next);
            let ok = self.extend(p, next, len + 1, on);
            self.release(p, old);
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

#[cfg(test)]
mod tests {
    use super::super::Landing;
    use super::*;
    use crate::parse::parse;

    /// The fewest cells of a simple path from `s` through `targets` in
    /// order (and no other waypoint) into the last, by trying every
    /// simple path: what the walk must find, with all its pruning.
    fn fewest_by_every_path(cb: &ChainBound, s: usize, targets: &[usize]) -> Option<u32> {
        fn go(
            cb: &ChainBound,
            u: usize,
            k: usize,
            targets: &[usize],
            waypoint: &[bool],
            used: &mut Vec<bool>,
            len: u32,
        ) -> Option<u32> {
            let mut best = None;
            for &p in cb.moves[u].iter().flatten() {
                let k2 = if p == targets[k] { k + 1 } else { k };
                if k2 == targets.len() {
                    best = best.min(Some(len)).or(Some(len));
                    continue;
                }
                if p >= cb.n() || used[p] || (waypoint[p] && p != targets[k]) {
                    continue;
                }
                used[p] = true;
                let r = go(cb, p, k2, targets, waypoint, used, len + 1);
                used[p] = false;
                best = match (best, r) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            best
        }
        let mut waypoint = vec![false; cb.n()];
        for w in &cb.waypoints {
            waypoint[w.cell] = true;
        }
        let mut used = vec![false; cb.n()];
        used[s] = true;
        let k = usize::from(targets.len() > 1 && targets[0] == s);
        if waypoint[s] && k == 0 {
            return None;
        }
        go(cb, s, k, targets, &waypoint, &mut used, 1)
    }

    /// On small boards whose toppers force the way round itself (three
    /// by hand, 600 drawn at random: 322 orders with a path), the walk
    /// finds the same fewest cells as trying every simple path, for every
    /// order of the waypoints (each subset of at most three) into the
    /// target. (It fails when the last part's distance is taken one too
    /// high.)
    #[test]
    fn the_walk_finds_the_fewest_cells_of_every_simple_path() {
        let mut levels = vec![
            "+>  .   .   .   .\n.   .   2^  .   .\n.   1>  .   .   .\n.   .   .   .   ->2\n".to_string(),
            ".   .   .   .\n+>  .   1v  .\n.   .   .   .\n2^  .   .   ->?\n.   4^  .   .\n".to_string(),
            "+v  .   .   .   .\n.   .   #   .   .\n.   1<  .   .   .\n.   .   .   2^  .\n.   ->? .   .   .\n".to_string(),
        ];
        levels.extend((0..600).map(random_board));
        let mut checked = 0;
        for text in &levels {
            let Ok(cb) = ChainBound::new(&parse(text).expect("parses")) else {
                continue;
            };
            let Landing::Free(s) = cb.starts[0] else {
                continue;
            };
            let ws: Vec<usize> = (0..cb.waypoints.len()).collect();
            let mut orders: Vec<Vec<usize>> = vec![Vec::new()];
            for _ in 0..3 {
                let longer: Vec<Vec<usize>> = orders
                    .iter()
                    .flat_map(|o| {
                        ws.iter()
                            .filter(|w| !o.contains(w))
                            .map(|&w| [o.clone(), vec![w]].concat())
                    })
                    .collect();
                orders.extend(longer);
                orders.dedup();
            }
            orders.sort();
            orders.dedup();
            for order in &orders {
                let end = End::Target(0);
                let mut targets: Vec<usize> = order.iter().map(|&w| cb.waypoints[w].cell).collect();
                targets.push(cb.end_point(end));
                let want = fewest_by_every_path(&cb, s, &targets);
                let got = match cb.search_simple_chain(s, order, end, INF, u64::MAX, None) {
                    Simple::Fewest(m) => Some(m),
                    Simple::AtLeastCap => None,
                    Simple::OutOfWork => panic!("no cap on the work"),
                };
                assert_eq!(got, want, "{text}order {order:?}");
                checked += usize::from(want.is_some());
            }
        }
        assert!(checked >= 300, "only {checked} orders have a path");
    }

    /// A random 5×4 board: a source on the left, a target that takes
    /// anything on the right, three toppers and a few walls.
    fn random_board(seed: u64) -> String {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut below = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (w, h) = (5, 4);
        let mut grid = vec![vec![".".to_string(); w]; h];
        grid[below(h as u64) as usize][0] = "+>".into();
        grid[below(h as u64) as usize][w - 1] = "->?".into();
        for kind in ["1", "2", "4"] {
            let (cx, cy) = (1 + below(3) as usize, below(h as u64) as usize);
            if grid[cy][cx] == "." {
                let d = ["^", "v", "<", ">"][below(4) as usize];
                grid[cy][cx] = format!("{kind}{d}");
            }
        }
        for _ in 0..below(3) {
            let (cx, cy) = (1 + below(3) as usize, below(h as u64) as usize);
            if grid[cy][cx] == "." {
                grid[cy][cx] = "#".into();
            }
        }
        grid.iter().map(|r| r.join("   ") + "\n").collect()
    }
}

//! The depth-first search over topologies: each chain's waypoints and end,
//! then where each open chain merges, until one topology under the limit
//! makes the level's deliveries.

use super::pair::{Pair, Part};
use super::simple::Simple;
use super::{Bound, ChainBound, End, Landing, INF};
use crate::grid::Kind;
use std::sync::atomic::{AtomicBool, Ordering};

/// The search ran out of its budget (or was stopped).
struct OutOfBudget;

/// How often (in steps) the search looks at its stop flag.
const STOP_EVERY: u64 = 64;

/// One chain of a topology.
#[derive(Clone, Debug)]
struct Chain {
    order: Vec<usize>,
    end: End,
    cost: u32,
}

/// The depth-first search over topologies.
pub(super) struct Search<'a> {
    cb: &'a ChainBound,
    /// Looking for a topology that costs less than this.
    limit: u32,
    /// The chain bound's work count at which the search gives up.
    until: u64,
    /// Set by another thread to make the search give up early.
    stop: Option<&'a AtomicBool>,
    /// Steps taken (the stop flag is looked at every [`STOP_EVERY`]).
    steps: u64,
    /// Where each chain starts (the sources' chains first, one per source,
    /// then one per exit of each fork reached, in the order they are
    /// reached).
    starts: Vec<Landing>,
    chains: Vec<Chain>,
    /// Per fork: its exits' chains (the first and how many), once a chain
    /// reaches it.
    children: Vec<Option<(usize, usize)>>,
    /// Per waypoint: the chains its bumpers push donuts onto (the first and
    /// how many), once a chain passes it.
    pushed: Vec<Option<(usize, usize)>>,
    found: Option<u32>,
    /// Whether a chain was priced by its plain cost because its simple
    /// paths ran out of work (or the search was stopped): a topology found
    /// then proves nothing, and the answer is [`Bound::OutOfBudget`].
    partial: bool,
}

impl<'a> Search<'a> {
    /// A search for a topology of `cb` with at most `k` belts, giving up
    /// once `budget` more work is done.
    pub(super) fn new(
        cb: &'a ChainBound,
        k: usize,
        budget: u64,
        stop: Option<&'a AtomicBool>,
    ) -> Search<'a> {
        Search {
            cb,
            limit: u32::try_from(k).unwrap_or(INF).min(INF - 1) + 1,
            until: cb.work.get().saturating_add(budget),
            stop,
            steps: 0,
            starts: cb.starts.clone(),
            chains: Vec::new(),
            children: vec![None; cb.fork_exits.len()],
            pushed: vec![None; cb.waypoints.len()],
            found: None,
            partial: false,
        }
    }

    /// Runs the search to its answer.
    pub(super) fn run(mut self) -> Bound {
        match self.chain(0, 0) {
            Err(OutOfBudget) => Bound::OutOfBudget,
            Ok(()) if self.found.is_some() && self.partial => Bound::OutOfBudget,
            Ok(()) => match self.found {
                Some(cost) => Bound::Allowed {
                    cost: cost as usize,
                },
                None => Bound::Refuted,
            },
        }
    }

    /// Counts one unit of work; fails once the budget is spent, or (looked
    /// at every [`STOP_EVERY`] steps) once the stop flag is set.
    fn step(&mut self) -> Result<(), OutOfBudget> {
        let work = &self.cb.work;
        work.set(work.get() + 1);
        self.steps += 1;
        let stopped = || {
            self.steps.is_multiple_of(STOP_EVERY)
                && self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
        };
        if work.get() > self.until || stopped() {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    /// Chooses chain `i`'s waypoints and end, then the next chain's; at
    /// the last chain, where each open chain merges. Stops at the first
    /// topology under the limit that makes the deliveries.
    fn chain(&mut self, i: usize, cost: u32) -> Result<(), OutOfBudget> {
        if self.found.is_some() {
            return Ok(());
        }
        if i == self.starts.len() {
            return self.merges(cost);
        }
        let used: Vec<bool> = {
            let mut u = vec![false; self.cb.waypoints.len()];
            for c in &self.chains {
                for &w in &c.order {
                    u[w] = true;
                }
            }
            u
        };
        let mut options = Vec::new();
        match self.starts[i] {
            Landing::Invalid => options.push(Chain {
                order: Vec::new(),
                end: End::Open,
                cost: 0,
            }),
            Landing::Fork(z) => options.push(Chain {
                order: Vec::new(),
                end: End::Fork(z),
                cost: 0,
            }),
            Landing::Target(t) => options.push(Chain {
                order: Vec::new(),
                end: End::Target(t),
                cost: 0,
            }),
            Landing::Free(s) => {
                let mut order = Vec::new();
                self.orders(s, &used, &mut order, cost, &mut options)?;
            }
        }
        // Chains that end somewhere first (a topology of open chains alone
        // delivers nothing), each group the cheapest first.
        options.sort_by_key(|c| (c.end == End::Open, c.cost));
        for mut ch in options {
            if cost + ch.cost >= self.limit {
                continue;
            }
            if let (true, Landing::Free(s)) = (self.cb.simple_paths, self.starts[i]) {
                if ch.end != End::Open {
                    match self.simple_cost(s, &ch, cost) {
                        Some(c) => ch.cost = c,
                        None => continue,
                    }
                }
            }
            let opened = match ch.end {
                End::Fork(z) if self.children[z].is_none() => {
                    let exits = &self.cb.fork_exits[z];
                    self.children[z] = Some((self.starts.len(), exits.len()));
                    self.starts.extend(exits.iter().copied());
                    Some((z, exits.len()))
                }
                _ => None,
            };
            let pushing = self.starts.len();
            self.open_pushes(&ch.order);
            let c = ch.cost;
            self.chains.push(ch);
            self.chain(i + 1, cost + c)?;
            let ch = self.chains.pop().expect("pushed above");
            ch.order.iter().for_each(|&w| self.pushed[w] = None);
            self.starts.truncate(pushing);
            if let Some((z, exits)) = opened {
                self.children[z] = None;
                self.starts.truncate(self.starts.len() - exits);
            }
            if self.found.is_some() {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Starts a chain at each landing of the bumpers working on the
    /// waypoints of `order` (a chain passing such a cell sends the donuts
    /// of a bumper's kind there).
    fn open_pushes(&mut self, order: &[usize]) {
        for &w in order {
            let pushes = &self.cb.waypoints[w].pushes;
            if !pushes.is_empty() {
                self.pushed[w] = Some((self.starts.len(), pushes.len()));
                self.starts.extend(pushes.iter().map(|&(_, l)| l));
            }
        }
    }

    /// The cost of chain `ch` from free cell `s` priced by simple paths
    /// (its own cost when the search runs out of work, which makes the
    /// search's answer undecided), or `None` when it cannot fit under the
    /// limit with `cost` spent.
    fn simple_cost(&mut self, s: usize, ch: &Chain, cost: u32) -> Option<u32> {
        let cb = self.cb;
        let work_cap = self.until.saturating_sub(cb.work.get());
        let cap = self.limit - cost;
        match cb.simple_chain(s, &ch.order, ch.end, ch.cost, cap, work_cap, self.stop) {
            Simple::Fewest(m) => Some(ch.cost.max(m)),
            Simple::AtLeastCap => None,
            Simple::OutOfWork => {
                self.partial = true;
                Some(ch.cost)
            }
        }
    }

    /// Every waypoint order (extending `order`) and end for a chain from
    /// free cell `s` that fits under the limit.
    fn orders(
        &mut self,
        s: usize,
        used: &[bool],
        order: &mut Vec<usize>,
        cost: u32,
        out: &mut Vec<Chain>,
    ) -> Result<(), OutOfBudget> {
        let cb = self.cb;
        let mut ends = vec![End::Open];
        ends.extend((0..cb.fork_exits.len()).map(End::Fork));
        ends.extend((0..cb.targets.len()).map(End::Target));
        for end in ends {
            self.step()?;
            let c = cb.chain_cost(s, order, end, &[]);
            if cost + c < self.limit {
                out.push(Chain {
                    order: order.clone(),
                    end,
                    cost: c,
                });
            }
            // Any longer order costs at least the open end of this one.
            if end == End::Open && !order.is_empty() && cost + c >= self.limit {
                return Ok(());
            }
        }
        for w in 0..cb.waypoints.len() {
            if used[w] || order.contains(&w) {
                continue;
            }
            order.push(w);
            self.orders(s, used, order, cost, out)?;
            order.pop();
        }
        Ok(())
    }

    /// Chooses where each open chain goes (into a segment of another
    /// chain, or nowhere), recomputing the costs of the chains merged into.
    fn merges(&mut self, cost: u32) -> Result<(), OutOfBudget> {
        let open: Vec<usize> = (0..self.chains.len())
            .filter(|&i| {
                self.chains[i].end == End::Open && matches!(self.starts[i], Landing::Free(_))
            })
            .collect();
        if !self.delivers_with_every_merge(&open) {
            // No choice of merges can make the deliveries.
            return self.step();
        }
        let tails: Vec<Vec<u32>> = open
            .iter()
            .map(|&i| self.cb.tail(self.starts[i], &self.chains[i].order))
            .collect();
        let mut into: Vec<Option<(usize, usize)>> = vec![None; self.chains.len()];
        let costs: Vec<u32> = self.chains.iter().map(|c| c.cost).collect();
        self.place(&open, &tails, 0, &mut into, costs, cost)
    }

    /// Whether the deliveries can be made when each open chain merges
    /// into every segment it may merge into at once: a superset of the
    /// deliveries of every single choice, and the requirements only ask
    /// for more deliveries, so when this fails, every choice fails.
    fn delivers_with_every_merge(&self, open: &[usize]) -> bool {
        let mut into = vec![Vec::new(); self.chains.len()];
        for &i in open {
            for j in 0..self.chains.len() {
                if matches!(self.starts[j], Landing::Free(_)) {
                    into[i].extend(self.segments_to_merge(i, j).map(|a| (j, a)));
                }
            }
        }
        // Each open chain may instead be dead, and strand its donuts.
        self.delivers_along(&into, !open.is_empty())
    }

    /// The segments of chain `j` that open chain `i` may merge into: any
    /// of another chain; of its own, with bumpers only, and only one
    /// before a waypoint (a donut that comes back into the segment after
    /// the last waypoint moves round a loop that nothing changes, and
    /// without bumpers round any loop for ever: such a chain is dead).
    fn segments_to_merge(&self, i: usize, j: usize) -> std::ops::Range<usize> {
        let len = self.chains[j].order.len();
        match (i == j, self.cb.bumpers) {
            (false, _) => 0..len + 1,
            (true, true) => 0..len,
            (true, false) => 0..0,
        }
    }

    /// The cost of the topology with every two chains that end in a fork
    /// or a target, at most one of which other chains merge into, priced
    /// together ([`ChainBound::pair_below`]); `None` when some two cannot
    /// fit under the limit with the other chains' costs.
    fn priced_in_pairs(
        &mut self,
        open: &[usize],
        tails: &[Vec<u32>],
        into: &[Option<(usize, usize)>],
        costs: &[u32],
        cost: u32,
    ) -> Result<Option<u32>, OutOfBudget> {
        if !self.cb.pairs {
            return Ok(Some(cost));
        }
        let ending: Vec<(usize, usize)> = (0..self.chains.len())
            .filter_map(|i| match self.starts[i] {
                Landing::Free(s) if self.chains[i].end != End::Open => Some((i, s)),
                _ => None,
            })
            .collect();
        let merged: Vec<_> = ending
            .iter()
            .map(|&(i, _)| self.merging_into(i, open, tails, into))
            .collect();
        let mut raised = cost;
        for (x, &(i, si)) in ending.iter().enumerate() {
            for (y, &(j, sj)) in ending.iter().enumerate().skip(x + 1) {
                self.step()?;
                let part = |k: usize, start: usize, tails| Part {
                    start,
                    order: &self.chains[k].order,
                    end: self.chains[k].end,
                    cost: costs[k],
                    tails,
                };
                let (a, b) = (part(i, si, &merged[x][..]), part(j, sj, &merged[y][..]));
                if !a.tails.is_empty() && !b.tails.is_empty() {
                    continue;
                }
                let rest = cost - costs[i] - costs[j];
                let work_cap = self.until.saturating_sub(self.cb.work.get());
                let cap = self.limit - rest;
                match self.cb.pair_below(&a, &b, cap, work_cap, self.stop) {
                    Pair::Below(t) => raised = raised.max(rest + t),
                    Pair::AtLeastCap => return Ok(None),
                    Pair::OutOfWork => return Err(OutOfBudget),
                }
            }
        }
        Ok(Some(raised))
    }

    /// The tails of the open chains merging into each segment of chain
    /// `j` (see [`ChainBound::chain_cost`]); empty when none merges into it.
    fn merging_into<'t>(
        &self,
        j: usize,
        open: &[usize],
        tails: &'t [Vec<u32>],
        into: &[Option<(usize, usize)>],
    ) -> Vec<Vec<&'t [u32]>> {
        let mut segs: Vec<Vec<&[u32]>> = Vec::new();
        for (kk, &o) in open.iter().enumerate() {
            if let Some((jj, aa)) = into[o] {
                if jj == j {
                    segs.resize(self.chains[j].order.len() + 1, Vec::new());
                    segs[aa].push(&tails[kk]);
                }
            }
        }
        segs
    }

    fn place(
        &mut self,
        open: &[usize],
        tails: &[Vec<u32>],
        k: usize,
        into: &mut Vec<Option<(usize, usize)>>,
        costs: Vec<u32>,
        cost: u32,
    ) -> Result<(), OutOfBudget> {
        if cost >= self.limit || self.found.is_some() {
            return Ok(());
        }
        self.step()?;
        if k == open.len() {
            if self.delivers(into) {
                self.found = self.priced_in_pairs(open, tails, into, &costs, cost)?;
            }
            return Ok(());
        }
        let i = open[k];
        // Dead: goes nowhere.
        into[i] = None;
        self.place(open, tails, k + 1, into, costs.clone(), cost)?;
        for j in 0..self.chains.len() {
            let Landing::Free(sj) = self.starts[j] else {
                continue;
            };
            for a in self.segments_to_merge(i, j) {
                into[i] = Some((j, a));
                let segs = self.merging_into(j, open, tails, into);
                self.step()?;
                let cj = self
                    .cb
                    .chain_cost(sj, &self.chains[j].order, self.chains[j].end, &segs);
                if cj >= INF {
                    continue;
                }
                let mut next = costs.clone();
                next[j] = cj;
                let total = cost - costs[j] + cj;
                self.place(open, tails, k + 1, into, next, total)?;
                if self.found.is_some() {
                    return Ok(());
                }
            }
        }
        into[i] = None;
        Ok(())
    }

    /// Whether the topology, with every exit of every fork taken and
    /// every merge followed, brings each target an accepted donut, lets
    /// every source deliver, and lets as many sources deliver each kind as
    /// `:targets` names it (each (source, kind) pair counts once).
    fn delivers(&self, into: &[Option<(usize, usize)>]) -> bool {
        let dead = |i: usize| {
            self.chains[i].end == End::Open
                && matches!(self.starts[i], Landing::Free(_))
                && into[i].is_none()
        };
        let may_strand = (0..self.chains.len()).any(dead);
        let into: Vec<Vec<(usize, usize)>> =
            into.iter().map(|m| m.iter().copied().collect()).collect();
        self.delivers_along(&into, may_strand)
    }

    /// [`Search::delivers`], where each open chain `i` goes on into every
    /// segment `(j, a)` of `into[i]`, and some open chain is dead (which
    /// may strand a donut and end the run early) when `may_strand`.
    fn delivers_along(&self, into: &[Vec<(usize, usize)>], may_strand: bool) -> bool {
        let cb = self.cb;
        let mut got = vec![false; cb.targets.len()];
        let sources = cb.starts.len();
        let kinds: Vec<[bool; Kind::COUNT]> = (0..sources)
            .map(|s| self.kinds_delivered(s, into, &mut got))
            .collect();
        let asked = cb.required.iter().any(|&m| m > 0);
        let delivers = |k: &[bool; Kind::COUNT]| {
            (0..Kind::COUNT).any(|i| k[i] && (!asked || cb.required[i] > 0))
        };
        let enough = |i: usize| kinds.iter().filter(|k| k[i]).count() >= cb.required[i];
        got.iter().all(|&g| g)
            && kinds.iter().all(delivers)
            && (0..Kind::COUNT).all(enough)
            && self.first_deliveries_fit(into, may_strand)
    }

    /// Whether the sources' first deliveries fit the targets and
    /// `:targets`, for each source whose first deliveries are known
    /// ([`Search::first_deliveries`]): each of them can have a kind its
    /// target accepts (and `:targets` names), and no kind is the only one
    /// possible for more sources than `:targets` names it (each of those
    /// sources delivers that kind, and each (source, kind) pair counts
    /// once).
    fn first_deliveries_fit(&self, into: &[Vec<(usize, usize)>], may_strand: bool) -> bool {
        let cb = self.cb;
        let asked = cb.required.iter().any(|&m| m > 0);
        let mut forced = [0; Kind::COUNT];
        for s in 0..cb.starts.len() {
            let Some((t, deliveries)) = self.first_deliveries(s, into, may_strand) else {
                continue;
            };
            let fits =
                |k: &Kind| cb.targets[t].accepts(*k) && (!asked || cb.required[k.index()] > 0);
            if !deliveries.iter().all(|kinds| kinds.iter().any(fits)) {
                return false;
            }
            let mut only = [false; Kind::COUNT];
            for kinds in &deliveries {
                if let [k] = kinds[..] {
                    only[k.index()] = true;
                }
            }
            for i in 0..Kind::COUNT {
                forced[i] += usize::from(only[i]);
            }
        }
        !asked || (0..Kind::COUNT).all(|i| forced[i] <= cb.required[i])
    }

    /// The target of source `s`'s first deliveries and, for each, the
    /// kinds it can have, when they are known: the level has no crossover,
    /// chain `s` ends in a target, no open chain merges into it and no
    /// other chain ends in that target. Then no other donut enters the
    /// cells its donuts pass (every cell a chain owns is its own; other
    /// streams that share the preset belts or a teleporter on its way come
    /// onto its cells, which is a merge, or into its target, which is an
    /// end there), nothing is ahead of its first donut (plain), which
    /// never waits and is topped by the toppers it passes once each, and
    /// its donuts arrive in the order they left. A solution's run delivers
    /// some donut of `s`, so it delivers that first donut, of one of these
    /// kinds, to that target (a topped cell it only passes would be a pass,
    /// a fork, so the chain passes none).
    ///
    /// When no open chain is dead (`may_strand` false), no donut strands,
    /// so the run ends only by failing or by repeating its state. The
    /// donuts of `s` all move every tick, each topped once by each topper
    /// it passes, and an any-source's cycle repeats every five ticks, so
    /// its state repeats only after five donuts in a row, one of each kind
    /// it emits, have been delivered: all of them are known deliveries.
    fn first_deliveries(
        &self,
        s: usize,
        into: &[Vec<(usize, usize)>],
        may_strand: bool,
    ) -> Option<(usize, Vec<Vec<Kind>>)> {
        let cb = self.cb;
        let End::Target(t) = self.chains[s].end else {
            return None;
        };
        let merged_into = into.iter().flatten().any(|&(j, _)| j == s);
        let shared_end =
            (0..self.chains.len()).any(|j| j != s && self.chains[j].end == End::Target(t));
        if !cb.first_deliveries || merged_into || shared_end {
            return None;
        }
        let emitted = match may_strand {
            true => &[Kind::PLAIN][..],
            false => cb.emits[s],
        };
        let deliveries = emitted.iter().map(|&k| self.delivered_as(s, k)).collect();
        Some((t, deliveries))
    }

    /// The kinds a donut of kind `k` on chain `s` can have when it arrives,
    /// moving every tick.
    fn delivered_as(&self, s: usize, k: Kind) -> Vec<Kind> {
        let cb = self.cb;
        let mut kinds = vec![k];
        for &wp in &self.chains[s].order {
            let mut topped = Vec::new();
            for &k in &kinds {
                leaving_waypoint(k, &cb.waypoints[wp].kinds, |k2| {
                    if !topped.contains(&k2) {
                        topped.push(k2);
                    }
                });
            }
            kinds = topped;
        }
        kinds
    }

    /// The kinds the topology lets source `s` deliver (its donuts start on
    /// chain `s` with every kind it emits), marking in `got` the targets
    /// they reach.
    fn kinds_delivered(
        &self,
        s: usize,
        into: &[Vec<(usize, usize)>],
        got: &mut [bool],
    ) -> [bool; Kind::COUNT] {
        let cb = self.cb;
        let w = cb.waypoints.len() + 1;
        let idx = |i: usize, a: usize, k: Kind| (i * w + a) * Kind::COUNT + k.index();
        let mut seen = vec![false; self.chains.len() * w * Kind::COUNT];
        let mut stack: Vec<(usize, usize, Kind)> = cb.emits[s].iter().map(|&k| (s, 0, k)).collect();
        let mut kinds = [false; Kind::COUNT];
        while let Some((i, a, k)) = stack.pop() {
            if std::mem::replace(&mut seen[idx(i, a, k)], true) {
                continue;
            }
            let ch = &self.chains[i];
            if let Some(&wp) = ch.order.get(a) {
                let pushes = &cb.waypoints[wp].pushes;
                let pushed = self.pushed[wp];
                leaving_waypoint(k, &cb.waypoints[wp].kinds, |k2| {
                    // The first bumper whose kind matches pushes it onto
                    // its own chain; no bumper, and it goes the belt's way.
                    match (pushes.iter().position(|&(b, _)| b == k2), pushed) {
                        (Some(x), Some((first, _))) => stack.push((first + x, 0, k2)),
                        _ => stack.push((i, a + 1, k2)),
                    }
                });
                continue;
            }
            match ch.end {
                End::Target(t) => {
                    if cb.targets[t].accepts(k) {
                        got[t] = true;
                        kinds[k.index()] = true;
                    }
                }
                // The toppers working on the fork's cell may act on the
                // donut there, or not (it may not stand there at the end
                // of a tick), as often as it waits.
                End::Fork(z) => {
                    if let Some((first, n)) = self.children[z] {
                        let exits = |k2| (first..first + n).map(move |c| (c, 0, k2));
                        match &cb.fork_tops[z][..] {
                            [] => stack.extend(exits(k)),
                            tops => topped(k, tops)
                                .into_iter()
                                .for_each(|k2| stack.extend(exits(k2))),
                        }
                    }
                }
                End::Open => stack.extend(into[i].iter().map(|&(j, a2)| (j, a2, k))),
            }
        }
        kinds
    }
}

/// Calls `each` with every kind a donut of kind `k` can leave a waypoint
/// with, whose toppers make `tops`. One topper tops a donut of the kind
/// before its own, once (a donut that waits meets it again, as its own
/// kind). Several may act in turn, as often as the donut waits there, so
/// every kind they can make is given.
fn leaving_waypoint(k: Kind, tops: &[Kind], mut each: impl FnMut(Kind)) {
    match *tops {
        [top] => each(if top.prev() == Some(k) { top } else { k }),
        _ => topped(k, tops).into_iter().for_each(each),
    }
}

/// `k` and every kind the toppers making `tops` can turn it into, acting
/// in any order, any number of times.
fn topped(k: Kind, tops: &[Kind]) -> Vec<Kind> {
    let mut out = vec![k];
    let mut j = 0;
    while let Some(&x) = out.get(j) {
        for &t in tops {
            if t.prev() == Some(x) && !out.contains(&t) {
                out.push(t);
            }
        }
        j += 1;
    }
    out
}

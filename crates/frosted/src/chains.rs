//! The chain bound: a lower bound on the belts of every solution, proved
//! without a SAT solver, for levels with one plain source and no bumpers,
//! crossovers, preset belts, any-sources or teleporters with several outs.
//!
//! On such a board a donut on a belt always goes the belt's way, whatever
//! its kind, so a layout is a set of *chains*: the source's chain follows the
//! belts from the source until it reaches a splitter, a target, a cell an
//! earlier chain owns (it *merges* there), or nothing more (a strand, a loop
//! into itself, an invalid move: it is *dead*); each splitter that a chain
//! reaches starts two chains, one at each exit. Chains own disjoint free
//! cells, every one of which holds a belt, so the belts are at least the sum
//! of the chains' lengths. A chain's length is at least the length of the
//! shortest path from its start through the topped cells it owns, in its
//! order, to its end, and a simple path enters and leaves a topped cell
//! through two different neighbours. Where another chain merges into it, the
//! two together are at least a shortest path that passes the merge cell.
//!
//! The bound is the least such total over every *topology*: which splitters
//! are reached, which topped cells each chain owns and in which order, how
//! each chain ends and where each merge lands, among the topologies whose
//! donuts could make the level's deliveries (both exits of every splitter
//! taken, every merge followed). The topology of a real solution is among
//! them and costs no more than its belts, so no layout with fewer belts than
//! the bound solves the level. `encodings/README.md` ("The chain bound")
//! gives the argument in full; `tests/chain_bound.rs` checks it against
//! brute force and against the known solutions.

use crate::grid::{CellId, Dir, Kind};
use crate::level::{Accepts, Level, Tile};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// A distance no path reaches.
const INF: u32 = u32::MAX / 4;

/// At most this many topped cells: the topologies grow with their
/// permutations.
const MAX_WAYPOINTS: usize = 10;

/// Where a donut moving from a cell lands: a free cell, the entry of a
/// splitter or of a target, or somewhere the rules refuse (off the grid, a
/// wall, a splitter or target entered the wrong way, a teleporter loop).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Landing {
    Free(usize),
    Splitter(usize),
    Target(usize),
    Invalid,
}

/// How a chain ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum End {
    /// In a splitter (its index).
    Splitter(usize),
    /// In a target (its index).
    Target(usize),
    /// On a cell of another chain, or nowhere (dead).
    Open,
}

/// The answer to "can a solution have at most `k` belts?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No: every topology costs more than `k`.
    Refuted,
    /// The bound allows it: a topology that makes the deliveries costs
    /// `cost` ≤ `k`.
    Allowed { cost: usize },
    /// The search ran out of its budget of work.
    OutOfBudget,
}

/// A topped cell: a free cell that a topper works on.
#[derive(Clone, Debug)]
struct Waypoint {
    cell: usize,
    kind: Kind,
    /// Where a belt on it can send a donut (not `Invalid`).
    succ: Vec<Landing>,
    /// The free cells from which a belt leads onto it.
    pred: Vec<usize>,
}

/// An exclusion set for a path: at most two free cells (`NONE` pads).
type Excl = [u32; 2];
const NONE: u32 = u32::MAX;

/// Distances already measured: per (point, exclusion set, forward).
type DistCache = RefCell<HashMap<(usize, Excl, bool), Rc<Vec<u32>>>>;

/// A level seen as chains, ready to bound.
pub struct ChainBound {
    /// Free cells, indexed densely.
    free: Vec<CellId>,
    /// Per free cell, the point a belt each way sends a donut to (none for
    /// a refused move).
    moves: Vec<[Option<usize>; 4]>,
    /// Per point (free cells, then splitters, then targets): the free cells
    /// whose belt can lead there.
    back: Vec<Vec<usize>>,
    waypoints: Vec<Waypoint>,
    /// Per splitter: where its left and right exits send a donut.
    splitter_exits: Vec<[Landing; 2]>,
    /// Per target: what it accepts.
    targets: Vec<Accepts>,
    /// Where the source's donuts land.
    start: Landing,
    /// The kinds `:targets` asks for (each at most once with one source).
    required: Vec<Kind>,
    /// Forward (`true`) and backward distances, per point and exclusion set.
    cache: DistCache,
    /// Work done so far, in cells looked at (for the budget).
    work: Cell<u64>,
}

impl ChainBound {
    /// The chain view of `level`, or why the bound does not apply to it.
    pub fn new(level: &Level) -> Result<ChainBound, String> {
        let shape = level.shape;
        let mut sources = Vec::new();
        for c in shape.cells() {
            match level.tile(c) {
                Tile::Belt(_) => return Err("preset belts".into()),
                Tile::Bumper { .. } => return Err("bumpers".into()),
                Tile::Crossover => return Err("crossovers".into()),
                Tile::AnySource(_) => return Err("an any-source".into()),
                Tile::Source(d) => sources.push((c, d)),
                Tile::TeleIn(ch) if level.tele_outs(ch).count() != 1 => {
                    return Err("a teleporter with several outs".into());
                }
                _ => {}
            }
        }
        let [(source, source_dir)] = sources[..] else {
            return Err(format!("{} sources", sources.len()));
        };
        let free: Vec<CellId> = level.free_cells().collect();
        let mut slot = vec![usize::MAX; shape.len()];
        for (i, c) in free.iter().enumerate() {
            slot[c.index()] = i;
        }
        let splitters: Vec<CellId> = shape
            .cells()
            .filter(|&c| matches!(level.tile(c), Tile::Splitter(_)))
            .collect();
        let targets: Vec<CellId> = level.targets().collect();
        let index_of = |list: &[CellId], c: CellId| list.iter().position(|&x| x == c);
        let land = |from: CellId, d: Dir| -> Landing {
            let (mut from, mut d) = (from, d);
            for _ in 0..=shape.len() {
                let Some(to) = shape.step(from, d) else {
                    return Landing::Invalid;
                };
                match level.tile(to) {
                    Tile::Empty => return Landing::Free(slot[to.index()]),
                    Tile::Splitter(f) if f == d => {
                        return Landing::Splitter(index_of(&splitters, to).unwrap_or(0))
                    }
                    Tile::Target { dir, .. } if dir == d => {
                        return Landing::Target(index_of(&targets, to).unwrap_or(0))
                    }
                    Tile::TeleIn(ch) => match level.tele_outs(ch).next() {
                        Some(out) => match level.tile(out) {
                            Tile::TeleOut(_, od) => (from, d) = (out, od),
                            _ => return Landing::Invalid,
                        },
                        None => return Landing::Invalid,
                    },
                    _ => return Landing::Invalid,
                }
            }
            // A ring of teleporters: the donut never reaches a free cell.
            Landing::Invalid
        };
        let moves: Vec<[Landing; 4]> = free.iter().map(|&c| Dir::ALL.map(|d| land(c, d))).collect();
        let n = free.len();
        let point = |l: Landing| match l {
            Landing::Free(i) => Some(i),
            Landing::Splitter(z) => Some(n + z),
            Landing::Target(t) => Some(n + splitters.len() + t),
            Landing::Invalid => None,
        };
        let mut back = vec![Vec::new(); n + splitters.len() + targets.len()];
        for (i, m) in moves.iter().enumerate() {
            for p in m.iter().filter_map(|&l| point(l)) {
                if !back[p].contains(&i) {
                    back[p].push(i);
                }
            }
        }
        let mut worked = vec![false; n];
        let mut waypoints = Vec::new();
        for c in shape.cells() {
            let Tile::Topper { kind, dir } = level.tile(c) else {
                continue;
            };
            let Some(w) = shape.step(c, dir) else {
                continue;
            };
            match level.tile(w) {
                Tile::Empty => {
                    let i = slot[w.index()];
                    if std::mem::replace(&mut worked[i], true) {
                        return Err("two toppers working on one cell".into());
                    }
                    let mut succ: Vec<Landing> = moves[i]
                        .iter()
                        .copied()
                        .filter(|&l| l != Landing::Invalid)
                        .collect();
                    succ.dedup();
                    waypoints.push(Waypoint {
                        cell: i,
                        kind,
                        succ,
                        pred: back[i].clone(),
                    });
                }
                // Cells that never hold a donut.
                Tile::Block
                | Tile::Source(_)
                | Tile::AnySource(_)
                | Tile::Topper { .. }
                | Tile::Bumper { .. } => {}
                _ => return Err("a topper working on an entity".into()),
            }
        }
        if waypoints.len() > MAX_WAYPOINTS {
            return Err(format!("{} topped cells", waypoints.len()));
        }
        let splitter_exits = splitters
            .iter()
            .map(|&z| match level.tile(z) {
                Tile::Splitter(f) => [land(z, f.turn_left()), land(z, f.turn_right())],
                _ => [Landing::Invalid; 2],
            })
            .collect();
        let accepts = targets
            .iter()
            .map(|&t| match level.tile(t) {
                Tile::Target { accepts, .. } => accepts,
                _ => Accepts::Any,
            })
            .collect();
        let mut required: Vec<Kind> = level.flags.targets.clone().unwrap_or_default();
        required.sort();
        required.dedup();
        Ok(ChainBound {
            start: land(source, source_dir),
            free,
            moves: moves.iter().map(|m| m.map(point)).collect(),
            back,
            waypoints,
            splitter_exits,
            targets: accepts,
            required,
            cache: RefCell::new(HashMap::new()),
            work: Cell::new(0),
        })
    }

    /// Whether a solution can have at most `k` belts, as far as the bound
    /// sees; `budget` caps the work of the search, in cells looked at (by
    /// the distances it measures and the merge points it tries) plus one
    /// per topology and chain cost tried, so that it bounds the time on
    /// large boards as on small ones.
    pub fn allows(&self, k: usize, budget: u64) -> Bound {
        let mut s = Search {
            cb: self,
            limit: u32::try_from(k).unwrap_or(INF).min(INF - 1) + 1,
            until: self.work.get().saturating_add(budget),
            starts: vec![self.start],
            chains: Vec::new(),
            children: vec![None; self.splitter_exits.len()],
            found: None,
        };
        match s.chain(0, 0) {
            Err(OutOfBudget) => Bound::OutOfBudget,
            Ok(()) => match s.found {
                Some(cost) => Bound::Allowed {
                    cost: cost as usize,
                },
                None => Bound::Refuted,
            },
        }
    }

    /// The work done by every search so far (the unit of the budget).
    pub fn work(&self) -> u64 {
        self.work.get()
    }

    fn n(&self) -> usize {
        self.free.len()
    }

    /// The point index of a splitter's or a target's entry.
    fn end_point(&self, e: End) -> usize {
        match e {
            End::Splitter(z) => self.n() + z,
            End::Target(t) => self.n() + self.splitter_exits.len() + t,
            End::Open => unreachable!("an open end is no point"),
        }
    }

    /// Moves from free cell `a` to every point (free cells, then splitters
    /// and targets), never through the cells of `excl`; backwards
    /// (`forward` false): moves from every free cell to point `a`.
    fn dist(&self, a: usize, excl: Excl, forward: bool) -> Rc<Vec<u32>> {
        if let Some(d) = self.cache.borrow().get(&(a, excl, forward)) {
            return d.clone();
        }
        let n = self.n();
        self.work.set(self.work.get() + self.back.len() as u64);
        let blocked = |i: usize| excl.contains(&(i as u32));
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
                        if q < n {
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
                        queue.push_back(q);
                    }
                }
            }
        }
        let d = Rc::new(dist);
        self.cache
            .borrow_mut()
            .insert((a, excl, forward), d.clone());
        d
    }

    /// Moves from free cell `a` to point `b` avoiding `excl`.
    fn dx(&self, a: usize, b: usize, excl: Excl) -> u32 {
        self.dist(a, excl, true)[b]
    }

    /// The least, over free cells `x` outside `excl`, of the moves from `a`
    /// to `x`, then from `x` to `b` (none if `b` is `None`), plus `plus` and
    /// the merging chain's own cells up to `x` (`tail[x]`).
    fn via(&self, a: usize, b: Option<usize>, excl: Excl, tail: &[u32], plus: u32) -> u32 {
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

    /// The fewest free cells a chain from free cell `s` owns when it passes
    /// the waypoints `order` in that order and ends at `end`, and, for each
    /// segment `a` (before waypoint `a`, or after the last), the chains in
    /// `tails[a]` merge into it (each `tail[x]`: the merging chain's own
    /// cells up to a merge on `x`).
    fn chain_cost(&self, s: usize, order: &[usize], end: End, tails: &[Vec<&[u32]>]) -> u32 {
        let seg = |plain: u32, a: usize, st: &dyn Fn(&[u32]) -> u32| -> u32 {
            match tails.get(a) {
                Some(ts) if !ts.is_empty() => ts.iter().map(|t| st(t)).max().unwrap_or(plain),
                _ => plain,
            }
        };
        let e1 = |w: usize| [w as u32, NONE];
        if order.is_empty() {
            return match end {
                End::Open => seg(0, 0, &|t| self.via(s, None, [NONE; 2], t, 1)),
                _ => {
                    let b = self.end_point(end);
                    let plain = self.dx(s, b, [NONE; 2]);
                    if plain >= INF {
                        return INF;
                    }
                    seg(plain, 0, &|t| self.via(s, Some(b), [NONE; 2], t, 0))
                }
            };
        }
        // `cur`: per way out of the last waypoint passed, the least cost so far.
        let mut cur: Vec<(Landing, u32)> = Vec::new();
        let push = |v: &mut Vec<(Landing, u32)>, l: Landing, c: u32| {
            if c >= INF {
                return;
            }
            match v.iter_mut().find(|(m, _)| *m == l) {
                Some(e) => e.1 = e.1.min(c),
                None => v.push((l, c)),
            }
        };
        let first = &self.waypoints[order[0]];
        let w1 = first.cell;
        if s == w1 {
            let c = seg(0, 0, &|t| t[w1]);
            for &r in &first.succ {
                push(&mut cur, r, c);
            }
        } else {
            for &q in &first.pred {
                let d0 = self.dx(s, q, e1(w1));
                if d0 >= INF {
                    continue;
                }
                let plain = d0 + 1;
                let c = seg(plain, 0, &|t| {
                    (plain + t[w1]).min(self.via(s, Some(q), e1(w1), t, 1))
                });
                for &r in &first.succ {
                    if r != Landing::Free(q) {
                        push(&mut cur, r, c);
                    }
                }
            }
        }
        for a in 1..order.len() {
            let w = self.waypoints[order[a - 1]].cell;
            let next = &self.waypoints[order[a]];
            let w2 = next.cell;
            let ex = [w as u32, w2 as u32];
            let mut nxt = Vec::new();
            for &(r, c0) in &cur {
                let Landing::Free(rc) = r else { continue };
                for &q in &next.pred {
                    let c = if rc == w2 {
                        if q != w {
                            continue;
                        }
                        c0 + seg(1, a, &|t| 1 + t[w2])
                    } else {
                        if q == w || q == w2 {
                            continue;
                        }
                        let d = self.dx(rc, q, ex);
                        if d >= INF {
                            continue;
                        }
                        let plain = d + 2;
                        c0 + seg(plain, a, &|t| {
                            (plain + t[w2]).min(1 + self.via(rc, Some(q), ex, t, 1))
                        })
                    };
                    for &r2 in &next.succ {
                        if r2 != Landing::Free(q) {
                            push(&mut nxt, r2, c);
                        }
                    }
                }
            }
            cur = nxt;
        }
        let m = order.len();
        let wm = self.waypoints[order[m - 1]].cell;
        let mut best = INF;
        for &(r, c0) in &cur {
            let c = match (end, r) {
                (End::Open, Landing::Free(rc)) => {
                    c0 + seg(1, m, &|t| {
                        (1 + t[wm]).min(1 + self.via(rc, None, e1(wm), t, 1))
                    })
                }
                (End::Open, _) => c0 + seg(1, m, &|t| 1 + t[wm]),
                (End::Splitter(z), Landing::Splitter(y)) if z == y => c0 + seg(1, m, &|_| INF),
                (End::Target(z), Landing::Target(y)) if z == y => c0 + seg(1, m, &|_| INF),
                (_, Landing::Free(rc)) => {
                    let b = self.end_point(end);
                    let d = self.dx(rc, b, e1(wm));
                    if d >= INF {
                        continue;
                    }
                    c0 + seg(1 + d, m, &|t| 1 + self.via(rc, Some(b), e1(wm), t, 0))
                }
                _ => continue,
            };
            best = best.min(c);
        }
        best.min(INF)
    }

    /// A merging chain's own cells up to a merge on each free cell.
    fn tail(&self, start: Landing, order: &[usize]) -> Vec<u32> {
        match (order.last(), start) {
            (Some(&w), _) => {
                let p = self.waypoints[w].cell;
                let d = self.dist(p, [NONE; 2], true);
                (0..self.n())
                    .map(|x| if x == p || d[x] >= INF { INF } else { d[x] - 1 })
                    .collect()
            }
            (None, Landing::Free(s)) => self.dist(s, [NONE; 2], true)[..self.n()].to_vec(),
            (None, _) => vec![INF; self.n()],
        }
    }
}

/// The search ran out of its budget.
struct OutOfBudget;

/// One chain of a topology.
#[derive(Clone, Debug)]
struct Chain {
    order: Vec<usize>,
    end: End,
    cost: u32,
}

/// The depth-first search over topologies.
struct Search<'a> {
    cb: &'a ChainBound,
    /// Looking for a topology that costs less than this.
    limit: u32,
    /// The chain bound's work count at which the search gives up.
    until: u64,
    /// Where each chain starts (the source's chain first, then two per
    /// splitter reached, in the order they are reached).
    starts: Vec<Landing>,
    chains: Vec<Chain>,
    /// Per splitter: its exits' chains, once a chain reaches it.
    children: Vec<Option<[usize; 2]>>,
    found: Option<u32>,
}

impl Search<'_> {
    fn step(&mut self) -> Result<(), OutOfBudget> {
        let work = &self.cb.work;
        work.set(work.get() + 1);
        if work.get() > self.until {
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
            Landing::Splitter(z) => options.push(Chain {
                order: Vec::new(),
                end: End::Splitter(z),
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
        options.sort_by_key(|c| c.cost);
        for ch in options {
            if cost + ch.cost >= self.limit {
                break;
            }
            let opened = match ch.end {
                End::Splitter(z) if self.children[z].is_none() => {
                    let k = self.starts.len();
                    self.children[z] = Some([k, k + 1]);
                    self.starts.extend(self.cb.splitter_exits[z]);
                    Some(z)
                }
                _ => None,
            };
            let c = ch.cost;
            self.chains.push(ch);
            self.chain(i + 1, cost + c)?;
            self.chains.pop();
            if let Some(z) = opened {
                self.children[z] = None;
                self.starts.truncate(self.starts.len() - 2);
            }
            if self.found.is_some() {
                return Ok(());
            }
        }
        Ok(())
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
        ends.extend((0..cb.splitter_exits.len()).map(End::Splitter));
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
        let tails: Vec<Vec<u32>> = open
            .iter()
            .map(|&i| self.cb.tail(self.starts[i], &self.chains[i].order))
            .collect();
        let mut into: Vec<Option<(usize, usize)>> = vec![None; self.chains.len()];
        let costs: Vec<u32> = self.chains.iter().map(|c| c.cost).collect();
        self.place(&open, &tails, 0, &mut into, costs, cost)
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
                self.found = Some(cost);
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
            if j == i {
                continue;
            }
            for a in 0..=self.chains[j].order.len() {
                into[i] = Some((j, a));
                // The tails merging into each segment of chain j.
                let mut segs: Vec<Vec<&[u32]>> = vec![Vec::new(); self.chains[j].order.len() + 1];
                for (kk, &o) in open[..=k].iter().enumerate() {
                    if let Some((jj, aa)) = into[o] {
                        if jj == j {
                            segs[aa].push(&tails[kk]);
                        }
                    }
                }
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

    /// Whether the topology, with both exits of every splitter taken and
    /// every merge followed, brings each target an accepted donut and
    /// brings every kind `:targets` asks for.
    fn delivers(&self, into: &[Option<(usize, usize)>]) -> bool {
        let cb = self.cb;
        let w = cb.waypoints.len() + 1;
        let idx = |i: usize, a: usize, k: Kind| (i * w + a) * Kind::COUNT + k.index();
        let mut seen = vec![false; self.chains.len() * w * Kind::COUNT];
        let mut stack = vec![(0usize, 0usize, Kind::PLAIN)];
        let mut got = vec![false; cb.targets.len()];
        let mut kinds = [false; Kind::COUNT];
        while let Some((i, a, k)) = stack.pop() {
            if std::mem::replace(&mut seen[idx(i, a, k)], true) {
                continue;
            }
            let ch = &self.chains[i];
            if let Some(&wp) = ch.order.get(a) {
                let top = cb.waypoints[wp].kind;
                let k2 = if top.prev() == Some(k) { top } else { k };
                stack.push((i, a + 1, k2));
                continue;
            }
            match ch.end {
                End::Target(t) => {
                    if cb.targets[t].accepts(k) {
                        got[t] = true;
                        kinds[k.index()] = true;
                    }
                }
                End::Splitter(z) => {
                    if let Some([l, r]) = self.children[z] {
                        stack.push((l, 0, k));
                        stack.push((r, 0, k));
                    }
                }
                End::Open => {
                    if let Some((j, a2)) = into[i] {
                        stack.push((j, a2, k));
                    }
                }
            }
        }
        got.iter().all(|&g| g)
            && kinds.iter().any(|&g| g)
            && cb.required.iter().all(|k| kinds[k.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse as parse_str;

    fn bound(text: &str) -> ChainBound {
        ChainBound::new(&parse_str(text).expect("level parses")).expect("the bound applies")
    }

    #[test]
    fn a_straight_line_needs_its_cells() {
        // The first level of the rules: three belts.
        let cb = bound(".  .  .  .  .\n+> .  .  .  ->\n.  .  .  .  .\n");
        assert_eq!(cb.allows(2, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(3, 1_000_000), Bound::Allowed { cost: 3 });
    }

    #[test]
    fn a_topper_off_the_way_costs_the_detour() {
        // The frosting topper stands in the way and works on (2, 0): the
        // way must pass there.
        let cb = bound(".  .  .  .  .\n+> .  1^ .  ->1\n.  .  .  .  .\n");
        // (1,1) (1,0) (2,0) (3,0) (3,1): five belts.
        assert_eq!(cb.allows(4, 1_000_000), Bound::Refuted);
        assert!(matches!(cb.allows(5, 1_000_000), Bound::Allowed { .. }));
    }

    #[test]
    fn levels_outside_the_class_are_named() {
        let err = |t: &str| ChainBound::new(&parse_str(t).expect("parses")).err();
        assert_eq!(err("+> *  ->\n").as_deref(), Some("crossovers"));
        assert_eq!(err("+> >  ->\n").as_deref(), Some("preset belts"));
        assert_eq!(err("+> .  ->\n+> .  ->\n").as_deref(), Some("2 sources"));
    }

    #[test]
    fn the_budget_is_kept() {
        let cb = bound(".  .  .  .  .\n+> .  1^ .  ->1\n.  .  .  .  .\n");
        assert_eq!(cb.allows(4, 1), Bound::OutOfBudget);
    }
}

//! The SAT encoding of a level as a belt-layout problem (documented, constraint
//! by constraint, in `encodings/README.md`).
//!
//! The encoder asks a variable manager for variables and writes clauses into any
//! rustsat clause collector, so the same encoding feeds a solver or a DIMACS file.
//! Every constraint is either a *relaxation* of the exact rules (every real
//! solution satisfies it) or is guarded by the `strong` literal, which the solve
//! loop assumes only while searching, never while proving.

#![allow(clippy::needless_range_loop)] // parallel per-node and per-source tables, indexed together

use crate::grid::{CellId, Dir, Kind};
use crate::level::{Level, Tile};
use crate::sim::Outcome;
use rustsat::encodings::card::{BoundBoth, BoundUpper, BoundUpperIncremental, Totalizer};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};
use std::collections::HashMap;

/// A place a donut can be: a cell, the donut's kind, and for crossovers the
/// direction it entered (which is the direction it leaves).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub cell: CellId,
    pub kind: Kind,
    pub entry: Option<Dir>,
}

/// Where an edge starts: a source's emission, or a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum From {
    Source(usize),
    Node(usize),
}

/// A possible move of a donut from one node to the next.
#[derive(Copy, Clone, Debug)]
pub struct Edge {
    pub from: From,
    pub to: usize,
    /// The belt choice the move needs, when it leaves a `.` cell.
    pub guard: Option<Lit>,
    /// Whether `to.kind` is the kind after the toppers of `to` act once (rather
    /// than after a donut waited there for several ticks).
    pub first: bool,
}

/// What the encoding knows about one node.
#[derive(Clone, Debug, Default)]
struct NodeInfo {
    /// A move from this node that is always invalid (off the grid, or into an
    /// entity that cannot be entered), or a wrong delivery.
    forbidden: bool,
    /// Choices on this `.` cell that would push the donut somewhere invalid.
    bad_choices: Vec<Lit>,
    /// A splitter whose second (right) exit is invalid.
    bad_right: bool,
    /// The node is a delivery (a donut on a target that no bumper moves).
    delivery: bool,
    /// Where a donut here goes next, one group per belt choice (guard): the
    /// first-topping nodes it may land on (several for a splitter or a
    /// teleporter in).
    exits: Vec<(Option<Lit>, Vec<usize>)>,
    /// The node this donut becomes if it waits here and the toppers act again.
    retop: Option<usize>,
}

/// The options of a `.` cell, in this order.
pub const CHOICES: [Option<Dir>; 5] = [
    None,
    Some(Dir::Up),
    Some(Dir::Down),
    Some(Dir::Left),
    Some(Dir::Right),
];

/// The index of option `o` in [`CHOICES`].
fn option_index(o: Option<Dir>) -> usize {
    o.map_or(0, |d| 1 + d.index())
}

/// Option `o`'s name in `c choice` lines and `--assume` facts.
fn option_name(o: Option<Dir>) -> &'static str {
    o.map_or("none", |d| d.name())
}

/// The encoded level.
pub struct Encoding {
    pub level: Level,
    /// The `.` cells, row-major.
    pub free: Vec<CellId>,
    /// For each free cell, one literal per entry of [`CHOICES`]; exactly one holds.
    pub choice: Vec<[Lit; 5]>,
    free_ix: HashMap<CellId, usize>,
    pub sources: Vec<CellId>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    in_edges: Vec<Vec<usize>>,
    /// Edges leaving each node, built once with the graph.
    out_edges: Vec<Vec<usize>>,
    /// `q[s][n]`: a donut from source `s` stands on node `n` at some scan.
    pub q: Vec<Vec<Option<Lit>>>,
    /// `act[s][e]`: edge `e` carries a donut from source `s` (implies its `from`
    /// node holds one and its guard holds).
    act: Vec<Vec<Option<Lit>>>,
    /// Assumed true while searching: switches on the strengthening constraints.
    pub strong: Lit,
    /// Counts the belts placed.
    pub belts: Totalizer,
    /// The largest bound `belts` is encoded for (`enforce_ub(k)` works for
    /// every `k` up to it): every bound, or, on boards with more free cells
    /// than `LAZY_COUNTER_FROM`, only those asked for so far (see
    /// `Encoding::bound_belts`).
    belts_upto: usize,
    /// The variables of the counter's first encoding, when it is lazy: later
    /// bounds add clauses on them, so variable elimination must keep them.
    belts_vars: std::ops::Range<usize>,
    pub n_vars: u32,
    /// A source's first move is invalid: every run fails at tick 1.
    dead: bool,
    /// Per source: "this source is exempt from F1" (one of its donuts stood on
    /// a branch); `None` where it never can be.
    exempt: Vec<Option<Lit>>,
    /// Per node: a donut waiting here can be topped again (a branch for F1).
    retop: Vec<bool>,
    /// Requirement switches: `goals[s]` turns on "source `s` delivers", the last
    /// one "every target receives" and `:targets`. The loop assumes them all,
    /// except while warming up for a first layout (a few calls that add the
    /// requirements one by one, so the solver meets them gradually); only
    /// answers with all of them count.
    pub goals: Vec<Lit>,
    /// Whether searching adds anything to proving: S1 clauses, S2 beyond F1
    /// (for a source that may be exempt from F1, or an any-source), or
    /// searching-only ranks. When not, the loop proves from the start.
    pub adds_strength: bool,
    /// Whether the ranks are exact (no loop can ever be unfounded) or a
    /// searching-only strengthening (loop formulas then keep proofs sound).
    pub exact_ranks: bool,
    /// With exact ranks: where the clauses that order the ranks are among
    /// the clauses written, and the `sup` edges they order, for the same
    /// grounding by vertex elimination, the racing copies' view
    /// ([`Encoding::acyclic_clauses`]).
    pub acyclic_view: Option<RankClauses>,
    /// Per free cell, `strand[c]`: a donut stands on `c` while it has no belt
    /// (the run ends there). Only in levels where X2 clauses can arise (one
    /// plain source and a splitter); empty otherwise.
    strand: Vec<Lit>,
    /// Per node, `pre[n]`: the lone plain source's donuts walk in lockstep
    /// onto `n` before any of them has passed a splitter (P1, for X2). Empty
    /// where X2 does not apply.
    pre: Vec<Option<Lit>>,
    /// Nodes where `pre` stops: it holds there but does not go on.
    pre_stop: Vec<bool>,
    /// R3's sequential counters: the literals of one cell, and `r[i]` (one
    /// of the first `i + 1` holds).
    r3_chains: Vec<(Vec<Lit>, Vec<Lit>)>,
}

/// Where the clauses that order the ranks are, and what they order.
#[derive(Clone, Debug)]
pub struct RankClauses {
    /// Their positions among the clauses [`Encoding::new`] wrote.
    pub range: std::ops::Range<usize>,
    /// Per source, `(from, to, sup)` for every edge inside a ranked
    /// component.
    pub support_edges: Vec<Vec<(usize, usize, Lit)>>,
}

/// "At most one of `lits`", pairwise.
fn pairwise_at_most_one(lits: &[Lit]) -> impl Iterator<Item = Clause> + '_ {
    (0..lits.len())
        .flat_map(move |i| (i + 1..lits.len()).map(move |j| Clause::from([!lits[i], !lits[j]])))
}

/// The most rank clauses (roughly) the encoding spends on exact ranks.
const RANK_BUDGET: usize = 400_000;

/// Above this many free cells, the belt counter is encoded only for the bounds
/// asked for, not for all of them up front (which costs clauses in the square
/// of the number of free cells). `FROSTED_LAZY_COUNTER_FROM=N` sets it.
const LAZY_COUNTER_FROM: usize = 1000;

/// Whether `model` makes `l` true (a variable it does not cover is false).
fn holds(model: &[bool], l: Lit) -> bool {
    model.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg()
}

/// A whole number from the environment variable `name`, else `default`.
fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The toppers' effect on a cell: toppers that work on it, in scan order.
fn topper_fn(level: &Level, cell: CellId) -> impl Fn(Kind) -> Kind + '_ {
    move |k: Kind| {
        let mut k = k;
        for t in level.shape.scan_order() {
            if let Tile::Topper { kind, dir } = level.tile(t) {
                if level.shape.step(t, dir) == Some(cell) && kind.prev() == Some(k) {
                    k = kind;
                }
            }
        }
        k
    }
}

/// The kinds a donut arriving at `cell` with kind `k` can show there: the toppers'
/// effect applied once, twice, ... (a donut that waits is topped again). The first
/// entry is the kind after one application.
fn arrival_kinds(level: &Level, cell: CellId, k: Kind) -> Vec<Kind> {
    let t = topper_fn(level, cell);
    let mut out = vec![t(k)];
    loop {
        let next = t(*out.last().unwrap_or(&k));
        if out.contains(&next) {
            return out;
        }
        out.push(next);
    }
}

impl Encoding {
    /// Builds the encoding of `level`, writing clauses into `col`. The belt
    /// counter is lazy above `LAZY_COUNTER_FROM` free cells (or
    /// `FROSTED_LAZY_COUNTER_FROM`).
    pub fn new(level: &Level, col: &mut impl CollectClauses, vm: &mut dyn ManageVars) -> Encoding {
        let lazy_from = env_or("FROSTED_LAZY_COUNTER_FROM", LAZY_COUNTER_FROM);
        Encoding::with_lazy_counter_from(level, col, vm, lazy_from)
    }

    /// [`Encoding::new`] with a belt counter that is lazy on boards with more
    /// than `lazy_from` free cells.
    pub fn with_lazy_counter_from(
        level: &Level,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
        lazy_from: usize,
    ) -> Encoding {
        let free: Vec<CellId> = level.free_cells().collect();
        let free_ix: HashMap<CellId, usize> =
            free.iter().enumerate().map(|(i, c)| (*c, i)).collect();
        let choice: Vec<[Lit; 5]> = free
            .iter()
            .map(|_| {
                [
                    vm.new_lit(),
                    vm.new_lit(),
                    vm.new_lit(),
                    vm.new_lit(),
                    vm.new_lit(),
                ]
            })
            .collect();
        let strong = vm.new_lit();
        let sources: Vec<CellId> = level.sources().collect();
        let mut enc = Encoding {
            level: level.clone(),
            free,
            choice,
            free_ix,
            sources,
            nodes: Vec::new(),
            edges: Vec::new(),
            in_edges: Vec::new(),
            out_edges: Vec::new(),
            q: Vec::new(),
            act: Vec::new(),
            strong,
            belts: Totalizer::default(),
            belts_upto: 0,
            belts_vars: 0..0,
            n_vars: 0,
            dead: false,
            exact_ranks: false,
            acyclic_view: None,
            adds_strength: false,
            goals: Vec::new(),
            exempt: Vec::new(),
            retop: Vec::new(),
            strand: Vec::new(),
            pre: Vec::new(),
            pre_stop: Vec::new(),
            r3_chains: Vec::new(),
        };
        // How many clauses were written (to tell where the rank clauses are).
        let added = std::cell::Cell::new(0usize);
        let mut add = |cl: Clause| {
            added.set(added.get() + 1);
            let _ = col.add_clause(cl);
        };

        // C1: exactly one choice per `.` cell.
        for ch in &enc.choice {
            add(ch.iter().copied().collect());
            pairwise_at_most_one(ch).for_each(&mut add);
        }

        // Which kind a bumper pushes from which cell, and which way.
        let pushes = level.bumper_pushes();
        let infos = enc.build_graph(&pushes);
        enc.retop = infos.iter().map(|i| i.retop.is_some()).collect();
        if enc.dead {
            add(Clause::new());
        }

        // Per-source variables, only for what that source can reach.
        let n_src = enc.sources.len();
        let reach = enc.reachable();
        enc.q = (0..n_src)
            .map(|s| {
                (0..enc.nodes.len())
                    .map(|n| reach[s][n].then(|| vm.new_lit()))
                    .collect()
            })
            .collect();
        enc.act = (0..n_src)
            .map(|s| {
                enc.edges
                    .iter()
                    .map(|e| match e.from {
                        From::Source(t) => {
                            (t == s && enc.q[s][e.to].is_some()).then(|| vm.new_lit())
                        }
                        From::Node(n) => (enc.q[s][n].is_some() && enc.q[s][e.to].is_some())
                            .then(|| vm.new_lit()),
                    })
                    .collect()
            })
            .collect();

        for s in 0..n_src {
            for n in 0..enc.nodes.len() {
                let Some(qn) = enc.q[s][n] else { continue };
                // C2 (support): a donut on a node came over some edge into it.
                let mut support = vec![!qn];
                let mut rooted = false;
                for &e in &enc.in_edges[n] {
                    if let Some(a) = enc.act[s][e] {
                        if matches!(enc.edges[e].from, From::Source(_)) {
                            rooted = true;
                        }
                        support.push(a);
                    }
                }
                if !rooted {
                    add(support.into_iter().collect());
                }
                // C3 (safety): no invalid move, no wrong delivery.
                let info = &infos[n];
                if info.forbidden {
                    add(Clause::from([!qn]));
                }
                for &g in &info.bad_choices {
                    add(Clause::from([!qn, !g]));
                }
                // S1 (strong only): a splitter's second exit must be valid too.
                if info.bad_right {
                    enc.adds_strength = true;
                    add(Clause::from([!strong, !qn]));
                }
            }
            for (e, edge) in enc.edges.iter().enumerate() {
                let Some(a) = enc.act[s][e] else { continue };
                // C2: an active edge needs its start and its belt.
                if let From::Node(n) = edge.from {
                    if let Some(qf) = enc.q[s][n] {
                        add(Clause::from([!a, qf]));
                    }
                }
                if let Some(g) = edge.guard {
                    add(Clause::from([!a, g]));
                }
                // S2 (strong only): donuts go where the layout sends them.
                if edge.first {
                    if let Some(qt) = enc.q[s][edge.to] {
                        let mut cl = vec![!strong, qt];
                        if let From::Node(n) = edge.from {
                            cl.extend(enc.q[s][n].map(|l| !l));
                        }
                        cl.extend(edge.guard.map(|g| !g));
                        add(cl.into_iter().collect());
                    }
                }
            }
        }

        // C7 (ranks): inside each strongly connected component of the move graph,
        // a donut's support comes from a node of the same component with strictly
        // smaller rank, or over an edge from another component (such edges never
        // close a loop). Ranks are order-encoded, `rank(n) >= j` for j = 1..=H.
        // With H one less than the component's size, this bans every
        // self-supporting loop and cuts off nothing real (a real donut's support
        // chain inside a component is a simple path); when that is too large, a
        // smaller H is used only while searching.
        let comp = enc.components();
        let mut comp_size = vec![0usize; enc.nodes.len()];
        for &c in &comp {
            comp_size[c] += 1;
        }
        // Only components with a fork need ranks: in any other, a donut has one
        // way on from each node, so a self-supporting loop there feeds nothing
        // outside itself (see `Encoding::founded`); such a component counts as a
        // single node here.
        let mut forks = vec![false; enc.nodes.len()];
        for n in 0..enc.nodes.len() {
            if enc.is_fork(n) {
                forks[comp[n]] = true;
            }
        }
        for c in 0..enc.nodes.len() {
            if !forks[c] {
                comp_size[c] = comp_size[c].min(1);
            }
        }
        let intra = |e: &Edge| {
            comp_size[comp[e.to]] > 1 && matches!(e.from, From::Node(m) if comp[m] == comp[e.to])
        };
        // Per source and component: (nodes, intra-component edges).
        let sizes: Vec<HashMap<usize, (usize, usize)>> = (0..n_src)
            .map(|s| {
                let mut m: HashMap<usize, (usize, usize)> = HashMap::new();
                for n in 0..enc.nodes.len() {
                    if enc.q[s][n].is_some() && comp_size[comp[n]] > 1 {
                        m.entry(comp[n]).or_default().0 += 1;
                    }
                }
                for (e, edge) in enc.edges.iter().enumerate() {
                    if enc.act[s][e].is_some() && intra(edge) {
                        m.entry(comp[edge.to]).or_default().1 += 1;
                    }
                }
                m
            })
            .collect();
        let cost_at = |cap: usize| -> usize {
            sizes
                .iter()
                .flat_map(|m| m.values())
                .map(|&(n, e)| (n + e) * n.saturating_sub(1).min(cap))
                .sum()
        };
        let budget = env_or("FROSTED_RANK_BUDGET", RANK_BUDGET);
        let exact_cap = enc.nodes.len();
        enc.exact_ranks = cost_at(exact_cap) <= budget;
        enc.adds_strength |= !enc.exact_ranks;
        // The largest cap that fits the budget, at least 4.
        let cap = if enc.exact_ranks {
            exact_cap
        } else {
            let (mut lo, mut hi) = (4, exact_cap);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if cost_at(mid) <= budget {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            lo
        };
        let gate: Vec<Lit> = if enc.exact_ranks {
            vec![]
        } else {
            vec![!strong]
        };
        // The clauses that order the ranks (the rest of C7, `sup` and the
        // support clauses, is shared with the other grounding below).
        let mut rank_clauses: Vec<Clause> = Vec::new();
        // Per source, `(from, to, sup)` for every edge inside a ranked component.
        let mut support_edges: Vec<Vec<(usize, usize, Lit)>> = vec![Vec::new(); n_src];
        for s in 0..n_src {
            let rank: Vec<Vec<Lit>> = (0..enc.nodes.len())
                .map(|n| match (enc.q[s][n], sizes[s].get(&comp[n])) {
                    (Some(_), Some(&(size, _))) => (0..size.saturating_sub(1).min(cap))
                        .map(|_| vm.new_lit())
                        .collect(),
                    _ => Vec::new(),
                })
                .collect();
            for r in &rank {
                for j in 1..r.len() {
                    rank_clauses.push(Clause::from([!r[j], r[j - 1]]));
                }
            }
            let mut sup_in: Vec<Vec<Lit>> = vec![Vec::new(); enc.nodes.len()];
            let mut rooted = vec![false; enc.nodes.len()];
            for (e, edge) in enc.edges.iter().enumerate() {
                let Some(a) = enc.act[s][e] else { continue };
                match edge.from {
                    From::Node(_) if intra(edge) => {
                        let From::Node(m) = edge.from else { continue };
                        let sup = vm.new_lit();
                        sup_in[edge.to].push(sup);
                        add(Clause::from([!sup, a]));
                        support_edges[s].push((m, edge.to, sup));
                        let (rm, rn) = (&rank[m], &rank[edge.to]);
                        let h = rn.len();
                        if h == 0 {
                            rank_clauses.push(Clause::from([!sup]));
                            continue;
                        }
                        rank_clauses.push(Clause::from([!sup, rn[0]]));
                        for j in 0..h {
                            let mut cl = vec![!sup, !rm[j]];
                            if j + 1 < h {
                                cl.push(rn[j + 1]);
                            }
                            rank_clauses.push(cl.into_iter().collect());
                        }
                    }
                    // An edge from another component (or from the source itself)
                    // supports its end without a rank condition.
                    _ => {
                        if matches!(edge.from, From::Source(_)) {
                            rooted[edge.to] = true;
                        }
                        sup_in[edge.to].push(a);
                    }
                }
            }
            for n in 0..enc.nodes.len() {
                let Some(qn) = enc.q[s][n] else { continue };
                if rooted[n] || comp_size[comp[n]] == 1 {
                    continue;
                }
                let mut cl = gate.clone();
                cl.push(!qn);
                cl.extend(sup_in[n].iter().copied());
                add(cl.into_iter().collect());
            }
        }
        let first_rank = added.get();
        let n_rank = rank_clauses.len();
        rank_clauses.into_iter().for_each(&mut add);
        if enc.exact_ranks && support_edges.iter().any(|e| !e.is_empty()) {
            enc.acyclic_view = Some(RankClauses {
                range: first_rank..first_rank + n_rank,
                support_edges,
            });
        }

        // C4: every target receives, every source delivers. Each requirement
        // holds under its goal literal (one per source, one for the targets and
        // C5), which the loop assumes; see `Encoding::goals`.
        enc.goals = (0..=n_src).map(|_| vm.new_lit()).collect();
        let g_targets = enc.goals[n_src];
        for t in enc.level.targets().collect::<Vec<_>>() {
            let mut cl = vec![!g_targets];
            cl.extend(enc.delivery_lits(&infos, |n| n.cell == t));
            add(cl.into_iter().collect());
        }
        for s in 0..n_src {
            let mut cl = vec![!enc.goals[s]];
            cl.extend(
                (0..enc.nodes.len())
                    .filter(|&n| infos[n].delivery)
                    .filter_map(|n| enc.q[s][n]),
            );
            add(cl.into_iter().collect());
        }

        // C5: `:targets`, as counts of distinct (source, kind) deliveries per kind.
        if let Some(wanted) = enc.level.flags.targets.clone() {
            for k in Kind::ALL {
                let want = wanted.iter().filter(|w| **w == k).count();
                let mut ds = Vec::new();
                for s in 0..n_src {
                    let qs: Vec<Lit> = (0..enc.nodes.len())
                        .filter(|&n| infos[n].delivery && enc.nodes[n].kind == k)
                        .filter_map(|n| enc.q[s][n])
                        .collect();
                    if qs.is_empty() {
                        continue;
                    }
                    let d = vm.new_lit();
                    let mut cl = vec![!d];
                    cl.extend(qs.iter().copied());
                    add(cl.into_iter().collect());
                    for q in qs {
                        add(Clause::from([!q, d]));
                    }
                    ds.push(d);
                }
                if want > ds.len() {
                    add(Clause::from([!g_targets]));
                    continue;
                }
                let mut tot = Totalizer::from_iter(ds.iter().copied());
                let mut cnf = rustsat::instances::Cnf::new();
                let _ = tot.encode_both(want..=want, &mut cnf, vm);
                for cl in cnf {
                    add(cl);
                }
                if let Ok(units) = tot.enforce_eq(want) {
                    for u in units {
                        add(Clause::from([!g_targets, u]));
                    }
                }
            }
        }

        let n_nodes = enc.nodes.len();

        // C6 (no idle belts): a belt stands only where some donut can be.
        for (i, &c) in enc.free.iter().enumerate() {
            let mut cl = vec![enc.choice[i][0]];
            for s in 0..n_src {
                for (n, node) in enc.nodes.iter().enumerate() {
                    if node.cell == c {
                        cl.extend(enc.q[s][n]);
                    }
                }
            }
            add(cl.into_iter().collect());
        }

        // F1 (forward): the donuts of a plain source that meet no branch (a
        // splitter, a teleporter in, or a cell where waiting changes the kind)
        // all walk one and the same path of nodes, fixed by the layout. The
        // source delivers, so that path ends on a target and some donut walked
        // all of it: every node of the source's flow then leads on to the next
        // one. A source is exempt (`exempt[s]`) only if one of its donuts stood
        // on a branch; any-sources emit several kinds and are left out.
        // R3 slowed every level with exactly two sources it was tried on and
        // sped up the others (measured: see encodings/README.md).
        let r3 = n_src != 2 && !pushes.iter().any(|p| p.iter().any(Option::is_some));
        for s in 0..n_src {
            if !matches!(enc.level.tile(enc.sources[s]), Tile::Source(_)) {
                enc.exempt.push(None);
                enc.adds_strength = true;
                continue;
            }
            let branches: Vec<Lit> = (0..n_nodes)
                .filter(|&n| enc.is_branch(n))
                .filter_map(|n| enc.q[s][n])
                .collect();
            let exempt = (!branches.is_empty()).then(|| {
                let ex = vm.new_lit();
                let mut cl = vec![!ex];
                cl.extend(branches);
                add(cl.into_iter().collect());
                ex
            });
            enc.adds_strength |= exempt.is_some();
            enc.exempt.push(exempt);
            // Every donut of a plain source starts on the same node.
            for e in &enc.edges {
                if e.from == From::Source(s) && e.first {
                    if let Some(q) = enc.q[s][e.to] {
                        add(Clause::from([q]));
                    }
                }
            }
            for n in 0..n_nodes {
                let Some(qn) = enc.q[s][n] else { continue };
                for (guard, dests) in &infos[n].exits {
                    if dests.is_empty() {
                        continue;
                    }
                    let mut cl = vec![!qn];
                    cl.extend(exempt);
                    cl.extend(guard.map(|g| !g));
                    cl.extend(dests.iter().filter_map(|&m| enc.q[s][m]));
                    add(cl.into_iter().collect());
                }
            }
            // R0–R3 hold for a route that never meets a branch; they are
            // only added where the source cannot reach one (with `exempt[s]`
            // in every clause they only slowed the levels whose source must
            // branch).
            if exempt.is_some() {
                continue;
            }
            for n in 0..n_nodes {
                let Some(qn) = enc.q[s][n] else { continue };
                // R0 (no strand): the route leaves every `.` cell on a belt.
                if let Some(&i) = enc.free_ix.get(&enc.nodes[n].cell) {
                    add(Clause::from([!qn, !enc.choice[i][0]]));
                }
                // R1 (route edges): the move the layout picks is active.
                for &e in &enc.out_edges[n] {
                    let edge = &enc.edges[e];
                    let Some(a) = enc.act[s][e] else { continue };
                    if !edge.first {
                        continue;
                    }
                    let mut cl = vec![!qn, a];
                    cl.extend(edge.guard.map(|g| !g));
                    add(cl.into_iter().collect());
                }
            }
            // R2 (simple route): at most one active move into each node.
            for n in 0..n_nodes {
                let ins: Vec<Lit> = enc.in_edges[n]
                    .iter()
                    .filter(|&&e| enc.edges[e].first)
                    .filter_map(|&e| enc.act[s][e])
                    .collect();
                pairwise_at_most_one(&ins).for_each(&mut add);
            }
            // R3 (one kind per cell): without bumpers, the route meets no
            // cell twice (a crossover once per entry direction).
            if r3 {
                // Ordered by cell, so the clause order is the same every run.
                let mut by_cell: std::collections::BTreeMap<(usize, Option<usize>), Vec<Lit>> =
                    Default::default();
                for n in 0..n_nodes {
                    if let Some(qn) = enc.q[s][n] {
                        let node = &enc.nodes[n];
                        let key = (node.cell.index(), node.entry.map(Dir::index));
                        by_cell.entry(key).or_default().push(qn);
                    }
                }
                // Pairwise for a few kinds, else a sequential counter:
                // `r[i]` holds when one of `lits[..=i]` does. (Pairwise on
                // every cell made 02-summer/07 several times slower.)
                for lits in by_cell.into_values() {
                    if lits.len() > 4 {
                        let mut rs: Vec<Lit> = Vec::new();
                        for (i, &l) in lits.iter().enumerate() {
                            if let Some(&p) = rs.last() {
                                add(Clause::from([!l, !p]));
                            }
                            if i + 1 < lits.len() {
                                let r = vm.new_lit();
                                add(Clause::from([!l, r]));
                                if let Some(&p) = rs.last() {
                                    add(Clause::from([!p, r]));
                                }
                                rs.push(r);
                            }
                        }
                        enc.r3_chains.push((lits, rs));
                        continue;
                    }
                    pairwise_at_most_one(&lits).for_each(&mut add);
                }
            }
        }

        // P1 (prefix, for X2): with one plain source and a splitter, `pre`
        // marks the nodes its donuts walk in lockstep from the source: the
        // first node, and from a marked node that is not a stop, the one node
        // each belt choice leads to. Stops: branches, crossovers, cells a
        // bumper acts on, exit cells of splitters, and nodes with several
        // ways on for one choice.
        let x2 = n_src == 1
            && matches!(level.tile(enc.sources[0]), Tile::Source(_))
            && level
                .shape
                .cells()
                .any(|c| matches!(level.tile(c), Tile::Splitter(_)));
        let firsts: Vec<usize> = enc
            .edges
            .iter()
            .filter(|e| e.from == From::Source(0) && e.first)
            .map(|e| e.to)
            .collect();
        if x2 && firsts.len() == 1 {
            // Cells a bumper acts on, and the exit cells of every splitter.
            let mut bumped: Vec<bool> = pushes
                .iter()
                .map(|p| p.iter().any(Option::is_some))
                .collect();
            for c in level.shape.cells() {
                if let Tile::Splitter(f) = level.tile(c) {
                    for d in [f.turn_left(), f.turn_right()] {
                        if let Some(p) = level.shape.step(c, d) {
                            bumped[p.index()] = true;
                        }
                    }
                }
            }
            enc.pre_stop = (0..n_nodes)
                .map(|n| {
                    let cell = enc.nodes[n].cell;
                    enc.is_branch(n)
                        || matches!(level.tile(cell), Tile::Crossover | Tile::TeleIn(_))
                        || bumped[cell.index()]
                        || infos[n].exits.iter().any(|(_, d)| d.len() > 1)
                })
                .collect();
            enc.pre = (0..n_nodes)
                .map(|n| enc.q[0][n].map(|_| vm.new_lit()))
                .collect();
            if let Some(p0) = enc.pre[firsts[0]] {
                add(Clause::from([p0]));
            }
            for n in 0..n_nodes {
                let Some(pn) = enc.pre[n] else { continue };
                if enc.pre_stop[n] {
                    continue;
                }
                for (guard, dests) in &infos[n].exits {
                    let Some(pm) = dests.first().and_then(|&m| enc.pre[m]) else {
                        continue;
                    };
                    let mut cl = vec![!pn];
                    cl.extend(guard.map(|g| !g));
                    cl.push(pm);
                    add(cl.into_iter().collect());
                }
            }
        }

        // The belt counter: bounds are set by assumptions. On a big board,
        // only up to the largest distance D1 needs; the loop asks for more
        // (`bound_belts`).
        let dists: Vec<Vec<usize>> = (0..n_src).map(|s| enc.free_distances(s)).collect();
        let n_free = enc.free.len();
        enc.belts_upto = if n_free > lazy_from {
            let far = dists.iter().flatten().filter(|&&d| d != usize::MAX);
            far.copied().max().unwrap_or(0).min(n_free)
        } else {
            n_free
        };
        let has_belt: Vec<Lit> = enc.choice.iter().map(|ch| !ch[0]).collect();
        enc.belts = Totalizer::from_iter(has_belt);
        let mut cnf = rustsat::instances::Cnf::new();
        let first_var = vm.n_used() as usize;
        let _ = enc.belts.encode_ub(0..=enc.belts_upto, &mut cnf, vm);
        if enc.belts_upto < n_free {
            enc.belts_vars = first_var..vm.n_used() as usize;
        }
        for cl in cnf {
            add(cl);
        }

        // D1 (distance): a donut from `s` on a node needs at least as many belts as
        // the fewest `.` cells it could have left on its way there.
        for (s, dist) in dists.iter().enumerate() {
            for n in 0..enc.nodes.len() {
                let Some(qn) = enc.q[s][n] else { continue };
                let d = dist[enc.nodes[n].cell.index()];
                if d == 0 || d == usize::MAX {
                    continue;
                }
                match enc.belts.enforce_ub(d - 1) {
                    Ok(lits) if lits.is_empty() => add(Clause::from([!qn])),
                    Ok(lits) => {
                        for l in lits {
                            add(Clause::from([!qn, !l]));
                        }
                    }
                    Err(_) => {}
                }
            }
        }
        // ST (strands, for X2): `strand[c] → choice[c][none]` and
        // `strand[c] → ∨ q[·][n at c]`.
        if x2 {
            let mut at_cell: Vec<Vec<Lit>> = vec![Vec::new(); enc.free.len()];
            for n in 0..enc.nodes.len() {
                if let Some(&i) = enc.free_ix.get(&enc.nodes[n].cell) {
                    at_cell[i].extend(enc.q.iter().filter_map(|qs| qs[n]));
                }
            }
            for (i, lits) in at_cell.into_iter().enumerate() {
                let st = vm.new_lit();
                add(Clause::from([!st, enc.choice[i][0]]));
                let mut cl = vec![!st];
                cl.extend(lits);
                add(cl.into_iter().collect());
                enc.strand.push(st);
            }
        }
        enc.n_vars = vm.n_used();
        enc
    }

    /// X2: the clause for a timing-free wrong delivery at the first splitter
    /// of a lone plain source (see [`crate::branch`]), or `None` where the
    /// failed layout does not fit the argument. It holds for every solving
    /// layout: the belts of `P` and `B` differ, or a cell lets another donut
    /// onto `B`, or the run strands.
    pub fn wrong_branch_clause(&self, layout: &Level) -> Option<Clause> {
        if self.strand.is_empty() {
            return None;
        }
        let wb = crate::branch::wrong_branch(&self.level, layout, !self.pre.is_empty())?;
        let mut cl: Vec<Lit> = Vec::new();
        if wb.plain_prefix {
            // P1 names every prefix that reaches the splitter with this kind
            // (it stops on the exit cells of splitters, so such a prefix
            // crosses neither exit of this one).
            let z = self
                .nodes
                .iter()
                .position(|n| n.cell == wb.splitter && n.kind == wb.splitter_kind)?;
            cl.push(!self.pre[z]?);
        }
        for (c, d) in wb.fixed {
            cl.push(!self.choice[*self.free_ix.get(&c)?][1 + d.index()]);
        }
        for (c, d) in wb.entries {
            let i = *self.free_ix.get(&c)?;
            cl.push(match d {
                Some(d) => self.choice[i][1 + d.index()],
                None => !self.choice[i][0],
            });
        }
        cl.extend(&self.strand);
        Some(cl.into_iter().collect())
    }

    /// For each cell, the fewest `.` cells a donut from source `s` leaves on any
    /// way to it (`usize::MAX` where it cannot go). Computed on cells rather than
    /// nodes, so that a way that crosses a cell twice (with two kinds) counts it
    /// once: loop erasure of a real way gives a path on cells whose every cell but
    /// the last was left, and leaving a `.` cell needs a belt on it.
    pub fn free_distances(&self, s: usize) -> Vec<usize> {
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
        for edge in &self.edges {
            if edge.from == From::Source(s) {
                let c = self.nodes[edge.to].cell.index();
                dist[c] = 0;
                deque.push_back(c);
            }
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

    fn delivery_lits<'a>(
        &'a self,
        infos: &'a [NodeInfo],
        pick: impl Fn(&Node) -> bool + 'a,
    ) -> impl Iterator<Item = Lit> + 'a {
        (0..self.nodes.len())
            .filter(move |&n| infos[n].delivery && pick(&self.nodes[n]))
            .flat_map(move |n| self.q.iter().filter_map(move |qs| qs[n]))
    }

    fn node_id(
        &mut self,
        ids: &mut HashMap<Node, usize>,
        todo: &mut Vec<usize>,
        node: Node,
    ) -> usize {
        if let Some(&i) = ids.get(&node) {
            return i;
        }
        let i = self.nodes.len();
        self.nodes.push(node);
        self.in_edges.push(Vec::new());
        ids.insert(node, i);
        todo.push(i);
        i
    }

    fn push_edge(&mut self, edge: Edge) {
        self.in_edges[edge.to].push(self.edges.len());
        self.edges.push(edge);
    }

    /// Builds every node reachable from a source under some layout, and the edges.
    fn build_graph(&mut self, pushes: &[[Option<Kind>; 4]]) -> Vec<NodeInfo> {
        let level = self.level.clone();
        let shape = level.shape;
        let mut ids = HashMap::new();
        let mut todo = Vec::new();
        let mut infos: Vec<NodeInfo> = Vec::new();

        // Where a move from `p` in direction `d` with kind `k` lands: the nodes (with
        // whether each is the first topping), or `None` if the move is invalid.
        let land = |p: CellId, d: Dir, k: Kind| -> Option<(CellId, Option<Dir>, Vec<Kind>)> {
            let q = shape.step(p, d)?;
            let tile = level.tile(q);
            if !tile.can_enter(d) {
                return None;
            }
            let entry = (tile == Tile::Crossover).then_some(d);
            Some((q, entry, arrival_kinds(&level, q, k)))
        };

        let mut roots = Vec::new();
        for (s, &c) in self.sources.clone().iter().enumerate() {
            let (d, kinds): (Dir, Vec<Kind>) = match level.tile(c) {
                Tile::Source(d) => (d, vec![Kind::PLAIN]),
                Tile::AnySource(d) => (d, Kind::ALL.to_vec()),
                _ => continue,
            };
            for k in kinds {
                match land(c, d, k) {
                    Some((q, entry, ks)) => {
                        for (i, k2) in ks.into_iter().enumerate() {
                            roots.push((
                                s,
                                Node {
                                    cell: q,
                                    kind: k2,
                                    entry,
                                },
                                i == 0,
                            ));
                        }
                    }
                    None => roots.push((
                        s,
                        Node {
                            cell: c,
                            kind: k,
                            entry: None,
                        },
                        false,
                    )),
                }
            }
        }
        let mut dead_sources = Vec::new();
        for (s, node, first) in roots {
            if node.cell == self.sources[s] {
                dead_sources.push(s);
                continue;
            }
            let to = self.node_id(&mut ids, &mut todo, node);
            self.push_edge(Edge {
                from: From::Source(s),
                to,
                guard: None,
                first,
            });
        }

        let mut done = 0;
        while done < self.nodes.len() {
            let n = done;
            done += 1;
            infos.resize(self.nodes.len().max(n + 1), NodeInfo::default());
            let Node {
                cell: p,
                kind: k,
                entry,
            } = self.nodes[n];
            let tile = level.tile(p);
            let bumper = Dir::ALL
                .into_iter()
                .find(|&d| pushes[p.index()][d.index()] == Some(k));
            // (direction, guard, required-valid)
            let mut moves: Vec<(Dir, Option<Lit>, bool)> = Vec::new();
            let mut teleport = false;
            match (bumper, tile) {
                // On a `.` cell the bumper acts only if a belt stands there: a
                // donut on an empty cell strands first.
                (Some(d), Tile::Empty) => {
                    let i = self.free_ix[&p];
                    for j in 1..5 {
                        moves.push((d, Some(self.choice[i][j]), true));
                    }
                }
                (Some(d), _) => moves.push((d, None, true)),
                (None, Tile::Empty) => {
                    let i = self.free_ix[&p];
                    for (j, d) in CHOICES.iter().enumerate() {
                        if let Some(d) = d {
                            moves.push((*d, Some(self.choice[i][j]), true));
                        }
                    }
                }
                (None, Tile::Belt(d)) | (None, Tile::TeleOut(_, d)) => moves.push((d, None, true)),
                (None, Tile::Target { accepts, .. }) => {
                    infos[n].delivery = true;
                    if !accepts.accepts(k) {
                        infos[n].forbidden = true;
                    }
                }
                (None, Tile::Splitter(f)) => {
                    // The first donut to leave a splitter goes left, so a left exit
                    // that is invalid fails the run, unless a bumper may have moved
                    // an earlier donut off the splitter (that flips it to the right).
                    let bumped_here = pushes[p.index()].iter().any(Option::is_some);
                    moves.push((f.turn_left(), None, !bumped_here));
                    moves.push((f.turn_right(), None, false));
                }
                (None, Tile::Crossover) => {
                    if let Some(d) = entry {
                        moves.push((d, None, true));
                    }
                }
                (None, Tile::TeleIn(_)) => teleport = true,
                _ => {}
            }
            let splits = matches!((bumper, tile), (None, Tile::Splitter(_)));
            let again = topper_fn(&level, p)(k);
            if again != k {
                let r = self.node_id(
                    &mut ids,
                    &mut todo,
                    Node {
                        cell: p,
                        kind: again,
                        entry,
                    },
                );
                infos.resize(self.nodes.len(), NodeInfo::default());
                infos[n].retop = Some(r);
            }
            for (d, guard, required) in moves {
                if !splits || infos[n].exits.is_empty() {
                    infos[n].exits.push((guard, Vec::new()));
                }
                match land(p, d, k) {
                    None => match (guard, required) {
                        (Some(g), _) => infos[n].bad_choices.push(g),
                        (None, true) => infos[n].forbidden = true,
                        (None, false) => infos[n].bad_right = true,
                    },
                    Some((q, e, ks)) => {
                        for (i, k2) in ks.into_iter().enumerate() {
                            let to = self.node_id(
                                &mut ids,
                                &mut todo,
                                Node {
                                    cell: q,
                                    kind: k2,
                                    entry: e,
                                },
                            );
                            self.push_edge(Edge {
                                from: From::Node(n),
                                to,
                                guard,
                                first: i == 0,
                            });
                            if i == 0 {
                                infos.resize(self.nodes.len(), NodeInfo::default());
                                if let Some(x) = infos[n].exits.last_mut() {
                                    x.1.push(to);
                                }
                            }
                        }
                    }
                }
            }
            if teleport {
                infos[n].exits.push((None, Vec::new()));
                if let Tile::TeleIn(ch) = tile {
                    let outs: Vec<CellId> = level.tele_outs(ch).collect();
                    for o in outs {
                        for (i, k2) in arrival_kinds(&level, o, k).into_iter().enumerate() {
                            let to = self.node_id(
                                &mut ids,
                                &mut todo,
                                Node {
                                    cell: o,
                                    kind: k2,
                                    entry: None,
                                },
                            );
                            self.push_edge(Edge {
                                from: From::Node(n),
                                to,
                                guard: None,
                                first: i == 0,
                            });
                            if i == 0 {
                                infos.resize(self.nodes.len(), NodeInfo::default());
                                if let Some(x) = infos[n].exits.last_mut() {
                                    x.1.push(to);
                                }
                            }
                        }
                    }
                }
            }
        }
        infos.resize(self.nodes.len(), NodeInfo::default());
        self.out_edges = vec![Vec::new(); self.nodes.len()];
        for (e, edge) in self.edges.iter().enumerate() {
            if let From::Node(n) = edge.from {
                self.out_edges[n].push(e);
            }
        }
        // A source whose first move is invalid fails every run at tick 1.
        if !dead_sources.is_empty() {
            self.dead = true;
        }
        infos
    }

    /// The strongly connected components of the move graph (every edge, as if
    /// every guard held): a component number per node (Tarjan's algorithm,
    /// iterative).
    fn components(&self) -> Vec<usize> {
        const NONE: usize = usize::MAX;
        let n = self.nodes.len();
        let succ = |v: usize| -> Vec<usize> {
            self.out_edges[v]
                .iter()
                .map(|&e| self.edges[e].to)
                .collect()
        };
        let mut index = vec![NONE; n];
        let mut low = vec![0; n];
        let mut on_stack = vec![false; n];
        let mut comp = vec![NONE; n];
        let mut stack = Vec::new();
        let mut next = 0;
        let mut n_comps = 0;
        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            // (node, its successors, how many were looked at)
            let mut work: Vec<(usize, Vec<usize>, usize)> = vec![(root, succ(root), 0)];
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some((v, out, i)) = work.last_mut() {
                let v = *v;
                if let Some(&w) = out.get(*i) {
                    *i += 1;
                    if index[w] == NONE {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        work.push((w, succ(w), 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some((parent, _, _)) = work.last() {
                    low[*parent] = low[*parent].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = n_comps;
                        if w == v {
                            break;
                        }
                    }
                    n_comps += 1;
                }
            }
        }
        comp
    }

    /// A node where donuts of one source may part ways: a splitter, a teleporter
    /// in with several outs, or a cell where a waiting donut is topped again.
    /// (A teleporter in with one out sends every donut the same way, like a
    /// belt.)
    fn is_branch(&self, n: usize) -> bool {
        self.retop[n] || self.splits(self.nodes[n].cell)
    }

    /// A splitter, or a teleporter in with several outs.
    fn splits(&self, c: CellId) -> bool {
        match self.level.tile(c) {
            Tile::Splitter(_) => true,
            Tile::TeleIn(ch) => self.level.tele_outs(ch).nth(1).is_some(),
            _ => false,
        }
    }

    /// A node a donut may leave in more than one way under one layout: a
    /// splitter, a teleporter in with several outs, or a move onto a cell
    /// where toppers may act more than once.
    fn is_fork(&self, n: usize) -> bool {
        self.splits(self.nodes[n].cell) || self.out_edges[n].iter().any(|&e| !self.edges[e].first)
    }

    /// Which nodes each source can reach under some layout.
    fn reachable(&self) -> Vec<Vec<bool>> {
        let out_edges = &self.out_edges;
        (0..self.sources.len())
            .map(|s| {
                let mut seen = vec![false; self.nodes.len()];
                let mut stack: Vec<usize> = self
                    .edges
                    .iter()
                    .filter(|e| e.from == From::Source(s))
                    .map(|e| e.to)
                    .collect();
                while let Some(n) = stack.pop() {
                    if std::mem::replace(&mut seen[n], true) {
                        continue;
                    }
                    stack.extend(out_edges[n].iter().map(|&e| self.edges[e].to));
                }
                seen
            })
            .collect()
    }

    /// The layout a model describes.
    pub fn decode(&self, model: &[bool]) -> Level {
        let val = |l: Lit| holds(model, l);
        let belts = self.free.iter().enumerate().filter_map(|(i, &c)| {
            (1..5)
                .find(|&j| val(self.choice[i][j]))
                .and_then(|j| CHOICES[j].map(|d| (c, d)))
        });
        self.level.with_belts(belts)
    }

    /// The first free cell (in the order of `free`) to which `model` does not
    /// give exactly one option (C1), with the number of options it gives. No
    /// model of this encoding has one, so a model that does was cut short or
    /// belongs to another level's CNF.
    pub fn one_hot_violation(&self, model: &[bool]) -> Option<(CellId, usize)> {
        let val = |l: Lit| holds(model, l);
        self.free.iter().enumerate().find_map(|(i, &c)| {
            let n = self.choice[i].iter().filter(|&&l| val(l)).count();
            (n != 1).then_some((c, n))
        })
    }

    /// The literal for "free cell `c` holds what it holds in `layout`".
    pub fn chosen(&self, i: usize, layout: &Level) -> Lit {
        let belt = match layout.tile(self.free[i]) {
            Tile::Belt(d) => Some(d),
            _ => None,
        };
        self.choice[i][option_index(belt)]
    }

    /// The counterexample from a failed run: some `.` cell that a donut stood on
    /// must hold something else. Sound, because the run reads the player's choice
    /// only on cells a donut stood on (see `sim::Outcome::visited`).
    pub fn counterexample(&self, layout: &Level, outcome: &Outcome) -> Clause {
        (0..self.free.len())
            .filter(|&i| outcome.visited[self.free[i].index()])
            .map(|i| !self.chosen(i, layout))
            .collect()
    }

    /// Loop formulas for the model's unfounded donuts: nodes marked as holding a
    /// donut from `s` that no chain of active moves from `s` reaches. For such a
    /// set `L`, each node of `L` needs an active edge entering `L` from outside.
    /// Returns no clause when every marked node is founded. `founded` is
    /// [`Encoding::founded`] of the same model.
    ///
    /// With exact ranks the formulas do not name `act`, so that variable
    /// elimination may remove it ([`Encoding::interface`]): an edge from node
    /// `m` counts through a gate `y → q[s][m]`, `y → guard` instead (a fresh
    /// variable from `vm`, made once per source and edge and kept in `gates`;
    /// its two clauses come with the formulas). Since `act[s][e]` implies both,
    /// that is weaker, so still sound, and it still excludes this model: an
    /// edge into `L` whose start is marked and whose belt is chosen would have
    /// founded its end.
    pub fn unfounded(
        &self,
        model: &[bool],
        founded: &[Vec<bool>],
        vm: &mut dyn ManageVars,
        gates: &mut HashMap<(usize, usize), Lit>,
    ) -> Vec<Clause> {
        let val = |l: Lit| holds(model, l);
        let mut clauses = Vec::new();
        'sources: for s in 0..self.sources.len() {
            let lost: Vec<bool> = (0..self.nodes.len())
                .map(|n| self.q[s][n].is_some_and(val) && !founded[s][n])
                .collect();
            // Every edge entering the unfounded set from outside it.
            let mut external = Vec::new();
            for (e, edge) in self.edges.iter().enumerate() {
                let inside = match edge.from {
                    From::Source(_) => false,
                    From::Node(n) => lost[n],
                };
                if !lost[edge.to] || inside {
                    continue;
                }
                if !self.exact_ranks {
                    external.extend(self.act[s][e]);
                    continue;
                }
                match (edge.from, edge.guard) {
                    // The source's own emission: nothing to require.
                    (From::Source(t), _) if t == s => continue 'sources,
                    (From::Source(_), _) => {}
                    (From::Node(m), None) => external.extend(self.q[s][m]),
                    (From::Node(m), Some(g)) => {
                        let Some(qm) = self.q[s][m] else { continue };
                        let y = *gates.entry((s, e)).or_insert_with(|| {
                            let y = vm.new_lit();
                            clauses.push(Clause::from([!y, qm]));
                            clauses.push(Clause::from([!y, g]));
                            y
                        });
                        external.push(y);
                    }
                }
            }
            for u in (0..self.nodes.len()).filter(|&n| lost[n]) {
                let Some(qu) = self.q[s][u] else { continue };
                let mut cl = vec![!qu];
                cl.extend(external.iter().copied());
                clauses.push(cl.into_iter().collect());
            }
        }
        clauses
    }

    /// Per source, the marked nodes that a chain of active moves from the source
    /// reaches. The ranks (C7) leave out components without a fork, so a model
    /// may mark a loop there that nothing feeds; but such a loop feeds nothing
    /// else either (each of its nodes has one way on), so dropping it, and the
    /// belts only it uses, leaves a model of the relaxation: see
    /// [`Encoding::decode_founded`].
    pub fn founded(&self, model: &[bool]) -> Vec<Vec<bool>> {
        let val = |l: Lit| holds(model, l);
        (0..self.sources.len())
            .map(|s| {
                let marked: Vec<bool> = self.q[s].iter().map(|l| l.is_some_and(val)).collect();
                let mut founded = vec![false; self.nodes.len()];
                let open = |e: &Edge| marked[e.to] && e.guard.is_none_or(val);
                let mut stack: Vec<usize> = self
                    .edges
                    .iter()
                    .filter(|e| e.from == From::Source(s) && open(e))
                    .map(|e| e.to)
                    .collect();
                while let Some(n) = stack.pop() {
                    if std::mem::replace(&mut founded[n], true) {
                        continue;
                    }
                    for &e in &self.out_edges[n] {
                        if open(&self.edges[e]) {
                            stack.push(self.edges[e].to);
                        }
                    }
                }
                founded
            })
            .collect()
    }

    /// The layout a model describes, keeping only the belts on cells where a
    /// founded donut stands (see [`Encoding::founded`]).
    pub fn decode_founded(&self, model: &[bool], founded: &[Vec<bool>]) -> Level {
        let mut used = vec![false; self.level.shape.len()];
        for f in founded {
            for (n, &on) in f.iter().enumerate() {
                if on {
                    used[self.nodes[n].cell.index()] = true;
                }
            }
        }
        let mut layout = self.decode(model);
        for &c in &self.free {
            if !used[c.index()] {
                layout.tiles[c.index()] = Tile::Empty;
            }
        }
        layout
    }

    /// The partial assignment a real run gives: the layout's choices, `q` from the
    /// donuts seen at scans, edges active where both ends hold a donut from the
    /// same source, and `strong` false. Auxiliary counting variables stay unset.
    /// Every clause of the relaxation must be satisfiable from here: this is how
    /// the tests check the claim that the relaxation never cuts off a real run.
    pub fn witness(&self, layout: &Level, seen: &[crate::sim::Seen]) -> Vec<Option<bool>> {
        let mut val = vec![None; self.n_vars as usize];
        let mut set = |l: Lit, b: bool| val[l.var().idx()] = Some(b != l.is_neg());
        for i in 0..self.free.len() {
            let chosen = self.chosen(i, layout);
            for &l in &self.choice[i] {
                set(l, l == chosen);
            }
        }
        set(self.strong, false);
        for &g in &self.goals {
            set(g, true);
        }
        let ids: HashMap<Node, usize> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, i))
            .collect();
        let mut on = vec![vec![false; self.nodes.len()]; self.sources.len()];
        for &(cell, kind, origin, entry) in seen {
            let Some(s) = self.sources.iter().position(|&c| c == origin) else {
                continue;
            };
            if let Some(&n) = ids.get(&Node { cell, kind, entry }) {
                on[s][n] = true;
            }
        }
        let chosen: std::collections::HashSet<Lit> = (0..self.free.len())
            .map(|i| self.chosen(i, layout))
            .collect();
        for s in 0..self.sources.len() {
            for n in 0..self.nodes.len() {
                if let Some(l) = self.q[s][n] {
                    set(l, on[s][n]);
                }
            }
            for (e, edge) in self.edges.iter().enumerate() {
                let Some(a) = self.act[s][e] else { continue };
                let from_on = match edge.from {
                    From::Source(t) => t == s,
                    From::Node(n) => on[s][n],
                };
                let guard_on = edge.guard.is_none_or(|g| chosen.contains(&g));
                set(a, from_on && guard_on && on[s][edge.to]);
            }
        }
        for (s, ex) in self.exempt.iter().enumerate() {
            if let Some(ex) = *ex {
                set(
                    ex,
                    (0..self.nodes.len()).any(|n| on[s][n] && self.is_branch(n)),
                );
            }
        }
        // P1: the least marking that satisfies its clauses under this layout.
        if !self.pre.is_empty() {
            let mut marked = vec![false; self.nodes.len()];
            let mut stack: Vec<usize> = self
                .edges
                .iter()
                .filter(|e| e.from == From::Source(0) && e.first)
                .map(|e| e.to)
                .collect();
            while let Some(n) = stack.pop() {
                if std::mem::replace(&mut marked[n], true) || self.pre_stop[n] {
                    continue;
                }
                for &e in &self.out_edges[n] {
                    let edge = &self.edges[e];
                    if edge.first && edge.guard.is_none_or(|g| chosen.contains(&g)) {
                        stack.push(edge.to);
                    }
                }
            }
            for (n, p) in self.pre.iter().enumerate() {
                if let Some(p) = *p {
                    set(p, marked[n]);
                }
            }
        }
        for (i, &st) in self.strand.iter().enumerate() {
            let empty = layout.tile(self.free[i]) == Tile::Empty;
            let stood = (0..self.nodes.len())
                .any(|n| self.nodes[n].cell == self.free[i] && on.iter().any(|o| o[n]));
            set(st, empty && stood);
        }
        // R3's counters: `r[i]` is the disjunction of the first literals.
        for (lits, rs) in &self.r3_chains {
            let mut any = false;
            for (l, r) in lits.iter().zip(rs) {
                any |= val[l.var().idx()] == Some(!l.is_neg());
                val[r.var().idx()] = Some(any != r.is_neg());
            }
        }
        val
    }

    /// The encoding's clauses `all` (as written by [`Encoding::new`]) with
    /// the grounding by vertex elimination (C7′, `cegar::acyclic`: no cycle
    /// of `sup` edges) in place of the rank clauses: another encoding of the
    /// same problem, over the same variables but the ranks and the path
    /// variables it makes with `vm`. Exact too, and far smaller, but it makes
    /// some searches slower, so it is the racing copies' view. The same
    /// clauses when there are no exact ranks.
    pub fn acyclic_clauses(&mut self, all: &[Clause], vm: &mut dyn ManageVars) -> Vec<Clause> {
        let Some(RankClauses {
            range,
            support_edges,
        }) = &self.acyclic_view
        else {
            return all.to_vec();
        };
        let mut out = all[..range.start].to_vec();
        for edges in support_edges {
            cegar::acyclic::forbid_cycles(edges, vm, &mut |cl| out.push(cl));
        }
        out.extend_from_slice(&all[range.end..]);
        self.n_vars = vm.n_used();
        out
    }

    /// The variables that clauses and assumptions given to the solver after
    /// the encoding may name, so preprocessing must keep them
    /// ([`cegar::sat::elim`]): the belt choices (counterexamples, windows),
    /// `strong`, the goals, the belt counter's outputs (bounds), `pre` and
    /// `strand` (X2), every `q` (loop formulas), and `act` where the loop
    /// formulas name it (without exact ranks; see [`Encoding::unfounded`]).
    pub fn interface(&self) -> Vec<bool> {
        let mut keep = vec![false; self.n_vars as usize];
        for v in self.belts_vars.clone() {
            if let Some(k) = keep.get_mut(v) {
                *k = true;
            }
        }
        let mut mark = |l: Lit| {
            if let Some(k) = keep.get_mut(l.var().idx()) {
                *k = true;
            }
        };
        self.choice.iter().flatten().for_each(|&l| mark(l));
        mark(self.strong);
        self.goals.iter().for_each(|&l| mark(l));
        for b in 0..=self.free.len() {
            for l in self.belts.enforce_ub(b).unwrap_or_default() {
                mark(l);
            }
        }
        self.pre.iter().flatten().for_each(|&l| mark(l));
        self.strand.iter().for_each(|&l| mark(l));
        self.q.iter().flatten().flatten().for_each(|&l| mark(l));
        if !self.exact_ranks {
            self.act.iter().flatten().flatten().for_each(|&l| mark(l));
        }
        keep
    }

    /// The largest `k` for which `belts.enforce_ub(k)` works now.
    pub fn belts_encoded_upto(&self) -> usize {
        self.belts_upto
    }

    /// Makes `belts.enforce_ub(k)` work, returning the clauses that takes
    /// (none where the counter already covers `k`). A lazy counter grows to at
    /// least twice its last size, so a descent of bounds re-encodes rarely.
    pub fn bound_belts(&mut self, k: usize, vm: &mut dyn ManageVars) -> Vec<Clause> {
        let n_free = self.free.len();
        if k <= self.belts_upto || self.belts_upto >= n_free {
            return Vec::new();
        }
        let upto = k.max(2 * self.belts_upto).min(n_free);
        let mut cnf = rustsat::instances::Cnf::new();
        let _ = self.belts.encode_ub_change(0..=upto, &mut cnf, vm);
        self.belts_upto = upto;
        cnf.into_iter().collect()
    }

    /// Comments naming every belt variable, for DIMACS files.
    pub fn variable_comments(&self) -> Vec<String> {
        let mut out = vec![
            format!(
                "frosted encoding of a {}x{} level with {} free cells",
                self.level.shape.width,
                self.level.shape.height,
                self.free.len()
            ),
            "choice variables: `c choice VAR X Y OPTION`, OPTION one of none up down left right; exactly one per cell".into(),
        ];
        for (i, &c) in self.free.iter().enumerate() {
            let p = self.level.pos(c);
            for (j, opt) in CHOICES.iter().enumerate() {
                let name = option_name(*opt);
                out.push(format!(
                    "choice {} {} {} {}",
                    self.choice[i][j].to_ipasir(),
                    p.x,
                    p.y,
                    name
                ));
            }
        }
        out.push(format!("strong {}", self.strong.to_ipasir()));
        out
    }
}

/// A fact about one free cell's option, fixed by a unit clause in a dumped
/// CNF (`frosted dump-cnf --assume`): the cell at `pos` holds `option`
/// (`None`: no belt), or with `holds` false, does not. Written `X,Y=OPTION` or
/// `X,Y!=OPTION`, with the coordinates of the `c choice` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellFact {
    pub pos: crate::grid::Pos,
    pub option: Option<Dir>,
    pub holds: bool,
}

impl std::str::FromStr for CellFact {
    type Err = String;

    fn from_str(s: &str) -> Result<CellFact, String> {
        let form = "expected X,Y=OPTION or X,Y!=OPTION (OPTION one of none, up, down, left, right), e.g. 4,7=down";
        let (cell, option, holds) = match s.split_once("!=") {
            Some((c, o)) => (c, o, false),
            None => match s.split_once('=') {
                Some((c, o)) => (c, o, true),
                None => return Err(form.to_string()),
            },
        };
        let coordinate = |t: &str| t.trim().parse::<usize>().ok();
        let pos = match cell.split_once(',') {
            Some((x, y)) => match (coordinate(x), coordinate(y)) {
                (Some(x), Some(y)) => crate::grid::Pos { x, y },
                _ => {
                    return Err(format!(
                        "the cell `{cell}` is not two whole numbers X,Y; {form}"
                    ))
                }
            },
            None => return Err(format!("the cell `{cell}` is not X,Y; {form}")),
        };
        let option = match CHOICES.iter().find(|&&o| option_name(o) == option.trim()) {
            Some(&o) => o,
            None => return Err(format!("`{option}` is not an option; {form}")),
        };
        Ok(CellFact { pos, option, holds })
    }
}

impl std::fmt::Display for CellFact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let eq = if self.holds { "=" } else { "!=" };
        let option = option_name(self.option);
        write!(f, "{},{}{eq}{option}", self.pos.x, self.pos.y)
    }
}

impl Encoding {
    /// The literal that says [`CellFact`] `fact` holds, or why there is none
    /// (the cell is off the grid or not a free cell).
    pub fn fact_literal(&self, fact: CellFact) -> Result<Lit, String> {
        let shape = self.level.shape;
        let p = fact.pos;
        if p.x >= shape.width || p.y >= shape.height {
            return Err(format!(
                "`{fact}`: the cell {p} is off the {}x{} grid",
                shape.width, shape.height
            ));
        }
        let cell = shape.cell(p);
        let Some(&i) = self.free_ix.get(&cell) else {
            return Err(format!(
                "`{fact}`: the cell {p} is not a free cell (a `.`): it holds {}",
                self.level.tile(cell).describe()
            ));
        };
        let lit = self.choice[i][option_index(fact.option)];
        Ok(if fact.holds { lit } else { !lit })
    }
}

/// What `frosted dump-cnf` writes: see [`dimacs`].
#[derive(Clone, Debug, Default)]
pub struct Dump {
    /// Add unit clauses bounding the layout to at most this many belts.
    pub max_belts: Option<usize>,
    /// `¬strong` instead of `strong`: the pure relaxation.
    pub relaxed: bool,
    /// C7′ in place of the ranks.
    pub acyclic: bool,
    /// Unit clauses fixing free cells' options: one case of a split proof.
    pub assume: Vec<CellFact>,
}

/// The first-iteration CNF of a level as DIMACS text, with `c` lines naming every
/// choice variable: the encoding plus unit clauses for the first call's
/// assumptions (`strong`, or its negation when `relaxed`, and at most `max_belts`
/// belts), and one for each fact of `assume`. With `acyclic`, loops are
/// grounded by vertex elimination (C7′, the racing copies' view:
/// [`Encoding::acyclic_clauses`]) instead of ranks; the choice variables keep
/// their numbers, so a model decodes the same way. An error names a fact
/// about a cell that is not free.
pub fn dimacs(level: &Level, dump: &Dump) -> Result<String, String> {
    let mut vars = rustsat::instances::BasicVarManager::default();
    let mut cnf = rustsat::instances::Cnf::new();
    let mut enc = Encoding::new(level, &mut cnf, &mut vars);
    let mut clauses: Vec<Clause> = cnf.into_iter().collect();
    let mut comments = enc.variable_comments();
    if dump.acyclic {
        comments.push(if enc.acyclic_view.is_some() {
            "loops grounded by vertex elimination (C7′) instead of ranks".into()
        } else {
            "no exact ranks to replace: the same clauses as without --acyclic".into()
        });
        clauses = enc.acyclic_clauses(&clauses, &mut vars);
    }
    let mut assumptions = vec![if dump.relaxed {
        !enc.strong
    } else {
        enc.strong
    }];
    assumptions.extend(&enc.goals);
    if let Some(k) = dump.max_belts.filter(|&k| k < enc.free.len()) {
        clauses.extend(enc.bound_belts(k, &mut vars));
        assumptions.extend(enc.belts.enforce_ub(k).unwrap_or_default());
    }
    if !dump.assume.is_empty() {
        for &fact in &dump.assume {
            assumptions.push(enc.fact_literal(fact)?);
        }
        let facts: Vec<String> = dump.assume.iter().map(|f| f.to_string()).collect();
        comments.push(format!("assumed: {}", facts.join(" ")));
    }
    let mut text = String::new();
    cegar::sat::dimacs::write_with_assumptions(
        &mut text,
        vars.n_used(),
        clauses.iter(),
        &assumptions,
        &comments,
    );
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_facts_read_and_print() {
        let fact: CellFact = "4,7=down".parse().unwrap();
        let pos = crate::grid::Pos { x: 4, y: 7 };
        let expected = CellFact {
            pos,
            option: Some(Dir::Down),
            holds: true,
        };
        assert_eq!(fact, expected);
        let denied: CellFact = " 4 , 1 != none ".parse().unwrap();
        assert_eq!((denied.option, denied.holds), (None, false));
        for text in ["4,7=down", "4,1!=up", "0,0=none", "12,3!=left"] {
            assert_eq!(text.parse::<CellFact>().unwrap().to_string(), text);
        }
        for bad in ["4,7", "4=down", "4,7=Down", "-1,2=up", "4,7,1=up", ""] {
            assert!(bad.parse::<CellFact>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fact_literals_name_the_cell_option() {
        let level = crate::parse::parse("+>  .   ->\n").unwrap();
        let mut vars = rustsat::instances::BasicVarManager::default();
        let mut cnf = rustsat::instances::Cnf::new();
        let enc = Encoding::new(&level, &mut cnf, &mut vars);
        let right: CellFact = "1,0=right".parse().unwrap();
        assert_eq!(enc.fact_literal(right), Ok(enc.choice[0][4]));
        let not_none: CellFact = "1,0!=none".parse().unwrap();
        assert_eq!(enc.fact_literal(not_none), Ok(!enc.choice[0][0]));
        let source: CellFact = "0,0=up".parse().unwrap();
        assert!(enc
            .fact_literal(source)
            .unwrap_err()
            .contains("a source facing right"));
        let off: CellFact = "3,0=up".parse().unwrap();
        assert!(enc
            .fact_literal(off)
            .unwrap_err()
            .contains("off the 3x1 grid"));
    }
}

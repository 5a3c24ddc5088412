//! The SAT encoding of a level as a belt-layout problem (documented, constraint
//! by constraint, in `encodings/README.md`).
//!
//! The encoder asks a variable manager for variables and writes clauses into any
//! rustsat clause collector, so the same encoding feeds a solver or a DIMACS file.
//! Every constraint is either a *relaxation* of the exact rules (every real
//! solution satisfies it) or is guarded by the `strong` literal, which the solve
//! loop assumes only while searching, never while proving.

use crate::grid::{CellId, Dir, Kind};
use crate::level::{Level, Tile};
use crate::sim::Outcome;
use rustsat::encodings::card::{BoundBoth, BoundUpper, Totalizer};
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
}

/// The options of a `.` cell, in this order.
pub const CHOICES: [Option<Dir>; 5] = [
    None,
    Some(Dir::Up),
    Some(Dir::Down),
    Some(Dir::Left),
    Some(Dir::Right),
];

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
    pub n_vars: u32,
    /// A source's first move is invalid: every run fails at tick 1.
    dead: bool,
    /// Whether the ranks are exact (no loop can ever be unfounded) or a
    /// searching-only strengthening (loop formulas then keep proofs sound).
    pub exact_ranks: bool,
}

/// The most rank clauses (roughly) the encoding spends on exact ranks.
const RANK_BUDGET: usize = 400_000;

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
    /// Builds the encoding of `level`, writing clauses into `col`.
    pub fn new(level: &Level, col: &mut impl CollectClauses, vm: &mut dyn ManageVars) -> Encoding {
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
            n_vars: 0,
            dead: false,
            exact_ranks: false,
        };
        let mut add = |cl: Clause| {
            let _ = col.add_clause(cl);
        };

        // C1: exactly one choice per `.` cell.
        for ch in &enc.choice {
            add(ch.iter().copied().collect());
            for i in 0..5 {
                for j in i + 1..5 {
                    add(Clause::from([!ch[i], !ch[j]]));
                }
            }
        }

        let infos = enc.build_graph();
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

        // C7 (ranks): a donut's support comes from a node of strictly smaller rank,
        // ranks in order encoding `rank(n) >= j` for j = 1..=H. With H at least the
        // number of nodes a source reaches, this bans every self-supporting loop
        // and cuts off nothing real (a real donut's support chain is a simple path);
        // when that is too large, a smaller H is used only while searching.
        let sizes: Vec<(usize, usize)> = (0..n_src)
            .map(|s| {
                let nodes = enc.q[s].iter().filter(|l| l.is_some()).count();
                let edges = enc.act[s].iter().filter(|l| l.is_some()).count();
                (nodes, edges)
            })
            .collect();
        let cost: usize = sizes.iter().map(|(n, e)| (n + e) * n).sum();
        let budget: usize = std::env::var("FROSTED_RANK_BUDGET")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(RANK_BUDGET);
        enc.exact_ranks = cost <= budget;
        for s in 0..n_src {
            let (nodes, edges) = sizes[s];
            let h = if enc.exact_ranks {
                nodes
            } else {
                (budget / n_src.max(1) / (nodes + edges).max(1)).clamp(4, nodes.max(4))
            };
            let gate: Vec<Lit> = if enc.exact_ranks {
                vec![]
            } else {
                vec![!strong]
            };
            let rank: Vec<Vec<Lit>> = (0..enc.nodes.len())
                .map(|n| {
                    if enc.q[s][n].is_some() {
                        (0..h).map(|_| vm.new_lit()).collect()
                    } else {
                        Vec::new()
                    }
                })
                .collect();
            for r in &rank {
                for j in 1..r.len() {
                    add(Clause::from([!r[j], r[j - 1]]));
                }
            }
            let mut sup_in: Vec<Vec<Lit>> = vec![Vec::new(); enc.nodes.len()];
            let mut rooted = vec![false; enc.nodes.len()];
            for (e, edge) in enc.edges.iter().enumerate() {
                let Some(a) = enc.act[s][e] else { continue };
                match edge.from {
                    From::Source(_) => rooted[edge.to] = true,
                    From::Node(m) => {
                        let sup = vm.new_lit();
                        sup_in[edge.to].push(sup);
                        add(Clause::from([!sup, a]));
                        let (rm, rn) = (&rank[m], &rank[edge.to]);
                        add(Clause::from([!sup, rn[0]]));
                        for j in 0..h {
                            let mut cl = vec![!sup, !rm[j]];
                            if j + 1 < h {
                                cl.push(rn[j + 1]);
                            }
                            add(cl.into_iter().collect());
                        }
                    }
                }
            }
            for n in 0..enc.nodes.len() {
                let Some(qn) = enc.q[s][n] else { continue };
                if rooted[n] {
                    continue;
                }
                let mut cl = gate.clone();
                cl.push(!qn);
                cl.extend(sup_in[n].iter().copied());
                add(cl.into_iter().collect());
            }
        }

        // C4: every target receives, every source delivers.
        for t in enc.level.targets().collect::<Vec<_>>() {
            let lits: Vec<Lit> = enc.delivery_lits(&infos, |n| n.cell == t).collect();
            add(lits.into_iter().collect());
        }
        for s in 0..n_src {
            let lits: Vec<Lit> = (0..enc.nodes.len())
                .filter(|&n| infos[n].delivery)
                .filter_map(|n| enc.q[s][n])
                .collect();
            add(lits.into_iter().collect());
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
                    add(Clause::new());
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
                        add(Clause::from([u]));
                    }
                }
            }
        }

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

        // The belt counter: bounds are set by assumptions.
        let has_belt: Vec<Lit> = enc.choice.iter().map(|ch| !ch[0]).collect();
        enc.belts = Totalizer::from_iter(has_belt);
        let mut cnf = rustsat::instances::Cnf::new();
        let _ = enc.belts.encode_ub(0..=enc.free.len(), &mut cnf, vm);
        for cl in cnf {
            add(cl);
        }
        enc.n_vars = vm.n_used();
        enc
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
    fn build_graph(&mut self) -> Vec<NodeInfo> {
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
            let bumper = Dir::ALL.into_iter().find(|&d| {
                shape.step(p, d.opposite()).is_some_and(|b| {
                    matches!(level.tile(b), Tile::Bumper { dir, kind } if dir == d && kind == k)
                })
            });
            // (direction, guard, required-valid)
            let mut moves: Vec<(Dir, Option<Lit>, bool)> = Vec::new();
            let mut teleport = false;
            match (bumper, tile) {
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
                    let bumped_here = Dir::ALL.into_iter().any(|d| {
                        shape.step(p, d.opposite()).is_some_and(
                            |b| matches!(level.tile(b), Tile::Bumper { dir, .. } if dir == d),
                        )
                    });
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
            for (d, guard, required) in moves {
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
                        }
                    }
                }
            }
            if teleport {
                if let Tile::TeleIn(ch) = tile {
                    let outs: Vec<CellId> = shape
                        .cells()
                        .filter(|&o| matches!(level.tile(o), Tile::TeleOut(c, _) if c == ch))
                        .collect();
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
        let val = |l: Lit| model.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg();
        let belts = self.free.iter().enumerate().filter_map(|(i, &c)| {
            (1..5)
                .find(|&j| val(self.choice[i][j]))
                .and_then(|j| CHOICES[j].map(|d| (c, d)))
        });
        self.level.with_belts(belts)
    }

    /// The literal for "free cell `c` holds what it holds in `layout`".
    fn chosen(&self, i: usize, layout: &Level) -> Lit {
        let j = match layout.tile(self.free[i]) {
            Tile::Belt(d) => 1 + d.index(),
            _ => 0,
        };
        self.choice[i][j]
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
    /// Returns no clause when every marked node is founded.
    pub fn unfounded(&self, model: &[bool]) -> Vec<Clause> {
        let val = |l: Lit| model.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg();
        let out_edges = &self.out_edges;
        let mut clauses = Vec::new();
        for s in 0..self.sources.len() {
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
                for &e in &out_edges[n] {
                    if open(&self.edges[e]) {
                        stack.push(self.edges[e].to);
                    }
                }
            }
            let lost: Vec<bool> = (0..self.nodes.len())
                .map(|n| marked[n] && !founded[n])
                .collect();
            // Every edge entering the unfounded set from outside it.
            let mut external = Vec::new();
            for (e, edge) in self.edges.iter().enumerate() {
                let inside = match edge.from {
                    From::Source(_) => false,
                    From::Node(n) => lost[n],
                };
                if lost[edge.to] && !inside {
                    external.extend(self.act[s][e]);
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
        val
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
                let name = opt.map_or("none", |d| d.name());
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

/// The first-iteration CNF of a level as DIMACS text, with `c` lines naming every
/// choice variable: the encoding plus unit clauses for the first call's
/// assumptions (`strong`, or its negation with `relaxed`, and at most `max_belts`
/// belts).
pub fn dimacs(level: &Level, max_belts: Option<usize>, relaxed: bool) -> String {
    let mut vars = rustsat::instances::BasicVarManager::default();
    let mut cnf = rustsat::instances::Cnf::new();
    let enc = Encoding::new(level, &mut cnf, &mut vars);
    let mut units = vec![Clause::from([if relaxed {
        !enc.strong
    } else {
        enc.strong
    }])];
    if let Some(k) = max_belts.filter(|&k| k < enc.free.len()) {
        for l in enc.belts.enforce_ub(k).unwrap_or_default() {
            units.push(Clause::from([l]));
        }
    }
    let mut text = String::new();
    crate::sat::dimacs::write(
        &mut text,
        vars.n_used(),
        cnf.iter().chain(units.iter()),
        &enc.variable_comments(),
    );
    text
}

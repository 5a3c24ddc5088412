//! The move graph (`encodings/README.md`, "Words"): every node a donut can
//! stand on under *some* layout, and an edge for every move the rules allow
//! from it, labelled with the belt choice it needs. Built once from the rules,
//! before any clause; the constraint families read it.

use super::{Encoding, FreeId, NodeId, SourceId, CHOICES};
use crate::grid::{CellId, Dir, Kind};
use crate::level::{Level, Tile};
use cegar::keyed::{KeyedVec, StorageKey};
use rustsat::types::Lit;
use std::collections::HashMap;

cegar::keyed_index!(
    /// An edge of the move graph (a position in [`Encoding::edges`]).
    pub struct EdgeId;
);
cegar::keyed_index!(
    /// A strongly connected component of the move graph.
    pub struct ComponentId;
);

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
    Source(SourceId),
    Node(NodeId),
}

/// A possible move of a donut from one node to the next.
#[derive(Copy, Clone, Debug)]
pub struct Edge {
    pub from: From,
    pub to: NodeId,
    /// The belt choice the move needs, when it leaves a `.` cell.
    pub guard: Option<Lit>,
    /// Whether `to.kind` is the kind after the toppers of `to` act once (rather
    /// than after a donut waited there for several ticks).
    pub first: bool,
}

/// What the encoding knows about one node.
#[derive(Clone, Debug, Default)]
pub(super) struct NodeInfo {
    /// A move from this node that is always invalid (off the grid, or into an
    /// entity that cannot be entered), or a wrong delivery.
    pub forbidden: bool,
    /// Choices on this `.` cell that would push the donut somewhere invalid.
    pub bad_choices: Vec<Lit>,
    /// A splitter whose second (right) exit is invalid.
    pub bad_right: bool,
    /// The node is a delivery (a donut on a target that no bumper moves).
    pub delivery: bool,
    /// Where a donut here goes next, one group per belt choice (guard): the
    /// first-topping nodes it may land on (several for a splitter or a
    /// teleporter in).
    pub exits: Vec<(Option<Lit>, Vec<NodeId>)>,
    /// The node this donut becomes if it waits here and the toppers act again.
    pub retop: Option<NodeId>,
}

impl NodeInfo {
    /// "A donut marked by `at` goes on": for every way on that leads
    /// somewhere, the clause `¬at ∨ escapes ∨ ¬label ∨ ∨ mark(to)` over
    /// the nodes `to` it leads to (F1 with `q`, F3 with `first`).
    pub fn goes_on(
        &self,
        at: Lit,
        escapes: &[Lit],
        mark: impl Fn(NodeId) -> Option<Lit>,
    ) -> Vec<Vec<Lit>> {
        self.exits
            .iter()
            .filter(|(_, dests)| !dests.is_empty())
            .map(|(guard, dests)| {
                let mut cl = vec![!at];
                cl.extend(escapes);
                cl.extend(guard.map(|g| !g));
                cl.extend(dests.iter().filter_map(|&m| mark(m)));
                cl
            })
            .collect()
    }
}

/// The per-node facts, indexed like [`Encoding::nodes`].
pub(super) type NodeInfos = KeyedVec<NodeId, NodeInfo>;

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

/// The kind of a donut of kind `k` once the toppers of `cell` acted on it once.
pub(super) fn topped_once(level: &Level, cell: CellId, k: Kind) -> Kind {
    topper_fn(level, cell)(k)
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

/// Where a move from `p` in direction `d` with kind `k` lands: the cell, the
/// entry direction (on a crossover) and the kinds it may show there (the
/// first one is the first topping), or `None` if the move is invalid.
fn land(level: &Level, p: CellId, d: Dir, k: Kind) -> Option<(CellId, Option<Dir>, Vec<Kind>)> {
    let q = level.shape.step(p, d)?;
    let tile = level.tile(q);
    if !tile.can_enter(d) {
        return None;
    }
    let entry = (tile == Tile::Crossover).then_some(d);
    Some((q, entry, arrival_kinds(level, q, k)))
}

/// A move a donut on a node may make: its direction, the belt choice it
/// needs, and whether it must be valid (an invalid one fails the run).
type Move = (Dir, Option<Lit>, bool);

/// The graph under construction: node numbers, and what is known of each node.
#[derive(Default)]
struct Builder {
    ids: HashMap<Node, NodeId>,
    infos: NodeInfos,
}

impl Encoding {
    /// The number of `node`, adding it (and its info) if it is new.
    fn node_id(&mut self, b: &mut Builder, node: Node) -> NodeId {
        if let Some(&i) = b.ids.get(&node) {
            return i;
        }
        let i = self.nodes.push(node);
        self.in_edges.push(Vec::new());
        b.infos.push(NodeInfo::default());
        b.ids.insert(node, i);
        i
    }

    fn push_edge(&mut self, edge: Edge) {
        let e = EdgeId::create_from_index(self.edges.len());
        self.in_edges[edge.to].push(e);
        self.edges.push(edge);
    }

    /// Builds every node reachable from a source under some layout, and the
    /// edges; returns what it learned of each node.
    pub(super) fn build_graph(&mut self, pushes: &[[Option<Kind>; 4]]) -> NodeInfos {
        let level = self.level.clone();
        let mut b = Builder::default();
        let mut dead_source = false;
        for (s, node, first) in self.source_landings(&level) {
            if node.cell == self.sources[s] {
                dead_source = true;
                continue;
            }
            let to = self.node_id(&mut b, node);
            self.push_edge(Edge {
                from: From::Source(s),
                to,
                guard: None,
                first,
            });
        }
        let mut done = 0;
        while done < self.nodes.len() {
            let n = NodeId::create_from_index(done);
            done += 1;
            self.expand_node(&level, &mut b, n, pushes);
        }
        self.out_edges = KeyedVec::filled(self.nodes.len(), Vec::new());
        for (e, edge) in self.edges.enumerate() {
            if let From::Node(n) = edge.from {
                self.out_edges[n].push(e);
            }
        }
        // A source whose first move is invalid fails every run at tick 1.
        if dead_source {
            self.dead = true;
        }
        b.infos
    }

    /// Where each source's donuts land first, with whether that is the first
    /// topping; a source whose first move is invalid gets its own cell.
    fn source_landings(&self, level: &Level) -> Vec<(SourceId, Node, bool)> {
        let mut roots = Vec::new();
        for (s, &c) in self.sources.enumerate() {
            let (d, kinds): (Dir, Vec<Kind>) = match level.tile(c) {
                Tile::Source(d) => (d, vec![Kind::PLAIN]),
                Tile::AnySource(d) => (d, Kind::ALL.to_vec()),
                _ => continue,
            };
            for k in kinds {
                match land(level, c, d, k) {
                    Some((cell, entry, ks)) => {
                        for (i, kind) in ks.into_iter().enumerate() {
                            roots.push((s, Node { cell, kind, entry }, i == 0));
                        }
                    }
                    None => {
                        let node = Node {
                            cell: c,
                            kind: k,
                            entry: None,
                        };
                        roots.push((s, node, false));
                    }
                }
            }
        }
        roots
    }

    /// Adds the edges out of node `n` (and the nodes they reach).
    fn expand_node(
        &mut self,
        level: &Level,
        b: &mut Builder,
        n: NodeId,
        pushes: &[[Option<Kind>; 4]],
    ) {
        let Node {
            cell: p,
            kind: k,
            entry,
        } = self.nodes[n];
        let tile = level.tile(p);
        let bumper = Dir::ALL
            .into_iter()
            .find(|&d| pushes[p.index()][d.index()] == Some(k));
        let moves = self.moves(&mut b.infos[n], tile, bumper, self.nodes[n], pushes);
        let splits = matches!((bumper, tile), (None, Tile::Splitter(_)));
        let again = topper_fn(level, p)(k);
        if again != k {
            let node = Node {
                cell: p,
                kind: again,
                entry,
            };
            let r = self.node_id(b, node);
            b.infos[n].retop = Some(r);
        }
        for (d, guard, required) in moves {
            if !splits || b.infos[n].exits.is_empty() {
                b.infos[n].exits.push((guard, Vec::new()));
            }
            match land(level, p, d, k) {
                None => match (guard, required) {
                    (Some(g), _) => b.infos[n].bad_choices.push(g),
                    (None, true) => b.infos[n].forbidden = true,
                    (None, false) => b.infos[n].bad_right = true,
                },
                Some((q, e, ks)) => self.arrive(b, n, guard, q, e, ks),
            }
        }
        let teleport = bumper.is_none() && matches!(tile, Tile::TeleIn(_));
        if let (true, Tile::TeleIn(ch)) = (teleport, tile) {
            b.infos[n].exits.push((None, Vec::new()));
            let outs: Vec<CellId> = level.tele_outs(ch).collect();
            for o in outs {
                self.arrive(b, n, None, o, None, arrival_kinds(level, o, k));
            }
        }
    }

    /// The moves from `node`, on `tile` (a `bumper` pushes first), marking
    /// deliveries and wrong deliveries in `info`.
    fn moves(
        &self,
        info: &mut NodeInfo,
        tile: Tile,
        bumper: Option<Dir>,
        node: Node,
        pushes: &[[Option<Kind>; 4]],
    ) -> Vec<Move> {
        let Node {
            cell: p,
            kind: k,
            entry,
        } = node;
        let mut moves: Vec<Move> = Vec::new();
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
                info.delivery = true;
                if !accepts.accepts(k) {
                    info.forbidden = true;
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
            _ => {}
        }
        moves
    }

    /// The edges of a move from `n` that arrives on cell `q` (entered `e`)
    /// with the kinds `ks`; the first-topping one joins `n`'s last exit.
    fn arrive(
        &mut self,
        b: &mut Builder,
        n: NodeId,
        guard: Option<Lit>,
        q: CellId,
        e: Option<Dir>,
        ks: Vec<Kind>,
    ) {
        for (i, kind) in ks.into_iter().enumerate() {
            let node = Node {
                cell: q,
                kind,
                entry: e,
            };
            let to = self.node_id(b, node);
            self.push_edge(Edge {
                from: From::Node(n),
                to,
                guard,
                first: i == 0,
            });
            if i == 0 {
                if let Some(x) = b.infos[n].exits.last_mut() {
                    x.1.push(to);
                }
            }
        }
    }

    /// The strongly connected components of the move graph (every edge, as if
    /// every guard held): a component number per node (Tarjan's algorithm,
    /// iterative).
    pub(super) fn components(&self) -> KeyedVec<NodeId, ComponentId> {
        const NONE: usize = usize::MAX;
        let n = self.nodes.len();
        let succ = |v: NodeId| -> Vec<NodeId> {
            self.out_edges[v]
                .iter()
                .map(|&e| self.edges[e].to)
                .collect()
        };
        let mut index = KeyedVec::filled(n, NONE);
        let mut low = KeyedVec::filled(n, 0);
        let mut on_stack = KeyedVec::filled(n, false);
        let mut comp = KeyedVec::filled(n, NONE);
        let mut stack = Vec::new();
        let mut next = 0;
        let mut n_comps = 0;
        for root in self.nodes.keys() {
            if index[root] != NONE {
                continue;
            }
            // (node, its successors, how many were looked at)
            let mut work: Vec<(NodeId, Vec<NodeId>, usize)> = vec![(root, succ(root), 0)];
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
        comp.into_iter()
            .map(ComponentId::create_from_index)
            .collect()
    }

    /// A node where donuts of one source may part ways: a splitter, a teleporter
    /// in with several outs, or a cell where a waiting donut is topped again.
    /// (A teleporter in with one out sends every donut the same way, like a
    /// belt.)
    pub(super) fn is_branch(&self, n: NodeId) -> bool {
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
    pub(super) fn is_fork(&self, n: NodeId) -> bool {
        self.splits(self.nodes[n].cell) || self.out_edges[n].iter().any(|&e| !self.edges[e].first)
    }

    /// The first nodes of source `s`: where its emission lands.
    pub(super) fn landings(&self, s: SourceId) -> impl Iterator<Item = &Edge> + '_ {
        self.edges.iter().filter(move |e| e.from == From::Source(s))
    }

    /// Which nodes each source can reach under some layout.
    pub(super) fn reachable(&self) -> KeyedVec<SourceId, KeyedVec<NodeId, bool>> {
        self.sources
            .keys()
            .map(|s| {
                let mut seen = KeyedVec::filled(self.nodes.len(), false);
                let mut stack: Vec<NodeId> = self.landings(s).map(|e| e.to).collect();
                while let Some(n) = stack.pop() {
                    if std::mem::replace(&mut seen[n], true) {
                        continue;
                    }
                    stack.extend(self.out_edges[n].iter().map(|&e| self.edges[e].to));
                }
                seen
            })
            .collect()
    }

    /// The free cell `c` is, if it is one.
    pub(crate) fn free_id(&self, c: CellId) -> Option<FreeId> {
        self.free_ix.get(&c).copied()
    }
}

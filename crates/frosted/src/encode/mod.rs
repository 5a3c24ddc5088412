//! The SAT encoding of a level as a belt-layout problem (documented, constraint
//! by constraint, in `encodings/README.md`; the labels in comments, C1, F1, ...,
//! refer to it).
//!
//! The encoder asks a variable manager for variables and writes clauses into any
//! rustsat clause collector, so the same encoding feeds a solver or a DIMACS file.
//! Every constraint is either a *relaxation* of the exact rules (every real
//! solution satisfies it) or is guarded by the `strong` literal, which the solve
//! loop assumes only while searching, never while proving.
//!
//! The parts: [`graph`] builds the move graph; one module per group of
//! constraint families writes their clauses ([`cells`], [`flows`],
//! [`grounding`], [`requirements`], [`routes`], [`first_donut`], [`prefix`],
//! [`counter`]);
//! [`decode`] reads models back and makes the loop's clauses; [`witness`]
//! gives the assignment a real run makes; [`dump`] writes DIMACS.
//! [`Encoding::new`] calls the families in a fixed order: the solver's speed
//! depends on the exact clauses and their order.

pub mod cells;
pub mod counter;
pub mod decode;
pub mod dump;
pub mod first_donut;
pub mod flows;
pub mod graph;
pub mod grounding;
pub mod prefix;
pub mod requirements;
pub mod routes;
pub mod witness;

pub use decode::{Founded, LoopGates};
pub use dump::{dimacs, CellFact, Dump};
pub use graph::{Edge, EdgeId, From, Node};
pub use grounding::RankClauses;

use crate::grid::{CellId, Dir};
use crate::level::Level;
use crate::requirement::Requirement;
use cegar::cost::CostCounter;
use cegar::keyed::KeyedVec;
use routes::CellOnceCounter;
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};
use std::collections::HashMap;

cegar::keyed_index!(
    /// A node of the move graph (a position in [`Encoding::nodes`]).
    pub struct NodeId;
);
cegar::keyed_index!(
    /// A source of the level (a position in [`Encoding::sources`]).
    pub struct SourceId;
);
cegar::keyed_index!(
    /// A `.` cell of the level (a position in [`Encoding::free`]).
    pub struct FreeId;
);

/// Per source and node: `q[s][n]` and the like.
pub type PerSourceNode<V> = KeyedVec<SourceId, KeyedVec<NodeId, V>>;

/// The options of a `.` cell, in this order.
pub const CHOICES: [Option<Dir>; 5] = [
    None,
    Some(Dir::Up),
    Some(Dir::Down),
    Some(Dir::Left),
    Some(Dir::Right),
];

/// The index of option `o` in [`CHOICES`].
pub(crate) fn option_index(o: Option<Dir>) -> usize {
    o.map_or(0, |d| 1 + d.index())
}

/// Option `o`'s name in `c choice` lines and `--assume` facts.
fn option_name(o: Option<Dir>) -> &'static str {
    o.map_or("none", |d| d.name())
}

/// Whether `model` makes `l` true (a variable it does not cover is false).
fn holds(model: &[bool], l: Lit) -> bool {
    model.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg()
}

/// How much the encoding may spend where it has a choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Above this many free cells, the belt counter is encoded only for the
    /// bounds asked for, not for all of them up front (which costs clauses
    /// in the square of the number of free cells); see
    /// [`Encoding::bound_belts`].
    pub lazy_counter_from: usize,
    /// The most rank clauses (roughly) the encoding spends on the ranks
    /// (C7); above it, it writes none, and the loop formulas (L1) ground
    /// the flows lazily in searching as in proving.
    pub rank_budget: usize,
    /// Put each requirement of the rules' section 5 behind its own switch
    /// ([`Encoding::switches`]) and the route constraints that rest on a
    /// source's delivery behind that source's switch, so that requirement
    /// cores can be asked for (`crate::explain`). Off for a plain solve,
    /// whose formula is then unchanged.
    pub requirement_switches: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            lazy_counter_from: 1000,
            rank_budget: 100_000,
            requirement_switches: false,
        }
    }
}

/// The encoded level.
pub struct Encoding {
    pub level: Level,
    /// The `.` cells, row-major.
    pub free: KeyedVec<FreeId, CellId>,
    /// For each free cell, one literal per entry of [`CHOICES`]; exactly one holds.
    pub choice: KeyedVec<FreeId, [Lit; 5]>,
    free_ix: HashMap<CellId, FreeId>,
    pub sources: KeyedVec<SourceId, CellId>,
    pub nodes: KeyedVec<NodeId, Node>,
    pub edges: KeyedVec<EdgeId, Edge>,
    in_edges: KeyedVec<NodeId, Vec<EdgeId>>,
    /// Edges leaving each node, built once with the graph.
    out_edges: KeyedVec<NodeId, Vec<EdgeId>>,
    /// `q[s][n]`: a donut from source `s` stands on node `n` at some scan.
    pub q: PerSourceNode<Option<Lit>>,
    /// `act[s][e]`: edge `e` carries a donut from source `s` (implies its `from`
    /// node holds one and its guard holds).
    act: KeyedVec<SourceId, KeyedVec<EdgeId, Option<Lit>>>,
    /// Assumed true while searching: switches on the strengthening constraints.
    pub strong: Lit,
    /// Counts the belts placed (B1): its bounds are assumed.
    pub belts: CostCounter,
    pub n_vars: u32,
    /// A source's first move is invalid: every run fails at tick 1.
    dead: bool,
    /// Per source: "this source is exempt from F1" (one of its donuts stood on
    /// a branch); `None` where it never can be.
    exempt: KeyedVec<SourceId, Option<Lit>>,
    /// Per node: a donut waiting here can be topped again (a branch for F1).
    retop: KeyedVec<NodeId, bool>,
    /// Requirement switches: `goals[s]` turns on "source `s` delivers", the last
    /// one "every target receives" and `:targets`. The loop assumes them all
    /// in every call (a warm-up that added them one by one before the first
    /// layout was dropped on 2026-11-30: see `docs/performance.md`).
    pub goals: Vec<Lit>,
    /// With [`EncodeOptions::requirement_switches`]: one literal per
    /// requirement; assuming it switches that requirement on (sources share
    /// their goal literals). Empty otherwise.
    pub switches: Vec<(Requirement, Lit)>,
    /// Whether searching adds anything to proving: S1 clauses, S2 beyond F1
    /// (for a source that may be exempt from F1, or an any-source). When
    /// not, the loop proves from the start.
    pub adds_strength: bool,
    /// Whether the ranks (C7) are written (no loop can ever be unfounded) or
    /// left out because they would cost over the budget (loop formulas then
    /// ground the flows).
    pub exact_ranks: bool,
    /// With exact ranks: where the clauses of C7′ are among the clauses
    /// written, and the clauses of the ranks (C7) that stand for them in
    /// the racing copies' view ([`Encoding::ranked_clauses`]).
    pub ranked_view: Option<RankClauses>,
    /// With exact ranks, while the encoding is written: where the rank
    /// order clauses are, and the `sup` edges they order.
    written_ranks: Option<grounding::WrittenRanks>,
    /// Per free cell, `strand[c]`: a donut stands on `c` while it has no belt
    /// (the run ends there). Only in levels where X2 clauses can arise (one
    /// plain source and a splitter); empty otherwise.
    strand: KeyedVec<FreeId, Lit>,
    /// Per node, `pre[n]`: the lone plain source's donuts walk in lockstep
    /// onto `n` before any of them has passed a splitter (P1, for X2). Empty
    /// where X2 does not apply.
    pre: KeyedVec<NodeId, Option<Lit>>,
    /// Nodes where `pre` stops: it holds there but does not go on.
    pre_stop: KeyedVec<NodeId, bool>,
    /// The sequential counters of "a route meets each cell once" (R3).
    cell_once_counters: Vec<CellOnceCounter>,
    /// Per node: a delivery its target accepts, and a node whose move always
    /// fails (or a refused delivery): what [`crate::sketch`] reads.
    accepted_delivery: KeyedVec<NodeId, bool>,
    forbidden: KeyedVec<NodeId, bool>,
    /// The walks of the any-sources' first donuts (F3).
    first_walks: Vec<first_donut::FirstWalk>,
    /// The literals that let a first donut's walk stop (F3), with what
    /// each says.
    partings: Vec<(Lit, first_donut::Parting)>,
}

/// A clause collector that counts the clauses it passes on (to tell where
/// the rank clauses are among them).
struct Counted<'a, C> {
    col: &'a mut C,
    added: usize,
}

impl<C: CollectClauses> CollectClauses for Counted<'_, C> {
    fn n_clauses(&self) -> usize {
        self.added
    }

    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        for cl in cl_iter {
            self.added += 1;
            // The encoding has always ignored a collector's error (out of
            // memory) here.
            let _ = self.col.add_clause(cl);
        }
        Ok(())
    }
}

impl Encoding {
    /// Builds the encoding of `level`, writing clauses into `col` and asking
    /// `vm` for variables. `opts` says where the belt counter turns lazy and
    /// how much exact ranks may cost.
    pub fn new(
        level: &Level,
        opts: &EncodeOptions,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) -> Encoding {
        let free: KeyedVec<FreeId, CellId> = level.free_cells().collect();
        let free_ix = free.enumerate().map(|(i, c)| (*c, i)).collect();
        let choice = free
            .iter()
            .map(|_| std::array::from_fn(|_| vm.new_lit()))
            .collect();
        let strong = vm.new_lit();
        let mut enc = Encoding {
            level: level.clone(),
            free,
            choice,
            free_ix,
            sources: level.sources().collect(),
            nodes: KeyedVec::new(),
            edges: KeyedVec::new(),
            in_edges: KeyedVec::new(),
            out_edges: KeyedVec::new(),
            q: KeyedVec::new(),
            act: KeyedVec::new(),
            strong,
            belts: CostCounter::default(),
            n_vars: 0,
            dead: false,
            exact_ranks: false,
            ranked_view: None,
            written_ranks: None,
            adds_strength: false,
            goals: Vec::new(),
            switches: Vec::new(),
            exempt: KeyedVec::new(),
            retop: KeyedVec::new(),
            strand: KeyedVec::new(),
            pre: KeyedVec::new(),
            pre_stop: KeyedVec::new(),
            cell_once_counters: Vec::new(),
            accepted_delivery: KeyedVec::new(),
            forbidden: KeyedVec::new(),
            first_walks: Vec::new(),
            partings: Vec::new(),
        };
        // Written here first: C7′ then takes the rank clauses' place
        // (`ground_by_elimination`) before the caller's collector gets them.
        let out = col;
        let mut written = rustsat::instances::Cnf::new();
        let mut col = Counted {
            col: &mut written,
            added: 0,
        };
        enc.one_choice_per_cell(&mut col, vm); // C1
                                               // Which kind a bumper pushes from which cell, and which way.
        let pushes = level.bumper_pushes();
        let infos = enc.build_graph(&pushes);
        enc.retop = infos.iter().map(|i| i.retop.is_some()).collect();
        enc.accepted_delivery = infos.iter().map(|i| i.delivery && !i.forbidden).collect();
        enc.forbidden = infos.iter().map(|i| i.forbidden).collect();
        if enc.dead {
            let _ = col.add_clause(Clause::new());
        }
        enc.flow_variables(vm);
        enc.flow_clauses(&infos, &mut col); // C2, C3, S1, S2
        enc.flows_are_grounded(opts.rank_budget, &mut col, vm); // C7
        enc.requirements_hold_under_goals(opts.requirement_switches, &infos, &mut col, vm); // C4, C5
        enc.no_idle_belts(&mut col); // C6
        enc.plain_routes_go_forward(&pushes, &infos, &mut col, vm); // F1, R0–R3
        enc.first_donuts_walk_their_route(&pushes, &infos, &mut col, vm); // F3
        let x2 = enc.wrong_branches_apply();
        if x2 {
            enc.prefix_walks_in_lockstep(&pushes, &infos, &mut col, vm); // P1
        }
        let dists = enc.source_distances();
        enc.count_belts(opts.lazy_counter_from, &dists, &mut col, vm); // B1
        enc.distances_need_belts(&dists, &mut col); // D1
        if x2 {
            enc.strands_are_marked(&mut col, vm); // ST
        }
        let all: Vec<Clause> = written.into_iter().collect();
        for cl in enc.ground_by_elimination(all, vm) {
            let _ = out.add_clause(cl); // C7′ in place of C7's rank order
        }
        enc.n_vars = vm.n_used();
        enc
    }

    /// Whether node `n` is a delivery its target accepts.
    pub fn node_is_delivery(&self, n: NodeId) -> bool {
        self.accepted_delivery[n]
    }

    /// Whether every move from node `n` fails (or it is a refused delivery).
    pub fn node_is_forbidden(&self, n: NodeId) -> bool {
        self.forbidden[n]
    }

    /// The edges leaving node `n`.
    pub fn out_edge_ids(&self, n: NodeId) -> impl Iterator<Item = EdgeId> + '_ {
        self.out_edges[n].iter().copied()
    }

    /// Writes "at most one of `lits`", pairwise, into `col`: rustsat's
    /// `am1::Pairwise`, whose clauses `¬lits[i] ∨ ¬lits[j]` for `i < j`, in
    /// that order, are exactly those of the hand-written loop it replaced.
    fn at_most_one(lits: &[Lit], col: &mut impl CollectClauses, vm: &mut dyn ManageVars) {
        use rustsat::encodings::am1::Encode as _;
        let _ = rustsat::encodings::am1::Pairwise::from(lits.to_vec()).encode(col, vm);
    }
}

//! The route of a plain source: its donuts that meet no branch all walk one
//! and the same path of nodes, fixed by the layout, so every seen node leads
//! on to the next (F1, with `exempt[s]` for a source whose donuts may stand
//! on a branch). Where the source can reach no branch at all, that route is
//! simple: it leaves every `.` cell on a belt (R0), takes the move the layout
//! picks (R1), enters each node once (R2), and, without bumpers, meets each
//! cell once (R3).

use super::graph::NodeInfos;
use super::{Encoding, NodeId, SourceId};
use crate::grid::{Dir, Kind};
use crate::level::Tile;
use cegar::keyed::StorageKey as _;
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

/// The sequential counter of R3 on one cell: its `q` literals, and `r[i]`,
/// "one of the first `i + 1` holds".
#[derive(Clone, Debug)]
pub(super) struct CellOnceCounter {
    pub lits: Vec<Lit>,
    pub r: Vec<Lit>,
}

/// A clause collector that adds `guard` (when there is one) to every clause
/// it passes on.
struct Guarded<'a, C> {
    col: &'a mut C,
    guard: Option<Lit>,
}

impl<C: CollectClauses> CollectClauses for Guarded<'_, C> {
    fn n_clauses(&self) -> usize {
        self.col.n_clauses()
    }

    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        let guard = self.guard;
        self.col.extend_clauses(cl_iter.into_iter().map(|mut cl| {
            if let Some(g) = guard {
                cl.add(g);
            }
            cl
        }))
    }
}

impl Encoding {
    /// F1 and R0–R3, source by source. R3 slowed every level with exactly
    /// two sources it was tried on and sped up the others (measured: see
    /// `encodings/README.md`), and it needs a level without bumpers.
    pub(super) fn plain_routes_go_forward(
        &mut self,
        pushes: &[[Option<Kind>; 4]],
        infos: &NodeInfos,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        let r3 = self.sources.len() != 2 && !pushes.iter().any(|p| p.iter().any(Option::is_some));
        for s in self.sources.keys() {
            // Any-sources emit several kinds and are left out.
            if !matches!(self.level.tile(self.sources[s]), Tile::Source(_)) {
                self.exempt.push(None);
                self.adds_strength = true;
                continue;
            }
            // F1 and R0–R3 rest on "`s` delivers": with requirement
            // switches, they hold only under its switch.
            let guard = (!self.switches.is_empty()).then(|| !self.goals[s.index()]);
            let col = &mut Guarded {
                col: &mut *col,
                guard,
            };
            let exempt = self.exempt_from_forward(s, col, vm);
            self.plain_flows_go_forward(s, exempt, infos, col);
            // R0–R3 hold for a route that never meets a branch; they are
            // only added where the source cannot reach one (with `exempt[s]`
            // in every clause they only slowed the levels whose source must
            // branch).
            if exempt.is_some() {
                continue;
            }
            for n in self.nodes.keys() {
                self.route_never_strands(s, n, col);
                self.route_takes_chosen_moves(s, n, col);
            }
            self.route_enters_nodes_once(s, col, vm);
            if r3 {
                self.route_meets_cells_once(s, col, vm);
            }
        }
    }

    /// F1's `exempt[s] → ∨ q[s][b]` over the branch nodes `b` (splitters,
    /// teleporters in with several outs, re-topping nodes), where `s` can
    /// reach one.
    fn exempt_from_forward(
        &mut self,
        s: SourceId,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) -> Option<Lit> {
        let branches: Vec<Lit> = self
            .nodes
            .keys()
            .filter(|&n| self.is_branch(n))
            .filter_map(|n| self.q[s][n])
            .collect();
        let exempt = (!branches.is_empty()).then(|| {
            let ex = vm.new_lit();
            let mut cl = vec![!ex];
            cl.extend(branches);
            let _ = col.add_clause(cl.into_iter().collect());
            ex
        });
        self.adds_strength |= exempt.is_some();
        self.exempt.push(exempt);
        exempt
    }

    /// F1 (forward): every donut of a plain source starts on the same node,
    /// and unless the source is exempt, a seen node whose way on the layout
    /// picks leads on to a seen node: `q[s][n] ∧ label → exempt[s] ∨ ∨
    /// q[s][to]`.
    fn plain_flows_go_forward(
        &self,
        s: SourceId,
        exempt: Option<Lit>,
        infos: &NodeInfos,
        col: &mut impl CollectClauses,
    ) {
        for e in self.landings(s) {
            if e.first {
                if let Some(q) = self.q[s][e.to] {
                    let _ = col.add_clause(Clause::from([q]));
                }
            }
        }
        for n in self.nodes.keys() {
            let Some(qn) = self.q[s][n] else { continue };
            for cl in infos[n].goes_on(qn, exempt.as_slice(), |m| self.q[s][m]) {
                let _ = col.add_clause(cl.into_iter().collect());
            }
        }
    }

    /// R0 (no strand): the route leaves every `.` cell on a belt.
    fn route_never_strands(&self, s: SourceId, n: NodeId, col: &mut impl CollectClauses) {
        let Some(qn) = self.q[s][n] else { return };
        if let Some(i) = self.free_id(self.nodes[n].cell) {
            let _ = col.add_clause(Clause::from([!qn, !self.choice[i][0]]));
        }
    }

    /// R1 (route edges): the first-topping move the layout picks from a seen
    /// node is active.
    fn route_takes_chosen_moves(&self, s: SourceId, n: NodeId, col: &mut impl CollectClauses) {
        let Some(qn) = self.q[s][n] else { return };
        for &e in &self.out_edges[n] {
            let edge = &self.edges[e];
            let Some(a) = self.act[s][e] else { continue };
            if !edge.first {
                continue;
            }
            let mut cl = vec![!qn, a];
            cl.extend(edge.guard.map(|g| !g));
            let _ = col.add_clause(cl.into_iter().collect());
        }
    }

    /// R2 (simple route): at most one active first-topping move into each
    /// node.
    fn route_enters_nodes_once(
        &self,
        s: SourceId,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        for n in self.nodes.keys() {
            let ins: Vec<Lit> = self.in_edges[n]
                .iter()
                .filter(|&&e| self.edges[e].first)
                .filter_map(|&e| self.act[s][e])
                .collect();
            Encoding::at_most_one(&ins, col, vm);
        }
    }

    /// R3 (one kind per cell): without bumpers, the route meets no cell twice
    /// (a crossover once per entry direction): pairwise for up to four
    /// nodes, else a sequential counter whose `r[i]` holds when one of the
    /// first `i + 1` does. (Pairwise on every cell made 02-summer/07 several
    /// times slower.)
    fn route_meets_cells_once(
        &mut self,
        s: SourceId,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        // Ordered by cell, so the clause order is the same every run.
        let mut by_cell: std::collections::BTreeMap<(usize, Option<usize>), Vec<Lit>> =
            Default::default();
        for (n, node) in self.nodes.enumerate() {
            if let Some(qn) = self.q[s][n] {
                let key = (node.cell.index(), node.entry.map(Dir::index));
                by_cell.entry(key).or_default().push(qn);
            }
        }
        for lits in by_cell.into_values() {
            if lits.len() <= 4 {
                Encoding::at_most_one(&lits, col, vm);
                continue;
            }
            let mut r: Vec<Lit> = Vec::new();
            for (i, &l) in lits.iter().enumerate() {
                if let Some(&p) = r.last() {
                    let _ = col.add_clause(Clause::from([!l, !p]));
                }
                if i + 1 < lits.len() {
                    let ri = vm.new_lit();
                    let _ = col.add_clause(Clause::from([!l, ri]));
                    if let Some(&p) = r.last() {
                        let _ = col.add_clause(Clause::from([!p, ri]));
                    }
                    r.push(ri);
                }
            }
            self.cell_once_counters.push(CellOnceCounter { lits, r });
        }
    }
}

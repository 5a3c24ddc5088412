//! The donut flows of each source: the variables `q[s][n]` (a donut of `s`
//! is seen on node `n`) and `act[s][e]` (edge `e` carries one), and the
//! constraints that tie them to the moves: every seen donut came over an
//! active edge (C2), no seen donut makes an invalid move (C3), a splitter's
//! right exit is valid too (S1, searching only), and donuts go where the
//! layout sends them (S2, searching only).

use super::graph::{From, NodeInfo, NodeInfos};
use super::{EdgeId, Encoding, NodeId, SourceId};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::Clause;

impl Encoding {
    /// Makes `q` and `act`, only for what each source can reach.
    pub(super) fn flow_variables(&mut self, vm: &mut dyn ManageVars) {
        let reach = self.reachable();
        self.q = self
            .sources
            .keys()
            .map(|s| {
                self.nodes
                    .keys()
                    .map(|n| reach[s][n].then(|| vm.new_lit()))
                    .collect()
            })
            .collect();
        self.act = self
            .sources
            .keys()
            .map(|s| {
                self.edges
                    .iter()
                    .map(|e| match e.from {
                        From::Source(t) => {
                            (t == s && self.q[s][e.to].is_some()).then(|| vm.new_lit())
                        }
                        From::Node(n) => (self.q[s][n].is_some() && self.q[s][e.to].is_some())
                            .then(|| vm.new_lit()),
                    })
                    .collect()
            })
            .collect();
    }

    /// C2, C3, S1 and S2, source by source: for each node its support,
    /// safety and (searching only) right exit, then for each edge what it
    /// needs and (searching only) where it must lead.
    pub(super) fn flow_clauses(&mut self, infos: &NodeInfos, col: &mut impl CollectClauses) {
        for s in self.sources.keys() {
            for n in self.nodes.keys() {
                if self.q[s][n].is_none() {
                    continue;
                }
                self.flows_are_supported(s, n, col);
                self.moves_are_safe(s, n, &infos[n], col);
                self.splitters_have_valid_right_exits(s, n, &infos[n], col);
            }
            for e in self.edges.keys() {
                if self.act[s][e].is_none() {
                    continue;
                }
                self.active_moves_need_start_and_belt(s, e, col);
                self.flows_follow_belts(s, e, col);
            }
        }
    }

    /// C2 (support): a donut on a node came over some edge into it (not
    /// needed where the source emits onto the node).
    fn flows_are_supported(&self, s: SourceId, n: NodeId, col: &mut impl CollectClauses) {
        let Some(qn) = self.q[s][n] else { return };
        let mut support = vec![!qn];
        let mut rooted = false;
        for &e in &self.in_edges[n] {
            if let Some(a) = self.act[s][e] {
                if matches!(self.edges[e].from, From::Source(_)) {
                    rooted = true;
                }
                support.push(a);
            }
        }
        if !rooted {
            let _ = col.add_clause(support.into_iter().collect());
        }
    }

    /// C3 (safety): no invalid move, no wrong delivery.
    fn moves_are_safe(
        &self,
        s: SourceId,
        n: NodeId,
        info: &NodeInfo,
        col: &mut impl CollectClauses,
    ) {
        let Some(qn) = self.q[s][n] else { return };
        if info.forbidden {
            let _ = col.add_clause(Clause::from([!qn]));
        }
        for &g in &info.bad_choices {
            let _ = col.add_clause(Clause::from([!qn, !g]));
        }
    }

    /// S1 (searching only): a splitter's second exit must be valid too.
    fn splitters_have_valid_right_exits(
        &mut self,
        s: SourceId,
        n: NodeId,
        info: &NodeInfo,
        col: &mut impl CollectClauses,
    ) {
        let Some(qn) = self.q[s][n] else { return };
        if info.bad_right {
            self.adds_strength = true;
            let _ = col.add_clause(Clause::from([!self.strong, !qn]));
        }
    }

    /// C2: an active edge needs its start and its belt.
    fn active_moves_need_start_and_belt(
        &self,
        s: SourceId,
        e: EdgeId,
        col: &mut impl CollectClauses,
    ) {
        let Some(a) = self.act[s][e] else { return };
        let edge = &self.edges[e];
        if let From::Node(n) = edge.from {
            if let Some(qf) = self.q[s][n] {
                let _ = col.add_clause(Clause::from([!a, qf]));
            }
        }
        if let Some(g) = edge.guard {
            let _ = col.add_clause(Clause::from([!a, g]));
        }
    }

    /// S2 (searching only): donuts go where the layout sends them: a seen
    /// donut whose move's belt is chosen is seen where it first lands.
    fn flows_follow_belts(&self, s: SourceId, e: EdgeId, col: &mut impl CollectClauses) {
        let edge = &self.edges[e];
        if !edge.first {
            return;
        }
        if let Some(qt) = self.q[s][edge.to] {
            let mut cl = vec![!self.strong, qt];
            if let From::Node(n) = edge.from {
                cl.extend(self.q[s][n].map(|l| !l));
            }
            cl.extend(edge.guard.map(|g| !g));
            let _ = col.add_clause(cl.into_iter().collect());
        }
    }
}

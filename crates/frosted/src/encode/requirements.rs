//! What a solution must achieve (rules §5): every target receives an
//! accepted donut and every source delivers (C4), and with `:targets`, each
//! kind is delivered from as many distinct sources as the flag asks (C5).
//! Each requirement holds under a goal literal ([`Encoding::goals`]).

use super::graph::{Node, NodeInfos};
use super::Encoding;
use crate::grid::{CellId, Kind};
use crate::requirement::Requirement;
use cegar::keyed::StorageKey as _;
use rustsat::encodings::card::{BoundBoth, Totalizer};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

impl Encoding {
    /// C4 and C5, after making the goal literals (one per source, one for
    /// the targets and `:targets`).
    /// With `switches`, each requirement gets its own literal instead
    /// ([`Encoding::switches`]): a source's goal, and one per target, per
    /// kind `:targets` names, and for the kinds it does not name.
    pub(super) fn requirements_hold_under_goals(
        &mut self,
        switches: bool,
        infos: &NodeInfos,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        self.goals = (0..=self.sources.len()).map(|_| vm.new_lit()).collect();
        if switches {
            self.make_switches(vm);
        }
        self.every_target_receives(infos, col);
        self.every_source_delivers(infos, col);
        self.targets_flag_is_met(infos, col, vm);
    }

    /// One literal per requirement ([`crate::requirement::requirements`]).
    fn make_switches(&mut self, vm: &mut dyn ManageVars) {
        for r in crate::requirement::requirements(&self.level, None) {
            let lit = match r {
                Requirement::SourceDelivers(c) => {
                    let s = self.sources.iter().position(|&x| x == c);
                    s.map_or_else(|| vm.new_lit(), |s| self.goals[s])
                }
                _ => vm.new_lit(),
            };
            self.switches.push((r, lit));
        }
    }

    /// The switch of requirement `r`, if there is one.
    pub fn switch(&self, r: Requirement) -> Option<Lit> {
        self.switches.iter().find(|(x, _)| *x == r).map(|p| p.1)
    }

    /// The goal of "every target receives" and `:targets`.
    fn targets_goal(&self) -> Lit {
        self.goals[self.sources.len()]
    }

    /// The literal that switches on "target `t` receives".
    fn target_guard(&self, t: CellId) -> Lit {
        self.switch(Requirement::TargetReceives(t))
            .unwrap_or_else(|| self.targets_goal())
    }

    /// The literal that switches on the `:targets` count of kind `k`.
    fn kind_guard(&self, k: Kind, wanted: usize) -> Lit {
        let r = match wanted {
            0 => Requirement::TargetsOthers,
            count => Requirement::TargetsKind { kind: k, count },
        };
        self.switch(r).unwrap_or_else(|| self.targets_goal())
    }

    /// The `q` literals of the delivery nodes that `pick` accepts, node by
    /// node, every source's.
    fn delivery_lits<'a>(
        &'a self,
        infos: &'a NodeInfos,
        pick: impl Fn(&Node) -> bool + 'a,
    ) -> impl Iterator<Item = Lit> + 'a {
        self.nodes
            .keys()
            .filter(move |&n| infos[n].delivery && pick(&self.nodes[n]))
            .flat_map(move |n| self.q.iter().filter_map(move |qs| qs[n]))
    }

    /// C4: every target has some donut on one of its accepted delivery
    /// nodes (wrong deliveries are forbidden by C3).
    fn every_target_receives(&self, infos: &NodeInfos, col: &mut impl CollectClauses) {
        for t in self.level.targets().collect::<Vec<_>>() {
            let mut cl = vec![!self.target_guard(t)];
            cl.extend(self.delivery_lits(infos, |n| n.cell == t));
            let _ = col.add_clause(cl.into_iter().collect());
        }
    }

    /// C4: every source has a donut on some delivery node.
    fn every_source_delivers(&self, infos: &NodeInfos, col: &mut impl CollectClauses) {
        for s in self.sources.keys() {
            let mut cl = vec![!self.goals[s.index()]];
            cl.extend(
                self.nodes
                    .keys()
                    .filter(|&n| infos[n].delivery)
                    .filter_map(|n| self.q[s][n]),
            );
            let _ = col.add_clause(cl.into_iter().collect());
        }
    }

    /// C5 (`:targets`): `d[s][k] ↔ ∨_t q[s][(t, k)]`, and for every kind
    /// `k`, exactly as many `d[s][k]` hold as the flag names `k` (a
    /// totalizer, its bounds as unit clauses under the targets' goal).
    fn targets_flag_is_met(
        &self,
        infos: &NodeInfos,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        let Some(wanted) = self.level.flags.targets.clone() else {
            return;
        };
        for k in Kind::ALL {
            let want = wanted.iter().filter(|w| **w == k).count();
            let g_targets = self.kind_guard(k, want);
            let ds = self.kind_delivered(infos, k, col, vm);
            if want > ds.len() {
                let _ = col.add_clause(Clause::from([!g_targets]));
                continue;
            }
            let mut tot = Totalizer::from_iter(ds.iter().copied());
            let mut cnf = rustsat::instances::Cnf::new();
            let _ = tot.encode_both(want..=want, &mut cnf, vm);
            for cl in cnf {
                let _ = col.add_clause(cl);
            }
            if let Ok(units) = tot.enforce_eq(want) {
                for u in units {
                    let _ = col.add_clause(Clause::from([!g_targets, u]));
                }
            }
        }
    }

    /// C5: per source that can deliver kind `k`, `d[s][k]`, "`s` delivers
    /// `k` somewhere", defined by its clauses.
    fn kind_delivered(
        &self,
        infos: &NodeInfos,
        k: Kind,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) -> Vec<Lit> {
        let mut ds = Vec::new();
        for s in self.sources.keys() {
            let qs: Vec<Lit> = self
                .nodes
                .keys()
                .filter(|&n| infos[n].delivery && self.nodes[n].kind == k)
                .filter_map(|n| self.q[s][n])
                .collect();
            if qs.is_empty() {
                continue;
            }
            let d = vm.new_lit();
            let mut cl = vec![!d];
            cl.extend(qs.iter().copied());
            let _ = col.add_clause(cl.into_iter().collect());
            for q in qs {
                let _ = col.add_clause(Clause::from([!q, d]));
            }
            ds.push(d);
        }
        ds
    }
}

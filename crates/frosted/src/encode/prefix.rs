//! The wrong-branch cuts (X2, [`crate::branch`]) and what they name: in a
//! level whose only source is a plain source and that has a splitter, `pre`
//! marks the walk its donuts make in lockstep from the source up to a first
//! stop (P1), and [`Encoding::wrong_branch_clause`] turns a failed layout
//! into a clause that cuts off every layout that fails the same way.

use super::graph::NodeInfos;
use super::{Encoding, NodeId, SourceId};
use crate::grid::Kind;
use crate::level::{Level, Tile};
use cegar::keyed::{KeyedVec, StorageKey};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

impl Encoding {
    /// Whether X2 clauses can arise: one plain source, and a splitter.
    pub(super) fn wrong_branches_apply(&self) -> bool {
        let level = &self.level;
        self.sources.len() == 1
            && matches!(level.tile(self.sources[first_source()]), Tile::Source(_))
            && level
                .shape
                .cells()
                .any(|c| matches!(level.tile(c), Tile::Splitter(_)))
    }

    /// Stops of P1: nodes where `pre` holds but does not go on: branches,
    /// crossovers and teleporters in, cells a bumper acts on, the exit cells
    /// of every splitter, and nodes with several ways on for one choice.
    fn prefix_stops(
        &self,
        pushes: &[[Option<Kind>; 4]],
        infos: &NodeInfos,
    ) -> KeyedVec<NodeId, bool> {
        let level = &self.level;
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
        self.nodes
            .keys()
            .map(|n| {
                let cell = self.nodes[n].cell;
                self.is_branch(n)
                    || matches!(level.tile(cell), Tile::Crossover | Tile::TeleIn(_))
                    || bumped[cell.index()]
                    || infos[n].exits.iter().any(|(_, d)| d.len() > 1)
            })
            .collect()
    }

    /// P1 (prefix): `pre[first node]`, and from a marked node that is not a
    /// stop, `pre[n] ∧ choice → pre[m]` for the one node `m` each belt
    /// choice leads to. Only where the source lands on one node.
    pub(super) fn prefix_walks_in_lockstep(
        &mut self,
        pushes: &[[Option<Kind>; 4]],
        infos: &NodeInfos,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        let firsts: Vec<NodeId> = self
            .landings(first_source())
            .filter(|e| e.first)
            .map(|e| e.to)
            .collect();
        if firsts.len() != 1 {
            return;
        }
        self.pre_stop = self.prefix_stops(pushes, infos);
        self.pre = self.q[first_source()]
            .iter()
            .map(|q| q.map(|_| vm.new_lit()))
            .collect();
        if let Some(p0) = self.pre[firsts[0]] {
            let _ = col.add_clause(Clause::from([p0]));
        }
        for n in self.nodes.keys() {
            let Some(pn) = self.pre[n] else { continue };
            if self.pre_stop[n] {
                continue;
            }
            for (guard, dests) in &infos[n].exits {
                let Some(pm) = dests.first().and_then(|&m| self.pre[m]) else {
                    continue;
                };
                let mut cl = vec![!pn];
                cl.extend(guard.map(|g| !g));
                cl.push(pm);
                let _ = col.add_clause(cl.into_iter().collect());
            }
        }
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
                .position(|n| n.cell == wb.splitter && n.kind == wb.splitter_kind)?;
            cl.push(!self.pre[z]?);
        }
        for (c, d) in wb.fixed {
            cl.push(!self.choice[self.free_id(c)?][1 + d.index()]);
        }
        for (c, d) in wb.entries {
            let i = self.free_id(c)?;
            cl.push(match d {
                Some(d) => self.choice[i][1 + d.index()],
                None => !self.choice[i][0],
            });
        }
        cl.extend(self.strand.iter());
        Some(cl.into_iter().collect())
    }
}

/// The lone source of a level where X2 applies.
pub(super) fn first_source() -> SourceId {
    SourceId::create_from_index(0)
}

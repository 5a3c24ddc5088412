//! Constraints on the free cells themselves: each holds one option (C1),
//! belts stand only where donuts can be (C6), and the `strand` marks of
//! cells where a run ended on an empty cell (ST, for the wrong-branch cuts).

use super::{Encoding, FreeId};
use cegar::keyed::KeyedVec;
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

impl Encoding {
    /// C1: every free cell holds exactly one option (at least one, and at
    /// most one, pairwise).
    pub(super) fn one_choice_per_cell(
        &self,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        for ch in &self.choice {
            let _ = col.add_clause(ch.iter().copied().collect());
            Encoding::at_most_one(ch, col, vm);
        }
    }

    /// C6: a belt stands only on a cell where some donut can be (no idle
    /// belts).
    pub(super) fn no_idle_belts(&self, col: &mut impl CollectClauses) {
        for (i, &c) in self.free.enumerate() {
            let mut cl = vec![self.choice[i][0]];
            for qs in &self.q {
                for (n, node) in self.nodes.enumerate() {
                    if node.cell == c {
                        cl.extend(qs[n]);
                    }
                }
            }
            let _ = col.add_clause(cl.into_iter().collect());
        }
    }

    /// ST: `strand[c]` only where `c` has no belt and some donut stood on
    /// it: `strand[c] → choice[c][none]`, `strand[c] → ∨ q[·][n at c]`.
    pub(super) fn strands_are_marked(
        &mut self,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        let mut at_cell: KeyedVec<FreeId, Vec<Lit>> = KeyedVec::filled(self.free.len(), Vec::new());
        for (n, node) in self.nodes.enumerate() {
            if let Some(i) = self.free_id(node.cell) {
                at_cell[i].extend(self.q.iter().filter_map(|qs| qs[n]));
            }
        }
        for (i, lits) in at_cell.enumerate() {
            let st = vm.new_lit();
            let _ = col.add_clause(Clause::from([!st, self.choice[i][0]]));
            let mut cl = vec![!st];
            cl.extend(lits);
            let _ = col.add_clause(cl.into_iter().collect());
            self.strand.push(st);
        }
    }
}

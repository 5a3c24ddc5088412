//! Grounding: no flow supports itself around a loop through a fork. Inside
//! each strongly connected component of the move graph that has a fork, a
//! seen donut's support comes over an edge from another component or over a
//! support edge `sup` inside it, and the `sup` edges close no cycle, by
//! vertex elimination (C7′, `cegar::acyclic`). The racing copies after the
//! first hold another grounding of the same thing: ranks that rise strictly
//! along every `sup` edge (C7, [`Encoding::ranked_clauses`]). Where the
//! ranks would cost more clauses than a budget, neither is written, and the
//! loop formulas (L1) ground the flows lazily.

use super::graph::{ComponentId, Edge, From};
use super::{Encoding, NodeId, SourceId};
use cegar::keyed::{KeyedVec, StorageKey};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};
use std::collections::HashMap;

/// The ranks' stand-in for the clauses of C7′: where C7′'s clauses are
/// among those [`Encoding::new`] wrote, and the clauses that order the ranks
/// instead.
#[derive(Clone, Debug)]
pub struct RankClauses {
    /// The positions of C7′'s clauses among the clauses written.
    pub range: std::ops::Range<usize>,
    /// The clauses that order the ranks along the `sup` edges (C7).
    pub order: Vec<Clause>,
}

/// The rank clauses as first written, for [`Encoding::ground_by_elimination`].
#[derive(Clone, Debug)]
pub(super) struct WrittenRanks {
    /// Their positions among the clauses written.
    range: std::ops::Range<usize>,
    /// Per source, `(from, to, sup)` for every edge inside a ranked
    /// component.
    support_edges: KeyedVec<SourceId, Vec<(NodeId, NodeId, Lit)>>,
}

/// The components that get ranks.
struct RankedComponents {
    /// The component of each node.
    comp: KeyedVec<NodeId, ComponentId>,
    /// Per component: its size, or at most 1 where it has no fork (such a
    /// component counts as a single node).
    size: KeyedVec<ComponentId, usize>,
}

impl RankedComponents {
    /// Whether the component of `n` is ranked.
    fn ranked(&self, n: NodeId) -> bool {
        self.size[self.comp[n]] > 1
    }

    /// An edge inside a ranked component.
    fn intra(&self, e: &Edge) -> bool {
        self.ranked(e.to) && matches!(e.from, From::Node(m) if self.comp[m] == self.comp[e.to])
    }
}

/// Per source and ranked component: (its nodes of the source, its edges).
type Sizes = KeyedVec<SourceId, HashMap<ComponentId, (usize, usize)>>;

/// The clauses of C7 being written: the rank order ones are kept aside.
struct Ranks {
    /// The clauses that order the ranks.
    order: Vec<Clause>,
    /// Per source, the edges inside ranked components.
    support_edges: KeyedVec<SourceId, Vec<(NodeId, NodeId, Lit)>>,
}

impl Encoding {
    /// The components with a fork, where ranks are needed. In any other, a
    /// donut has one way on from each node, so a self-supporting loop there
    /// feeds nothing outside itself (see `Encoding::founded`).
    fn ranked_components(&self) -> RankedComponents {
        let comp = self.components();
        let mut size: KeyedVec<ComponentId, usize> = KeyedVec::filled(self.nodes.len(), 0);
        for &c in &comp {
            size[c] += 1;
        }
        let mut forks: KeyedVec<ComponentId, bool> = KeyedVec::filled(self.nodes.len(), false);
        for n in self.nodes.keys() {
            if self.is_fork(n) {
                forks[comp[n]] = true;
            }
        }
        for c in forks.keys() {
            if !forks[c] {
                size[c] = size[c].min(1);
            }
        }
        RankedComponents { comp, size }
    }

    /// Per source, the size of each ranked component it reaches.
    fn ranked_sizes(&self, rc: &RankedComponents) -> Sizes {
        self.sources
            .keys()
            .map(|s| {
                let mut m: HashMap<ComponentId, (usize, usize)> = HashMap::new();
                for n in self.nodes.keys() {
                    if self.q[s][n].is_some() && rc.ranked(n) {
                        m.entry(rc.comp[n]).or_default().0 += 1;
                    }
                }
                for (e, edge) in self.edges.enumerate() {
                    if self.act[s][e].is_some() && rc.intra(edge) {
                        m.entry(rc.comp[edge.to]).or_default().1 += 1;
                    }
                }
                m
            })
            .collect()
    }

    /// Whether exact ranks (one less than each component's size) cost at
    /// most `budget` clauses.
    fn ranks_fit(&self, sizes: &Sizes, budget: usize) -> bool {
        let cost: usize = sizes
            .iter()
            .flat_map(|m| m.values())
            .map(|&(n, e)| (n + e) * n.saturating_sub(1))
            .sum();
        cost <= budget
    }

    /// C7 (ranks): every seen donut in a ranked component is grounded, its
    /// support coming from outside the component or from a node of smaller
    /// rank, ranks order-encoded (`rank(n) ≥ j` for `j = 1..=H`), exact. When
    /// they would cost more than `budget` clauses, nothing is written: the
    /// loop formulas (L1) ground the flows lazily, in searching as in
    /// proving. The clauses that order the ranks come last, so that
    /// [`Encoding::ground_by_elimination`] can put C7′ in their place.
    pub(super) fn flows_are_grounded(
        &mut self,
        budget: usize,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        let rc = self.ranked_components();
        let sizes = self.ranked_sizes(&rc);
        self.exact_ranks = self.ranks_fit(&sizes, budget);
        if !self.exact_ranks {
            return;
        }
        let mut ranks = Ranks {
            order: Vec::new(),
            support_edges: KeyedVec::filled(self.sources.len(), Vec::new()),
        };
        for s in self.sources.keys() {
            self.ground_source(s, &rc, &sizes[s], &mut ranks, col, vm);
        }
        let first_rank = col.n_clauses();
        let n_rank = ranks.order.len();
        for cl in ranks.order {
            let _ = col.add_clause(cl);
        }
        if ranks.support_edges.iter().any(|e| !e.is_empty()) {
            self.written_ranks = Some(WrittenRanks {
                range: first_rank..first_rank + n_rank,
                support_edges: ranks.support_edges,
            });
        }
    }

    /// The encoding's clauses `all`, as written, with the grounding by
    /// vertex elimination (C7′, `cegar::acyclic`: no cycle of `sup` edges)
    /// in place of the clauses that order the ranks; those are kept aside
    /// for the racing copies' view ([`Encoding::ranked_clauses`]). C7′'s
    /// path variables come after every other variable of the encoding, so
    /// both views number the rest alike. Exact too, and a fifth of the
    /// size. The same clauses when there are no exact ranks.
    pub(super) fn ground_by_elimination(
        &mut self,
        mut all: Vec<Clause>,
        vm: &mut dyn ManageVars,
    ) -> Vec<Clause> {
        let Some(WrittenRanks {
            range,
            support_edges,
        }) = self.written_ranks.take()
        else {
            return all;
        };
        let tail = all.split_off(range.end);
        let order = all.split_off(range.start);
        for edges in &support_edges {
            let edges: Vec<(usize, usize, Lit)> = edges
                .iter()
                .map(|&(m, n, sup)| (m.index(), n.index(), sup))
                .collect();
            cegar::acyclic::forbid_cycles(&edges, vm, &mut |cl| all.push(cl));
        }
        self.ranked_view = Some(RankClauses {
            range: range.start..all.len(),
            order,
        });
        all.extend(tail);
        all
    }

    /// C7 for source `s`: its rank variables and their order chains, a `sup`
    /// literal per edge inside a ranked component (`sup → act`, and the
    /// rank rises along it), and the support clauses of its ranked nodes.
    fn ground_source(
        &self,
        s: SourceId,
        rc: &RankedComponents,
        sizes: &HashMap<ComponentId, (usize, usize)>,
        ranks: &mut Ranks,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        let rank: KeyedVec<NodeId, Vec<Lit>> = self
            .nodes
            .keys()
            .map(|n| match (self.q[s][n], sizes.get(&rc.comp[n])) {
                (Some(_), Some(&(size, _))) => {
                    (0..size.saturating_sub(1)).map(|_| vm.new_lit()).collect()
                }
                _ => Vec::new(),
            })
            .collect();
        // Rank order chains: `rank(n) ≥ j+1 → rank(n) ≥ j`.
        for r in &rank {
            for j in 1..r.len() {
                ranks.order.push(Clause::from([!r[j], r[j - 1]]));
            }
        }
        let mut sup_in: KeyedVec<NodeId, Vec<Lit>> = KeyedVec::filled(self.nodes.len(), Vec::new());
        let mut rooted = KeyedVec::filled(self.nodes.len(), false);
        for (e, edge) in self.edges.enumerate() {
            let Some(a) = self.act[s][e] else { continue };
            match edge.from {
                From::Node(m) if rc.intra(edge) => {
                    let sup = vm.new_lit();
                    sup_in[edge.to].push(sup);
                    let _ = col.add_clause(Clause::from([!sup, a]));
                    ranks.support_edges[s].push((m, edge.to, sup));
                    ranks_rise_along_support(sup, &rank[m], &rank[edge.to], &mut ranks.order);
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
        for n in self.nodes.keys() {
            let Some(qn) = self.q[s][n] else { continue };
            if rooted[n] || !rc.ranked(n) {
                continue;
            }
            let mut cl = Clause::from([!qn]);
            cl.extend(sup_in[n].iter().copied());
            let _ = col.add_clause(cl);
        }
    }

    /// The encoding's clauses `all` (as written by [`Encoding::new`]) with
    /// the ranks (C7) in place of C7′'s clauses: another encoding of the
    /// same problem, over the same variables but C7′'s path variables. The
    /// racing copies after the first hold it: it is larger, and slower to
    /// search on most levels, but much faster on some. `None` when there
    /// are no exact ranks (nothing to replace).
    pub fn ranked_clauses(&self, all: &[Clause]) -> Option<Vec<Clause>> {
        let RankClauses { range, order } = self.ranked_view.as_ref()?;
        let mut out = all[..range.start].to_vec();
        out.extend_from_slice(order);
        out.extend_from_slice(&all[range.end..]);
        Some(out)
    }
}

/// The rank rises along a support edge from `m` (ranks `rm`) to `n` (ranks
/// `rn`): `sup → rank(n) ≥ 1` and `sup ∧ rank(m) ≥ j → rank(n) ≥ j+1`
/// (`¬sup` alone where `n` has no rank).
fn ranks_rise_along_support(sup: Lit, rm: &[Lit], rn: &[Lit], order: &mut Vec<Clause>) {
    let h = rn.len();
    if h == 0 {
        order.push(Clause::from([!sup]));
        return;
    }
    order.push(Clause::from([!sup, rn[0]]));
    for j in 0..h {
        let mut cl = vec![!sup, !rm[j]];
        if j + 1 < h {
            cl.push(rn[j + 1]);
        }
        order.push(cl.into_iter().collect());
    }
}

//! The assignment a real run gives ([`Encoding::witness`]): the tests check
//! with it that the relaxation never cuts off a real run (every clause of the
//! relaxation must be satisfiable from it).

use super::first_donut::Parting;
use super::graph::{From, Node};
use super::{Encoding, PerSourceNode};
use crate::level::{Level, Tile};
use crate::sim::Seen;
use cegar::keyed::KeyedVec;
use rustsat::types::Lit;
use std::collections::{HashMap, HashSet};

/// A partial assignment being filled in.
struct Partial {
    val: Vec<Option<bool>>,
}

impl Partial {
    /// Makes `l` take the value `b`.
    fn set(&mut self, l: Lit, b: bool) {
        self.val[l.var().idx()] = Some(b != l.is_neg());
    }

    /// Whether `l` is set true.
    fn is_true(&self, l: Lit) -> bool {
        self.val[l.var().idx()] == Some(!l.is_neg())
    }
}

impl Encoding {
    /// The partial assignment a real run gives: the layout's choices, `q` from the
    /// donuts seen at scans, edges active where both ends hold a donut from the
    /// same source, `strong` false, and the belt counter's outputs from the
    /// layout's belt count. Auxiliary counting variables stay unset.
    /// Every clause of the relaxation must be satisfiable from here: this is how
    /// the tests check the claim that the relaxation never cuts off a real run.
    pub fn witness(&self, layout: &Level, seen: &[Seen]) -> Vec<Option<bool>> {
        let mut w = Partial {
            val: vec![None; self.n_vars as usize],
        };
        for i in self.free.keys() {
            let chosen = self.chosen(i, layout);
            for &l in &self.choice[i] {
                w.set(l, l == chosen);
            }
        }
        w.set(self.strong, false);
        for &g in &self.goals {
            w.set(g, true);
        }
        let on = self.seen_on(seen);
        let chosen: HashSet<Lit> = self.free.keys().map(|i| self.chosen(i, layout)).collect();
        self.witness_flows(&on, &chosen, &mut w);
        for (s, ex) in self.exempt.enumerate() {
            if let Some(ex) = *ex {
                let branched = self.nodes.keys().any(|n| on[s][n] && self.is_branch(n));
                w.set(ex, branched);
            }
        }
        self.witness_prefix(&chosen, &mut w);
        self.witness_first_walks(&on, &chosen, &mut w);
        for (i, &st) in self.strand.enumerate() {
            let empty = layout.tile(self.free[i]) == Tile::Empty;
            let stood = self
                .nodes
                .enumerate()
                .any(|(n, node)| node.cell == self.free[i] && on.iter().any(|o| o[n]));
            w.set(st, empty && stood);
        }
        self.witness_belt_count(layout, &mut w);
        // R3's counters: `r[i]` is the disjunction of the first literals.
        for counter in &self.cell_once_counters {
            let mut any = false;
            for (&l, &r) in counter.lits.iter().zip(&counter.r) {
                any |= w.is_true(l);
                w.set(r, any);
            }
        }
        w.val
    }

    /// The belt counter's outputs from the layout's belt count `b`: each
    /// literal that "at most `k`" assumes holds iff `b ≤ k` (so that D1 and
    /// D2, binary clauses with those outputs, are decided too; the
    /// counter's inner variables stay unset).
    fn witness_belt_count(&self, layout: &Level, w: &mut Partial) {
        let b = self
            .free
            .iter()
            .filter(|&&c| matches!(layout.tile(c), Tile::Belt(_)))
            .count();
        for k in 0..=self.belts_encoded_upto() {
            for l in self.belts.at_most(k).unwrap_or_default() {
                w.set(l, b <= k);
            }
        }
    }

    /// Per source and node, whether the run saw a donut of that source there.
    fn seen_on(&self, seen: &[Seen]) -> PerSourceNode<bool> {
        let ids: HashMap<Node, _> = self.nodes.enumerate().map(|(i, n)| (*n, i)).collect();
        let mut on: PerSourceNode<bool> = KeyedVec::filled(
            self.sources.len(),
            KeyedVec::filled(self.nodes.len(), false),
        );
        for &(cell, kind, origin, entry) in seen {
            let Some(s) = self.sources.position(|&c| c == origin) else {
                continue;
            };
            if let Some(&n) = ids.get(&Node { cell, kind, entry }) {
                on[s][n] = true;
            }
        }
        on
    }

    /// `q` as seen, and `act` where both ends were seen and the guard holds.
    fn witness_flows(&self, on: &PerSourceNode<bool>, chosen: &HashSet<Lit>, w: &mut Partial) {
        for s in self.sources.keys() {
            for (n, q) in self.q[s].enumerate() {
                if let Some(l) = *q {
                    w.set(l, on[s][n]);
                }
            }
            for (e, edge) in self.edges.enumerate() {
                let Some(a) = self.act[s][e] else { continue };
                let from_on = match edge.from {
                    From::Source(t) => t == s,
                    From::Node(n) => on[s][n],
                };
                let guard_on = edge.guard.is_none_or(|g| chosen.contains(&g));
                w.set(a, from_on && guard_on && on[s][edge.to]);
            }
        }
    }

    /// P1: the least marking that satisfies its clauses under the layout.
    fn witness_prefix(&self, chosen: &HashSet<Lit>, w: &mut Partial) {
        if self.pre.is_empty() {
            return;
        }
        let mut marked = KeyedVec::filled(self.nodes.len(), false);
        let mut stack: Vec<_> = self
            .landings(super::prefix::first_source())
            .filter(|e| e.first)
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
        for (n, p) in self.pre.enumerate() {
            if let Some(p) = *p {
                w.set(p, marked[n]);
            }
        }
    }

    /// F3: each parting literal where a seen donut shows it; `first`
    /// along the walk the layout gives the first donut from its landing, up
    /// to a branch or a parting that holds (the claim the tests check:
    /// every node of it is seen).
    fn witness_first_walks(
        &self,
        on: &PerSourceNode<bool>,
        chosen: &HashSet<Lit>,
        w: &mut Partial,
    ) {
        let pushes = self.level.bumper_pushes();
        let holds = |p: Parting| {
            self.nodes.keys().any(|m| {
                self.shows(m, p, &pushes)
                    && match p {
                        Parting::Lost { .. } => on.iter().any(|o| o[m]),
                        Parting::Bumped { source, .. } => on[source][m],
                    }
            })
        };
        for &(l, p) in &self.partings {
            w.set(l, holds(p));
        }
        for walk in &self.first_walks {
            let s = walk.source;
            let mut marked = KeyedVec::filled(self.nodes.len(), false);
            let mut next = Some(walk.start);
            while let Some(n) = next.take() {
                if std::mem::replace(&mut marked[n], true)
                    || self.is_branch(n)
                    || self.partings_of(s, n, &pushes).into_iter().any(holds)
                {
                    break;
                }
                next = self.out_edges[n]
                    .iter()
                    .map(|&e| &self.edges[e])
                    .find(|e| e.first && e.guard.is_none_or(|g| chosen.contains(&g)))
                    .map(|e| e.to);
            }
            for (n, f) in walk.first.enumerate() {
                if let Some(f) = *f {
                    w.set(f, marked[n]);
                }
            }
        }
    }
}

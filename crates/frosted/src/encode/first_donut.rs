//! The first donut of an any-source walks its route (F3).
//!
//! An any-source's donuts differ in kind, so F1 ("every seen node leads on")
//! does not hold for them: a run may end before a later kind has gone far.
//! But the cells a donut walks do not depend on its kind until it meets a
//! *parting*: a branch (a splitter, a teleporter in with several outs, a
//! cell where a waiting donut is topped again), a cell where a bumper
//! pushes some kind, or a crossover (where two donuts entering at once from
//! different sides lose one). Up to the first parting, all the donuts of the
//! any-source `s` walk one path of cells, one behind the other (none
//! overtakes another on one path). `s` delivers, so some donut of `s` walked
//! that path up to its end (a target) or up to a parting it passed. The first
//! donut `s` emits is plain (the cycle starts with None) and lands, at tick
//! 1, on an empty grid: it is the first on the path, so it walked all of
//! that before the delivering donut could, with the kinds the toppers give
//! a plain donut. `first[s][n]` marks the nodes of its walk: each one is
//! seen, stands on a belt when its cell is free, and leads on to the next
//! under the layout's choice, unless the node is a parting that applies:
//! - a branch: the walk may stop there;
//! - a cell where a bumper pushes kind `k`: the walk may stop there when a
//!   donut of `s` of a kind some bumper pushes there is seen on it;
//! - a crossover entered from `d`: the walk may stop there when some donut
//!   (of any source) is seen on it having entered from another side (the
//!   donut that overwrote the first one stands there at the next scan).
//!
//! A walk that reaches a delivery meets C3, which forbids it where the
//! target refuses the kind: the cut this buys is "an any-source's plain
//! donut reaches a target that wants a finished one".

use super::graph::{Node, NodeInfos};
use super::{Encoding, NodeId, SourceId};
use crate::grid::{CellId, Dir, Kind};
use crate::level::Tile;
use cegar::keyed::{KeyedVec, StorageKey as _};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::Lit;

/// The walk of one any-source's first donut: `first[n]` per node it may
/// reach, and per node the literals that let it stop there.
#[derive(Clone, Debug)]
pub(super) struct FirstWalk {
    pub source: SourceId,
    pub start: NodeId,
    pub first: KeyedVec<NodeId, Option<Lit>>,
}

/// What a literal that lets a walk stop says (each implies it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Parting {
    /// A donut of any source is seen on the crossover `cell` having entered
    /// it moving another way than `entry`.
    Lost { cell: CellId, entry: Dir },
    /// A donut of `source` is seen on `cell` with a kind a bumper pushes
    /// from there.
    Bumped { source: SourceId, cell: CellId },
}

impl Encoding {
    /// F3 for every any-source whose first donut is sure to land: its
    /// first move's cell is no other source's first move's cell (two
    /// donuts landing on one cell at tick 1 may refuse or lose one).
    pub(super) fn first_donuts_walk_their_route(
        &mut self,
        pushes: &[[Option<Kind>; 4]],
        infos: &NodeInfos,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        for s in self.sources.keys() {
            let Some(start) = self.first_donut_lands(s) else {
                continue;
            };
            // F3 rests on "`s` delivers": with requirement switches, it
            // holds only under that switch.
            let guard = (!self.switches.is_empty()).then(|| !self.goals[s.index()]);
            let mut defs = Vec::new();
            let mut add = |mut cl: Vec<Lit>| {
                cl.extend(guard);
                let _ = col.add_clause(cl.into_iter().collect());
            };
            let walk = self.first_walk(s, start, pushes, infos, &mut add, &mut defs, vm);
            self.first_walks.push(walk);
            // What a parting literal says holds in every run: no guard.
            for cl in defs {
                let _ = col.add_clause(cl.into_iter().collect());
            }
        }
    }

    /// The node where an any-source's first (plain) donut lands at tick 1,
    /// when no other source's first move lands on the same cell.
    fn first_donut_lands(&self, s: SourceId) -> Option<NodeId> {
        let level = &self.level;
        let at = self.sources[s];
        let Tile::AnySource(d) = level.tile(at) else {
            return None;
        };
        let cell = level.shape.step(at, d)?;
        let shared = self.sources.iter().any(|&o| {
            o != at
                && match level.tile(o) {
                    Tile::Source(e) | Tile::AnySource(e) => level.shape.step(o, e) == Some(cell),
                    _ => false,
                }
        });
        if shared {
            return None;
        }
        let kind = super::graph::topped_once(level, cell, Kind::PLAIN);
        let entry = (level.tile(cell) == Tile::Crossover).then_some(d);
        let node = Node { cell, kind, entry };
        self.landings(s)
            .filter(|e| e.first)
            .map(|e| e.to)
            .find(|&n| self.nodes[n] == node)
    }

    /// F3's clauses for any-source `s` from its first node `start` (into
    /// `add`), and those of the parting literals it makes (into `defs`).
    #[allow(clippy::too_many_arguments)]
    fn first_walk(
        &mut self,
        s: SourceId,
        start: NodeId,
        pushes: &[[Option<Kind>; 4]],
        infos: &NodeInfos,
        add: &mut impl FnMut(Vec<Lit>),
        defs: &mut Vec<Vec<Lit>>,
        vm: &mut dyn ManageVars,
    ) -> FirstWalk {
        let mut first: KeyedVec<NodeId, Option<Lit>> = KeyedVec::filled(self.nodes.len(), None);
        let mut stack = vec![start];
        while let Some(n) = stack.pop() {
            if first[n].is_some() || self.q[s][n].is_none() {
                continue;
            }
            first[n] = Some(vm.new_lit());
            if !self.is_branch(n) {
                for (_, dests) in &infos[n].exits {
                    stack.extend(dests.iter().copied());
                }
            }
        }
        if let Some(f) = first[start] {
            add(vec![f]);
        }
        for n in self.nodes.keys() {
            let Some(f) = first[n] else { continue };
            self.first_donut_is_seen(s, n, f, add);
            if self.is_branch(n) {
                continue;
            }
            let stops = self.partings_at(s, n, pushes, defs, vm);
            self.first_donut_stands_on_belts(n, f, &stops, add);
            // `first[n] ∧ label → stops ∨ ∨ first[to]` for every way on.
            for cl in infos[n].goes_on(f, &stops, |m| first[m]) {
                add(cl);
            }
        }
        FirstWalk {
            source: s,
            start,
            first,
        }
    }

    /// The partings on node `n` that may stop the walk of `s` there, each a
    /// literal that implies what it says ([`Parting`]), made once.
    fn partings_at(
        &mut self,
        s: SourceId,
        n: NodeId,
        pushes: &[[Option<Kind>; 4]],
        defs: &mut Vec<Vec<Lit>>,
        vm: &mut dyn ManageVars,
    ) -> Vec<Lit> {
        self.partings_of(s, n, pushes)
            .into_iter()
            .map(|p| self.parting_literal(p, pushes, defs, vm))
            .collect()
    }

    /// The partings that may stop the walk of `s` on node `n` (not a
    /// branch): a crossover, a cell a bumper pushes from.
    pub(super) fn partings_of(
        &self,
        s: SourceId,
        n: NodeId,
        pushes: &[[Option<Kind>; 4]],
    ) -> Vec<Parting> {
        let node = self.nodes[n];
        let mut partings = Vec::new();
        if let Some(entry) = node.entry {
            partings.push(Parting::Lost {
                cell: node.cell,
                entry,
            });
        }
        if pushes[node.cell.index()].iter().any(Option::is_some) {
            partings.push(Parting::Bumped {
                source: s,
                cell: node.cell,
            });
        }
        partings
    }

    /// The literal of `parting`, with its clause `lit → ∨ q` over the nodes
    /// that show it.
    fn parting_literal(
        &mut self,
        parting: Parting,
        pushes: &[[Option<Kind>; 4]],
        defs: &mut Vec<Vec<Lit>>,
        vm: &mut dyn ManageVars,
    ) -> Lit {
        if let Some(&(l, _)) = self.partings.iter().find(|(_, p)| *p == parting) {
            return l;
        }
        let l = vm.new_lit();
        let mut cl = vec![!l];
        for m in self.nodes.keys() {
            if !self.shows(m, parting, pushes) {
                continue;
            }
            match parting {
                Parting::Lost { .. } => cl.extend(self.q.iter().filter_map(|q| q[m])),
                Parting::Bumped { source, .. } => cl.extend(self.q[source][m]),
            }
        }
        defs.push(cl);
        self.partings.push((l, parting));
        l
    }

    /// Whether a donut seen on node `m` shows `parting` (for a bumper, when
    /// its source is the parting's).
    pub(super) fn shows(&self, m: NodeId, parting: Parting, pushes: &[[Option<Kind>; 4]]) -> bool {
        let node = self.nodes[m];
        match parting {
            Parting::Lost { cell, entry } => {
                node.cell == cell && node.entry.is_some_and(|e| e != entry)
            }
            Parting::Bumped { cell, .. } => {
                node.cell == cell && pushes[cell.index()].contains(&Some(node.kind))
            }
        }
    }

    /// `first[n] → q[s][n]`: the first donut's walk is seen.
    fn first_donut_is_seen(&self, s: SourceId, n: NodeId, f: Lit, add: &mut impl FnMut(Vec<Lit>)) {
        if let Some(q) = self.q[s][n] {
            add(vec![!f, q]);
        }
    }

    /// `first[n] → stop ∨ ¬choice[c][none]` on a free cell: the first
    /// donut leaves it, so it holds a belt.
    fn first_donut_stands_on_belts(
        &self,
        n: NodeId,
        f: Lit,
        stops: &[Lit],
        add: &mut impl FnMut(Vec<Lit>),
    ) {
        if let Some(i) = self.free_id(self.nodes[n].cell) {
            let mut cl = vec![!f, !self.choice[i][0]];
            cl.extend(stops);
            add(cl);
        }
    }
}

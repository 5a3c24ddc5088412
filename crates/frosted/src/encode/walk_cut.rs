//! The first-donut cuts (X5, [`crate::sure_walk`]): a rejected layout whose
//! source sends its first donut along a walk no other donut can touch to a
//! target that refuses it becomes a clause over that walk alone, and the
//! earliest tick each requirement could be met at, in any layout, that
//! the clause's argument needs.

use super::graph::From;
use super::{Encoding, SourceId};
use crate::grid::CellId;
use crate::level::Level;
use crate::sim::End;
use cegar::keyed::{KeyedVec, StorageKey as _};
use rustsat::types::{Clause, Lit};
use std::collections::VecDeque;

/// The earliest tick at whose scan a requirement could be met, in any
/// layout: a donut on a cell at the scan of tick `t` made `t - 1` moves
/// since its source sent it (at tick 1 or later), one move along each edge
/// of the move graph, so no earlier than two ticks after as many moves as
/// the fewest to that cell.
#[derive(Clone, Debug, Default)]
pub struct Earliest {
    /// Per target: the earliest tick it could receive a donut.
    pub targets: Vec<(CellId, u32)>,
    /// Per source: the earliest tick it could be the origin of a delivery.
    pub sources: KeyedVec<SourceId, u32>,
    /// Per cell: the earliest tick a donut could stand on it.
    pub cells: Vec<u32>,
}

impl Encoding {
    /// [`Earliest`] from the move graph.
    pub(super) fn earliest_deliveries(&self) -> Earliest {
        let per_source: Vec<Vec<u32>> = self
            .sources
            .keys()
            .map(|s| self.move_distances(s))
            .collect();
        let tick = |d: u32| d.saturating_add(2);
        let targets = self
            .level
            .targets()
            .map(|t| {
                let d = per_source
                    .iter()
                    .map(|m| m[t.index()])
                    .min()
                    .unwrap_or(u32::MAX);
                (t, tick(d))
            })
            .collect();
        let sources = per_source
            .iter()
            .map(|m| {
                let d = self
                    .nodes
                    .keys()
                    .filter(|&n| self.accepted_delivery[n])
                    .map(|n| m[self.nodes[n].cell.index()])
                    .min()
                    .unwrap_or(u32::MAX);
                tick(d)
            })
            .collect();
        let cells = (0..self.level.shape.len())
            .map(|c| tick(per_source.iter().map(|m| m[c]).min().unwrap_or(u32::MAX)))
            .collect();
        Earliest {
            targets,
            sources,
            cells,
        }
    }

    /// For each cell, the fewest moves of the move graph from a cell source
    /// `s` sends its donuts onto (`u32::MAX` where none lead).
    fn move_distances(&self, s: SourceId) -> Vec<u32> {
        let n_cells = self.level.shape.len();
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n_cells];
        for edge in &self.edges {
            if let From::Node(m) = edge.from {
                out[self.nodes[m].cell.index()].push(self.nodes[edge.to].cell.index());
            }
        }
        let mut dist = vec![u32::MAX; n_cells];
        let mut queue = VecDeque::new();
        for edge in self.landings(s) {
            let c = self.nodes[edge.to].cell.index();
            if dist[c] != 0 {
                dist[c] = 0;
                queue.push_back(c);
            }
        }
        while let Some(c) = queue.pop_front() {
            for &t in &out[c] {
                if dist[t] == u32::MAX {
                    dist[t] = dist[c] + 1;
                    queue.push_back(t);
                }
            }
        }
        dist
    }

    /// The clause for a failed layout's wrong delivery: X2 where it
    /// applies, else X5 (with [`super::EncodeOptions::walk_cuts`]).
    /// `end` is how the layout's run ended.
    pub fn wrong_delivery_clause(&self, layout: &Level, end: &End) -> Option<Clause> {
        self.wrong_branch_clause(layout)
            .or_else(|| self.sure_walk_clause(layout, end))
    }

    /// X5: the clause for a first donut's sure wrong delivery (see
    /// [`crate::sure_walk`]), or `None` where the layout does not fit the
    /// argument. It holds for every solving layout: the belts of the walk
    /// differ, or a cell beside it lets another donut on, or the run ends
    /// before the wrong delivery, on a stranded donut. When a requirement
    /// can be met only after that tick (by the move graph's distances), a
    /// run that ends before misses it, and the clause names its switch
    /// instead of the strands; otherwise it names the strand marks of the
    /// `.` cells a donut can reach by then.
    pub fn sure_walk_clause(&self, layout: &Level, end: &End) -> Option<Clause> {
        if !self.walk_cuts {
            return None;
        }
        let sw = crate::sure_walk::sure_wrong_walk(&self.level, layout, end)?;
        let mut cl: Vec<Lit> = Vec::new();
        for &(c, d) in &sw.fixed {
            cl.push(!self.choice[self.free_id(c)?][1 + d.index()]);
        }
        for (c, d) in sw.entries {
            let i = self.free_id(c)?;
            cl.push(match d {
                Some(d) => self.choice[i][1 + d.index()],
                None => !self.choice[i][0],
            });
        }
        match self.met_only_after(sw.tick) {
            Some(guard) => cl.push(!guard),
            None => cl.extend(self.strands_by(sw.tick, &sw.fixed)?),
        }
        Some(cl.into_iter().collect())
    }

    /// The strand marks of the `.` cells off the walk (`walk`) that a donut
    /// could stand on by the scan of `tick`: a run that ends on a stranded
    /// donut by then ends on one of them. `None` without strand marks.
    fn strands_by(&self, tick: u32, walk: &[(CellId, crate::grid::Dir)]) -> Option<Vec<Lit>> {
        if self.strand.is_empty() {
            return None;
        }
        let lits = self
            .free
            .enumerate()
            .filter(|(_, c)| self.earliest.cells[c.index()] <= tick)
            .filter(|(_, c)| !walk.iter().any(|w| w.0 == **c))
            .map(|(i, _)| self.strand[i])
            .collect();
        Some(lits)
    }

    /// The switch of a requirement no layout meets by the scan of `tick`
    /// (so every run that ends by then misses it), if there is one.
    fn met_only_after(&self, tick: u32) -> Option<Lit> {
        let e = &self.earliest;
        let target = e
            .targets
            .iter()
            .find(|(_, t)| *t > tick)
            .map(|&(c, _)| self.target_guard(c));
        target.or_else(|| {
            self.sources
                .keys()
                .find(|&s| e.sources[s] > tick)
                .map(|s| self.goals[s.index()])
        })
    }
}

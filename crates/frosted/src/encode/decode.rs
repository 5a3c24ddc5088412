//! Reading a model back, and the clauses the solve loop adds from it: the
//! layout a model describes, the counterexample of a failed run (X1), the
//! founded part of the model's flows and the loop formulas of the rest (L1),
//! and the variables that those later clauses may name (the interface kept
//! by variable elimination).

use super::graph::{Edge, From};
use super::{holds, option_index, EdgeId, Encoding, FreeId, PerSourceNode, SourceId, CHOICES};
use crate::grid::CellId;
use crate::level::{Level, Tile};
use crate::sim::Outcome;
use cegar::keyed::{KeyedVec, StorageKey};
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};
use std::collections::HashMap;

/// Per source and node, whether a model's donut there is founded (see
/// [`Encoding::founded`]).
pub type Founded = PerSourceNode<bool>;

/// The loop formulas' gate literals, per source and edge (see
/// [`Encoding::unfounded`]).
pub type LoopGates = HashMap<(SourceId, EdgeId), Lit>;

impl Encoding {
    /// The layout a model describes.
    pub fn decode(&self, model: &[bool]) -> Level {
        let val = |l: Lit| holds(model, l);
        let belts = self.free.enumerate().filter_map(|(i, &c)| {
            (1..5)
                .find(|&j| val(self.choice[i][j]))
                .and_then(|j| CHOICES[j].map(|d| (c, d)))
        });
        self.level.with_belts(belts)
    }

    /// The first free cell (in the order of `free`) to which `model` does not
    /// give exactly one option (C1), with the number of options it gives. No
    /// model of this encoding has one, so a model that does was cut short or
    /// belongs to another level's CNF.
    pub fn one_hot_violation(&self, model: &[bool]) -> Option<(CellId, usize)> {
        let val = |l: Lit| holds(model, l);
        self.free.enumerate().find_map(|(i, &c)| {
            let n = self.choice[i].iter().filter(|&&l| val(l)).count();
            (n != 1).then_some((c, n))
        })
    }

    /// The literal for "free cell `i` holds what it holds in `layout`".
    pub fn chosen(&self, i: FreeId, layout: &Level) -> Lit {
        self.choice[i][option_index(layout.tile(self.free[i]).belt())]
    }

    /// X1: the counterexample from a failed run: some `.` cell that a donut
    /// stood on must hold something else. Sound, because the run reads the
    /// player's choice only on cells a donut stood on (see
    /// `sim::Outcome::visited`).
    pub fn counterexample(&self, layout: &Level, outcome: &Outcome) -> Clause {
        self.free
            .keys()
            .filter(|&i| outcome.visited[self.free[i].index()])
            .map(|i| !self.chosen(i, layout))
            .collect()
    }

    /// L1: loop formulas for the model's unfounded donuts: nodes marked as
    /// holding a donut from `s` that no chain of active moves from `s`
    /// reaches. For such a set `L`, each node of `L` needs an active edge
    /// entering `L` from outside. Returns no clause when every marked node is
    /// founded. `founded` is [`Encoding::founded`] of the same model.
    ///
    /// With exact ranks the formulas do not name `act`, so that variable
    /// elimination may remove it ([`Encoding::interface`]): an edge from node
    /// `m` counts through a gate `y → q[s][m]`, `y → guard` instead (a fresh
    /// variable from `vm`, made once per source and edge and kept in `gates`;
    /// its two clauses come with the formulas). Since `act[s][e]` implies both,
    /// that is weaker, so still sound, and it still excludes this model: an
    /// edge into `L` whose start is marked and whose belt is chosen would have
    /// founded its end.
    ///
    /// With `notes`, each clause gets its justification for a certificate:
    /// `gate S E` for the two clauses of the gate of source `S` and edge `E`
    /// (a fresh variable), `loop S N...` for a loop formula of source `S`
    /// and the unfounded nodes `N...` (re-derived by
    /// [`Encoding::loop_formulas`]).
    pub fn unfounded(
        &self,
        model: &[bool],
        founded: &Founded,
        vm: &mut dyn ManageVars,
        gates: &mut LoopGates,
        mut notes: Option<&mut Vec<String>>,
    ) -> Vec<Clause> {
        let mut clauses = Vec::new();
        for s in self.sources.keys() {
            let lost: KeyedVec<_, bool> = self.q[s]
                .enumerate()
                .map(|(n, l)| l.is_some_and(|l| holds(model, l)) && !founded[s][n])
                .collect();
            let mut gate = |e: EdgeId, qm: Lit, g: Lit| {
                *gates.entry((s, e)).or_insert_with(|| {
                    let y = vm.new_lit();
                    clauses.push(Clause::from([!y, qm]));
                    clauses.push(Clause::from([!y, g]));
                    if let Some(n) = notes.as_deref_mut() {
                        let note = format!("gate {} {}", s.index(), e.index());
                        n.extend([note.clone(), note]);
                    }
                    y
                })
            };
            let Some(formulas) = self.loop_formulas(s, &lost, &mut gate) else {
                continue;
            };
            if let Some(n) = notes.as_deref_mut() {
                let nodes = lost.enumerate().filter(|(_, &l)| l).map(|(n, _)| n.index());
                let note = format!(
                    "loop {} {}",
                    s.index(),
                    nodes.map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
                );
                n.extend(formulas.iter().map(|_| note.clone()));
            }
            clauses.extend(formulas);
        }
        clauses
    }

    /// L1 for source `s` and its unfounded set `lost`: per node of `lost`,
    /// "a donut there needs an edge entering `lost` from outside"; `None`
    /// when the source's own emission enters it (nothing to require).
    /// `gate(e, q, g)` gives the gate literal of edge `e` (with exact ranks;
    /// see [`Encoding::unfounded`]), which implies `q` and `g`.
    pub fn loop_formulas(
        &self,
        s: SourceId,
        lost: &KeyedVec<super::NodeId, bool>,
        gate: &mut dyn FnMut(EdgeId, Lit, Lit) -> Lit,
    ) -> Option<Vec<Clause>> {
        let external = self.entering_unfounded(s, lost, gate)?;
        let mut clauses = Vec::new();
        for (u, &is_lost) in lost.enumerate() {
            if !is_lost {
                continue;
            }
            let Some(qu) = self.q[s][u] else { continue };
            let mut cl = vec![!qu];
            cl.extend(external.iter().copied());
            clauses.push(cl.into_iter().collect());
        }
        Some(clauses)
    }

    /// L1: the literals of every edge entering the unfounded set `lost` of
    /// source `s` from outside (`act`, or with exact ranks the gates and
    /// `q` of the starts); `None` when the source's own emission enters it
    /// (nothing to require).
    fn entering_unfounded(
        &self,
        s: SourceId,
        lost: &KeyedVec<super::NodeId, bool>,
        gate: &mut dyn FnMut(EdgeId, Lit, Lit) -> Lit,
    ) -> Option<Vec<Lit>> {
        let mut external = Vec::new();
        for (e, edge) in self.edges.enumerate() {
            let inside = match edge.from {
                From::Source(_) => false,
                From::Node(n) => lost[n],
            };
            if !lost[edge.to] || inside {
                continue;
            }
            if !self.exact_ranks {
                external.extend(self.act[s][e]);
                continue;
            }
            match (edge.from, edge.guard) {
                (From::Source(t), _) if t == s => return None,
                (From::Source(_), _) => {}
                (From::Node(m), None) => external.extend(self.q[s][m]),
                (From::Node(m), Some(g)) => {
                    let Some(qm) = self.q[s][m] else { continue };
                    external.push(gate(e, qm, g));
                }
            }
        }
        Some(external)
    }

    /// Per source, the marked nodes that a chain of active moves from the source
    /// reaches. The ranks (C7) leave out components without a fork, so a model
    /// may mark a loop there that nothing feeds; but such a loop feeds nothing
    /// else either (each of its nodes has one way on), so dropping it, and the
    /// belts only it uses, leaves a model of the relaxation: see
    /// [`Encoding::decode_founded`].
    pub fn founded(&self, model: &[bool]) -> Founded {
        let val = |l: Lit| holds(model, l);
        self.sources
            .keys()
            .map(|s| {
                let marked: KeyedVec<_, bool> =
                    self.q[s].iter().map(|l| l.is_some_and(val)).collect();
                let mut founded = KeyedVec::filled(self.nodes.len(), false);
                let open = |e: &Edge| marked[e.to] && e.guard.is_none_or(val);
                let mut stack: Vec<_> =
                    self.landings(s).filter(|e| open(e)).map(|e| e.to).collect();
                while let Some(n) = stack.pop() {
                    if std::mem::replace(&mut founded[n], true) {
                        continue;
                    }
                    for &e in &self.out_edges[n] {
                        if open(&self.edges[e]) {
                            stack.push(self.edges[e].to);
                        }
                    }
                }
                founded
            })
            .collect()
    }

    /// The layout a model describes, keeping only the belts on cells where a
    /// founded donut stands (see [`Encoding::founded`]).
    pub fn decode_founded(&self, model: &[bool], founded: &Founded) -> Level {
        let mut used = vec![false; self.level.shape.len()];
        for f in founded {
            for (n, &on) in f.enumerate() {
                if on {
                    used[self.nodes[n].cell.index()] = true;
                }
            }
        }
        let mut layout = self.decode(model);
        for &c in &self.free {
            if !used[c.index()] {
                layout.tiles[c.index()] = Tile::Empty;
            }
        }
        layout
    }

    /// The variables that clauses and assumptions given to the solver after
    /// the encoding may name, so preprocessing must keep them
    /// ([`cegar::sat::elim`]): the belt choices (counterexamples, windows),
    /// `strong`, the goals, the belt counter's outputs (bounds), `pre` and
    /// `strand` (X2), every `q` (loop formulas), and `act` where the loop
    /// formulas name it (without exact ranks; see [`Encoding::unfounded`]).
    pub fn interface(&self) -> Vec<bool> {
        let mut keep = vec![false; self.n_vars as usize];
        self.belts.mark_interface(&mut keep);
        let mut mark = |l: Lit| {
            if let Some(k) = keep.get_mut(l.var().idx()) {
                *k = true;
            }
        };
        self.choice.iter().flatten().for_each(|&l| mark(l));
        mark(self.strong);
        self.goals.iter().for_each(|&l| mark(l));
        self.pre.iter().flatten().for_each(|&l| mark(l));
        self.strand.iter().for_each(|&l| mark(l));
        self.q.iter().flatten().flatten().for_each(|&l| mark(l));
        if !self.exact_ranks {
            self.act.iter().flatten().flatten().for_each(|&l| mark(l));
        }
        keep
    }
}

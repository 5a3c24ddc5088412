//! Checking the formula of a certificate's proving call against the level:
//! every clause must be the level's encoding (re-encoded here), or a clause
//! the solve loop added that this module re-derives from its justification,
//! and every assumption must be one that holds for a solution.
//!
//! The justifications (see `docs/certificates.md` and the soundness
//! argument in `encodings/README.md`, "Certificates"):
//! - a counterexample (X1): a layout of the level whose run fails or misses
//!   a requirement; the clause must say "one of the `.` cells the run
//!   visited holds something else", naming exactly those cells;
//! - a wrong-branch clause (X2): the same layout, a wrong delivery, and the
//!   clause [`Encoding::wrong_branch_clause`] makes of it;
//! - a loop formula (L1, `loop S N...`): re-derived by
//!   [`Encoding::loop_formulas`] from the source and the unfounded nodes;
//! - a gate (`gate S E`): the two clauses `¬y ∨ q`, `¬y ∨ guard` of a
//!   variable `y` no earlier clause names (a definition: any assignment
//!   extends to it);
//! - a cost bound: the belt counter's clauses for "at most `k`", re-created
//!   by asking this encoding's counter for the same bounds in order.
//!
//! The trusted parts are the simulator, the encoding's code and this
//! module; the DRAT check is left to an outside checker.

use crate::encode::{EdgeId, EncodeOptions, Encoding, From, NodeId, SourceId};
use crate::grid::Pos;
use crate::judge::judge;
use crate::level::Level;
use crate::sim::{End, Failure};
use cegar::keyed::{KeyedVec, StorageKey};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit, Var};
use std::collections::HashMap;

/// A clause as a sorted list of literals, to compare clauses whatever the
/// order of their literals.
fn sorted(cl: &Clause) -> Vec<Lit> {
    let mut v: Vec<Lit> = cl.iter().copied().collect();
    v.sort();
    v
}

/// A clause in DIMACS numbers, for messages.
pub fn show(cl: &Clause) -> String {
    let lits: Vec<String> = cl.iter().map(|l| l.to_ipasir().to_string()).collect();
    format!("[{}]", lits.join(" "))
}

/// The level re-encoded, and what the clauses checked so far introduced.
pub struct FormulaCheck {
    enc: Encoding,
    encoding: Vec<Clause>,
    /// The highest variable (index) any clause so far names.
    max_var: usize,
    /// Per (source, edge): the gate variable, and whether both of its
    /// clauses were seen.
    gates: HashMap<(SourceId, EdgeId), (Lit, bool)>,
    /// The cost bound being re-created: its `(k, vars_before)`, its
    /// clauses, and how many of them were seen.
    cost_block: Option<((usize, u32), Vec<Clause>, usize)>,
}

impl FormulaCheck {
    /// Re-encodes `level` with `opts` (which must be the solve's).
    pub fn new(level: &Level, opts: &EncodeOptions) -> FormulaCheck {
        let mut cnf = Cnf::new();
        let mut vars = BasicVarManager::default();
        let enc = Encoding::new(level, opts, &mut cnf, &mut vars);
        let encoding: Vec<Clause> = cnf.into_iter().collect();
        let max_var = vars.n_used() as usize;
        FormulaCheck {
            enc,
            encoding,
            max_var,
            gates: HashMap::new(),
            cost_block: None,
        }
    }

    /// The number of clauses of the encoding.
    pub fn encoding_len(&self) -> usize {
        self.encoding.len()
    }

    /// Whether `clauses` are the encoding, in any order.
    pub fn is_encoding(&self, clauses: &[Clause]) -> Result<(), String> {
        if clauses.len() != self.encoding.len() {
            return Err(format!(
                "the level's encoding has {} clauses, the certificate's {}",
                self.encoding.len(),
                clauses.len()
            ));
        }
        let mut want: HashMap<Vec<Lit>, usize> = HashMap::new();
        for cl in &self.encoding {
            *want.entry(sorted(cl)).or_default() += 1;
        }
        for (line, cl) in (1..).zip(clauses) {
            match want.get_mut(&sorted(cl)) {
                Some(n) if *n > 0 => *n -= 1,
                _ => {
                    return Err(format!(
                        "clause {line} {} is not a clause of the level's encoding \
                         (or it is there more often than the encoding has it)",
                        show(cl)
                    ))
                }
            }
        }
        Ok(())
    }

    /// Notes the variables `cl` names.
    fn see(&mut self, cl: &Clause) {
        for l in cl.iter() {
            self.max_var = self.max_var.max(l.var().idx() + 1);
        }
    }

    /// Checks a counterexample clause (`index` 0: X1, 1: X2) made from the
    /// run of `layout`; returns the cells it covers.
    pub fn counterexample(
        &mut self,
        layout: &Level,
        index: usize,
        cl: &Clause,
    ) -> Result<Vec<Pos>, String> {
        layout
            .check_layout_of(&self.enc.level)
            .map_err(|e| format!("the layout is not a layout of the level: {e}"))?;
        let verdict = judge(layout);
        if verdict.solved() {
            return Err("the layout solves the level, so its run justifies no clause".into());
        }
        let cells = match index {
            0 => self.visited_cells_clause(layout, &verdict.outcome, cl)?,
            1 => self.wrong_branch(layout, &verdict.outcome.end, cl)?,
            _ => return Err(format!("a layout justifies 2 clauses at most, not {index}")),
        };
        self.see(cl);
        Ok(cells)
    }

    /// X1: `cl` is "some `.` cell the run visited holds something else than
    /// in `layout`", naming every such cell and no other.
    fn visited_cells_clause(
        &self,
        layout: &Level,
        outcome: &crate::sim::Outcome,
        cl: &Clause,
    ) -> Result<Vec<Pos>, String> {
        let enc = &self.enc;
        let mut named = vec![false; enc.free.len()];
        for &l in cl.iter() {
            let i = enc
                .free
                .keys()
                .find(|&i| enc.chosen(i, layout) == !l)
                .ok_or(format!(
                    "literal {} is not \"a `.` cell holds something else than in the layout\"",
                    l.to_ipasir()
                ))?;
            let pos = enc.level.pos(enc.free[i]);
            if !outcome.visited[enc.free[i].index()] {
                return Err(format!(
                    "the clause names ({}, {}), a cell the layout's run never visited",
                    pos.x, pos.y
                ));
            }
            named[i.index()] = true;
        }
        let mut cells = Vec::new();
        for i in enc.free.keys() {
            let pos = enc.level.pos(enc.free[i]);
            if outcome.visited[enc.free[i].index()] && !named[i.index()] {
                return Err(format!(
                    "the layout's run visited ({}, {}), which the clause leaves out \
                     (it would rule out layouts the run says nothing about)",
                    pos.x, pos.y
                ));
            }
            if named[i.index()] {
                cells.push(pos);
            }
        }
        Ok(cells)
    }

    /// X2: a wrong delivery, and `cl` is the wrong-branch clause of it.
    fn wrong_branch(&self, layout: &Level, end: &End, cl: &Clause) -> Result<Vec<Pos>, String> {
        let wrong = matches!(
            end,
            End::Failed {
                failure: Failure::WrongDelivery { .. },
                ..
            }
        );
        if !wrong {
            return Err("a wrong-branch clause needs a run that delivers a wrong donut".into());
        }
        match self.enc.wrong_branch_clause(layout) {
            Some(want) if sorted(&want) == sorted(cl) => Ok(Vec::new()),
            Some(want) => Err(format!(
                "the layout's wrong-branch clause is {}, not {}",
                show(&want),
                show(cl)
            )),
            None => Err("the layout's wrong delivery makes no wrong-branch clause".into()),
        }
    }

    /// A source, edge or node index from a note.
    fn index<K: StorageKey>(word: Option<&str>, len: usize, what: &str) -> Result<K, String> {
        let i: usize = word
            .and_then(|w| w.parse().ok())
            .ok_or(format!("the note lacks a {what}"))?;
        match i < len {
            true => Ok(K::create_from_index(i)),
            false => Err(format!("{what} {i} does not exist (there are {len})")),
        }
    }

    /// Checks a lemma against its note (`gate S E` or `loop S N...`).
    pub fn lemma(&mut self, note: &str, cl: &Clause) -> Result<(), String> {
        let mut words = note.split_whitespace();
        let kind = words.next();
        let s: SourceId = Self::index(words.next(), self.enc.sources.len(), "source")?;
        match kind {
            Some("gate") => {
                let e = Self::index(words.next(), self.enc.edges.len(), "edge")?;
                self.gate(s, e, cl)?
            }
            Some("loop") => {
                let nodes: Vec<&str> = words.collect();
                self.loop_formula(s, &nodes, cl)?
            }
            _ => return Err(format!("unknown justification `{note}`")),
        }
        self.see(cl);
        Ok(())
    }

    /// A gate's clauses: first `¬y ∨ q[s][m]` with `y` new, then
    /// `¬y ∨ guard` (edge `e` from node `m`).
    fn gate(&mut self, s: SourceId, e: EdgeId, cl: &Clause) -> Result<(), String> {
        let edge = &self.enc.edges[e];
        let (From::Node(m), Some(g)) = (edge.from, edge.guard) else {
            return Err(format!("edge {} has no gate", e.index()));
        };
        let qm = self.enc.q[s][m].ok_or("the gate's start holds no donut of its source")?;
        let lits = sorted(cl);
        match self.gates.get(&(s, e)).copied() {
            None => {
                let y = lits
                    .iter()
                    .copied()
                    .find(|&l| l != qm)
                    .ok_or("no gate literal")?;
                let fresh = y.is_neg() && y.var().idx() >= self.max_var;
                if !fresh || sorted(&Clause::from([y, qm])) != lits {
                    return Err(format!(
                        "{} is not (not y or q) for a variable y no earlier clause names",
                        show(cl)
                    ));
                }
                self.gates.insert((s, e), (!y, false));
            }
            Some((y, false)) if sorted(&Clause::from([!y, g])) == lits => {
                self.gates.insert((s, e), (y, true));
            }
            Some(_) => return Err(format!("{} is not the gate's second clause", show(cl))),
        }
        Ok(())
    }

    /// A loop formula of source `s` for the unfounded `nodes`.
    fn loop_formula(&self, s: SourceId, nodes: &[&str], cl: &Clause) -> Result<(), String> {
        let mut lost: KeyedVec<NodeId, bool> = KeyedVec::filled(self.enc.nodes.len(), false);
        for n in nodes {
            let n: NodeId = Self::index(Some(n), self.enc.nodes.len(), "node")?;
            lost[n] = true;
        }
        let mut missing = None;
        let mut gate = |e: EdgeId, qm: Lit, _g: Lit| match self.gates.get(&(s, e)) {
            Some(&(y, true)) => y,
            _ => {
                missing = Some(e);
                qm
            }
        };
        let formulas = self.enc.loop_formulas(s, &lost, &mut gate);
        if let Some(e) = missing {
            return Err(format!(
                "the gate of edge {} was not defined before",
                e.index()
            ));
        }
        let formulas = formulas.ok_or("the source itself enters the set: no loop formula")?;
        match formulas.iter().any(|f| sorted(f) == sorted(cl)) {
            true => Ok(()),
            false => Err(format!("{} is not a loop formula of the set", show(cl))),
        }
    }

    /// A clause of the belt counter for "at most `k`", written when
    /// `vars_before` variables were in use.
    pub fn cost_bound(&mut self, k: usize, vars_before: u32, cl: &Clause) -> Result<(), String> {
        let key = (k, vars_before);
        let fresh_block = match &self.cost_block {
            Some((kv, block, seen)) => *kv != key || *seen >= block.len(),
            None => true,
        };
        if fresh_block {
            if (vars_before as usize) < self.max_var {
                return Err(format!(
                    "the counter's clauses start at variable {}, which earlier clauses use",
                    vars_before + 1
                ));
            }
            let mut vm = BasicVarManager::from_next_free(Var::new(vars_before));
            let block = self.enc.bound_belts(k, &mut vm);
            self.cost_block = Some((key, block, 0));
        }
        let Some((_, block, seen)) = &mut self.cost_block else {
            unreachable!("set just above")
        };
        let want = block
            .get(*seen)
            .ok_or("the counter needs no more clauses here")?;
        if sorted(want) != sorted(cl) {
            return Err(format!(
                "the counter's clause here is {}, not {}",
                show(want),
                show(cl)
            ));
        }
        *seen += 1;
        self.see(cl);
        Ok(())
    }

    /// The assumptions: each must be "not strong", a requirement, or a
    /// literal of "at most `max_cost` belts", and those must all be there.
    pub fn assumptions(&self, units: &[Lit], max_cost: Option<usize>) -> Result<(), String> {
        let bound = match max_cost {
            Some(k) if k < self.enc.free.len() => self
                .enc
                .belts
                .at_most(k)
                .ok_or(format!("the counter was never built up to {k}"))?,
            _ => Vec::new(),
        };
        for &l in units {
            let ok = l == !self.enc.strong || self.enc.goals.contains(&l) || bound.contains(&l);
            if !ok {
                return Err(format!(
                    "assumption {} is neither a requirement, nor \"not strong\", nor part of the bound",
                    l.to_ipasir()
                ));
            }
        }
        if let Some(l) = bound.iter().find(|l| !units.contains(l)) {
            return Err(format!(
                "the bound's literal {} is not assumed: the formula does not say \"at most {} belts\"",
                l.to_ipasir(),
                max_cost.unwrap_or(0)
            ));
        }
        Ok(())
    }
}

//! Bounded variable elimination: a preprocessing pass that shrinks a formula
//! before it goes to the solver, for backends (varisat) that do no such
//! simplification themselves.
//!
//! Eliminating a variable `v` replaces every clause that names it by all the
//! resolvents on `v` of those clauses (Davis–Putnam): the result is exactly
//! `∃v. F`, so for every assignment of the other variables, the new formula is
//! satisfiable iff the old one is. A variable is only eliminated when that
//! does not add clauses, and never when it is *frozen*: frozen variables are
//! those that clauses or assumptions given to the solver later may name
//! (`Encoding::interface`). Adding such clauses and assumptions to `∃X. F`
//! instead of `F` then changes no answer: an UNSAT call stays a proof, and a
//! model of the simplified formula becomes a model of the original one by
//! [`Extension::extend`], which sets the eliminated variables from the clauses
//! they were removed with, last eliminated first.
//!
//! Unit clauses are propagated first (and kept); tautologies and repeated
//! literals are dropped.

use rustsat::types::{Clause, Lit};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Resolvents longer than this stop a variable's elimination.
const MAX_RESOLVENT: usize = 24;
/// Variables whose positive and negative occurrences multiply to more than
/// this (pairs of clauses to resolve) are not tried: too expensive, and rarely
/// worth it.
const MAX_PRODUCT: usize = 400;

/// What elimination removed: enough to extend a model of the simplified formula
/// to a model of the original one.
#[derive(Clone, Debug, Default)]
pub struct Extension {
    /// `(pivot, clause)`, in the order the clauses were removed; `pivot` is the
    /// eliminated variable's literal in `clause`.
    stack: Vec<(Lit, Vec<Lit>)>,
    /// Variables eliminated.
    pub eliminated: usize,
    /// Per variable: eliminated.
    removed: Vec<bool>,
}

impl Extension {
    /// Whether `v` was eliminated (clauses added later must not name it).
    pub fn is_eliminated(&self, v: rustsat::types::Var) -> bool {
        self.removed.get(v.idx()).copied().unwrap_or(false)
    }

    /// Turns a model of the simplified formula into one of the original formula
    /// (only eliminated variables change). `model[v]` is the value of variable `v`.
    pub fn extend(&self, model: &mut [bool]) {
        let val = |m: &[bool], l: Lit| m.get(l.var().idx()).copied().unwrap_or(false) != l.is_neg();
        for (pivot, clause) in self.stack.iter().rev() {
            if !clause.iter().any(|&l| val(model, l)) {
                if let Some(v) = model.get_mut(pivot.var().idx()) {
                    *v = pivot.is_pos();
                }
            }
        }
    }
}

/// The working formula: clauses with lazily cleaned occurrence lists.
struct Db {
    clauses: Vec<Vec<Lit>>,
    live: Vec<bool>,
    /// Per literal index: clauses that contained it when added (may be stale).
    occ: Vec<Vec<usize>>,
    /// Per variable: fixed by a unit clause.
    value: Vec<Option<bool>>,
    units: Vec<Lit>,
    conflict: bool,
}

impl Db {
    fn lit_val(&self, l: Lit) -> Option<bool> {
        self.value[l.var().idx()].map(|b| b != l.is_neg())
    }

    /// Adds a clause (sorted, without repeats), simplified by the fixed values.
    fn add(&mut self, mut lits: Vec<Lit>, queue: &mut Vec<Lit>) -> Option<usize> {
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0].var() == w[1].var()) {
            return None; // tautology
        }
        if lits.iter().any(|&l| self.lit_val(l) == Some(true)) {
            return None;
        }
        lits.retain(|&l| self.lit_val(l).is_none());
        match lits.len() {
            0 => {
                self.conflict = true;
                None
            }
            1 => {
                self.assign(lits[0], queue);
                None
            }
            _ => {
                let id = self.clauses.len();
                for &l in &lits {
                    self.occ[l.lidx()].push(id);
                }
                self.clauses.push(lits);
                self.live.push(true);
                Some(id)
            }
        }
    }

    fn assign(&mut self, l: Lit, queue: &mut Vec<Lit>) {
        match self.lit_val(l) {
            Some(true) => {}
            Some(false) => self.conflict = true,
            None => {
                self.value[l.var().idx()] = Some(l.is_pos());
                self.units.push(l);
                queue.push(l);
            }
        }
    }

    /// Propagates the queued units through the live clauses.
    fn propagate(&mut self, queue: &mut Vec<Lit>) {
        while let Some(l) = queue.pop() {
            for id in std::mem::take(&mut self.occ[l.lidx()]) {
                self.live[id] = false;
            }
            for id in std::mem::take(&mut self.occ[(!l).lidx()]) {
                if !self.live[id] {
                    continue;
                }
                let c = &mut self.clauses[id];
                c.retain(|&x| x != !l);
                if c.len() == 1 {
                    let u = c[0];
                    self.live[id] = false;
                    self.assign(u, queue);
                } else if c.is_empty() {
                    self.conflict = true;
                }
            }
            if self.conflict {
                return;
            }
        }
    }

    /// The live clauses that contain `l` now (cleans its occurrence list).
    fn occurrences(&mut self, l: Lit) -> Vec<usize> {
        let (clauses, live) = (&self.clauses, &self.live);
        self.occ[l.lidx()].retain(|&id| live[id] && clauses[id].contains(&l));
        self.occ[l.lidx()].clone()
    }
}

/// The resolvent of `a` (with `v`) and `b` (with `!v`) on `v`, or `None` when
/// it is a tautology.
fn resolve(a: &[Lit], b: &[Lit], v: Lit) -> Option<Vec<Lit>> {
    let mut out: Vec<Lit> = a.iter().copied().filter(|&l| l != v).collect();
    for &l in b {
        if l == !v {
            continue;
        }
        if out.contains(&!l) {
            return None;
        }
        if !out.contains(&l) {
            out.push(l);
        }
    }
    Some(out)
}

/// Simplifies `clauses` (over variables `0..n_vars`), never eliminating a
/// variable `v` with `frozen[v]`. Returns the simplified clauses and what is
/// needed to extend their models.
pub fn eliminate(clauses: &[Clause], n_vars: u32, frozen: &[bool]) -> (Vec<Clause>, Extension) {
    let n = n_vars as usize;
    let mut db = Db::new(n, clauses.len());
    let mut ext = Extension {
        removed: vec![false; n],
        ..Extension::default()
    };
    let mut queue = Vec::new();
    for cl in clauses {
        db.add(cl.iter().copied().collect(), &mut queue);
        db.propagate(&mut queue);
        if db.conflict {
            return (vec![Clause::new()], ext);
        }
    }
    let is_frozen = |v: usize| frozen.get(v).copied().unwrap_or(false);
    let mut in_queue = vec![false; n];
    let mut work: Vec<usize> = (0..n).filter(|&v| !is_frozen(v)).collect();
    // Cheapest first (fewest occurrences), so small eliminations go first.
    work.sort_by_key(|&v| std::cmp::Reverse(db.occ[2 * v].len() * db.occ[2 * v + 1].len()));
    for &v in &work {
        in_queue[v] = true;
    }
    while let Some(v) = work.pop() {
        in_queue[v] = false;
        if ext.removed[v] || db.value[v].is_some() {
            continue;
        }
        let Some(touched) = db.eliminate_var(v, &mut ext, &mut queue) else {
            continue;
        };
        if db.conflict {
            return (vec![Clause::new()], ext);
        }
        for t in touched {
            if !ext.removed[t] && !in_queue[t] && !is_frozen(t) {
                in_queue[t] = true;
                work.push(t);
            }
        }
    }
    (db.simplified(), ext)
}

impl Db {
    /// An empty formula over `n` variables, with room for `clauses` clauses.
    fn new(n: usize, clauses: usize) -> Db {
        Db {
            clauses: Vec::with_capacity(clauses),
            live: Vec::with_capacity(clauses),
            occ: vec![Vec::new(); 2 * n],
            value: vec![None; n],
            units: Vec::new(),
            conflict: false,
        }
    }

    /// Eliminates variable `v` if that adds no clauses (and no resolvent is
    /// too long): removes its clauses onto `ext`'s stack, adds the
    /// resolvents and propagates. Returns the variables of the removed
    /// clauses, to try again; `None` if `v` stays.
    fn eliminate_var(
        &mut self,
        v: usize,
        ext: &mut Extension,
        queue: &mut Vec<Lit>,
    ) -> Option<Vec<usize>> {
        let pos_lit = Lit::new(v as u32, false);
        let pos = self.occurrences(pos_lit);
        let neg = self.occurrences(!pos_lit);
        if pos.is_empty() && neg.is_empty() {
            return None;
        }
        if pos.len() * neg.len() > MAX_PRODUCT {
            return None;
        }
        let resolvents = self.resolvents_if_no_more(&pos, &neg, pos_lit)?;
        ext.eliminated += 1;
        ext.removed[v] = true;
        let mut touched = Vec::new();
        for (&id, pivot) in pos
            .iter()
            .map(|id| (id, pos_lit))
            .chain(neg.iter().map(|id| (id, !pos_lit)))
        {
            self.live[id] = false;
            touched.extend(self.clauses[id].iter().map(|l| l.var().idx()));
            ext.stack.push((pivot, self.clauses[id].clone()));
        }
        for r in resolvents {
            self.add(r, queue);
        }
        self.propagate(queue);
        Some(touched)
    }

    /// All non-tautological resolvents on `pos_lit` of the clauses `pos` (with
    /// it) and `neg` (with its negation), if they are no more than the
    /// clauses they replace and none is longer than [`MAX_RESOLVENT`].
    fn resolvents_if_no_more(
        &self,
        pos: &[usize],
        neg: &[usize],
        pos_lit: Lit,
    ) -> Option<Vec<Vec<Lit>>> {
        let mut resolvents = Vec::new();
        for &a in pos {
            for &b in neg {
                if let Some(r) = resolve(&self.clauses[a], &self.clauses[b], pos_lit) {
                    if r.len() > MAX_RESOLVENT || resolvents.len() >= pos.len() + neg.len() {
                        return None;
                    }
                    resolvents.push(r);
                }
            }
        }
        Some(resolvents)
    }

    /// The simplified formula: the units found, then the live clauses.
    fn simplified(&self) -> Vec<Clause> {
        let mut out: Vec<Clause> = self.units.iter().map(|&u| Clause::from([u])).collect();
        for (id, c) in self.clauses.iter().enumerate() {
            if self.live[id] {
                out.push(c.iter().copied().collect());
            }
        }
        out
    }
}

/// What [`eliminate`] gives: the simplified clauses, how to extend their
/// models, and how long it took.
pub struct Eliminated {
    pub clauses: Vec<Clause>,
    pub ext: Extension,
    pub time: Duration,
}

/// The clauses to simplify, their variables, and which are frozen.
type Input = (Vec<Clause>, u32, Vec<bool>);

fn eliminate_timed(input: &Input) -> Eliminated {
    let t = Instant::now();
    let (clauses, ext) = eliminate(&input.0, input.1, &input.2);
    Eliminated {
        clauses,
        ext,
        time: t.elapsed(),
    }
}

/// Variable elimination on a thread of its own, started with the solve: the
/// first copy's calls need none of it, and the other copies join a call only
/// after its head start, so the first call no longer waits for it. Whoever
/// needs the result first waits for what is left of it.
pub struct Background {
    input: Arc<Input>,
    thread: Mutex<Option<JoinHandle<Eliminated>>>,
    done: OnceLock<Eliminated>,
}

impl Background {
    /// Starts eliminating the non-frozen variables of `clauses` (see
    /// [`eliminate`]); when no thread can start, eliminates them here.
    pub fn start(clauses: Vec<Clause>, n_vars: u32, frozen: Vec<bool>) -> Background {
        let input = Arc::new((clauses, n_vars, frozen));
        let theirs = input.clone();
        let thread = thread::Builder::new()
            .name("cegar-elimination".into())
            .spawn(move || eliminate_timed(&theirs))
            .ok();
        let done = OnceLock::new();
        if thread.is_none() {
            let _ = done.set(eliminate_timed(&input));
        }
        Background {
            input,
            thread: Mutex::new(thread),
            done,
        }
    }

    /// The result, waiting for the thread if it is still at work.
    pub fn wait(&self) -> &Eliminated {
        self.done.get_or_init(|| {
            let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
            match thread.map(JoinHandle::join) {
                Some(Ok(done)) => done,
                Some(Err(panic)) => std::panic::resume_unwind(panic),
                None => eliminate_timed(&self.input),
            }
        })
    }

    /// The result, if the thread is done with it.
    pub fn ready(&self) -> Option<&Eliminated> {
        let finished = self
            .thread
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_none_or(JoinHandle::is_finished);
        finished.then(|| self.wait())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(i: i32) -> Lit {
        Lit::new(i.unsigned_abs() - 1, i < 0)
    }

    fn cnf(cls: &[&[i32]]) -> Vec<Clause> {
        cls.iter()
            .map(|c| c.iter().map(|&i| lit(i)).collect())
            .collect()
    }

    fn satisfies(clauses: &[Clause], model: &[bool]) -> bool {
        clauses
            .iter()
            .all(|c| c.iter().any(|l| model[l.var().idx()] != l.is_neg()))
    }

    /// Every assignment of the frozen variables: the original formula has a
    /// model extending it iff the simplified one does, and extending a model
    /// of the simplified formula gives one of the original.
    fn check_projection(clauses: &[Clause], n: usize, frozen: &[bool]) {
        let (simple, ext) = eliminate(clauses, n as u32, frozen);
        let models = |f: &[Clause]| -> Vec<Vec<bool>> {
            (0..1u32 << n)
                .map(|m| (0..n).map(|v| m >> v & 1 == 1).collect::<Vec<bool>>())
                .filter(|m| satisfies(f, m))
                .collect()
        };
        let project = |ms: &[Vec<bool>]| -> std::collections::BTreeSet<Vec<bool>> {
            ms.iter()
                .map(|m| (0..n).filter(|&v| frozen[v]).map(|v| m[v]).collect())
                .collect()
        };
        let orig = models(clauses);
        let simp = models(&simple);
        assert_eq!(project(&orig), project(&simp));
        for m in simp {
            let mut m = m.clone();
            ext.extend(&mut m);
            assert!(satisfies(clauses, &m), "extended model fails the original");
        }
    }

    #[test]
    fn a_chain_of_definitions_is_eliminated_and_extended() {
        // 1 -> 2 -> 3 -> 4, and 1; only 1 and 4 are frozen.
        let f = cnf(&[&[-1, 2], &[-2, 3], &[-3, 4], &[1, -4, 2]]);
        let frozen = [true, false, false, true];
        let (simple, ext) = eliminate(&f, 4, &frozen);
        assert_eq!(ext.eliminated, 2);
        assert!(simple
            .iter()
            .all(|c| c.iter().all(|l| frozen[l.var().idx()])));
        check_projection(&f, 4, &frozen);
    }

    #[test]
    fn frozen_variables_stay() {
        let f = cnf(&[&[-1, 2], &[-2, 3]]);
        let (simple, ext) = eliminate(&f, 3, &[true, true, true]);
        assert_eq!(ext.eliminated, 0);
        assert_eq!(simple.len(), 2);
    }

    #[test]
    fn units_propagate_and_conflicts_give_the_empty_clause() {
        let f = cnf(&[&[1], &[-1, 2], &[-2, -1]]);
        let (simple, _) = eliminate(&f, 2, &[true, true]);
        assert_eq!(simple, vec![Clause::new()]);
        let f = cnf(&[&[1], &[-1, 2], &[-2, 3, 4]]);
        let (simple, _) = eliminate(&f, 4, &[true, true, true, true]);
        assert!(simple.contains(&Clause::from([lit(2)])));
        assert!(simple.contains(&Clause::from([lit(3), lit(4)])));
    }

    #[test]
    fn small_random_formulas_keep_their_projection() {
        // A fixed pseudo-random sequence: formulas over 7 variables.
        let mut rng = crate::xorshift::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut next = |m: u64| rng.below(m);
        for _ in 0..300 {
            let n = 7;
            let f: Vec<Clause> = (0..next(14) + 2)
                .map(|_| {
                    (0..next(3) + 1)
                        .map(|_| Lit::new(next(n) as u32, next(2) == 1))
                        .collect()
                })
                .collect();
            let frozen: Vec<bool> = (0..n).map(|_| next(3) == 0).collect();
            check_projection(&f, n as usize, &frozen);
        }
    }

    /// The elimination on its own thread gives what it gives here, once,
    /// whether the result is waited for or found ready.
    #[test]
    fn the_background_elimination_gives_the_same_formula() {
        let mut rng = crate::xorshift::XorShift(7);
        let clauses: Vec<Clause> = (0..60)
            .map(|_| {
                (0..3)
                    .map(|_| Lit::new(rng.below(20) as u32, rng.below(2) == 1))
                    .collect()
            })
            .collect();
        let frozen: Vec<bool> = (0..20).map(|v| v < 5).collect();
        let (here, ext) = eliminate(&clauses, 20, &frozen);
        let bg = Background::start(clauses.clone(), 20, frozen);
        let done = bg.wait();
        assert_eq!(done.clauses, here);
        assert_eq!(done.ext.eliminated, ext.eliminated);
        let again = bg.ready().expect("done after wait");
        assert!(std::ptr::eq(done, again), "one result, kept");
    }
}

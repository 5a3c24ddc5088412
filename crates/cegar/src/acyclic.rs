//! Acyclicity by vertex elimination: clauses that hold exactly when the chosen
//! edges of a directed graph close no cycle.
//!
//! The encoding (ranks' alternative for C7, see `encodings/README.md`) keeps a
//! literal `p(u, w)` for some ordered pairs of vertices, meaning "a path of
//! chosen edges leads from `u` to `w`". A chosen edge implies its pair. Then
//! the vertices are eliminated one by one: eliminating `v` adds
//! `p(u, v) ∧ p(v, w) → p(u, w)` for every remaining `u` before it and `w`
//! after it (a shortcut around `v`), and `¬p(u, v) ∨ ¬p(v, u)` where `u` is
//! both. Any cycle of chosen edges keeps being shortcut as its vertices go,
//! until two of them close it, which that binary clause forbids; and without
//! a cycle, `p` = "reachable by chosen edges" satisfies every clause. The size
//! is about the vertices times the square of the fill-in degree, far below
//! order-encoded ranks (vertices × vertices) on grid-like graphs; the order is
//! greedy, least fill first.

use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};
use std::collections::{BTreeSet, HashMap};

/// Adds clauses forbidding a cycle of chosen edges: `edges` holds
/// `(from, to, chosen)`, vertices are any numbers. Returns the literal of
/// every path pair it made, with its ends (for tests).
pub fn forbid_cycles(
    edges: &[(usize, usize, Lit)],
    vm: &mut dyn ManageVars,
    add: &mut dyn FnMut(Clause),
) -> Vec<(usize, usize, Lit)> {
    let mut by_pair: HashMap<(usize, usize), Vec<Lit>> = HashMap::new();
    for &(u, w, l) in edges {
        if u == w {
            add(Clause::from([!l]));
        } else {
            by_pair.entry((u, w)).or_default().push(l);
        }
    }
    let mut p: HashMap<(usize, usize), Lit> = HashMap::new();
    let mut ins: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    let mut outs: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    let mut pairs: Vec<_> = by_pair.into_iter().collect();
    pairs.sort();
    for ((u, w), ls) in pairs {
        // Its own literal even for a single edge: a shortcut may force a
        // path, never an edge.
        let lit = vm.new_lit();
        for &e in &ls {
            add(Clause::from([!e, lit]));
        }
        p.insert((u, w), lit);
        outs.entry(u).or_default().insert(w);
        ins.entry(w).or_default().insert(u);
        outs.entry(w).or_default();
        ins.entry(u).or_default();
    }
    let mut left: BTreeSet<usize> = outs.keys().copied().collect();
    while let Some(v) = left
        .iter()
        .copied()
        .min_by_key(|v| (ins[v].len() * outs[v].len(), *v))
    {
        left.remove(&v);
        let before: Vec<usize> = ins[&v].iter().copied().collect();
        let after: Vec<usize> = outs[&v].iter().copied().collect();
        for &u in &before {
            for &w in &after {
                let (uv, vw) = (p[&(u, v)], p[&(v, w)]);
                if u == w {
                    add(Clause::from([!uv, !vw]));
                    continue;
                }
                let uw = *p.entry((u, w)).or_insert_with(|| vm.new_lit());
                outs.entry(u).or_default().insert(w);
                ins.entry(w).or_default().insert(u);
                add(Clause::from([!uv, !vw, uw]));
            }
        }
        for u in before {
            outs.entry(u).or_default().remove(&v);
        }
        for w in after {
            ins.entry(w).or_default().remove(&v);
        }
    }
    let mut all: Vec<_> = p.into_iter().map(|((u, w), l)| (u, w, l)).collect();
    all.sort();
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::{Answer, Backend, VarisatBackend};
    use rustsat::instances::BasicVarManager;
    use rustsat::types::Var;

    fn has_cycle(n: usize, edges: &[(usize, usize)]) -> bool {
        // Repeatedly drop vertices without a chosen edge in: what stays is
        // on or behind a cycle.
        let mut alive = vec![true; n];
        loop {
            let Some(v) =
                (0..n).find(|&v| alive[v] && !edges.iter().any(|&(u, w)| w == v && alive[u]))
            else {
                return alive.iter().any(|&a| a);
            };
            alive[v] = false;
        }
    }

    /// Random small graphs with parallel edges and self-loops: every subset
    /// of edges is allowed by the clauses exactly when it closes no cycle,
    /// and then "reachable" is a model of the path literals.
    #[test]
    fn chosen_edges_pass_exactly_when_acyclic() {
        let mut rng = crate::xorshift::XorShift(0x2545_f491_4f6c_dd1d);
        let mut next = |m: u64| rng.below(m);
        let mut cyclic_seen = 0;
        for _ in 0..60 {
            let n = next(5) as usize + 2;
            let m = next(8) as usize + 2;
            let graph: Vec<(usize, usize)> = (0..m)
                .map(|_| (next(n as u64) as usize, next(n as u64) as usize))
                .collect();
            let mut vm = BasicVarManager::from_next_free(Var::new(m as u32));
            let mut clauses = Vec::new();
            let edges: Vec<(usize, usize, Lit)> = graph
                .iter()
                .enumerate()
                .map(|(i, &(u, w))| (u, w, Lit::positive(i as u32)))
                .collect();
            let paths = forbid_cycles(&edges, &mut vm, &mut |c| clauses.push(c));
            let mut solver = VarisatBackend::default();
            for c in &clauses {
                solver.add_clause(c);
            }
            for subset in 0..1u32 << m {
                let on: Vec<(usize, usize)> = (0..m)
                    .filter(|i| subset >> i & 1 == 1)
                    .map(|i| graph[i])
                    .collect();
                let cyclic = has_cycle(n, &on);
                cyclic_seen += cyclic as usize;
                let assumptions: Vec<Lit> = (0..m)
                    .map(|i| Lit::new(i as u32, subset >> i & 1 == 0))
                    .collect();
                let answer = solver.solve(&assumptions, vm.n_used(), None).unwrap();
                assert_eq!(
                    matches!(answer, Answer::Unsat),
                    cyclic,
                    "graph {graph:?}, chosen {on:?}"
                );
                if !cyclic {
                    // The witness: p(u, w) iff w is reachable from u.
                    let mut model = vec![false; vm.n_used() as usize];
                    for (i, v) in model.iter_mut().enumerate().take(m) {
                        *v = subset >> i & 1 == 1;
                    }
                    for &(u, w, l) in &paths {
                        let mut seen = vec![false; n];
                        let mut stack = vec![u];
                        while let Some(a) = stack.pop() {
                            for &(b, c) in &on {
                                if b == a && !seen[c] {
                                    seen[c] = true;
                                    stack.push(c);
                                }
                            }
                        }
                        if l.var().idx() >= m {
                            model[l.var().idx()] = seen[w] != l.is_neg();
                        }
                    }
                    for c in &clauses {
                        assert!(
                            c.iter().any(|l| model[l.var().idx()] != l.is_neg()),
                            "graph {graph:?}, chosen {on:?}: reachability falsifies {c:?}"
                        );
                    }
                }
            }
        }
        assert!(cyclic_seen > 100, "too few cyclic subsets: {cyclic_seen}");
    }
}

//! The certificate checker's re-derivations (`crates/frosted/src/certify.rs`)
//! on clauses made here: the counterexamples (X1) and wrong-branch clauses
//! (X2) of layouts one cell away from the solutions of the example levels
//! check, and the same clauses changed (a cell dropped, an unvisited cell
//! added, a literal flipped, a solving layout as justification) do not.

mod common;

use frosted::certify::FormulaCheck;
use frosted::encode::Encoding;
use frosted::grid::Kind;
use frosted::judge::judge;
use frosted::level::{Accepts, Level, Tile};
use frosted::sim::{End, Failure};
use rustsat::instances::{BasicVarManager, Cnf};
use rustsat::types::Clause;

/// The level's encoding (as the checker makes it too).
fn encode(level: &Level) -> Encoding {
    let mut vars = BasicVarManager::default();
    let mut cnf = Cnf::new();
    Encoding::new(level, &Default::default(), &mut cnf, &mut vars)
}

/// Every layout one `.` cell away from `sol`.
fn neighbours(level: &Level, sol: &Level) -> Vec<Level> {
    let mut out = Vec::new();
    for c in level.free_cells() {
        for d in frosted::grid::Dir::ALL {
            let mut m = sol.clone();
            m.tiles[c.index()] = match m.tile(c) {
                Tile::Belt(now) if now == d => Tile::Empty,
                _ => Tile::Belt(d),
            };
            out.push(m);
        }
    }
    out
}

/// `cl` without its first literal, or with `extra` added.
fn changed(cl: &Clause, drop_first: bool, extra: Option<rustsat::types::Lit>) -> Clause {
    let skip = usize::from(drop_first);
    cl.iter().skip(skip).copied().chain(extra).collect()
}

/// The example levels with their solutions, and for those with a splitter
/// the same with one target's kind changed (so that runs deliver wrong
/// donuts, which X2 needs).
fn levels_and_solutions() -> Vec<(Level, Level)> {
    let mut out = Vec::new();
    for path in common::example_levels() {
        let sol_path = path.with_extension("solution.txt");
        if !sol_path.exists() {
            continue;
        }
        let level = common::load(&path);
        let mut sol = common::load(&sol_path);
        sol.flags = level.flags.clone();
        out.push((level.clone(), sol.clone()));
        if !level.tiles.iter().any(|t| matches!(t, Tile::Splitter(_))) {
            continue;
        }
        for c in level.targets() {
            let Tile::Target { dir, .. } = level.tile(c) else {
                continue;
            };
            for k in 0..3 {
                let accepts = Accepts::Only(Kind::new(k).unwrap_or(Kind::PLAIN));
                let (mut l, mut s) = (level.clone(), sol.clone());
                l.tiles[c.index()] = Tile::Target { dir, accepts };
                s.tiles[c.index()] = Tile::Target { dir, accepts };
                l.flags.targets = None;
                s.flags.targets = None;
                out.push((l, s));
            }
        }
    }
    out
}

#[test]
fn counterexamples_check_and_changed_ones_do_not() {
    let (mut x1, mut x2) = (0, 0);
    for (level, sol) in levels_and_solutions() {
        let enc = encode(&level);
        let mut fc = FormulaCheck::new(&level, &Default::default());
        assert!(
            fc.counterexample(&sol, 0, &Clause::new()).is_err(),
            "a solution justifies nothing"
        );
        for m in neighbours(&level, &sol) {
            let verdict = judge(&m);
            if verdict.solved() {
                continue;
            }
            let cl = enc.counterexample(&m, &verdict.outcome);
            let cells = fc.counterexample(&m, 0, &cl).expect("X1 checks");
            assert_eq!(cells.len(), cl.len());
            x1 += 1;
            if !cl.is_empty() {
                assert!(
                    fc.counterexample(&m, 0, &changed(&cl, true, None)).is_err(),
                    "a cell dropped"
                );
                let first = *cl.iter().next().expect("non-empty");
                assert!(
                    fc.counterexample(&m, 0, &changed(&cl, true, Some(!first)))
                        .is_err(),
                    "flipped"
                );
            }
            let unvisited = enc
                .free
                .keys()
                .find(|&i| !verdict.outcome.visited[enc.free[i].index()]);
            if let Some(i) = unvisited {
                let extra = !enc.chosen(i, &m);
                let err = fc.counterexample(&m, 0, &changed(&cl, false, Some(extra)));
                assert!(
                    err.is_err_and(|e| e.contains("never visited")),
                    "an unvisited cell"
                );
            }
            let wrong = matches!(
                verdict.outcome.end,
                End::Failed {
                    failure: Failure::WrongDelivery { .. },
                    ..
                }
            );
            if let (true, Some(cl2)) = (wrong, enc.wrong_branch_clause(&m)) {
                assert!(fc.counterexample(&m, 1, &cl2).is_ok(), "X2 checks");
                assert!(
                    fc.counterexample(&m, 1, &changed(&cl2, true, None))
                        .is_err(),
                    "X2 changed"
                );
                x2 += 1;
            }
        }
    }
    eprintln!("{x1} counterexamples and {x2} wrong-branch clauses re-derived");
    assert!(x1 > 100 && x2 > 0, "{x1} X1, {x2} X2");
}

//! The relaxation claim, checked on real runs: for every known solution of a real
//! level, the assignment read off its exact simulation satisfies every clause of
//! the encoding that it decides (all but the auxiliary counting clauses).

mod common;

use frosted::encode::Encoding;
use frosted::sim::Simulator;
use rustsat::instances::{BasicVarManager, Cnf};

#[test]
fn known_solutions_satisfy_the_relaxed_encoding() {
    let Some(root) = common::ff_levels() else {
        return;
    };
    let mut broken = Vec::new();
    let mut n = 0;
    for level_path in common::real_levels(&root) {
        let sol = level_path.with_extension("solution.txt");
        if !sol.exists() {
            continue;
        }
        let level = common::load(&level_path);
        let mut layout = common::load(&sol);
        layout.flags = level.flags.clone();
        let outcome = Simulator::recording(&layout).run();
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &mut cnf, &mut vars);
        let val = enc.witness(&layout, &outcome.occupancy);
        for cl in cnf.iter() {
            let falsified = cl.iter().all(|l| {
                val.get(l.var().idx())
                    .copied()
                    .flatten()
                    .is_some_and(|v| v == l.is_neg())
            });
            if falsified {
                broken.push(format!("{}: {:?}", level_path.display(), cl));
                break;
            }
        }
        n += 1;
    }
    assert!(n >= 30);
    assert!(
        broken.is_empty(),
        "clauses falsified by real runs:\n{}",
        broken.join("\n")
    );
}

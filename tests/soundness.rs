//! The relaxation claim, checked on real runs: for every known solution of a real
//! level, the assignment read off its exact simulation satisfies every clause of
//! the encoding that it decides (all but the auxiliary counting clauses).

mod common;

use frosted::encode::Encoding;
use frosted::sim::Simulator;
use rustsat::instances::{BasicVarManager, Cnf};
use rustsat::types::Clause;

/// Whether `layout` has a belt its run never visited. C6 keeps only layouts
/// without idle belts (removing one leaves the run unchanged, so those
/// stand for the others).
fn has_idle_belts(
    level: &frosted::level::Level,
    layout: &frosted::level::Level,
    visited: &[bool],
) -> bool {
    level
        .free_cells()
        .any(|c| matches!(layout.tile(c), frosted::level::Tile::Belt(_)) && !visited[c.index()])
}

/// The first clause whose every literal `val` decides, and decides false.
fn falsified<'a>(cnf: &'a Cnf, val: &[Option<bool>]) -> Option<&'a Clause> {
    cnf.iter().find(|cl| {
        cl.iter().all(|l| {
            val.get(l.var().idx())
                .copied()
                .flatten()
                .is_some_and(|v| v == l.is_neg())
        })
    })
}

/// Whether the run of `solution` (a layout of the level at `level_path`)
/// satisfies every clause of the level's encoding it decides; the first
/// falsified clause otherwise.
fn run_satisfies_the_encoding(
    level_path: &std::path::Path,
    solution: &std::path::Path,
) -> Result<(), String> {
    let level = common::load(level_path);
    let mut layout = common::load(solution);
    layout.flags = level.flags.clone();
    let outcome = Simulator::recording(&layout).run();
    let mut vars = BasicVarManager::default();
    let mut cnf = Cnf::new();
    let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
    let val = enc.witness(&layout, &outcome.occupancy);
    match falsified(&cnf, &val) {
        Some(cl) => Err(format!("{}: {:?}", level_path.display(), cl)),
        None => Ok(()),
    }
}

/// For each level file, with its solution beside it (`NAME.solution.txt`),
/// the clause its run falsifies, if any.
fn falsified_by_solutions(levels: &[std::path::PathBuf]) -> Vec<String> {
    levels
        .iter()
        .filter_map(|f| run_satisfies_the_encoding(f, &f.with_extension("solution.txt")).err())
        .collect()
}

/// The hand-made solutions of the example levels (`levels/`), among them
/// runs that end by a strand after the delivery, with an any-source's first
/// donut sent aside by a splitter or a bumper (F3 must stop there).
#[test]
fn example_solutions_satisfy_the_relaxed_encoding() {
    let broken = falsified_by_solutions(&common::example_levels());
    assert!(
        broken.is_empty(),
        "clauses falsified by example runs:\n{}",
        broken.join("\n")
    );
}

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
        if let Err(e) = run_satisfies_the_encoding(&level_path, &sol) {
            broken.push(e);
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

/// The same claim on the generated corpus: every level's hidden layout is a
/// solution (`tests/generated.rs` checks that), on boards up to 13×9 with
/// every mechanic, among them any-sources whose streams loop back through
/// crossovers.
#[test]
fn hidden_layouts_of_the_corpus_satisfy_the_relaxed_encoding() {
    let levels = common::corpus();
    let broken = falsified_by_solutions(&levels);
    assert!(levels.len() >= 300, "{} levels", levels.len());
    assert!(
        broken.is_empty(),
        "clauses falsified by the hidden layouts' runs:\n{}",
        broken.join("\n")
    );
}

/// The same claim on every solving layout without idle belts of tiny random
/// levels (all layouts are tried): stranding runs, loops, merges, splitters,
/// teleporters and the rest.
#[test]
fn every_solution_of_tiny_levels_satisfies_the_relaxed_encoding() {
    use common::tiny::{layouts, random_level, Rng};
    let cases = common::cases("FROSTED_EXHAUSTIVE_CASES", 400);
    let mut rng = Rng::new(0x0dd_5eed_7777_0003);
    let (mut levels, mut solutions) = (0, 0);
    for case in 0..cases {
        let level = random_level(&mut rng, 5);
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
        let mut any = false;
        for (layout, _) in layouts(&level) {
            if !frosted::judge::judge(&layout).solved() {
                continue;
            }
            any = true;
            let outcome = Simulator::recording(&layout).run();
            if has_idle_belts(&level, &layout, &outcome.visited) {
                continue;
            }
            solutions += 1;
            let val = enc.witness(&layout, &outcome.occupancy);
            let falsified = falsified(&cnf, &val);
            assert!(
                falsified.is_none(),
                "case {case}: the run of\n{layout}\nfalsifies {falsified:?}"
            );
        }
        levels += usize::from(any);
    }
    eprintln!("{solutions} solutions of {levels} solvable tiny levels satisfy the encoding");
    assert!(levels >= cases / 40, "only {levels} solvable levels");
}

/// The same claim on solving layouts of random boards (random belts on most
/// empty cells, kept when they solve, idle belts removed), with `:targets` set
/// from the run now and then.
#[test]
fn random_solutions_satisfy_the_relaxed_encoding() {
    use common::tiny::{random_board, Rng};
    use frosted::judge::judge;
    use frosted::level::Tile;
    let wanted = common::cases("FROSTED_WITNESS_CASES", 2000);
    let mut rng = Rng::new(0x00b0_a4d5_1234_5678);
    let (mut found, mut stranded, mut tries) = (0, 0, 0);
    while found < wanted {
        tries += 1;
        assert!(tries < wanted * 10_000, "too few solving boards");
        let (mut level, mut layout) = random_board(&mut rng);
        if level.sources().next().is_none() {
            continue;
        }
        let outcome = Simulator::recording(&layout).run();
        if rng.below(3) == 0 {
            let mut pairs: Vec<_> = outcome
                .deliveries
                .iter()
                .map(|d| (d.origin, d.kind))
                .collect();
            pairs.sort();
            pairs.dedup();
            if !pairs.is_empty() {
                level.flags.targets = Some(pairs.into_iter().map(|p| p.1).collect());
                layout.flags = level.flags.clone();
            }
        }
        if !judge(&layout).solved() {
            continue;
        }
        for c in level.free_cells() {
            if !outcome.visited[c.index()] {
                layout.tiles[c.index()] = Tile::Empty;
            }
        }
        // Removing idle belts changes nothing (the claim behind C6).
        let outcome = Simulator::recording(&layout).run();
        assert!(judge(&layout).solved(), "idle belts mattered in\n{layout}");
        found += 1;
        if matches!(outcome.end, frosted::sim::End::Stranded { .. }) {
            stranded += 1;
        }
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
        let val = enc.witness(&layout, &outcome.occupancy);
        let falsified = falsified(&cnf, &val);
        assert!(
            falsified.is_none(),
            "the run of\n{layout}\non\n{level}\nfalsifies {falsified:?}"
        );
        // D1, whose clauses use the belt counter's outputs (left unset above).
        let belts = layout.added_belts(&level);
        for (s, &source) in enc.sources.enumerate() {
            let dist = enc.free_distances(s);
            for &(cell, _, origin, _) in &outcome.occupancy {
                if origin == source {
                    assert!(
                        dist[cell.index()] <= belts,
                        "D1: {} belts but a donut needs {} to reach {cell:?} in\n{layout}",
                        belts,
                        dist[cell.index()]
                    );
                }
            }
        }
    }
    eprintln!("{found} random solutions ({stranded} stranding, {tries} boards tried) satisfy the encoding");
    assert!(stranded > 0, "no stranding solution among {found}");
}

/// X2 (`Encoding::wrong_branch_clause`) against real solutions: every solved
/// level with one plain source and a splitter (the example levels, and the real
/// levels with a known solution), also with its targets' kinds changed at
/// random. Thousands of mutants of the solution (one to four `.` cells
/// changed) give X2 clauses; the solution's run and every mutant that solves
/// must satisfy every one of them, and a mutant that failed by a wrong delivery
/// must falsify its own clause.
#[test]
fn wrong_branch_clauses_cut_off_no_solution() {
    use common::tiny::Rng;
    use frosted::grid::Kind;
    use frosted::judge::judge;
    use frosted::level::{Accepts, Tile};
    use frosted::sim::{End, Failure};
    let mutants = common::cases("FROSTED_X2_CASES", 3000);
    let mut rng = Rng::new(0x5_0117_7e55_b4a2);
    let mut files: Vec<std::path::PathBuf> = common::example_levels();
    match common::ff_levels() {
        Some(root) => files.extend(common::real_levels(&root)),
        None => eprintln!("SKIPPED the real levels: ../shared/ff-levels is absent"),
    }
    let holds = |cl: &rustsat::types::Clause, val: &[Option<bool>]| {
        cl.iter().any(|l| {
            val.get(l.var().idx())
                .copied()
                .flatten()
                .is_some_and(|v| v != l.is_neg())
        })
    };
    let (mut levels, mut clauses, mut checked, mut solved_mutants) = (0, 0, 0, 0);
    for path in files {
        let sol_path = path.with_extension("solution.txt");
        if !sol_path.exists() {
            continue;
        }
        let base = common::load(&path);
        let sources: Vec<_> = base.sources().collect();
        let lone = matches!(sources.as_slice(), [s] if matches!(base.tile(*s), Tile::Source(_)));
        let splitter = base.tiles.iter().any(|t| matches!(t, Tile::Splitter(_)));
        if !lone || !splitter {
            continue;
        }
        let base_sol = common::load(&sol_path);
        for variant in 0..4 {
            // Variant 0 is the level itself; the others change target kinds.
            let (mut level, mut sol) = (base.clone(), base_sol.clone());
            if variant > 0 {
                for c in level.shape.cells() {
                    if let Tile::Target { dir, .. } = level.tile(c) {
                        let accepts = match rng.below(3) {
                            0 => Accepts::Any,
                            k => Accepts::Only(Kind::new(k as u8 - 1).unwrap_or(Kind::PLAIN)),
                        };
                        level.tiles[c.index()] = Tile::Target { dir, accepts };
                        sol.tiles[c.index()] = Tile::Target { dir, accepts };
                    }
                }
                level.flags.targets = None;
                sol.flags.targets = None;
            }
            levels += 1;
            let mut vars = BasicVarManager::default();
            let mut cnf = Cnf::new();
            let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
            let mut solutions = Vec::new();
            if judge(&sol).solved() {
                solutions.push(sol.clone());
            }
            let mut cuts = Vec::new();
            let free: Vec<_> = level.free_cells().collect();
            for _ in 0..mutants / 4 {
                let mut mutant = sol.clone();
                for _ in 0..1 + rng.below(4) {
                    let c = free[rng.below(free.len())];
                    mutant.tiles[c.index()] = match rng.below(5) {
                        0 => Tile::Empty,
                        _ => Tile::Belt(rng.dir()),
                    };
                }
                let verdict = judge(&mutant);
                if verdict.solved() {
                    solved_mutants += 1;
                    solutions.push(mutant.clone());
                }
                let Some(cl) = enc.wrong_branch_clause(&mutant) else {
                    continue;
                };
                if matches!(
                    verdict.outcome.end,
                    End::Failed {
                        failure: Failure::WrongDelivery { .. },
                        ..
                    }
                ) {
                    let outcome = Simulator::recording(&mutant).run();
                    let val = enc.witness(&mutant, &outcome.occupancy);
                    assert!(
                        !holds(&cl, &val),
                        "the X2 clause of\n{mutant}\ndoes not cut it off"
                    );
                }
                cuts.push((mutant, cl));
            }
            clauses += cuts.len();
            for sol in &solutions {
                let outcome = Simulator::recording(sol).run();
                let val = enc.witness(sol, &outcome.occupancy);
                for (failed, cl) in &cuts {
                    checked += 1;
                    assert!(
                        holds(cl, &val),
                        "{}: the X2 clause of\n{failed}\ncuts off the solution\n{sol}",
                        path.display()
                    );
                }
            }
        }
    }
    eprintln!(
        "{clauses} X2 clauses on {levels} levels, {solved_mutants} solving mutants, {checked} checks against solutions"
    );
    assert!(
        levels >= 4,
        "only {levels} levels with a lone source and a splitter"
    );
    assert!(clauses >= levels, "only {clauses} X2 clauses");
    assert!(checked >= mutants / 3, "only {checked} checks");
}

/// X1 (and C6, and the brute force's read search) rest on this: a run reads
/// the player's choice on a `.` cell only where a donut stood
/// (`Outcome::visited`). Random boards with random belts give runs of every
/// ending (failures, strands, steady states, deliveries); giving every `.`
/// cell no donut stood on another random choice must leave the run the same,
/// donut for donut.
#[test]
fn runs_do_not_depend_on_unvisited_cells() {
    use common::tiny::{random_board, Rng};
    use frosted::grid::Dir;
    use frosted::level::Tile;
    let cases = common::cases("FROSTED_WITNESS_CASES", 2000) * 50;
    let mut rng = Rng::new(0x0dd_5eed_7777_0005);
    let mut changed = 0;
    for case in 0..cases {
        let (level, layout) = random_board(&mut rng);
        let before = Simulator::recording(&layout).run();
        let mut other = layout.clone();
        for c in level.free_cells() {
            if !before.visited[c.index()] {
                let o = rng.below(5);
                other.tiles[c.index()] = match o {
                    0 => Tile::Empty,
                    _ => Tile::Belt(Dir::ALL[o - 1]),
                };
                changed += usize::from(other.tiles[c.index()] != layout.tiles[c.index()]);
            }
        }
        let after = Simulator::recording(&other).run();
        assert_eq!(
            before, after,
            "case {case}: the run of\n{layout}\nchanged with only unvisited cells changed:\n{other}"
        );
    }
    eprintln!("{cases} runs kept when {changed} unvisited cells changed");
    assert!(changed >= cases, "only {changed} cells changed");
}

/// The claim behind the explanations (`encodings/README.md`, "Requirement
/// switches"): with a switch per requirement, the assignment read off any
/// run that does not fail, with each switch set to whether the run meets its
/// requirement, satisfies every clause it decides. So an UNSAT answer under
/// some switches means that no layout meets those requirements, whatever it
/// does about the others. Checked on every layout without idle belts of tiny
/// random levels (half of them given a random `:targets`).
#[test]
fn every_run_of_tiny_levels_satisfies_the_switched_encoding() {
    use common::tiny::{layouts, random_level, Rng};
    use frosted::encode::EncodeOptions;
    use frosted::explain::Achieved;
    let cases = common::cases("FROSTED_EXHAUSTIVE_CASES", 1000);
    let mut rng = Rng::new(0x5e1f_c0de_0000_0027);
    let opts = EncodeOptions {
        requirement_switches: true,
        ..Default::default()
    };
    let (mut runs, mut partial) = (0, 0);
    for case in 0..cases {
        let mut level = random_level(&mut rng, 5);
        if rng.below(2) == 0 {
            level.flags.targets = random_targets(&mut rng, &level);
        }
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &opts, &mut cnf, &mut vars);
        for (mut layout, _) in layouts(&level) {
            layout.flags = level.flags.clone();
            let outcome = Simulator::recording(&layout).run();
            let achieved = Achieved::of(&level, &layout, &outcome);
            if !achieved.ran || has_idle_belts(&level, &layout, &outcome.visited) {
                continue;
            }
            runs += 1;
            let mut val = enc.witness(&layout, &outcome.occupancy);
            let mut missed = false;
            for &(r, lit) in &enc.switches {
                let met = achieved.meets(r);
                missed |= !met;
                val[lit.var().idx()] = Some(met != lit.is_neg());
            }
            partial += usize::from(missed);
            let falsified = falsified(&cnf, &val);
            assert!(
                falsified.is_none(),
                "case {case}: the run of\n{layout}\nfalsifies {falsified:?}"
            );
        }
    }
    eprintln!("{runs} runs of tiny levels ({partial} missing some requirement) satisfy the switched encoding");
    assert!(partial > cases, "only {partial} runs missing a requirement");
}

/// A `:targets` flag of one to three kinds (at most one per source, at
/// least one), each drawn from all five kinds.
fn random_targets(
    rng: &mut common::tiny::Rng,
    level: &frosted::level::Level,
) -> Option<Vec<frosted::grid::Kind>> {
    use frosted::grid::Kind;
    let n = 1 + rng.below(level.sources().count().clamp(1, 3));
    Some(
        (0..n)
            .map(|_| Kind::ALL[rng.below(Kind::ALL.len())])
            .collect(),
    )
}

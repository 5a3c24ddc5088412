//! `solve` on every backend: the same checks run against varisat, CaDiCaL
//! (built in), a race of both, and DIMACS solver binaries (`cmd:cadical` and
//! `cmd:minisat`, installed by `.ci/run`).

mod common;

use common::solving::{claim, proof, solve, solve_lazy, Options, Report, Status};
use frosted::judge::judge;
use frosted::level::Level;
use frosted::parse::parse;
use frosted::sat::SolverChoice;
use std::path::PathBuf;

/// The example levels with their hand-made solutions.
fn example_levels() -> Vec<(PathBuf, Level, Level)> {
    common::example_levels()
        .into_iter()
        .map(|f| {
            let level = common::load(&f);
            let solution = common::load(&f.with_extension("solution.txt"));
            (f, level, solution)
        })
        .collect()
}

fn options(solver: SolverChoice, threads: usize) -> Options {
    Options {
        solver,
        threads,
        ..Options::default()
    }
}

/// The neighbourhood search changes how the optimum is reached, never what it
/// is: without it every example level gets the same belt count, and with it
/// some example level is improved by a window call (so the search is exercised).
#[test]
fn neighbourhood_search_keeps_the_optimum_and_is_used() {
    let mut window_improvements = 0;
    for (path, level, _) in example_levels() {
        let mut improved_by_window = 0;
        let with = solve(&level, &Options::default(), &mut |p| {
            if p.improving && p.improved.is_some() {
                improved_by_window += 1;
            }
        })
        .expect("solve runs");
        let without = Options {
            neighbourhoods: false,
            ..Options::default()
        };
        let mut improving_calls = 0;
        let plain = solve(&level, &without, &mut |p| {
            improving_calls += usize::from(p.improving);
        })
        .expect("solve runs");
        assert_eq!(improving_calls, 0, "{}", path.display());
        assert_eq!(with.status, Status::Optimal, "{}", path.display());
        assert_eq!(plain.status, Status::Optimal, "{}", path.display());
        assert_eq!(with.cost, plain.cost, "{}", path.display());
        window_improvements += improved_by_window;
    }
    assert!(
        window_improvements > 0,
        "no window call ever improved a layout"
    );
}

/// The lazy belt counter (what boards over 1 000 free cells get) changes
/// how the bounds are encoded, never an answer: forced on every example level
/// (one solver, and two racing with variable elimination, which must keep
/// the counter's variables for the bounds added later), each gets the status
/// and belt count of the eager counter, and the bounds did grow after the
/// encoding on some level (the proof's bound is above every distance there).
#[test]
fn lazy_belt_counter_keeps_every_answer() {
    let mut grown = 0;
    for (path, level, _) in example_levels() {
        let eager = solve(&level, &Options::default(), &mut |_| {}).expect("solve runs");
        for threads in [1, 2] {
            let lazy = Options {
                threads,
                head_start: std::time::Duration::ZERO,
                ..Options::default()
            };
            let r = solve_lazy(&level, &lazy, Some(0), &mut |_| {}).expect("solve runs");
            assert_eq!(r.status, eager.status, "{} ({threads})", path.display());
            assert_eq!(r.cost, eager.cost, "{} ({threads})", path.display());
            let layout = r.candidate.expect("a layout");
            assert!(judge(&layout).solved(), "{}", path.display());
        }
        // The proof asked for `optimum - 1`: beyond the first encoding?
        let mut vars = rustsat::instances::BasicVarManager::default();
        let mut cnf = rustsat::instances::Cnf::new();
        let enc = frosted::encode::Encoding::new(
            &level,
            &frosted::encode::EncodeOptions {
                lazy_counter_from: 0,
                ..Default::default()
            },
            &mut cnf,
            &mut vars,
        );
        let optimum = eager.cost.expect("optimal");
        grown += usize::from(optimum >= 1 && enc.belts_encoded_upto() < optimum - 1);
    }
    assert!(grown > 0, "the lazy counter never grew after the encoding");
}

/// The racing copy that holds the second view (loops grounded by ranks
/// where the level has them, else the first view simplified by variable
/// elimination) changes how fast, never what: racing on every call (no head
/// start), each example level gets the status and belt count of one plain
/// solver; elimination removes variables on every level without ranks, and
/// several levels have ranks, of which the copy eliminates no variable.
#[test]
fn the_second_view_keeps_every_answer() {
    let mut ranked = 0;
    for (path, level, _) in example_levels() {
        let mut vars = rustsat::instances::BasicVarManager::default();
        let mut cnf = rustsat::instances::Cnf::new();
        let enc = frosted::encode::Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
        let has_ranks = enc.ranked_view.is_some();
        ranked += has_ranks as usize;
        let racing = Options {
            head_start: std::time::Duration::ZERO,
            ..options(SolverChoice::Varisat, 2)
        };
        let with = solve(&level, &racing, &mut |_| {}).expect("solve runs");
        let one =
            solve(&level, &options(SolverChoice::Varisat, 1), &mut |_| {}).expect("solve runs");
        assert_eq!(one.counts.second_view, None, "one thread: no second view");
        let view = with.counts.second_view.expect("a second view");
        match has_ranks {
            true => assert_eq!(
                view.eliminated,
                0,
                "{}: the ranks' view was simplified",
                path.display()
            ),
            false => assert!(
                view.eliminated > 0,
                "{}: nothing eliminated",
                path.display()
            ),
        }
        assert_eq!(with.status, one.status, "{}", path.display());
        assert_eq!(with.cost, one.cost, "{}", path.display());
        let layout = with.candidate.expect("a layout");
        assert!(judge(&layout).solved(), "{}", path.display());
    }
    assert!(ranked >= 3, "only {ranked} example levels with ranks");
}

fn check_examples(solver: SolverChoice, threads: usize) {
    let levels = example_levels();
    assert!(levels.len() >= 36);
    for (path, level, hand) in levels {
        let r = solve(&level, &options(solver.clone(), threads), &mut |_| {}).expect("solve runs");
        assert_eq!(
            r.status,
            Status::Optimal,
            "{}: {}",
            path.display(),
            claim(&r)
        );
        // The proof stops one belt below the optimum (none is needed for 0).
        let below = r.cost.and_then(|b| b.checked_sub(1));
        assert_eq!(proof(&r), below.map(Some), "{}", path.display());
        check_times(&r);
        assert!(r.best_at.is_some_and(|b| b <= r.times.total));
        let layout = r.candidate.expect("a layout");
        layout
            .check_layout_of(&level)
            .expect("the layout fits its level");
        assert!(judge(&layout).solved(), "{}", path.display());
        let belts = layout.added_belts(&level);
        assert_eq!(Some(belts), r.cost);
        assert!(
            belts <= hand.added_belts(&level),
            "{}: {belts} belts, hand-made has fewer",
            path.display()
        );
    }
}

/// The SAT time splits exactly into its three kinds of calls.
fn check_times(r: &Report) {
    let t = &r.times;
    assert_eq!(t.searching + t.improving + t.proving, t.sat, "{t:?}");
    assert!(t.sat <= t.total, "{t:?}");
}

/// A level no layout solves: the target can only be entered from off the grid.
const IMPOSSIBLE: &str = "+>  .   .   -<\n.   .   .   .\n";

fn check_unsolvable(solver: SolverChoice, threads: usize) {
    let level = parse(IMPOSSIBLE).expect("parses");
    let r = solve(&level, &options(solver.clone(), threads), &mut |_| {}).expect("solve runs");
    assert_eq!(r.status, Status::Unsolvable, "{}", claim(&r));
    assert_eq!(proof(&r), Some(None), "no layout of any size");
    assert!(r.candidate.is_none());
    assert_eq!(r.best_at, None);
    check_times(&r);
    // Below the optimum of a solvable level, the bound makes it unsolvable.
    let level = parse("+>  .   .   .   ->\n").expect("parses");
    let opts = Options {
        max_cost: Some(2),
        ..options(solver.clone(), threads)
    };
    let r = solve(&level, &opts, &mut |_| {}).expect("solve runs");
    assert_eq!(r.status, Status::Unsolvable);
    assert!(claim(&r).contains("at most 2 belts"), "{}", claim(&r));
    assert_eq!(proof(&r), Some(Some(2)));
    let opts = Options {
        first: true,
        ..options(solver, threads)
    };
    let r = solve(&level, &opts, &mut |_| {}).expect("solve runs");
    assert!(matches!(r.status, Status::Solved | Status::Optimal));
    assert_eq!(r.cost, Some(3));
    if r.status == Status::Solved {
        assert_eq!(proof(&r), None, "--first proves nothing: {}", claim(&r));
    }
}

/// The DIMACS solver `program` as a backend, if it is on PATH (CI installs
/// Debian's `cadical` and `minisat`).
fn dimacs_solver(program: &str) -> Option<SolverChoice> {
    // Both answer `--help` (MiniSat has no `--version`).
    let found = std::process::Command::new(program)
        .arg("--help")
        .output()
        .is_ok();
    if !found {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set but the `{program}` binary is not installed");
        }
        eprintln!("SKIPPED: no `{program}` binary on PATH (apt-get install {program})");
        return None;
    }
    Some(SolverChoice::Command(program.into()))
}

macro_rules! backend_tests {
    ($name:ident, $solver:expr) => {
        backend_tests!($name, $solver, 1);
    };
    ($name:ident, $solver:expr, $threads:expr) => {
        mod $name {
            use super::*;

            #[test]
            fn solves_every_example_level_optimally() {
                if let Some(s) = $solver {
                    check_examples(s, $threads);
                }
            }

            #[test]
            fn proves_unsolvable_levels_and_bounds() {
                if let Some(s) = $solver {
                    check_unsolvable(s, $threads);
                }
            }
        }
    };
}

backend_tests!(varisat, Some(SolverChoice::Varisat));
// Two racing copies (`--threads 2`).
backend_tests!(varisat_racing, Some(SolverChoice::Varisat), 2);
backend_tests!(dimacs_cadical, dimacs_solver("cadical"));
// MiniSat writes its model to a result file, not as `v` lines.
backend_tests!(dimacs_minisat, dimacs_solver("minisat"));
backend_tests!(cadical, Some(SolverChoice::Cadical));
// Two racing copies of CaDiCaL: the loser of a call is interrupted.
backend_tests!(cadical_racing, Some(SolverChoice::Cadical), 2);
// A portfolio: CaDiCaL and varisat racing (the default).
backend_tests!(
    cadical_varisat_racing,
    Some(SolverChoice::Portfolio(vec![
        SolverChoice::Cadical,
        SolverChoice::Varisat
    ])),
    2
);

/// Every real level with a known solution gets a verified layout no larger.
#[test]
fn real_levels_with_known_solutions_solve_no_larger() {
    let Some(root) = common::ff_levels() else {
        return;
    };
    for path in common::real_levels(&root) {
        let sol = path.with_extension("solution.txt");
        if !sol.exists() {
            continue;
        }
        let level = common::load(&path);
        let known = common::load(&sol).added_belts(&level);
        let opts = Options {
            timeout: Some(std::time::Duration::from_secs(120)),
            ..Options::default()
        };
        let r = solve(&level, &opts, &mut |_| {}).expect("solve runs");
        assert!(
            matches!(r.status, Status::Optimal | Status::Solved),
            "{}: {:?}",
            path.display(),
            r.status
        );
        let layout = r.candidate.expect("a layout");
        assert!(judge(&layout).solved(), "{}", path.display());
        let belts = layout.added_belts(&level);
        assert!(
            belts <= known,
            "{}: {belts} belts, the known solution has {known}",
            path.display()
        );
    }
}

/// Every real level, with or without a known solution, gets a layout that the
/// simulator accepts (`--first`), except the levels the solver proves
/// impossible under the rules; those must not get one.
#[test]
fn every_real_level_gets_a_verified_layout_or_a_proof() {
    let Some(root) = common::ff_levels() else {
        eprintln!("SKIPPED: ../shared/ff-levels is absent");
        return;
    };
    // Impossible under the exact rules (see the closing notes of issue 3):
    // 12-deepest-midnight/07 and /09 by counting, the others by the solver.
    let impossible = [
        "04-romantic-twilight/11.txt",
        "11-winter-snow/03.txt",
        "12-deepest-midnight/03.txt",
        "12-deepest-midnight/07.txt",
        "12-deepest-midnight/09.txt",
    ];
    let mut solved = 0;
    for path in common::real_levels(&root) {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let level = common::load(&path);
        let opts = Options {
            first: true,
            timeout: Some(std::time::Duration::from_secs(300)),
            ..Options::default()
        };
        let r = solve(&level, &opts, &mut |_| {}).expect("solve runs");
        if impossible.contains(&name.as_str()) {
            assert!(
                matches!(r.status, Status::Unsolvable | Status::Unknown),
                "{name}: {:?}",
                r.status
            );
            assert!(
                r.candidate.is_none(),
                "{name}: a layout for an impossible level"
            );
            continue;
        }
        assert!(
            matches!(r.status, Status::Solved | Status::Optimal),
            "{name}: {:?} ({})",
            r.status,
            claim(&r)
        );
        let layout = r.candidate.expect("a layout");
        assert!(
            judge(&layout).solved(),
            "{name}: the layout does not verify"
        );
        solved += 1;
    }
    assert!(solved >= 60, "only {solved} real levels solved");
}

/// F3 (`encodings/README.md`): an any-source's first donut is plain, and on
/// a route with no branch or parting it reaches the route's target with
/// the kind the toppers give it. Here the only route ends on a frosting
/// target with no topper on the way, so the first SAT call already has no
/// answer (without F3 the loop needs a counterexample first); with a
/// target that takes any donut, the same route solves the level.
#[test]
fn an_any_source_s_plain_first_donut_is_cut_without_a_counterexample() {
    let opts = Options {
        threads: 1,
        ..Options::default()
    };
    let cut = parse("+>? .   ->1\n").expect("level");
    let r = solve(&cut, &opts, &mut |_| {}).expect("solve");
    assert_eq!(r.status, Status::Unsolvable, "{}", claim(&r));
    assert_eq!(r.counts.counterexamples, 0);

    let any = parse("+>? .   ->?\n").expect("level");
    let r = solve(&any, &opts, &mut |_| {}).expect("solve");
    assert_eq!(r.status, Status::Optimal, "{}", claim(&r));
    let layout = r.candidate.expect("a layout");
    assert!(judge(&layout).solved());
}

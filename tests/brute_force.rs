//! Brute force against `solve`: on tiny random levels, trying every layout must
//! agree with the solver on whether the level is solvable and on the fewest belts.
//! This is what backs the claim that `unsolvable` and `optimal` are proofs.
//! Up to 8 free cells every layout is tried; up to 12, only the choices the runs
//! read (`fewest_belts_by_reads`), which is checked against trying every layout.
//!
//! `FROSTED_BRUTE_CASES` and `FROSTED_SMALL_CASES` set how many levels,
//! `FROSTED_BRUTE_SEED` (a number) draws other levels than the default ones, and
//! `FROSTED_SMALL_FREE` raises the 12 free cells of the larger levels.

mod common;

use common::solving::{claim, solve_encoded, Options, Report, Status};
use common::tiny::{
    fewest_belts_by_reads, layouts, random_board, random_level, random_level_on, Rng,
};
use frosted::encode::EncodeOptions;
use frosted::grid::Shape;
use frosted::judge::judge;
use frosted::level::Level;
use frosted::level::Tile;

/// The fewest belts of any solving layout, by trying all of them.
fn brute_force(level: &Level) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (layout, belts) in layouts(level) {
        if best.is_some_and(|b| belts >= b) {
            continue;
        }
        if judge(&layout).solved() {
            best = Some(belts);
        }
    }
    best
}

#[test]
fn solve_agrees_with_brute_force_on_tiny_random_levels() {
    let cases = common::cases("FROSTED_BRUTE_CASES", 60);
    let mut rng = Rng::new(seed(0x5eed_1234_abcd_0001));
    let (mut solvable, mut unsolvable) = (0, 0);
    for case in 0..cases {
        let max_free = if case % 10 == 9 { 8 } else { 7 };
        let level = random_level(&mut rng, max_free);
        let expected = brute_force(&level);
        check_solve(case, &level, expected);
        match expected {
            Some(_) => solvable += 1,
            None => unsolvable += 1,
        }
    }
    eprintln!(
        "{cases} tiny levels: {solvable} solvable, {unsolvable} unsolvable; solve agreed on all"
    );
    // The generator must produce both kinds, or the comparison proves little.
    assert!(
        solvable >= cases / 20 && unsolvable >= cases / 20,
        "{solvable} solvable, {unsolvable} unsolvable"
    );
}

/// A crowded board (`random_board`) with cells blocked until at most
/// `max_free` are free.
fn crowded_level(rng: &mut Rng, max_free: usize) -> Level {
    let (mut level, _) = random_board(rng);
    let mut free: Vec<usize> = level.free_cells().map(|c| c.index()).collect();
    while free.len() > max_free {
        let i = rng.below(free.len());
        level.tiles[free.swap_remove(i)] = Tile::Block;
    }
    level
}

/// The most free cells of the larger levels: 12, or `FROSTED_SMALL_FREE`.
fn max_free() -> usize {
    common::cases("FROSTED_SMALL_FREE", 12)
}

/// The default seed, or `FROSTED_BRUTE_SEED` when set.
fn seed(default: u64) -> u64 {
    std::env::var("FROSTED_BRUTE_SEED")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(default, |s| default ^ s.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// `solve` must say `optimal` with `expected` belts, or `unsolvable` when
/// `expected` is `None`, and its layout must solve the level.
fn check_solve(case: usize, level: &Level, expected: Option<usize>) {
    let (options, encode) = (Options::default(), EncodeOptions::default());
    check_solve_with(case, level, expected, &options, &encode, "default options");
}

/// No ranks on any level (C7 over budget everywhere): the loop formulas
/// (L1) alone ground the flows, in searching as in proving.
fn without_ranks() -> EncodeOptions {
    EncodeOptions {
        rank_budget: 0,
        ..EncodeOptions::default()
    }
}

/// [`check_solve`] with `options` and the encoding's options `encode`,
/// named `how` in a failure.
fn check_solve_with(
    case: usize,
    level: &Level,
    expected: Option<usize>,
    options: &Options,
    encode: &EncodeOptions,
    how: &str,
) {
    let report = solve_encoded(level, options, encode, &mut |_| {}).expect("solve runs");
    check_report(case, level, expected, &report, how);
}

/// The report must say `optimal` with `expected` belts, or `unsolvable`
/// when `expected` is `None`, and its layout must solve the level.
fn check_report(case: usize, level: &Level, expected: Option<usize>, report: &Report, how: &str) {
    let got = match report.status {
        Status::Optimal => report.cost,
        Status::Unsolvable => None,
        other => panic!("case {case} ({how}): status {other:?} on\n{level}"),
    };
    assert_eq!(
        got,
        expected,
        "case {case} ({how}): solve says {:?} ({}), brute force says {expected:?}, \
         on\n{level}\nsolver layout:\n{}",
        report.status,
        claim(report),
        report
            .candidate
            .as_ref()
            .map(|l| l.to_string())
            .unwrap_or_default()
    );
    if let Some(l) = &report.candidate {
        assert!(judge(l).solved());
    }
}

/// What a comparison saw: levels solvable and not, the largest optimum, and
/// the runs of the search.
#[derive(Default)]
struct Tally {
    solvable: usize,
    unsolvable: usize,
    most_belts: usize,
    runs: usize,
    /// Levels whose default encoding has ranks (C7), so that the check
    /// without them tests the loop formulas' grounding.
    ranked: usize,
}

/// Whether the default encoding of `level` writes ranks (C7).
fn has_ranks(level: &Level) -> bool {
    let mut vars = rustsat::instances::BasicVarManager::default();
    let mut cnf = rustsat::instances::Cnf::new();
    let enc = frosted::encode::Encoding::new(level, &EncodeOptions::default(), &mut cnf, &mut vars);
    enc.ranked_view.is_some()
}

impl Tally {
    /// Finds the fewest belts of `level` through what its runs read, checks
    /// `solve` against it (with the defaults, racing from the start, and
    /// without ranks), and counts the level.
    fn compare(&mut self, case: usize, level: &Level) {
        let (expected, n) = fewest_belts_by_reads(level);
        self.runs += n;
        check_solve(case, level, expected);
        let racing = racing_from_the_start();
        let encode = EncodeOptions::default();
        check_solve_with(
            case,
            level,
            expected,
            &racing,
            &encode,
            "racing from the start",
        );
        let unranked = Options {
            lower_bound: false,
            ..Options::default()
        };
        let how = "without ranks or the chain bound";
        check_solve_with(case, level, expected, &unranked, &without_ranks(), how);
        self.ranked += usize::from(has_ranks(level));
        match expected {
            Some(b) => {
                self.solvable += 1;
                self.most_belts = self.most_belts.max(b);
            }
            None => self.unsolvable += 1,
        }
    }
}

/// Two racing copies with no head start, so that the second view (C7′ and
/// variable elimination, `crates/cegar/src/sat/elim.rs`) answers calls too; by default it
/// only joins calls that run over a quarter of a second (the first call:
/// a tenth), which tiny levels never do.
/// Without the chain bound, so that every optimum is proved by SAT calls
/// here (with the defaults, the chain bound proves many of them). The copies
/// are CaDiCaL (the command line's default solver, on the plain encoding) and
/// varisat (on the second view), so both solvers answer calls here.
fn racing_from_the_start() -> Options {
    Options {
        solver: frosted::sat::SolverChoice::Portfolio(vec![
            frosted::sat::SolverChoice::Cadical,
            frosted::sat::SolverChoice::Varisat,
        ]),
        threads: 2,
        head_start: std::time::Duration::ZERO,
        lower_bound: false,
        ..Options::default()
    }
}

/// Trying only the choices the runs read finds the same fewest belts as trying
/// every layout: so `visited` names every cell a run depends on (which X1
/// counterexamples rely on too), and the next test may use the faster search.
#[test]
fn trying_what_runs_read_agrees_with_trying_every_layout() {
    let cases = common::cases("FROSTED_BRUTE_CASES", 60) * 2;
    let mut rng = Rng::new(seed(0x5eed_1234_abcd_0002));
    let (mut runs, mut layouts_tried, mut solvable) = (0, 0, 0);
    for case in 0..cases {
        // Odd cases on crowded boards, where donuts are topped more often.
        let level = if case % 2 == 0 {
            random_level(&mut rng, 8)
        } else {
            crowded_level(&mut rng, 7)
        };
        let every = brute_force(&level);
        let (by_reads, n) = fewest_belts_by_reads(&level);
        assert_eq!(
            by_reads, every,
            "case {case}: trying what runs read gives {by_reads:?}, trying every layout \
             gives {every:?}, on\n{level}"
        );
        runs += n;
        solvable += usize::from(every.is_some());
        layouts_tried += 5usize.pow(level.free_cells().count() as u32);
    }
    eprintln!(
        "{cases} tiny levels ({solvable} solvable): {runs} runs against {layouts_tried} \
         layouts; the same fewest belts on all"
    );
    assert!(runs < layouts_tried, "the search must skip layouts");
}

/// Levels with up to 12 free cells, as the issue asks, where trying every
/// layout (5^12 of them) would take too long.
#[test]
fn solve_agrees_with_brute_force_on_small_random_levels() {
    let cases = common::cases("FROSTED_SMALL_CASES", 400);
    let mut rng = Rng::new(seed(0x5eed_1234_abcd_0003));
    let (mut t, mut most_free, mut ten_or_more) = (Tally::default(), 0, 0);
    for case in 0..cases {
        // 4 to 6 columns, 3 or 4 rows: most boards have more than 12 cells left
        // free by the entities, and get blocks until 12 are.
        let shape = Shape {
            width: 4 + rng.below(3),
            height: 3 + rng.below(2),
        };
        let level = random_level_on(&mut rng, shape, max_free());
        let free = level.free_cells().count();
        most_free = most_free.max(free);
        if free >= 10 {
            ten_or_more += 1;
        }
        t.compare(case, &level);
    }
    eprintln!(
        "{cases} small levels (up to {most_free} free cells, {ten_or_more} with 10 or more; \
         {} runs): {} solvable (up to {} belts), {} unsolvable, {} with ranks; \
         solve agreed on all",
        t.runs, t.solvable, t.most_belts, t.unsolvable, t.ranked
    );
    assert!(t.most_belts >= 6, "no solvable level needs 6 belts");
    // Few small levels have a fork in a loop; the crowded boards have more.
    assert!(
        t.ranked >= cases / 80,
        "only {} levels with ranks",
        t.ranked
    );
    assert!(
        ten_or_more * 2 >= cases,
        "only {ten_or_more} of {cases} levels have 10 free cells or more"
    );
    assert!(
        t.solvable >= cases / 20 && t.unsolvable >= cases / 20,
        "{} solvable, {} unsolvable",
        t.solvable,
        t.unsolvable
    );
}

/// Crowded boards (`random_board`: several sources, any-sources, bumpers,
/// crossovers, teleporters with one or two outs), with cells blocked until at
/// most 12 are free, against the same search.
#[test]
fn solve_agrees_with_brute_force_on_crowded_boards() {
    // Most crowded boards are unsolvable (every source must deliver), so many.
    let cases = common::cases("FROSTED_SMALL_CASES", 400) * 25;
    let mut rng = Rng::new(seed(0x5eed_1234_abcd_0004));
    let mut t = Tally::default();
    for case in 0..cases {
        let level = crowded_level(&mut rng, max_free());
        t.compare(case, &level);
    }
    eprintln!(
        "{cases} crowded boards ({} runs): {} solvable (up to {} belts), {} unsolvable, \
         {} with ranks; solve agreed on all",
        t.runs, t.solvable, t.most_belts, t.unsolvable, t.ranked
    );
    assert!(t.most_belts >= 4, "no solvable board needs 4 belts");
    assert!(
        t.ranked >= cases / 20,
        "only {} boards with ranks",
        t.ranked
    );
    assert!(
        t.solvable >= cases / 40,
        "{} solvable, {} unsolvable",
        t.solvable,
        t.unsolvable
    );
}

/// Restarts prove nothing and report no layout worse than the best: with a
/// zero slice, every proving call with a best layout is put off for a
/// restart (six times per solve), whose calls add assumptions no solution needs and whose
/// candidates may cost more than the best. The optimum (or `unsolvable`)
/// must still be the search's, and some restart must have descended from a
/// candidate of its own, or the test shows nothing.
#[test]
fn restarts_change_no_verdict() {
    let cases = common::cases("FROSTED_SMALL_CASES", 400) / 4;
    let mut rng = Rng::new(seed(0x5eed_1234_abcd_0005));
    let opts = Options {
        solver: frosted::sat::SolverChoice::Cadical,
        lower_bound: false,
        restart_slice: std::time::Duration::ZERO,
        trace: true,
        ..Options::default()
    };
    let (mut put_off, mut descended) = (0, 0);
    for case in 0..cases {
        let shape = Shape {
            width: 4 + rng.below(3),
            height: 3 + rng.below(2),
        };
        let level = random_level_on(&mut rng, shape, max_free());
        let (expected, _) = fewest_belts_by_reads(&level);
        let encode = EncodeOptions::default();
        let report = freshly_frosted::puzzle::solve(&level, &opts, &encode, &mut |e| {
            if let cegar::Event::Trace(line) = e {
                put_off += usize::from(line.contains("put off at once"));
                descended += usize::from(line.contains("descending from it"));
            }
        })
        .expect("solve runs");
        check_report(case, &level, expected, &report, "restarts at once");
    }
    eprintln!("{cases} small levels: {put_off} calls put off, {descended} descents from a restart; the same verdicts");
    assert!(
        put_off > 0 && descended > 0,
        "{put_off} calls put off, {descended} descents"
    );
}

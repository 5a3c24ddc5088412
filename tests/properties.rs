//! Property tests: the parser never panics, whatever it is fed; random layouts of
//! the real levels always run to an end, get a verdict and can be drawn; and
//! printing a level then parsing it gives the same level back.
//!
//! Case counts are kept small so the suite stays fast in debug builds; raise them
//! with `PROPTEST_CASES=10000 cargo test --test properties` for a longer hunt.

mod common;

use frosted::grid::{CellId, Dir};
use frosted::judge::judge;
use frosted::level::{Level, Tile};
use frosted::parse::{parse, parse_bytes};
use frosted::render;
use frosted::sim::{simulate, End, Simulator, MAX_TICKS};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The number of cases, unless `PROPTEST_CASES` says otherwise.
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        ..Config::default()
    }
}

/// Parses, and when that fails also renders the error (the CLI always does).
/// Returns the level when it parsed.
fn parse_and_render(bytes: &[u8]) -> Option<Level> {
    match parse_bytes(bytes) {
        Ok(l) => Some(l),
        Err(e) => {
            let shown = e.render("input.txt");
            assert!(shown.contains("--> input.txt:"), "{shown}");
            let _ = e.to_string();
            None
        }
    }
}

/// When `level` parsed, printing it and parsing the print gives it back.
fn assert_round_trip(level: &Level) -> Result<(), TestCaseError> {
    let printed = level.to_string();
    match parse(&printed) {
        Ok(again) => prop_assert_eq!(&again, level, "printed:\n{}", printed),
        Err(e) => prop_assert!(false, "the print does not parse: {e}\n{printed}"),
    }
    Ok(())
}

/// Every valid grid token spelling of the level format, aliases included.
const GRID_TOKENS: &[&str] = &[
    ".", "^", "v", "<", ">", "#", "*", "+>", "+v", "+^", "+<", "+>?", "+v?", "-<", "->", "-^?",
    "-v?", "->0", "->1", "->2", "->3", "->4", "->7", "->8", "->f", "->F", "1>", "2v", "3^", "4<",
    "7>", "8v", "f^", "F<", "x>", "X^", "xv", "b>0", "bv7", "b^f", "b<3", "T-", "U-", "T+>", "U+v",
    "T+^", "U+<",
];

/// Tokens that are almost right.
const NEAR_MISSES: &[&str] = &[
    "->15", "0>", "5v", "6^", "9<", "b>5", "T+", "U+?", "T", "U", "+", "-", "x", "b", "b>", "?",
    "??", "+?", "-?", "**", "..", "é", "→", "\u{0}", "T-v", "+>??", "-<ff",
];

/// Flag lines, good and bad.
const FLAGS: &[&str] = &[
    ":targets 0 1 3 7 15",
    ":target 2 4 8 f F",
    ":targets 15",
    ":targets 5",
    ":targets 0 16",
    ":targets",
    ":comment",
    ":comments hi there",
    ":tickwise",
    ":allow-invalid-deliveries",
    ":loop-threshold 3",
    ":loop-threshold 0",
    ":loop-threshold x",
    ":loop-threshold",
    ":loop-threshold 99999999999999999999999",
    ":bogus",
    ":",
];

/// Whitespace and line breaks of many kinds, some of which `str::lines` does not
/// split on.
const SEPARATORS: &[&str] = &[
    " ", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", "\u{a0}", "\u{3000}", "\u{85}", "\u{2028}",
    "\n\n", "",
];

fn token_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => proptest::sample::select(GRID_TOKENS).prop_map(str::to_string),
        1 => proptest::sample::select(NEAR_MISSES).prop_map(str::to_string),
        1 => proptest::sample::select(FLAGS).prop_map(str::to_string),
        2 => proptest::sample::select(SEPARATORS).prop_map(str::to_string),
        1 => "[.^v<>#*+?:xXbTU0-9fF-]{1,4}",
    ];
    vec(piece, 0..80).prop_map(|v| v.concat())
}

/// A grid of valid tokens with a few random flags: these mostly parse, so they
/// exercise the round trip.
fn valid_level_text() -> impl Strategy<Value = String> {
    let grid_token = proptest::sample::select(GRID_TOKENS);
    (1usize..6, 1usize..6).prop_flat_map(move |(w, h)| {
        (
            vec(vec(grid_token.clone(), w), h),
            vec(proptest::sample::select(FLAGS), 0..3),
            proptest::sample::select(&[" ", "  ", "\t", "   "][..]),
        )
            .prop_map(|(rows, flags, sep)| {
                let mut text = String::new();
                for f in flags {
                    text.push_str(f);
                    text.push('\n');
                }
                for row in rows {
                    text.push_str(&row.join(sep));
                    text.push('\n');
                }
                text
            })
    })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn parser_never_panics_on_arbitrary_bytes(bytes in vec(any::<u8>(), 0..600)) {
        parse_and_render(&bytes);
    }

    #[test]
    fn parser_never_panics_on_bytes_with_nul_and_bad_utf8(
        parts in vec(prop_oneof![
            Just(b"\0".to_vec()),
            Just(b"\xff\xfe".to_vec()),
            Just(b"\xc3".to_vec()),
            Just(b"\xe2\x86".to_vec()),
            Just("→".as_bytes().to_vec()),
            Just(b"\n".to_vec()),
            Just(b" ".to_vec()),
            Just(b"+>".to_vec()),
            Just(b"->".to_vec()),
            Just(b".".to_vec()),
        ], 0..60)
    ) {
        parse_and_render(&parts.concat());
    }

    #[test]
    fn parser_never_panics_on_token_soup(text in token_soup()) {
        if let Some(level) = parse_and_render(text.as_bytes()) {
            assert_round_trip(&level)?;
        }
    }

    #[test]
    fn valid_levels_print_and_parse_back(text in valid_level_text()) {
        if let Some(level) = parse_and_render(text.as_bytes()) {
            assert_round_trip(&level)?;
            // A level is a layout of itself, whatever its belts.
            prop_assert!(level.check_layout_of(&level).is_ok());
        }
    }
}

proptest! {
    #![proptest_config(config(32))]

    /// Very long lines: the error display cuts a window around the column.
    #[test]
    fn parser_never_panics_on_long_lines(
        prefix in "[.^v<> ]{0,20}",
        long in "[^\n]{2000,6000}",
        rows in 0usize..3,
    ) {
        let mut text = String::new();
        for _ in 0..rows {
            text.push_str(".  +>  ->\n");
        }
        text.push_str(&prefix);
        text.push_str(&long);
        text.push('\n');
        parse_and_render(text.as_bytes());
        let dots = ". ".repeat(3000) + "\n" + &". ".repeat(2999) + "?? .\n";
        parse_and_render(dots.as_bytes());
    }
}

/// The real levels (with their known solutions, where there is one), loaded once.
struct Real {
    path: PathBuf,
    level: Level,
    free: Vec<CellId>,
    solution: Option<Level>,
}

fn real_levels() -> Option<&'static [Real]> {
    static LEVELS: OnceLock<Option<Vec<Real>>> = OnceLock::new();
    LEVELS
        .get_or_init(|| {
            let root = common::ff_levels()?;
            let out = common::real_levels(&root)
                .into_iter()
                .map(|path| {
                    let level = common::load(&path);
                    let sol = path.with_extension("solution.txt");
                    let solution = sol.exists().then(|| {
                        let mut s = common::load(&sol);
                        s.flags = level.flags.clone();
                        s
                    });
                    let free = level.free_cells().collect();
                    Real {
                        path,
                        level,
                        free,
                        solution,
                    }
                })
                .collect();
            Some(out)
        })
        .as_deref()
}

/// A belt choice for one free cell: mostly none, else one of the four directions.
fn belt(code: u8) -> Option<Dir> {
    match code {
        2 => Some(Dir::Up),
        3 => Some(Dir::Down),
        4 => Some(Dir::Left),
        5 => Some(Dir::Right),
        _ => None,
    }
}

/// Runs `layout` every way the crate can and checks that they agree and end.
fn check_layout(real: &Real, layout: &Level) -> Result<(), TestCaseError> {
    let name = real.path.display();
    prop_assert!(layout.check_layout_of(&real.level).is_ok(), "{name}");

    let outcome = simulate(layout);
    let end = outcome.end;
    prop_assert!(
        !matches!(end, End::TickLimit { .. }) && end.tick() < MAX_TICKS,
        "{name}: {end:?}\n{layout}"
    );

    let verdict = judge(layout);
    prop_assert_eq!(
        &verdict.outcome,
        &outcome,
        "{}: judge and simulate differ",
        name
    );
    if verdict.solved() {
        prop_assert!(
            !verdict.failed() && !outcome.deliveries.is_empty(),
            "{name}: solved without deliveries"
        );
    }

    // Stepping by hand ends the same way, and every state can be drawn.
    let mut sim = Simulator::new(layout);
    let mut stepped = None;
    while stepped.is_none() {
        stepped = sim.step();
    }
    prop_assert_eq!(stepped, Some(end), "{}", name);
    let drawn = render::state(layout, &sim);
    prop_assert!(drawn.lines().count() > layout.shape.height, "{drawn}");

    assert_round_trip(layout)?;
    assert_round_trip(&real.level)?;
    Ok(())
}

#[test]
fn random_layouts_of_real_levels_end_and_get_a_verdict() {
    let Some(levels) = real_levels() else {
        return;
    };
    let strategy =
        (0..levels.len()).prop_flat_map(|i| (Just(i), vec(0u8..6, levels[i].free.len())));
    let mut runner = TestRunner::new(config(128));
    runner
        .run(&strategy, |(i, codes)| {
            let real = &levels[i];
            let belts = real
                .free
                .iter()
                .zip(&codes)
                .filter_map(|(c, code)| belt(*code).map(|d| (*c, d)));
            let layout = real.level.with_belts(belts);
            check_layout(real, &layout)
        })
        .unwrap();
}

/// Known solutions with a few free cells changed: these runs go much further than
/// random layouts (through splitters, teleporters, crossovers and merges) before
/// they break.
#[test]
fn mutated_solutions_end_and_get_a_verdict() {
    let Some(levels) = real_levels() else {
        return;
    };
    let solved: Vec<&Real> = levels
        .iter()
        .filter(|r| r.solution.is_some() && !r.free.is_empty())
        .collect();
    assert!(!solved.is_empty());
    let strategy = (0..solved.len()).prop_flat_map(|i| {
        let n = solved[i].free.len();
        (Just(i), vec((0..n, 0u8..6), 1..4))
    });
    let mut runner = TestRunner::new(config(128));
    runner
        .run(&strategy, |(i, changes)| {
            let real = solved[i];
            let mut layout = real.solution.clone().expect("filtered");
            for (k, code) in changes {
                let c = real.free[k];
                layout.tiles[c.index()] = belt(code).map_or(Tile::Empty, Tile::Belt);
            }
            check_layout(real, &layout)
        })
        .unwrap();
}

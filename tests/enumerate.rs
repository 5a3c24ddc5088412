//! Enumeration against brute force: on tiny random levels, the number of
//! distinct solutions `enumerate` finds (layouts that differ only on cells no
//! donut visits count once) must equal the number brute force finds by
//! trying every layout, both at the fewest belts and with at most one belt
//! more (`--max-belts`); and every layout it returns must solve the level.
//!
//! `FROSTED_ENUM_CASES` sets how many levels.

mod common;

use common::tiny::{layouts, random_level, Rng};
use freshly_frosted::generate::{generate, Request};
use frosted::judge::judge;
use frosted::level::{Level, Tile};
use std::collections::HashSet;

/// A layout as a key: its tiles, with the belts on cells its run does not
/// visit removed (so two layouts with the same run give the same key).
fn key(layout: &Level) -> Vec<Tile> {
    let verdict = judge(layout);
    let mut tiles = layout.tiles.clone();
    for (t, &v) in tiles.iter_mut().zip(&verdict.outcome.visited) {
        if matches!(t, Tile::Belt(_)) && !v {
            *t = Tile::Empty;
        }
    }
    tiles
}

/// The distinct solutions (keys) of `level` by trying every layout, with
/// their belt counts after reduction.
fn brute_force(level: &Level) -> Vec<(Vec<Tile>, usize)> {
    let mut seen = HashSet::new();
    for (layout, _) in layouts(level) {
        if judge(&layout).solved() {
            seen.insert(key(&layout));
        }
    }
    let count = |tiles: &Vec<Tile>| {
        tiles
            .iter()
            .zip(&level.tiles)
            .filter(|(t, l)| **l == Tile::Empty && matches!(t, Tile::Belt(_)))
            .count()
    };
    seen.into_iter().map(|k| (k.clone(), count(&k))).collect()
}

/// Enumerates with `max_cost` (the fewest belts when `None`): the keys of
/// what it found, and whether it says the list is complete.
fn enumerated(level: &Level, max_cost: Option<usize>) -> (Vec<Vec<Tile>>, bool) {
    let opts = cegar::Options {
        max_cost,
        ..cegar::Options::default()
    };
    let e = freshly_frosted::puzzle::enumerate(
        level,
        &opts,
        &Default::default(),
        None,
        &mut |_| {},
        &mut |_| {},
    )
    .expect("enumeration runs");
    for s in &e.solutions {
        assert!(judge(s).solved(), "an enumerated layout fails:\n{s}");
        s.check_layout_of(level).expect("a layout of the level");
    }
    let keys = e.solutions.iter().map(key).collect();
    (keys, e.end == cegar::EnumEnd::Complete)
}

/// Checks one level at its fewest belts and with two belts more; returns the
/// number of minimal solutions and of those with two belts more at most.
fn check(case: usize, level: &Level) -> (usize, usize) {
    let all = brute_force(level);
    let fewest = all.iter().map(|(_, b)| *b).min();
    let within = |k: usize| -> HashSet<Vec<Tile>> {
        all.iter()
            .filter(|(_, b)| *b <= k)
            .map(|(t, _)| t.clone())
            .collect()
    };
    let (minimal, complete) = enumerated(level, None);
    assert!(complete, "case {case}: not complete on\n{level}");
    let got: HashSet<_> = minimal.iter().cloned().collect();
    assert_eq!(
        got.len(),
        minimal.len(),
        "case {case}: a solution twice on\n{level}"
    );
    let want = fewest.map_or_else(HashSet::new, within);
    assert_eq!(
        got, want,
        "case {case}: minimal solutions differ on\n{level}"
    );
    let mut more_count = 0;
    if let Some(k) = fewest {
        let (more, complete) = enumerated(level, Some(k + 2));
        assert!(
            complete,
            "case {case}: not complete with --max-belts on\n{level}"
        );
        let got: HashSet<_> = more.iter().cloned().collect();
        assert_eq!(
            got.len(),
            more.len(),
            "case {case}: a solution twice on\n{level}"
        );
        assert_eq!(
            got,
            within(k + 2),
            "case {case}: solutions with at most {} belts differ on\n{level}",
            k + 2
        );
        more_count = got.len();
    }
    (want.len(), more_count)
}

/// A small generated level (solvable by construction), with the free cells
/// its hidden layout does not use blocked until at most `max_free` are left;
/// `None` when the hidden layout needs more.
fn generated_tiny(seed: u64, max_free: usize) -> Option<Level> {
    let sizes = [(4, 3), (4, 4), (5, 3), (5, 4), (3, 5)];
    let request = Request {
        seed,
        size: Some(sizes[seed as usize % sizes.len()]),
        ..Request::default()
    };
    let g = generate(&request, &mut |_| true).ok()?;
    let (mut level, layout) = (g.pair.level, g.pair.layout);
    let mut spare: Vec<usize> = level
        .free_cells()
        .map(|c| c.index())
        .filter(|&i| layout.tiles[i] == Tile::Empty)
        .collect();
    while level.free_cells().count() > max_free {
        level.tiles[spare.pop()?] = Tile::Block;
    }
    Some(level)
}

#[test]
fn enumeration_agrees_with_brute_force_on_tiny_levels() {
    let cases = common::cases("FROSTED_ENUM_CASES", 60);
    let mut rng = Rng::new(0x5eed_e1e1_0000_0028);
    let (mut several, mut one, mut none, mut more) = (0, 0, 0, 0);
    let mut seed = 0;
    for case in 0..cases {
        let level = match case % 2 {
            0 => random_level(&mut rng, 6),
            _ => loop {
                seed += 1;
                if let Some(level) = generated_tiny(seed, 7) {
                    break level;
                }
            },
        };
        let (minimal, within) = check(case, &level);
        more += usize::from(within > minimal);
        match minimal {
            0 => none += 1,
            1 => one += 1,
            _ => several += 1,
        }
    }
    // Two ways round a corner, three belts each.
    let corner = frosted::parse::parse("+>  .   .\n.   .   .\n.   .   -v\n").expect("parses");
    assert_eq!(check(cases, &corner).0, 2);
    several += 1;
    eprintln!(
        "{cases} tiny levels: {several} with several minimal solutions, {one} with one, \
         {none} unsolvable; {more} with more solutions at two belts more"
    );
    assert!(
        one > 0 && none > 0 && more > 0,
        "{one} with one, {none} unsolvable, {more} with more at two belts more: the levels prove little"
    );
}

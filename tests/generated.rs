//! The level generator (`frosted generate`) and its corpus in
//! `levels/generated/`: every generated level is solved by the hidden layout
//! it was built around, the same seed and options give the same level, the
//! corpus covers every mechanic and the sizes from 5x5 to 13x9, and
//! `--unique` levels have exactly one minimal layout.
//!
//! `FROSTED_GEN_CASES` sets how many fresh seeds are generated and checked.

mod common;

use freshly_frosted::generate::{generate, uniqueness, Mechanic, Request, Style, Uniqueness};
use frosted::judge::judge;
use frosted::level::{Level, Tile};
use std::time::Duration;

/// Loads a corpus level's hidden layout, checked to be a layout of it.
fn hidden_layout(level: &Level, path: &std::path::Path) -> Level {
    let stem = path.file_stem().and_then(|s| s.to_str()).expect("name");
    let lp = path.with_file_name(format!("{stem}.solution.txt"));
    let mut layout = common::load(&lp);
    layout
        .check_layout_of(level)
        .unwrap_or_else(|e| panic!("{}: {e}", lp.display()));
    layout.flags = level.flags.clone();
    layout
}

#[test]
fn every_corpus_level_is_solved_by_its_hidden_layout() {
    let files = common::corpus();
    assert!(files.len() >= 300, "only {} generated levels", files.len());
    for path in &files {
        let level = common::load(path);
        let layout = hidden_layout(&level, path);
        let verdict = judge(&layout);
        assert!(verdict.solved(), "{}: {:?}", path.display(), verdict.reason);
        assert!(
            !judge(&level).solved(),
            "{}: solved without belts",
            path.display()
        );
        let first = level.flags.comments.first().map(String::as_str);
        assert!(
            first.is_some_and(|c| c.starts_with("frosted generate --seed ")),
            "{}: no generating command in the first comment",
            path.display()
        );
    }
}

/// Whether some level has a tile with `what`.
fn any_tile(levels: &[Level], what: impl Fn(Tile) -> bool) -> bool {
    levels.iter().any(|l| l.tiles.iter().any(|&t| what(t)))
}

#[test]
fn the_corpus_covers_every_mechanic_and_size() {
    let levels: Vec<Level> = common::corpus().iter().map(|p| common::load(p)).collect();
    let sizes: Vec<(usize, usize)> = levels
        .iter()
        .map(|l| (l.shape.width, l.shape.height))
        .collect();
    assert!(
        sizes.contains(&(5, 5)) && sizes.contains(&(13, 9)),
        "sizes {sizes:?}"
    );
    assert!(sizes
        .iter()
        .all(|&(w, h)| (5..=13).contains(&w) && (5..=9).contains(&h)));
    let multi_out = levels.iter().any(|l| {
        let outs = |c| {
            l.tiles
                .iter()
                .filter(|t| matches!(t, Tile::TeleOut(ch, _) if *ch == c))
                .count()
        };
        outs(frosted::level::Channel::T) > 1 || outs(frosted::level::Channel::U) > 1
    });
    let checks = [
        (
            "toppers",
            any_tile(&levels, |t| matches!(t, Tile::Topper { .. })),
        ),
        (
            "splitters",
            any_tile(&levels, |t| matches!(t, Tile::Splitter(_))),
        ),
        (
            "bumpers",
            any_tile(&levels, |t| matches!(t, Tile::Bumper { .. })),
        ),
        (
            "preset belts",
            any_tile(&levels, |t| matches!(t, Tile::Belt(_))),
        ),
        (
            "teleporters",
            any_tile(&levels, |t| matches!(t, Tile::TeleIn(_))),
        ),
        ("crossovers", any_tile(&levels, |t| t == Tile::Crossover)),
        (
            "any-sources",
            any_tile(&levels, |t| matches!(t, Tile::AnySource(_))),
        ),
        ("walls", any_tile(&levels, |t| t == Tile::Block)),
        (
            "several sources",
            levels.iter().any(|l| l.sources().count() > 1),
        ),
        (":targets", levels.iter().any(|l| l.flags.targets.is_some())),
        ("teleporters with several outs", multi_out),
    ];
    for (what, seen) in checks {
        assert!(seen, "no generated level has {what}");
    }
}

/// A request for seed `seed` with the options of case `i`.
fn request(i: usize, seed: u64) -> Request {
    let mut r = Request {
        seed,
        ..Request::default()
    };
    match i % 4 {
        0 => {}
        1 => r.style = Some(Style::ALL[seed as usize % Style::ALL.len()]),
        2 => {
            r.size = Some((5 + seed as usize % 9, 5 + seed as usize % 5));
            r.mechanics = Some(vec![
                Mechanic::Toppers,
                Mechanic::ALL[seed as usize % Mechanic::ALL.len()],
            ]);
        }
        _ => {
            r.size = Some((9, 7));
            r.mechanics = Some(vec![Mechanic::Toppers, Mechanic::Splitters]);
            r.sources = Some(1);
            r.targets = Some(2);
        }
    }
    r
}

#[test]
fn the_same_seed_and_options_give_the_same_level() {
    let cases = common::cases("FROSTED_GEN_CASES", 80);
    let mut distinct = std::collections::HashSet::new();
    for i in 0..cases {
        let r = request(i, 1000 + i as u64);
        let a = generate(&r, &mut |_| true).unwrap_or_else(|e| panic!("case {i}: {e}"));
        let b = generate(&r, &mut |_| true).expect("generates again");
        assert_eq!(
            a.pair.level.to_string(),
            b.pair.level.to_string(),
            "case {i}"
        );
        assert_eq!(
            a.pair.layout.to_string(),
            b.pair.layout.to_string(),
            "case {i}"
        );
        assert!(
            judge(&a.pair.layout).solved(),
            "case {i}: the hidden layout fails"
        );
        if let Some(n) = r.targets {
            assert_eq!(a.pair.level.targets().count(), n, "case {i}: targets");
        }
        if let Some((w, h)) = r.size {
            assert_eq!(
                (a.pair.level.shape.width, a.pair.level.shape.height),
                (w, h)
            );
        }
        distinct.insert(a.pair.level.to_string());
    }
    assert_eq!(distinct.len(), cases, "two seeds gave the same level");
}

#[test]
fn unique_levels_have_exactly_one_minimal_layout() {
    let timeout = Duration::from_secs(30);
    for seed in 1..=4 {
        let r = Request {
            seed,
            size: Some((6, 5)),
            unique: true,
            ..Request::default()
        };
        let g = generate(&r, &mut |p| {
            uniqueness(&p.level, timeout) == Uniqueness::Unique
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let level = &g.pair.level;
        let e = freshly_frosted::puzzle::enumerate(
            level,
            &cegar::Options::default(),
            &Default::default(),
            None,
            &mut |_| {},
            &mut |_| {},
        )
        .expect("enumerates");
        assert_eq!(e.end, cegar::EnumEnd::Complete, "seed {seed}");
        assert_eq!(e.solutions.len(), 1, "seed {seed}: not unique:\n{level}");
        assert!(judge(&e.solutions[0]).solved());
    }
}

/// `levels/generated/unsolvable.sh OUT` writes, for each corpus level with
/// `:targets`, the same board asking for one more delivery of the first kind
/// it names (and no other change); no other file.
#[cfg(unix)]
#[test]
fn the_unsolvable_variants_ask_for_one_more_delivery() {
    let out = std::env::temp_dir().join(format!("frosted-unsolvable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let script = common::repo_levels()
        .join(common::GENERATED)
        .join("unsolvable.sh");
    let status = std::process::Command::new("sh")
        .arg(&script)
        .arg(&out)
        .status()
        .expect("sh runs");
    assert!(status.success(), "{status}");
    let mut made = 0;
    for path in common::corpus() {
        let level = common::load(&path);
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("name");
        let variant = out.join(format!("{stem}-more.txt"));
        let Some(wanted) = &level.flags.targets else {
            assert!(!variant.exists(), "{}", variant.display());
            continue;
        };
        let more = common::load(&variant);
        let mut expected = wanted.clone();
        expected.push(wanted[0]);
        assert_eq!(more.flags.targets.as_ref(), Some(&expected), "{stem}");
        assert_eq!(
            (&more.shape, &more.tiles),
            (&level.shape, &level.tiles),
            "{stem}"
        );
        made += 1;
    }
    let files = std::fs::read_dir(&out).expect("the variants").count();
    assert_eq!(files, made, "only the variants are written");
    assert!(made >= 50, "only {made} levels with :targets");
    let _ = std::fs::remove_dir_all(&out);
}

/// The sketch (`crates/frosted/src/sketch.rs`) on the corpus: every
/// layout it returns is a layout of its level (belts on `.` cells only)
/// that the simulator accepts, the same seed draws the same layout, and it
/// finds one for a good share of the levels (by design it cannot for some:
/// any-sources that need loops, forks it does not take).
#[test]
fn sketches_of_the_corpus_are_accepted_layouts_of_their_levels() {
    use frosted::encode::Encoding;
    use frosted::sketch::{Sketcher, SEED, TRIES};
    use rustsat::instances::{BasicVarManager, Cnf};
    let files = common::corpus();
    let mut found = 0;
    for path in &files {
        let level = common::load(path);
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
        let mut sketcher = Sketcher::new(&enc, SEED);
        let Some(layout) = sketcher.sketch(TRIES) else {
            continue;
        };
        found += 1;
        layout
            .check_layout_of(&level)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(judge(&layout).solved(), "{}", path.display());
        assert!(sketcher.tally.tries <= 2 * TRIES, "{:?}", sketcher.tally);
        let again = Sketcher::new(&enc, SEED).sketch(TRIES);
        assert_eq!(again.map(|l| l.to_string()), Some(layout.to_string()));
    }
    assert!(
        found * 3 >= files.len(),
        "sketched only {found} of {}",
        files.len()
    );
}

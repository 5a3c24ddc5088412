//! The project's own example levels in `levels/`: every `NAME.txt` parses, its
//! `NAME.solution.txt` solves it, and its `NAME.wrong.txt` does not, for the reason
//! stated in the wrong layout's first `:comment reason: ...` line.

mod common;

use frosted::judge::{explain, judge};
use frosted::level::Level;
use std::path::{Path, PathBuf};

/// The world folders, in order; each must hold at least `MIN_PER_WORLD` levels.
const WORLDS: [&str; 12] = [
    "01-toppers",
    "02-several",
    "03-targets-flag",
    "04-merges",
    "05-out-of-order",
    "06-splitters",
    "07-bumpers",
    "08-preset-belts",
    "09-teleporters",
    "10-crossovers",
    "11-one-to-many",
    "12-any-sources",
];
const MIN_PER_WORLD: usize = 3;
/// Folders that are not hand-made worlds: the other puzzle's, checked by
/// their own tests (`crates/cosmic/tests/example_levels.rs`), and the
/// generated corpus (`tests/generated.rs`).
const OTHER_PUZZLES: [&str; 2] = ["cosmic-express", "generated"];
/// The levels stay small enough for every test that solves them to be quick.
const MAX_SIDE: usize = 7;
const MAX_FREE_CELLS: usize = 25;

fn is_level_file(name: &str) -> bool {
    name.ends_with(".txt") && !name.ends_with(".solution.txt") && !name.ends_with(".wrong.txt")
}

/// The level files (not solutions or wrong layouts) of one world folder, sorted.
fn levels_in(world: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(world)
        .unwrap_or_else(|e| panic!("{}: {e}", world.display()))
        .map(|f| f.expect("entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_level_file)
        })
        .collect();
    out.sort();
    out
}

/// Every world folder under `levels/` (not the other puzzle's), sorted.
fn world_dirs() -> Vec<PathBuf> {
    let root = common::repo_levels();
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|f| f.expect("entry").path())
        .filter(|p| p.is_dir() && !OTHER_PUZZLES.iter().any(|o| p.ends_with(o)))
        .collect();
    out.sort();
    out
}

/// `NAME.txt` -> `NAME.<suffix>.txt`.
fn sibling(level: &Path, suffix: &str) -> PathBuf {
    let stem = level
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("file name");
    level.with_file_name(format!("{stem}.{suffix}.txt"))
}

/// Loads `path` as a layout of `level`, with the level's flags.
fn load_layout(level: &Level, path: &Path) -> Level {
    assert!(path.exists(), "{} is missing", path.display());
    let mut layout = common::load(path);
    layout
        .check_layout_of(level)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    layout.flags = level.flags.clone();
    layout
}

fn check_level(path: &Path) {
    let shown = path.display();
    let level = common::load(path);
    assert!(
        !level.flags.comments.is_empty(),
        "{shown}: a level starts with `:comment <what it shows>`"
    );
    let free = level.free_cells().count();
    assert!(
        level.shape.width <= MAX_SIDE && level.shape.height <= MAX_SIDE,
        "{shown}: {}x{} is larger than {MAX_SIDE}x{MAX_SIDE}",
        level.shape.width,
        level.shape.height
    );
    assert!(
        free <= MAX_FREE_CELLS,
        "{shown}: {free} free cells, more than {MAX_FREE_CELLS}"
    );

    let sol_path = sibling(path, "solution");
    let sol = load_layout(&level, &sol_path);
    let v = judge(&sol);
    assert!(
        v.solved(),
        "{}: not solved: {}",
        sol_path.display(),
        v.reason
            .as_ref()
            .map(|r| explain(&sol, r, &v.outcome))
            .unwrap_or_default()
    );

    let wrong_path = sibling(path, "wrong");
    let wrong_flags = common::load(&wrong_path).flags;
    let first = wrong_flags
        .comments
        .first()
        .map(String::as_str)
        .unwrap_or("");
    let want = first.strip_prefix("reason: ").unwrap_or_else(|| {
        panic!(
            "{}: the first line must be `:comment reason: <text>`, found `:comment {first}`",
            wrong_path.display()
        )
    });
    assert!(
        !want.trim().is_empty(),
        "{}: empty reason",
        wrong_path.display()
    );
    let wrong = load_layout(&level, &wrong_path);
    let v = judge(&wrong);
    let reason = v
        .reason
        .as_ref()
        .unwrap_or_else(|| panic!("{}: solves the level", wrong_path.display()));
    let got = explain(&wrong, reason, &v.outcome);
    assert!(
        got.contains(want),
        "{}: the stated reason `{want}` is not in `{got}`",
        wrong_path.display()
    );
}

#[test]
fn every_example_level_has_a_solution_and_a_wrong_layout() {
    let mut n = 0;
    for world in world_dirs() {
        for level in levels_in(&world) {
            check_level(&level);
            n += 1;
        }
    }
    assert!(n >= WORLDS.len() * MIN_PER_WORLD, "only {n} levels");
}

#[test]
fn every_world_has_at_least_three_levels() {
    let root = common::repo_levels();
    for world in WORLDS {
        let dir = root.join(world);
        assert!(dir.is_dir(), "{} is missing", dir.display());
        let n = levels_in(&dir).len();
        assert!(
            n >= MIN_PER_WORLD,
            "{}: {n} levels, want at least {MIN_PER_WORLD}",
            dir.display()
        );
    }
    let extra: Vec<_> = world_dirs()
        .into_iter()
        .filter(|d| !WORLDS.iter().any(|w| d.ends_with(w)))
        .collect();
    assert!(extra.is_empty(), "unexpected folders in levels/: {extra:?}");
}

#[test]
fn every_solution_and_wrong_layout_belongs_to_a_level() {
    for world in world_dirs() {
        for f in std::fs::read_dir(&world).expect("world") {
            let p = f.expect("entry").path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let level = name
                .strip_suffix(".solution.txt")
                .or_else(|| name.strip_suffix(".wrong.txt"));
            if let Some(stem) = level {
                let lp = p.with_file_name(format!("{stem}.txt"));
                assert!(lp.exists(), "{}: no level {}", p.display(), lp.display());
            } else {
                assert!(is_level_file(name), "{}: unexpected file", p.display());
            }
        }
    }
}

#[test]
fn the_first_level_is_the_readme_example() {
    let path = common::repo_levels().join("01-toppers/first-frosting.txt");
    let level = common::load(&path);
    assert_eq!(level.sources().count(), 1);
    assert_eq!(level.targets().count(), 1);
    let free = level.free_cells().count();
    assert!((8..=15).contains(&free), "{free} free cells");
}

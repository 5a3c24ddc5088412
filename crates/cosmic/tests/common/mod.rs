//! Helpers shared by the integration tests.
#![allow(dead_code)]

use cosmic_express::{parse_level, Color, Entity, Level, Point, Track};
use std::path::{Path, PathBuf};

/// `../shared/ce-levels` beside the repository. `None` (with a message on stderr)
/// when absent; in CI (`CI` set) its absence is an error, so those tests always run.
pub fn ce_levels() -> Option<PathBuf> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/ce-levels"
    ));
    if dir.is_dir() {
        return Some(dir.to_path_buf());
    }
    if std::env::var_os("CI").is_some() {
        panic!("CI is set but {} is missing", dir.display());
    }
    eprintln!(
        "SKIPPED: {} is absent; the tests on real levels need it beside the repository",
        dir.display()
    );
    None
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn load(path: &Path) -> Level {
    parse_level(&read(path)).unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())))
}

/// The level files (not solutions or judged tracks), sorted.
pub fn real_levels(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for world in std::fs::read_dir(root).expect("ce-levels") {
        let world = world.expect("entry").path();
        let name = world.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !world.is_dir() || name == "judged" || name == "solutions" {
            continue;
        }
        for f in std::fs::read_dir(&world).expect("constellation") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "json") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

pub fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

pub fn track(cells: &[(i32, i32)]) -> Track {
    Track(cells.iter().map(|&(x, y)| p(x, y)).collect())
}

/// A level from its parts, without the file format.
pub fn level(
    (width, height): (i32, i32),
    length: usize,
    entrance: (i32, i32),
    exit: (i32, i32),
    entities: &[((i32, i32), Entity)],
) -> Level {
    Level {
        width,
        height,
        length,
        entrance: p(entrance.0, entrance.1),
        exit: p(exit.0, exit.1),
        entities: entities.iter().map(|&((x, y), e)| (p(x, y), e)).collect(),
    }
}

pub const PURPLE: Color = Color::Purple;
pub const ORANGE: Color = Color::Orange;
pub const GREEN: Color = Color::Green;

/// Andromeda 7 (rules §2 and §8.1).
pub fn andromeda_7() -> Level {
    level(
        (7, 7),
        1,
        (0, 4),
        (8, 4),
        &[
            ((2, 2), Entity::Alien(ORANGE)),
            ((6, 2), Entity::Alien(PURPLE)),
            ((2, 6), Entity::House(PURPLE)),
            ((6, 6), Entity::House(ORANGE)),
        ],
    )
}

/// A track written as in rules §8.2: `(0,4) (1,4) ...`.
pub fn cells(text: &str) -> Track {
    Track(
        text.split_whitespace()
            .map(|c| {
                let (x, y) = c
                    .trim_matches(|c| c == '(' || c == ')')
                    .split_once(',')
                    .expect("(x,y)");
                p(x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect(),
    )
}

/// The 35-cell solution of §8.1.
pub fn andromeda_7_track() -> Track {
    cells(
        "(0,4) (1,4) (2,4) (2,3) (3,3) (3,2) (3,1) (4,1) (5,1) (6,1) (7,1) (7,2) (7,3) (6,3) \
         (6,4) (6,5) (5,5) (5,4) (5,3) (5,2) (4,2) (4,3) (4,4) (4,5) (4,6) (3,6) (3,7) (4,7) \
         (5,7) (6,7) (7,7) (7,6) (7,5) (7,4) (8,4)",
    )
}

/// The picture of §8.1.
pub const ANDROMEDA_7_PICTURE: &str = "\
+++++++++
+..>>>>v+
+.o^v<pv+
+.>^v^v<+
S>^.v^v>E
+...v^<^+
+.Pv<.O^+
+..>>>>^+
+++++++++
";

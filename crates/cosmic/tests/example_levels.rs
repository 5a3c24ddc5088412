//! The example levels of `levels/cosmic-express/`: each parses, its hand-made
//! `.path.json` solves it, its `.wrong.path.json` is a valid track that does not
//! and fails for the reason the folder's README states, and the solver proves
//! the README's minimum (or that the level has no solution).

use cegar::Status;
use cosmic_express::{check_track, judge, parse_level, parse_track, Level, Track};
use std::path::{Path, PathBuf};

/// One example level: its name, the fewest cells of a solving track (`None`:
/// unsolvable), and a part of the judge's reason for its wrong track.
struct Example {
    name: &'static str,
    minimum: Option<usize>,
    wrong_reason: &'static str,
}

/// Every level of the folder, in the order of its README's table.
const EXAMPLES: &[Example] = &[
    Example {
        name: "one-alien",
        minimum: Some(7),
        wrong_reason: "the purple alien at (2,1) was never picked up: \
                       the track never passes next to it",
    },
    Example {
        name: "two-cars",
        minimum: Some(9),
        wrong_reason: "the orange house at (5,1) was never served: the orange alien \
                       from (3,1) boarded at moment 5 was still on car 1 at the end",
    },
    Example {
        name: "second-car-delivers",
        minimum: Some(10),
        wrong_reason: "the orange house at (5,3) was never served: the orange alien \
                       from (3,1) boarded at moment 5 was still on car 1 at the end",
    },
    Example {
        name: "boarding-tie",
        minimum: Some(11),
        wrong_reason: "the purple alien at (3,1) was never picked up: a car passed next \
                       to it only when it was next to a second willing alien (moments 4, 5)",
    },
    Example {
        name: "goop",
        minimum: Some(16),
        wrong_reason: "the purple alien at (4,1) was never picked up: a car passed next \
                       to it only when it was gooped by a green alien (moment 5)",
    },
    Example {
        name: "goop-other-car",
        minimum: Some(9),
        wrong_reason: "the purple house at (5,1) was never served: the purple alien \
                       from (4,1) boarded at moment 6 was still on car 1 at the end",
    },
    Example {
        name: "end-of-run",
        minimum: Some(9),
        wrong_reason: "the purple house at (5,1) was never served: the purple alien \
                       from (2,1) boarded at moment 3 was still on car 0 at the end",
    },
    Example {
        name: "house-order",
        minimum: Some(14),
        wrong_reason: "the purple house at (4,1) was never served: the purple alien \
                       from (5,1) boarded at moment 6 was still on car 0 at the end",
    },
    Example {
        name: "house-by-the-exit",
        minimum: None,
        wrong_reason: "the purple house at (5,1) was never served: the purple alien \
                       from (2,1) boarded at moment 3 was still on car 0 at the end",
    },
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels/cosmic-express")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn level(name: &str) -> Level {
    let path = dir().join(format!("{name}.json"));
    parse_level(&read(&path))
        .unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())))
}

fn track(level: &Level, file: &str) -> Track {
    let path = dir().join(file);
    parse_track(level, &read(&path))
        .unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())))
}

fn example(name: &str) -> &'static Example {
    EXAMPLES
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("{name} is not in EXAMPLES"))
}

#[test]
fn every_file_of_the_folder_belongs_to_a_listed_level() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("levels/cosmic-express")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".json"))
        .collect();
    names.sort();
    for f in &names {
        let stem = f
            .strip_suffix(".wrong.path.json")
            .or_else(|| f.strip_suffix(".path.json"))
            .or_else(|| f.strip_suffix(".json"))
            .expect("a .json file");
        example(stem);
    }
    for e in EXAMPLES {
        for (file, wanted) in [
            (format!("{}.json", e.name), true),
            (format!("{}.path.json", e.name), e.minimum.is_some()),
            (format!("{}.wrong.path.json", e.name), true),
        ] {
            assert_eq!(names.contains(&file), wanted, "{file}");
        }
    }
}

#[test]
fn hand_made_tracks_solve_their_levels_with_the_fewest_cells() {
    for e in EXAMPLES {
        let level = level(e.name);
        let Some(min) = e.minimum else { continue };
        let t = track(&level, &format!("{}.path.json", e.name));
        let v = judge(&level, &t);
        assert!(v.solved, "{}: {}", e.name, v.reason);
        assert_eq!(t.0.len(), min, "{}: the README calls it minimal", e.name);
    }
}

#[test]
fn wrong_tracks_are_valid_and_fail_for_the_stated_reason() {
    for e in EXAMPLES {
        let level = level(e.name);
        let t = track(&level, &format!("{}.wrong.path.json", e.name));
        assert_eq!(check_track(&level, &t), Ok(()), "{}", e.name);
        let v = judge(&level, &t);
        assert!(!v.solved, "{}", e.name);
        assert!(
            v.reason.contains(e.wrong_reason),
            "{}: the judge says {:?}",
            e.name,
            v.reason
        );
    }
}

#[test]
fn the_readme_states_each_minimum_and_reason() {
    let readme = read(&dir().join("README.md"));
    for e in EXAMPLES {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", e.name)))
            .unwrap_or_else(|| panic!("no README row for {}", e.name));
        let min = e
            .minimum
            .map_or("unsolvable".to_string(), |m| m.to_string());
        assert!(row.contains(&format!("| {min} |")), "{}: {row}", e.name);
        assert!(row.contains(e.wrong_reason), "{}: {row}", e.name);
    }
}

#[test]
fn the_solver_proves_each_minimum() {
    for e in EXAMPLES {
        let level = level(e.name);
        let r = cosmic_express::puzzle::solve(&level, &cegar::Options::default(), &mut |_| {})
            .expect("solve runs");
        match e.minimum {
            Some(min) => {
                assert_eq!(r.status, Status::Optimal, "{}", e.name);
                assert_eq!(r.cost, Some(min), "{}", e.name);
                let t = r.candidate.expect("an optimal report has a track");
                assert_eq!(t.0.len(), min, "{}", e.name);
                let v = judge(&level, &t);
                assert!(v.solved, "{}: {}", e.name, v.reason);
            }
            None => {
                assert_eq!(r.status, Status::Unsolvable, "{}", e.name);
                assert!(r.candidate.is_none(), "{}", e.name);
            }
        }
    }
}

//! The picture flags: `show --svg` (snapshots of the SVG text of a few small
//! levels, both puzzles), `simulate --html`, `solve --svg/--html`,
//! `bench --html`, and their errors (a file that cannot be written, a flag
//! without the one it needs), which are bad input (exit 2), never a panic.

use crate::{run_in, scratch};
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn svg_of_a_level() {
    assert_cmd_snapshot!(&["show", "levels/01-toppers/tiny-frosting.txt", "--svg"]);
}

/// Placed belts (blue on light floor) apart from the level's own.
#[test]
fn svg_of_a_layout() {
    assert_cmd_snapshot!(&[
        "show",
        "levels/08-preset-belts/one-way-gate.txt",
        "levels/08-preset-belts/one-way-gate.solution.txt",
        "--svg",
    ]);
}

#[test]
fn svg_of_a_cosmic_track() {
    assert_cmd_snapshot!(&[
        "show",
        "levels/cosmic-express/one-alien.json",
        "levels/cosmic-express/one-alien.path.json",
        "--svg",
    ]);
}

#[test]
fn svg_to_a_folder_that_does_not_exist() {
    assert_cmd_snapshot!(&[
        "show",
        "levels/01-toppers/tiny-frosting.txt",
        "--svg",
        "-o",
        "no-such-folder/tiny.svg",
    ]);
}

#[test]
fn output_without_svg() {
    assert_cmd_snapshot!(&["show", "levels/01-toppers/tiny-frosting.txt", "-o", "x.svg"]);
}

#[test]
fn html_with_trace() {
    assert_cmd_snapshot!(&[
        "simulate",
        "levels/01-toppers/tiny-frosting.txt",
        "levels/01-toppers/tiny-frosting.solution.txt",
        "--html",
        "--trace",
    ]);
}

#[test]
fn html_to_a_folder() {
    assert_cmd_snapshot!(&[
        "simulate",
        "levels/01-toppers/tiny-frosting.txt",
        "levels/01-toppers/tiny-frosting.solution.txt",
        "--html",
        "-o",
        "levels",
    ]);
}

/// The check comes before the solve, so a long solve is not lost.
#[test]
fn solve_svg_to_a_folder_that_does_not_exist() {
    assert_cmd_snapshot!(&[
        "solve",
        "levels/01-toppers/tiny-frosting.txt",
        "--svg",
        "no-such-folder/x.svg",
    ]);
}

/// The page holds everything: the board, the frames, the player; nothing
/// is fetched.
#[test]
fn html_page_is_self_contained() {
    let dir = scratch("pictures-html", &[]);
    let level = repo().join("levels/06-splitters/half-frosted.txt");
    let layout = repo().join("levels/06-splitters/half-frosted.solution.txt");
    let (l, y) = (level.display().to_string(), layout.display().to_string());
    let out = run_in(&dir, &["simulate", &l, &y, "--html", "-o", "page.html"]);
    assert!(out.starts_with("exit: 0\n"), "{out}");
    let page = std::fs::read_to_string(dir.join("page.html")).expect("the page");
    assert!(page.starts_with("<!DOCTYPE html>"));
    for part in [
        "<svg",
        "id=\"replay-data\"",
        "id=\"play\"",
        "id=\"slider\"",
        "id=\"speed\"",
    ] {
        assert!(page.contains(part), "{part} missing");
    }
    assert!(!page.contains("src=") && !page.contains("<link"));
    let ns = "http://www.w3.org/2000/svg";
    assert_eq!(page.matches("http").count(), page.matches(ns).count());
    assert!(page.contains("solved: every source delivered"));
}

#[test]
fn solve_and_bench_write_pages() {
    let dir = scratch("pictures-bench", &[]);
    std::fs::create_dir(dir.join("levels")).expect("levels/");
    std::fs::write(dir.join("levels/a.txt"), "+> . . ->\n").expect("a.txt");
    std::fs::write(dir.join("levels/b.txt"), "+> # ->\n").expect("b.txt");
    let out = run_in(
        &dir,
        &[
            "solve",
            "levels/a.txt",
            "--svg",
            "a.svg",
            "--html",
            "a.html",
        ],
    );
    assert!(out.starts_with("exit: 0\n"), "{out}");
    let svg = std::fs::read_to_string(dir.join("a.svg")).expect("a.svg");
    assert!(
        svg.contains("found by frosted solve") && svg.contains("places 2 belts"),
        "{svg}"
    );
    assert!(dir.join("a.html").is_file());
    // An unsolvable level: no picture, and a note saying so.
    let out = run_in(&dir, &["solve", "levels/b.txt", "--svg", "b.svg"]);
    assert!(
        out.contains("--svg: nothing found, so b.svg is not written"),
        "{out}"
    );
    assert!(!dir.join("b.svg").exists());

    let out = run_in(
        &dir,
        &["bench", "levels", "--html", "pages", "--timeout", "20"],
    );
    assert!(out.starts_with("exit: 0\n"), "{out}");
    let index = std::fs::read_to_string(dir.join("pages/index.html")).expect("index");
    assert!(index.contains("<a href=\"a.html\">a.txt</a>"), "{index}");
    assert!(
        index.contains("<td>b.txt</td><td>unsolvable</td>"),
        "{index}"
    );
    assert!(dir.join("pages/a.html").is_file() && !dir.join("pages/b.html").exists());
}

/// The README's picture is what the command draws today; regenerate it with
/// `frosted show levels/09-teleporters/two-channels.txt
/// levels/09-teleporters/two-channels.solution.txt --svg -o docs/picture.svg`.
#[test]
fn readme_picture_is_up_to_date() {
    let out = crate::run(&[
        "show",
        "levels/09-teleporters/two-channels.txt",
        "levels/09-teleporters/two-channels.solution.txt",
        "--svg",
    ]);
    let svg = out
        .strip_prefix("exit: 0\n--- stdout\n")
        .and_then(|s| s.strip_suffix("\n--- stderr\n"))
        .unwrap_or_else(|| panic!("{out}"));
    let committed =
        std::fs::read_to_string(repo().join("docs/picture.svg")).expect("docs/picture.svg");
    assert!(
        svg == committed,
        "docs/picture.svg is out of date: regenerate it with `frosted show \
         levels/09-teleporters/two-channels.txt levels/09-teleporters/two-channels.solution.txt \
         --svg -o docs/picture.svg`"
    );
}

//! `frosted generate`: a level for a seed (with only `--seed`, and with every
//! option), the hidden layout it writes, `--unique`, bad requests; and every
//! level of `levels/generated/` printed again, byte for byte, by the command
//! in its first `:comment` line.

use crate::{run, scratch};
use std::path::Path;

#[test]
fn generate_with_only_a_seed() {
    assert_cmd_snapshot!(&["generate", "--seed", "7"]);
}

#[test]
fn generate_with_every_option_and_the_hidden_layout() {
    let dir = scratch("generate-layout", &[]);
    let args = [
        "generate",
        "--seed",
        "3",
        "--size",
        "9x7",
        "--mechanics",
        "toppers,splitters,targets",
        "--sources",
        "1",
        "--targets",
        "3",
        "--style",
        "game",
        "--layout",
        "hidden.txt",
    ];
    assert_cmd_snapshot!(&dir, &args);
    let layout = std::fs::read_to_string(dir.join("hidden.txt")).expect("the layout file");
    insta::assert_snapshot!(layout);
}

#[test]
fn generate_styles() {
    for style in ["far", "teleport-split", "multi-out"] {
        insta::with_settings!({ snapshot_suffix => style }, {
            assert_cmd_snapshot!(&["generate", "--seed", "1", "--style", style]);
        });
    }
}

#[test]
fn generate_unique() {
    assert_cmd_snapshot!(&["generate", "--seed", "2", "--size", "6x5", "--unique"]);
}

#[test]
fn generate_bad_requests() {
    let bad: [&[&str]; 8] = [
        &["generate", "--seed", "1", "--size", "9by7"],
        &["generate", "--seed", "1", "--size", "2x9"],
        &["generate", "--seed", "1", "--mechanics", "toppers,lasers"],
        &["generate", "--seed", "1", "--style", "spiral"],
        &[
            "generate",
            "--seed",
            "1",
            "--mechanics",
            "toppers",
            "--sources",
            "1",
            "--targets",
            "3",
        ],
        &["generate", "--seed", "-1"],
        &[
            "generate",
            "--seed",
            "1",
            "--unique",
            "--unique-timeout",
            "0",
        ],
        &["generate", "--seed", "1", "--solve", "0"],
    ];
    for (i, args) in bad.iter().enumerate() {
        insta::with_settings!({ snapshot_suffix => i.to_string() }, {
            assert_cmd_snapshot!(args);
        });
    }
}

/// Every corpus level is what its first comment's command prints.
#[test]
fn every_corpus_level_is_printed_again_by_its_command() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/generated");
    let mut n = 0;
    for f in std::fs::read_dir(&dir).expect("levels/generated") {
        let path = f.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if !name.ends_with(".txt") || name.ends_with(".solution.txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("level");
        let first = text.lines().next().unwrap_or("");
        let command = first
            .strip_prefix(":comment frosted ")
            .unwrap_or_else(|| panic!("{name}: no command in the first line"));
        let args: Vec<&str> = command.split_whitespace().collect();
        let out = run(&args);
        let expected = format!("exit: 0\n--- stdout\n{text}\n--- stderr\n");
        assert!(
            out.starts_with(&expected),
            "{name}: printed differently:\n{out}"
        );
        n += 1;
    }
    assert!(n >= 300, "only {n} corpus levels");
}

/// `--solve` adds `solve`'s verdict on stderr and leaves stdout alone.
#[test]
fn generate_and_solve() {
    let plain = run(&["generate", "--seed", "4", "--size", "6x5"]);
    let solved = run(&["generate", "--seed", "4", "--size", "6x5", "--solve", "60"]);
    let stdout = |s: &str| s.split("--- stderr").next().unwrap_or("").to_string();
    assert_eq!(stdout(&plain), stdout(&solved));
    assert!(
        solved.contains("\nsolve: optimal, ") && solved.contains(", verified in "),
        "{solved}"
    );
}

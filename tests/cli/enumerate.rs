//! `frosted solve --all` and `--count`: every minimal layout, the count line,
//! `--limit`, `--max-belts`, `--json`, and the flags that do not go with them.

use crate::{run_in, scratch};

/// Two ways round a corner, three belts each.
const CORNER: &[u8] = b"+>  .   .\n.   .   .\n.   .   -v\n";

/// No way at all: the target is entered moving left, the donuts come moving right.
const NONE: &[u8] = b"+>  .   -<\n";

/// The two levels in a scratch directory of the test's own (tests run in
/// parallel, and one clearing a shared directory raced another writing it).
fn dir(test: &str) -> std::path::PathBuf {
    scratch(test, &[("corner.txt", CORNER), ("none.txt", NONE)])
}

#[test]
fn solve_all_prints_every_minimal_layout() {
    assert_cmd_snapshot!(
        &dir("enumerate-all"),
        &["solve", "corner.txt", "--all", "--threads", "1"]
    );
}

#[test]
fn solve_count() {
    let d = dir("enumerate-count");
    let cases: [&[&str]; 5] = [
        &["solve", "corner.txt", "--count", "--threads", "1"],
        &[
            "solve",
            "corner.txt",
            "--count",
            "--max-belts",
            "5",
            "--threads",
            "1",
        ],
        &[
            "solve",
            "corner.txt",
            "--count",
            "--max-belts",
            "5",
            "--limit",
            "1",
            "--threads",
            "1",
        ],
        &["solve", "none.txt", "--count"],
        &["solve", "corner.txt", "--count", "--json", "--threads", "1"],
    ];
    for (i, args) in cases.iter().enumerate() {
        insta::with_settings!({ snapshot_suffix => i.to_string() }, {
            snap!(run_in(&d, args), args);
        });
    }
}

#[test]
fn solve_all_bad_flags() {
    let d = dir("enumerate-bad-flags");
    let cases: [&[&str]; 2] = [
        &["solve", "corner.txt", "--all", "--first"],
        &["solve", "corner.txt", "--count", "--limit", "0"],
    ];
    for (i, args) in cases.iter().enumerate() {
        insta::with_settings!({ snapshot_suffix => i.to_string() }, {
            assert_cmd_snapshot!(&d, args);
        });
    }
}

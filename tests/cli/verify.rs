//! `frosted verify`: the verdicts on the repository's levels, the JSON form, and
//! every kind of bad input.

use crate::scratch;

/// The level of the rules' section 6, used by the bad-input tests below.
const LEVEL: &[u8] = b".   .   .   .   .\n+>  .   .   .   ->\n.   .   .   .   .\n";

#[test]
fn solution() {
    each_level!(needs = solution, |l| {
        assert_cmd_snapshot!(&["verify", &l.level, &l.solution]);
    });
}

#[test]
fn wrong() {
    each_level!(needs = wrong, |l| {
        assert_cmd_snapshot!(&["verify", &l.level, &l.wrong]);
    });
}

#[test]
fn level_alone_is_its_own_layout() {
    assert_cmd_snapshot!(&["verify", "levels/01-toppers/rules-example.solution.txt"]);
}

#[test]
fn json_solved() {
    assert_cmd_snapshot!(&[
        "verify",
        "--json",
        "levels/01-toppers/tiny-splitter.txt",
        "levels/01-toppers/tiny-splitter.solution.txt",
    ]);
}

#[test]
fn json_not_solved() {
    assert_cmd_snapshot!(&[
        "verify",
        "levels/01-toppers/tiny-frosting.txt",
        "levels/01-toppers/tiny-frosting.wrong.txt",
        "--json",
    ]);
}

#[test]
fn json_stranded() {
    assert_cmd_snapshot!(&[
        "verify",
        "--json",
        "levels/01-toppers/rules-example.txt",
        "levels/01-toppers/rules-example.wrong.txt",
    ]);
}

#[test]
fn missing_level() {
    assert_cmd_snapshot!(&["verify", "levels/no-such-world/missing.txt"]);
}

#[test]
fn missing_layout() {
    assert_cmd_snapshot!(&[
        "verify",
        "levels/01-toppers/rules-example.txt",
        "missing.solution.txt",
    ]);
}

/// A file larger than any level (here one line of 1 MiB of spaces) is
/// refused before it is parsed: `/dev/zero` would otherwise be read for ever.
#[test]
fn oversized_layout() {
    let big = vec![b' '; (1 << 20) + 1];
    let dir = scratch(
        "verify-oversized",
        &[("level.txt", LEVEL), ("big.txt", &big)],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt", "big.txt"]);
}

#[test]
fn unknown_token() {
    let dir = scratch(
        "verify-unknown-token",
        &[("level.txt", b":targets 0\n+>  .   ??  ->\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn unknown_flag() {
    let dir = scratch(
        "verify-unknown-flag",
        &[("level.txt", b":bogus 1\n+> ->\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn bad_topper_kind() {
    let dir = scratch("verify-bad-topper", &[("level.txt", b"+>  5v  ->\n")]);
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn ragged_row() {
    let dir = scratch(
        "verify-ragged-row",
        &[("level.txt", b".  .  .\n+> .  .  ->\n.  .  .\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn bad_targets_code() {
    let dir = scratch(
        "verify-bad-targets-code",
        &[("level.txt", b":targets 0 3 5\n+> ->\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn empty_targets() {
    let dir = scratch(
        "verify-empty-targets",
        &[("level.txt", b":targets\n+> ->\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn empty_grid() {
    let dir = scratch(
        "verify-empty-grid",
        &[("level.txt", b":comment nothing but flags\n:targets 0\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn teleporter_in_without_out() {
    let dir = scratch(
        "verify-teleporter-in-without-out",
        &[("level.txt", b"+>  T-  .\n.   .   ->\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn teleporter_out_without_in() {
    let dir = scratch(
        "verify-teleporter-out-without-in",
        &[("level.txt", b"+>  .   ->\nU+> .   .\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn two_teleporter_ins() {
    let dir = scratch(
        "verify-two-teleporter-ins",
        &[("level.txt", b"+>  T-  T+v\nT-  .   ->\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn binary_garbage_with_nul_bytes() {
    let dir = scratch(
        "verify-binary-nul",
        &[("level.bin", b"+>  \x00\x00\x01  ->\n\x00\x00\n")],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.bin"]);
}

#[test]
fn binary_garbage_not_utf8() {
    let dir = scratch(
        "verify-binary-not-utf8",
        &[(
            "level.bin",
            b"+>  .   ->\n\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe\x80\x00garbage\n",
        )],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.bin"]);
}

#[test]
fn empty_file() {
    let dir = scratch("verify-empty-file", &[("level.txt", b"")]);
    assert_cmd_snapshot!(&dir, &["verify", "level.txt"]);
}

#[test]
fn layout_changes_a_non_floor_cell() {
    let dir = scratch(
        "verify-layout-changes-cell",
        &[
            ("level.txt", LEVEL),
            (
                "layout.txt",
                b".   .   .   .   .\n+>  >   >   >   >\n.   .   .   .   .\n",
            ),
        ],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt", "layout.txt"]);
}

#[test]
fn layout_of_another_size() {
    let dir = scratch(
        "verify-layout-other-size",
        &[
            ("level.txt", LEVEL),
            ("layout.txt", b"+>  >   >   >   ->\n"),
        ],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt", "layout.txt"]);
}

#[test]
fn layout_with_a_parse_error() {
    let dir = scratch(
        "verify-layout-parse-error",
        &[
            ("level.txt", LEVEL),
            (
                "layout.txt",
                b".   .   .   .   .\n+>  >   >>  >   ->\n.   .   .   .   .\n",
            ),
        ],
    );
    assert_cmd_snapshot!(&dir, &["verify", "level.txt", "layout.txt"]);
}

#[test]
fn help() {
    assert_cmd_snapshot!(&["verify", "--help"]);
}

#[test]
fn missing_argument() {
    assert_cmd_snapshot!(&["verify"]);
}

/// `-` reads the layout from stdin (`frosted solve LEVEL | frosted verify LEVEL
/// -`); a parse error there names `<stdin>`.
#[test]
fn layout_from_stdin() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let level = "levels/01-toppers/first-frosting.txt";
    let solution =
        std::fs::read(root.join("levels/01-toppers/first-frosting.solution.txt")).expect("read");
    for (name, input) in [("solution", &solution[..]), ("bad_token", b"+> ?? ->\n")] {
        let args = ["verify", level, "-"];
        let out = crate::run_with_stdin(root, &args, input);
        insta::with_settings!({ snapshot_suffix => name, description => crate::command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(out);
        });
    }
}

/// Only one of the two files can come from stdin: with both `-`, the first
/// read would take all of it and the layout would read an empty file.
#[test]
fn level_and_layout_both_from_stdin() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let level = std::fs::read(root.join("levels/01-toppers/first-frosting.txt")).expect("read");
    for cmd in ["verify", "simulate"] {
        let out = crate::run_with_stdin(root, &[cmd, "-", "-"], &level);
        assert!(out.starts_with("exit: 2"), "{out}");
        assert!(
            out.contains("error: the level and the layout cannot both be read from stdin"),
            "{out}"
        );
    }
}

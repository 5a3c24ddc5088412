//! `frosted show`: drawings of the repository's levels and of every entity.

use crate::scratch;

#[test]
fn level() {
    each_level!(|l| {
        assert_cmd_snapshot!(&["show", &l.level]);
    });
}

#[test]
fn solution() {
    assert_cmd_snapshot!(&["show", "levels/01-toppers/tiny-frosting.solution.txt"]);
}

/// A layout given beside its level: drawn with the level's flags (here
/// `:targets`, which the layout file lacks).
#[test]
fn layout_beside_its_level() {
    assert_cmd_snapshot!(&[
        "show",
        "levels/01-toppers/tiny-frosting.txt",
        "levels/01-toppers/tiny-frosting.solution.txt",
    ]);
}

/// Every token of the level format, in its canonical and alias spellings.
#[test]
fn every_entity() {
    let dir = scratch(
        "show-every-entity",
        &[(
            "zoo.txt",
            b":comment every entity\n:targets 0 1 3 7 15\n\
+>   +v?  -^   -<?  ->3  -vf\n\
1v   2^   3>   4<   7v   8^\n\
fv   F<   x>   X^   b>7  bv0\n\
T-   T+v  U-   U+<  U+>  *\n\
#    .    ^    v    <    >\n",
        )],
    );
    assert_cmd_snapshot!(&dir, &["show", "zoo.txt"]);
}

/// Boards wider than ten columns and taller than ten rows get two-digit
/// coordinates, and the columns still line up.
#[test]
fn wide_and_tall() {
    let mut text = String::from("+>");
    text.push_str(&" .".repeat(10));
    text.push_str(" ->\n");
    for _ in 0..10 {
        text.push_str(&". ".repeat(11));
        text.push_str(".\n");
    }
    let dir = scratch("show-wide-and-tall", &[("big.txt", text.as_bytes())]);
    assert_cmd_snapshot!(&dir, &["show", "big.txt"]);
}

#[test]
fn parse_error() {
    let dir = scratch("show-parse-error", &[("level.txt", b"+>  .\n.   .   ->\n")]);
    assert_cmd_snapshot!(&dir, &["show", "level.txt"]);
}

#[test]
fn missing_file() {
    assert_cmd_snapshot!(&["show", "missing.txt"]);
}

#[test]
fn help() {
    assert_cmd_snapshot!(&["show", "--help"]);
}

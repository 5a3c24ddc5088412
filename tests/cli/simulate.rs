//! `frosted simulate`: traces of the repository's levels, final boards, and runs
//! through crossovers, teleporters and bumpers.

use crate::scratch;

#[test]
fn trace_solution() {
    each_level!(needs = solution, |l| {
        assert_cmd_snapshot!(&[
            "simulate",
            "--trace",
            "--ticks",
            "12",
            &l.level,
            &l.solution
        ]);
    });
}

#[test]
fn final_board_of_wrong_layout() {
    each_level!(needs = wrong, |l| {
        assert_cmd_snapshot!(&["simulate", &l.level, &l.wrong]);
    });
}

#[test]
fn stopped_by_ticks() {
    assert_cmd_snapshot!(&[
        "simulate",
        "--ticks",
        "3",
        "levels/01-toppers/tiny-splitter.txt",
        "levels/01-toppers/tiny-splitter.solution.txt",
    ]);
}

#[test]
fn zero_ticks() {
    assert_cmd_snapshot!(&[
        "simulate",
        "--ticks",
        "0",
        "--trace",
        "levels/01-toppers/rules-example.txt",
        "levels/01-toppers/rules-example.solution.txt",
    ]);
}

#[test]
fn level_alone() {
    assert_cmd_snapshot!(&["simulate", "levels/01-toppers/rules-example.txt"]);
}

/// Two sources meet at a crossover: both enter while it is open, one is lost, then
/// the crossover lets only one direction in at a time.
#[test]
fn crossover_trace() {
    let dir = scratch(
        "simulate-crossover",
        &[
            (
                "level.txt",
                b".   +v  .   .\n+>  *   .   ->\n.   .   .   .\n.   -v  .   .\n",
            ),
            (
                "layout.txt",
                b".   +v  .   .\n+>  *   >   ->\n.   v   .   .\n.   -v  .   .\n",
            ),
        ],
    );
    assert_cmd_snapshot!(&dir, &["simulate", "--trace", "level.txt", "layout.txt"]);
}

/// A teleporter carries donuts to its out, and a bumper pushes plain donuts up off
/// the belt.
#[test]
fn teleporter_and_bumper_trace() {
    let dir = scratch(
        "simulate-teleporter-bumper",
        &[
            (
                "level.txt",
                b"+>  .   T-  .   .\n.   .   .   .   ->\nT+> .   .   .   .\n.   .   b^0 .   .\n",
            ),
            (
                "layout.txt",
                b"+>  >   T-  .   .\n.   .   >   >   ->\nT+> >   >   .   .\n.   .   b^0 .   .\n",
            ),
        ],
    );
    assert_cmd_snapshot!(&dir, &["simulate", "--trace", "level.txt", "layout.txt"]);
}

#[test]
fn not_a_layout() {
    assert_cmd_snapshot!(&[
        "simulate",
        "levels/01-toppers/tiny-frosting.txt",
        "levels/01-toppers/tiny-splitter.txt",
    ]);
}

#[test]
fn missing_file() {
    assert_cmd_snapshot!(&["simulate", "missing.txt"]);
}

#[test]
fn bad_ticks() {
    assert_cmd_snapshot!(&[
        "simulate",
        "--ticks",
        "-1",
        "levels/01-toppers/rules-example.txt",
    ]);
}

#[test]
fn help() {
    assert_cmd_snapshot!(&["simulate", "--help"]);
}

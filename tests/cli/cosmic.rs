//! Every command on a Cosmic Express level: a small level of our own (4x3,
//! one alien and one house), its tracks in both forms, bad input, and the
//! verdicts of the independent judge in `../shared/ce-levels/judged`.

use crate::{run_in, run_with_stdin, scratch};
use std::path::PathBuf;

/// The orange alien at (1,1) boards at (1,2); the house at (4,3) is served
/// from (3,3) or from (4,2).
const LEVEL: &[u8] = br#"{
  "width": 4,
  "height": 3,
  "length": 1,
  "entrances": [{ "x": 0, "y": 2 }],
  "exits": [{ "x": 5, "y": 2 }],
  "entities": [
    [{ "x": 1, "y": 1 }, { "Alien": { "color": "Orange" } }],
    [{ "x": 4, "y": 3 }, { "House": { "color": "Orange" } }]
  ]
}
"#;

/// The shortest track, as JSON.
const SOLVED: &[u8] = b"{\"path\": [[0,2],[1,2],[1,3],[2,3],[3,3],[3,2],[4,2],[5,2]]}\n";

/// The same track as the text grid of rules 7.2.
const SOLVED_GRID: &[u8] = b"++++++\n+o...+\nSv.>>E\n+>>^O+\n++++++\n";

/// Straight across: the alien boards, but the car passes the house only on
/// (4,2), the cell before the exit, where no car is handled.
const STRAIGHT: &[u8] = b"{\"path\": [[0,2],[1,2],[2,2],[3,2],[4,2],[5,2]]}\n";

/// Jumps from (1,2) to (3,2): T3.
const JUMP: &[u8] = b"{\"path\": [[0,2],[1,2],[3,2],[4,2],[5,2]]}\n";

/// A level whose JSON lacks a comma after line 3.
const BAD_LEVEL: &[u8] = b"{\n  \"width\": 4,\n  \"height\": 3\n  \"length\": 1\n}\n";

/// A scratch folder `name` with the level as `tiny.json` and the tracks.
fn dir(name: &str) -> PathBuf {
    scratch(
        name,
        &[
            ("tiny.json", LEVEL),
            ("solved.json", SOLVED),
            ("solved.txt", SOLVED_GRID),
            ("straight.json", STRAIGHT),
            ("jump.json", JUMP),
            ("bad.json", BAD_LEVEL),
            ("badtrack.json", b"{\"path\": [[0,2],[1,2],\"x\"]}\n"),
        ],
    )
}

#[test]
fn ce_show() {
    let d = dir("ce_show");
    assert_cmd_snapshot!(&d, &["show", "tiny.json"]);
    assert_cmd_snapshot!(&d, &["show", "tiny.json", "solved.json"]);
}

#[test]
fn ce_show_level_on_stdin() {
    let d = dir("ce_show_stdin");
    let out = run_with_stdin(&d, &["show", "-"], LEVEL);
    assert!(
        out.starts_with("exit: 0\n--- stdout\n++++++\n+o...+\nS....E\n"),
        "{out}"
    );
}

#[test]
fn ce_verify() {
    let d = dir("ce_verify");
    assert_cmd_snapshot!(&d, &["verify", "tiny.json", "solved.json"]);
    assert_cmd_snapshot!(&d, &["verify", "tiny.json", "solved.txt", "--json"]);
    assert_cmd_snapshot!(&d, &["verify", "tiny.json", "straight.json"]);
    assert_cmd_snapshot!(&d, &["verify", "tiny.json", "jump.json", "--json"]);
}

#[test]
fn ce_verify_track_on_stdin() {
    let d = dir("ce_verify_stdin");
    let out = run_with_stdin(&d, &["verify", "tiny.json", "-"], SOLVED_GRID);
    assert!(out.starts_with("exit: 0\n--- stdout\nsolved: "), "{out}");
}

#[test]
fn ce_bad_input() {
    let d = dir("ce_bad_input");
    assert_cmd_snapshot!(&d, &["verify", "bad.json", "solved.json"]);
    assert_cmd_snapshot!(&d, &["verify", "tiny.json", "badtrack.json"]);
    assert_cmd_snapshot!(&d, &["verify", "tiny.json"]);
    assert_cmd_snapshot!(&d, &["show", "--puzzle", "frosted", "tiny.json"]);
    assert_cmd_snapshot!(&d, &["dump-cnf", "tiny.json", "--relaxed"]);
    std::fs::write(d.join("ff.txt"), "+> . ->\n").expect("a Freshly Frosted level");
    assert_cmd_snapshot!(&d, &["solve", "--puzzle", "cosmic", "ff.txt"]);
}

#[test]
fn ce_simulate() {
    let d = dir("ce_simulate");
    assert_cmd_snapshot!(&d, &["simulate", "tiny.json", "solved.json"]);
    assert_cmd_snapshot!(&d, &["simulate", "tiny.json", "straight.json"]);
    assert_cmd_snapshot!(&d, &["simulate", "tiny.json", "jump.json"]);
    assert_cmd_snapshot!(&d, &["simulate", "tiny.json", "solved.txt", "--ticks", "3"]);
}

#[test]
fn ce_solve() {
    let d = dir("ce_solve");
    for args in [
        &["solve", "--threads", "1", "tiny.json"][..],
        &["solve", "--threads", "1", "--json", "tiny.json"],
        &["solve", "--threads", "1", "--max-cost", "7", "tiny.json"],
        &[
            "solve",
            "--threads",
            "1",
            "--first",
            "--puzzle",
            "cosmic",
            "tiny.json",
        ],
    ] {
        snap!(run_in(&d, args), args);
    }
}

/// What `solve` prints on stdout is a track that `verify` reads, in both forms.
#[test]
fn ce_solve_then_verify() {
    let d = dir("ce_solve_verify");
    let solved = std::process::Command::new(env!("CARGO_BIN_EXE_frosted"))
        .args(["solve", "tiny.json"])
        .current_dir(&d)
        .output()
        .expect("solve");
    assert_eq!(solved.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&solved.stdout);
    let json = stdout.lines().last().expect("the JSON line");
    assert!(
        json.starts_with("{\"level\": \"tiny\", \"path\": "),
        "{json}"
    );
    for track in [stdout.as_ref(), json] {
        let out = run_with_stdin(&d, &["verify", "tiny.json", "-"], track.as_bytes());
        assert!(out.starts_with("exit: 0"), "{out}");
    }
}

#[test]
fn ce_dump_cnf_and_decode() {
    let d = dir("ce_dump");
    let dump = run_in(&d, &["dump-cnf", "tiny.json"]);
    let head: Vec<&str> = dump.lines().take(8).collect();
    insta::assert_snapshot!(head.join("\n"));
    assert_eq!(
        dump.lines().filter(|l| l.starts_with("c move ")).count(),
        30
    );
    // A model of that CNF (CaDiCaL's), and an UNSAT answer.
    let model = "s SATISFIABLE\nv 1 2 3 4 5 6 7 8 9 10 11 12 13 -14 -15 16 -17 -18 19 20 -21 \
                 -22 23 -24 -25 26\nv -27 28 -29 -30 -31 -32 33 -34 -35 36 -37 -38 39 -40 -41 \
                 42 -43 44 45 46 47\nv 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 \
                 66 67 68 69 70 71 72\nv 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 0\n";
    std::fs::write(d.join("model.txt"), model).expect("model");
    std::fs::write(d.join("unsat.txt"), "s UNSATISFIABLE\n").expect("unsat");
    assert_cmd_snapshot!(&d, &["decode", "tiny.json", "model.txt"]);
    assert_cmd_snapshot!(&d, &["decode", "tiny.json", "unsat.txt"]);
}

#[test]
fn ce_bench() {
    let d = scratch(
        "ce_bench",
        &[("tiny.json", LEVEL), ("tiny.path.json", SOLVED)],
    );
    let args = ["bench", "--json", "--threads", "1", "."];
    snap!(run_in(&d, &args), &args);
    let table = run_in(&d, &["bench", "--threads", "1", "."]);
    assert!(table.contains("status  cells iterations"), "{table}");
    // With a Freshly Frosted level beside it, the column is the `cost`;
    // `--puzzle` keeps the levels of one puzzle.
    std::fs::write(d.join("ff.txt"), "+> . ->\n").expect("a Freshly Frosted level");
    let mixed = run_in(&d, &["bench", "--threads", "1", "."]);
    assert!(mixed.contains("status   cost iterations"), "{mixed}");
    assert!(mixed.contains("total: 2 levels, 2 optimal"), "{mixed}");
    let only = run_in(&d, &["bench", "--threads", "1", "--puzzle", "frosted", "."]);
    assert!(only.contains("status  belts iterations"), "{only}");
    assert!(only.contains("total: 1 level, 1 optimal"), "{only}");
}

/// `../shared/ce-levels` (see [`crate::shared`]).
fn ce_levels() -> Option<PathBuf> {
    crate::shared("ce-levels")
}

/// `frosted verify --json` agrees with every verdict of the independent
/// judge: the exit code, `solved`, and for a broken track the rule (the
/// judge writes places as `[x, y]`, ours as `(x,y)`, so reasons are not
/// compared word for word).
#[test]
fn ce_verify_agrees_with_every_judged_verdict() {
    let Some(root) = ce_levels() else { return };
    let judged = root.join("judged");
    let lines = std::fs::read_to_string(judged.join("verdicts.jsonl")).expect("verdicts");
    let mut compared = 0;
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a verdict line");
        let level = root.join(v["level"].as_str().expect("level"));
        let track = judged.join(v["track"].as_str().expect("track"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_frosted"))
            .arg("verify")
            .arg(&level)
            .arg(&track)
            .arg("--json")
            .output()
            .expect("verify");
        let want = v["solved"].as_bool().expect("solved");
        let what = format!("{}: {line}", track.display());
        assert_eq!(out.status.code(), Some(if want { 0 } else { 1 }), "{what}");
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(got["solved"].as_bool(), Some(want), "{what}");
        let reason = v["reason"].as_str().expect("reason");
        if let Some(rule) = reason.get(..2).filter(|r| r.starts_with('T')) {
            assert_eq!(got["broken"].as_str(), Some(rule), "{what}");
        }
        compared += 1;
    }
    assert!(compared >= 255, "only {compared} verdicts");
}

/// A 14x14 open board with three aliens in far corners: its first SAT call
/// alone runs for many seconds (a long wandering track is possible anywhere).
fn open_board() -> String {
    let at = |x: u32, y: u32, what: &str| format!(r#"[{{"x": {x}, "y": {y}}}, {what}]"#);
    let entities = [
        at(2, 2, r#"{"Alien": {"color": "Purple"}}"#),
        at(13, 13, r#"{"House": {"color": "Purple"}}"#),
        at(13, 2, r#"{"Alien": {"color": "Orange"}}"#),
        at(2, 13, r#"{"House": {"color": "Orange"}}"#),
        at(7, 3, r#"{"Alien": {"color": "Green"}}"#),
        at(7, 12, r#"{"House": {"color": "Green"}}"#),
    ];
    format!(
        r#"{{"width": 14, "height": 14, "length": 2, "entrances": [{{"x": 0, "y": 7}}],
        "exits": [{{"x": 15, "y": 7}}], "entities": [{}]}}"#,
        entities.join(", ")
    )
}

/// Ctrl-C during a long Cosmic Express solve stops it as a timeout does: the
/// claim says so, with the best track so far (`solved`, exit 0, and
/// `verify` accepts it) or none yet (`unknown`, exit 3).
#[cfg(unix)]
#[test]
fn ce_solve_ctrl_c_reports_what_it_has() {
    let dir = scratch("ce_solve_ctrl_c", &[("open.json", open_board().as_bytes())]);
    let run = crate::interrupted_run(&dir, &["solve", "open.json"], libc::SIGINT, false, |l| {
        l.starts_with("progress:")
    });
    assert!(matches!(run.code, Some(0 | 3)), "{}", run.stderr);
    assert!(run.stderr.contains("claim: "), "{}", run.stderr);
    assert!(run.stderr.contains("interrupted before"), "{}", run.stderr);
    if run.code == Some(0) {
        std::fs::write(dir.join("track.txt"), &run.stdout).expect("write track");
        let verify = run_in(&dir, &["verify", "open.json", "track.txt"]);
        assert!(verify.starts_with("exit: 0"), "{verify}");
    }
}

/// Output that cannot be written is an error with exit 2 on Cosmic Express
/// levels too (every command writes through the same `out`).
#[test]
fn ce_output_that_cannot_be_written_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("SKIPPED: no /dev/full on this system");
        return;
    };
    let d = dir("ce_full");
    for args in [
        &["show", "tiny.json"][..],
        &["verify", "tiny.json", "solved.json"],
        &["simulate", "tiny.json", "solved.json"],
        &["solve", "tiny.json"],
        &["solve", "--json", "tiny.json"],
        &["dump-cnf", "tiny.json"],
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_frosted"))
            .args(args)
            .current_dir(&d)
            .stdout(full.try_clone().expect("a second handle on /dev/full"))
            .output()
            .expect("frosted runs");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: cannot write to stdout: "),
            "{args:?}: {stderr}"
        );
    }
}

//! `frosted dump-cnf`, and the external-solver path that starts from it.

use crate::{decode_gives_a_layout, run, run_in, scratch};
use std::path::Path;

#[test]
fn dump_cnf_header() {
    let args = ["dump-cnf", "levels/01-toppers/first-frosting.txt"];
    let out = run(&args);
    let head: Vec<&str> = out.lines().take(12).collect();
    snap!(head.join("\n"), &args);
    assert!(out.lines().any(|l| l.starts_with("p cnf ")));
}

/// The external-solver path end to end: dump the CNF, run Debian's `cadical` on
/// it, decode the model, and verify the layout; and solve through `cmd:cadical`.
#[test]
fn dump_solve_with_cadical_decode_verify() {
    if !crate::has_solver("cadical") {
        return;
    }
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/01-toppers/first-frosting.txt");
    let dir = scratch("cadical_round_trip", &[]);
    std::fs::copy(&level, dir.join("level.txt")).expect("copy level");
    let out = run_in(&dir, &["dump-cnf", "level.txt", "-o", "level.cnf"]);
    assert!(out.starts_with("exit: 0"), "{out}");
    let model = std::process::Command::new("cadical")
        .arg(dir.join("level.cnf"))
        .output()
        .expect("running cadical");
    assert_eq!(
        model.status.code(),
        Some(10),
        "cadical says SAT with exit code 10"
    );
    std::fs::write(dir.join("model.txt"), &model.stdout).expect("write model");
    decode_gives_a_layout(&dir, "the dumped CNF");
    let exe = env!("CARGO_BIN_EXE_frosted");

    let solved = std::process::Command::new(exe)
        .args(["solve", "--solver", "cmd:cadical", "level.txt"])
        .current_dir(&dir)
        .output()
        .expect("solve");
    assert_eq!(solved.status.code(), Some(0));
    std::fs::write(dir.join("solved.txt"), &solved.stdout).expect("write solved");
    let verify = run_in(&dir, &["verify", "level.txt", "solved.txt"]);
    assert!(verify.starts_with("exit: 0"), "{verify}");
    assert!(String::from_utf8_lossy(&solved.stderr).contains("status: optimal"));
}

/// MiniSat prints no model: it writes `SAT` and the model to a result file,
/// which `decode` reads as well.
#[test]
fn dump_solve_with_minisat_decode_verify() {
    if !crate::has_solver("minisat") {
        return;
    }
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/01-toppers/first-frosting.txt");
    let dir = scratch("minisat_round_trip", &[]);
    std::fs::copy(&level, dir.join("level.txt")).expect("copy level");
    let out = run_in(&dir, &["dump-cnf", "level.txt", "-o", "level.cnf"]);
    assert!(out.starts_with("exit: 0"), "{out}");
    let ran = std::process::Command::new("minisat")
        .args(["level.cnf", "model.txt"])
        .current_dir(&dir)
        .output()
        .expect("running minisat");
    assert_eq!(
        ran.status.code(),
        Some(10),
        "minisat says SAT with exit code 10"
    );
    let result = std::fs::read_to_string(dir.join("model.txt")).expect("the result file");
    assert!(result.starts_with("SAT\n"), "{result}");
    decode_gives_a_layout(&dir, "the dumped CNF, by minisat");
}

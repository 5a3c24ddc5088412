//! `frosted dump-cnf`, and the external-solver path that starts from it.

use crate::{decode_gives_a_layout, run, run_in, scratch};
use std::path::{Path, PathBuf};

/// A scratch folder `name` holding the repository's level `relative` as
/// `level.txt`.
fn level_in_scratch(name: &str, relative: &str) -> PathBuf {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let dir = scratch(name, &[]);
    std::fs::copy(&level, dir.join("level.txt")).expect("copy level");
    dir
}

/// Debian's `cadical` on `dir/level.cnf`: its exit code (10 SAT, 20 UNSAT),
/// with its output written to `dir/model.txt` for `decode`.
fn cadical(dir: &Path) -> Option<i32> {
    let ran = std::process::Command::new("cadical")
        .arg(dir.join("level.cnf"))
        .output()
        .expect("running cadical");
    std::fs::write(dir.join("model.txt"), &ran.stdout).expect("write model");
    ran.status.code()
}

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
    let dir = level_in_scratch("cadical_round_trip", "levels/01-toppers/first-frosting.txt");
    let out = run_in(&dir, &["dump-cnf", "level.txt", "-o", "level.cnf"]);
    assert!(out.starts_with("exit: 0"), "{out}");
    assert_eq!(
        cadical(&dir),
        Some(10),
        "cadical says SAT with exit code 10"
    );
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
    let dir = level_in_scratch("minisat_round_trip", "levels/01-toppers/first-frosting.txt");
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

/// `--ranks` writes the racing copies' view (the ranks in place of C7′):
/// more clauses on a level with ranks, and the same clauses (and a comment
/// saying so) on a level without.
#[test]
fn ranks_view_replaces_c7_prime() {
    let clauses = |args: &[&str]| -> (usize, String) {
        let out = run(args);
        assert!(out.starts_with("exit: 0"), "{out}");
        let p = out
            .lines()
            .find(|l| l.starts_with("p cnf "))
            .expect("p line");
        let n = p
            .split_whitespace()
            .nth(3)
            .expect("count")
            .parse()
            .expect("number");
        (n, out)
    };
    let fork = "levels/06-splitters/fork.txt";
    let (acyclic, _) = clauses(&["dump-cnf", fork]);
    let (ranked, text) = clauses(&["dump-cnf", "--ranks", fork]);
    assert!(
        acyclic < ranked,
        "{ranked} clauses with --ranks, {acyclic} without"
    );
    assert!(text.contains("c loops grounded by ranks (C7) instead of vertex elimination"));
    let plain = "levels/01-toppers/first-frosting.txt";
    let (acyclic, _) = clauses(&["dump-cnf", plain]);
    let (ranked, text) = clauses(&["dump-cnf", "--ranks", plain]);
    assert_eq!(acyclic, ranked);
    assert!(text.contains("c no exact ranks"));
}

/// Both views of the pure relaxation give Debian's `cadical` the same answer,
/// at the optimum and one belt under it, on every example level with ranks;
/// and a model of the `--ranks` view decodes to a layout.
#[test]
fn both_views_agree_under_cadical() {
    if !crate::has_solver("cadical") {
        return;
    }
    let levels = [
        "06-splitters/fork",
        "06-splitters/three-ways",
        "11-one-to-many/copies-count-once",
        "11-one-to-many/three-copies",
        "11-one-to-many/two-copies",
    ];
    for name in levels {
        let dir = level_in_scratch(
            &format!("views_{}", name.replace('/', "_")),
            &format!("levels/{name}.txt"),
        );
        let solved = run_in(&dir, &["solve", "--json", "level.txt"]);
        assert!(solved.starts_with("exit: 0"), "{name}: {solved}");
        let json = solved
            .lines()
            .find(|l| l.starts_with('{'))
            .expect("the JSON line");
        let report: serde_json::Value = serde_json::from_str(json).expect("JSON");
        assert_eq!(report["status"], "optimal", "{name}");
        let best = report["belts"].as_u64().expect("belts") as usize;
        for k in [best - 1, best] {
            let mut answers = Vec::new();
            for view in [None, Some("--ranks")] {
                let kk = k.to_string();
                let mut args = vec!["dump-cnf", "--relaxed", "--max-belts", &kk, "level.txt"];
                args.extend(view);
                args.extend(["-o", "level.cnf"]);
                let out = run_in(&dir, &args);
                assert!(out.starts_with("exit: 0"), "{out}");
                answers.push(cadical(&dir));
                if k == best && view.is_some() {
                    decode_gives_a_layout(&dir, "the --ranks CNF");
                }
            }
            assert_eq!(
                answers[0], answers[1],
                "{name} with at most {k} belts: acyclic, ranks"
            );
            if k == best {
                assert_eq!(answers[0], Some(10), "{name}: SAT at the optimum");
            }
        }
    }
}

#[test]
fn assume_not_a_free_cell() {
    assert_cmd_snapshot!(&[
        "dump-cnf",
        "--assume",
        "2,1=up",
        "levels/06-splitters/fork.txt"
    ]);
}

#[test]
fn assume_off_the_grid() {
    assert_cmd_snapshot!(&[
        "dump-cnf",
        "--assume",
        "5,0=up",
        "levels/06-splitters/fork.txt"
    ]);
}

#[test]
fn assume_bad_option() {
    assert_cmd_snapshot!(&[
        "dump-cnf",
        "--assume",
        "1,1=sideways",
        "levels/06-splitters/fork.txt"
    ]);
}

#[test]
fn assume_bad_form() {
    assert_cmd_snapshot!(&[
        "dump-cnf",
        "--assume",
        "1,1",
        "levels/06-splitters/fork.txt"
    ]);
}

/// `--assume` fixes cells: the facts hold in cadical's model (read back by
/// `decode`), and denying a belt that every solution needs (the splitter's
/// left exit must turn up to the left target) leaves no model.
#[test]
fn assumed_cells_hold_in_the_model() {
    if !crate::has_solver("cadical") {
        return;
    }
    let dir = level_in_scratch("assume_round_trip", "levels/06-splitters/fork.txt");
    let solve = |facts: &[&str]| -> (Option<i32>, String) {
        let mut args = vec!["dump-cnf", "level.txt", "-o", "level.cnf"];
        for f in facts {
            args.extend(["--assume", f]);
        }
        let out = run_in(&dir, &args);
        assert!(out.starts_with("exit: 0"), "{out}");
        let cnf = std::fs::read_to_string(dir.join("level.cnf")).expect("the CNF");
        assert!(
            cnf.contains(&format!("c assumed: {}", facts.join(" "))),
            "{cnf}"
        );
        let code = cadical(&dir);
        (code, run_in(&dir, &["decode", "level.txt", "model.txt"]))
    };
    let (code, decoded) = solve(&["1,1=up", "3,1=up", "4,1=none"]);
    assert_eq!(code, Some(10), "{decoded}");
    let row1: Vec<&str> = decoded
        .lines()
        .find(|l| l.contains("x^") && !l.starts_with(':'))
        .expect("the splitter's row")
        .split_whitespace()
        .collect();
    assert_eq!(row1, [".", "^", "x^", "^", "."], "{decoded}");
    let (code, decoded) = solve(&["1,1!=up"]);
    assert_eq!(code, Some(20), "{decoded}");
    assert!(decoded.contains("UNSATISFIABLE"), "{decoded}");
}

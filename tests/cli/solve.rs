//! `frosted solve`. Timings are replaced by `[time]` so the snapshots are
//! stable (`crate::normalize`).

use crate::{command_line, decode_gives_a_layout, normalize, run, run_in, scratch, RepoLevel};
use std::path::Path;

#[test]
fn solve_every_example_level() {
    insta::glob!("../../levels", "*/*.txt", |path| {
        let Some(l) = RepoLevel::from_glob(path) else {
            return;
        };
        let args = ["solve", l.level.as_str()];
        insta::with_settings!({ snapshot_suffix => l.suffix.as_str(), description => command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(normalize(&run(&args)));
        });
    });
}

#[test]
fn solve_json() {
    let args = ["solve", "--json", "levels/01-toppers/first-frosting.txt"];
    snap!(run(&args), &args);
}

/// Without the chain bound the same level is proved optimal by an UNSAT
/// answer: the claim and the proof's `by` say which.
#[test]
fn solve_json_without_the_chain_bound() {
    let args = [
        "solve",
        "--json",
        "--no-chain-bound",
        "levels/01-toppers/first-frosting.txt",
    ];
    snap!(run(&args), &args);
}

#[test]
fn solve_first_and_max_belts() {
    let args = ["solve", "--first", "levels/02-several/three-sources.txt"];
    let out = run(&args);
    assert!(out.starts_with("exit: 0"), "{out}");
    let args = [
        "solve",
        "--max-belts",
        "2",
        "levels/01-toppers/whipped-cream.txt",
    ];
    snap!(run(&args), &args);
}

#[test]
fn solve_bad_solver() {
    let args = [
        "solve",
        "--solver",
        "nope",
        "levels/01-toppers/first-frosting.txt",
    ];
    snap!(run(&args), &args);
}

#[test]
fn solve_threads() {
    // None, and more than 64 copies, are refused before any starts; two
    // racing solvers: the summary names them, the answer is the same.
    for n in ["0", "65", "2"] {
        let args = [
            "solve",
            "--threads",
            n,
            "levels/01-toppers/first-frosting.txt",
        ];
        snap!(run(&args), &args);
    }
}

/// Timeouts that are not a positive number of seconds, or longer than a year
/// (which `Duration` and `Instant` arithmetic could not hold), are bad input.
#[test]
fn solve_bad_timeouts() {
    for t in ["0", "-1", "nan", "inf", "1e300"] {
        let args = [
            "solve",
            "--timeout",
            t,
            "levels/01-toppers/first-frosting.txt",
        ];
        insta::with_settings!({ snapshot_suffix => t, description => command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(run(&args));
        });
    }
}

#[test]
fn solve_bad_level() {
    let dir = scratch("solve_bad_level", &[("bad.txt", b"+> ?? ->\n")]);
    let args = ["solve", "bad.txt"];
    snap!(run_in(&dir, &args), &args);
}

#[test]
fn solve_unsolvable() {
    let dir = scratch(
        "solve_unsolvable",
        // A wall between the source and the target: no plain argument of
        // the level check applies, so the chain bound (then a SAT call)
        // proves it.
        &[("impossible.txt", b"+>  .   #   .   ->\n.   .   #   .   .\n")],
    );
    let args = ["solve", "impossible.txt"];
    snap!(run_in(&dir, &args), &args);
    // The same proof by a SAT call.
    let args = ["solve", "--no-chain-bound", "impossible.txt"];
    snap!(run_in(&dir, &args), &args);
}

/// A scratch folder `name` with `level.txt` (one belt to place) and a
/// "solver" script that waits three seconds and answers UNSAT, and the
/// `--solver` value that runs it.
#[cfg(unix)]
fn slow_unsat_solver(name: &str) -> (std::path::PathBuf, String) {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch(
        name,
        &[
            ("slow.sh", b"#!/bin/sh\nsleep 3\necho 's UNSATISFIABLE'\n"),
            ("level.txt", b"+>  .   ->\n"),
        ],
    );
    let script = dir.join("slow.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("make the script executable");
    let solver = format!("cmd:{}", script.display());
    (dir, solver)
}

/// A SAT call that runs for long still gets progress lines on stderr, which
/// say how long the call has been running. The "solver" here is a script that
/// waits three seconds and answers UNSAT.
#[cfg(unix)]
#[test]
fn progress_lines_during_a_long_sat_call() {
    let (dir, solver) = slow_unsat_solver("progress_long_call");
    let out = run_in(
        &dir,
        &[
            "solve",
            "--solver",
            &solver,
            "--threads",
            "1",
            "--no-focus",
            "--no-sketch",
            "--no-explain",
            "level.txt",
        ],
    );
    assert!(out.starts_with("exit: 1"), "{out}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("progress:")).collect();
    assert!(
        !lines.is_empty(),
        "no progress line in three seconds:\n{out}"
    );
    assert!(
        lines
            .iter()
            .all(|l| l.contains("SAT call running for") && l.contains("best none")),
        "{out}"
    );
}

/// The explanation after an `unsolvable` verdict gets progress lines too:
/// the first says the verdict is in and how to cut it short. The "solver"
/// answers UNSAT after three seconds, so the solve proves the level
/// unsolvable and each question of the explanation takes as long.
#[cfg(unix)]
#[test]
fn progress_lines_while_explaining() {
    let (dir, solver) = slow_unsat_solver("progress_explaining");
    let args = [
        "solve",
        "--solver",
        &solver,
        "--threads",
        "1",
        "--no-focus",
        "--no-sketch",
        "--no-chain-bound",
        "--explain-timeout",
        "3",
        "level.txt",
    ];
    let out = run_in(&dir, &args);
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(out.contains("status: unsolvable"), "{out}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("progress: explaining for"))
        .collect();
    assert!(
        !lines.is_empty(),
        "no explaining line in three seconds:\n{out}"
    );
    assert!(
        lines[0].contains("the level is proved unsolvable") && lines[0].contains("--no-explain"),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .all(|l| l.contains("question") && l.contains("SAT calls")),
        "{out}"
    );
}

/// `--dump-calls`: one DIMACS file per SAT call, each the whole formula of its
/// call. Solved afresh, every file gives the answer the loop's incremental
/// solver gave that call (read from `--debug-trace`), and `decode` reads a
/// model of one.
#[test]
fn solve_dump_calls_replays_every_call() {
    use frosted::sat::{Answer, Backend, VarisatBackend};
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/01-toppers/first-frosting.txt");
    let dir = scratch("solve_dump_calls", &[]);
    std::fs::copy(&level, dir.join("level.txt")).expect("copy level");
    let exe = env!("CARGO_BIN_EXE_frosted");
    let solved = std::process::Command::new(exe)
        .args([
            "solve",
            "--json",
            "--threads",
            "1",
            "--no-focus",
            "--no-sketch",
            // The last call must be the proof, not the chain bound.
            "--no-chain-bound",
            "--dump-calls",
            "calls",
            "--debug-trace",
            "level.txt",
        ])
        .current_dir(&dir)
        .output()
        .expect("solve");
    assert_eq!(solved.status.code(), Some(0));
    let report: serde_json::Value =
        serde_json::from_slice(&solved.stdout).expect("solve --json prints JSON");
    assert_eq!(report["status"], "optimal");
    let iterations = report["iterations"].as_u64().expect("iterations") as usize;
    let traced: Vec<bool> = String::from_utf8_lossy(&solved.stderr)
        .lines()
        .filter(|l| l.starts_with("trace: iteration "))
        .map(|l| l.contains(": sat in "))
        .collect();
    assert_eq!(traced.len(), iterations);

    let mut names: Vec<String> = std::fs::read_dir(dir.join("calls"))
        .expect("the folder was created")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    let expected: Vec<String> = (1..=iterations)
        .map(|k| format!("call-{k:04}.cnf"))
        .collect();
    assert_eq!(names, expected);

    let mut first_model = None;
    for (k, (name, &sat)) in names.iter().zip(&traced).enumerate() {
        let path = dir.join("calls").join(name);
        let text = std::fs::read_to_string(&path).expect("read dump");
        assert!(text.contains(&format!("c call {}: ", k + 1)), "{name}");
        assert!(
            text.contains("c choice 1 "),
            "{name} names the belt variables"
        );
        let inst = rustsat::instances::SatInstance::<rustsat::instances::BasicVarManager>::from_dimacs_path(&path)
            .expect("the dump is DIMACS");
        let mut solver = VarisatBackend::default();
        for cl in inst.cnf().iter() {
            solver.add_clause(cl);
        }
        let n_vars = inst.n_vars();
        match solver.solve(&[], n_vars, None).expect("varisat runs") {
            Answer::Sat(model) => {
                assert!(sat, "{name}: SAT afresh, UNSAT in the loop");
                first_model.get_or_insert((name.clone(), model));
            }
            Answer::Unsat => assert!(!sat, "{name}: UNSAT afresh, SAT in the loop"),
            Answer::Unknown => panic!("{name}: no answer"),
        }
    }
    // The last call is the proof one belt below the optimum.
    assert_eq!(traced.last(), Some(&false));

    let (name, model) = first_model.expect("some call was satisfiable");
    let v: Vec<String> = model
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if b {
                format!("{}", i + 1)
            } else {
                format!("-{}", i + 1)
            }
        })
        .collect();
    std::fs::write(
        dir.join("model.txt"),
        format!("s SATISFIABLE\nv {} 0\n", v.join(" ")),
    )
    .expect("write model");
    decode_gives_a_layout(&dir, &name);
}

/// The chain bound refutes 36 belts on 09-tropical-rain/11: `unsolvable`
/// within the bound, exit 1, and the proof says by what. Its search needs
/// more than the slice the loop waits for, so it finishes beside the first
/// SAT call (which finds nothing: no layout has 36 belts) and interrupts it:
/// at most that one call, and no layout rejected.
#[test]
fn solve_max_belts_refuted_by_the_chain_bound() {
    let Some(dir) = crate::real_level_in_scratch("solve_chain_bound", "09-tropical-rain/11.txt")
    else {
        return;
    };
    let args = [
        "solve",
        "--json",
        "--no-explain",
        "--max-belts",
        "36",
        "level.txt",
    ];
    let out = run_in(&dir, &args);
    assert!(out.starts_with("exit: 1"), "{out}");
    let json = out
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("a JSON line");
    let report: serde_json::Value = serde_json::from_str(json).expect("JSON");
    assert_eq!(report["status"], "unsolvable");
    let calls = report["iterations"].as_u64().expect("iterations");
    assert!(calls <= 1, "{out}");
    assert_eq!(report["counterexamples"], 0, "{out}");
    assert_eq!(report["proof"]["max_belts"], 36);
    assert_eq!(report["proof"]["by"], "chain bound");
    assert_eq!(
        report["claim"],
        "proved by the chain bound: no layout with at most 36 belts solves the level"
    );
}

/// Ctrl-C during a long solve (09-tropical-rain/11 without the chain bound,
/// whose proof does not end) reports the best verified layout as `solved`, exit 0, and the layout
/// on stdout solves the level.
#[cfg(unix)]
#[test]
fn solve_ctrl_c_reports_the_best_layout() {
    let Some(dir) = crate::real_level_in_scratch("solve_ctrl_c", "09-tropical-rain/11.txt") else {
        return;
    };
    // Interrupt once a layout is known (a progress line says "best N belts").
    let run = crate::interrupted_run(
        &dir,
        &["solve", "--no-chain-bound", "level.txt"],
        libc::SIGINT,
        false,
        |l| l.starts_with("progress:") && !l.contains("best none"),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("\nstatus: solved\n"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("claim: verified by the simulator; interrupted before proving it minimal"),
        "{}",
        run.stderr
    );
    std::fs::write(dir.join("layout.txt"), &run.stdout).expect("write layout");
    let verify = run_in(&dir, &["verify", "level.txt", "layout.txt"]);
    assert!(verify.starts_with("exit: 0"), "{verify}");
}

/// SIGTERM (what `timeout` sends) before any layout: `unknown`, exit 3, and
/// the claim says so (at most 36 belts on 09-tropical-rain/11 without the
/// chain bound: no call ends for minutes).
#[cfg(unix)]
#[test]
fn solve_ctrl_c_before_a_layout_is_unknown() {
    let Some(dir) = crate::real_level_in_scratch("solve_ctrl_c_unknown", "09-tropical-rain/11.txt")
    else {
        return;
    };
    let run = crate::interrupted_run(
        &dir,
        &[
            "solve",
            "--json",
            "--no-chain-bound",
            "--max-belts",
            "36",
            "level.txt",
        ],
        libc::SIGTERM,
        false,
        |l| l.starts_with("progress:"),
    );
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(report["status"], "unknown");
    assert_eq!(report["claim"], "interrupted before a layout or a proof");
    assert_eq!(report["layout"], serde_json::Value::Null);
}

/// A Ctrl-C that reaches only `frosted` (not its process group) still stops
/// the `cmd:cadical` call running at that moment: no solver is left running
/// on, and its CNF file is removed.
#[cfg(unix)]
#[test]
fn solve_ctrl_c_stops_a_command_solver() {
    if !crate::has_solver("cadical") {
        return;
    }
    let Some(dir) = crate::real_level_in_scratch("solve_ctrl_c_cmd", "09-tropical-rain/11.txt")
    else {
        return;
    };
    let run = crate::interrupted_run(
        &dir,
        &[
            "solve",
            "--no-chain-bound",
            "--solver",
            "cmd:cadical",
            "level.txt",
        ],
        libc::SIGINT,
        false,
        |l| l.contains("SAT call running for"),
    );
    assert!(matches!(run.code, Some(0 | 3)), "{}", run.stderr);
    assert!(run.stderr.contains("interrupted before"), "{}", run.stderr);
    // The backend names its files `cegar-PID-STAMP.cnf`.
    let prefix = format!("cegar-{}-", run.pid);
    let left: Vec<String> = std::fs::read_dir(std::env::temp_dir())
        .expect("the temporary folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with(&prefix))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A solve stopped by its timeout says what the chain bound proves below
/// its best layout (or below any size, without one): on the generated
/// level far-002, whose proof takes the loop close to a minute, a 2-second
/// solve ends `solved` (or `unknown`) with a `"bound"` under the layout's
/// belts, named in the claim; with `--no-chain-bound` there is none.
#[test]
fn a_stopped_solve_says_what_the_chain_bound_proves_below_it() {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/generated/far-002.txt");
    let level = level.to_str().expect("a UTF-8 path");
    let free = std::fs::read_to_string(level)
        .expect("far-002 is in the repository")
        .lines()
        .filter(|l| !l.starts_with(':'))
        .flat_map(str::split_whitespace)
        .filter(|t| *t == ".")
        .count();
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "--json", "--no-explain", "--timeout", "2", level];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(
            out.starts_with("exit: 0") || out.starts_with("exit: 3"),
            "{out}"
        );
        let json = out
            .lines()
            .find(|l| l.starts_with('{'))
            .expect("a JSON line");
        let report: serde_json::Value = serde_json::from_str(json).expect("JSON");
        (report, out)
    };
    let (report, out) = solve(&[]);
    let status = report["status"].as_str().expect("a status");
    assert!(["solved", "unknown"].contains(&status), "{out}");
    assert_eq!(report["bound"]["by"], "chain bound", "{out}");
    let k = report["bound"]["max_belts"].as_u64().expect("a belt count") as usize;
    // The bound lies under the layout found (or under the `.` cells).
    let top = report["belts"].as_u64().map_or(free, |b| b as usize - 1);
    assert!(k < top, "{out}");
    let words =
        format!("; proved by the chain bound: no layout with at most {k} belts solves the level");
    assert!(
        report["claim"]
            .as_str()
            .is_some_and(|c| c.ends_with(&words)),
        "{out}"
    );
    let (plain, out) = solve(&["--no-chain-bound"]);
    assert_eq!(plain["bound"], serde_json::Value::Null, "{out}");
    assert!(
        !plain["claim"]
            .as_str()
            .unwrap_or("")
            .contains("chain bound"),
        "{out}"
    );
}

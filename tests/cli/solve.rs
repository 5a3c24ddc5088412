//! `frosted solve`, `dump-cnf`, `decode` and `bench`. Timings are replaced by
//! `[time]` so the snapshots are stable.

use crate::{command_line, run, run_in, scratch};
use std::path::Path;

/// Replaces every number of seconds (`1.234s`, `"seconds":1.2`, table columns)
/// by a placeholder.
fn normalize(s: &str) -> String {
    s.lines()
        .map(|l| {
            if l.starts_with("time:") {
                "time: [time]".to_string()
            } else if l.starts_with("sat time:") {
                // Keep the words (was a layout found?), hide the seconds.
                l.split(' ')
                    .map(|w| {
                        let core = w.trim_end_matches([',', ';']);
                        match core.strip_suffix('s').map(str::parse::<f64>) {
                            Some(Ok(_)) => format!("[time]{}", &w[core.len()..]),
                            _ => w.to_string(),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            } else if l.starts_with("progress:") {
                String::new()
            } else {
                let mut out = String::new();
                let mut rest = l;
                let keys = [
                    "\"seconds\":",
                    "\"best_seconds\":",
                    "\"encode\":",
                    "\"sat\":",
                    "\"searching\":",
                    "\"improving\":",
                    "\"proving\":",
                    "\"simulate\":",
                ];
                while let Some((i, key)) = keys
                    .iter()
                    .filter_map(|k| rest.find(k).map(|i| (i, k)))
                    .min()
                {
                    out.push_str(&rest[..i + key.len()]);
                    rest = &rest[i + key.len()..];
                    let end = rest.find([',', '}']).unwrap_or(rest.len());
                    out.push_str("[time]");
                    rest = &rest[end..];
                }
                out.push_str(rest);
                out
            }
        })
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

macro_rules! snap {
    ($text:expr, $args:expr) => {
        insta::with_settings!({ description => command_line($args), omit_expression => true }, {
            insta::assert_snapshot!(normalize(&$text));
        });
    };
}

#[test]
fn solve_every_example_level() {
    insta::glob!("../../levels", "*/*.txt", |path| {
        let name = path.to_string_lossy().to_string();
        if name.ends_with(".solution.txt") || name.ends_with(".wrong.txt") {
            return;
        }
        let rel = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .to_string_lossy()
            .to_string();
        let world = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let args = ["solve", rel.as_str()];
        insta::with_settings!({ snapshot_suffix => format!("{world}__{stem}"), description => command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(normalize(&run(&args)));
        });
    });
}

#[test]
fn solve_json() {
    let args = ["solve", "--json", "levels/01-toppers/first-frosting.txt"];
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
    let args = [
        "solve",
        "--threads",
        "0",
        "levels/01-toppers/first-frosting.txt",
    ];
    snap!(run(&args), &args);
    // Two racing solvers: the summary names them, the answer is the same.
    let args = [
        "solve",
        "--threads",
        "2",
        "levels/01-toppers/first-frosting.txt",
    ];
    snap!(run(&args), &args);
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
        &[("impossible.txt", b"+>  .   .   -<\n.   .   .   .\n")],
    );
    let args = ["solve", "impossible.txt"];
    snap!(run_in(&dir, &args), &args);
}

#[test]
fn dump_cnf_header() {
    let args = ["dump-cnf", "levels/01-toppers/first-frosting.txt"];
    let out = run(&args);
    let head: Vec<&str> = out.lines().take(12).collect();
    snap!(head.join("\n"), &args);
    assert!(out.lines().any(|l| l.starts_with("p cnf ")));
}

#[test]
fn decode_errors() {
    let dir = scratch(
        "decode_errors",
        &[
            ("level.txt", b"+>  .   ->\n"),
            ("unsat.txt", b"s UNSATISFIABLE\n"),
            ("garbage.txt", b"hello\n"),
        ],
    );
    for model in ["unsat.txt", "garbage.txt", "missing.txt"] {
        let args = ["decode", "level.txt", model];
        let out = run_in(&dir, &args);
        insta::with_settings!({ snapshot_suffix => model.replace('.', "_"), description => command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(out);
        });
    }
}

/// `frosted decode level.txt model.txt` in `dir` succeeds, and `verify` judges
/// what it prints as a layout of the level (solved or not, but no bad input).
fn decode_gives_a_layout(dir: &Path, model_of: &str) {
    let decoded = std::process::Command::new(env!("CARGO_BIN_EXE_frosted"))
        .args(["decode", "level.txt", "model.txt"])
        .current_dir(dir)
        .output()
        .expect("decode");
    assert_eq!(
        decoded.status.code(),
        Some(0),
        "decoding the model of {model_of}"
    );
    std::fs::write(dir.join("layout.txt"), &decoded.stdout).expect("write layout");
    let verify = run_in(dir, &["verify", "level.txt", "layout.txt"]);
    assert!(
        verify.starts_with("exit: 0") || verify.starts_with("exit: 1"),
        "decode gave a layout of the level: {verify}"
    );
}

/// The external-solver path end to end: dump the CNF, run Debian's `cadical` on
/// it, decode the model, and verify the layout; and solve through `cmd:cadical`.
#[test]
fn dump_solve_with_cadical_decode_verify() {
    if std::process::Command::new("cadical")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but `cadical` is not installed"
        );
        eprintln!("SKIPPED: no `cadical` binary on PATH (apt-get install cadical)");
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

#[test]
fn bench_table() {
    let args = ["bench", "levels/03-targets-flag"];
    let out = run(&args);
    // Seconds vary: keep the level, status, belts and iterations columns,
    // and drop the two time columns (seconds, best at).
    let table: Vec<String> = out
        .lines()
        .map(|l| {
            if l.starts_with("exit:") || l.starts_with("---") || l.trim().is_empty() {
                l.to_string()
            } else if l.starts_with("total:") || l.contains("mixed statuses") {
                l.rsplit_once(',')
                    .map_or(l.to_string(), |(a, _)| format!("{a}, [time]"))
            } else if l.starts_with("level ") {
                l.trim_end_matches("best at")
                    .trim_end()
                    .trim_end_matches("seconds")
                    .trim_end()
                    .to_string()
            } else {
                let cols: Vec<&str> = l.split_whitespace().collect();
                assert!(cols.len() >= 6, "a row with its time columns: {l}");
                let times = &cols[cols.len() - 2..];
                assert!(times[0].parse::<f64>().is_ok(), "seconds: {l}");
                assert!(
                    times[1] == "-" || times[1].parse::<f64>().is_ok(),
                    "best at: {l}"
                );
                let keep = l.trim_end();
                let keep = keep[..keep.len() - times[1].len()].trim_end();
                keep[..keep.len() - times[0].len()].trim_end().to_string()
            }
        })
        .collect();
    snap!(table.join("\n"), &args);
}

/// `--seeds 2`: every level twice, median, fastest and slowest times.
#[test]
fn bench_seeds() {
    let args = ["bench", "--seeds", "2", "--json", "levels/03-targets-flag"];
    let out = run(&args);
    let json = out
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("a JSON line");
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let levels = v["levels"].as_array().expect("levels");
    assert!(!levels.is_empty());
    for l in levels {
        assert_eq!(l["statuses"].as_array().map(Vec::len), Some(2), "{l}");
        let (f, m, s) = (
            l["fastest"].as_f64().expect("fastest"),
            l["seconds"].as_f64().expect("seconds"),
            l["slowest"].as_f64().expect("slowest"),
        );
        assert!(f <= m && m <= s, "{l}");
        assert_ne!(l["status"], "error", "{l}");
    }
    assert_eq!(v["totals"]["mixed"], 0);
    let args = ["bench", "--seeds", "0", "levels/03-targets-flag"];
    snap!(run(&args), &args);
}

/// A SAT call that runs for long still gets progress lines on stderr, which
/// say how long the call has been running. The "solver" here is a script that
/// waits three seconds and answers UNSAT.
#[cfg(unix)]
#[test]
fn progress_lines_during_a_long_sat_call() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch(
        "progress_long_call",
        &[
            ("slow.sh", b"#!/bin/sh\nsleep 3\necho 's UNSATISFIABLE'\n"),
            ("level.txt", b"+>  .   ->\n"),
        ],
    );
    let script = dir.join("slow.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("make the script executable");
    let solver = format!("cmd:{}", script.display());
    let out = run_in(
        &dir,
        &["solve", "--solver", &solver, "--threads", "1", "level.txt"],
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

/// `--dump-calls`: one DIMACS file per SAT call, each the whole formula of its
/// call. Solved afresh, every file gives the answer the loop's incremental
/// solver gave that call (read from `FROSTED_TRACE`), and `decode` reads a
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
            "--dump-calls",
            "calls",
            "level.txt",
        ])
        .env("FROSTED_TRACE", "1")
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

//! `frosted bench`. Its time columns vary and are dropped or replaced by
//! `[time]`.

use crate::{command_line, run, run_in, scratch};

#[test]
fn bench_table() {
    let args = ["bench", "levels/03-targets-flag"];
    let out = run(&args);
    // Seconds vary: keep the level, status, belts, iterations and "at
    // least" columns, and drop the two time columns (seconds, best at).
    let table: Vec<String> = out
        .lines()
        .map(|l| {
            if l.starts_with("exit:") || l.starts_with("---") || l.trim().is_empty() {
                l.to_string()
            } else if l.starts_with("proofs:") {
                // `proofs: N of M levels proved (...); median ..., max ...`
                l.split_once("; ")
                    .map_or(l.to_string(), |(a, _)| format!("{a}; [times]"))
            } else if l.starts_with("total:") || l.contains("mixed statuses") {
                l.rsplit_once(',')
                    .map_or(l.to_string(), |(a, _)| format!("{a}, [time]"))
            } else if l.starts_with("level ") {
                let head = l
                    .trim_end()
                    .trim_end_matches("at least")
                    .trim_end()
                    .trim_end_matches("best at")
                    .trim_end()
                    .trim_end_matches("seconds")
                    .trim_end();
                format!("{head} at least")
            } else {
                let cols: Vec<&str> = l.split_whitespace().collect();
                assert!(cols.len() >= 7, "a row with its time columns: {l}");
                let [seconds, best, at_least] = cols[cols.len() - 3..] else {
                    unreachable!("three columns")
                };
                assert!(seconds.parse::<f64>().is_ok(), "seconds: {l}");
                assert!(best == "-" || best.parse::<f64>().is_ok(), "best at: {l}");
                let mut keep = l.trim_end();
                for col in [at_least, best, seconds] {
                    keep = keep[..keep.len() - col.len()].trim_end();
                }
                format!("{keep} {at_least:>8}")
            }
        })
        .collect();
    snap!(table.join("\n"), &args);
}

/// The JSON object of a `bench --json` run's output.
fn bench_json(out: &str) -> serde_json::Value {
    let json = out
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("a JSON line");
    serde_json::from_str(json).expect("JSON")
}

/// `--seeds 2`: every level twice, median, fastest and slowest times.
#[test]
fn bench_seeds() {
    let args = ["bench", "--seeds", "2", "--json", "levels/03-targets-flag"];
    let out = run(&args);
    let v = bench_json(&out);
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
    // Every level was proved (the folder's levels are small), so the
    // figures are times, in order, and the slowest is the slowest level's.
    let totals = &v["totals"];
    let proofs = &totals["proofs"];
    let proved = totals["optimal"]
        .as_u64()
        .zip(totals["unsolvable"].as_u64());
    assert_eq!(
        proofs["proved"].as_u64(),
        proved.map(|(o, u)| o + u),
        "{proofs}"
    );
    assert_eq!(
        proofs["proved"].as_u64(),
        Some(levels.len() as u64),
        "{proofs}"
    );
    let figure = |k: &str| {
        proofs[k]
            .as_f64()
            .unwrap_or_else(|| panic!("{k}: {proofs}"))
    };
    assert!(
        figure("median") <= figure("p90") && figure("p90") <= figure("max"),
        "{proofs}"
    );
    let slowest = levels
        .iter()
        .filter_map(|l| l["seconds"].as_f64())
        .fold(0.0, f64::max);
    assert_eq!(figure("max"), slowest, "{proofs}");
    let args = ["bench", "--seeds", "0", "levels/03-targets-flag"];
    snap!(run(&args), &args);
}

/// `bench` checks its timeout before it starts, as `solve` does.
#[test]
fn bench_bad_timeouts() {
    for t in ["0", "-5", "1e20"] {
        let args = ["bench", "--timeout", t, "levels/03-targets-flag"];
        insta::with_settings!({ snapshot_suffix => t, description => command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(run(&args));
        });
    }
}

/// A level that cannot be run gets `error` with the reason (the parse
/// error and where it is), the others are still solved, and the exit code
/// says the bench is not complete. With `--json`, stderr shows progress.
#[test]
fn bench_reports_why_a_level_failed() {
    let dir = scratch(
        "bench_error",
        &[("a-bad.txt", b"+> . ?\n"), ("b-good.txt", b"+> . ->\n")],
    );
    let args = ["bench", "--json", "."];
    snap!(run_in(&dir, &args), &args);

    let table = run_in(&dir, &["bench", "."]);
    assert!(table.starts_with("exit: 2"), "{table}");
    let lines: Vec<&str> = table.lines().collect();
    let bad = lines
        .iter()
        .position(|l| l.starts_with("a-bad.txt") && l.contains(" error "))
        .expect("an error row");
    assert_eq!(
        lines[bad + 1],
        "  error: unknown token `?` (expected . ^ v < > # +d +d? -d -d? -dk kd xd bdk T- T+d U- U+d *) (at ./a-bad.txt:1:6)"
    );
    assert!(lines[bad + 2].starts_with("b-good.txt") && lines[bad + 2].contains(" optimal "));
    assert!(
        table.contains("1 optimal, 0 solved, 0 unsolvable, 0 unknown, 1 error, "),
        "{table}"
    );
}

/// Ctrl-C during a bench: the level being solved ends as its run reports
/// (here its timeout), the bench stops there, prints what it has, says it
/// was interrupted, and exits 3.
#[cfg(unix)]
#[test]
fn bench_ctrl_c_stops_after_the_level_in_hand() {
    let Some(level) = crate::real_level("09-tropical-rain/11.txt") else {
        return;
    };
    let dir = scratch("bench_ctrl_c", &[("b-tiny.txt", b"+> . ->\n")]);
    std::fs::copy(&level, dir.join("a-slow.txt")).expect("copy level");
    // Only the bench gets the Ctrl-C (not its `frosted solve`), once it has
    // printed its header.
    let run = crate::interrupted_run(
        &dir,
        &["bench", "--no-chain-bound", "--timeout", "3", "."],
        libc::SIGINT,
        true,
        |l| l.starts_with("level "),
    );
    assert_eq!(run.code, Some(3), "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{}", run.stdout);
    assert!(lines[1].starts_with("a-slow.txt"), "{}", run.stdout);
    assert!(lines[2].starts_with("total: 1 level, "), "{}", run.stdout);
    // The level in hand timed out: nothing is proved, so neither is half.
    assert!(
        lines[3]
            .starts_with("proofs: 0 of 1 levels proved (optimal or unsolvable); median not proved"),
        "{}",
        run.stdout
    );
    assert_eq!(lines[4], "interrupted after 1 of 2 levels");
}

/// `frosted bench DIR | head -1`: the reader goes away, and the bench ends
/// quietly, killed by SIGPIPE as `cat` would be, not by a panic in
/// `println!` (which it did).
#[cfg(unix)]
#[test]
fn bench_into_a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_frosted"))
        .args(["bench", "levels/03-targets-flag"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("running the frosted binary");
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("reading stderr");
    let status = child.wait().expect("waiting for frosted");
    assert_eq!(status.signal(), Some(libc::SIGPIPE), "{status:?}: {stderr}");
    assert_eq!(stderr, "");
}

/// The levels of a folder: subfolders are walked, but not a link to a folder
/// (a link to `..` was walked until the OS refused, listing the same levels
/// again and again), and a file name that is not UTF-8 is still a level.
#[cfg(unix)]
#[test]
fn bench_walks_each_folder_once() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("bench_links", &[("a.txt", b"+> . ->\n")]);
    std::fs::create_dir(dir.join("sub")).expect("a subfolder");
    std::fs::write(dir.join("sub/b.txt"), "+> ->\n").expect("a level in it");
    std::os::unix::fs::symlink("..", dir.join("sub/up")).expect("a link to ..");
    let odd = std::ffi::OsStr::from_bytes(b"c\xff.txt");
    std::fs::write(dir.join(odd), "+> . . ->\n").expect("an odd name");
    let out = run_in(&dir, &["bench", "--json", "."]);
    assert!(out.starts_with("exit: 0"), "{out}");
    let json = out.lines().find(|l| l.starts_with('{')).expect("JSON");
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let names: Vec<&str> = v["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .map(|l| l["level"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["a.txt", "c\u{fffd}.txt", "sub/b.txt"], "{out}");
    assert_eq!(v["totals"]["optimal"], 3, "{out}");
}

/// `--explain SECONDS`: an `unsolvable` level's row gets its core's size,
/// SAT calls and seconds (in `--json`, `"core"`), other levels none, and
/// the totals count the cores; a bad number is refused before any level runs.
#[test]
fn bench_explain_shows_the_cores_cost() {
    let dir = scratch(
        "bench_explain",
        &[
            // A wall between the source and the target.
            ("impossible.txt", b"+>  .   #   .   ->\n.   .   #   .   .\n"),
            ("open.txt", b"+>  .   ->\n"),
        ],
    );
    let out = run_in(&dir, &["bench", "--json", "--explain", "30", "."]);
    let v = bench_json(&out);
    let levels = v["levels"].as_array().expect("levels");
    let row = |name: &str| {
        levels
            .iter()
            .find(|l| l["level"] == name)
            .unwrap_or_else(|| panic!("{name} in {v}"))
    };
    let core = &row("impossible.txt")["core"];
    assert_eq!(core["requirements"], 1, "{core}");
    assert_eq!(core["minimal"], true, "{core}");
    assert!(core["sat_calls"].as_u64().is_some_and(|n| n >= 1), "{core}");
    assert!(core["seconds"].as_f64().is_some(), "{core}");
    assert_eq!(row("open.txt")["status"], "optimal");
    assert!(row("open.txt").get("core").is_none(), "{v}");
    let cores = &v["totals"]["cores"];
    assert_eq!(
        (&cores["unsolvable"], &cores["found"], &cores["minimal"]),
        (&1.into(), &1.into(), &1.into()),
        "{cores}"
    );
    let table = run_in(&dir, &["bench", "--explain", "30", "."]);
    assert!(table.contains("core calls"), "{table}");
    assert!(
        table.contains("cores: 1 of 1 unsolvable levels got a core, 1 shown minimal"),
        "{table}"
    );
    let without = run_in(&dir, &["bench", "--json", "."]);
    assert!(!without.contains("\"cores\""), "{without}");
    let bad = run_in(&dir, &["bench", "--explain", "0", "."]);
    assert!(bad.starts_with("exit: 2"), "{bad}");
    assert!(bad.contains("--explain must be a positive number"), "{bad}");
}

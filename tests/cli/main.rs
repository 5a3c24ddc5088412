//! Snapshot tests of the `frosted` command line, in the style of ruff's
//! `crates/ruff/tests/cli/`: one module per subcommand, each running the real
//! binary and snapshotting its exit code, stdout and stderr together.
//!
//! Every command runs with a relative working directory and relative paths, so the
//! snapshots do not depend on where the repository lives: the repository's own
//! files run from `CARGO_MANIFEST_DIR`, and files made up by a test are written to
//! a scratch directory under `CARGO_TARGET_TMPDIR` and run from there.
//!
//! Update the snapshots with `INSTA_UPDATE=always cargo test --test cli` (or
//! `cargo insta review`), then read every changed `.snap` file.

/// Snapshots `frosted args...` run from the repository root, with the command line
/// as the snapshot's description.
macro_rules! assert_cmd_snapshot {
    ($args:expr) => {{
        let args: &[&str] = $args;
        insta::with_settings!({ description => $crate::command_line(args), omit_expression => true }, {
            insta::assert_snapshot!($crate::run(args));
        });
    }};
    ($dir:expr, $args:expr) => {{
        let args: &[&str] = $args;
        insta::with_settings!({ description => $crate::command_line(args), omit_expression => true }, {
            insta::assert_snapshot!($crate::run_in($dir, args));
        });
    }};
}

/// Snapshots `text` (the output of `frosted args...`) with its timings
/// replaced by `[time]` (see `normalize`), the command line as description.
macro_rules! snap {
    ($text:expr, $args:expr) => {
        insta::with_settings!({ description => $crate::command_line($args), omit_expression => true }, {
            insta::assert_snapshot!($crate::normalize(&$text));
        });
    };
}

/// Runs `$body` once per level of `levels/` (found by `insta::glob!`, so one
/// snapshot each), with `$l` the [`RepoLevel`] and its name as the snapshot
/// suffix; `needs = solution` (or `wrong`) keeps only the levels with that file.
macro_rules! each_level {
    (|$l:ident| $body:block) => {
        each_level!(needs = level, |$l| $body)
    };
    (needs = $file:ident, |$l:ident| $body:block) => {
        insta::glob!("../../levels", "*/*.txt", |path| {
            let Some($l) = $crate::RepoLevel::from_glob(path) else {
                return;
            };
            if !$crate::exists(&$l.$file) {
                return;
            }
            insta::with_settings!({ snapshot_suffix => $l.suffix.as_str() }, $body);
        });
    };
}

mod bench;
mod check_certificate;
mod cosmic;
mod decode;
mod dump_cnf;
mod enumerate;
mod explain;
mod generate;
mod pictures;
mod show;
mod simulate;
mod solve;
mod verify;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs `frosted args...` in `dir` and returns its exit code, stdout and stderr as
/// one snapshot string.
pub(crate) fn run_in(dir: &Path, args: &[&str]) -> String {
    run_with_stdin(dir, args, b"")
}

/// [`run_in`], with `input` on the command's stdin.
pub(crate) fn run_with_stdin(dir: &Path, args: &[&str], input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_frosted"))
        .args(args)
        .current_dir(dir)
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running the frosted binary");
    let mut stdin = child.stdin.take().expect("the child's stdin");
    // A command that does not read stdin may exit before taking it all.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().expect("waiting for frosted");
    let code = out
        .status
        .code()
        .map_or_else(|| "killed by a signal".to_string(), |c| c.to_string());
    format!(
        "exit: {code}\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `frosted args...` from the repository root.
pub(crate) fn run(args: &[&str]) -> String {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// The command line, for the snapshot's description.
pub(crate) fn command_line(args: &[&str]) -> String {
    std::iter::once("frosted")
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A fresh scratch directory `CARGO_TARGET_TMPDIR/cli/<name>` holding `files`
/// (relative name, contents). Each test uses its own name, so tests running in
/// parallel do not share files.
pub(crate) fn scratch(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clearing the scratch directory");
    }
    std::fs::create_dir_all(&dir).expect("creating the scratch directory");
    for (file, contents) in files {
        std::fs::write(dir.join(file), contents).expect("writing a scratch file");
    }
    dir
}

/// A level of `levels/` found by `insta::glob!`.
pub(crate) struct RepoLevel {
    /// `levels/<world>/<name>.txt`, relative to the repository root.
    pub level: String,
    /// `levels/<world>/<name>.solution.txt`.
    pub solution: String,
    /// `levels/<world>/<name>.wrong.txt`.
    pub wrong: String,
    /// `<world>__<name>`: a snapshot suffix that does not change when levels of
    /// other worlds are added (the suffix `glob!` picks itself is relative to the
    /// common prefix of all files found, which does).
    pub suffix: String,
}

impl RepoLevel {
    /// `None` for the `.solution.txt` and `.wrong.txt` files beside the levels.
    pub fn from_glob(path: &Path) -> Option<RepoLevel> {
        let name = path.file_name()?.to_str()?;
        if name.ends_with(".solution.txt") || name.ends_with(".wrong.txt") {
            return None;
        }
        let stem = name.strip_suffix(".txt")?;
        let world = path.parent()?.file_name()?.to_str()?;
        // The generated corpus has tests of its own (`tests/generated.rs`).
        if world == "generated" {
            return None;
        }
        let dir = format!("levels/{world}");
        Some(RepoLevel {
            level: format!("{dir}/{stem}.txt"),
            solution: format!("{dir}/{stem}.solution.txt"),
            wrong: format!("{dir}/{stem}.wrong.txt"),
            suffix: format!("{world}__{stem}"),
        })
    }
}

/// Whether a file exists, relative to the repository root.
pub(crate) fn exists(relative: &str) -> bool {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(relative)
        .exists()
}

/// Replaces every number of seconds in `solve`'s summary and `--json`
/// (`1.234s`, `"seconds":1.2`) by `[time]`, and drops the progress lines,
/// which come at times of their own.
pub(crate) fn normalize(s: &str) -> String {
    s.lines()
        .map(|l| {
            if l.starts_with("time:") {
                "time: [time]".to_string()
            } else if l.starts_with("explain:") {
                // `explain: N questions, ..., 0.123s` (after `unsolvable`).
                match l.rsplit_once(", ") {
                    Some((head, _)) => format!("{head}, [time]"),
                    None => l.to_string(),
                }
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
            } else if l.starts_with("bench: ") && l.ends_with("s)") {
                // bench's progress line: `bench: 1/2 LEVEL: STATUS (0.01s)`.
                match l.rsplit_once(" (") {
                    Some((head, _)) => format!("{head} ([time])"),
                    None => l.to_string(),
                }
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
                    "\"chain_bound\":",
                    "\"sketch\":",
                    // bench's proof times (a number, or null: not proved).
                    "\"median\":",
                    "\"p90\":",
                    "\"max\":",
                ];
                while let Some((i, key)) = keys
                    .iter()
                    .filter_map(|k| rest.find(k).map(|i| (i, k)))
                    .min()
                {
                    out.push_str(&rest[..i + key.len()]);
                    rest = &rest[i + key.len()..];
                    let end = rest.find([',', '}']).unwrap_or(rest.len());
                    out.push_str(match &rest[..end] {
                        "null" => "null",
                        _ => "[time]",
                    });
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

/// `frosted decode level.txt model.txt` in `dir` succeeds, and `verify` judges
/// what it prints as a layout of the level (solved or not, but no bad input).
pub(crate) fn decode_gives_a_layout(dir: &Path, model_of: &str) {
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

#[test]
fn help() {
    assert_cmd_snapshot!(&["--help"]);
}

#[test]
fn no_subcommand() {
    assert_cmd_snapshot!(&[]);
}

#[test]
fn unknown_subcommand() {
    assert_cmd_snapshot!(&["frost"]);
}

/// `../shared/<folder>`, or `None` with a SKIPPED line when `../shared` is
/// absent (never in CI, where it must be there).
pub(crate) fn shared(folder: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(folder);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but {} is missing",
        dir.display()
    );
    eprintln!("SKIPPED: {} is absent", dir.display());
    None
}

/// `../shared/ff-levels/<relative>` (see [`shared`]).
pub(crate) fn real_level(relative: &str) -> Option<PathBuf> {
    shared("ff-levels").map(|dir| dir.join(relative))
}

/// A scratch folder `name` holding the real level `relative` as
/// `level.txt`, or `None` when `../shared` is absent (see [`real_level`]).
pub(crate) fn real_level_in_scratch(name: &str, relative: &str) -> Option<PathBuf> {
    let level = real_level(relative)?;
    let dir = scratch(name, &[]);
    std::fs::copy(&level, dir.join("level.txt")).expect("copy level");
    Some(dir)
}

/// The solver binary `program` (Debian's `cadical`, `minisat`) is on PATH;
/// if not, says SKIPPED (never in CI, which installs them).
pub(crate) fn has_solver(program: &str) -> bool {
    has_program(program, &format!("apt-get install {program}"))
}

/// `program` is on PATH (it answers `--help`, as MiniSat does without a
/// `--version`); if not, says SKIPPED with how to `install` it, or fails in
/// CI, which installs everything the tests run.
pub(crate) fn has_program(program: &str, install: &str) -> bool {
    if Command::new(program).arg("--help").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but `{program}` is not installed ({install})"
    );
    eprintln!("SKIPPED: no `{program}` binary on PATH ({install})");
    false
}

/// What a run interrupted by [`interrupted_run`] gave.
#[cfg(unix)]
pub(crate) struct Interrupted {
    pub pid: u32,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `frosted args...` in `dir` and sends it `signal` (`libc::SIGINT`:
/// Ctrl-C) as soon as a line of its stderr (or stdout, with `watch_stdout`)
/// makes `ready` true; then reads everything it prints until it exits.
#[cfg(unix)]
pub(crate) fn interrupted_run(
    dir: &Path,
    args: &[&str],
    signal: libc::c_int,
    watch_stdout: bool,
    ready: impl Fn(&str) -> bool,
) -> Interrupted {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_frosted"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running the frosted binary");
    let out: Box<dyn Read + Send> = Box::new(child.stdout.take().expect("stdout"));
    let err: Box<dyn Read + Send> = Box::new(child.stderr.take().expect("stderr"));
    let (watched, other) = if watch_stdout { (out, err) } else { (err, out) };
    let other = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = BufReader::new(other).read_to_string(&mut s);
        s
    });
    let pid = child.id() as libc::pid_t;
    let mut seen = String::new();
    let mut sent = false;
    for line in BufReader::new(watched).lines() {
        let line = line.expect("reading the child's output");
        if !sent && ready(&line) {
            // SAFETY: sends a signal to our own child, which is still running
            // (its output is still open).
            assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "kill");
            sent = true;
        }
        seen.push_str(&line);
        seen.push('\n');
    }
    let other = other.join().expect("reader thread");
    let code = child.wait().expect("waiting for frosted").code();
    assert!(
        sent,
        "the run ended before it was ready to interrupt: {seen}"
    );
    let (stdout, stderr) = if watch_stdout {
        (seen, other)
    } else {
        (other, seen)
    };
    Interrupted {
        pid: pid as u32,
        code,
        stdout,
        stderr,
    }
}

/// Output that cannot be written (a full disk) is an error with exit code 2 for
/// every subcommand, not a panic in `print!`; a dead stderr loses the messages
/// but not the exit code.
#[test]
fn output_that_cannot_be_written_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("SKIPPED: no /dev/full on this system");
        return;
    };
    let level = "levels/01-toppers/first-frosting.txt";
    let run_into_full = |args: &[&str], stdout: bool| {
        let file = full.try_clone().expect("a second handle on /dev/full");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_frosted"));
        cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
        if stdout {
            cmd.stdout(file).stderr(Stdio::piped());
        } else {
            cmd.stdout(Stdio::null()).stderr(file);
        }
        cmd.output().expect("frosted runs")
    };
    for args in [
        vec!["show", level],
        vec!["verify", level],
        vec!["verify", level, "--json"],
        vec!["simulate", level],
        vec!["solve", level],
        vec!["solve", level, "--json"],
        vec!["dump-cnf", level],
        vec!["bench", "levels/01-toppers"],
    ] {
        let o = run_into_full(&args, true);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: cannot write to stdout: "),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // Stderr on a full disk: the answer's exit code stands.
    assert_eq!(
        run_into_full(&["solve", level], false).status.code(),
        Some(0)
    );
    assert_eq!(
        run_into_full(&["show", "no-such-level.txt"], false)
            .status
            .code(),
        Some(2)
    );
}

//! `frosted bench`: every level under a folder, each solved by its own
//! `frosted solve --json` process (so that a timeout really stops it), and a
//! table or a JSON object with the totals.

use super::flags::{at_least_one, seconds_of, timeout, SolveFlags};
use super::puzzle::{Puzzle, PuzzleFlag};
use super::{interrupt, out, out_json, pictures, CliError, EXIT_BAD_INPUT, EXIT_OK, EXIT_UNKNOWN};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// A folder: every level file under it (recursively) is solved: `*.txt`
    /// (Freshly Frosted) and `*.json` (Cosmic Express); files named
    /// `*.solution.txt`, `*.wrong.txt` or `*.path.json`, and the `judged`
    /// folder, are skipped. The table's cost column is `belts` for Freshly
    /// Frosted levels, `cells` for Cosmic Express ones (`cost` for a mix).
    pub dir: PathBuf,
    /// Only the levels of this puzzle (`*.txt` for frosted, `*.json` for
    /// cosmic), each solved with `--puzzle` given.
    #[command(flatten)]
    pub puzzle: PuzzleFlag,
    /// Seconds allowed per level.
    #[arg(
        long,
        default_value_t = 60.0,
        value_name = "SECONDS",
        allow_negative_numbers = true
    )]
    pub timeout: f64,
    /// Solve every level K times, with `--debug-seed 1` to `K` (each run holds
    /// the clauses in another order), and report the median, fastest and
    /// slowest time: one run's time can swing several-fold with the clause
    /// order, so judge a change by several.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub seeds: usize,
    #[command(flatten)]
    pub flags: SolveFlags,
    /// Print one JSON object {"levels": [...], "totals": {...}} instead of a table.
    #[arg(long)]
    pub json: bool,
    /// After an `unsolvable` verdict, also look for the core of requirements
    /// that conflict, for at most SECONDS (as `solve --explain-timeout`),
    /// and show its cost in three more columns: `core` (its requirements,
    /// with `?` when not shown minimal), `core calls` (its SAT calls) and
    /// `core s` (its seconds); `-` for other verdicts. `seconds` stays the
    /// solve's. Without it the bench times solving only (`solve
    /// --no-explain`).
    #[arg(long, value_name = "SECONDS")]
    pub explain: Option<f64>,
    /// Also write a web page per level to DIR (the replay of the layout or
    /// track found, as `solve --html` writes it, named after the level's
    /// path: `01-toppers--first-frosting.html`) and DIR/index.html with the
    /// table, each level linking to its page. DIR is created.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
}

/// One run of `frosted solve --json`, as the bench reads its report, or a run
/// that gave none (status `error`, and why).
#[derive(Deserialize)]
struct Run {
    status: String,
    belts: Option<u64>,
    /// A Cosmic Express track's cells, in place of `belts`.
    cells: Option<u64>,
    iterations: Option<u64>,
    seconds: f64,
    best_seconds: Option<f64>,
    error: Option<String>,
    /// After a stop: what the lower bound proves below the best candidate
    /// (or, without one, at all).
    bound: Option<BoundRun>,
    /// With `bench --explain`, after an `unsolvable` verdict.
    core: Option<Vec<serde_json::Value>>,
    core_minimal: Option<bool>,
    explain: Option<ExplainRun>,
}

/// The `"bound"` part of `frosted solve --json`: no candidate costing at
/// most K solves the level.
#[derive(Deserialize)]
struct BoundRun {
    max_belts: Option<u64>,
    max_cells: Option<u64>,
}

/// The `"explain"` part of `frosted solve --json`, as the bench reads it.
#[derive(Deserialize)]
struct ExplainRun {
    core: Option<CoreWork>,
}

/// What the core took (`"explain"`'s `"core"`).
#[derive(Deserialize)]
struct CoreWork {
    sat_calls: u64,
    seconds: f64,
}

/// A core's size and cost, for `bench --explain`.
#[derive(Serialize, Clone, Debug, PartialEq)]
struct CoreCost {
    requirements: usize,
    minimal: bool,
    sat_calls: u64,
    seconds: f64,
}

impl Run {
    /// The fewest belts (or cells) a solution can have, as far as the run
    /// proved it before it stopped, when it stopped with a lower bound.
    fn at_least(&self) -> Option<u64> {
        let b = self.bound.as_ref()?;
        b.max_belts.or(b.max_cells).map(|k| k + 1)
    }

    /// The core's size and cost, when the run looked for one and found it.
    fn core_cost(&self) -> Option<CoreCost> {
        let work = self.explain.as_ref()?.core.as_ref()?;
        Some(CoreCost {
            requirements: self.core.as_ref()?.len(),
            minimal: self.core_minimal?,
            sat_calls: work.sat_calls,
            seconds: work.seconds,
        })
    }
}

/// A level's row: its median run, and with several seeds the fastest and
/// slowest times and every run's status. The fields are in the order of the
/// output.
#[derive(Serialize)]
struct Row {
    /// A run that stopped without a proof: the cost every solution has at
    /// least, by the lower bound (the gap to `belts` is what is left open).
    #[serde(skip_serializing_if = "Option::is_none")]
    at_least: Option<u64>,
    belts: Option<u64>,
    best_seconds: Option<f64>,
    /// A Cosmic Express level's track cells (its `belts` are null).
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<u64>,
    /// With `bench --explain`: the median run's core, if it found one.
    #[serde(skip_serializing_if = "Option::is_none")]
    core: Option<CoreCost>,
    /// Why a run could not give a status (the first such run's reason).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fastest: Option<f64>,
    iterations: Option<u64>,
    level: String,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    slowest: Option<f64>,
    status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    statuses: Option<Vec<String>>,
}

/// The levels by status, and the seconds of their median runs.
#[derive(Serialize)]
struct Totals {
    /// With `bench --explain`: the cores found (see [`CoreTotals`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    cores: Option<CoreTotals>,
    error: usize,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    interrupted: bool,
    levels: usize,
    mixed: usize,
    optimal: usize,
    /// How soon the levels were proved (see [`ProofTimes`]).
    proofs: ProofTimes,
    seconds: f64,
    solved: usize,
    unknown: usize,
    unsolvable: usize,
}

/// With `bench --explain`, over the levels whose status is `unsolvable`:
/// how many got a core, how many shown minimal, and the SAT calls and
/// seconds of the cores found (median and max, nearest rank).
#[derive(Serialize, Debug, PartialEq)]
struct CoreTotals {
    unsolvable: usize,
    found: usize,
    minimal: usize,
    calls_median: Option<u64>,
    calls_max: Option<u64>,
    seconds_max: Option<f64>,
}

impl CoreTotals {
    fn of(rows: &[Row]) -> CoreTotals {
        let cores: Vec<&CoreCost> = rows
            .iter()
            .filter(|r| r.status == "unsolvable")
            .filter_map(|r| r.core.as_ref())
            .collect();
        let mut calls: Vec<u64> = cores.iter().map(|c| c.sat_calls).collect();
        calls.sort_unstable();
        CoreTotals {
            unsolvable: rows.iter().filter(|r| r.status == "unsolvable").count(),
            found: cores.len(),
            minimal: cores.iter().filter(|c| c.minimal).count(),
            calls_median: calls.get(calls.len().saturating_sub(1) / 2).copied(),
            calls_max: calls.last().copied(),
            seconds_max: cores.iter().map(|c| c.seconds).max_by(f64::total_cmp),
        }
    }

    /// `cores: 5 of 5 unsolvable levels got a core, 5 shown minimal; core
    /// SAT calls median 1, max 39; core seconds max 19.62`.
    fn line(&self) -> String {
        let or_dash = |n: Option<String>| n.unwrap_or_else(|| "-".into());
        format!(
            "cores: {} of {} unsolvable levels got a core, {} shown minimal; core SAT calls median {}, max {}; core seconds max {}\n",
            self.found,
            self.unsolvable,
            self.minimal,
            or_dash(self.calls_median.map(|n| n.to_string())),
            or_dash(self.calls_max.map(|n| n.to_string())),
            or_dash(self.seconds_max.map(|t| format!("{t:.2}"))),
        )
    }
}

/// How soon the levels were proved: `proved` levels got `optimal` or
/// `unsolvable` (every run, with several seeds); the other levels count as
/// never proved. `median`, `p90` and `max` are the times by which half, 90 %
/// and all of the levels were proved (nearest rank: the `⌈p·n⌉`-th shortest
/// time), `None` when that share was not proved within the timeout.
#[derive(Serialize, Debug, PartialEq)]
struct ProofTimes {
    proved: usize,
    median: Option<f64>,
    p90: Option<f64>,
    max: Option<f64>,
}

impl ProofTimes {
    fn of(rows: &[Row]) -> ProofTimes {
        let mut times: Vec<f64> = rows
            .iter()
            .filter(|r| r.status == "optimal" || r.status == "unsolvable")
            .map(|r| r.seconds)
            .collect();
        times.sort_by(f64::total_cmp);
        // The time by which the share `p` of all the levels was proved.
        let by = |p: f64| {
            let rank = (p * rows.len() as f64).ceil().max(1.0) as usize;
            times.get(rank - 1).copied()
        };
        ProofTimes {
            proved: times.len(),
            median: by(0.5),
            p90: by(0.9),
            max: by(1.0),
        }
    }

    /// `proofs: 9 of 10 levels proved (optimal or unsolvable); median 0.12s,
    /// 90th percentile 3.40s, max not proved`.
    fn line(&self, levels: usize) -> String {
        let time = |t: Option<f64>| t.map_or("not proved".to_string(), |t| format!("{t:.2}s"));
        format!(
            "proofs: {} of {levels} levels proved (optimal or unsolvable); median {}, 90th percentile {}, max {}\n",
            self.proved,
            time(self.median),
            time(self.p90),
            time(self.max)
        )
    }
}

/// `bench --json`.
#[derive(Serialize)]
struct BenchJson<'a> {
    levels: &'a [Row],
    totals: Totals,
}

/// The level files under `dir`, in name order: every `.txt` file but solutions
/// (`.solution.txt`, `.wrong.txt`), in subfolders too, except `judged/`, hidden
/// folders and links to folders.
fn level_files(dir: &Path, only: Option<Puzzle>, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<(PathBuf, bool)> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        // `file_type` does not follow symlinks: a link to a folder is not
        // walked (a link to `..` would be walked until the OS refused).
        .map(|e| (e.path(), e.file_type().is_ok_and(|t| t.is_dir())))
        .collect();
    entries.sort();
    for (p, is_dir) in entries {
        // A name that is not UTF-8 is still a level (its odd bytes shown as �).
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        if is_dir {
            if name != "judged" && !name.starts_with('.') {
                level_files(&p, only, out)?;
            }
        } else if is_level_name(&name, only) && p.is_file() {
            out.push(p);
        }
    }
    Ok(())
}

/// Whether a file name is a level's: `*.txt` (Freshly Frosted) but
/// solutions, `*.json` (Cosmic Express) but tracks, of the puzzle `only`.
fn is_level_name(name: &str, only: Option<Puzzle>) -> bool {
    let frosted =
        name.ends_with(".txt") && !name.ends_with(".solution.txt") && !name.ends_with(".wrong.txt");
    let cosmic = name.ends_with(".json") && !name.ends_with(".path.json");
    match only {
        None => frosted || cosmic,
        Some(Puzzle::Frosted) => frosted,
        Some(Puzzle::Cosmic) => cosmic,
    }
}

/// The level files under `dir`, checked to be some.
fn level_files_under(dir: &Path, only: Option<Puzzle>) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    level_files(dir, only, &mut files)
        .map_err(|e| CliError::bad_input(format!("cannot read {}: {e}", dir.display())))?;
    if files.is_empty() {
        return Err(CliError::bad_input(format!(
            "no level files under {}",
            dir.display()
        )));
    }
    Ok(files)
}

/// What every level's runs share: the `frosted` binary, the flags, and how
/// many seeds.
struct Bench<'a> {
    exe: PathBuf,
    args: &'a BenchArgs,
    seeded: bool,
}

impl Bench<'_> {
    /// Solves one level with `frosted solve`: its report, or why it gave none.
    fn run_once(&self, file: &Path, seed: Option<u64>) -> Run {
        let page = self.args.html.as_ref().map(|dir| {
            let name = file.strip_prefix(&self.args.dir).unwrap_or(file);
            dir.join(pictures::page_name(name))
        });
        let html: Vec<&std::ffi::OsStr> = match &page {
            Some(p) => vec!["--html".as_ref(), p.as_os_str()],
            None => vec![],
        };
        let t = Instant::now();
        let flags = SolveFlags {
            debug_seed: seed.or(self.args.flags.debug_seed),
            ..self.args.flags.clone()
        };
        let output = std::process::Command::new(&self.exe)
            .arg("solve")
            .arg(file)
            .args(["--json", "--timeout", &self.args.timeout.to_string()])
            .args(self.explain_args())
            .args(self.puzzle_args())
            .args(flags.child_args())
            .args(html)
            .output();
        match output {
            Ok(out) => serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|_| run_error(t, run_failure(&out))),
            Err(e) => run_error(t, format!("cannot run frosted solve: {e}")),
        }
    }

    /// Solves one level once per seed (`--debug-seed 1`, 2, ... with several),
    /// until an interrupt.
    fn runs(&self, file: &Path) -> Vec<Run> {
        let mut runs = Vec::new();
        for seed in 1..=self.args.seeds {
            runs.push(self.run_once(file, self.seeded.then_some(seed as u64)));
            if interrupt::interrupted() {
                break;
            }
        }
        runs
    }

    /// `--explain-timeout SECONDS` with `bench --explain`; otherwise
    /// `--no-explain`: the bench times solving, with no core after an
    /// `unsolvable` verdict.
    fn explain_args(&self) -> Vec<String> {
        match self.args.explain {
            Some(t) => vec!["--explain-timeout".into(), t.to_string()],
            None => vec!["--no-explain".into()],
        }
    }

    /// `--puzzle P` when the bench was given it.
    fn puzzle_args(&self) -> Vec<&'static str> {
        match self.args.puzzle.puzzle {
            None => vec![],
            Some(Puzzle::Frosted) => vec!["--puzzle", "frosted"],
            Some(Puzzle::Cosmic) => vec!["--puzzle", "cosmic"],
        }
    }

    /// The table's head line; `cost` names the cost column.
    fn head(&self, cost: &str) -> String {
        let mut head = format!(
            "{:<44} {:>10} {:>6} {:>10} {:>9}",
            "level", "status", cost, "iterations", "seconds"
        );
        if self.seeded {
            head += &format!(" {:>9} {:>9}", "fastest", "slowest");
        }
        if self.args.explain.is_some() {
            head += &format!(" {:>5} {:>10} {:>7}", "core", "core calls", "core s");
        }
        format!("{head} {:>9} {:>8}\n", "best at", "at least")
    }
}

/// A bench run that gave no report: status `error`, and why.
fn run_error(t: Instant, why: String) -> Run {
    Run {
        status: "error".to_string(),
        belts: None,
        cells: None,
        iterations: None,
        seconds: t.elapsed().as_secs_f64(),
        best_seconds: None,
        bound: None,
        error: Some(why),
        core: None,
        core_minimal: None,
        explain: None,
    }
}

/// A level's row from its runs (at least one). The median run by time stands
/// for the level; with several seeds the status is that run's if all agree,
/// else "mixed".
fn level_row(level: String, mut runs: Vec<Run>, seeded: bool) -> Row {
    runs.sort_by(|x, y| x.seconds.total_cmp(&y.seconds));
    let error = runs.iter().find_map(|r| r.error.clone());
    let (fastest, slowest) = (runs[0].seconds, runs[runs.len() - 1].seconds);
    let statuses: Vec<String> = runs.iter().map(|r| r.status.clone()).collect();
    let median = runs.swap_remove(runs.len() / 2);
    let agree = statuses.iter().all(|s| *s == median.status);
    Row {
        at_least: median.at_least(),
        belts: median.belts,
        best_seconds: median.best_seconds,
        cells: median.cells,
        core: median.core_cost(),
        error,
        fastest: seeded.then_some(fastest),
        iterations: median.iterations,
        level,
        seconds: median.seconds,
        slowest: seeded.then_some(slowest),
        status: if agree {
            median.status
        } else {
            "mixed".to_string()
        },
        statuses: seeded.then_some(statuses),
    }
}

/// The rest of a row in the table, after the level's name (which is printed
/// when its runs start); `explain`: with the core's columns.
fn table_line(row: &Row, explain: bool) -> String {
    let dash = |n: Option<u64>| n.map_or("-".into(), |n| n.to_string());
    let mut line = format!(
        " {:>10} {:>6} {:>10} {:>9.2}",
        row.status,
        dash(row.belts.or(row.cells)),
        dash(row.iterations),
        row.seconds
    );
    if let (Some(f), Some(s)) = (row.fastest, row.slowest) {
        line += &format!(" {f:>9.2} {s:>9.2}");
    }
    if explain {
        line += &core_columns(row.core.as_ref());
    }
    let best = row.best_seconds.map_or("-".into(), |b| format!("{b:.2}"));
    line += &format!(" {best:>9} {:>8}\n", dash(row.at_least));
    if let Some(e) = &row.error {
        line += &format!("  error: {e}\n");
    }
    line
}

/// The core's columns of a row: requirements (`?` when not shown
/// minimal), SAT calls, seconds; dashes without a core.
fn core_columns(core: Option<&CoreCost>) -> String {
    match core {
        Some(c) => {
            let size = format!("{}{}", c.requirements, if c.minimal { "" } else { "?" });
            format!(" {size:>5} {:>10} {:>7.2}", c.sat_calls, c.seconds)
        }
        None => format!(" {:>5} {:>10} {:>7}", "-", "-", "-"),
    }
}

/// The totals over the rows; `explain`: with the cores' totals.
fn totals(rows: &[Row], interrupted: bool, explain: bool) -> Totals {
    let count = |s: &str| rows.iter().filter(|r| r.status == s).count();
    Totals {
        cores: explain.then(|| CoreTotals::of(rows)),
        error: count("error"),
        interrupted,
        levels: rows.len(),
        mixed: count("mixed"),
        optimal: count("optimal"),
        proofs: ProofTimes::of(rows),
        seconds: rows.iter().map(|r| r.seconds).sum(),
        solved: count("solved"),
        unknown: count("unknown"),
        unsolvable: count("unsolvable"),
    }
}

/// The table's last lines: the totals, and with several seeds how many levels
/// got mixed statuses.
fn totals_lines(t: &Totals, seeds: usize) -> String {
    let mut text = format!(
        "total: {} level{}, {} optimal, {} solved, {} unsolvable, {} unknown, {} error{}, {:.1}s\n",
        t.levels,
        if t.levels == 1 { "" } else { "s" },
        t.optimal,
        t.solved,
        t.unsolvable,
        t.unknown,
        t.error,
        if t.error == 1 { "" } else { "s" },
        t.seconds
    );
    text += &t.proofs.line(t.levels);
    if let Some(cores) = &t.cores {
        text += &cores.line();
    }
    if seeds > 1 {
        text += &format!(
            "{} levels with mixed statuses over {seeds} seeds; seconds are medians\n",
            t.mixed
        );
    }
    text
}

/// Solves every level under a folder, each in its own `frosted solve` process
/// (so a timeout really stops it), and prints a table with totals.
pub fn bench(a: BenchArgs) -> Result<i32, CliError> {
    a.flags.settings()?;
    timeout(a.timeout)?;
    if let Some(t) = a.explain {
        seconds_of("--explain", t)?;
    }
    let seeded = at_least_one("--seeds", a.seeds)? > 1;
    if let Some(dir) = &a.html {
        pictures::pages_folder(dir)?;
    }
    let files = level_files_under(&a.dir, a.puzzle.puzzle)?;
    let exe = std::env::current_exe()
        .map_err(|e| CliError::bad_input(format!("cannot find frosted itself: {e}")))?;
    let bench = Bench {
        exe,
        args: &a,
        seeded,
    };
    // Ctrl-C reaches the running `frosted solve` too, which reports what it
    // has; the bench then stops after that level and prints what it has.
    interrupt::catch();
    if !a.json {
        out(&bench.head(cost_column(&files, a.puzzle.puzzle)))?;
    }
    let mut rows = Vec::new();
    for f in &files {
        let name = f.strip_prefix(&a.dir).unwrap_or(f).display().to_string();
        if !a.json {
            // The level's name comes first, so that the table shows which
            // level is being solved; the rest of its row follows.
            out(&format!("{name:<44}"))?;
        }
        let row = level_row(name.clone(), bench.runs(f), seeded);
        if a.json {
            // The table's rows show progress as they come; JSON comes at the
            // end, so say on stderr how far the bench is.
            note!(
                "bench: {}/{} {name}: {} ({:.2}s)",
                rows.len() + 1,
                files.len(),
                row.status,
                row.seconds
            );
        } else {
            out(&table_line(&row, a.explain.is_some()))?;
        }
        rows.push(row);
        if interrupt::interrupted() {
            break;
        }
    }
    finish(&a, &rows, files.len())
}

/// The cost column's name: `belts` when every level is Freshly Frosted,
/// `cells` when every one is Cosmic Express, `cost` for a mix.
fn cost_column(files: &[PathBuf], forced: Option<Puzzle>) -> &'static str {
    let cosmic = files
        .iter()
        .filter(|f| Puzzle::of_file(f, forced) == Puzzle::Cosmic)
        .count();
    match cosmic {
        0 => "belts",
        n if n == files.len() => "cells",
        _ => "cost",
    }
}

/// Prints the totals (or the JSON object) and says whether the bench is
/// complete: the exit code.
fn finish(a: &BenchArgs, rows: &[Row], files: usize) -> Result<i32, CliError> {
    let interrupted = interrupt::interrupted();
    if let Some(dir) = &a.html {
        index_page(dir, rows)?;
    }
    let totals = totals(rows, interrupted, a.explain.is_some());
    let errors = totals.error;
    if a.json {
        out_json(&BenchJson {
            levels: rows,
            totals,
        })?;
    } else {
        out(&totals_lines(&totals, a.seeds))?;
    }
    if interrupted {
        let line = format!("interrupted after {} of {files} levels", rows.len());
        if a.json {
            note!("bench: {line}");
        } else {
            out(&format!("{line}\n"))?;
        }
        return Ok(EXIT_UNKNOWN);
    }
    if errors > 0 {
        // Every level ran, but some could not be judged: a script must not
        // take this bench for a complete one.
        return Ok(EXIT_BAD_INPUT);
    }
    Ok(EXIT_OK)
}

/// `bench --html DIR`: DIR/index.html, the table with a link to each page.
fn index_page(dir: &Path, rows: &[Row]) -> Result<(), CliError> {
    let dash = |n: Option<u64>| n.map_or("-".into(), |n| n.to_string());
    let cells = rows
        .iter()
        .map(|r| {
            let cells = vec![
                r.level.clone(),
                r.status.clone(),
                dash(r.belts.or(r.cells)),
                dash(r.iterations),
                format!("{:.2}", r.seconds),
            ];
            (r.level.clone(), cells)
        })
        .collect();
    let head = ["level", "status", "cost", "iterations", "seconds"];
    pictures::write_index(dir, &head, cells)
}

/// Why a `frosted solve` run printed no JSON: its `error:` line (with the
/// position of a parse error), a panic's message, or how it ended.
fn run_failure(out: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut lines = stderr.lines();
    while let Some(l) = lines.next() {
        if let Some(msg) = l.strip_prefix("error: ") {
            return match lines
                .next()
                .and_then(|n| n.trim_start().strip_prefix("--> "))
            {
                Some(at) => format!("{msg} (at {at})"),
                None => msg.to_string(),
            };
        }
        if l.contains("panicked at") {
            let what = lines.next().unwrap_or("").trim();
            let at = l.trim_end_matches(':');
            return format!("frosted solve crashed ({at}: {what}); please report it");
        }
    }
    match out.status.code() {
        Some(c) => format!("frosted solve exited with code {c} without a report"),
        None => "frosted solve was killed by a signal".to_string(),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::{level_row, run_failure, table_line, ProofTimes, Row, Run};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{ExitStatus, Output};

    fn output(code: i32, stderr: &str) -> Output {
        Output {
            // A wait status: the exit code in the second byte.
            status: ExitStatus::from_raw(code << 8),
            stdout: Vec::new(),
            stderr: stderr.as_bytes().to_vec(),
        }
    }

    #[test]
    fn why_a_run_gave_no_report() {
        let parse = output(2, "error: unknown token `?`\n --> a.txt:1:6\n  |\n");
        assert_eq!(run_failure(&parse), "unknown token `?` (at a.txt:1:6)");
        let plain = output(2, "progress: 2.0s\nerror: cannot read a.txt: gone\n");
        assert_eq!(run_failure(&plain), "cannot read a.txt: gone");
        let panic = output(
            101,
            "thread 'main' panicked at src/sim.rs:1:2:\nindex out of bounds\n",
        );
        assert_eq!(
            run_failure(&panic),
            "frosted solve crashed (thread 'main' panicked at src/sim.rs:1:2: index out of bounds); please report it"
        );
        assert_eq!(
            run_failure(&output(7, "")),
            "frosted solve exited with code 7 without a report"
        );
        let killed = Output {
            status: ExitStatus::from_raw(9),
            ..output(0, "")
        };
        assert_eq!(run_failure(&killed), "frosted solve was killed by a signal");
    }

    fn row(status: &str, seconds: f64) -> Row {
        Row {
            at_least: None,
            belts: None,
            best_seconds: None,
            cells: None,
            core: None,
            error: None,
            fastest: None,
            iterations: None,
            level: "a.txt".into(),
            seconds,
            slowest: None,
            status: status.into(),
            statuses: None,
        }
    }

    /// A stopped run's lower bound shows in its row: one more than the
    /// bound's K ("no solution with at most K"), belts or cells.
    #[test]
    fn a_stopped_run_shows_its_lower_bound() {
        let run: Run = serde_json::from_str(
            r#"{"status": "solved", "belts": 59, "seconds": 10.0, "bound": {"by": "chain bound", "max_belts": 56}}"#,
        )
        .expect("a run");
        let line = table_line(&level_row("far.txt".into(), vec![run], false), false);
        assert!(line.trim_end().ends_with(" 57"), "{line}");
        let cosmic: Run = serde_json::from_str(
            r#"{"status": "unknown", "cells": null, "seconds": 10.0, "bound": {"by": "sat", "max_cells": 11}}"#,
        )
        .expect("a run");
        assert_eq!(cosmic.at_least(), Some(12));
        let proved: Run = serde_json::from_str(
            r#"{"status": "optimal", "belts": 7, "seconds": 0.1, "bound": null}"#,
        )
        .expect("a run");
        assert_eq!(proved.at_least(), None);
    }

    /// Unproved levels (solved, unknown, error, mixed) count as never
    /// proved; the figures are nearest ranks over all the levels.
    #[test]
    fn proof_times_rank_every_level() {
        let mut rows: Vec<Row> = (1..=8)
            .map(|i| row(if i % 2 == 0 { "optimal" } else { "unsolvable" }, i as f64))
            .collect();
        rows.push(row("solved", 0.5));
        rows.push(row("mixed", 0.1));
        let t = ProofTimes::of(&rows);
        assert_eq!(
            t,
            ProofTimes {
                proved: 8,
                median: Some(5.0),
                p90: None,
                max: None
            }
        );
        assert_eq!(
            t.line(rows.len()),
            "proofs: 8 of 10 levels proved (optimal or unsolvable); median 5.00s, 90th percentile not proved, max not proved\n"
        );
        let all = ProofTimes::of(&rows[..8]);
        assert_eq!(
            (all.median, all.p90, all.max),
            (Some(4.0), Some(8.0), Some(8.0))
        );
        let none = ProofTimes::of(&[]);
        assert_eq!((none.proved, none.median), (0, None));
    }
}

//! `frosted solve`: the solve loop on a worker thread, with progress lines, a
//! hard timeout and Ctrl-C, and its report on stdout and stderr.

use super::flags::{seconds_of, timeout, MaxCost, Settings, SolveFlags};
use super::front::{Cosmic, ExplainSearch, Front, Frosted};
use super::puzzle::{load_ce_level, Puzzle, PuzzleFlag};
use super::report::{
    exit_code, finished_a_proof, progress_line, report_json, running_call, split_progress,
    stopped_report, summary,
};
use super::report::{Progress, Report};
use super::{interrupt, load_level, out, out_json, pictures, CliError};
use cegar::record::Recording;
use cegar::{Event, Stop};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file (Freshly Frosted: its `.` cells are where belts may go;
    /// Cosmic Express: its JSON).
    pub level: PathBuf,
    #[command(flatten)]
    pub puzzle: PuzzleFlag,
    /// Stop at the first layout (or track) the simulator accepts (status
    /// `solved`), without minimising its cost. A rejected layout whose call
    /// took 50 ms or more is still repaired on the way (see
    /// --no-neighbourhoods).
    #[arg(long)]
    pub first: bool,
    #[command(flatten)]
    pub max: MaxCost,
    /// Give up after this many seconds: the best layout so far is `solved`, no
    /// layout is `unknown` (exit 3). The claim then says what the chain bound
    /// proves below it (a few tenths of a second more at most; see "bound"
    /// under --json).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    #[command(flatten)]
    pub flags: SolveFlags,
    /// Write the formula of every SAT call to DIR/call-NNNN.cnf (NNNN: the
    /// iteration), to study a hard call on its own: DIMACS with the encoding,
    /// every clause the loop added before that call (loop formulas,
    /// counterexamples) and the call's assumptions as unit clauses. `c` lines
    /// say what the call looked for and name the belt variables, so `frosted
    /// decode LEVEL MODEL` reads a model of any of them. The folder is created;
    /// a long solve writes hundreds of megabytes.
    #[arg(long, value_name = "DIR")]
    pub dump_calls: Option<PathBuf>,
    /// Write a certificate of the claim (`unsolvable` or `optimal`) to DIR, for
    /// `frosted check-certificate LEVEL DIR`: the formula of the SAT call
    /// that proves it (DIMACS, its assumptions as unit clauses), CaDiCaL's
    /// DRAT proof of it (needs the `cadical` program), for every clause the
    /// loop added the layout whose run justifies it and the cells it covers,
    /// and manifest.json saying what proves what (docs/certificates.md). A
    /// claim the chain bound proved is proved again by SAT calls for the
    /// certificate, which can take longer. Freshly Frosted only.
    #[arg(long, value_name = "DIR")]
    pub certificate: Option<PathBuf>,
    /// Print one JSON object {"status", "belts", "iterations", "seconds", "layout", ...}
    /// on stdout instead of the layout. Its "proof" is null, or {"max_belts": K,
    /// "by": "sat" or "chain bound"}: no layout with at most K belts solves the
    /// level (K null: of any size), proved by an UNSAT answer or by the chain
    /// bound. After a timeout or a Ctrl-C, "bound" (else null) has the same
    /// shape: what the chain bound proves below the best layout, the gap left
    /// open. For Cosmic Express, "cells" in place of "belts", "path" (a list
    /// of [x, y], entrance to exit) in place of "layout", and "max_cells".
    #[arg(long)]
    pub json: bool,
    /// Print every distinct layout with the fewest belts (with --max-belts:
    /// every one with at most that many), each verified by the simulator,
    /// separated by blank lines; on stderr, how many and whether that is all
    /// (`3 layouts with 7 belts (the fewest) (complete)`). Layouts that differ only on
    /// cells no donut ever visits are the same solution, printed once without
    /// belts on those cells. Freshly Frosted only. Exit 0 with at least one
    /// layout, 1 when there is none, 3 when --timeout came first.
    #[arg(long)]
    pub all: bool,
    /// Like --all, but print only the count line (on stdout; the number first).
    #[arg(long)]
    pub count: bool,
    /// With --all or --count: stop after N layouts (the count then says
    /// `at least N`).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Also write the picture of the layout found (Cosmic Express: the
    /// track) to FILE as an SVG, as `show LEVEL LAYOUT --svg` draws it.
    /// Nothing is written when no layout is found.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Also write the replay of the layout found to FILE: one self-contained
    /// HTML page, as `simulate LEVEL LAYOUT --html` writes it.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub explain: ExplainFlags,
}

/// What `solve` adds after an `unsolvable` verdict (Freshly Frosted).
#[derive(clap::Args, Debug)]
pub struct ExplainFlags {
    /// After an `unsolvable` verdict, do not look for the core of
    /// requirements that conflict and the near-solutions (by default they
    /// follow the summary on stderr, and are "core" and "near" in --json;
    /// see docs/unsolvable.md). The level check's sentences are still
    /// printed when it proved the level impossible.
    #[arg(long)]
    pub no_explain: bool,
    /// The most seconds the core and near-solutions may take after an
    /// `unsolvable` verdict (default 60): what is found by then is printed.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub explain_timeout: f64,
    /// While looking for the core, also run the layouts one visited cell
    /// away from a rejected layout when the SAT call that proposed it took
    /// at least RATIO times as long as its run; each one rejected is blocked
    /// like the layout, and one that meets the question answers it. `off`
    /// never does. It saves SAT calls where they are slow (e.g.
    /// 04-romantic-twilight/11: the core in about 40 calls instead of about
    /// 100), but it rests on timings, so a one-thread explanation may vary
    /// from run to run; `off` makes it repeat (docs/unsolvable.md).
    #[arg(long, value_name = "RATIO", default_value_t = NumberOrOff(Some(freshly_frosted::explain::NEIGHBOURS_AFTER)), value_parser = number_or_off::<u32>)]
    pub explain_neighbours: NumberOrOff<u32>,
    /// While explaining, after a question's first rejected layout, walk
    /// from the runs seen so far for up to RUNS simulator runs, changing one
    /// cell at a time towards a layout that meets the question (a layout
    /// found so is judged like any other; a walk that finds none concludes
    /// nothing and adds no clause); `off` never walks. It answers questions
    /// whose layouts the SAT calls find one rejection at a time (e.g.
    /// 12-deepest-midnight/03: the core in about 20 calls instead of 322).
    #[arg(long, value_name = "RUNS", default_value_t = NumberOrOff(Some(freshly_frosted::explain::WALK_RUNS)), value_parser = number_or_off::<usize>)]
    pub explain_walk: NumberOrOff<usize>,
}

/// `--explain-neighbours`, `--explain-walk`: a whole number, or `None` for
/// `off`.
#[derive(Clone, Copy, Debug)]
pub struct NumberOrOff<T>(pub Option<T>);

impl<T: std::fmt::Display> std::fmt::Display for NumberOrOff<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(n) => write!(f, "{n}"),
            None => write!(f, "off"),
        }
    }
}

fn number_or_off<T: std::str::FromStr>(s: &str) -> Result<NumberOrOff<T>, String> {
    match s {
        "off" => Ok(NumberOrOff(None)),
        _ => s
            .parse()
            .map(|n| NumberOrOff(Some(n)))
            .map_err(|_| format!("expected a whole number or `off`, not `{s}`")),
    }
}

/// Creates the folder `dir` that `flag` (`--dump-calls`, `--certificate`)
/// names, unless a file is in the way.
pub(super) fn make_folder(flag: &str, dir: &Path) -> Result<(), CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::bad_input(format!(
            "{flag}: {} exists and is not a folder",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::bad_input(format!("{flag}: cannot create {}: {e}", dir.display())))
}

/// The settings for `solve`'s arguments, checked.
pub(super) fn settings(a: &Args) -> Result<Settings, CliError> {
    let mut settings = a.flags.settings()?;
    let timeout = a.timeout.map(timeout).transpose()?;
    if let Some(dir) = &a.dump_calls {
        make_folder("--dump-calls", dir)?;
    }
    for (file, flag) in [(&a.svg, "--svg"), (&a.html, "--html")] {
        if let Some(f) = file {
            pictures::check_writable(f, flag)?;
        }
    }
    let opts = &mut settings.opts;
    opts.first = a.first;
    opts.max_cost = a.max.max_belts;
    opts.timeout = timeout;
    opts.dump_calls = a.dump_calls.clone();
    if let Some(dir) = &a.certificate {
        if a.first {
            return Err(CliError::bad_input(
                "--certificate proves a claim, and --first stops before any proof",
            ));
        }
        super::certificate::write::prepare(dir)?;
        opts.record = true;
    }
    Ok(settings)
}

pub fn run(a: Args) -> Result<i32, CliError> {
    if super::enumerate::asked(&a) {
        return super::enumerate::run(&a);
    }
    match Puzzle::of_file(&a.level, a.puzzle.puzzle) {
        Puzzle::Frosted => {
            let level = load_level(&a.level)?;
            let front = match a.explain.no_explain {
                true => Frosted::new(level),
                false => Frosted::explained(level),
            };
            run_front(&front, &a)
        }
        Puzzle::Cosmic if a.certificate.is_some() => Err(CliError::bad_input(
            "--certificate: only Freshly Frosted solves write certificates",
        )),
        Puzzle::Cosmic => run_front(&Cosmic(load_ce_level(&a.level)?), &a),
    }
}

/// Solves the level and prints the best candidate (on stdout) and the
/// summary (on stderr), or the JSON report.
fn run_front<F: Front>(front: &F, a: &Args) -> Result<i32, CliError> {
    let settings = settings(a)?;
    let explain_timeout = seconds_of("--explain-timeout", a.explain.explain_timeout)?;
    let (report, recording) = solve_with_hard_timeout(front, &settings)?;
    let report = with_bound_below(front, &settings, report);
    // The summary comes first, so that the verdict is not kept waiting
    // for its explanation.
    if !a.json {
        if let Some(c) = &report.candidate {
            out(&front.text(c))?;
        }
        note!("{}", summary::<F>(&report));
    }
    // With --no-explain, the level check's sentences only (a proof may
    // rest on them).
    let explained = match report.status == cegar::Status::Unsolvable {
        true => front.explain(
            &settings,
            (!a.explain.no_explain).then_some(explain_timeout),
            &ExplainSearch {
                neighbours_after: a.explain.explain_neighbours.0,
                walk_runs: a.explain.explain_walk.0,
            },
        ),
        false => None,
    };
    let explained = explained.transpose().map_err(CliError::bad_input)?;
    if a.json {
        let mut json = report_json(front, &report);
        if let (serde_json::Value::Object(map), Some((fields, _))) = (&mut json, &explained) {
            map.extend(fields.iter().map(|(k, v)| (k.to_string(), v.clone())));
        }
        out_json(&json)?;
    } else if let Some((_, text)) = explained.as_ref().filter(|(_, t)| !t.is_empty()) {
        note!("{text}");
    }
    if let Some(dir) = &a.certificate {
        note!("{}", front.certificate(&settings, &report, recording, dir)?);
    }
    write_pictures(front, &report, a)?;
    Ok(exit_code(&report))
}

/// A solve stopped (a timeout, a Ctrl-C): what the puzzle's lower bound
/// refutes under the best candidate's cost, or, without a candidate, under
/// `--max-belts` plus one or any count ([`Front::bound_below`]). When that
/// leaves nothing (one unit under the candidate, or every count), the
/// candidate is `optimal` after all, or the level `unsolvable`, proved by
/// the bound; else the report keeps the proof as its
/// [`Report::bound`](cegar::Report::bound), the gap the stop left open.
fn with_bound_below<F: Front>(front: &F, settings: &Settings, mut report: Report<F>) -> Report<F> {
    if !matches!(
        report.claim,
        cegar::Claim::Verified(Some(_)) | cegar::Claim::Nothing(_)
    ) {
        return report;
    }
    let Some(proof) = front.bound_below(settings, report.cost) else {
        return report;
    };
    let top = report.cost.or(settings.opts.max_cost.map(|m| m + 1));
    // Nothing left under the candidate's cost, or under --max-belts (or
    // any count: `None`).
    let closed = match (proof.max_cost, top) {
        (None, _) => true,
        (Some(k), Some(top)) => k + 1 >= top,
        (Some(_), None) => false,
    };
    if closed {
        report.status = match report.cost {
            Some(_) => cegar::Status::Optimal,
            None => cegar::Status::Unsolvable,
        };
        report.claim = cegar::Claim::Proved(proof);
    } else {
        report.bound = Some(proof);
    }
    report
}

/// `--svg FILE` and `--html FILE`: the picture and the replay of what was
/// found (nothing, with a note, when nothing was).
fn write_pictures<F: Front>(front: &F, report: &Report<F>, a: &Args) -> Result<(), CliError> {
    type Draw<F> = fn(&F, &<F as Front>::Candidate, &str) -> String;
    let files: [(&Option<PathBuf>, &str, Draw<F>); 2] =
        [(&a.svg, "--svg", F::svg), (&a.html, "--html", F::html)];
    let title = format!("{}, found by frosted solve", pictures::level_name(&a.level));
    for (file, flag, draw) in files {
        let Some(file) = file else { continue };
        let Some(c) = &report.candidate else {
            note!(
                "{flag}: nothing found, so {} is not written",
                file.display()
            );
            continue;
        };
        pictures::write_to(Some(file), &draw(front, c, &title), flag)?;
    }
    Ok(())
}

/// How often a progress line is printed, at the least: between SAT calls, and
/// during a long one (which says how long it has been running).
pub(super) const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// How often the wait for the solve loop looks for a Ctrl-C or SIGTERM.
const INTERRUPT_CHECK: Duration = Duration::from_millis(100);

/// The best layout, the counts at the last SAT call's start, and when the last
/// progress line was printed (or the solve started): shared by the solve
/// thread, which prints at the start of a SAT call, and the waiting one, which
/// prints during a long call.
struct Shared<F: Front> {
    best: Option<F::Candidate>,
    last: Option<Progress<F>>,
    printed: Instant,
    /// With `--certificate`: what the loop recorded.
    recording: Recording<F::Candidate>,
}

impl<F: Front> Shared<F> {
    /// Whether a progress line is due, and if so, marks it printed.
    fn line_due(&mut self) -> bool {
        let due = self.printed.elapsed() >= PROGRESS_EVERY;
        if due {
            self.printed = Instant::now();
        }
        due
    }

    /// Keeps what the loop reports, and prints a progress line if one is due
    /// (not for a new best layout: a SAT call comes right after).
    fn record(&mut self, p: &Progress<F>) {
        let (improved, counts) = split_progress(p);
        let new_best = improved.is_some();
        if new_best {
            self.best = improved;
        }
        if !new_best && self.line_due() {
            note!("{}", progress_line::<F>(&counts, None));
        }
        self.last = Some(counts);
    }
}

/// The loop's answer, as the worker thread sends it.
type Answer<F> = Result<Report<F>, CliError>;

/// Starts the solve loop on a worker thread, which records its progress in
/// `shared` and sends its answer.
fn spawn_loop<F: Front>(
    front: &F,
    settings: &Settings,
    shared: &Arc<Mutex<Shared<F>>>,
) -> mpsc::Receiver<Answer<F>> {
    let (tx, rx) = mpsc::channel();
    let (front, settings, shared) = (front.clone(), settings.clone(), shared.clone());
    std::thread::spawn(move || {
        let trace_layouts = settings.trace_layouts;
        let mut events = |e: Event<F::Candidate>| match e {
            Event::Progress(p) => {
                if let Ok(mut sh) = shared.lock() {
                    sh.record(p);
                }
            }
            Event::Trace(line) => note!("{line}"),
            e @ (Event::Encoded { .. } | Event::Added { .. } | Event::ProvingCall { .. }) => {
                if let Ok(mut sh) = shared.lock() {
                    sh.recording.take(&e);
                }
            }
            Event::Rejected {
                candidate,
                reason,
                clause_sizes,
            } => {
                let shown = trace_layouts.then(|| front.text(candidate));
                trace_rejected(reason, &clause_sizes, shown)
            }
        };
        let answer = front
            .solve(&settings, &mut events)
            .map_err(CliError::bad_input);
        let _ = tx.send(answer);
    });
    rx
}

/// The trace of a rejected layout: the simulator's reason, the size of the
/// clauses it became (the counterexample, then a wrong-branch clause), and
/// the layout (or track) itself if asked for.
fn trace_rejected(reason: &str, clause_sizes: &[usize], shown: Option<String>) {
    let cells = clause_sizes.first().copied().unwrap_or(0);
    note!("trace: rejected ({cells} cells): {reason}");
    for n in clause_sizes.iter().skip(1) {
        note!("trace: wrong-branch clause ({n} literals)");
    }
    if let Some(text) = shown {
        note!("{text}");
    }
}

/// After a Ctrl-C, the loop may still answer: its `cmd:` solver got the signal
/// too and failed the call, or was stopped and gave up (`sat::stop_all`). The
/// interrupt is reported then, unless the loop finished a proof.
fn proved<C>(answer: &Result<cegar::Report<C>, CliError>) -> bool {
    answer.as_ref().is_ok_and(finished_a_proof)
}

/// Waits for the loop's answer, printing a progress line during a long SAT
/// call; `None` when the deadline passes or an interrupt comes first.
fn wait_for_loop<F: Front>(
    rx: &mpsc::Receiver<Answer<F>>,
    deadline: Option<Instant>,
    shared: &Mutex<Shared<F>>,
    start: Instant,
) -> Option<Answer<F>> {
    loop {
        // Short waits, so that Ctrl-C is answered at once.
        let wait = match deadline {
            Some(d) => d.saturating_duration_since(Instant::now()),
            None => PROGRESS_EVERY,
        }
        .min(INTERRUPT_CHECK);
        match rx.recv_timeout(wait) {
            Ok(r) if interrupt::interrupted() && !proved(&r) => return None,
            Ok(r) => return Some(r),
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if interrupt::interrupted() || deadline.is_some_and(|d| Instant::now() >= d) {
                    return None;
                }
                // A long SAT call: say so, unless a line came recently.
                if let Ok(mut sh) = shared.lock() {
                    if sh.last.is_some() && sh.line_due() {
                        if let Some(p) = &sh.last {
                            note!("{}", progress_line::<F>(p, Some(running_call(p, start))));
                        }
                    }
                }
            }
        }
    }
}

/// Runs the solve loop on a worker thread, printing progress lines on stderr, and
/// stops waiting at the timeout even if the SAT backend cannot be interrupted
/// (varisat): the best verified layout so far is then reported as `solved`.
/// While one SAT call runs for long, a progress line still comes every
/// [`PROGRESS_EVERY`], saying how long the call has been running.
pub(super) fn solve_with_hard_timeout<F: Front>(
    front: &F,
    settings: &Settings,
) -> Result<(Report<F>, Recording<F::Candidate>), CliError> {
    let opts = &settings.opts;
    let start = Instant::now();
    let shared = Arc::new(Mutex::new(Shared {
        best: None,
        last: None,
        printed: start,
        recording: Recording::default(),
    }));
    let rx = spawn_loop(front, settings, &shared);
    let deadline = opts.timeout.map(|t| start + t + Duration::from_millis(500));
    interrupt::catch();
    let received = wait_for_loop(&rx, deadline, &shared, start);
    if received.is_none() && interrupt::interrupted() {
        // A `cmd:` solver is being stopped (`sat::stop_all`): give the
        // loop a moment to kill it and remove its file before we exit.
        let _ = rx.recv_timeout(Duration::from_millis(300));
        // The racing copies may still be at it: their files go now.
        crate::sat::remove_temp_files();
    }
    let recorded = || {
        let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut sh.recording)
    };
    if let Some(answer) = received {
        return answer.map(|r| (r, recorded()));
    }
    let stop = match interrupt::interrupted() {
        true => Stop::Interrupted,
        false => Stop::TimedOut,
    };
    let (best, last) = shared
        .lock()
        .map(|sh| (sh.best.clone(), sh.last.clone()))
        .unwrap_or_default();
    let solver = opts.solver.name();
    let report = stopped_report(
        front,
        solver,
        opts.threads,
        start,
        stop,
        best,
        last.as_ref(),
    );
    Ok((report, recorded()))
}

#[cfg(test)]
mod tests {
    use super::number_or_off;

    #[test]
    fn explain_neighbours_takes_the_suggested_ratio_or_off() {
        let suggested = number_or_off::<u32>("100").map(|n| n.0);
        assert_eq!(
            suggested,
            Ok(Some(freshly_frosted::explain::NEIGHBOURS_AFTER))
        );
        assert_eq!(number_or_off::<u32>("off").map(|n| n.0), Ok(None));
        assert!(number_or_off::<u32>("fast").is_err());
    }

    #[test]
    fn explain_walk_takes_a_number_of_runs_or_off() {
        assert_eq!(number_or_off::<usize>("500").map(|n| n.0), Ok(Some(500)));
        assert_eq!(number_or_off::<usize>("off").map(|n| n.0), Ok(None));
        assert!(number_or_off::<usize>("-1").is_err());
    }
}

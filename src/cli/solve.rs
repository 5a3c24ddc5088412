//! `frosted solve`, `dump-cnf`, `decode` and `bench`: the SAT side on the command
//! line.

use super::{
    display_name, interrupt, load_level, out, read_bounded, CliError, EXIT_BAD_INPUT, EXIT_NO,
    EXIT_OK, EXIT_UNKNOWN,
};
use crate::cegar::{belts, solve, Options, Progress, Report, Status, Times};
use crate::encode::Encoding;
use crate::level::Level;
use crate::sat::{dimacs, Answer, SolverChoice};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file (its `.` cells are where belts may go).
    pub level: PathBuf,
    /// Stop at the first layout the simulator accepts (status `solved`), without
    /// minimising the belt count.
    #[arg(long)]
    pub first: bool,
    /// Only look for layouts with at most K belts; `unsolvable` then means "none
    /// with at most K".
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub max_belts: Option<usize>,
    /// Give up after this many seconds: the best layout so far is `solved`, no
    /// layout is `unknown` (exit 3).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// The SAT solver: `varisat` (built in), `cadical` (needs the `cadical` cargo
    /// feature), or `cmd:PROGRAM` to run a DIMACS solver binary on each iteration
    /// (e.g. `cmd:cadical` or `cmd:minisat` from Debian): one that prints `s` and
    /// `v` lines, or MiniSat or Glucose (a program named `minisat*` or
    /// `glucose*`), whose result file is read instead.
    #[arg(long, default_value = "varisat", value_name = "SOLVER")]
    pub solver: String,
    /// Race N copies of the solver on their own threads, each holding the
    /// clauses in another order: a SAT call that runs over a second is answered
    /// by the first copy to finish (the run times of one formula vary a lot
    /// with clause order). Calls under a second are answered as by one solver;
    /// 1 runs one solver, deterministically. At most 64.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        allow_negative_numbers = true
    )]
    pub threads: usize,
    /// Skip the neighbourhood search: by default each verified layout is first
    /// improved by calls that may only change one window of it (quick, but they
    /// prove nothing), before the calls over the whole board.
    #[arg(long)]
    pub no_neighbourhoods: bool,
    /// Give every racing copy the plain encoding. By default the copies after
    /// the first hold a second view of it: loops grounded by vertex
    /// elimination instead of ranks (where there are ranks), and the whole
    /// simplified by variable elimination (variables that no later clause or
    /// assumption names are resolved away, and get their values back in every
    /// model). Faster on some levels, slower on others, so it is the race's
    /// second view rather than the only one. No effect with --threads 1.
    #[arg(long)]
    pub no_elimination: bool,
    /// Prove by SAT calls only. By default, on levels with one plain source
    /// and no bumpers, crossovers, preset belts or teleporters with several
    /// outs, the chain bound is asked first, before the first SAT call
    /// (could any layout, within --max-belts, solve?) and after each
    /// verified layout (could one belt fewer?): a search over the ways
    /// chains of belts can run between the source, the toppers, the
    /// splitters and the targets, which may prove at once that none can
    /// (see encodings/README.md, "The chain bound").
    #[arg(long)]
    pub no_chain_bound: bool,
    /// Write the formula of every SAT call to DIR/call-NNNN.cnf (NNNN: the
    /// iteration), to study a hard call on its own: DIMACS with the encoding,
    /// every clause the loop added before that call (loop formulas,
    /// counterexamples) and the call's assumptions as unit clauses. `c` lines
    /// say what the call looked for and name the belt variables, so `frosted
    /// decode LEVEL MODEL` reads a model of any of them. The folder is created;
    /// a long solve writes hundreds of megabytes.
    #[arg(long, value_name = "DIR")]
    pub dump_calls: Option<PathBuf>,
    /// Print one JSON object {"status", "belts", "iterations", "seconds", "layout", ...}
    /// on stdout instead of the layout. Its "proof" is null, or {"max_belts": K,
    /// "by": "sat" or "chain bound"}: no layout with at most K belts solves the
    /// level (K null: of any size), proved by an UNSAT answer or by the chain
    /// bound.
    #[arg(long)]
    pub json: bool,
}

/// A count flag (`--threads`, `--seeds`), checked to be at least 1.
fn at_least_one(flag: &str, n: usize) -> Result<usize, CliError> {
    match n {
        0 => Err(CliError::bad_input(format!("{flag} must be at least 1"))),
        n => Ok(n),
    }
}

/// The most racing copies: each is a thread with a whole solver and formula.
const MAX_THREADS: usize = 64;

/// `--threads`, checked to be from 1 to `MAX_THREADS`.
fn threads(n: usize) -> Result<usize, CliError> {
    match at_least_one("--threads", n)? {
        n if n > MAX_THREADS => Err(CliError::bad_input(format!(
            "--threads must be at most {MAX_THREADS}, not {n} (each copy holds its own \
             solver and formula)"
        ))),
        n => Ok(n),
    }
}

/// The longest `--timeout`: a year (leave the flag out for no limit).
const MAX_TIMEOUT: f64 = 365.0 * 24.0 * 3600.0;

/// A `--timeout` in seconds, checked: positive, and at most a year.
fn timeout(t: f64) -> Result<Duration, CliError> {
    if t.is_nan() || t <= 0.0 {
        return Err(CliError::bad_input(format!(
            "--timeout must be a positive number of seconds, not {t}"
        )));
    }
    if t > MAX_TIMEOUT {
        return Err(CliError::bad_input(format!(
            "--timeout must be at most {MAX_TIMEOUT} seconds (a year), not {t:e}"
        )));
    }
    Ok(Duration::from_secs_f64(t))
}

fn options(a: &Args) -> Result<Options, CliError> {
    let solver = SolverChoice::parse(&a.solver).map_err(CliError::bad_input)?;
    let timeout = a.timeout.map(timeout).transpose()?;
    if let Some(dir) = &a.dump_calls {
        if dir.exists() && !dir.is_dir() {
            return Err(CliError::bad_input(format!(
                "--dump-calls: {} exists and is not a folder",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(|e| {
            CliError::bad_input(format!(
                "--dump-calls: cannot create {}: {e}",
                dir.display()
            ))
        })?;
    }
    Ok(Options {
        solver,
        first: a.first,
        max_belts: a.max_belts,
        timeout,
        threads: threads(a.threads)?,
        neighbourhoods: !a.no_neighbourhoods,
        dump_calls: a.dump_calls.clone(),
        eliminate: !a.no_elimination,
        chain_bound: !a.no_chain_bound,
        ..Options::default()
    })
}

fn exit_code(s: Status) -> i32 {
    match s {
        Status::Optimal | Status::Solved => EXIT_OK,
        Status::Unsolvable => EXIT_NO,
        Status::Unknown => EXIT_UNKNOWN,
    }
}

/// The JSON object for a report.
pub fn report_json(r: &Report) -> serde_json::Value {
    json!({
        "status": r.status.name(),
        "belts": r.belts,
        "iterations": r.iterations,
        "seconds": r.times.total.as_secs_f64(),
        "layout": r.layout.as_ref().map(|l| l.to_string()),
        "claim": r.claim,
        "proof": r.proof.map(|k| json!({
            "max_belts": k,
            "by": if r.proved_by_chains { "chain bound" } else { "sat" },
        })),
        "counterexamples": r.counterexamples,
        "loop_clauses": r.loop_clauses,
        "variables": r.variables,
        "clauses": r.clauses,
        "second_view": r.second_view.map(|v| json!({
            "own_variables": v.own_variables,
            "eliminated": v.eliminated,
            "clauses": v.clauses,
        })),
        "solver": r.solver,
        "threads": r.threads,
        "best_seconds": r.best_at.map(|t| t.as_secs_f64()),
        "times": {
            "encode": r.times.encode.as_secs_f64(),
            "sat": r.times.sat.as_secs_f64(),
            "searching": r.times.searching.as_secs_f64(),
            "improving": r.times.improving.as_secs_f64(),
            "proving": r.times.proving.as_secs_f64(),
            "simulate": r.times.simulate.as_secs_f64(),
            "chain_bound": r.times.chain_bound.as_secs_f64(),
        },
    })
}

/// The summary's formula line: its size and the solver, or that a timeout
/// came before the encoding was built (a huge board).
fn formula_line(r: &Report) -> String {
    if r.variables == 0 && r.clauses == 0 && r.status == Status::Unknown {
        return "not built: stopped before the encoding was done".into();
    }
    format!(
        "{} variables, {} clauses ({})",
        r.variables,
        r.clauses,
        match r.second_view {
            None => r.solver_label(),
            Some(v) => format!(
                "{}; the second view: {}{} variables eliminated, {} clauses",
                r.solver_label(),
                match v.own_variables {
                    0 => String::new(),
                    n => format!("{n} variables of its own, "),
                },
                v.eliminated,
                v.clauses
            ),
        }
    )
}

fn summary(r: &Report) -> String {
    let belts = r.belts.map_or("-".to_string(), |b| b.to_string());
    let t = &r.times;
    format!(
        "status: {}\nclaim: {}\nbelts: {belts}\niterations: {} ({} counterexamples, {} loop clauses)\nformula: {}\ntime: {:.3}s (encode {:.3}s, sat {:.3}s, simulate {:.3}s, chain bound {:.3}s)\nsat time: {:.3}s searching, {:.3}s improving, {:.3}s proving; {}",
        r.status.name(),
        r.claim,
        r.iterations,
        r.counterexamples,
        r.loop_clauses,
        formula_line(r),
        t.total.as_secs_f64(),
        t.encode.as_secs_f64(),
        t.sat.as_secs_f64(),
        t.simulate.as_secs_f64(),
        t.chain_bound.as_secs_f64(),
        t.searching.as_secs_f64(),
        t.improving.as_secs_f64(),
        t.proving.as_secs_f64(),
        match r.best_at {
            Some(b) => format!("best layout after {:.3}s", b.as_secs_f64()),
            None => "no layout".into(),
        },
    )
}

pub fn run(a: Args) -> Result<i32, CliError> {
    let level = load_level(&a.level)?;
    let opts = options(&a)?;
    let report = solve_with_hard_timeout(&level, &opts)?;
    if a.json {
        out(&format!("{}\n", report_json(&report)))?;
    } else {
        if let Some(l) = &report.layout {
            out(&l.to_string())?;
        }
        note!("{}", summary(&report));
    }
    Ok(exit_code(report.status))
}

/// How often a progress line is printed, at the least: between SAT calls, and
/// during a long one (which says how long it has been running).
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// How often the wait for the solve loop looks for a Ctrl-C or SIGTERM.
const INTERRUPT_CHECK: Duration = Duration::from_millis(100);

/// The best layout, the counts at the last SAT call's start, and when the last
/// progress line was printed (or the solve started): shared by the solve
/// thread, which prints at the start of a SAT call, and the waiting one, which
/// prints during a long call.
struct Shared {
    best: Option<Level>,
    last: Option<Progress>,
    printed: Instant,
}

impl Shared {
    /// Whether a progress line is due, and if so, marks it printed.
    fn line_due(&mut self) -> bool {
        let due = self.printed.elapsed() >= PROGRESS_EVERY;
        if due {
            self.printed = Instant::now();
        }
        due
    }
}

/// One progress line: where the loop is, and, during a long SAT call, for how
/// long that call has been running.
fn progress_line(p: &Progress, running: Option<Duration>) -> String {
    let mut line = format!(
        "progress: {:.1}s, {} iterations, best {}, {} {}",
        p.elapsed.as_secs_f64() + running.map_or(0.0, |r| r.as_secs_f64()),
        p.iterations,
        p.best.map_or("none".into(), belts),
        if p.improving {
            "improving the best, looking for"
        } else if p.proving {
            "proving"
        } else {
            "searching"
        },
        p.bound
            .map_or("any size".into(), |b| format!("<= {}", belts(b))),
    );
    if let Some(r) = running.filter(|r| r.as_secs() >= 1) {
        line.push_str(&format!(", SAT call running for {:.1}s", r.as_secs_f64()));
    }
    line
}

/// Runs the solve loop on a worker thread, printing progress lines on stderr, and
/// stops waiting at the timeout even if the SAT backend cannot be interrupted
/// (varisat): the best verified layout so far is then reported as `solved`.
/// While one SAT call runs for long, a progress line still comes every
/// [`PROGRESS_EVERY`], saying how long the call has been running.
fn solve_with_hard_timeout(level: &Level, opts: &Options) -> Result<Report, CliError> {
    let start = Instant::now();
    let shared = Arc::new(Mutex::new(Shared {
        best: None,
        last: None,
        printed: start,
    }));
    let (tx, rx) = mpsc::channel();
    {
        let (level, opts, shared) = (level.clone(), opts.clone(), shared.clone());
        std::thread::spawn(move || {
            let mut progress = |p: &Progress| {
                let Ok(mut sh) = shared.lock() else { return };
                if let Some(l) = &p.improved {
                    sh.best = Some(l.clone());
                }
                sh.last = Some(Progress {
                    improved: None,
                    ..p.clone()
                });
                if p.improved.is_none() && sh.line_due() {
                    note!("{}", progress_line(p, None));
                }
            };
            let _ = tx.send(solve(&level, &opts, &mut progress));
        });
    }
    let deadline = opts.timeout.map(|t| start + t + Duration::from_millis(500));
    interrupt::catch();
    let received = loop {
        // Short waits, so that Ctrl-C is answered at once.
        let wait = match deadline {
            Some(d) => d.saturating_duration_since(Instant::now()),
            None => PROGRESS_EVERY,
        }
        .min(INTERRUPT_CHECK);
        match rx.recv_timeout(wait) {
            // After a Ctrl-C, the loop may still answer: its `cmd:` solver got
            // the signal too and failed the call, or was stopped and gave up
            // (`sat::stop_all`). Report the interrupt, unless the loop finished
            // a proof.
            Ok(r)
                if interrupt::interrupted()
                    && !r.as_ref().is_ok_and(|r| {
                        matches!(r.status, Status::Optimal | Status::Unsolvable)
                    }) =>
            {
                break None
            }
            Ok(r) => break Some(r),
            Err(mpsc::RecvTimeoutError::Disconnected) => break None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if interrupt::interrupted() || deadline.is_some_and(|d| Instant::now() >= d) {
                    break None;
                }
                // A long SAT call: say so, unless a line came recently.
                if let Ok(mut sh) = shared.lock() {
                    if sh.last.is_some() && sh.line_due() {
                        if let Some(p) = &sh.last {
                            let running = start.elapsed().saturating_sub(p.elapsed);
                            note!("{}", progress_line(p, Some(running)));
                        }
                    }
                }
            }
        }
    };
    if received.is_none() && interrupt::interrupted() {
        // A `cmd:` solver is being stopped (`sat::stop_all`): give the
        // loop a moment to kill it and remove its file before we exit.
        let _ = rx.recv_timeout(Duration::from_millis(300));
        // The racing copies may still be at it: their files go now.
        crate::sat::remove_temp_files();
    }
    match received {
        Some(r) => r.map_err(|e| CliError::bad_input(e.to_string())),
        None => {
            let why = if interrupt::interrupted() {
                "interrupted"
            } else {
                "timed out"
            };
            let (layout, last) = shared
                .lock()
                .map(|sh| (sh.best.clone(), sh.last.clone()))
                .unwrap_or_default();
            let belts = layout.as_ref().map(|l| l.added_belts(level));
            let last = last.as_ref();
            Ok(Report {
                iterations: last.map_or(0, |p| p.iterations),
                counterexamples: last.map_or(0, |p| p.counterexamples),
                loop_clauses: last.map_or(0, |p| p.loop_clauses),
                status: if layout.is_some() {
                    Status::Solved
                } else {
                    Status::Unknown
                },
                claim: match layout {
                    Some(_) => {
                        format!("verified by the simulator; {why} before proving it minimal")
                    }
                    None => format!("{why} before a layout or a proof"),
                },
                layout,
                belts,
                variables: last.map_or(0, |p| p.variables),
                clauses: last.map_or(0, |p| p.clauses),
                second_view: last.and_then(|p| p.second_view),
                best_at: last.and_then(|p| p.best_at),
                // The call in flight when time ran out was a SAT call.
                times: match last {
                    Some(p) => {
                        let mut t = Times {
                            total: start.elapsed(),
                            ..p.times.clone()
                        };
                        t.add_call(
                            start.elapsed().saturating_sub(p.elapsed),
                            p.improving,
                            p.proving,
                        );
                        t
                    }
                    None => Times {
                        total: start.elapsed(),
                        ..Times::default()
                    },
                },
                ..Report::empty(opts.solver.name(), opts.threads)
            })
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct DumpArgs {
    /// The level file.
    pub level: PathBuf,
    /// Write the CNF here instead of stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Add unit clauses bounding the layout to at most K belts.
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub max_belts: Option<usize>,
    /// Leave out the searching-mode strengthening (a pure relaxation: UNSAT then
    /// proves that no layout solves the level).
    #[arg(long)]
    pub relaxed: bool,
    /// Ground loops the way the racing solver copies do (C7′ in
    /// encodings/README.md: "the support edges close no cycle", by vertex
    /// elimination) instead of with ranks: the same problem in far fewer
    /// clauses on levels whose donuts can loop through a splitter or
    /// teleporter (09-tropical-rain/11: 16 000 instead of 103 000), and faster
    /// for external solvers there. The belt variables keep their numbers, so
    /// `frosted decode` reads its models too.
    #[arg(long)]
    pub acyclic: bool,
    /// Fix a free cell's option with a unit clause: `X,Y=OPTION` (the cell
    /// holds it) or `X,Y!=OPTION` (it does not), OPTION one of none, up,
    /// down, left, right, X and Y as in the `c choice` lines (from 0, y
    /// down). Repeat it to split a hard call into cases that an external
    /// solver can refute one by one: `--assume 4,1!=up`, then `--assume
    /// 4,1=up --assume 4,7!=down`, then `--assume 4,1=up --assume 4,7=down`
    /// cover every layout.
    #[arg(long, value_name = "X,Y=OPTION")]
    pub assume: Vec<crate::encode::CellFact>,
}

pub fn dump_cnf(a: DumpArgs) -> Result<i32, CliError> {
    let level = load_level(&a.level)?;
    let dump = crate::encode::Dump {
        max_belts: a.max_belts,
        relaxed: a.relaxed,
        acyclic: a.acyclic,
        assume: a.assume.clone(),
        encode: Default::default(),
    };
    let text = crate::encode::dimacs(&level, &dump)
        .map_err(|e| CliError::bad_input(format!("--assume {e}")))?;
    match &a.output {
        Some(p) => std::fs::write(p, text)
            .map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", p.display())))?,
        None => out(&text)?,
    }
    Ok(EXIT_OK)
}

#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    /// The level the CNF was dumped from.
    pub level: PathBuf,
    /// The SAT solver's output: `s SATISFIABLE` and `v` lines, or MiniSat's
    /// result file (`SAT` and the model); `-` for stdin.
    pub model: PathBuf,
}

/// Room for a solver's comment lines in a model file, and for the variables
/// the loop adds after the first iteration (a model of a `--dump-calls` file:
/// loop-formula gates, a lazy belt counter grown on a big board).
const MODEL_SLACK_BYTES: u64 = 64 << 20;
/// Room for one variable's value in a model file (`-12345678 `, with margin).
const MODEL_BYTES_PER_VAR: u64 = 24;

pub fn decode(a: DecodeArgs) -> Result<i32, CliError> {
    let level = load_level(&a.level)?;
    let mut vars = BasicVarManager::default();
    let mut cnf = Cnf::new();
    let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
    // A model names each variable once: a few bytes per variable, plus room.
    // Anything much larger is not a model of this level's CNFs (and `/dev/zero`
    // would be read for ever).
    let limit = MODEL_SLACK_BYTES + MODEL_BYTES_PER_VAR * vars.n_used() as u64;
    let bytes = read_bounded(&a.model, limit, "a model of this level's CNF")?;
    let text = String::from_utf8_lossy(&bytes);
    match dimacs::parse_output(&text, vars.n_used())
        .map_err(|e| CliError::bad_input(e.render(&display_name(&a.model))))?
    {
        Answer::Sat(model) => {
            if let Some((c, n)) = enc.one_hot_violation(&model) {
                return Err(CliError::bad_input(format!(
                    "{}: the model sets {n} of the 5 options (none, up, down, \
                     left, right) of the free cell {}, where the level's CNF sets \
                     exactly one: is it a whole model of `frosted dump-cnf {}`?",
                    display_name(&a.model),
                    level.pos(c),
                    a.level.display()
                )));
            }
            let layout = enc.decode(&model);
            out(&layout.to_string())?;
            // A model is a candidate; only the simulator says whether it solves.
            let verdict = crate::judge::judge(&layout);
            let placed = belts(layout.added_belts(&level));
            match &verdict.reason {
                None => note!("decoded {placed}; the simulator says: solved"),
                Some(r) => note!(
                    "decoded {placed}; the simulator says: not solved: {} \
                     (a model of a dumped CNF is only a candidate: `frosted solve` \
                     runs the loop that turns candidates into solutions)",
                    crate::judge::explain(&layout, r, &verdict.outcome)
                ),
            }
            Ok(EXIT_OK)
        }
        Answer::Unsat => {
            note!("the solver says UNSATISFIABLE: there is no layout to decode");
            Ok(EXIT_NO)
        }
        Answer::Unknown => {
            note!("the solver says UNKNOWN: there is no layout to decode");
            Ok(EXIT_UNKNOWN)
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// A folder: every level file under it (recursively) is solved; files named
    /// `*.solution.txt` or `*.wrong.txt`, and the `judged` folder, are skipped.
    pub dir: PathBuf,
    /// Seconds allowed per level.
    #[arg(
        long,
        default_value_t = 60.0,
        value_name = "SECONDS",
        allow_negative_numbers = true
    )]
    pub timeout: f64,
    /// The SAT solver, as for `solve`.
    #[arg(long, default_value = "varisat", value_name = "SOLVER")]
    pub solver: String,
    /// Racing solver copies per level, as for `solve` (levels run one at a
    /// time).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        allow_negative_numbers = true
    )]
    pub threads: usize,
    /// Solve every level K times, with `FROSTED_SEED=1..K` (each run holds the
    /// clauses in another order), and report the median, fastest and slowest
    /// time: one run's time can swing several-fold with the clause order, so
    /// judge a change by several.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub seeds: usize,
    /// Pass `--no-neighbourhoods` to every run.
    #[arg(long)]
    pub no_neighbourhoods: bool,
    /// Pass `--no-elimination` to every run.
    #[arg(long)]
    pub no_elimination: bool,
    /// Pass `--no-chain-bound` to every run.
    #[arg(long)]
    pub no_chain_bound: bool,
    /// Print one JSON object {"levels": [...], "totals": {...}} instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The level files under `dir`, in name order: every `.txt` file but solutions
/// (`.solution.txt`, `.wrong.txt`), in subfolders too, except `judged/`, hidden
/// folders and links to folders.
fn level_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
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
                level_files(&p, out)?;
            }
        } else if name.ends_with(".txt")
            && !name.ends_with(".solution.txt")
            && !name.ends_with(".wrong.txt")
            && p.is_file()
        {
            out.push(p);
        }
    }
    Ok(())
}

/// Solves every level under a folder, each in its own `frosted solve` process
/// (so a timeout really stops it), and prints a table with totals.
pub fn bench(a: BenchArgs) -> Result<i32, CliError> {
    SolverChoice::parse(&a.solver).map_err(CliError::bad_input)?;
    timeout(a.timeout)?;
    let threads = threads(a.threads)?;
    let seeded = at_least_one("--seeds", a.seeds)? > 1;
    let mut files = Vec::new();
    level_files(&a.dir, &mut files)
        .map_err(|e| CliError::bad_input(format!("cannot read {}: {e}", a.dir.display())))?;
    if files.is_empty() {
        return Err(CliError::bad_input(format!(
            "no level files under {}",
            a.dir.display()
        )));
    }
    let exe = std::env::current_exe()
        .map_err(|e| CliError::bad_input(format!("cannot find frosted itself: {e}")))?;
    let mut rows = Vec::new();
    // Ctrl-C reaches the running `frosted solve` too, which reports what it
    // has; the bench then stops after that level and prints what it has.
    interrupt::catch();
    if !a.json {
        let mut head = format!(
            "{:<44} {:>10} {:>6} {:>10} {:>9}",
            "level", "status", "belts", "iterations", "seconds"
        );
        if seeded {
            head += &format!(" {:>9} {:>9}", "fastest", "slowest");
        }
        out(&format!("{head} {:>9}\n", "best at"))?;
    }
    for f in &files {
        let name = f.strip_prefix(&a.dir).unwrap_or(f).display().to_string();
        if !a.json {
            // The level's name comes first, so that the table shows which
            // level is being solved; the rest of its row follows.
            out(&format!("{name:<44}"))?;
        }
        let mut runs: Vec<serde_json::Value> = Vec::new();
        for seed in 1..=a.seeds {
            let t = Instant::now();
            let mut cmd = std::process::Command::new(&exe);
            cmd.arg("solve").arg(f).args([
                "--json",
                "--timeout",
                &a.timeout.to_string(),
                "--solver",
                &a.solver,
                "--threads",
                &threads.to_string(),
            ]);
            if a.no_neighbourhoods {
                cmd.arg("--no-neighbourhoods");
            }
            if a.no_elimination {
                cmd.arg("--no-elimination");
            }
            if a.no_chain_bound {
                cmd.arg("--no-chain-bound");
            }
            if seeded {
                cmd.env("FROSTED_SEED", seed.to_string());
            }
            let v = match cmd.output() {
                Ok(out) => serde_json::from_slice(&out.stdout)
                    .unwrap_or_else(|_| run_error(t, run_failure(&out))),
                Err(e) => run_error(t, format!("cannot run frosted solve: {e}")),
            };
            runs.push(v);
            if interrupt::interrupted() {
                break;
            }
        }
        // The median run by time stands for the level; with several seeds the
        // status is that run's if all agree, else "mixed".
        runs.sort_by(|x, y| {
            let t = |v: &serde_json::Value| v["seconds"].as_f64().unwrap_or(f64::MAX);
            t(x).total_cmp(&t(y))
        });
        let v = &runs[runs.len() / 2];
        let agree = runs.iter().all(|r| r["status"] == v["status"]);
        let status = if agree {
            v["status"].clone()
        } else {
            json!("mixed")
        };
        let secs = |r: &serde_json::Value| r["seconds"].as_f64().unwrap_or(0.0);
        let mut row = json!({
            "level": name,
            "status": status,
            "belts": v["belts"],
            "iterations": v["iterations"],
            "seconds": v["seconds"],
            "best_seconds": v["best_seconds"],
        });
        // Why a run could not give a status (the first such run's reason).
        let error = runs.iter().find_map(|r| r["error"].as_str());
        if let Some(e) = error {
            row["error"] = json!(e);
        }
        if seeded {
            row["fastest"] = json!(secs(&runs[0]));
            row["slowest"] = json!(secs(&runs[runs.len() - 1]));
            row["statuses"] = json!(runs.iter().map(|r| r["status"].clone()).collect::<Vec<_>>());
        }
        if !a.json {
            let mut line = format!(
                " {:>10} {:>6} {:>10} {:>9.2}",
                row["status"].as_str().unwrap_or("error"),
                v["belts"].as_u64().map_or("-".into(), |b| b.to_string()),
                v["iterations"]
                    .as_u64()
                    .map_or("-".into(), |i| i.to_string()),
                secs(v)
            );
            if seeded {
                line += &format!(
                    " {:>9.2} {:>9.2}",
                    secs(&runs[0]),
                    secs(&runs[runs.len() - 1])
                );
            }
            line += &format!(
                " {:>9}\n",
                v["best_seconds"]
                    .as_f64()
                    .map_or("-".into(), |b| format!("{b:.2}"))
            );
            if let Some(e) = error {
                line += &format!("  error: {e}\n");
            }
            out(&line)?;
        } else {
            // The table's rows show progress as they come; JSON comes at the
            // end, so say on stderr how far the bench is.
            note!(
                "bench: {}/{} {name}: {} ({:.2}s)",
                rows.len() + 1,
                files.len(),
                row["status"].as_str().unwrap_or("error"),
                secs(v)
            );
        }
        rows.push(row);
        if interrupt::interrupted() {
            break;
        }
    }
    let interrupted = interrupt::interrupted();
    let count = |s: &str| rows.iter().filter(|r| r["status"] == s).count();
    let seconds: f64 = rows.iter().filter_map(|r| r["seconds"].as_f64()).sum();
    let mut totals = json!({
        "levels": rows.len(),
        "optimal": count("optimal"),
        "solved": count("solved"),
        "unsolvable": count("unsolvable"),
        "unknown": count("unknown"),
        "error": count("error"),
        "mixed": count("mixed"),
        "seconds": seconds,
    });
    if interrupted {
        totals["interrupted"] = json!(true);
    }
    if a.json {
        out(&format!("{}\n", json!({"levels": rows, "totals": totals})))?;
    } else {
        out(&format!(
            "total: {} level{}, {} optimal, {} solved, {} unsolvable, {} unknown, {} error{}, {:.1}s\n",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" },
            count("optimal"),
            count("solved"),
            count("unsolvable"),
            count("unknown"),
            count("error"),
            if count("error") == 1 { "" } else { "s" },
            seconds
        ))?;
        if seeded {
            out(&format!(
                "{} levels with mixed statuses over {} seeds; seconds are medians\n",
                count("mixed"),
                a.seeds
            ))?;
        }
    }
    if interrupted {
        let line = format!("interrupted after {} of {} levels", rows.len(), files.len());
        if a.json {
            note!("bench: {line}");
        } else {
            out(&format!("{line}\n"))?;
        }
        return Ok(EXIT_UNKNOWN);
    }
    if count("error") > 0 {
        // Every level ran, but some could not be judged: a script must not
        // take this bench for a complete one.
        return Ok(EXIT_BAD_INPUT);
    }
    Ok(EXIT_OK)
}

/// A bench row for a run that gave no report: status `error`, and why.
fn run_error(t: Instant, why: String) -> serde_json::Value {
    json!({"status": "error", "seconds": t.elapsed().as_secs_f64(), "error": why})
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
    use super::run_failure;
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
}

//! The `frosted` command line: argument definitions and dispatch. Each subcommand
//! lives in its own module; this one only wires them together and maps errors to
//! the fixed exit codes.

mod bench;
mod certificate;
mod cosmic;
mod cosmic_dump;
mod dump;
mod enumerate;
mod explain;
mod flags;
mod front;
mod generate;
mod interrupt;
mod pictures;
mod puzzle;
mod report;
mod simulate;
mod solve;
mod verify;

use crate::level::Level;
use crate::parse::parse_bytes;
use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Exit code: the layout solves the level / a solution was found.
pub const EXIT_OK: i32 = 0;
/// Exit code: the layout does not solve the level / the level has no solution.
pub const EXIT_NO: i32 = 1;
/// Exit code: bad input (unreadable file, parse error, layout that changes the level).
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code: the solver gave up (timeout) without an answer.
pub const EXIT_UNKNOWN: i32 = 3;

#[derive(Parser, Debug)]
#[command(
    name = "frosted",
    version,
    about = "Solve, verify and simulate Freshly Frosted and Cosmic Express levels",
    long_about = "Solve, verify and simulate Freshly Frosted and Cosmic Express levels.\n\n\
A Freshly Frosted level is a text grid (see the rules' section 2): `.` is floor where belts may go, \
`^ v < >` are belts, `+d` sources, `-d` targets, and so on. A layout is the same file \
with belts written on some `.` cells. A Cosmic Express level is a JSON file (its rules' \
section 2); its answer is a track, as JSON {\"path\": [[x, y], ...]} or as the text grid \
with arrows (section 7). A level file whose first non-blank character is `{` is taken for \
Cosmic Express, any other for Freshly Frosted; `--puzzle frosted|cosmic` says which. \
A file argument `-` reads stdin.\n\n\
Exit codes: 0 solved, 1 not solved (or proved unsolvable), 2 bad input, 3 unknown (timeout).",
    after_help = "Examples:\n  frosted solve levels/01-toppers/first-frosting.txt\n  frosted verify LEVEL LAYOUT --json\n  frosted solve LEVEL | frosted verify LEVEL -\n  frosted simulate LEVEL LAYOUT --trace --ticks 20\n  frosted show LEVEL LAYOUT --svg -o layout.svg\n  frosted simulate LEVEL LAYOUT --html -o replay.html"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Judge a layout (or track): run the exact simulation and check the rules' section 5.
    ///
    /// With one file, the level's own belts are the layout. Exit 0 when the layout
    /// solves the level, 1 when it does not (with the reason), 2 on bad input.
    /// Cosmic Express: `verify LEVEL TRACK` prints the judge's verdict of its
    /// rules' section 7.3 (`solved: REASON` or `not solved: REASON`).
    Verify(verify::Args),
    /// Show a layout tick by tick: donuts (kind digits) on unicode belts, waiting
    /// counters, splitter and crossover states, and the deliveries so far.
    ///
    /// Cosmic Express: the track drawn, then the train's run moment by moment
    /// (where the engine and each car are, what each car holds, boardings,
    /// deliveries and ties), what is left at the end, and the verdict.
    Simulate(simulate::Args),
    /// Draw a level with unicode belts and entities.
    ///
    /// Cosmic Express: the text grid of its rules' section 7.2, with the track
    /// drawn as arrows when a track file is given.
    Show(simulate::ShowArgs),
    /// Find a layout with the fewest belts (or a track with the fewest cells):
    /// SAT encoding plus simulation (CEGAR).
    ///
    /// Prints the layout on stdout in the level format (Cosmic Express: the
    /// track as the text grid, then as the JSON line {"level": NAME, "path":
    /// [...]}, NAME the file name without `.json`). On stderr: a progress
    /// line every two seconds (during a long SAT call too), then a summary:
    /// status, what it claims, belts (cells), iterations, formula size, and where the
    /// time went (SAT calls split into searching, improving the best layout, and
    /// proving, plus when the best layout was found).
    /// Ctrl-C (or SIGTERM) stops it as a timeout does (the best verified layout
    /// so far is printed, `solved`, or `unknown` without one); a second one ends
    /// it at once.
    /// Exit 0 solved, 1 unsolvable, 3 unknown (timeout), 2 bad input.
    Solve(solve::Args),
    /// Write the first-iteration CNF in DIMACS, with `c` lines naming each belt
    /// variable's cell and direction.
    ///
    /// Cosmic Express: the track encoding, with `c cell VAR X Y` and `c move
    /// VAR X1 Y1 X2 Y2` lines naming its variables.
    DumpCnf(dump::DumpArgs),
    /// Read a SAT solver's output (`s SATISFIABLE` and `v` lines, or MiniSat's
    /// result file) for a dumped CNF and print the layout it encodes.
    ///
    /// Prints the layout on stdout in the level format, and on stderr its belts
    /// and the simulator's verdict: a model is a candidate, which may fail
    /// (`solve` is the loop that rejects those). A model that does not set
    /// exactly one option (none or a belt direction) on every free cell is not
    /// a model of this level's CNF: bad input.
    /// Cosmic Express: the track the model's moves make from the entrance, in
    /// both forms, and the simulator's verdict on it.
    /// Exit 0 decoded (solved or not), 1 the solver said UNSATISFIABLE,
    /// 3 UNKNOWN, 2 bad input.
    Decode(dump::DecodeArgs),
    /// Solve every level under a folder and print a table.
    ///
    /// One row per level: status, belts (cells), iterations, seconds, when the best
    /// layout was found ("best at"), and for a level stopped without a proof the
    /// fewest belts (cells) its lower bound proves a solution needs ("at least":
    /// the gap to its best layout is what is left open); then the totals, and how soon the levels
    /// were proved (`optimal` or `unsolvable`): the times by which half, 90 %
    /// and all of them were, or "not proved" when that share was not proved
    /// within --timeout (`bench DIR --timeout 10` says whether every level is
    /// proved within 10 s, and the median). A level that could not be
    /// run (a file that does not parse, a crash) gets the status `error` and a
    /// line saying why. With --json, a line per level on stderr shows progress.
    /// Levels run one at a time, each in its own `frosted solve` with the
    /// solver flags below.
    /// Ctrl-C (or SIGTERM) stops the bench after the level in hand (whose run reports what
    /// it has) and prints the table so far.
    /// Exit 0 when every level got a status (whichever), 2 on bad arguments or
    /// when some level got `error`, 3 when interrupted.
    Bench(bench::BenchArgs),
    /// Generate a new level in the game's style, solvable by construction.
    ///
    /// The level is built around a hidden layout: belt paths from the sources
    /// past toppers to targets (through splitters, teleporters, bumpers, merges
    /// and crossovers, as the mechanics allow); the simulator runs it, each
    /// target accepts what it received (`:targets` from the deliveries), and
    /// the belts are removed but for any preset ones. Prints the level on
    /// stdout with `:comment` lines naming the command and settings; on stderr,
    /// a line saying the hidden layout solves it (the judge's verdict).
    /// Exit 0, or 2 on bad arguments or when no level could be made.
    Generate(generate::Args),
    /// Check a certificate that `solve LEVEL --certificate DIR` wrote.
    ///
    /// Checks that the solution (for `optimal`) solves the level with the
    /// claimed belts; that each proving formula is exactly the level's encoding
    /// (encoded again here) plus clauses each re-derived from its justification
    /// (every counterexample's layout is run again: the run must fail, and the
    /// clause must name exactly the `.` cells it visited) plus assumptions that
    /// say only "every requirement" and "at most K belts"; and that the DRAT
    /// proof refutes the formula, by a checker that shares no code with
    /// CaDiCaL (`rate`: cargo install rate). Prints what it checked.
    /// Exit 0 when everything checks, 1 naming what failed, 2 on bad input
    /// (an unreadable level, no DRAT checker).
    CheckCertificate(certificate::check::Args),
    /// Look for a plain reason why a Freshly Frosted level cannot be solved.
    ///
    /// Runs the level check that `solve` runs before any SAT call: sound,
    /// documented arguments (docs/unsolvable.md), each printed as a
    /// sentence, for example "no topper makes sprinkles ..., but the target
    /// at (3, 1) accepts only whipped cream donuts". No argument applying
    /// proves nothing: `frosted solve` decides. Exit 0 when no argument
    /// applies, 1 when one proves the level impossible, 2 on bad input.
    Check(explain::CheckArgs),
}

/// An error for the user: a message (with its cause chain already folded in) and
/// an exit code. `main` prints it on stderr as `error: MESSAGE`.
#[derive(Debug)]
pub struct CliError {
    pub code: i32,
    pub message: String,
}

impl CliError {
    pub fn bad_input(message: impl Into<String>) -> CliError {
        CliError {
            code: EXIT_BAD_INPUT,
            message: message.into(),
        }
    }
}

/// Writes `text` to stdout and flushes it. `print!` would panic when stdout
/// cannot be written (a full disk: `frosted show LEVEL > /dev/full`); here that
/// is an error for the user, with exit code 2. (A closed pipe still ends
/// frosted quietly, by SIGPIPE, as it ends `cat`.)
pub fn out(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| CliError::bad_input(format!("cannot write to stdout: {e}")))
}

/// Writes `value` as one line of JSON to stdout (`--json`).
pub fn out_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    let text = serde_json::to_string(value)
        .map_err(|e| CliError::bad_input(format!("cannot write JSON: {e}")))?;
    out(&format!("{text}\n"))
}

/// The largest level or layout file read (the real levels are under 1 KiB).
pub const MAX_LEVEL_BYTES: u64 = 1 << 20;

/// Reads at most `limit` bytes from `source` (a file, or `-` for stdin), so that a
/// huge file or an endless one (`/dev/zero`) is refused instead of read for ever;
/// `what` names the file in the error ("a level", "a model").
pub fn read_bounded(source: &Path, limit: u64, what: &str) -> Result<Vec<u8>, CliError> {
    let name = display_name(source);
    let cannot = |e: std::io::Error| CliError::bad_input(format!("cannot read {name}: {e}"));
    let mut bytes = Vec::new();
    if source == Path::new("-") {
        bytes = read_stdin_once(limit).map_err(cannot)?;
    } else {
        std::fs::File::open(source)
            .map_err(cannot)?
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
    }
    if bytes.len() as u64 > limit {
        let size = if limit >= 1 << 20 {
            format!("{} MiB", limit >> 20)
        } else {
            format!("{} KiB", limit >> 10)
        };
        return Err(CliError::bad_input(format!(
            "{name} is larger than {what} can be (over {size})"
        )));
    }
    Ok(bytes)
}

/// Stdin, read once (at most `limit + 1` bytes) and kept: a level on stdin is
/// read a first time to see which puzzle it is, then again to be parsed.
fn read_stdin_once(limit: u64) -> std::io::Result<Vec<u8>> {
    static STDIN: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    if let Some(bytes) = STDIN.get() {
        return Ok(bytes.clone());
    }
    let mut bytes = Vec::new();
    std::io::stdin().take(limit + 1).read_to_end(&mut bytes)?;
    Ok(STDIN.get_or_init(|| bytes).clone())
}

/// How messages name an input file: its path, or `<stdin>` for `-`.
pub fn display_name(source: &Path) -> String {
    if source == Path::new("-") {
        "<stdin>".to_string()
    } else {
        source.display().to_string()
    }
}

/// Reads and parses a level or layout file (`-`: stdin); errors are bad input.
pub fn load_level(path: &Path) -> Result<Level, CliError> {
    let bytes = read_bounded(path, MAX_LEVEL_BYTES, "a level")?;
    parse_bytes(&bytes).map_err(|e| CliError::bad_input(e.render(&display_name(path))))
}

/// Loads a level and, optionally, a layout of it (checked to change only `.` cells).
/// With no layout, the level itself is the layout. The layout gets the level's flags.
pub fn load_pair(level: &Path, layout: Option<&PathBuf>) -> Result<(Level, Level), CliError> {
    if level == Path::new("-") && layout.is_some_and(|l| l == Path::new("-")) {
        return Err(CliError::bad_input(
            "the level and the layout cannot both be read from stdin (`-`): \
             give one of them as a file",
        ));
    }
    let lv = load_level(level)?;
    let Some(lp) = layout else {
        return Ok((lv.clone(), lv));
    };
    let mut lay = load_level(lp)?;
    lay.check_layout_of(&lv).map_err(|e| {
        CliError::bad_input(format!(
            "{} is not a layout of {}: {e}",
            display_name(lp),
            display_name(level)
        ))
    })?;
    lay.flags = lv.flags.clone();
    Ok((lv, lay))
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    interrupt::quiet_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                EXIT_BAD_INPUT
            } else {
                EXIT_OK
            };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Verify(a) => verify::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Show(a) => simulate::show(a),
        Command::Solve(a) => solve::run(a),
        Command::DumpCnf(a) => dump::dump_cnf(a),
        Command::Decode(a) => dump::decode(a),
        Command::Bench(a) => bench::bench(a),
        Command::Generate(a) => generate::run(a),
        Command::CheckCertificate(a) => certificate::check::run(a),
        Command::Check(a) => explain::check(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            note!("error: {}", e.message);
            e.code
        }
    }
}

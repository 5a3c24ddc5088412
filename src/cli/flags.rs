//! The flags that shape the solve loop, shared by `solve` and `bench` (which
//! passes them on to every `frosted solve` it runs), and the checks on the
//! numbers the user gives.

use super::CliError;
use crate::sat::SolverChoice;
use cegar::Options;
use freshly_frosted::encode::EncodeOptions;
use std::time::Duration;

/// What a solve runs with: the loop's options, the puzzle's, and what the
/// trace prints.
#[derive(Clone, Debug)]
pub struct Settings {
    pub opts: Options,
    /// How the level is encoded.
    pub encode: EncodeOptions,
    /// With the trace, print each rejected layout too.
    pub trace_layouts: bool,
}

/// The loop's flags. `solve` turns them into [`Settings`] ([`SolveFlags::settings`]);
/// `bench` checks them the same way and gives them to each run
/// ([`SolveFlags::child_args`]).
#[derive(clap::Args, Debug, Clone)]
pub struct SolveFlags {
    /// The SAT solver: `cadical` (CaDiCaL, built in; the default), `varisat`
    /// (built in, pure Rust), or `cmd:PROGRAM` to run a DIMACS solver binary on
    /// each iteration (e.g. `cmd:cadical` or `cmd:minisat` from Debian): one
    /// that prints `s` and `v` lines, or MiniSat or Glucose (a program named
    /// `minisat*` or `glucose*`), whose result file is read instead. Several
    /// joined by `+` (e.g. `cadical+varisat`) race each other: racing copy `i`
    /// runs the `i`-th, round and round (see --threads).
    #[arg(long, default_value = "cadical", value_name = "SOLVER")]
    pub solver: String,
    /// Race N copies of the solver on their own threads, each holding the
    /// clauses in another order: a SAT call that runs over a quarter of a
    /// second (the first call: over a tenth) is answered by the first copy to
    /// finish (the run times of one formula vary a lot with clause order).
    /// Shorter calls are answered as by one solver; 1 runs one solver,
    /// deterministically up to the first call cut short by a slice of time
    /// (a restart's, a focus's, a repair's or a window's that follows the
    /// best; --no-restarts, --no-focus and --no-neighbourhoods turn them
    /// off). At most 64.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2,
        allow_negative_numbers = true
    )]
    pub threads: usize,
    /// Skip the neighbourhood search: by default each verified layout is first
    /// improved by calls that may only change one window of it (quick, but they
    /// prove nothing), before the calls over the whole board; and until a first
    /// layout is verified, a rejected one whose call took 50 ms or more is
    /// repaired by such calls, for half as long as that call took.
    #[arg(long)]
    pub no_neighbourhoods: bool,
    /// Never restart. By default, once a layout is verified, the call over
    /// the whole board that looks for a smaller one gets half a second; when
    /// it runs out, it is put off and a call without a bound, kept off part of
    /// the best layout, looks for a layout elsewhere, and the neighbourhood
    /// search descends from that one (up to 6 restarts, the call's time
    /// doubled after each; then it runs to its answer). It finds smaller
    /// layouts where the best one's neighbourhood holds none; restarts prove
    /// nothing, and a layout no smaller than the best is never reported.
    #[arg(long)]
    pub no_restarts: bool,
    /// Search the whole board from the first call. By default, until a
    /// first layout is verified, the calls over the whole board look first
    /// in corridors: the
    /// free cells on shortest paths between the places a layout must link
    /// (in front of sources and toppers, behind targets, beside splitters,
    /// teleporters and crossovers), then those widened by one cell, then by
    /// two, each for at most 0.05 s, every cell outside held empty. A
    /// layout found there is verified like any other; a corridor without one
    /// proves nothing, and the calls look wider.
    #[arg(long)]
    pub no_focus: bool,
    /// Skip the sketch. By default, before the first SAT call, a few quick
    /// tries lead each source's donuts along shortest ways into targets that
    /// accept them (over the belts laid so far, with forks' other exits led
    /// on too); a layout the simulator accepts is the first verified layout
    /// and the calls go on from it. A sketch proves nothing, and one the
    /// simulator rejects is never used
    #[arg(long)]
    pub no_sketch: bool,
    /// Give every racing copy the first copy's encoding. By default the
    /// copies after the first hold a second view of it: where loops through
    /// a splitter or teleporter are grounded, by ranks instead of by vertex
    /// elimination; elsewhere, the encoding simplified by variable
    /// elimination (variables that no later clause or assumption names are
    /// resolved away, and get their values back in every model). Faster on
    /// some levels, slower on others, so it is the race's second view rather
    /// than the only one. No effect with --threads 1.
    #[arg(long)]
    pub no_elimination: bool,
    /// Prove by SAT calls only. By default, on levels without bumpers, the
    /// chain bound is asked first, before the first SAT call (could any
    /// layout, within --max-belts, solve?) and after each verified layout
    /// (could one belt fewer?): a search over the ways chains of belts can
    /// run between the sources, the toppers, the splitters (and teleporters
    /// with several outs) and the targets, which may prove at once that none
    /// can (see encodings/README.md, "The chain bound"). Freshly Frosted's
    /// level check (`frosted check`, docs/unsolvable.md), the other proof
    /// without SAT, is skipped too.
    #[arg(long)]
    pub no_chain_bound: bool,
    /// Shuffle the clauses with this seed before the first call: the answer's
    /// status and belt count stay, only the time changes (a SAT solver's time
    /// on one formula can swing several-fold with the clause order). `bench
    /// --seeds K` runs each level with seeds 1 to K.
    #[arg(long, value_name = "N", help_heading = "Debugging")]
    pub debug_seed: Option<u64>,
    /// A line on stderr per SAT call (mode, bound, answer, time) and per
    /// rejected candidate (the simulator's reason), for studying the loop;
    /// after an `unsolvable` verdict, the explanation's too (`trace:
    /// explain ...`: each question with its requirements and answer, each
    /// SAT call, rejected layout, walk and neighbours run).
    #[arg(long, help_heading = "Debugging")]
    pub debug_trace: bool,
    /// Print each rejected layout too, on stderr (implies --debug-trace).
    #[arg(long, help_heading = "Debugging")]
    pub debug_trace_layouts: bool,
    #[command(flatten)]
    pub encoding: EncodingFlags,
}

/// `--max-belts K` (alias `--max-cost`), shared by `solve` and `dump-cnf`.
#[derive(clap::Args, Debug, Clone)]
pub struct MaxCost {
    /// At most K belts (Cosmic Express: a track of at most K cells, entrance
    /// and exit included): `solve` looks only at those (`unsolvable` then
    /// means "none with at most K"), `dump-cnf` adds unit clauses bounding
    /// the count. `--max-cost` is the same flag, for either puzzle.
    #[arg(
        long,
        visible_alias = "max-cost",
        value_name = "K",
        allow_negative_numbers = true
    )]
    pub max_belts: Option<usize>,
}

/// The flags that shape the encoding, shared by `solve`, `bench` and
/// `dump-cnf` (so that a dumped CNF is the one `solve` works on).
#[derive(clap::Args, Debug, Clone)]
pub struct EncodingFlags {
    /// Encode the belt counter only for the bounds asked for on boards with
    /// more than N free cells (default 1000), instead of for every bound up
    /// front (which costs clauses in the square of the free cells).
    #[arg(long, value_name = "N", help_heading = "Debugging")]
    pub debug_lazy_counter_from: Option<usize>,
    /// The most rank clauses (roughly) the encoding spends on the ranks
    /// (C7); above it, it writes none and the loop formulas (L1) ground the
    /// flows lazily (default 100000; 0: never ranks).
    #[arg(long, value_name = "N", help_heading = "Debugging")]
    pub debug_rank_budget: Option<usize>,
}

impl EncodingFlags {
    /// The encoding's options: the defaults, but for the flags given.
    pub fn options(&self) -> EncodeOptions {
        let defaults = EncodeOptions::default();
        EncodeOptions {
            lazy_counter_from: self
                .debug_lazy_counter_from
                .unwrap_or(defaults.lazy_counter_from),
            rank_budget: self.debug_rank_budget.unwrap_or(defaults.rank_budget),
            ..defaults
        }
    }

    /// The same flags on a command line.
    fn args(&self) -> Vec<String> {
        let numbers = [
            ("--debug-lazy-counter-from", self.debug_lazy_counter_from),
            ("--debug-rank-budget", self.debug_rank_budget),
        ];
        numbers
            .into_iter()
            .filter_map(|(flag, n)| Some([flag.to_string(), n?.to_string()]))
            .flatten()
            .collect()
    }
}

impl SolveFlags {
    /// The settings for these flags (the flags `solve` alone has, such as
    /// `--timeout`, are left at their defaults), checked.
    pub fn settings(&self) -> Result<Settings, CliError> {
        let opts = Options {
            solver: SolverChoice::parse(&self.solver).map_err(CliError::bad_input)?,
            threads: threads(self.threads)?,
            neighbourhoods: !self.no_neighbourhoods,
            restarts: match self.no_restarts {
                true => 0,
                false => cegar::RESTARTS,
            },
            focus_slice: (!self.no_focus).then_some(cegar::FOCUS_SLICE),
            sketch: !self.no_sketch,
            eliminate: !self.no_elimination,
            lower_bound: !self.no_chain_bound,
            seed: self.debug_seed,
            trace: self.debug_trace || self.debug_trace_layouts,
            ..Options::default()
        };
        Ok(Settings {
            opts,
            encode: self.encoding.options(),
            trace_layouts: self.debug_trace_layouts,
        })
    }

    /// The same flags on the command line of a `frosted solve` run.
    pub fn child_args(&self) -> Vec<String> {
        let mut args = vec![
            "--solver".to_string(),
            self.solver.clone(),
            "--threads".to_string(),
            self.threads.to_string(),
        ];
        let switches = [
            (self.no_neighbourhoods, "--no-neighbourhoods"),
            (self.no_restarts, "--no-restarts"),
            (self.no_focus, "--no-focus"),
            (self.no_sketch, "--no-sketch"),
            (self.no_elimination, "--no-elimination"),
            (self.no_chain_bound, "--no-chain-bound"),
            (self.debug_trace, "--debug-trace"),
            (self.debug_trace_layouts, "--debug-trace-layouts"),
        ];
        args.extend(
            switches
                .into_iter()
                .filter(|(on, _)| *on)
                .map(|(_, flag)| flag.to_string()),
        );
        if let Some(seed) = self.debug_seed {
            args.extend(["--debug-seed".to_string(), seed.to_string()]);
        }
        args.extend(self.encoding.args());
        args
    }
}

/// A count flag (`--threads`, `--seeds`), checked to be at least 1.
pub fn at_least_one(flag: &str, n: usize) -> Result<usize, CliError> {
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
pub fn timeout(t: f64) -> Result<Duration, CliError> {
    seconds_of("--timeout", t)
}

/// The seconds given to `flag`, checked like `--timeout`: positive, and at
/// most a year; the error names `flag`.
pub fn seconds_of(flag: &str, t: f64) -> Result<Duration, CliError> {
    if t.is_nan() || t <= 0.0 {
        return Err(CliError::bad_input(format!(
            "{flag} must be a positive number of seconds, not {t}"
        )));
    }
    if t > MAX_TIMEOUT {
        return Err(CliError::bad_input(format!(
            "{flag} must be at most {MAX_TIMEOUT} seconds (a year), not {t:e}"
        )));
    }
    Ok(Duration::from_secs_f64(t))
}

#[cfg(test)]
mod tests {
    use super::SolveFlags;
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        flags: SolveFlags,
    }

    /// `bench` gives its runs every flag it was given, as it was given.
    #[test]
    fn child_args_give_the_same_flags() {
        let given = [
            "frosted",
            "--solver",
            "cmd:minisat",
            "--threads",
            "3",
            "--no-elimination",
            "--no-chain-bound",
            "--debug-seed",
            "5",
            "--debug-trace-layouts",
            "--debug-lazy-counter-from",
            "10",
            "--debug-rank-budget",
            "0",
        ];
        for args in [&given[..1], &given[..]] {
            let flags = Flags::parse_from(args).flags;
            let passed = std::iter::once("frosted".to_string()).chain(flags.child_args());
            let again = Flags::parse_from(passed).flags;
            assert_eq!(format!("{flags:?}"), format!("{again:?}"));
        }
    }
}

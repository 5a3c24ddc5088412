//! The solve loop: ask the SAT solver for a candidate, check it exactly,
//! turn a failure into clauses, and repeat (counterexample-guided
//! abstraction refinement), then push the cost down until the solver proves
//! that nothing cheaper exists.
//!
//! Two modes share one incremental solver. *Searching* assumes the puzzle's
//! `strong` literal, which adds constraints that prune hard but may cut off
//! unusual real solutions. *Proving* assumes its negation: only relaxations
//! of the exact rules remain (plus sound learned clauses), so UNSAT there is
//! a proof. A status of `optimal` or `unsolvable` is only ever given after an
//! UNSAT answer in proving mode, or after the puzzle's lower bound ruled out
//! anything cheaper. The loop searches until it has a first candidate (or
//! searching is UNSAT), then proves.

mod enumerate;
mod focus;
mod lower;
mod neighbourhood;
mod restart;
mod run;
mod setup;

pub use enumerate::{enumerate, EnumEnd, Enumeration};
pub use focus::FOCUS_SLICE;
pub use restart::{RESTARTS, RESTART_SLICE};

use crate::puzzle::Puzzle;
use crate::report::Progress;
use crate::report::Report;
use crate::sat::SolverChoice;
use rustsat::types::{Clause, Lit};
use std::path::PathBuf;
use std::time::Duration;

/// With several threads, how long a SAT call runs alone before the other
/// solvers join it: calls shorter than this are answered exactly as by one
/// solver. A quarter of a second since 2026-11-27 (a second before): the
/// proving calls of the slow levels often take a few tenths of a second
/// on one copy where the other would answer at once (docs/performance.md,
/// "The race").
pub const RACE_HEAD_START: Duration = Duration::from_millis(250);

/// The work one search of the lower bound may do, in its own units (the
/// chain bound counts cells looked at and distance lookups: its proof on
/// 09-tropical-rain/11 takes about 1.3 million, and a search that runs out
/// takes a few hundredths of a second). With several threads the loop
/// waits for a quarter of it and then runs the search again beside the
/// calls ([`lower`]) with [`LOWER_BOUND_BESIDE_BUDGET`], so that a search
/// that runs out costs a quarter of the wait; after a candidate, on a
/// puzzle with more than [`LOWER_BOUND_WAIT_DECISIONS`] decisions, it asks
/// beside the calls at once. The loop stops
/// asking after the first search after a candidate that runs out: searches
/// for the next bounds down seldom fare better, and each would cost as much
/// again.
pub const LOWER_BOUND_BUDGET: u64 = 4_000_000;

/// The work a lower-bound search beside the SAT calls may do (after the
/// slice the loop waited for ran out, or at once after a candidate on a
/// puzzle that is not small): 250 times
/// [`LOWER_BOUND_BUDGET`],
/// about 3 s of a core of its own (the chain bound), longer when it shares
/// the cores with the racing copies. Beside the calls a long search costs
/// only what it takes from those copies, and it ends early when a new
/// question or the end of the solve stops it. Some refutations need it: the
/// chain bound refutes one belt fewer than the best layout of the generated
/// levels `multi-out-015` and `game-002` after about 190 and 300 million
/// units.
pub const LOWER_BOUND_BESIDE_BUDGET: u64 = 1_000_000_000;

/// The work of a search by the lower bound's deeper search
/// ([`crate::LowerBound::allows_deeper`]), asked after the plain search
/// allowed one unit under a verified candidate (while the loop waits with
/// one thread; with several, beside the neighbourhood search's calls, as
/// [`LOWER_BOUND_BUDGET`] says): about a twentieth of a second. A solve
/// spends at most four times this on them.
pub const LOWER_BOUND_DEEPER_BUDGET: u64 = 4_000_000;

/// The most decisions a puzzle may have for the loop to wait for a slice
/// of the lower bound's questions after each candidate (with several
/// threads; [`Options::lower_bound_wait_decisions`]). Every example level
/// of the project has at most 21 free cells, and their solves, a few
/// milliseconds each, are then the same on every run; the generated
/// levels near the corpus' median have 35 or more, and there the waits
/// took about a tenth of the solve (docs/performance.md, "After a
/// candidate, beside the calls at once").
pub const LOWER_BOUND_WAIT_DECISIONS: usize = 32;

/// Until the first verified candidate, a rejected candidate is repaired
/// only when the call that found it took at least this long: a quicker call
/// costs less than a repair ([`Options::repair_from`]).
pub const REPAIR_FROM: Duration = Duration::from_millis(50);

/// How to solve.
#[derive(Clone, Debug)]
pub struct Options {
    pub solver: SolverChoice,
    /// Stop at the first verified candidate.
    pub first: bool,
    /// Only consider candidates that cost at most this much.
    pub max_cost: Option<usize>,
    pub timeout: Option<Duration>,
    /// Copies of the solver racing on their own threads (see
    /// [`crate::sat::race`]); 1 runs one solver, deterministically.
    pub threads: usize,
    /// After each verified candidate, look for a cheaper one that changes one
    /// window of it before the calls over the whole instance.
    pub neighbourhoods: bool,
    /// How many times a slow call over the whole instance may be put off
    /// for a restart from another candidate ([`RESTARTS`]; 0: never; see
    /// `solve/restart.rs`).
    pub restarts: usize,
    /// The time that call gets before the first restart, doubled after each
    /// ([`RESTART_SLICE`]); zero puts it off before it runs, for tests.
    pub restart_slice: Duration,
    /// Until the first verified candidate, a rejected candidate whose call
    /// took at least this long is repaired by the neighbourhood search
    /// ([`REPAIR_FROM`]; see `Loop::repair` in `solve/run.rs`).
    pub repair_from: Duration,
    /// Until the first verified candidate, each of the puzzle's focus sets
    /// ([`crate::Puzzle::focus`]) gets a call over the whole instance of this long
    /// ([`FOCUS_SLICE`]) before the calls over the whole instance; `None`:
    /// no focus (the calls then depend on time only through restarts and
    /// the race).
    pub focus_slice: Option<Duration>,
    /// Write the formula of every SAT call to `DIR/call-NNNN.cnf` (see
    /// [`crate::sat::call_dump`]); the folder must exist.
    pub dump_calls: Option<PathBuf>,
    /// With several threads, how long a call runs on one copy before the
    /// others join ([`RACE_HEAD_START`] by default).
    pub head_start: Duration,
    /// With several threads, the racing copies after the first hold the
    /// puzzle's second view, or else the first simplified by variable
    /// elimination (see [`crate::sat::elim`]); no effect with one thread.
    pub eliminate: bool,
    /// Ask the puzzle's lower bound, where it has one, before the first
    /// call and after each verified candidate.
    pub lower_bound: bool,
    /// The work one lower-bound search may do ([`LOWER_BOUND_BUDGET`]).
    pub lower_bound_budget: u64,
    /// The work a search beside the SAT calls may do
    /// ([`LOWER_BOUND_BESIDE_BUDGET`]); with one thread, unused.
    pub lower_bound_beside_budget: u64,
    /// The work of one search by the lower bound's deeper search, four
    /// times which a solve may spend on them ([`LOWER_BOUND_DEEPER_BUDGET`];
    /// 0: never asked).
    pub lower_bound_deeper_budget: u64,
    /// With several threads, a puzzle with at most this many decisions
    /// waits for a slice of each lower-bound question after a candidate,
    /// so that its answers are the same on every run; on a larger one
    /// those questions go beside the SAT calls at once
    /// ([`LOWER_BOUND_WAIT_DECISIONS`]).
    pub lower_bound_wait_decisions: usize,
    /// Before the first SAT call, ask the puzzle for a sketch
    /// ([`crate::Puzzle::sketch`]): a candidate built without the solver,
    /// checked like any other.
    pub sketch: bool,
    /// Shuffle the clauses with this seed before the solver sees them.
    pub seed: Option<u64>,
    /// Send [`Event::Trace`] and [`Event::Rejected`] events.
    pub trace: bool,
    /// Record what a certificate needs: send [`Event::Encoded`], an
    /// [`Event::Added`] for every clause given to the solver after the
    /// encoding (with where it came from), and [`Event::ProvingCall`] before
    /// a proof by SAT. Off, the loop does none of this work.
    pub record: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            solver: SolverChoice::Varisat,
            first: false,
            max_cost: None,
            timeout: None,
            threads: 1,
            neighbourhoods: true,
            restarts: RESTARTS,
            restart_slice: RESTART_SLICE,
            repair_from: REPAIR_FROM,
            focus_slice: None,
            dump_calls: None,
            head_start: RACE_HEAD_START,
            eliminate: true,
            lower_bound: true,
            lower_bound_budget: LOWER_BOUND_BUDGET,
            lower_bound_beside_budget: LOWER_BOUND_BESIDE_BUDGET,
            lower_bound_deeper_budget: LOWER_BOUND_DEEPER_BUDGET,
            lower_bound_wait_decisions: LOWER_BOUND_WAIT_DECISIONS,
            sketch: true,
            seed: None,
            trace: false,
            record: false,
        }
    }
}

/// What the loop tells its caller while it runs.
pub enum Event<'a, C> {
    /// Before every SAT call, and with each new best candidate.
    Progress(&'a Progress<C>),
    /// A line for studying the loop (with [`Options::trace`] only).
    Trace(String),
    /// The check rejected a candidate (with [`Options::trace`] only).
    Rejected {
        candidate: &'a C,
        reason: &'a str,
        /// The literals of each clause it became.
        clause_sizes: Vec<usize>,
    },
    /// The encoding as the first solver holds it (with [`Options::record`]
    /// only; shuffled with [`Options::seed`]).
    Encoded { clauses: &'a [Clause], n_vars: u32 },
    /// A clause given to the solver after the encoding, and why it holds for
    /// every solution (with [`Options::record`] only). It stays for every
    /// later call.
    Added {
        clause: &'a Clause,
        origin: Origin<'a, C>,
    },
    /// The call whose UNSAT answer proves the claim, before the loop ends
    /// (with [`Options::record`] only): the clauses so far (the encoding and
    /// every [`Event::Added`]) with these assumptions are unsatisfiable, and
    /// no candidate costing at most `max_cost` (`None`: of any cost)
    /// solves. The assumptions are the call's, without `strong` when the
    /// failed core left it out (so they are all relaxations).
    ProvingCall {
        assumptions: &'a [Lit],
        n_vars: u32,
        max_cost: Option<usize>,
    },
}

/// Where a clause given to the solver after the encoding came from: the
/// justification a certificate checker needs to re-derive it.
pub enum Origin<'a, C> {
    /// Made by the puzzle's check from a candidate it rejected: clause
    /// `index` of [`crate::Check::Rejected`] (0: the counterexample proper).
    Counterexample { candidate: &'a C, index: usize },
    /// A lemma read off a model ([`crate::Decoded::lemmas`]), with the
    /// puzzle's own justification ([`crate::Decoded::notes`]; empty when the
    /// puzzle gave none).
    Lemma { note: &'a str },
    /// Makes "cost at most `k`" available ([`crate::Puzzle::cost_at_most`],
    /// a lazily built counter), written when `vars_before` variables were in
    /// use: re-created by asking the puzzle for the same bound in the same
    /// order.
    CostBound { k: usize, vars_before: u32 },
}

/// Solves `puzzle`: the cheapest candidate its check accepts, and a proof
/// that nothing cheaper would do (or that nothing does).
pub fn solve<P: Puzzle>(
    puzzle: &mut P,
    opts: &Options,
    events: &mut dyn FnMut(Event<P::Candidate>),
) -> Result<Report<P::Candidate>, String> {
    let mut lp = setup::start(puzzle, opts, events)?;
    lp.ask_lower_bound_first();
    lp.sketch_first()?;
    lp.run()?;
    Ok(lp.finish())
}

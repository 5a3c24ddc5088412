//! Why a level has no solution: its requirements ([`crate::requirement`]) each
//! behind a switch, a minimal set of them that no layout meets together (a
//! core, [`core`]), found by the same encode–simulate loop as a solve
//! ([`oracle`]), and for each requirement of the core a near-solution that
//! meets as many of the others as can hold without it.

pub use crate::requirement::{requirements, Achieved, Requirement};
pub mod core;
pub mod learned;
pub mod oracle;
pub mod pool;
pub mod tidy;
pub mod trace;
pub mod walk;

pub use self::core::{minimal_core, near_solution, shrink, Core, Near, Questions, ROUND_CALLS};
pub use learned::Learned;
pub use oracle::{Oracle, Verdict, Witness, NEIGHBOURS_AFTER};
pub use pool::Pool;
pub use trace::Trace;
pub use walk::WALK_RUNS;
pub mod plain;

pub use plain::{level_check, Argument};

use crate::encode::EncodeOptions;
use crate::level::Level;
use cegar::sat::SolverChoice;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How far an explanation has got, updated at every SAT call, so that
/// another thread can print progress lines while it runs.
#[derive(Debug, Default)]
pub struct Watch {
    questions: AtomicUsize,
    asking: AtomicUsize,
    calls: AtomicUsize,
    counterexamples: AtomicUsize,
}

/// A reading of a [`Watch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Questions asked so far (the last one is running).
    pub questions: usize,
    /// How many requirements the running question holds.
    pub asking: usize,
    pub calls: usize,
    pub counterexamples: usize,
}

impl Watch {
    /// Records the counts at the start of a SAT call.
    fn publish(&self, r: Reading) {
        self.questions.store(r.questions, Ordering::Relaxed);
        self.asking.store(r.asking, Ordering::Relaxed);
        self.calls.store(r.calls, Ordering::Relaxed);
        self.counterexamples
            .store(r.counterexamples, Ordering::Relaxed);
    }

    /// The counts at the start of the last SAT call.
    pub fn read(&self) -> Reading {
        Reading {
            questions: self.questions.load(Ordering::Relaxed),
            asking: self.asking.load(Ordering::Relaxed),
            calls: self.calls.load(Ordering::Relaxed),
            counterexamples: self.counterexamples.load(Ordering::Relaxed),
        }
    }
}

/// How to look for an explanation.
#[derive(Clone, Debug)]
pub struct ExplainOptions {
    pub encode: EncodeOptions,
    pub solver: SolverChoice,
    /// Racing copies of the solver (`--threads`); 1 runs one.
    pub threads: usize,
    /// The belt bound of the solve (`--max-belts`), a requirement too.
    pub max_belts: Option<usize>,
    /// Give up (with what is found so far) after this long.
    pub timeout: Option<Duration>,
    /// Look for a core and near-solutions; without, the level check only.
    pub search: bool,
    /// SAT calls each question of the core's limited rounds gets, round by
    /// round, before a round without a limit ([`ROUND_CALLS`] from the
    /// command line); empty: one round, no limit.
    pub round_calls: Vec<usize>,
    /// While the core is searched, run the neighbours of a rejected layout
    /// (the layouts one visited cell away) when the SAT call that proposed
    /// it took at least this many times as long as its run
    /// (`--explain-neighbours`, [`NEIGHBOURS_AFTER`] by default); `None`:
    /// never. The near-solutions run none.
    pub neighbours_after: Option<u32>,
    /// Runs each question's walk gets after its first rejected layout
    /// (`--explain-walk`, [`WALK_RUNS`] by default; see [`walk`]); `None`:
    /// no walk.
    pub walk_runs: Option<usize>,
    /// Where the explanation shows how far it has got (for progress lines).
    pub watch: Option<Arc<Watch>>,
    /// Where its trace lines go; `None`: no trace.
    pub trace: Option<Trace>,
}

/// The work of part of an explanation: questions asked of the oracle, its
/// SAT calls and rejected layouts, and the time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Work {
    pub questions: usize,
    pub calls: usize,
    pub counterexamples: usize,
    /// Neighbours of rejected layouts run by the simulator.
    pub neighbours: usize,
    /// Runs made by walks ([`walk`]).
    pub walked: usize,
    pub time: Duration,
}

/// Why a level has no solution, as far as found.
pub struct Explanation {
    /// The plain arguments that fired (the level check).
    pub arguments: Vec<Argument>,
    /// A core of requirements, when the whole set was proved impossible in time.
    pub core: Option<Core>,
    /// One near-solution per requirement of the core shown needed.
    pub near: Vec<Near>,
    /// Questions asked of the oracle, its SAT calls and rejected layouts,
    /// and the time, in all.
    pub work: Work,
    /// What the core took of that, before the near-solutions.
    pub core_work: Work,
    /// Whether a core was looked for ([`ExplainOptions::search`]).
    pub searched: bool,
}

/// The level check, a minimal core of `level`'s requirements, and a
/// near-solution for each requirement of the core.
pub fn explain(level: &Level, opts: &ExplainOptions) -> Result<Explanation, String> {
    explain_with(level, opts, None)
}

/// [`explain`] after a solve that proved `level` unsolvable (with
/// `opts.max_belts`) and learned `learned`: the oracle starts from what the
/// solve learned, and the whole set of requirements is known impossible.
pub fn explain_after(
    level: &Level,
    opts: &ExplainOptions,
    learned: &Learned,
) -> Result<Explanation, String> {
    explain_with(level, opts, Some(learned))
}

fn explain_with(
    level: &Level,
    opts: &ExplainOptions,
    learned: Option<&Learned>,
) -> Result<Explanation, String> {
    let start = Instant::now();
    let arguments = level_check(level);
    if !opts.search {
        return Ok(Explanation {
            arguments,
            core: None,
            near: Vec::new(),
            work: Work {
                time: start.elapsed(),
                ..Work::default()
            },
            core_work: Work::default(),
            searched: false,
        });
    }
    let deadline = opts.timeout.map(|t| start + t);
    let all = requirements(level, opts.max_belts);
    let mut oracle = Oracle::new(
        level,
        &opts.encode,
        &opts.solver,
        opts.threads,
        opts.max_belts,
        deadline,
    )?;
    oracle.watched_by(opts.watch.clone());
    oracle.traced_by(opts.trace.clone());
    oracle.runs_neighbours(opts.neighbours_after);
    oracle.walks(opts.walk_runs);
    for set in arguments.iter().filter_map(|a| a.impossible.as_ref()) {
        oracle.known_impossible(set);
    }
    let core = match learned {
        None => minimal_core(&mut oracle, &all, &opts.round_calls)?,
        Some(learned) => {
            oracle.import(learned);
            Some(core_of_the_impossible(
                &mut oracle,
                &all,
                &opts.round_calls,
            )?)
        }
    };
    let core_work = oracle.work(start);
    // The near-solutions' questions run no neighbours: there SAT calls
    // are many and short, and the clauses slowed the later ones.
    oracle.runs_neighbours(None);
    let mut near = Vec::new();
    if let Some(core) = &core {
        for &r in &core.requirements {
            near.extend(near_solution(&mut oracle, &all, core, r)?);
        }
    }
    Ok(Explanation {
        arguments,
        core,
        near,
        work: oracle.work(start),
        core_work,
        searched: true,
    })
}

/// A minimal core of `all`, known impossible (the solve's verdict): the
/// deletion starts from the whole set, with no question asked about it.
fn core_of_the_impossible(
    oracle: &mut Oracle,
    all: &[Requirement],
    rounds: &[usize],
) -> Result<Core, String> {
    oracle.known_impossible(all);
    shrink(oracle, all.to_vec(), rounds)
}

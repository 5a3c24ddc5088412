//! The solve loop: ask the SAT solver for a layout, check it with the exact
//! simulator, turn a failure into a clause, and repeat (counterexample-guided
//! abstraction refinement), then push the belt count down until the solver proves
//! that no smaller layout exists.
//!
//! Two modes share one incremental solver. *Searching* assumes the `strong`
//! literal, which adds constraints that prune hard but may cut off unusual real
//! solutions. *Proving* assumes its negation: only relaxations of the exact rules
//! remain (plus sound learned clauses), so UNSAT there is a proof. A status of
//! `optimal` or `unsolvable` is only ever given after an UNSAT answer in proving
//! mode, or (`optimal`, on levels of its class) after the chain bound of
//! [`crate::chains`] ruled out one belt fewer. The loop searches until it has a first layout (or searching is
//! UNSAT), then proves.

use crate::chains::{Bound, ChainBound};
use crate::encode::Encoding;
use crate::improve::windows;
use crate::judge::{judge, Verdict};
use crate::level::Level;
use cegar::sat::call_dump::CallDump;
use cegar::sat::elim::{eliminate, Extension};
use cegar::sat::race::{shuffle, Race};
use cegar::sat::{Answer, Backend, SolverChoice};
use rustsat::encodings::card::BoundUpper;
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// With several threads, how long a SAT call runs alone before the other
/// solvers join it: calls shorter than this are answered exactly as by one
/// solver.
pub const RACE_HEAD_START: Duration = Duration::from_secs(1);

/// How a solve ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A verified layout, and a proof that no layout with fewer belts solves.
    Optimal,
    /// A verified layout, not proved minimal (`--first`, or a timeout).
    Solved,
    /// A proof that no layout (within `max_belts`, if given) solves the level.
    Unsolvable,
    /// Neither a layout nor a proof before the timeout.
    Unknown,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Unknown => "unknown",
        }
    }
}

/// What to solve for.
#[derive(Clone, Debug)]
pub struct Options {
    pub solver: SolverChoice,
    /// Stop at the first verified layout.
    pub first: bool,
    /// Only consider layouts with at most this many belts.
    pub max_belts: Option<usize>,
    pub timeout: Option<Duration>,
    /// Copies of the solver racing on their own threads (see
    /// [`cegar::sat::race`]); 1 runs one solver, deterministically.
    pub threads: usize,
    /// After each verified layout, look for a smaller one that changes one
    /// window of it (see [`crate::improve`]) before the calls over the whole
    /// board.
    pub neighbourhoods: bool,
    /// Write the formula of every SAT call to `DIR/call-NNNN.cnf` (see
    /// [`cegar::sat::call_dump`]); the folder must exist.
    pub dump_calls: Option<PathBuf>,
    /// With several threads, how long a call runs on one copy before the
    /// others join ([`RACE_HEAD_START`] by default).
    pub head_start: Duration,
    /// With several threads, the racing copies after the first hold the
    /// encoding simplified by variable elimination (see [`cegar::sat::elim`]);
    /// no effect with one thread.
    pub eliminate: bool,
    /// Encode the belt counter lazily on boards with more than this many
    /// free cells; `None`: the default (see [`Encoding::new`]).
    pub lazy_counter_from: Option<usize>,
    /// On levels of its class, try the chain bound (see [`crate::chains`])
    /// after each verified layout: when it rules out every smaller layout,
    /// the layout is optimal without a proving SAT call.
    pub chain_bound: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            solver: SolverChoice::Varisat,
            first: false,
            max_belts: None,
            timeout: None,
            threads: 1,
            neighbourhoods: true,
            dump_calls: None,
            head_start: RACE_HEAD_START,
            eliminate: true,
            lazy_counter_from: None,
            chain_bound: true,
        }
    }
}

/// Where the loop is, for progress lines.
#[derive(Clone, Debug)]
pub struct Progress {
    pub elapsed: Duration,
    pub iterations: usize,
    pub best: Option<usize>,
    /// When the best layout was verified (time since the start).
    pub best_at: Option<Duration>,
    /// The bound being worked on: looking for at most this many belts.
    pub bound: Option<usize>,
    pub proving: bool,
    /// The call only changes one window of the best layout (see
    /// [`crate::improve`]); its answer proves nothing.
    pub improving: bool,
    /// Set when this call reports a new best verified layout.
    pub improved: Option<Level>,
    pub counterexamples: usize,
    pub loop_clauses: usize,
    /// The formula so far, as the first solver holds it: variables and
    /// clauses given to it.
    pub variables: u32,
    pub clauses: usize,
    /// The racing copies' second view, when there is one.
    pub second_view: Option<SecondView>,
    /// Time spent per phase so far (`total` is `elapsed`).
    pub times: Times,
}

/// The size of the racing copies' second view (see `encodings/README.md`):
/// the grounding by vertex elimination and variable elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecondView {
    /// Variables only it has (C7′'s `p`).
    pub own_variables: u32,
    /// Variables variable elimination removed from it.
    pub eliminated: usize,
    /// Its clauses: the simplified encoding, then every clause added after.
    pub clauses: usize,
}

/// Time spent in each phase.
#[derive(Clone, Debug, Default)]
pub struct Times {
    pub encode: Duration,
    /// All SAT calls; the sum of the next three.
    pub sat: Duration,
    /// SAT calls over the whole board with the strengthenings (no proof).
    pub searching: Duration,
    /// SAT calls of the neighbourhood search (one window free; no proof).
    pub improving: Duration,
    /// SAT calls over the whole board with the pure relaxation: the calls
    /// whose UNSAT is a proof.
    pub proving: Duration,
    pub simulate: Duration,
    /// The chain bound's searches (see [`crate::chains`]).
    pub chain_bound: Duration,
    pub total: Duration,
}

impl Times {
    /// Adds the time of one SAT call to `sat` and to the phase it belongs to.
    pub fn add_call(&mut self, t: Duration, improving: bool, proving: bool) {
        self.sat += t;
        if improving {
            self.improving += t;
        } else if proving {
            self.proving += t;
        } else {
            self.searching += t;
        }
    }
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Report {
    pub status: Status,
    /// The best verified layout.
    pub layout: Option<Level>,
    pub belts: Option<usize>,
    /// When `layout` was verified (time since the start): what finding it
    /// took, where the rest of the time went to the proof.
    pub best_at: Option<Duration>,
    /// SAT calls.
    pub iterations: usize,
    /// Candidates the simulator rejected (each became a clause).
    pub counterexamples: usize,
    /// Loop-formula clauses added for unfounded donut flows.
    pub loop_clauses: usize,
    /// The formula as the first solver holds it.
    pub variables: u32,
    pub clauses: usize,
    /// The racing copies' second view, when there is one.
    pub second_view: Option<SecondView>,
    pub times: Times,
    /// What the status claims, in words (the bound of a proof, say).
    pub claim: String,
    /// What was proved, if anything: no layout with at most `Some(k)` belts
    /// (`None`: of any size) solves the level. Set with `optimal` (one less
    /// than the optimum, when it is not 0) and `unsolvable`.
    pub proof: Option<Option<usize>>,
    /// The proof came from the chain bound (see [`crate::chains`]), not
    /// from an UNSAT answer.
    pub proved_by_chains: bool,
    /// The SAT solver's name (`varisat`, `cadical`, `cmd:PROGRAM`).
    pub solver: String,
    /// Copies of it that raced (1: one solver).
    pub threads: usize,
}

impl Report {
    /// The solver as the summary names it: `varisat`, or `varisat, 2 racing`.
    pub fn solver_label(&self) -> String {
        match self.threads {
            1 => self.solver.clone(),
            n => format!("{}, {n} racing", self.solver),
        }
    }

    /// A report with nothing found yet.
    pub fn empty(solver: String, threads: usize) -> Report {
        Report {
            status: Status::Unknown,
            layout: None,
            belts: None,
            best_at: None,
            iterations: 0,
            counterexamples: 0,
            loop_clauses: 0,
            variables: 0,
            clauses: 0,
            second_view: None,
            times: Times::default(),
            claim: String::new(),
            proof: None,
            proved_by_chains: false,
            solver,
            threads: threads.max(1),
        }
    }
}

/// The solve loop's state.
struct Loop<'a> {
    enc: Encoding,
    backend: Box<dyn Backend>,
    vars: BasicVarManager,
    clauses: usize,
    report: Report,
    start: Instant,
    progress: &'a mut dyn FnMut(&Progress),
    /// `FROSTED_TRACE` is set: a line on stderr per SAT call and per rejected
    /// candidate, for studying the loop.
    trace: bool,
    /// `FROSTED_TRACE_LAYOUTS` is set too: each rejected layout is printed.
    trace_layouts: bool,
    /// The neighbourhood search after a verified layout, while it lasts.
    improve: Option<Improve>,
    /// The windows it tries (indices of `.` cells).
    windows: Vec<Vec<usize>>,
    /// With `--dump-calls`: every clause so far, written out before each call.
    dump: Option<CallDump>,
    /// What variable elimination removed from the encoding (nothing without it).
    ext: Extension,
    /// The second view's size at the start, and how many clauses of the
    /// first copy's formula its start stands in for.
    second: Option<(SecondView, usize)>,
    /// The loop formulas' gate literals (see `Encoding::unfounded`).
    gates: crate::encode::LoopGates,
}

/// The state of the neighbourhood search (see [`crate::improve`]).
struct Improve {
    /// Per `.` cell: the literal "it holds what the best layout holds".
    fixed: Vec<Lit>,
    /// Per `.` cell: the best layout has a belt there.
    belt: Vec<bool>,
    /// The window tried now.
    next: usize,
    /// Windows given up since the last improvement.
    failed: usize,
    /// Candidates rejected in this window.
    rejected: usize,
}

/// How many candidates the simulator may reject in one window before the
/// search moves on (timing failures can come in the thousands).
const WINDOW_REJECTS: usize = 20;

/// The work one search of the chain bound may do, in cells looked at (see
/// [`ChainBound::allows`]): 09-tropical-rain/11's proof takes about 25
/// million, and a search that runs out takes a few tenths of a second on
/// the real levels. The loop stops asking after the first search that runs
/// out: its searches for the next bounds down, a belt or a few smaller,
/// seldom fare better, and each would cost as much again.
const CHAIN_BUDGET: u64 = 60_000_000;

impl Loop<'_> {
    /// Asks the chain bound whether a layout with at most `top` belts could
    /// solve, under one budget: with the bounds `from`, `2 from`, `4 from`,
    /// ... up to `top` (a search without a tight bound prunes little, while
    /// one that finds a cheap way is quick), the first answer that is not a
    /// refutation below `top`. Timed, and traced.
    fn ask_chains(&mut self, cb: &ChainBound, from: usize, top: usize) -> Bound {
        let t = Instant::now();
        let until = cb.work() + CHAIN_BUDGET;
        let mut k = from.max(1);
        let answer = loop {
            let k_now = k.min(top);
            match cb.allows(k_now, until.saturating_sub(cb.work())) {
                Bound::Refuted if k_now < top => k = k_now * 2,
                answer => break answer,
            }
        };
        self.report.times.chain_bound += t.elapsed();
        if self.trace {
            note!(
                "trace: chain bound at most {top}: {answer:?} in {:.3}s",
                t.elapsed().as_secs_f64()
            );
        }
        answer
    }

    /// The variables of the first copy's formula: all but the second view's
    /// own.
    fn first_variables(&self) -> u32 {
        let own = self.second.map_or(0, |(v, _)| v.own_variables);
        self.vars.n_used() - own
    }

    /// The second view's size now: its start, then every clause added after
    /// the encoding (both copies get those).
    fn second_view(&self) -> Option<SecondView> {
        self.second.map(|(v, replaced)| SecondView {
            clauses: v.clauses + self.clauses.saturating_sub(replaced),
            ..v
        })
    }

    /// Gives a clause of the encoding to the solver.
    fn add_encoding(&mut self, cl: &Clause) {
        if let Some(d) = &mut self.dump {
            d.add(cl);
        }
        self.backend.add_clause(cl);
        self.clauses += 1;
    }

    /// Gives the solver a clause learned after the encoding.
    fn add(&mut self, cl: &Clause) -> Result<(), String> {
        self.check_interface(cl.iter())?;
        self.add_encoding(cl);
        Ok(())
    }

    /// Clauses and assumptions after the encoding may only name variables
    /// that elimination kept (`Encoding::interface` lists them); one that
    /// names another would make every later answer meaningless.
    fn check_interface<'l>(&self, mut lits: impl Iterator<Item = &'l Lit>) -> Result<(), String> {
        match lits.find(|l| self.ext.is_eliminated(l.var())) {
            Some(l) => Err(format!(
                "internal error: variable {} was eliminated but is named after the \
                 encoding (solve with --no-elimination)",
                l.var().idx() + 1
            )),
            None => Ok(()),
        }
    }

    /// Reports the counts before every SAT call, and each new best layout
    /// (the caller decides what to print, and how often).
    fn tick_progress(&mut self, bound: Option<usize>, proving: bool, improved: Option<Level>) {
        let improving = self.improve.is_some();
        let (variables, second_view) = (self.first_variables(), self.second_view());
        (self.progress)(&Progress {
            elapsed: self.start.elapsed(),
            iterations: self.report.iterations,
            best: self.report.belts,
            best_at: self.report.best_at,
            bound,
            proving,
            improving,
            improved,
            counterexamples: self.report.counterexamples,
            loop_clauses: self.report.loop_clauses,
            variables,
            clauses: self.clauses,
            second_view,
            times: Times {
                total: self.start.elapsed(),
                ..self.report.times.clone()
            },
        });
    }

    /// What the next call does: `searching`, `proving` or `improving window N`.
    fn mode(&self, proving: bool) -> String {
        match &self.improve {
            Some(im) => format!("improving window {}", im.next),
            None if proving => "proving".into(),
            None => "searching".into(),
        }
    }

    fn assumptions(&self, bound: Option<usize>, proving: bool, goals: usize) -> Vec<Lit> {
        let mut a = vec![if proving {
            !self.enc.strong
        } else {
            self.enc.strong
        }];
        a.extend(&self.enc.goals[..goals]);
        if let Some(b) = bound {
            a.extend(self.enc.belts.enforce_ub(b).unwrap_or_default());
        }
        if let Some(im) = &self.improve {
            let window = &self.windows[im.next];
            a.extend(
                (0..im.fixed.len())
                    .filter(|i| window.binary_search(i).is_err())
                    .map(|i| im.fixed[i]),
            );
        }
        a
    }

    /// Starts (or restarts) the neighbourhood search around `layout`.
    fn improve_around(&mut self, layout: &Level) {
        let keep = self.improve.as_ref().map_or(0, |im| im.next);
        self.improve = Some(Improve {
            fixed: self
                .enc
                .free
                .keys()
                .map(|i| self.enc.chosen(i, layout))
                .collect(),
            belt: self
                .enc
                .free
                .iter()
                .map(|&c| matches!(layout.tile(c), crate::level::Tile::Belt(_)))
                .collect(),
            next: keep,
            failed: 0,
            rejected: 0,
        });
        self.skip_beltless_windows();
    }

    /// Gives up on the current window and moves to the next one.
    fn next_window(&mut self) {
        if let Some(im) = &mut self.improve {
            im.next = (im.next + 1) % self.windows.len();
            im.failed += 1;
            im.rejected = 0;
        }
        self.skip_beltless_windows();
    }

    /// Skips windows where the best layout has no belt (no belt fewer is
    /// possible there), and ends the search after a full round without an
    /// improvement.
    fn skip_beltless_windows(&mut self) {
        let n = self.windows.len();
        let Some(im) = &mut self.improve else { return };
        while im.failed < n && !self.windows[im.next].iter().any(|&i| im.belt[i]) {
            im.next = (im.next + 1) % n;
            im.failed += 1;
        }
        if im.failed >= n {
            self.improve = None;
        }
    }
}

/// "1 belt", "2 belts": for claims and progress lines.
pub fn belts(n: usize) -> String {
    if n == 1 {
        "1 belt".into()
    } else {
        format!("{n} belts")
    }
}

/// Solves `level` (its own belts are preset; `.` cells are free).
pub fn solve(
    level: &Level,
    opts: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report, String> {
    let start = Instant::now();
    let deadline = opts.timeout.map(|t| start + t);
    let mut vars = BasicVarManager::default();
    let mut cnf = Cnf::new();
    let eo =
        opts.lazy_counter_from
            .map_or_else(Default::default, |k| crate::encode::EncodeOptions {
                lazy_counter_from: k,
                ..Default::default()
            });
    let mut enc = Encoding::new(level, &eo, &mut cnf, &mut vars);
    let mut all: Vec<Clause> = cnf.into_iter().collect();
    let first_vars = vars.n_used();
    let mut other = if opts.threads > 1 && opts.eliminate {
        enc.acyclic_clauses(&all, &mut vars)
    } else {
        Vec::new()
    };
    let own_variables = vars.n_used() - first_vars;
    if let Some(seed) = std::env::var("FROSTED_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        shuffle(&mut all, seed);
        shuffle(&mut other, seed);
    }
    let trace = std::env::var_os("FROSTED_TRACE").is_some();
    // The racing copies after the first hold a second view of the same
    // problem: the grounding by vertex elimination instead of ranks, and
    // the whole simplified by variable elimination.
    let mut ext = Extension::default();
    let mut second = None;
    let backend: Box<dyn Backend> = if opts.threads > 1 {
        let race = Race::new(&opts.solver, opts.threads, opts.head_start);
        if opts.eliminate {
            let (simple, e) = eliminate(&other, vars.n_used(), &enc.interface());
            if trace {
                if let Some(ranks) = &enc.acyclic_view {
                    note!(
                        "trace: grounding by vertex elimination: {} rank clauses -> {}",
                        ranks.range.len(),
                        other.len() + ranks.range.len() - all.len(),
                    );
                }
                note!(
                    "trace: elimination: {} of {} variables, {} -> {} clauses",
                    e.eliminated,
                    vars.n_used(),
                    other.len(),
                    simple.len(),
                );
            }
            second = Some((
                SecondView {
                    own_variables,
                    eliminated: e.eliminated,
                    clauses: simple.len(),
                },
                all.len(),
            ));
            ext = e.clone();
            Box::new(race.simplified_start(all.len(), simple, e))
        } else {
            Box::new(race)
        }
    } else {
        opts.solver.build()?
    };
    let encode_time = start.elapsed();
    let mut lp = Loop {
        report: Report {
            times: Times {
                encode: encode_time,
                ..Times::default()
            },
            ..Report::empty(opts.solver.name(), opts.threads)
        },
        enc,
        backend,
        vars,
        clauses: 0,
        start,
        progress,
        trace,
        trace_layouts: std::env::var_os("FROSTED_TRACE_LAYOUTS").is_some(),
        improve: None,
        windows: Vec::new(),
        dump: None,
        ext,
        second,
        gates: HashMap::new(),
    };
    if let Some(dir) = &opts.dump_calls {
        lp.dump = Some(CallDump::new(dir, lp.enc.variable_comments()));
    }
    if opts.neighbourhoods && !opts.first {
        lp.windows = windows(level.shape, lp.enc.free.as_slice());
    }
    for cl in &all {
        lp.add_encoding(cl);
    }

    // The chain bound, where the level is of its class.
    let mut chains = match ChainBound::new(level) {
        Ok(cb) if opts.chain_bound => Some(cb),
        Ok(_) => None,
        Err(why) => {
            if lp.trace && opts.chain_bound {
                note!("trace: no chain bound: {why}");
            }
            None
        }
    };

    let n_free = lp.enc.free.len();
    let mut bound: Option<usize> = opts.max_belts.filter(|&k| k < n_free);
    // Before any SAT call: may the chain bound rule out every layout (within
    // `--max-belts`; no layout has more belts than free cells)? A level
    // whose search runs out of budget here has too many ways for the
    // searches after a layout too, which are then not made.
    if let Some(cb) = &chains {
        let answer = lp.ask_chains(cb, 1, bound.unwrap_or(n_free));
        if answer == Bound::OutOfBudget {
            chains = None;
        } else if answer == Bound::Refuted {
            lp.report.status = Status::Unsolvable;
            lp.report.proof = Some(bound);
            lp.report.proved_by_chains = true;
            lp.report.claim = match bound {
                Some(k) => format!(
                    "proved by the chain bound: no layout with at most {} solves the level",
                    belts(k)
                ),
                None => "proved by the chain bound: no layout solves the level".into(),
            };
        }
    }
    // Searching only pays when it adds constraints; otherwise its UNSAT would
    // just be repeated by proving.
    let mut proving = !lp.enc.adds_strength;
    // Warming up: with several sources, the first calls ask for one more
    // requirement each (see `Encoding::goals`); their models are not decoded.
    let all_goals = lp.enc.goals.len();
    let mut goals = if lp.enc.sources.len() > 1 {
        1
    } else {
        all_goals
    };
    loop {
        if lp.report.proved_by_chains || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        lp.tick_progress(bound, proving, None);
        // A window call searches (it proves nothing), whatever the phase.
        let improving = lp.improve.is_some();
        if let Some(b) = bound {
            // A lazy belt counter learns the bound first (no-op otherwise).
            for cl in lp.enc.bound_belts(b, &mut lp.vars) {
                lp.add(&cl)?;
            }
        }
        let assumptions = lp.assumptions(bound, proving && !improving, goals);
        lp.check_interface(assumptions.iter())?;
        lp.report.iterations += 1;
        let n_vars = lp.vars.n_used();
        if let Some(d) = &lp.dump {
            let what = format!(
                "{}, {}",
                lp.mode(proving),
                bound.map_or("any size".into(), |b| format!("at most {}", belts(b)))
            );
            d.write(lp.report.iterations, &what, &assumptions, n_vars)?;
        }
        let t = Instant::now();
        let answer = lp.backend.solve(&assumptions, n_vars, deadline)?;
        lp.report.times.add_call(t.elapsed(), improving, proving);
        if lp.trace {
            note!(
                "trace: iteration {} {} bound {:?}: {} in {:.3}s",
                lp.report.iterations,
                lp.mode(proving),
                bound,
                match &answer {
                    Answer::Sat(_) => "sat",
                    Answer::Unsat => "unsat",
                    Answer::Unknown => "unknown",
                },
                t.elapsed().as_secs_f64()
            );
        }
        match answer {
            Answer::Unknown => break,
            // Not by changing this window alone: no proof of anything.
            Answer::Unsat if improving => lp.next_window(),
            Answer::Unsat => {
                // Fewer requirements are a relaxation of all of them.
                goals = all_goals;
                // A searching call whose failed core leaves out `strong` was
                // unsatisfiable without the strengthening: a proof already.
                let core_proves = !proving
                    && lp
                        .backend
                        .core()
                        .is_some_and(|core| !core.contains(&lp.enc.strong));
                if lp.trace && !proving {
                    note!("trace: searching unsat; core without strong: {core_proves}");
                }
                if !proving && !core_proves {
                    proving = true;
                    continue;
                }
                lp.report.status = if lp.report.layout.is_some() {
                    Status::Optimal
                } else {
                    Status::Unsolvable
                };
                lp.report.proof = Some(lp.report.belts.map_or(bound, |b| Some(b - 1)));
                lp.report.claim = match (lp.report.belts, bound) {
                    (Some(b), _) => {
                        format!(
                            "proved: no layout with fewer than {} solves the level",
                            belts(b)
                        )
                    }
                    (None, Some(k)) => {
                        format!(
                            "proved: no layout with at most {} solves the level",
                            belts(k)
                        )
                    }
                    (None, None) => "proved: no layout solves the level".into(),
                };
                break;
            }
            Answer::Sat(_) if goals < all_goals => goals += 1,
            Answer::Sat(model) => {
                // A model may mark donuts that no source feeds (a loop feeding
                // itself): loop formulas rule that model out, and the layout
                // without the belts only those donuts use is still worth a run.
                let founded = lp.enc.founded(&model);
                let loops = lp
                    .enc
                    .unfounded(&model, &founded, &mut lp.vars, &mut lp.gates);
                let layout = if loops.is_empty() {
                    lp.enc.decode(&model)
                } else {
                    lp.report.loop_clauses += loops.len();
                    for cl in &loops {
                        lp.add(cl)?;
                    }
                    lp.enc.decode_founded(&model, &founded)
                };
                let t = Instant::now();
                let verdict: Verdict = judge(&layout);
                lp.report.times.simulate += t.elapsed();
                if verdict.solved() {
                    let belts = layout.added_belts(level);
                    lp.report.belts = Some(belts);
                    lp.report.best_at = Some(start.elapsed());
                    lp.tick_progress(bound, proving, Some(layout.clone()));
                    if belts > 0 && !lp.windows.is_empty() {
                        lp.improve_around(&layout);
                    }
                    lp.report.layout = Some(layout);
                    lp.report.status = Status::Solved;
                    lp.report.claim = "verified by the simulator; not proved minimal".into();
                    if opts.first {
                        break;
                    }
                    if belts == 0 {
                        lp.report.status = Status::Optimal;
                        lp.report.claim = "proved: no belts are needed".into();
                        break;
                    }
                    if let Some(cb) = &chains {
                        match lp.ask_chains(cb, belts - 1, belts - 1) {
                            Bound::Refuted => {
                                lp.report.status = Status::Optimal;
                                lp.report.proof = Some(Some(belts - 1));
                                lp.report.proved_by_chains = true;
                                lp.report.claim = format!(
                                    "proved by the chain bound: no layout with fewer than {} \
                                     solves the level",
                                    self::belts(belts)
                                );
                                break;
                            }
                            Bound::OutOfBudget => chains = None,
                            Bound::Allowed { .. } => {}
                        }
                    }
                    bound = Some(belts - 1);
                    // From here on every call is a step towards the proof: a
                    // searching UNSAT would only be repeated by proving, at
                    // about the same price.
                    proving = true;
                } else {
                    let cl = lp.enc.counterexample(&layout, &verdict.outcome);
                    if lp.trace {
                        if let Some(r) = &verdict.reason {
                            note!(
                                "trace: rejected ({} cells): {}",
                                cl.len(),
                                crate::judge::explain(&layout, r, &verdict.outcome)
                            );
                            if lp.trace_layouts {
                                note!("{layout}");
                            }
                        }
                    }
                    lp.report.counterexamples += 1;
                    lp.add(&cl)?;
                    if let Some(im) = &mut lp.improve {
                        im.rejected += 1;
                        if im.rejected >= WINDOW_REJECTS {
                            lp.next_window();
                        }
                    }
                    if matches!(
                        verdict.outcome.end,
                        crate::sim::End::Failed {
                            failure: crate::sim::Failure::WrongDelivery { .. },
                            ..
                        }
                    ) {
                        if let Some(x2) = lp.enc.wrong_branch_clause(&layout) {
                            if lp.trace {
                                note!("trace: X2 clause ({} literals)", x2.len());
                            }
                            lp.add(&x2)?;
                        }
                    }
                }
            }
        }
    }
    lp.report.variables = lp.first_variables();
    lp.report.clauses = lp.clauses;
    lp.report.second_view = lp.second_view();
    lp.report.times.total = start.elapsed();
    if lp.report.status == Status::Unknown && lp.report.layout.is_some() {
        lp.report.status = Status::Solved;
    }
    if lp.report.status == Status::Unknown {
        lp.report.claim = "timed out before a layout or a proof".into();
    } else if lp.report.status == Status::Solved && !opts.first {
        lp.report.claim = "verified by the simulator; timed out before proving it minimal".into();
    }
    Ok(lp.report)
}

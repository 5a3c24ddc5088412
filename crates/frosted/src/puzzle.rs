//! Freshly Frosted as a [`cegar::Puzzle`]: the encoding of [`crate::encode`],
//! the exact simulator of [`crate::sim`] as the check, the chain bound of
//! [`crate::chains`] as a lower bound, and the windows of [`crate::improve`]
//! for the neighbourhood search. A candidate is a layout (a [`Level`] with
//! belts placed on its `.` cells); its cost is the number of belts placed.

use crate::chains::{self, ChainBound};
use crate::encode::{option_index, EncodeOptions, Encoding, LoopGates};
use crate::explain::Learned;
use crate::focus::corridors;
use crate::improve::{streams, windows};
use crate::judge::{explain, judge};
use crate::level::{Level, Tile};
use crate::sim::{End, Failure};
use cegar::{Bound, Check, Decision, Decoded, Encoded, LowerBound, Nouns, Puzzle};
use rustsat::instances::{Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::sync::atomic::AtomicBool;

/// The words claims use for this puzzle.
pub const NOUNS: Nouns = Nouns {
    candidate: "layout",
    unit: "belt",
    units: "belts",
    instance: "level",
    checker: "simulator",
};

/// A level to solve (its own belts are preset; `.` cells are free).
pub struct Frosted {
    level: Level,
    options: EncodeOptions,
    /// The encoding, once [`Puzzle::encode`] wrote it.
    enc: Option<Encoding>,
    /// The loop formulas' gate literals (see `Encoding::unfounded`).
    gates: LoopGates,
    /// Justify each loop formula, for a certificate (`cegar::Options::record`).
    notes: bool,
    /// With [`solve_learning`]: what the rejected layouts' runs taught.
    learned: Option<Learned>,
}

impl Frosted {
    /// The puzzle of `level`, encoded with `options`.
    pub fn new(level: &Level, options: &EncodeOptions) -> Frosted {
        Frosted {
            level: level.clone(),
            options: options.clone(),
            enc: None,
            gates: LoopGates::new(),
            notes: false,
            learned: None,
        }
    }

    /// The encoding. The loop calls [`Puzzle::encode`] before anything else.
    fn enc(&self) -> &Encoding {
        self.enc
            .as_ref()
            .expect("the loop encodes the puzzle before anything else")
    }

    fn enc_mut(&mut self) -> &mut Encoding {
        self.enc
            .as_mut()
            .expect("the loop encodes the puzzle before anything else")
    }

    /// The clauses that block a failed layout: the counterexample over the
    /// cells its run read, and after a wrong delivery the wrong-branch
    /// clause (X2), when it applies.
    fn blocking_clauses(&self, layout: &Level, verdict: &crate::judge::Verdict) -> Vec<Clause> {
        let enc = self.enc();
        let mut clauses = vec![enc.counterexample(layout, &verdict.outcome)];
        if let End::Failed {
            failure: Failure::WrongDelivery { .. },
            ..
        } = verdict.outcome.end
        {
            clauses.extend(enc.wrong_branch_clause(layout));
        }
        clauses
    }
}

impl Puzzle for Frosted {
    type Candidate = Level;

    fn encode(&mut self, cnf: &mut Cnf, vars: &mut dyn ManageVars) -> Result<Encoded, String> {
        let enc = Encoding::new(&self.level, &self.options, cnf, vars);
        let encoded = Encoded {
            strong: Some(enc.strong),
            adds_strength: enc.adds_strength,
            goals: enc.goals.clone(),
            decisions: enc.free.len(),
            max_cost: enc.free.len(),
        };
        self.enc = Some(enc);
        Ok(encoded)
    }

    fn cost_at_most(&mut self, k: usize, vars: &mut dyn ManageVars) -> (Vec<Clause>, Vec<Lit>) {
        let enc = self.enc_mut();
        let clauses = enc.bound_belts(k, vars);
        let assume = enc.belts.at_most(k).unwrap_or_default();
        (clauses, assume)
    }

    /// A model may mark donuts that no source feeds (a loop feeding itself):
    /// loop formulas rule that model out, and the layout without the belts
    /// only those donuts use is still worth a run.
    fn decode(&mut self, model: &[bool], vars: &mut dyn ManageVars) -> Decoded<Level> {
        let Some(enc) = self.enc.as_ref() else {
            return Decoded {
                candidate: None,
                lemmas: Vec::new(),
                notes: Vec::new(),
            };
        };
        let founded = enc.founded(model);
        let mut notes = Vec::new();
        let keep = self.notes.then_some(&mut notes);
        let lemmas = enc.unfounded(model, &founded, vars, &mut self.gates, keep);
        let layout = match lemmas.is_empty() {
            true => enc.decode(model),
            false => enc.decode_founded(model, &founded),
        };
        Decoded {
            candidate: Some(layout),
            lemmas,
            notes,
        }
    }

    fn check(&mut self, layout: &Level, explain_failure: bool) -> Check {
        let verdict = judge(layout);
        if let (Some(learned), Some(enc), Some(_)) = (&mut self.learned, &self.enc, &verdict.reason)
        {
            learned.note(&self.level, enc, layout, &verdict.outcome);
        }
        match &verdict.reason {
            None => Check::Accepted {
                cost: layout.added_belts(&self.level),
            },
            Some(reason) => Check::Rejected {
                clauses: self.blocking_clauses(layout, &verdict),
                reason: explain_failure.then(|| explain(layout, reason, &verdict.outcome)),
            },
        }
    }

    /// Two layouts that agree on every cell a donut visits in the run of
    /// one of them have the same run (the run reads no other cell), so they
    /// are the same solution: the clause says some visited `.` cell differs
    /// (the counterexample clause X1, here on an accepted layout).
    fn block(&mut self, layout: &Level) -> Option<Clause> {
        let outcome = crate::sim::simulate(layout);
        Some(self.enc().counterexample(layout, &outcome))
    }

    /// A layout of [`crate::sketch`], accepted by the simulator, if a few
    /// tries find one.
    fn sketch(&mut self) -> Option<Level> {
        let enc = self.enc.as_ref()?;
        crate::sketch::Sketcher::new(enc, crate::sketch::SEED).sketch(crate::sketch::TRIES)
    }

    fn lower_bound(&self) -> Result<Box<dyn LowerBound>, String> {
        Ok(Box::new(Chains::of(&self.level)?))
    }

    fn windows(&self) -> Vec<Vec<usize>> {
        windows(self.level.shape, self.enc().free.as_slice())
    }

    fn windows_around(&mut self, layout: &Level) -> Vec<Vec<usize>> {
        streams(layout, self.enc().free.as_slice())
    }

    /// The corridors of [`crate::focus`], narrowest first: "no belt" on
    /// each free cell outside.
    fn focus(&self) -> Vec<Vec<Lit>> {
        let enc = self.enc();
        corridors(&self.level)
            .iter()
            .map(|inside| {
                enc.free
                    .enumerate()
                    .filter(|(_, c)| !inside[c.index()])
                    .map(|(i, _)| enc.choice[i][option_index(None)])
                    .collect()
            })
            .collect()
    }

    fn decisions_of(&self, layout: &Level) -> Vec<Decision> {
        let enc = self.enc();
        enc.free
            .enumerate()
            .map(|(i, &cell)| Decision {
                keep: enc.chosen(i, layout),
                costs: matches!(layout.tile(cell), Tile::Belt(_)),
            })
            .collect()
    }

    /// The loops grounded by ranks (C7) instead of vertex elimination (C7′),
    /// where the level has exact ranks.
    fn second_view(&mut self, first: &[Clause], _vars: &mut dyn ManageVars) -> Option<Vec<Clause>> {
        self.enc().ranked_clauses(first)
    }

    fn interface(&self) -> Vec<bool> {
        self.enc().interface()
    }

    fn nouns(&self) -> Nouns {
        NOUNS
    }

    fn variable_comments(&self) -> Vec<String> {
        self.enc().variable_comments()
    }
}

/// The chain bound as the loop's lower bound; its deeper search prices
/// the chains that end in a target or a fork by simple paths
/// ([`ChainBound::with_simple_paths`]).
struct Chains {
    plain: ChainBound,
    simple: ChainBound,
}

impl Chains {
    /// The chain bound of `level`, both searches, or why it does not apply.
    fn of(level: &Level) -> Result<Chains, String> {
        let plain = ChainBound::new(level)?;
        let simple = ChainBound::new(level)?.with_simple_paths(true);
        Ok(Chains { plain, simple })
    }
}

/// The loop's answer for the chain bound's.
fn bound_of(b: chains::Bound) -> Bound {
    match b {
        chains::Bound::Refuted => Bound::Refuted,
        chains::Bound::Allowed { .. } => Bound::Allowed,
        chains::Bound::OutOfBudget => Bound::OutOfBudget,
    }
}

impl LowerBound for Chains {
    fn name(&self) -> &'static str {
        "chain bound"
    }

    fn allows(&self, k: usize, budget: u64) -> Bound {
        self.allows_unless(k, budget, &AtomicBool::new(false))
    }

    fn allows_unless(&self, k: usize, budget: u64, stop: &AtomicBool) -> Bound {
        bound_of(self.plain.allows_unless(k, budget, Some(stop)))
    }

    fn has_deeper(&self) -> bool {
        true
    }

    fn allows_deeper(&self, k: usize, budget: u64, stop: &AtomicBool) -> Bound {
        bound_of(self.simple.allows_unless(k, budget, Some(stop)))
    }

    fn work(&self) -> u64 {
        self.plain.work() + self.simple.work()
    }
}

/// Every distinct layout of `level` with the fewest belts (or, with
/// `opts.max_cost`, with at most that many), at most `limit` of them; two
/// layouts that differ only on cells no donut visits count once (see
/// [`Puzzle::block`] above). Each is reduced: no belt on a cell its run does
/// not visit.
pub fn enumerate(
    level: &Level,
    opts: &cegar::Options,
    encode: &EncodeOptions,
    limit: Option<usize>,
    events: &mut dyn FnMut(cegar::Event<Level>),
    found: &mut dyn FnMut(&Level),
) -> Result<cegar::Enumeration<Level>, String> {
    // Each solution is reduced once, as it is found (one more run of the
    // simulator), and that reduced layout is both shown and kept.
    let mut kept = Vec::new();
    let mut reduced = |layout: &Level| {
        let r = without_idle_belts(level, layout);
        found(&r);
        kept.push(r);
    };
    let mut e = cegar::enumerate(
        &mut Frosted::new(level, encode),
        opts,
        limit,
        events,
        &mut reduced,
    )?;
    e.solutions = kept;
    Ok(e)
}

/// The layout without the belts it placed on cells its run never visits
/// (the same run, so the same verdict).
pub fn without_idle_belts(level: &Level, layout: &Level) -> Level {
    let visited = crate::sim::simulate(layout).visited;
    let mut out = layout.clone();
    for c in level.free_cells() {
        if !visited[c.index()] {
            out.tiles[c.index()] = Tile::Empty;
        }
    }
    out
}
/// The name of the level check's proofs ("proved by the level check").
pub const LEVEL_CHECK: &str = "level check";

/// Solves `level` with the loop of [`cegar::solve`]: the layout with the
/// fewest belts, verified, and what is proved about it. The level check
/// ([`crate::explain::level_check`]) comes first: when one of its plain
/// arguments proves the level impossible, that is the proof, and no SAT
/// call is made. Like the chain bound, it is a proof without SAT, so it is
/// skipped when `opts.lower_bound` is off (`--no-chain-bound`, and the
/// second loop of `--certificate`, which proves the claim again by SAT).
pub fn solve(
    level: &Level,
    opts: &cegar::Options,
    encode: &EncodeOptions,
    events: &mut dyn FnMut(cegar::Event<Level>),
) -> Result<cegar::Report<Level>, String> {
    let start = std::time::Instant::now();
    if opts.lower_bound && !crate::explain::level_check(level).is_empty() {
        let mut report = cegar::Report::empty(opts.solver.name(), opts.threads);
        report.status = cegar::Status::Unsolvable;
        report.claim = cegar::Claim::Proved(cegar::Proof {
            max_cost: None,
            by: cegar::ProofMethod::LowerBound(LEVEL_CHECK),
        });
        report.times.total = start.elapsed();
        return Ok(report);
    }
    let mut puzzle = Frosted::new(level, encode);
    puzzle.notes = opts.record;
    cegar::solve(&mut puzzle, opts, events)
}

/// After a solve stopped (with a layout of `below` belts, or with none and
/// `below` one more than any layout could have): the largest count under
/// `below` that the chain bound refutes (no layout with at most that many
/// belts solves `level`), each question of the bisection with `budget`
/// units of work ([`cegar::largest_refuted`]), as a proof; `None` outside
/// the bound's class or when it refutes none.
pub fn refuted_below(level: &Level, below: usize, budget: u64) -> Option<cegar::Proof> {
    let chains = Chains::of(level).ok()?;
    let k = cegar::largest_refuted(&chains, below, budget)?;
    Some(cegar::Proof {
        max_cost: Some(k),
        by: cegar::ProofMethod::LowerBound(chains.name()),
    })
}

/// [`solve`], keeping what the simulator's runs of rejected layouts taught
/// ([`Learned`]), for the explanation that follows an `unsolvable` verdict
/// (empty when the level check proved it without SAT).
pub fn solve_learning(
    level: &Level,
    opts: &cegar::Options,
    encode: &EncodeOptions,
    events: &mut dyn FnMut(cegar::Event<Level>),
) -> Result<(cegar::Report<Level>, Learned), String> {
    let mut learned = Learned::new(level, opts.max_cost);
    if opts.lower_bound && !crate::explain::level_check(level).is_empty() {
        return Ok((solve(level, opts, encode, events)?, learned));
    }
    let mut puzzle = Frosted::new(level, encode);
    puzzle.notes = opts.record;
    puzzle.learned = Some(learned);
    let report = cegar::solve(&mut puzzle, opts, events)?;
    learned = puzzle
        .learned
        .take()
        .unwrap_or(Learned::new(level, opts.max_cost));
    Ok((report, learned))
}

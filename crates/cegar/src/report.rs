//! What a solve ends with and what it claims: statuses, proofs and claims as
//! types, progress and times. A claim is put in words in one place,
//! [`Claim::describe`], with the puzzle's own nouns.

use std::time::Duration;

/// How a solve ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A verified candidate, and a proof that nothing cheaper solves.
    Optimal,
    /// A verified candidate, not proved minimal (first only, or stopped).
    Solved,
    /// A proof that nothing (within the cost bound, if given) solves.
    Unsolvable,
    /// Neither a candidate nor a proof.
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

/// What a proof rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofMethod {
    /// An UNSAT answer with only relaxations of the rules assumed.
    Sat,
    /// A lower bound proved without SAT (its name: "chain bound").
    LowerBound(&'static str),
}

impl ProofMethod {
    /// "sat", or the bound's name.
    pub fn name(&self) -> &'static str {
        match self {
            ProofMethod::Sat => "sat",
            ProofMethod::LowerBound(name) => name,
        }
    }
}

/// A proof: no candidate that costs at most `max_cost` (`None`: any)
/// solves the instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub max_cost: Option<usize>,
    pub by: ProofMethod,
}

/// Why the loop stopped before it was done.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    TimedOut,
    Interrupted,
}

impl Stop {
    fn words(self) -> &'static str {
        match self {
            Stop::TimedOut => "timed out",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// What a solve claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// With a candidate: nothing cheaper solves; without: nothing solves.
    Proved(Proof),
    /// The candidate costs nothing, so nothing is cheaper.
    FreeOfCost,
    /// A verified candidate, not proved minimal: only the first was asked
    /// for (`None`), or the loop stopped.
    Verified(Option<Stop>),
    /// Neither a candidate nor a proof.
    Nothing(Stop),
}

/// The puzzle's words for claims: what a candidate, a unit of cost and an
/// instance are called.
#[derive(Copy, Clone, Debug)]
pub struct Nouns {
    pub candidate: &'static str,
    pub unit: &'static str,
    pub units: &'static str,
    pub instance: &'static str,
    pub checker: &'static str,
}

impl Nouns {
    /// "1 unit", "2 units", in the puzzle's words.
    pub fn cost(&self, n: usize) -> String {
        match n {
            1 => format!("1 {}", self.unit),
            n => format!("{n} {}", self.units),
        }
    }
}

impl Claim {
    /// The proof behind the claim, if any.
    pub fn proof(&self) -> Option<&Proof> {
        match self {
            Claim::Proved(p) => Some(p),
            _ => None,
        }
    }

    /// The claim in words; `cost`: the best candidate's cost, if any.
    pub fn describe(&self, cost: Option<usize>, n: &Nouns) -> String {
        match self {
            Claim::Proved(p) => describe_proof(p, cost, n),
            Claim::FreeOfCost => format!("proved: no {} are needed", n.units),
            Claim::Verified(None) => format!("verified by the {}; not proved minimal", n.checker),
            Claim::Verified(Some(stop)) => format!(
                "verified by the {}; {} before proving it minimal",
                n.checker,
                stop.words()
            ),
            Claim::Nothing(stop) => {
                format!("{} before a {} or a proof", stop.words(), n.candidate)
            }
        }
    }
}

fn describe_proof(p: &Proof, cost: Option<usize>, n: &Nouns) -> String {
    let by = match &p.by {
        ProofMethod::Sat => "proved".to_string(),
        ProofMethod::LowerBound(name) => format!("proved by the {name}"),
    };
    let what = match (cost, p.max_cost) {
        (Some(c), _) => format!("with fewer than {}", n.cost(c)),
        (None, Some(k)) => format!("with at most {}", n.cost(k)),
        (None, None) => String::new(),
    };
    let space = if what.is_empty() { "" } else { " " };
    format!(
        "{by}: no {}{space}{what} solves the {}",
        n.candidate, n.instance
    )
}

/// The size of the racing copies' second view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecondView {
    /// Variables only it has.
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
    /// SAT calls with the strengthenings (no proof).
    pub searching: Duration,
    /// SAT calls of the neighbourhood search (one window free; no proof).
    pub improving: Duration,
    /// SAT calls with the pure relaxation: the calls whose UNSAT is a proof.
    pub proving: Duration,
    /// The exact checks.
    pub simulate: Duration,
    /// Building the puzzle's sketch ([`crate::Puzzle::sketch`]), its check
    /// included.
    pub sketch: Duration,
    /// The time the loop waited for the lower bound's searches (not those
    /// that ran beside the SAT calls).
    pub lower_bound: Duration,
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

/// The counts a report and a progress line share.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// SAT calls.
    pub iterations: usize,
    /// Candidates the check rejected (each became clauses).
    pub counterexamples: usize,
    /// Lemmas the puzzle added for models it could not read as they were.
    pub lemmas: usize,
    /// The formula as the first solver holds it.
    pub variables: u32,
    pub clauses: usize,
    /// The racing copies' second view, when there is one.
    pub second_view: Option<SecondView>,
}

/// Where the loop is, before every SAT call and at each new best candidate.
#[derive(Clone, Debug)]
pub struct Progress<C> {
    pub elapsed: Duration,
    pub counts: Counts,
    /// The best cost so far, and when it was verified.
    pub best: Option<usize>,
    pub best_at: Option<Duration>,
    /// The bound being worked on: looking for at most this cost.
    pub bound: Option<usize>,
    pub proving: bool,
    /// The call only changes one window of the best candidate; its answer
    /// proves nothing.
    pub improving: bool,
    /// The call is a restart's: a search elsewhere, with no bound; its
    /// answer proves nothing.
    pub restarting: bool,
    /// The window calls descend from a restart's candidate, which costs no
    /// less than the best (so `bound` may be above the best's cost).
    pub descending: bool,
    /// Set when this call reports a new best verified candidate.
    pub improved: Option<C>,
    /// Time spent per phase so far (`total` is `elapsed`).
    pub times: Times,
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Report<C> {
    pub status: Status,
    pub claim: Claim,
    /// The best verified candidate and its cost.
    pub candidate: Option<C>,
    pub cost: Option<usize>,
    /// When `candidate` was verified (time since the start).
    pub best_at: Option<Duration>,
    pub counts: Counts,
    pub times: Times,
    /// The SAT solver's name (`varisat`, `cadical`, `cmd:PROGRAM`).
    pub solver: String,
    /// Copies of it that raced (1: one solver).
    pub threads: usize,
    /// After a stop (a timeout, an interrupt): a proof, found once the loop
    /// had stopped ([`crate::puzzle::largest_refuted`]), that no candidate
    /// costs at most `max_cost`, short of the best candidate's cost (or,
    /// without one, of every cost allowed): the gap the stop left open.
    pub bound: Option<Proof>,
}

impl<C> Report<C> {
    /// A report with nothing found yet.
    pub fn empty(solver: String, threads: usize) -> Report<C> {
        Report {
            status: Status::Unknown,
            claim: Claim::Nothing(Stop::TimedOut),
            candidate: None,
            cost: None,
            best_at: None,
            counts: Counts::default(),
            times: Times::default(),
            solver,
            threads: threads.max(1),
            bound: None,
        }
    }

    /// The claim in words, with the lower bound found after a stop
    /// ([`Report::bound`]), if any.
    pub fn claim_words(&self, n: &Nouns) -> String {
        let claim = self.claim.describe(self.cost, n);
        match &self.bound {
            Some(p) => format!("{claim}; {}", describe_proof(p, None, n)),
            None => claim,
        }
    }

    /// The report of a loop that was stopped from outside after `last`
    /// progress (or none): its best candidate as `solved`, else `unknown`.
    /// The call in flight then was a SAT call; its time counts as one.
    pub fn stopped(
        mut self,
        stop: Stop,
        best: Option<(C, usize)>,
        last: Option<&Progress<C>>,
        total: Duration,
    ) -> Report<C> {
        if let Some(p) = last {
            self.counts = p.counts.clone();
            self.best_at = p.best_at;
            self.times = p.times.clone();
            self.times
                .add_call(total.saturating_sub(p.elapsed), p.improving, p.proving);
        }
        self.times.total = total;
        (self.status, self.claim) = match &best {
            Some(_) => (Status::Solved, Claim::Verified(Some(stop))),
            None => (Status::Unknown, Claim::Nothing(stop)),
        };
        (self.candidate, self.cost) = best.map_or((None, None), |(c, k)| (Some(c), Some(k)));
        self
    }

    /// The proof behind the status, if any.
    pub fn proof(&self) -> Option<&Proof> {
        self.claim.proof()
    }

    /// The solver as the summary names it: `varisat`, or `varisat, 2 racing`.
    pub fn solver_label(&self) -> String {
        match self.threads {
            1 => self.solver.clone(),
            n => format!("{}, {n} racing", self.solver),
        }
    }
}

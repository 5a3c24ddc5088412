//! Enumeration: every distinct solution at the optimal cost (or at most a
//! given cost), each checked exactly. After the usual solve has proved the
//! minimum, the loop keeps asking at that bound; each accepted candidate is
//! reported and blocked with the clause the puzzle gives
//! ([`Puzzle::block`]), which rules out it and every candidate the puzzle
//! counts as the same solution; rejected candidates are refined as ever.
//! An UNSAT answer while proving then means no other solution exists: the
//! count is complete.

use super::neighbourhood::Neighbourhood;
use super::run::Loop;
use super::{setup, Event, Options};
use crate::puzzle::{Check, Puzzle};
use crate::report::{Report, Status};
use crate::sat::Answer;
use std::time::Instant;

/// Why an enumeration ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EnumEnd {
    /// Every solution was found: the last call was UNSAT while proving.
    Complete,
    /// It stopped after the number of solutions asked for.
    Limit,
    /// The deadline came first (while enumerating, or before the minimum
    /// was proved).
    TimedOut,
}

/// What an enumeration found.
#[derive(Clone, Debug)]
pub struct Enumeration<C> {
    /// The distinct solutions, in the order found.
    pub solutions: Vec<C>,
    /// The cost bound enumerated at: the proved minimum, or the `max_cost`
    /// given; `None` when the minimum was not proved, or there is no solution.
    pub bound: Option<usize>,
    pub end: EnumEnd,
    /// The loop's report (counts and times of every call, the first
    /// solve's status and claim).
    pub report: Report<C>,
}

/// Every distinct solution of `puzzle` that costs at most `opts.max_cost`,
/// or, without one, at the proved minimum (found by [`super::solve`]
/// first); at most `limit` of them. `found` sees each one as it comes.
pub fn enumerate<P: Puzzle>(
    puzzle: &mut P,
    opts: &Options,
    limit: Option<usize>,
    events: &mut dyn FnMut(Event<P::Candidate>),
    found: &mut dyn FnMut(&P::Candidate),
) -> Result<Enumeration<P::Candidate>, String> {
    let mut opts = opts.clone();
    opts.first = false;
    // Its UNSAT answers end the enumeration: no call may be focused.
    opts.focus_slice = None;
    if opts.max_cost.is_some() {
        opts.neighbourhoods = false;
    }
    let mut lp = setup::start(puzzle, &opts, events)?;
    let bound = match opts.max_cost {
        Some(k) => Some(k),
        None => minimum(&mut lp)?,
    };
    let mut solutions = Vec::new();
    let end = match bound {
        None if lp.report.status == Status::Unsolvable => EnumEnd::Complete,
        None => EnumEnd::TimedOut,
        Some(k) => lp.enumerate_at(k, limit, &mut solutions, found)?,
    };
    let report = lp.finish();
    Ok(Enumeration {
        solutions,
        bound,
        end,
        report,
    })
}

/// Solves as usual; the proved minimum, if the solve got that far.
fn minimum<P: Puzzle>(lp: &mut Loop<'_, P>) -> Result<Option<usize>, String> {
    lp.ask_lower_bound_first();
    lp.run()?;
    Ok(match lp.report.status {
        Status::Optimal => lp.report.cost,
        _ => None,
    })
}

impl<P: Puzzle> Loop<'_, P> {
    /// Asks at cost `k`, while proving, until UNSAT, `limit` solutions or
    /// the deadline; each accepted candidate is recorded and blocked.
    fn enumerate_at(
        &mut self,
        k: usize,
        limit: Option<usize>,
        solutions: &mut Vec<P::Candidate>,
        found: &mut dyn FnMut(&P::Candidate),
    ) -> Result<EnumEnd, String> {
        self.restart.end();
        self.bound = (k < self.enc.max_cost).then_some(k);
        self.proving = true;
        self.neighbourhood = Neighbourhood::new(Vec::new());
        loop {
            if limit.is_some_and(|n| solutions.len() >= n) {
                return Ok(EnumEnd::Limit);
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(EnumEnd::TimedOut);
            }
            let model = match self.ask()? {
                Answer::Unknown => return Ok(EnumEnd::TimedOut),
                Answer::Unsat => return Ok(EnumEnd::Complete),
                Answer::Sat(model) => model,
            };
            let decoded = self.puzzle.decode(&model, &mut self.vars);
            self.report.counts.lemmas += decoded.lemmas.len();
            for cl in &decoded.lemmas {
                self.add(cl)?;
            }
            let Some(candidate) = decoded.candidate else {
                continue;
            };
            match self.puzzle.check(&candidate, self.opts.trace) {
                Check::Accepted { .. } => {
                    let block = self.puzzle.block(&candidate).ok_or_else(|| {
                        "internal error: this puzzle cannot block a solution, so it cannot enumerate"
                            .to_string()
                    })?;
                    found(&candidate);
                    solutions.push(candidate);
                    self.add(&block)?;
                }
                Check::Rejected { clauses, reason } => {
                    self.on_rejected(&candidate, &clauses, reason)?;
                }
            }
        }
    }
}

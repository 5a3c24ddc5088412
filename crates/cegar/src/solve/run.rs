//! The loop's state and its steps: ask, read the answer, check the candidate,
//! refine on a failure, tighten the bound on a success, and stop at a proof.

use super::focus::Focus;
use super::lower::{Lower, Question, Reply};
use super::neighbourhood::Neighbourhood;
use super::restart::Restart;
use super::{Event, Options, Origin};
use crate::puzzle::{Bound, Check, Encoded, Puzzle};
use crate::report::{Claim, Progress, Proof, ProofMethod, Report, SecondView, Status, Stop, Times};
use crate::sat::call_dump::CallDump;
use crate::sat::elim::{Background, Eliminated};
use crate::sat::{Answer, Backend};
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::{Clause, Lit};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The solve loop's state.
pub(super) struct Loop<'a, P: Puzzle> {
    pub(super) puzzle: &'a mut P,
    pub(super) opts: &'a Options,
    pub(super) events: &'a mut dyn FnMut(Event<P::Candidate>),
    pub(super) enc: Encoded,
    pub(super) backend: Box<dyn Backend>,
    pub(super) vars: BasicVarManager,
    pub(super) report: Report<P::Candidate>,
    pub(super) start: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) neighbourhood: Neighbourhood,
    /// With `--dump-calls`: every clause so far, written out before each call.
    pub(super) dump: Option<CallDump>,
    /// Per variable: elimination keeps it, so clauses and assumptions after
    /// the encoding may name it (empty: nothing is eliminated).
    pub(super) interface: Vec<bool>,
    /// The racing copies' second view, simplified beside the first calls.
    pub(super) second: Option<Second>,
    /// The lower bound, on its own thread (see [`super::lower`]).
    pub(super) lower: Option<Lower>,
    /// The work the lower bound's deeper searches may still do in this
    /// solve.
    pub(super) deeper_left: u64,
    /// A question the deeper search could not answer while the loop waited:
    /// it goes on beside the proving call over the whole instance.
    pub(super) deeper_pending: Option<Question>,
    /// Looking for a candidate that costs at most this.
    pub(super) bound: Option<usize>,
    pub(super) proving: bool,
    /// A proof or the first candidate asked for: the loop is done.
    pub(super) done: bool,
    /// With [`Options::record`]: the assumptions of the last call.
    pub(super) last_call: Vec<Lit>,
    /// Restarts from another candidate while the proving call is slow.
    pub(super) restart: Restart,
    /// How long the last SAT call took.
    pub(super) last_call_time: Duration,
    /// Where the calls before the first verified candidate look before the
    /// whole instance.
    pub(super) focus: Focus,
}

/// The racing copies' second view: the puzzle's other encoding (no
/// variable eliminated), or the encoding again simplified by variable
/// elimination, on a thread of its own.
pub(super) struct Second {
    /// Variables only it has.
    pub(super) own_variables: u32,
    /// Its clauses and variables before elimination.
    pub(super) clauses: usize,
    pub(super) variables: u32,
    /// How many clauses of the first copy's formula it stands in for.
    pub(super) replaced: usize,
    pub(super) elim: Arc<Background>,
    /// Whether the trace has told of the elimination.
    pub(super) traced: bool,
}

impl Second {
    /// The trace line of its elimination, once `done`.
    fn elimination_line(&self, done: &Eliminated) -> String {
        format!(
            "trace: second view: {} clauses (first view {}); elimination: {} of {} variables, {} -> {} clauses in {:.3}s, beside the calls",
            self.clauses,
            self.replaced,
            done.ext.eliminated,
            self.variables,
            self.clauses,
            done.clauses.len(),
            done.time.as_secs_f64(),
        )
    }
}

impl<'a, P: Puzzle> Loop<'a, P> {
    /// Sends a trace line, when tracing.
    pub(super) fn trace(&mut self, line: String) {
        if self.opts.trace {
            (self.events)(Event::Trace(line));
        }
    }

    /// Gives a clause of the encoding to the solver.
    pub(super) fn add_encoding(&mut self, cl: &Clause) {
        if let Some(d) = &mut self.dump {
            d.add(cl);
        }
        self.backend.add_clause(cl);
        self.report.counts.clauses += 1;
    }

    /// Gives the solver a clause learned after the encoding.
    pub(super) fn add(&mut self, cl: &Clause) -> Result<(), String> {
        self.check_interface(cl.iter())?;
        self.add_encoding(cl);
        Ok(())
    }

    /// Tells the caller where a clause added after the encoding came from,
    /// with [`Options::record`].
    fn record(&mut self, clause: &Clause, origin: Origin<P::Candidate>) {
        if self.opts.record {
            (self.events)(Event::Added { clause, origin });
        }
    }

    /// Tells the caller, with [`Options::record`], which call proves the
    /// claim about `max_cost`: the last one, without `strong` when its
    /// failed core left that out.
    fn record_proving_call(&mut self, max_cost: Option<usize>, without_strong: bool) {
        if !self.opts.record {
            return;
        }
        let strong = self.enc.strong.filter(|_| without_strong);
        let assumptions: Vec<Lit> = self
            .last_call
            .iter()
            .copied()
            .filter(|&l| Some(l) != strong)
            .collect();
        (self.events)(Event::ProvingCall {
            assumptions: &assumptions,
            n_vars: self.vars.n_used(),
            max_cost,
        });
    }

    /// Clauses and assumptions after the encoding may only name variables
    /// that elimination keeps (the puzzle's interface); one that names another
    /// could make every later answer meaningless.
    fn check_interface<'l>(&self, mut lits: impl Iterator<Item = &'l Lit>) -> Result<(), String> {
        match lits.find(|l| self.interface.get(l.var().idx()) == Some(&false)) {
            Some(l) => Err(format!(
                "internal error: variable {} is outside the interface (elimination may \
                 remove it) but is named after the encoding (solve with --no-elimination)",
                l.var().idx() + 1
            )),
            None => Ok(()),
        }
    }

    /// The variables of the first copy's formula: all but the second view's
    /// own.
    fn first_variables(&self) -> u32 {
        let own = self.second.as_ref().map_or(0, |s| s.own_variables);
        self.vars.n_used() - own
    }

    /// The second view's size now: its simplified start, then every clause
    /// added after the encoding (both copies get those). `None` while it is
    /// being simplified, unless `wait`.
    fn second_view(&mut self, wait: bool) -> Option<SecondView> {
        let second = self.second.as_mut()?;
        let elim = second.elim.clone();
        let done = match wait {
            true => elim.wait(),
            false => elim.ready()?,
        };
        let view = SecondView {
            own_variables: second.own_variables,
            eliminated: done.ext.eliminated,
            clauses: done.clauses.len()
                + self.report.counts.clauses.saturating_sub(second.replaced),
        };
        if !std::mem::replace(&mut second.traced, true) {
            let line = second.elimination_line(done);
            self.trace(line);
        }
        Some(view)
    }

    /// Brings the formula's counts in the report up to date; the second
    /// view's once it is simplified, or at once when `wait`.
    fn update_counts(&mut self, wait: bool) {
        self.report.counts.variables = self.first_variables();
        self.report.counts.second_view = self.second_view(wait);
    }

    /// Reports the counts before every SAT call, and each new best candidate.
    fn tick_progress(&mut self, improved: Option<P::Candidate>) {
        self.update_counts(false);
        let elapsed = self.start.elapsed();
        let progress = Progress {
            elapsed,
            counts: self.report.counts.clone(),
            best: self.report.cost,
            best_at: self.report.best_at,
            bound: self.bound,
            proving: self.proving,
            improving: self.neighbourhood.current().is_some(),
            restarting: self.restart.calling,
            descending: self.restart.basin.is_some(),
            improved,
            times: Times {
                total: elapsed,
                ..self.report.times.clone()
            },
        };
        (self.events)(Event::Progress(&progress));
    }

    /// Asks the lower bound whether a candidate costing at most `q.top`
    /// could solve. With one thread the loop waits for the whole budget.
    /// With a second thread, it waits for a slice of the budget
    /// ([`Lower::SLICE`]), and when that runs out the search goes on beside
    /// the SAT calls with the larger budget of a search there
    /// (`Options::lower_bound_beside_budget`; see [`super::lower`]); its
    /// answer is read between calls ([`Loop::read_lower`]). A question
    /// after a verified candidate skips the wait and goes beside the calls
    /// at once when the puzzle is not small ([`Loop::asks_beside_at_once`]).
    /// A search still running beside the calls is stopped first (the new
    /// question makes it moot) and its answer read.
    fn ask_lower(&mut self, q: Question) {
        let beside = self.opts.threads > 1;
        self.deeper_pending = None;
        self.stop_lower();
        if self.done {
            return;
        }
        let beside_calls = Question {
            budget: self.opts.lower_bound_beside_budget.max(q.budget),
            ..q
        };
        if q.after_candidate && self.asks_beside_at_once() {
            self.send_beside(beside_calls, "searched beside the SAT calls");
            return;
        }
        let first = Question {
            budget: match beside {
                true => q.budget / Lower::SLICE,
                false => q.budget,
            },
            ..q
        };
        match self.ask_waiting(first) {
            None => {}
            Some(r) if beside && r.bound == Bound::OutOfBudget => {
                self.trace_lower(&r);
                self.send_beside(beside_calls, "searched beside the SAT calls");
            }
            Some(r) => {
                let allowed = r.bound == Bound::Allowed;
                self.on_lower(r);
                if allowed && q.after_candidate {
                    self.ask_deeper(q);
                }
            }
        }
    }

    /// Whether the questions after a candidate go beside the SAT calls at
    /// once: with a second thread, on a puzzle with more decisions than
    /// [`Options::lower_bound_wait_decisions`]. Waiting for a slice first
    /// keeps a small puzzle's answers the same on every run; on larger
    /// ones the wait costs more than it is worth (docs/performance.md,
    /// "After a candidate, beside the calls at once").
    fn asks_beside_at_once(&self) -> bool {
        self.opts.threads > 1 && self.enc.decisions > self.opts.lower_bound_wait_decisions
    }

    /// Asks the lower bound's deeper search about `q.top` (the plain search
    /// allowed it), with [`Options::lower_bound_deeper_budget`] or what is
    /// left of four times that for the solve (the work each search did is
    /// charged): a refutation is a proof. With one thread the loop waits
    /// for the whole search. With more, the search goes beside the
    /// neighbourhood search's calls, which leave the second core idle: at
    /// once when the puzzle is not small ([`Loop::asks_beside_at_once`]),
    /// else after a [`Lower::SLICE`] of it the loop waits for has run out.
    /// The loosest questions, the first ones, cost the most (a search
    /// prunes less with a loose bound), so one that runs out does not end
    /// the deeper questions. Unless it answers, the question waits to go on
    /// beside the next call over the whole instance, with a larger budget
    /// ([`Loop::deeper_beside`]). With the budget 0, the deeper search is
    /// never asked.
    fn ask_deeper(&mut self, q: Question) {
        let has_deeper = self.lower.as_ref().is_some_and(Lower::has_deeper);
        if self.done || !has_deeper || self.opts.lower_bound_deeper_budget == 0 {
            return;
        }
        let deeper = Question {
            from: q.top,
            deeper: true,
            ..q
        };
        self.deeper_pending = Some(Question {
            budget: self.opts.lower_bound_beside_budget,
            ..deeper
        });
        if self.deeper_left == 0 {
            return;
        }
        let budget = self.opts.lower_bound_deeper_budget.min(self.deeper_left);
        let deeper = Question { budget, ..deeper };
        if self.asks_beside_at_once() {
            self.send_beside(deeper, "the deeper search beside the windows");
            return;
        }
        let beside = self.opts.threads > 1;
        let first = match beside {
            true => budget / Lower::SLICE,
            false => budget,
        };
        match self.ask_waiting(Question {
            budget: first,
            ..deeper
        }) {
            None => {}
            Some(r) if beside && r.bound == Bound::OutOfBudget => {
                self.charge_deeper(&r);
                self.trace_lower(&r);
                self.send_beside(deeper, "the deeper search beside the windows");
            }
            Some(r) => self.on_lower(r),
        }
    }

    /// Before a call over the whole instance: the deeper search that could
    /// not answer while the loop waited goes on beside the calls, with the
    /// budget of a search beside them. One still running beside the windows
    /// with a smaller budget is stopped for it.
    fn deeper_beside(&mut self) {
        if self.opts.threads < 2 || self.deeper_pending.is_none() {
            return;
        }
        self.stop_lower();
        let Some(q) = self.deeper_pending.take() else {
            return;
        };
        if self.done || self.lower.is_none() {
            return;
        }
        self.send_beside(q, "the deeper search beside the SAT calls");
    }

    /// Stops the search running beside the calls, if one is, and reads its
    /// answer.
    fn stop_lower(&mut self) {
        if let Some(lower) = self.lower.as_ref().filter(|l| l.busy()) {
            lower.stop();
            self.wait_lower();
        }
    }

    /// Asks `q` while the loop waits, and counts the wait; `None` when
    /// there is no lower bound (any more: one whose thread is gone is
    /// retired).
    fn ask_waiting(&mut self, q: Question) -> Option<Reply> {
        let lower = self.lower.as_mut()?;
        let t = Instant::now();
        let reply = lower.ask(q);
        self.report.times.lower_bound += t.elapsed();
        if reply.is_none() {
            self.retire_lower();
        }
        reply
    }

    /// Sends `q` to be searched beside the calls, traced as `what`.
    fn send_beside(&mut self, q: Question, what: &str) {
        self.trace(format!(
            "trace: {} at most {}: {what} (budget {})",
            self.lower.as_ref().map_or("lower bound", Lower::name),
            q.top,
            q.budget
        ));
        if let Some(lower) = self.lower.as_mut() {
            lower.send(q);
        }
    }

    /// Reads the answers of the questions searched beside the calls; a
    /// question asked after a candidate that the plain search allowed goes
    /// on to the deeper search, as when the loop waits for it
    /// ([`Loop::ask_lower`]).
    fn read_lower(&mut self) {
        while let Some(r) = self.lower.as_mut().and_then(Lower::poll) {
            let go_deeper = r.bound == Bound::Allowed
                && r.question.after_candidate
                && !r.question.deeper
                && !r.stopped;
            let q = r.question;
            self.on_lower(r);
            if self.done {
                return;
            }
            if go_deeper {
                self.ask_deeper(q);
            }
        }
    }

    /// Waits for the answers of the searches beside the calls (after a call
    /// interrupted by a refutation, or a search stopped), and reads them.
    fn wait_lower(&mut self) {
        let t = Instant::now();
        while !self.done {
            match self.lower.as_mut().and_then(Lower::wait) {
                Some(r) => self.on_lower(r),
                None => break,
            }
        }
        self.report.times.lower_bound += t.elapsed();
    }

    /// Acts on a lower bound's answer: a refutation is a proof; a search
    /// after a candidate that ran out of budget ends the questions (the
    /// next bounds down seldom fare better, and each would cost as much
    /// again).
    fn on_lower(&mut self, r: Reply) {
        self.trace_lower(&r);
        let name = self.lower.as_ref().map_or("lower bound", Lower::name);
        self.charge_deeper(&r);
        if r.question.deeper && r.bound == Bound::Allowed {
            // Allowed: no larger budget would refute it.
            self.deeper_pending = None;
        }
        match r.bound {
            Bound::Refuted if !self.done => {
                self.proved(r.question.claim, ProofMethod::LowerBound(name));
            }
            Bound::OutOfBudget
                if r.question.after_candidate && !r.question.deeper && !r.stopped =>
            {
                self.retire_lower()
            }
            _ => {}
        }
    }

    /// Charges a deeper search's answer to the solve's allowance for the
    /// deeper search: the work done, not the budget given (only searches
    /// within that allowance; the larger ones beside the whole instance's
    /// calls are not charged).
    fn charge_deeper(&mut self, r: &Reply) {
        if r.question.deeper && r.question.budget <= self.opts.lower_bound_deeper_budget {
            self.deeper_left -= r.work.min(self.deeper_left);
        }
    }

    /// Asks the lower bound nothing more, and lets no search of it still
    /// running interrupt a call (an enumeration goes on calling the solver
    /// after the proof): the backend stops listening.
    fn retire_lower(&mut self) {
        if self.lower.take().is_some() {
            self.backend.interrupt_on(None);
        }
    }

    /// Traces a lower bound's answer.
    fn trace_lower(&mut self, r: &Reply) {
        let name = self.lower.as_ref().map_or("lower bound", Lower::name);
        let place = match (r.beside, r.stopped, r.question.deeper) {
            (true, true, true) => ", the deeper search beside the SAT calls, stopped",
            (true, false, true) => ", the deeper search beside the SAT calls",
            (true, true, false) => ", beside the SAT calls, stopped",
            (true, false, false) => ", beside the SAT calls",
            (false, _, true) => ", the deeper search",
            (false, _, false) => "",
        };
        self.trace(format!(
            "trace: {name} at most {}: {:?} in {:.3}s (work {}{place})",
            r.question.top,
            r.bound,
            r.time.as_secs_f64(),
            r.work
        ));
    }

    /// Ends the loop with a proof: nothing that costs at most `max_cost`
    /// solves.
    fn proved(&mut self, max_cost: Option<usize>, by: ProofMethod) {
        self.report.status = match self.report.candidate {
            Some(_) => Status::Optimal,
            None => Status::Unsolvable,
        };
        self.report.claim = Claim::Proved(Proof { max_cost, by });
        self.done = true;
        self.retire_lower();
    }

    /// Before any SAT call: may the lower bound rule out every candidate
    /// (within the bound)? When this search runs out of budget, the
    /// searches after each verified candidate are still asked (they have
    /// a tight bound, and prune more).
    pub(super) fn ask_lower_bound_first(&mut self) {
        if !self.opts.lower_bound {
            return;
        }
        self.lower = match self.puzzle.lower_bound() {
            Ok(lb) => Some(Lower::new(lb)),
            Err(why) => {
                self.trace(format!("trace: no lower bound: {why}"));
                None
            }
        };
        if let Some(lower) = &self.lower {
            self.backend.interrupt_on(Some(lower.refuted_flag()));
        }
        let top = self.bound.unwrap_or(self.enc.max_cost);
        self.ask_lower(Question {
            from: 1,
            top,
            budget: self.opts.lower_bound_budget,
            claim: self.bound,
            after_candidate: false,
            deeper: false,
        });
    }

    /// The assumptions of the next call.
    fn assumptions(&mut self, improving: bool) -> Result<Vec<Lit>, String> {
        if self.restart.calling {
            return self.restart_assumptions();
        }
        // A repair's calls take `strong` as the call over the whole
        // instance does.
        let as_whole = !improving || self.neighbourhood.repairing();
        let mut a: Vec<Lit> = match self.enc.strong {
            Some(s) if self.proving && as_whole => vec![!s],
            Some(s) => vec![s],
            None => Vec::new(),
        };
        a.extend(&self.enc.goals);
        if let Some(b) = self.bound {
            // A lazy counter learns the bound first (no clauses otherwise).
            let vars_before = self.vars.n_used();
            let (clauses, assume) = self.puzzle.cost_at_most(b, &mut self.vars);
            for cl in &clauses {
                self.add(cl)?;
                self.record(cl, Origin::CostBound { k: b, vars_before });
            }
            a.extend(assume);
        }
        a.extend(self.neighbourhood.assumptions());
        a.extend(self.focused().unwrap_or_default());
        self.check_interface(a.iter())?;
        Ok(a)
    }

    /// The focus the next call assumes: on a call over the whole instance
    /// before the first verified candidate (searching or proving), the
    /// current focus set, if any.
    fn focused(&self) -> Option<&[Lit]> {
        let whole = self.neighbourhood.current().is_none() && !self.restart.calling;
        match whole && self.report.candidate.is_none() {
            true => self.focus.current(),
            false => None,
        }
    }

    /// The focused call found nothing: the next focus set, or, after the
    /// last, the whole instance, whose first call the backend then treats
    /// as a first call (a race's members join it early).
    fn widen_focus(&mut self) {
        self.focus.widen();
        if self.focus.current().is_none() {
            self.backend.next_call_is_first();
        }
    }

    /// A restart's call: searching, every goal, no bound, and part of the
    /// best candidate's paid decisions changed (see [`Restart`]).
    fn restart_assumptions(&mut self) -> Result<Vec<Lit>, String> {
        let mut a: Vec<Lit> = self.enc.strong.into_iter().collect();
        a.extend(&self.enc.goals);
        if let Some(best) = &self.report.candidate {
            let decisions = self.puzzle.decisions_of(best);
            a.extend(self.restart.changes(&decisions));
        }
        self.check_interface(a.iter())?;
        Ok(a)
    }

    /// What the next call does: `searching`, `proving` or `improving window N`.
    fn mode(&self) -> String {
        match self.neighbourhood.current() {
            Some(w) if self.neighbourhood.repairing() => {
                format!("improving window {w} (repairing a rejected candidate)")
            }
            Some(w) if self.neighbourhood.slice().is_some() => {
                format!("improving window {w} (following the best)")
            }
            Some(w) => format!("improving window {w}"),
            None if self.focused().is_some() => {
                let mode = if self.proving { "proving" } else { "searching" };
                format!("{mode} focus {}", self.focus.step())
            }
            None if self.restart.calling => "restarting".into(),
            None if self.proving => "proving".into(),
            None => "searching".into(),
        }
    }

    /// Writes the call's formula, with `--dump-calls`.
    fn dump_call(&self, assumptions: &[Lit]) -> Result<(), String> {
        let Some(d) = &self.dump else { return Ok(()) };
        let nouns = self.puzzle.nouns();
        let what = format!(
            "{}, {}",
            self.mode(),
            self.bound
                .map_or("any size".into(), |b| format!("at most {}", nouns.cost(b)))
        );
        d.write(
            self.report.counts.iterations,
            &what,
            assumptions,
            self.vars.n_used(),
        )
        .map(|_| ())
    }

    /// One SAT call: its answer, timed and traced.
    pub(super) fn ask(&mut self) -> Result<Answer, String> {
        self.tick_progress(None);
        let improving = self.neighbourhood.current().is_some();
        let assumptions = self.assumptions(improving)?;
        self.report.counts.iterations += 1;
        self.dump_call(&assumptions)?;
        if self.opts.record {
            self.last_call.clone_from(&assumptions);
        }
        let t = Instant::now();
        let n_vars = self.vars.n_used();
        let slice_end = match (self.focused(), self.neighbourhood.slice()) {
            (Some(_), _) => Some(self.focus.call_end(t)),
            (None, Some(slice)) => Some(t + slice),
            (None, None) => self.restart.call_end(self.proving_with_best()),
        };
        let deadline = match slice_end {
            Some(end) => Some(self.deadline.map_or(end, |d| d.min(end))),
            None => self.deadline,
        };
        let answer = self.backend.solve(&assumptions, n_vars, deadline)?;
        self.last_call_time = t.elapsed();
        self.report
            .times
            .add_call(t.elapsed(), improving, self.proving);
        let said = match &answer {
            Answer::Sat(_) => "sat",
            Answer::Unsat => "unsat",
            Answer::Unknown => "unknown",
        };
        let line = format!(
            "trace: iteration {} {} bound {:?}: {said} in {:.3}s",
            self.report.counts.iterations,
            self.mode(),
            self.bound.filter(|_| !self.restart.calling),
            t.elapsed().as_secs_f64()
        );
        self.trace(line);
        Ok(answer)
    }

    /// Calls the solver until a proof, the first candidate asked for, or
    /// the deadline.
    pub(super) fn run(&mut self) -> Result<(), String> {
        while !self.done && self.deadline.is_none_or(|d| Instant::now() < d) {
            self.read_lower();
            if self.done {
                break;
            }
            self.leave_finished_basin();
            self.end_repair_in_time();
            let improving = self.neighbourhood.current().is_some();
            if !improving {
                self.deeper_beside();
            }
            if self.restart.calling {
                if !self.restarted()? {
                    break;
                }
                continue;
            }
            if self.restart.at_once(self.proving_with_best()) {
                self.trace("trace: the call is put off at once: restarting".into());
                self.restart.put_off();
                continue;
            }
            let focused = self.focused().is_some();
            match self.ask()? {
                // Interrupted by a refutation of the lower bound: read it.
                Answer::Unknown if self.lower.as_ref().is_some_and(Lower::refuted) => {
                    self.wait_lower()
                }
                // Not within the focus, or not in its slice: no proof of
                // anything; look wider.
                Answer::Unsat if focused => self.widen_focus(),
                Answer::Unknown if focused && self.time_left() => self.widen_focus(),
                Answer::Unknown if !improving && self.may_restart() => {
                    self.trace("trace: the call ran out of its slice: restarting".into());
                    self.restart.put_off();
                }
                Answer::Unknown if improving && self.time_left() => self.neighbourhood.ran_out(),
                Answer::Unknown => break,
                // Not by changing this window alone: no proof of anything.
                Answer::Unsat if improving => self.neighbourhood.unsat_window(),
                Answer::Unsat => self.on_unsat(),
                Answer::Sat(model) => self.on_model(&model)?,
            }
        }
        Ok(())
    }

    /// Whether the next call is one over the whole instance, proving, with
    /// a best candidate: the call restarts may put off.
    fn proving_with_best(&self) -> bool {
        self.neighbourhood.current().is_none() && self.proving && self.report.cost.is_some()
    }

    /// Whether a call that came back without an answer may be put off for a
    /// restart: it ran out of its slice, not of the solve's time, nor was the
    /// solve stopped.
    fn may_restart(&self) -> bool {
        self.restart.may_put_off() && self.time_left()
    }

    /// Before any candidate is verified, a rejected one is repaired: the
    /// neighbourhood search frees one window of it at a time, looking for a
    /// candidate the check accepts nearby, for half as long as the call that
    /// found it took (when that took at least [`Options::repair_from`]). Its answers
    /// prove nothing.
    fn repair(&mut self, candidate: &P::Candidate) {
        if self.report.candidate.is_some()
            || self.neighbourhood.current().is_some()
            || self.restart.calling
            || self.done
        {
            return;
        }
        if self.last_call_time < self.opts.repair_from {
            return;
        }
        self.windows_for_the_repair();
        if !self.neighbourhood.enabled() {
            return;
        }
        let decisions = self.puzzle.decisions_of(candidate);
        let budget = self.neighbourhood.repair(decisions, self.last_call_time);
        self.trace(format!(
            "trace: repairing the rejected candidate for {:.3}s",
            budget.as_secs_f64()
        ));
    }

    /// With `first`, the windows are built only once a repair is due: a
    /// solve that ends at its first verified candidate has no other use for
    /// them, and most never reject a slow call's candidate.
    fn windows_for_the_repair(&mut self) {
        if self.opts.first && self.opts.neighbourhoods && !self.neighbourhood.enabled() {
            self.neighbourhood = Neighbourhood::new(self.puzzle.windows());
        }
    }

    /// Ends the repair of a rejected candidate once its time is up.
    fn end_repair_in_time(&mut self) {
        if self.neighbourhood.repair_due() {
            self.trace("trace: repair: out of time".into());
            self.neighbourhood.stop();
        }
    }

    /// A restart's call and its answer; false when the solve must stop. Its
    /// UNSAT proves nothing (the changes it assumed are no requirement):
    /// it is drawn again, a few times. A model is read as any other, with
    /// no bound on its cost.
    fn restarted(&mut self) -> Result<bool, String> {
        let answer = self.ask()?;
        self.restart.calling = false;
        match answer {
            Answer::Unknown if self.lower.as_ref().is_some_and(Lower::refuted) => self.wait_lower(),
            Answer::Unknown => return Ok(self.time_left()),
            Answer::Unsat => {
                self.restart.retry();
            }
            Answer::Sat(model) => {
                self.bound = None;
                let read = self.on_model(&model);
                if self.restart.basin.is_none() && !self.done {
                    self.bound = self.report.cost.map(|c| c - 1);
                }
                read?
            }
        }
        Ok(true)
    }

    /// Whether the solve may go on: it was not stopped, and its deadline has
    /// not passed.
    fn time_left(&self) -> bool {
        !crate::sat::must_stop(self.deadline)
    }

    /// Once the neighbourhood search around a restart's candidate is over
    /// without reaching below the best, the calls go back to the best's
    /// bound.
    fn leave_finished_basin(&mut self) {
        if self.restart.basin.is_some() && self.neighbourhood.current().is_none() {
            self.restart.basin = None;
            self.bound = self.report.cost.map(|c| c - 1);
        }
    }

    /// An UNSAT answer over the whole instance: a proof while proving, or
    /// when the failed core leaves out the strengthening.
    fn on_unsat(&mut self) {
        let proving = self.proving;
        let core_proves = !proving
            && self
                .enc
                .strong
                .is_some_and(|s| self.backend.core().is_some_and(|core| !core.contains(&s)));
        if !proving {
            self.trace(format!(
                "trace: searching unsat; core without strong: {core_proves}"
            ));
        }
        if !proving && !core_proves {
            self.proving = true;
            return;
        }
        let max_cost = self.report.cost.map_or(self.bound, |c| Some(c - 1));
        self.record_proving_call(max_cost, core_proves);
        self.proved(max_cost, ProofMethod::Sat);
    }

    /// Before the first SAT call: the puzzle's sketch, if it has one,
    /// judged by the check like a model's candidate.
    pub(super) fn sketch_first(&mut self) -> Result<(), String> {
        if self.done || !self.opts.sketch {
            return Ok(());
        }
        let t = Instant::now();
        let sketch = self.puzzle.sketch();
        let Some(candidate) = sketch else {
            self.report.times.sketch += t.elapsed();
            return Ok(());
        };
        let check = self.puzzle.check(&candidate, self.opts.trace);
        self.report.times.sketch += t.elapsed();
        match check {
            Check::Accepted { cost } => match self.bound.filter(|&b| cost > b) {
                // Over the bound (`--max-belts`, or the second loop of a
                // certificate): not a candidate of this solve.
                Some(bound) => {
                    self.trace(format!(
                        "trace: sketch: dropped, its cost {cost} is over the bound {bound}"
                    ));
                    Ok(())
                }
                None => {
                    self.trace(format!(
                        "trace: sketch: a verified candidate of cost {cost} in {:.3}s",
                        t.elapsed().as_secs_f64()
                    ));
                    self.on_accepted(candidate, cost);
                    Ok(())
                }
            },
            Check::Rejected { clauses, reason } => self.on_rejected(&candidate, &clauses, reason),
        }
    }

    /// A model with every goal: the puzzle reads it (and may learn lemmas),
    /// and the check judges the candidate.
    fn on_model(&mut self, model: &[bool]) -> Result<(), String> {
        let decoded = self.puzzle.decode(model, &mut self.vars);
        self.report.counts.lemmas += decoded.lemmas.len();
        for (i, cl) in decoded.lemmas.iter().enumerate() {
            self.add(cl)?;
            let note = decoded.notes.get(i).map_or("", String::as_str);
            self.record(cl, Origin::Lemma { note });
        }
        let Some(candidate) = decoded.candidate else {
            return Ok(());
        };
        let t = Instant::now();
        let check = self.puzzle.check(&candidate, self.opts.trace);
        self.report.times.simulate += t.elapsed();
        match check {
            Check::Accepted { cost } => {
                self.on_accepted(candidate, cost);
                Ok(())
            }
            Check::Rejected { clauses, reason } => self.on_rejected(&candidate, &clauses, reason),
        }
    }

    /// A verified candidate: the best so far. Then look for a cheaper one,
    /// unless the lower bound proves there is none.
    fn on_accepted(&mut self, candidate: P::Candidate, cost: usize) {
        self.focus.end();
        if self.report.cost.is_some_and(|best| cost >= best) {
            self.descend_from_restart(&candidate, cost);
            return;
        }
        self.restart.basin = None;
        self.report.cost = Some(cost);
        self.report.best_at = Some(self.start.elapsed());
        self.tick_progress(Some(candidate.clone()));
        if !self.opts.first {
            self.search_around(&candidate, cost);
        }
        self.report.candidate = Some(candidate);
        self.report.status = Status::Solved;
        self.report.claim = Claim::Verified(None);
        if self.opts.first {
            self.done = true;
            return;
        }
        if cost == 0 {
            self.report.status = Status::Optimal;
            self.report.claim = Claim::FreeOfCost;
            self.done = true;
            return;
        }
        self.ask_lower(Question {
            from: cost - 1,
            top: cost - 1,
            budget: self.opts.lower_bound_budget,
            claim: Some(cost - 1),
            after_candidate: true,
            deeper: false,
        });
        if self.done {
            return;
        }
        self.bound = Some(cost - 1);
        // From here on every call is a step towards the proof: a searching
        // UNSAT would only be repeated by proving, at about the same price.
        self.proving = true;
    }

    /// A restart's candidate that costs no less than the best: the
    /// neighbourhood search descends from it under a bound of its own; the
    /// report keeps the best.
    fn descend_from_restart(&mut self, candidate: &P::Candidate, cost: usize) {
        self.trace(format!(
            "trace: restart: a verified candidate of cost {cost}; descending from it"
        ));
        if self.search_around(candidate, cost) {
            self.restart.basin = Some(cost);
            self.bound = Some(cost - 1);
        }
    }

    /// Starts the neighbourhood search around a verified candidate of cost
    /// `cost`, unless it is free or there are no windows; whether it started.
    fn search_around(&mut self, candidate: &P::Candidate, cost: usize) -> bool {
        if cost == 0 || !self.neighbourhood.enabled() {
            return false;
        }
        let decisions = self.puzzle.decisions_of(candidate);
        let around = self.puzzle.windows_around(candidate);
        self.neighbourhood.restart(decisions, around);
        true
    }

    /// A rejected candidate: its clauses block it and every candidate that
    /// fails for the same reason.
    pub(super) fn on_rejected(
        &mut self,
        candidate: &P::Candidate,
        clauses: &[Clause],
        reason: Option<String>,
    ) -> Result<(), String> {
        if let (true, Some(reason)) = (self.opts.trace, &reason) {
            (self.events)(Event::Rejected {
                candidate,
                reason,
                clause_sizes: clauses.iter().map(|c| c.len()).collect(),
            });
        }
        self.report.counts.counterexamples += 1;
        let Some((first, more)) = clauses.split_first() else {
            return Err("internal error: a rejected candidate came with no clause".into());
        };
        self.add(first)?;
        self.record(
            first,
            Origin::Counterexample {
                candidate,
                index: 0,
            },
        );
        self.neighbourhood.rejected();
        for (i, cl) in more.iter().enumerate() {
            self.add(cl)?;
            self.record(
                cl,
                Origin::Counterexample {
                    candidate,
                    index: i + 1,
                },
            );
        }
        self.repair(candidate);
        Ok(())
    }

    /// The report, with the claim of a loop that stopped before it was done.
    pub(super) fn finish(mut self) -> Report<P::Candidate> {
        self.update_counts(true);
        self.report.times.total = self.start.elapsed();
        if self.report.status == Status::Unknown && self.report.candidate.is_some() {
            self.report.status = Status::Solved;
        }
        if self.report.status == Status::Unknown {
            self.report.claim = Claim::Nothing(Stop::TimedOut);
        } else if self.report.status == Status::Solved && !self.opts.first {
            self.report.claim = Claim::Verified(Some(Stop::TimedOut));
        }
        self.report
    }
}

//! The explanation's trace (`solve --debug-trace`): where its lines go,
//! and the lines themselves, one per question asked of the oracle, per SAT
//! call, per rejected layout (with the layout, when asked for), and per
//! answer, in the words the explanation prints.

use super::oracle::Verdict;
use crate::judge::{describe_end, explain as failure_words, reason_for};
use crate::level::Level;
use crate::requirement::{count_of, Achieved, Requirement};
use crate::sim::Outcome;
use cegar::sat::Answer;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Where an explanation's trace lines go (`solve --debug-trace`): one per
/// question asked of the oracle, per SAT call, per rejected layout and per
/// walk, as the solve's loop traces its own; with `layouts`
/// (`--debug-trace-layouts`) each rejected layout is printed too.
#[derive(Clone)]
pub struct Trace {
    pub sink: Arc<dyn Fn(&str) + Send + Sync>,
    pub layouts: bool,
}

impl Trace {
    /// Sends one line.
    pub fn line(&self, text: &str) {
        (self.sink)(text);
    }
}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trace")
            .field("layouts", &self.layouts)
            .finish()
    }
}

/// A question: its number, its requirements and its limit on SAT calls.
pub fn question_line(
    level: &Level,
    number: usize,
    reqs: &[Requirement],
    calls: Option<usize>,
) -> String {
    let limit = match calls {
        Some(n) => format!("within {}", count_of(n, "SAT call", "SAT calls")),
        None => "no limit on its SAT calls".into(),
    };
    let words: Vec<String> = reqs.iter().map(|r| r.words(level)).collect();
    format!(
        "trace: explain question {number} asks {} ({limit}): {}",
        count_of(reqs.len(), "requirement", "requirements"),
        words.join("; ")
    )
}

/// A question's answer.
pub fn verdict_line(number: usize, v: &Verdict) -> String {
    let said = match v {
        Verdict::Met(w) => format!(
            "met by a layout of {}",
            count_of(w.achieved.belts(), "belt", "belts")
        ),
        Verdict::Impossible(c) => format!(
            "impossible (the proof needs {})",
            count_of(c.len(), "requirement", "requirements")
        ),
        Verdict::Unknown => "unknown (out of its SAT calls or of time)".into(),
    };
    format!("trace: explain question {number}: {said}")
}

/// A SAT call: its number, whether it searched (with the strengthenings)
/// or proved, its answer and its time.
pub fn call_line(number: usize, proving: bool, answer: &Answer, took: Duration) -> String {
    let said = match answer {
        Answer::Sat(_) => "sat",
        Answer::Unsat => "unsat",
        Answer::Unknown => "unknown",
    };
    let how = if proving { "proving" } else { "searching" };
    format!(
        "trace: explain call {number} {how}: {said} in {:.3}s",
        took.as_secs_f64()
    )
}

/// A layout rejected for `reqs`: the free cells its run visited (what its
/// counterexample names), why the run fails or how it ended and which of
/// `reqs` it misses, and the layout itself when `shown`.
pub fn rejected_lines(
    level: &Level,
    layout: &Level,
    outcome: &Outcome,
    reqs: &[Requirement],
    shown: bool,
) -> String {
    let cells = level
        .free_cells()
        .filter(|c| outcome.visited[c.index()])
        .count();
    let achieved = Achieved::of(level, layout, outcome);
    let why = match reason_for(layout, outcome) {
        Some(r) if !achieved.ran => failure_words(layout, &r, outcome),
        _ => {
            let missed: Vec<String> = reqs
                .iter()
                .filter(|&&r| !achieved.meets(r))
                .map(|r| r.words(level))
                .collect();
            format!(
                "{}; misses: {}",
                describe_end(level, &outcome.end),
                missed.join("; ")
            )
        }
    };
    let mut text = format!("trace: explain rejected ({cells} cells): {why}");
    if shown {
        text.push('\n');
        text.push_str(&layout.to_string());
    }
    text
}

/// A walk: its runs, and whether it found a layout meeting the question.
pub fn walk_line(runs: usize, found: bool) -> String {
    let found = if found {
        "found a layout"
    } else {
        "found none"
    };
    format!(
        "trace: explain walk: {}, {found}",
        count_of(runs, "run", "runs")
    )
}

/// The neighbours of a rejected layout that were run, and whether one
/// meets the question.
pub fn neighbours_line(run: usize, found: bool) -> String {
    let found = if found {
        ", one meets the question"
    } else {
        ""
    };
    format!("trace: explain neighbours: {run} run{found}")
}

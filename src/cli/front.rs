//! What `solve` needs to know of a puzzle, so that its worker thread,
//! progress lines, timeout and Ctrl-C ([`super::solve`]) and its report
//! ([`super::report`]) are written once for both: how to run the loop on a
//! level, what a candidate costs, and how to print one.

use super::flags::Settings;
use super::puzzle::{both_forms, path_json, CeLevel};
use super::CliError;
use crate::level::Level;
use cegar::record::Recording;
use cegar::{Event, Nouns};
use cosmic_express::Track;
use freshly_frosted::explain::{Learned, Trace, Watch};
use freshly_frosted::puzzle::solve_learning;
use serde_json::Value;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the loop reports as it runs, for a candidate type `C`.
pub type Events<'a, C> = &'a mut dyn FnMut(Event<C>);

/// The loop's answer for a candidate type `C`.
pub type Answer<C> = Result<cegar::Report<C>, String>;

/// A puzzle's level, as `solve` runs it.
pub trait Front: Clone + Send + 'static {
    /// What the loop finds: a layout, a track.
    type Candidate: Clone + Send + 'static;
    /// The words of claims and progress lines.
    const NOUNS: Nouns;
    /// The cost's name in the summary and the JSON (`belts`, `cells`), and
    /// the candidate's key in the JSON (`layout`, `path`).
    const KEYS: (&'static str, &'static str);
    /// The cost's name: `belts`, `cells`.
    const COST: &'static str = Self::KEYS.0;
    /// The candidate's key: `layout`, `path`.
    const CANDIDATE: &'static str = Self::KEYS.1;

    /// Runs the loop on the level.
    fn solve(
        &self,
        settings: &Settings,
        events: Events<Self::Candidate>,
    ) -> Answer<Self::Candidate>;
    /// What a verified candidate costs.
    fn cost(&self, c: &Self::Candidate) -> usize;
    /// A candidate on stdout (and in the trace of rejected ones).
    fn text(&self, c: &Self::Candidate) -> String;
    /// A candidate in `--json`.
    fn json(&self, c: &Self::Candidate) -> Value;
    /// Writes the certificate of a solve into `dir` (`solve --certificate`);
    /// the line saying what it holds.
    fn certificate(
        &self,
        _settings: &Settings,
        _report: &cegar::Report<Self::Candidate>,
        _recording: Recording<Self::Candidate>,
        _dir: &Path,
    ) -> Result<String, CliError> {
        Err(CliError::bad_input(
            "--certificate: only Freshly Frosted solves write certificates",
        ))
    }
    /// After a solve stopped with a verified candidate costing `cost` (or
    /// with none: `None`): a proof from the puzzle's lower bound that no
    /// candidate costs at most some count under it (under `--max-belts`
    /// plus one, or any count, without a candidate); `None`: none found,
    /// or the puzzle has none, or the settings turn it off.
    fn bound_below(&self, _settings: &Settings, _cost: Option<usize>) -> Option<cegar::Proof> {
        None
    }
    /// A candidate's picture (`--svg`).
    fn svg(&self, c: &Self::Candidate, title: &str) -> String;
    /// A candidate's run as the HTML replay page (`--html`).
    fn html(&self, c: &Self::Candidate, title: &str) -> String;
    /// After an `unsolvable` verdict: why, as `--json` fields and as text
    /// (Freshly Frosted only; `None` for other puzzles). `timeout`: how
    /// long the search for a core may take; `None`: no search, the level
    /// check's plain arguments only. `search`: `--explain-neighbours` and
    /// `--explain-walk`.
    fn explain(
        &self,
        _settings: &Settings,
        _timeout: Option<Duration>,
        _search: &ExplainSearch,
    ) -> Option<Explained> {
        None
    }
}

/// How the search for a core looks for layouts beyond the SAT calls
/// (`--explain-neighbours`, `--explain-walk`).
#[derive(Clone, Copy, Debug)]
pub struct ExplainSearch {
    /// `ExplainOptions::neighbours_after`.
    pub neighbours_after: Option<u32>,
    /// `ExplainOptions::walk_runs`.
    pub walk_runs: Option<usize>,
}

/// The work per question of the chain bound's bisection after a stopped
/// solve ([`Front::bound_below`]): a few hundredths of a second at most, so
/// that its few questions (about the logarithm of the belt count) add at
/// most a few tenths to the stop.
const BOUND_BELOW_BUDGET: u64 = 8_000_000;

/// An explanation of an unsolvable level: fields for `--json`, and text.
pub type Explained = Result<(Vec<(&'static str, Value)>, String), String>;

/// A Freshly Frosted level, and what its solve learned for the
/// explanation of an `unsolvable` verdict (kept only when the slot is
/// there: [`Frosted::explained`]).
#[derive(Clone)]
pub struct Frosted(pub Level, pub Option<Arc<Mutex<Learned>>>);

impl Frosted {
    /// A level whose solve keeps nothing for an explanation.
    pub fn new(level: Level) -> Frosted {
        Frosted(level, None)
    }

    /// A level whose solve keeps what its runs taught, for the explanation
    /// after an `unsolvable` verdict.
    pub fn explained(level: Level) -> Frosted {
        let learned = Learned::new(&level, None);
        Frosted(level, Some(Arc::new(Mutex::new(learned))))
    }
}

impl Front for Frosted {
    type Candidate = Level;
    const NOUNS: Nouns = freshly_frosted::puzzle::NOUNS;
    const KEYS: (&'static str, &'static str) = ("belts", "layout");

    fn solve(&self, settings: &Settings, events: Events<Level>) -> Answer<Level> {
        let (opts, encode) = (&settings.opts, &settings.encode);
        let Some(slot) = &self.1 else {
            return freshly_frosted::puzzle::solve(&self.0, opts, encode, events);
        };
        let (report, learned) = solve_learning(&self.0, opts, encode, events)?;
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = learned;
        Ok(report)
    }

    fn cost(&self, layout: &Level) -> usize {
        layout.added_belts(&self.0)
    }

    fn text(&self, layout: &Level) -> String {
        layout.to_string()
    }

    fn json(&self, layout: &Level) -> Value {
        Value::String(layout.to_string())
    }

    fn certificate(
        &self,
        settings: &Settings,
        report: &cegar::Report<Level>,
        recording: Recording<Level>,
        dir: &Path,
    ) -> Result<String, CliError> {
        super::certificate::write::write(&self.0, settings, report, recording, dir)
    }

    fn bound_below(&self, settings: &Settings, cost: Option<usize>) -> Option<cegar::Proof> {
        let every = self.0.free_cells().count();
        let below = cost.unwrap_or(settings.opts.max_cost.unwrap_or(every) + 1);
        let mut proof = settings.opts.lower_bound.then(|| {
            freshly_frosted::puzzle::refuted_below(&self.0, below, BOUND_BELOW_BUDGET)
        })??;
        // No layout has more belts than there are `.` cells.
        if proof.max_cost >= Some(every) {
            proof.max_cost = None;
        }
        Some(proof)
    }

    fn svg(&self, layout: &Level, title: &str) -> String {
        freshly_frosted::picture::svg(&self.0, layout, title)
    }

    fn html(&self, layout: &Level, title: &str) -> String {
        freshly_frosted::picture::html(&self.0, layout, title)
    }

    fn explain(
        &self,
        settings: &Settings,
        timeout: Option<Duration>,
        search: &ExplainSearch,
    ) -> Option<Explained> {
        let opts = freshly_frosted::explain::ExplainOptions {
            encode: settings.encode.clone(),
            solver: settings.opts.solver.clone(),
            threads: settings.opts.threads,
            max_belts: settings.opts.max_cost,
            search: timeout.is_some(),
            round_calls: freshly_frosted::explain::ROUND_CALLS.to_vec(),
            neighbours_after: search.neighbours_after,
            walk_runs: search.walk_runs,
            timeout,
            watch: Some(Arc::new(Watch::default())),
            trace: settings.opts.trace.then(|| Trace {
                sink: Arc::new(|line: &str| note!("{line}")),
                layouts: settings.trace_layouts,
            }),
        };
        let learned = self.1.as_ref().map(|slot| {
            std::mem::replace(
                &mut *slot.lock().unwrap_or_else(|e| e.into_inner()),
                Learned::new(&self.0, None),
            )
        });
        let e = super::explain::with_progress_lines(&opts, || {
            super::explain::explanation(&self.0, &opts, learned.as_ref())
        });
        Some(e.map(|e| {
            (
                super::explain::explanation_json(&self.0, &e),
                super::explain::explanation_text(&self.0, &e),
            )
        }))
    }
}

/// A Cosmic Express level (with its name, for the solution's JSON line).
#[derive(Clone)]
pub struct Cosmic(pub CeLevel);

/// The cost of a track is its length, entrance and exit included; the
/// `--debug-*` encoding flags and the chain bound are Freshly Frosted's.
impl Front for Cosmic {
    type Candidate = Track;
    const KEYS: (&'static str, &'static str) = ("cells", "path");
    const NOUNS: Nouns = cosmic_express::puzzle::NOUNS;

    fn cost(&self, track: &Track) -> usize {
        track.0.len()
    }

    fn solve(&self, settings: &Settings, events: Events<Track>) -> Answer<Track> {
        cosmic_express::puzzle::solve(&self.0.level, &settings.opts, events)
    }

    fn text(&self, track: &Track) -> String {
        both_forms(&self.0, track)
    }

    fn json(&self, track: &Track) -> Value {
        serde_json::json!(path_json(track))
    }

    fn svg(&self, track: &Track, title: &str) -> String {
        cosmic_express::picture::svg(&self.0.level, Some(track), title)
    }

    fn html(&self, track: &Track, title: &str) -> String {
        cosmic_express::picture::html(&self.0.level, track, title)
    }
}

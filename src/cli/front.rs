//! What `solve` needs to know of a puzzle, so that its worker thread,
//! progress lines, timeout and Ctrl-C ([`super::solve`]) and its report
//! ([`super::report`]) are written once for both: how to run the loop on a
//! level, what a candidate costs, and how to print one.

use super::flags::Settings;
use super::puzzle::{both_forms, path_json, CeLevel};
use crate::level::Level;
use cegar::{Event, Nouns};
use cosmic_express::Track;
use serde_json::Value;

/// A puzzle's level, as `solve` runs it.
pub trait Front: Clone + Send + 'static {
    /// What the loop finds: a layout, a track.
    type Candidate: Clone + Send + 'static;
    /// The words of claims and progress lines.
    const NOUNS: Nouns;
    /// The cost's name in the summary and the JSON: `belts`, `cells`.
    const COST: &'static str;
    /// The candidate's key in the JSON: `layout`, `path`.
    const CANDIDATE: &'static str;

    /// Runs the loop on the level.
    fn solve(
        &self,
        settings: &Settings,
        events: &mut dyn FnMut(Event<Self::Candidate>),
    ) -> Result<cegar::Report<Self::Candidate>, String>;
    /// What a verified candidate costs.
    fn cost(&self, c: &Self::Candidate) -> usize;
    /// A candidate on stdout (and in the trace of rejected ones).
    fn text(&self, c: &Self::Candidate) -> String;
    /// A candidate in `--json`.
    fn json(&self, c: &Self::Candidate) -> Value;
}

/// A Freshly Frosted level.
#[derive(Clone)]
pub struct Frosted(pub Level);

impl Front for Frosted {
    type Candidate = Level;
    const NOUNS: Nouns = freshly_frosted::puzzle::NOUNS;
    const COST: &'static str = "belts";
    const CANDIDATE: &'static str = "layout";

    fn solve(
        &self,
        settings: &Settings,
        events: &mut dyn FnMut(Event<Level>),
    ) -> Result<cegar::Report<Level>, String> {
        freshly_frosted::puzzle::solve(&self.0, &settings.opts, &settings.encode, events)
            .map_err(|e| e.to_string())
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
}

/// A Cosmic Express level (with its name, for the solution's JSON line).
#[derive(Clone)]
pub struct Cosmic(pub CeLevel);

impl Front for Cosmic {
    type Candidate = Track;
    const NOUNS: Nouns = cosmic_express::puzzle::NOUNS;
    const COST: &'static str = "cells";
    const CANDIDATE: &'static str = "path";

    fn solve(
        &self,
        settings: &Settings,
        events: &mut dyn FnMut(Event<Track>),
    ) -> Result<cegar::Report<Track>, String> {
        cosmic_express::puzzle::solve(&self.0.level, &settings.opts, events)
    }

    fn cost(&self, track: &Track) -> usize {
        track.0.len()
    }

    fn text(&self, track: &Track) -> String {
        both_forms(&self.0, track)
    }

    fn json(&self, track: &Track) -> Value {
        serde_json::json!(path_json(track))
    }
}

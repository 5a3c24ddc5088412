//! Cosmic Express as a [`cegar::Puzzle`]: the track encoding of
//! [`crate::encode`], the train's run of [`crate::sim`] as the check, and
//! the dead ends of [`crate::dead_end`] as counterexamples. A candidate is a
//! track; its cost is its number of cells, entrance and exit included.

use crate::dead_end::dead_end;
use crate::encode::Encoding;
use crate::judge::judge;
use crate::level::Level;
use crate::sim::simulate;
use crate::track::Track;
use cegar::{Check, Decoded, Encoded, Nouns, Puzzle};
use rustsat::instances::{Cnf, ManageVars};
use rustsat::types::{Clause, Lit};

/// The words claims use for this puzzle.
pub const NOUNS: Nouns = Nouns {
    candidate: "track",
    unit: "cell",
    units: "cells",
    instance: "level",
    checker: "simulator",
};

/// A level to solve.
pub struct Cosmic {
    level: Level,
    /// The encoding, once [`Puzzle::encode`] wrote it.
    enc: Option<Encoding>,
}

impl Cosmic {
    pub fn new(level: &Level) -> Cosmic {
        Cosmic {
            level: level.clone(),
            enc: None,
        }
    }

    /// The clause that blocks a failed track and every track that fails
    /// for the same reason: its dead-end prefix, or the whole track.
    fn blocking_clause(&self, enc: &Encoding, track: &Track) -> Clause {
        let path = &track.0;
        let upto = dead_end(&self.level, path).unwrap_or(path.len().saturating_sub(1));
        enc.not_this_prefix(&path[..=upto.min(path.len().saturating_sub(1))])
    }
}

impl Puzzle for Cosmic {
    type Candidate = Track;

    fn encode(&mut self, cnf: &mut Cnf, vars: &mut dyn ManageVars) -> Result<Encoded, String> {
        let enc = Encoding::new(&self.level, cnf, vars);
        let encoded = Encoded {
            strong: None,
            adds_strength: false,
            goals: Vec::new(),
            decisions: 0,
            max_cost: enc.cells.len(),
        };
        self.enc = Some(enc);
        Ok(encoded)
    }

    fn cost_at_most(&mut self, k: usize, vars: &mut dyn ManageVars) -> (Vec<Clause>, Vec<Lit>) {
        let Some(enc) = self.enc.as_mut() else {
            return (Vec::new(), Vec::new());
        };
        let clauses = enc.cells_used.encode_at_most(k, vars);
        (clauses, enc.cells_used.at_most(k).unwrap_or_default())
    }

    /// The path from the entrance is the candidate; cycles beside it are cut.
    fn decode(&mut self, model: &[bool], _vars: &mut dyn ManageVars) -> Decoded<Track> {
        let Some(enc) = self.enc.as_ref() else {
            return Decoded {
                candidate: None,
                lemmas: Vec::new(),
                notes: Vec::new(),
            };
        };
        let read = enc.read(model);
        let lemmas = read.cycles.iter().flat_map(|c| enc.cycle_cuts(c)).collect();
        Decoded {
            candidate: Some(read.track),
            lemmas,
            notes: Vec::new(),
        }
    }

    fn check(&mut self, track: &Track, explain: bool) -> Check {
        let outcome = simulate(&self.level, track);
        let train = &outcome.train;
        let solved = outcome.broken.is_none()
            && train.remaining_aliens().is_empty()
            && train.remaining_houses().is_empty();
        if solved {
            return Check::Accepted {
                cost: track.0.len(),
            };
        }
        let enc = self
            .enc
            .as_ref()
            .expect("the loop encodes the puzzle before it checks a candidate");
        Check::Rejected {
            clauses: vec![self.blocking_clause(enc, track)],
            reason: explain.then(|| judge(&self.level, track).reason),
        }
    }

    fn nouns(&self) -> Nouns {
        NOUNS
    }

    fn variable_comments(&self) -> Vec<String> {
        self.enc
            .as_ref()
            .map_or_else(Vec::new, |enc| enc.variable_comments(&self.level))
    }
}

/// Solves `level` with the loop of [`cegar::solve`]: the track with the
/// fewest cells, verified, and what is proved about it.
pub fn solve(
    level: &Level,
    opts: &cegar::Options,
    events: &mut dyn FnMut(cegar::Event<Track>),
) -> Result<cegar::Report<Track>, String> {
    cegar::solve(&mut Cosmic::new(level), opts, events)
}

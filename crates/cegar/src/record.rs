//! Recording a solve for a certificate: the events of
//! [`crate::Options::record`] collected into the formula of each proving
//! call, with where every clause after the encoding came from.
//!
//! A [`Recording`] only keeps what the loop reports: the encoding as the
//! first solver holds it, every clause added after it (in order, with its
//! [`Source`]), the candidates whose rejection justified counterexample
//! clauses, and each proving call (how many of the added clauses it saw,
//! its assumptions, its claim). [`Recording::dimacs`] writes a proving
//! call's formula with its assumptions as unit clauses; a solver that
//! writes proofs (CaDiCaL's DRAT) can then refute it on its own. What the
//! justifications mean is the puzzle's business: it re-derives them.

use crate::sat::dimacs;
use crate::solve::{Event, Origin};
use rustsat::types::{Clause, Lit};

/// Where a clause added after the encoding came from (owned
/// [`Origin`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Clause `index` of the check's answer to rejected candidate number
    /// `candidate` ([`Recording::candidates`]); 0 is the counterexample
    /// proper.
    Counterexample { candidate: usize, index: usize },
    /// A lemma read off a model, with the puzzle's justification.
    Lemma(String),
    /// The cost counter's clauses for "at most `k`", written when
    /// `vars_before` variables were in use.
    CostBound { k: usize, vars_before: u32 },
}

/// A call whose UNSAT answer proves a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvingCall {
    /// How many of [`Recording::added`] the solver held (the first ones).
    pub added: usize,
    /// Its assumptions (relaxations only: no `strong`).
    pub assumptions: Vec<Lit>,
    pub n_vars: u32,
    /// No candidate costing at most this solves (`None`: none at all).
    pub max_cost: Option<usize>,
}

/// Everything a certificate of a solve needs.
#[derive(Clone, Debug)]
pub struct Recording<C> {
    /// The encoding, in the order the first solver got it.
    pub encoding: Vec<Clause>,
    /// Variables in use after the encoding.
    pub encoding_vars: u32,
    /// Every clause added after the encoding, in order.
    pub added: Vec<(Clause, Source)>,
    /// The rejected candidates that counterexample clauses name.
    pub candidates: Vec<C>,
    pub proofs: Vec<ProvingCall>,
}

impl<C: Clone> Default for Recording<C> {
    fn default() -> Self {
        Recording {
            encoding: Vec::new(),
            encoding_vars: 0,
            added: Vec::new(),
            candidates: Vec::new(),
            proofs: Vec::new(),
        }
    }
}

impl<C: Clone> Recording<C> {
    /// Keeps what a recording event says; other events are ignored.
    pub fn take(&mut self, event: &Event<C>) {
        match event {
            Event::Encoded { clauses, n_vars } => {
                self.encoding = clauses.to_vec();
                self.encoding_vars = *n_vars;
            }
            Event::Added { clause, origin } => {
                let source = self.source(origin);
                self.added.push(((*clause).clone(), source));
            }
            Event::ProvingCall {
                assumptions,
                n_vars,
                max_cost,
            } => self.proofs.push(ProvingCall {
                added: self.added.len(),
                assumptions: assumptions.to_vec(),
                n_vars: *n_vars,
                max_cost: *max_cost,
            }),
            _ => {}
        }
    }

    /// The owned source of `origin`; a counterexample's first clause keeps
    /// its candidate.
    fn source(&mut self, origin: &Origin<C>) -> Source {
        match origin {
            Origin::Counterexample { candidate, index } => {
                if *index == 0 || self.candidates.is_empty() {
                    self.candidates.push((*candidate).clone());
                }
                Source::Counterexample {
                    candidate: self.candidates.len() - 1,
                    index: *index,
                }
            }
            Origin::Lemma { note } => Source::Lemma(note.to_string()),
            Origin::CostBound { k, vars_before } => Source::CostBound {
                k: *k,
                vars_before: *vars_before,
            },
        }
    }

    /// The formula of `call` as DIMACS: the encoding, the added clauses it
    /// saw, then its assumptions as unit clauses, after `comments`.
    pub fn dimacs(&self, call: &ProvingCall, comments: &[String]) -> String {
        let mut out = String::new();
        let added = self.added[..call.added].iter().map(|(c, _)| c);
        dimacs::write_with_assumptions(
            &mut out,
            call.n_vars,
            self.encoding.iter().chain(added),
            &call.assumptions,
            comments,
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proving_call_sees_the_clauses_added_before_it() {
        let mut r: Recording<u8> = Recording::default();
        let a = Clause::from([Lit::positive(0)]);
        let b = Clause::from([Lit::negative(0), Lit::positive(1)]);
        r.take(&Event::Encoded {
            clauses: std::slice::from_ref(&a),
            n_vars: 2,
        });
        r.take(&Event::Added {
            clause: &b,
            origin: Origin::Counterexample {
                candidate: &7,
                index: 0,
            },
        });
        r.take(&Event::ProvingCall {
            assumptions: &[Lit::negative(1)],
            n_vars: 2,
            max_cost: Some(3),
        });
        r.take(&Event::Added {
            clause: &a,
            origin: Origin::Lemma { note: "late" },
        });
        assert_eq!(r.candidates, vec![7]);
        assert_eq!(r.proofs[0].added, 1);
        assert_eq!(
            r.dimacs(&r.proofs[0], &["x".into()]),
            "c x\np cnf 2 3\n1 0\n-1 2 0\n-2 0\n"
        );
    }
}

//! What the simulator taught a solve, handed to the explanation that
//! follows an `unsolvable` verdict, so that its questions need not learn it
//! again. Only facts about layouts are kept, never clauses of the solve's
//! formula (whose variables are numbered differently once requirements get
//! switches):
//!
//! - per rejected layout, the cells its run visited and what it placed
//!   there (X1's cells), and which requirements the run missed, or that it
//!   failed: every layout agreeing with it on those cells runs the same
//!   way, so it fails too, or misses the same requirements, whatever a
//!   later question asks (the oracle turns each into `X1` or
//!   `X1 ∨ ¬switch(r)`, see `oracle.rs`);
//! - the runs that did not fail ([`Pool`]), which answer "yes" to any
//!   question whose requirements one of them meets.
//!
//! Keeping them costs a little memory per rejected layout, so a solve only
//! does it when asked ([`crate::puzzle::solve_learning`]), and stops after
//! [`Learned::MAX_CUTS`] layouts.

use super::oracle::Witness;
use super::pool::Pool;
use crate::encode::{option_index, Encoding};
use crate::level::Level;
use crate::requirement::{requirements, Achieved, Requirement};
use crate::sim::Outcome;
use cegar::keyed::StorageKey as _;

/// A rejected layout: its choices on the `.` cells its run visited, as
/// `(index among the level's free cells, index in encode::CHOICES)`, and
/// the requirements its run missed (`None`: the run failed).
#[derive(Clone, Debug)]
pub struct Cut {
    pub choices: Vec<(u32, u8)>,
    pub missed: Option<Vec<Requirement>>,
}

/// What a solve's runs taught (see the module docs).
#[derive(Clone)]
pub struct Learned {
    pub cuts: Vec<Cut>,
    pub pool: Pool,
    reqs: Vec<Requirement>,
}

impl Learned {
    /// The most rejected layouts kept (8 bytes per visited cell: some
    /// tens of megabytes at most).
    pub const MAX_CUTS: usize = 200_000;

    /// Nothing learned yet about `level` (solved with `max_belts`).
    pub fn new(level: &Level, max_belts: Option<usize>) -> Learned {
        let reqs = requirements(level, max_belts);
        Learned {
            cuts: Vec::new(),
            pool: Pool::new(&reqs),
            reqs,
        }
    }

    /// Notes the run `outcome` of the rejected `layout` of `level`, whose
    /// cells `enc` numbers.
    pub fn note(&mut self, level: &Level, enc: &Encoding, layout: &Level, outcome: &Outcome) {
        if self.cuts.len() >= Learned::MAX_CUTS {
            return;
        }
        let achieved = Achieved::of(level, layout, outcome);
        let missed = achieved.ran.then(|| {
            self.reqs
                .iter()
                .copied()
                .filter(|&r| !achieved.meets(r))
                .collect()
        });
        let choices = enc
            .free
            .enumerate()
            .filter(|(_, c)| outcome.visited[c.index()])
            .map(|(i, &c)| (i.index() as u32, option_index(layout.tile(c).belt()) as u8))
            .collect();
        self.cuts.push(Cut { choices, missed });
        if achieved.ran {
            self.pool.remember(&Witness {
                layout: layout.clone(),
                achieved,
            });
        }
    }
}

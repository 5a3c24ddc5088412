//! Certificates of `unsolvable` and `optimal` claims (Freshly Frosted): the
//! format shared by `solve --certificate DIR` ([`write`]) and
//! `check-certificate LEVEL DIR` ([`check`]). The files are described in
//! `docs/certificates.md`:
//!
//! - `manifest.json`: the level, the encoding's options, the status and
//!   claim, and per proving call what proves what;
//! - `proof-N.cnf`: the call's formula (the encoding, every clause the loop
//!   added before it, its assumptions as unit clauses);
//! - `proof-N.jsonl`: one line per added clause, saying where it came from
//!   (the layout whose run justifies a counterexample, and its cells);
//! - `proof-N.drat`: CaDiCaL's DRAT proof that the formula is
//!   unsatisfiable (binary DRAT);
//! - `solution.txt`: the best layout, for an `optimal` claim.

pub mod check;
pub mod write;

use crate::encode::EncodeOptions;
use crate::level::Level;
use cegar::record::Source;
use freshly_frosted::certify::FormulaCheck;
use rustsat::types::Clause;
use serde::{Deserialize, Serialize};

/// The format's name and version, the manifest's first field.
pub const FORMAT: &str = "frosted-certificate 1";

/// `manifest.json`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Manifest {
    pub format: String,
    /// The level, in the level format (the checker compares it with its own).
    pub level: String,
    /// The encoding's options, which the checker re-encodes with.
    pub encode: EncodeSettings,
    /// `optimal` or `unsolvable` (or `solved` / `unknown`: nothing proved).
    pub status: String,
    /// The best layout's belts, with `solution`.
    pub belts: Option<usize>,
    /// The best layout's file.
    pub solution: Option<String>,
    /// What the certificate proves, in words.
    pub claim: String,
    /// Each file of the certificate, and what it is.
    #[serde(default)]
    pub files: std::collections::BTreeMap<String, String>,
    pub proofs: Vec<ProofEntry>,
}

/// [`EncodeOptions`] as the manifest stores them.
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
pub struct EncodeSettings {
    pub lazy_counter_from: usize,
    pub rank_budget: usize,
}

impl From<&EncodeOptions> for EncodeSettings {
    fn from(o: &EncodeOptions) -> Self {
        EncodeSettings {
            lazy_counter_from: o.lazy_counter_from,
            rank_budget: o.rank_budget,
        }
    }
}

impl From<EncodeSettings> for EncodeOptions {
    fn from(s: EncodeSettings) -> Self {
        EncodeOptions {
            lazy_counter_from: s.lazy_counter_from,
            rank_budget: s.rank_budget,
            // Solves (and so certificates) never switch requirements off.
            requirement_switches: false,
        }
    }
}

/// One proving call in the manifest.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ProofEntry {
    /// "no layout with at most K belts solves the level", or "no layout
    /// solves the level".
    pub claim: String,
    /// K (`null`: any number of belts).
    pub max_belts: Option<usize>,
    /// How the solve proved the claim: `sat`, or `chain bound` (then this
    /// proof is the certificate's own, by a second loop without it).
    pub solve_proved_it_by: String,
    /// How this certificate proves it.
    pub how: String,
    pub formula: String,
    pub justifications: String,
    pub drat: String,
    /// How many clauses of `formula` are of each kind, in the file's order:
    /// the encoding first, then the added clauses, then the assumptions.
    pub clauses: ClauseCounts,
}

/// The clauses of a proving call's formula, by where they came from.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct ClauseCounts {
    pub encoding: usize,
    pub counterexample: usize,
    pub wrong_branch: usize,
    pub loop_formula: usize,
    pub gate: usize,
    pub cost_bound: usize,
    pub assumptions: usize,
}

impl ClauseCounts {
    /// The clauses the loop added (between the encoding and the assumptions).
    pub fn added(&self) -> usize {
        self.counterexample + self.wrong_branch + self.loop_formula + self.gate + self.cost_bound
    }

    /// Counts one added clause of kind `kind`.
    fn count(&mut self, kind: &Kind) {
        match kind {
            Kind::Counterexample { index: 0, .. } => self.counterexample += 1,
            Kind::Counterexample { .. } => self.wrong_branch += 1,
            Kind::Lemma { note } if note.starts_with("gate") => self.gate += 1,
            Kind::Lemma { .. } => self.loop_formula += 1,
            Kind::CostBound { .. } => self.cost_bound += 1,
        }
    }
}

/// One line of `proof-N.jsonl`: the justification of the formula's clause
/// number `clause` (counted from 1, in the file's order).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Justification {
    pub clause: usize,
    #[serde(flatten)]
    pub kind: Kind,
}

/// Where an added clause came from.
#[derive(Serialize, Deserialize, Debug, Clone)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Kind {
    /// Clause `index` the simulator's rejection of `layout` made (0: the
    /// counterexample over the visited cells `cells`; 1: the wrong-branch
    /// clause).
    Counterexample {
        index: usize,
        layout: String,
        cells: Vec<[usize; 2]>,
    },
    /// A loop formula (`loop S N...`) or a gate (`gate S E`).
    Lemma { note: String },
    /// The belt counter's clauses for "at most `k`", made when
    /// `vars_before` variables were in use.
    CostBound { k: usize, vars_before: u32 },
}

/// The certificate's kind of a recorded clause.
fn kind_of(source: &Source, candidates: &[Level]) -> Kind {
    match source {
        Source::Counterexample { candidate, index } => Kind::Counterexample {
            index: *index,
            layout: candidates[*candidate].to_string(),
            cells: Vec::new(),
        },
        Source::Lemma(note) => Kind::Lemma { note: note.clone() },
        Source::CostBound { k, vars_before } => Kind::CostBound {
            k: *k,
            vars_before: *vars_before,
        },
    }
}

/// Checks `cl` against its justification; a counterexample gets the
/// cells its clause covers filled in (when writing) or compared (when
/// checking). `cache` keeps the last layout parsed (a layout justifies up
/// to two clauses in a row).
fn justify(
    fc: &mut FormulaCheck,
    kind: &mut Kind,
    cl: &Clause,
    level: &Level,
    fill: bool,
) -> Result<(), String> {
    match kind {
        Kind::Counterexample {
            index,
            layout,
            cells,
        } => {
            let mut lay = freshly_frosted::parse::parse(layout)
                .map_err(|e| format!("its layout does not parse: {}", e.render("layout")))?;
            lay.flags = level.flags.clone();
            let covered: Vec<[usize; 2]> = fc
                .counterexample(&lay, *index, cl)?
                .into_iter()
                .map(|p| [p.x, p.y])
                .collect();
            if fill {
                *cells = covered;
            } else if *cells != covered {
                return Err(format!(
                    "its cells are listed as {cells:?}, but the clause covers {covered:?}"
                ));
            }
            Ok(())
        }
        Kind::Lemma { note } => fc.lemma(note, cl),
        Kind::CostBound { k, vars_before } => fc.cost_bound(*k, *vars_before, cl),
    }
}

/// The claim of a proof about `max_belts`, in words.
pub fn claim_words(max_belts: Option<usize>) -> String {
    match max_belts {
        None => "no layout solves the level".into(),
        Some(0) => "no layout without belts solves the level".into(),
        Some(1) => "no layout with at most 1 belt solves the level".into(),
        Some(k) => format!("no layout with at most {k} belts solves the level"),
    }
}

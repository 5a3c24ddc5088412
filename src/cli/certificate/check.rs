//! `frosted check-certificate LEVEL DIR`: checks a certificate written by
//! `solve --certificate DIR` and says what it checked.
//!
//! For an `optimal` claim the solution must solve the level (the
//! simulator's verdict) with the claimed belts; then every proving call's
//! formula must be the level's encoding (re-encoded here) plus clauses each
//! re-derived from its justification (a counterexample's layout is run
//! again, and its clause must name exactly the `.` cells the run visited)
//! plus assumptions that only say "every requirement", "not strong" and
//! "at most K belts"; and the DRAT proof must convince a checker that
//! shares no code with the solver that wrote it (`rate`).

use super::{claim_words, justify, ClauseCounts, Justification, Manifest, ProofEntry, FORMAT};
use crate::cli::{load_level, out, read_bounded, CliError, EXIT_NO, EXIT_OK};
use crate::judge::judge;
use crate::level::Level;
use freshly_frosted::certify::{show, FormulaCheck};
use rustsat::types::{Clause, Lit};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file the certificate is about.
    pub level: PathBuf,
    /// The certificate's folder, as `solve LEVEL --certificate DIR` wrote it.
    pub dir: PathBuf,
    /// The DRAT checker: a program run as `PROGRAM FORMULA.cnf PROOF.drat` that
    /// prints `s VERIFIED` and exits 0 when the proof refutes the formula.
    /// `rate` (cargo install rate) shares no code with CaDiCaL, which wrote
    /// the proof.
    #[arg(long, default_value = "rate", value_name = "PROGRAM")]
    pub drat_checker: String,
}

/// The largest certificate file read (a formula of a big level with many
/// learned clauses stays far below).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// A check that failed: exit 1, with what failed.
fn failed(what: impl Into<String>) -> CliError {
    CliError {
        code: EXIT_NO,
        message: format!("certificate check failed: {}", what.into()),
    }
}

/// Reads the certificate's file `name` as text.
fn read(dir: &Path, name: &str) -> Result<String, CliError> {
    let path = dir.join(name);
    if !path.is_file() {
        return Err(failed(format!("{} is missing", path.display())));
    }
    let bytes = read_bounded(&path, MAX_FILE_BYTES, "a certificate file")?;
    String::from_utf8(bytes).map_err(|_| failed(format!("{name} is not UTF-8 text")))
}

pub fn run(a: Args) -> Result<i32, CliError> {
    let level = load_level(&a.level)?;
    let m: Manifest = serde_json::from_str(&read(&a.dir, "manifest.json")?)
        .map_err(|e| failed(format!("manifest.json does not read: {e}")))?;
    if m.format != FORMAT {
        return Err(failed(format!(
            "manifest.json is `{}`, not `{FORMAT}`",
            m.format
        )));
    }
    if m.level != level.to_string() {
        return Err(failed("manifest.json is about another level"));
    }
    let needed = needed_proof(&a.dir, &level, &m)?;
    let proved = m.proofs.iter().map(|p| p.max_belts);
    // `None` (no layout at all) proves every bound.
    let found = match needed {
        Need::Nothing => true,
        Need::Below(k) => proved.clone().any(|p| p.is_none_or(|p| p >= k)),
        Need::Any => proved.clone().next().is_some(),
    };
    if !found {
        let want = match needed {
            Need::Below(k) => Some(k),
            _ => None,
        };
        return Err(failed(format!(
            "the status `{}` needs a proof that {}, and the certificate has none",
            m.status,
            claim_words(want)
        )));
    }
    for p in &m.proofs {
        let mut fc = FormulaCheck::new(&level, &m.encode.into());
        check_proof(&a, &mut fc, &level, p)?;
    }
    let strongest = proved.max_by_key(|p| p.unwrap_or(usize::MAX));
    let claim = match (needed, m.belts) {
        (Need::Nothing, _) => "the level solves without belts: nothing is cheaper".to_string(),
        (Need::Below(k), Some(b)) => format!(
            "a layout with {b} belts solves the level, and {}",
            claim_words(Some(k))
        ),
        _ => claim_words(strongest.flatten()),
    };
    out(&format!("certificate checked: {claim}\n"))?;
    Ok(EXIT_OK)
}

/// The proof a status needs.
#[derive(Clone, Copy)]
enum Need {
    /// `optimal` with no belts: none.
    Nothing,
    /// `optimal` with `k + 1` belts: no layout with at most `k`.
    Below(usize),
    /// `unsolvable`: a proof (of no layout, or none within `--max-belts`).
    Any,
}

/// Checks the status and the solution; the proof the status needs.
fn needed_proof(dir: &Path, level: &Level, m: &Manifest) -> Result<Need, CliError> {
    match m.status.as_str() {
        "unsolvable" => {
            out("status: unsolvable\n")?;
            Ok(Need::Any)
        }
        "optimal" => {
            let name = m
                .solution
                .as_deref()
                .ok_or(failed("`optimal` without a solution"))?;
            let mut layout = freshly_frosted::parse::parse(&read(dir, name)?)
                .map_err(|e| failed(format!("{name}: {}", e.render(name))))?;
            layout
                .check_layout_of(level)
                .map_err(|e| failed(format!("{name} is not a layout of the level: {e}")))?;
            layout.flags = level.flags.clone();
            let belts = layout.added_belts(level);
            if !judge(&layout).solved() || Some(belts) != m.belts {
                return Err(failed(format!(
                    "{name} does not solve the level with {:?} belts (the simulator's verdict)",
                    m.belts
                )));
            }
            out(&format!(
                "{name}: the simulator says this layout with {belts} belts solves the level\n"
            ))?;
            Ok(belts.checked_sub(1).map_or(Need::Nothing, Need::Below))
        }
        s => Err(failed(format!("status `{s}` claims nothing to check"))),
    }
}

/// Checks one proving call: its formula, its justifications, its
/// assumptions and its DRAT proof.
fn check_proof(
    a: &Args,
    fc: &mut FormulaCheck,
    level: &Level,
    p: &ProofEntry,
) -> Result<(), CliError> {
    let (n_vars, clauses) = cegar::sat::dimacs::parse_cnf(&read(&a.dir, &p.formula)?)
        .map_err(|e| failed(format!("{}: {e}", p.formula)))?;
    let c = &p.clauses;
    if c.encoding + c.added() + c.assumptions != clauses.len() || c.encoding != fc.encoding_len() {
        return Err(failed(format!(
            "{} has {} clauses; the manifest counts {} of the encoding (the level's has {}), {} added and {} assumptions",
            p.formula,
            clauses.len(),
            c.encoding,
            fc.encoding_len(),
            c.added(),
            c.assumptions
        )));
    }
    fc.is_encoding(&clauses[..c.encoding])
        .map_err(|e| failed(format!("{}: {e}", p.formula)))?;
    let counts = check_added(a, fc, level, p, &clauses)?;
    let units = assumptions(p, &clauses[c.encoding + c.added()..])?;
    fc.assumptions(&units, p.max_belts)
        .map_err(|e| failed(format!("{}: {e}", p.formula)))?;
    out(&format!(
        "{}: {n_vars} variables; {} clauses of the level's encoding (re-encoded: the same); \
         added by the loop and re-derived: {} counterexamples (each layout run again: it fails, \
         and its clause names exactly the cells its run visited), {} wrong-branch clauses, \
         {} loop formulas, {} gate clauses, {} counter clauses; {} assumptions (requirements, \
         not strong, {})\n",
        p.formula,
        c.encoding,
        counts.counterexample,
        counts.wrong_branch,
        counts.loop_formula,
        counts.gate,
        counts.cost_bound,
        c.assumptions,
        match p.max_belts {
            Some(k) => format!("at most {k} belts"),
            None => "no bound".into(),
        }
    ))?;
    check_drat(a, p)?;
    out(&format!("proved: {}\n", claim_words(p.max_belts)))?;
    Ok(())
}

/// Checks every added clause against its line in the justifications;
/// returns how many of each kind there were.
fn check_added(
    a: &Args,
    fc: &mut FormulaCheck,
    level: &Level,
    p: &ProofEntry,
    clauses: &[Clause],
) -> Result<ClauseCounts, CliError> {
    let mut by_clause = BTreeMap::new();
    for (i, line) in read(&a.dir, &p.justifications)?.lines().enumerate() {
        let j: Justification = serde_json::from_str(line)
            .map_err(|e| failed(format!("{} line {}: {e}", p.justifications, i + 1)))?;
        by_clause.insert(j.clause, j.kind);
    }
    let mut counts = ClauseCounts::default();
    let first = p.clauses.encoding;
    for (i, cl) in clauses[first..first + p.clauses.added()].iter().enumerate() {
        let n = first + i + 1;
        let mut kind = by_clause.remove(&n).ok_or_else(|| {
            failed(format!(
                "{} clause {n} {} has no justification in {}",
                p.formula,
                show(cl),
                p.justifications
            ))
        })?;
        justify(fc, &mut kind, cl, level, false).map_err(|e| {
            failed(format!(
                "{} clause {n} {} ({}): {e}",
                p.formula,
                show(cl),
                p.justifications
            ))
        })?;
        counts.count(&kind);
    }
    if let Some(n) = by_clause.keys().next() {
        return Err(failed(format!(
            "{} justifies clause {n}, which is not one the loop added",
            p.justifications
        )));
    }
    if counts.added() != p.clauses.added() {
        return Err(failed("the manifest's counts of added clauses are wrong"));
    }
    Ok(counts)
}

/// The assumptions: the formula's last clauses, each a unit.
fn assumptions(p: &ProofEntry, units: &[Clause]) -> Result<Vec<Lit>, CliError> {
    units
        .iter()
        .map(|cl| match cl.iter().copied().collect::<Vec<Lit>>()[..] {
            [l] => Ok(l),
            _ => Err(failed(format!(
                "{}: {} stands where an assumption (a unit clause) should",
                p.formula,
                show(cl)
            ))),
        })
        .collect()
}

/// Runs the DRAT checker on the proof.
fn check_drat(a: &Args, p: &ProofEntry) -> Result<(), CliError> {
    let (formula, drat) = (a.dir.join(&p.formula), a.dir.join(&p.drat));
    if !drat.is_file() {
        return Err(failed(format!("{} is missing", drat.display())));
    }
    let run = Command::new(&a.drat_checker)
        .arg(&formula)
        .arg(&drat)
        .output()
        .map_err(|e| {
            CliError::bad_input(format!(
                "cannot run the DRAT checker `{}` (cargo install rate): {e}",
                a.drat_checker
            ))
        })?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    let verified = stdout.lines().any(|l| l.trim() == "s VERIFIED");
    if !run.status.success() || !verified {
        let said: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("s ") || l.contains("fail") || l.contains("conflict"))
            .collect();
        return Err(failed(format!(
            "{} does not prove {} unsatisfiable: `{}` said {}",
            p.drat,
            p.formula,
            a.drat_checker,
            match said.is_empty() {
                true => format!("nothing ({})", run.status),
                false => said.join("; "),
            }
        )));
    }
    out(&format!(
        "{}: `{}` says VERIFIED: {} is unsatisfiable\n",
        p.drat, a.drat_checker, p.formula
    ))?;
    Ok(())
}

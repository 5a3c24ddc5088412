//! `solve --certificate DIR`: writes the certificate of the solve's claim.
//!
//! A claim the loop proved by SAT gets the formula of its proving call, as
//! recorded ([`cegar::record`]); a claim the chain bound proved is proved
//! again here by a second loop without the chain bound (looking only at
//! layouts within the claim's bound), and that loop's proving call is
//! written. Each added clause is checked against its justification as it
//! is written (a clause that does not check is an internal error, never a
//! certificate), and CaDiCaL writes the DRAT proof.

use super::{claim_words, justify, kind_of, ClauseCounts, Justification, Manifest, ProofEntry};
use super::{EncodeSettings, FORMAT};
use crate::cli::flags::Settings;
use crate::cli::CliError;
use crate::level::Level;
use cegar::record::{ProvingCall, Recording};
use cegar::{Claim, Proof, ProofMethod, Report, Status};
use freshly_frosted::certify::FormulaCheck;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The program that writes DRAT proofs.
const PROVER: &str = "cadical";

/// Creates the folder `dir` (it may exist), and makes sure CaDiCaL runs,
/// before the solve starts.
pub fn prepare(dir: &Path) -> Result<(), CliError> {
    crate::cli::solve::make_folder("--certificate", dir)?;
    Command::new(PROVER)
        .arg("--version")
        .output()
        .map_err(|e| {
            CliError::bad_input(format!(
                "--certificate needs the `{PROVER}` program to write DRAT proofs \
             (Debian: apt-get install cadical): {e}"
            ))
        })?;
    Ok(())
}

/// Writes `name` in `dir`.
fn put(dir: &Path, name: &str, text: &str) -> Result<(), CliError> {
    let path = dir.join(name);
    std::fs::write(&path, text)
        .map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", path.display())))
}

/// Writes the certificate of `report` into `dir`; returns the line saying
/// what it holds.
pub fn write(
    level: &Level,
    settings: &Settings,
    report: &Report<Level>,
    recording: Recording<Level>,
    dir: &Path,
) -> Result<String, CliError> {
    let mut manifest = Manifest {
        format: FORMAT.into(),
        level: level.to_string(),
        encode: EncodeSettings::from(&settings.encode),
        status: report.status.name().into(),
        belts: report.cost,
        solution: None,
        claim: String::new(),
        files: Default::default(),
        proofs: Vec::new(),
    };
    manifest.files.insert(
        "manifest.json".into(),
        "this file: what the certificate proves, and how".into(),
    );
    if let Some(layout) = &report.candidate {
        put(dir, "solution.txt", &layout.to_string())?;
        manifest.solution = Some("solution.txt".into());
        manifest.files.insert(
            "solution.txt".into(),
            format!(
                "the best layout ({} belts), in the level format",
                layout.added_belts(level)
            ),
        );
    }
    manifest.claim = match (&report.claim, report.status) {
        (Claim::Proved(p), Status::Optimal | Status::Unsolvable) => {
            let (rec, call, by) = proving_call(level, settings, p, recording)?;
            let entry = write_proof(dir, 1, level, settings, &rec, &call, by)?;
            let claim = entry.claim.clone();
            describe_files(&mut manifest.files, &entry);
            manifest.proofs.push(entry);
            claim
        }
        (Claim::FreeOfCost, _) => "a layout without belts solves the level".into(),
        _ => {
            return Err(CliError::bad_input(format!(
                "--certificate: the solve proved nothing (status {}), so there is no certificate",
                report.status.name()
            )))
        }
    };
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|e| CliError::bad_input(format!("cannot write JSON: {e}")))?;
    put(dir, "manifest.json", &(text + "\n"))?;
    Ok(format!(
        "certificate: {} ({}); check it with `frosted check-certificate LEVEL {}`",
        dir.display(),
        manifest.claim,
        dir.display()
    ))
}

/// Says what each file of a proof is.
fn describe_files(files: &mut std::collections::BTreeMap<String, String>, p: &ProofEntry) {
    let what = [
        (&p.formula, format!("DIMACS: the formula of the SAT call that proves \"{}\": the level's encoding, the clauses the loop added, the call's assumptions as unit clauses", p.claim)),
        (&p.justifications, format!("one JSON line per clause the loop added to {}: where it came from (the layout whose run justifies a counterexample, and the cells it covers)", p.formula)),
        (&p.drat, format!("{PROVER}'s DRAT proof (binary) that {} is unsatisfiable", p.formula)),
    ];
    for (file, text) in what {
        files.insert(file.clone(), text);
    }
}

/// The recording and call that prove `proof`, and how the solve proved it:
/// the solve's own call, or one of a second loop without the chain bound.
fn proving_call(
    level: &Level,
    settings: &Settings,
    proof: &Proof,
    recording: Recording<Level>,
) -> Result<(Recording<Level>, ProvingCall, String), CliError> {
    let internal = |m: &str| CliError::bad_input(format!("--certificate: {m}"));
    if proof.by == ProofMethod::Sat {
        let call = recording
            .proofs
            .last()
            .cloned()
            .ok_or_else(|| internal("internal error: no proving call was recorded"))?;
        return Ok((recording, call, "sat".into()));
    }
    let mut again = settings.clone();
    let opts = &mut again.opts;
    opts.lower_bound = false;
    opts.max_cost = proof.max_cost;
    opts.first = false;
    opts.record = true;
    // With the solve's timeout, and its progress lines and Ctrl-C.
    let front = crate::cli::front::Frosted::new(level.clone());
    let (again, rec) = crate::cli::solve::solve_with_hard_timeout(&front, &again)?;
    let covers = matches!(&again.claim, Claim::Proved(p) if p.by == ProofMethod::Sat
        && p.max_cost.is_none_or(|k| proof.max_cost.is_some_and(|m| m <= k)));
    if again.candidate.is_some() {
        return Err(internal(&format!(
            "the SAT loop found a layout the {} ruled out: the proof is wrong",
            proof.by.name()
        )));
    }
    match (covers, rec.proofs.last().cloned()) {
        (true, Some(call)) => Ok((rec, call, proof.by.name().to_string())),
        _ => Err(internal(&format!(
            "the {} proved it, and SAT could not prove it again ({}): no certificate",
            proof.by.name(),
            again.claim.describe(None, &freshly_frosted::puzzle::NOUNS)
        ))),
    }
}

/// Writes proof number `n`: its formula, its justifications (each checked
/// now) and CaDiCaL's DRAT proof.
fn write_proof(
    dir: &Path,
    n: usize,
    level: &Level,
    settings: &Settings,
    rec: &Recording<Level>,
    call: &ProvingCall,
    by: String,
) -> Result<ProofEntry, CliError> {
    let internal = |m: String| CliError::bad_input(format!("--certificate: internal error: {m}"));
    let mut fc = FormulaCheck::new(level, &settings.encode);
    fc.is_encoding(&rec.encoding).map_err(internal)?;
    let mut counts = ClauseCounts {
        encoding: rec.encoding.len(),
        assumptions: call.assumptions.len(),
        ..ClauseCounts::default()
    };
    let mut lines = String::new();
    for (i, (cl, source)) in rec.added[..call.added].iter().enumerate() {
        let mut kind = kind_of(source, &rec.candidates);
        let clause = rec.encoding.len() + i + 1;
        justify(&mut fc, &mut kind, cl, level, true)
            .map_err(|m| internal(format!("added clause {clause}: {m}")))?;
        counts.count(&kind);
        let j = serde_json::to_string(&Justification { clause, kind })
            .map_err(|e| internal(e.to_string()))?;
        lines += &(j + "\n");
    }
    fc.assumptions(&call.assumptions, call.max_cost)
        .map_err(internal)?;
    let claim = claim_words(call.max_cost);
    let (formula, justifications, drat) = (
        format!("proof-{n}.cnf"),
        format!("proof-{n}.jsonl"),
        format!("proof-{n}.drat"),
    );
    let comments = vec![
        format!("frosted certificate: the formula of the call that proves: {claim}"),
        format!(
            "clauses 1-{}: the level's encoding; the next {}: added by the loop ({justifications} says why); the last {}: the call's assumptions",
            counts.encoding,
            counts.added(),
            counts.assumptions
        ),
    ];
    put(dir, &formula, &rec.dimacs(call, &comments))?;
    put(dir, &justifications, &lines)?;
    let seconds = refute(&dir.join(&formula), &dir.join(&drat))?;
    Ok(ProofEntry {
        how: format!(
            "{PROVER} refuted {formula} in {seconds:.1}s and wrote the DRAT proof {drat}; \
             the added clauses are justified in {justifications}"
        ),
        claim,
        max_belts: call.max_cost,
        solve_proved_it_by: by,
        formula,
        justifications,
        drat,
        clauses: counts,
    })
}

/// Runs CaDiCaL on `formula`, writing its DRAT proof to `drat`; the
/// seconds it took. An answer other than UNSAT is an internal error.
fn refute(formula: &Path, drat: &Path) -> Result<f64, CliError> {
    let t = Instant::now();
    let out = Command::new(PROVER)
        .arg("-q")
        .arg(formula)
        .arg(drat)
        .output()
        .map_err(|e| CliError::bad_input(format!("cannot run `{PROVER}`: {e}")))?;
    match out.status.code() {
        Some(20) => Ok(t.elapsed().as_secs_f64()),
        code => Err(CliError::bad_input(format!(
            "--certificate: internal error: `{PROVER} {}` did not answer UNSATISFIABLE (exit {code:?}: {})",
            formula.display(),
            String::from_utf8_lossy(&out.stdout).trim()
        ))),
    }
}

//! `frosted check-certificate` (and `solve --certificate`, which writes what
//! it checks): certificates of optimal example levels and of the real
//! unsolvable levels check, and tampering with one (a justification
//! removed, a literal flipped, the DRAT proof cut short) makes the check
//! fail, naming what failed.
//!
//! Writing a certificate needs Debian's `cadical`, checking one the `rate`
//! DRAT checker (`cargo install rate`); without them the tests say SKIPPED,
//! except in CI (`CI` set), where they fail.

use crate::{has_program, real_level_in_scratch, run_in, scratch};
use std::path::{Path, PathBuf};

/// Both programs the certificates need.
fn tools() -> bool {
    has_program("cadical", "apt-get install cadical") && has_program("rate", "cargo install rate")
}

/// `dir/level.txt` solved with `--certificate cert` (one thread, so the
/// same run every time) and the flags `extra`; the solve's output.
fn certify(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "solve",
        "level.txt",
        "--threads",
        "1",
        "--no-focus",
        "--certificate",
        "cert",
    ];
    args.extend_from_slice(extra);
    let out = run_in(dir, &args);
    assert!(out.contains("\ncertificate: cert ("), "{out}");
    out
}

/// A scratch folder `name` with the repository's level `relative` as
/// `level.txt`, and its certificate in `cert/` (solved with `extra`).
fn certified_example(name: &str, relative: &str, extra: &[&str]) -> PathBuf {
    let dir = scratch(name, &[]);
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::copy(level, dir.join("level.txt")).expect("copy level");
    certify(&dir, extra);
    dir
}

const CHECK: [&str; 3] = ["check-certificate", "level.txt", "cert"];

/// An optimal claim proved by SAT, with loop formulas and gates among the
/// added clauses (without the sketch, so that SAT finds the layouts and the
/// loop learns them): the check says what it checked.
#[test]
fn an_optimal_claim_by_sat_checks() {
    if !tools() {
        return;
    }
    let dir = certified_example(
        "cert_by_sat",
        "levels/04-merges/three-way-merge.txt",
        &["--no-sketch"],
    );
    let out = run_in(&dir, &CHECK);
    assert!(out.starts_with("exit: 0"), "{out}");
    assert_cmd_snapshot!(&dir, &CHECK);
}

/// An optimal claim the chain bound proved: the certificate proves it
/// again by SAT and says how the solve proved it.
#[test]
fn a_chain_bound_claim_is_proved_again_by_sat() {
    if !tools() {
        return;
    }
    let dir = certified_example(
        "cert_by_chains",
        "levels/01-toppers/first-frosting.txt",
        &[],
    );
    let manifest = std::fs::read_to_string(dir.join("cert/manifest.json")).expect("manifest");
    assert!(
        manifest.contains("\"solve_proved_it_by\": \"chain bound\""),
        "{manifest}"
    );
    let out = run_in(&dir, &CHECK);
    assert!(out.starts_with("exit: 0"), "{out}");
    assert!(out.contains("proved: no layout with at most 2 belts solves the level"));
}

/// The lazily built counter's clauses are re-created by the checker.
#[test]
fn a_lazy_counter_is_replayed() {
    if !tools() {
        return;
    }
    let dir = scratch("cert_lazy", &[]);
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/02-several/three-sources.txt");
    std::fs::copy(level, dir.join("level.txt")).expect("copy level");
    let args = [
        "solve",
        "level.txt",
        "--threads",
        "1",
        "--no-focus",
        "--debug-lazy-counter-from",
        "0",
        "--certificate",
        "cert",
    ];
    assert!(run_in(&dir, &args).starts_with("exit: 0"));
    let out = run_in(&dir, &CHECK);
    assert!(out.starts_with("exit: 0"), "{out}");
    assert!(!out.contains(" 0 counter clauses"), "{out}");
}

/// Every real level the rules make unsolvable gets a certificate that
/// checks (04-romantic-twilight/11 takes minutes: see docs/certificates.md).
#[test]
fn the_real_unsolvable_levels_have_certificates() {
    if !tools() {
        return;
    }
    for level in [
        "11-winter-snow/03",
        "12-deepest-midnight/03",
        "12-deepest-midnight/07",
        "12-deepest-midnight/09",
    ] {
        let name = format!("cert_real_{}", level.replace('/', "_"));
        let Some(dir) = real_level_in_scratch(&name, &format!("{level}.txt")) else {
            return;
        };
        let solved = certify(&dir, &[]);
        assert!(solved.starts_with("exit: 1"), "{level}: {solved}");
        assert!(solved.contains("status: unsolvable"), "{level}: {solved}");
        let out = run_in(&dir, &CHECK);
        assert!(out.starts_with("exit: 0"), "{level}: {out}");
        assert!(
            out.contains("certificate checked: no layout solves the level"),
            "{level}: {out}"
        );
    }
}

/// The certificate of 12-deepest-midnight/03, whose proof rests on
/// counterexamples, loop formulas and gates, in a fresh folder `name`.
/// Without neighbourhoods, so that the snapshots' counts do not depend on
/// the machine's load: before a first layout, a rejected one is repaired
/// when its call took 50 ms or more, which a loaded machine can make any of
/// this level's thousand calls take.
fn tamper_target(name: &str) -> Option<PathBuf> {
    let dir = real_level_in_scratch(name, "12-deepest-midnight/03.txt")?;
    certify(&dir, &["--no-neighbourhoods"]);
    Some(dir)
}

/// Removing the justification of a counterexample clause: the check
/// names the clause that has none.
#[test]
fn a_missing_justification_fails() {
    if !tools() {
        return;
    }
    let Some(dir) = tamper_target("cert_tamper_justification") else {
        return;
    };
    let path = dir.join("cert/proof-1.jsonl");
    let text = std::fs::read_to_string(&path).expect("justifications");
    let first = text
        .lines()
        .position(|l| l.contains("\"kind\":\"counterexample\""))
        .expect("a counterexample");
    let kept: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != first)
        .map(|(_, l)| l)
        .collect();
    std::fs::write(&path, kept.join("\n") + "\n").expect("write");
    let out = run_in(&dir, &CHECK);
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(
        out.contains("has no justification in proof-1.jsonl"),
        "{out}"
    );
    assert_cmd_snapshot!(&dir, &CHECK);
}

/// Flips the first literal of clause number `n` (from 1) of a DIMACS file.
fn flip_literal(path: &Path, n: usize) {
    let text = std::fs::read_to_string(path).expect("formula");
    let mut seen = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with('c') || l.starts_with('p') {
                return l.to_string();
            }
            seen += 1;
            if seen != n {
                return l.to_string();
            }
            let (first, rest) = l.split_once(' ').expect("a literal and more");
            let flipped = match first.strip_prefix('-') {
                Some(v) => v.to_string(),
                None => format!("-{first}"),
            };
            format!("{flipped} {rest}")
        })
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").expect("write");
}

/// A literal flipped in the encoding, in a counterexample clause, in a
/// loop formula: each is caught, by the re-encoding, the replay, the
/// re-derivation.
#[test]
fn a_flipped_literal_fails() {
    if !tools() {
        return;
    }
    let Some(dir) = tamper_target("cert_tamper_flip") else {
        return;
    };
    let formula = dir.join("cert/proof-1.cnf");
    let original = std::fs::read(&formula).expect("formula");
    flip_literal(&formula, 1);
    let out = run_in(&dir, &CHECK);
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(
        out.contains("is not a clause of the level's encoding"),
        "{out}"
    );
    assert_cmd_snapshot!(&dir, &CHECK);

    // A counterexample clause and a loop formula, each with a literal flipped.
    for kind in ["\"kind\":\"counterexample\"", "\"note\":\"loop "] {
        std::fs::write(&formula, &original).expect("restore");
        let text = std::fs::read_to_string(dir.join("cert/proof-1.jsonl")).expect("justifications");
        let line = text
            .lines()
            .find(|l| l.contains(kind))
            .expect("one of this kind");
        let j: serde_json::Value = serde_json::from_str(line).expect("json");
        let n = j["clause"].as_u64().expect("clause number") as usize;
        flip_literal(&formula, n);
        let out = run_in(&dir, &CHECK);
        assert!(out.starts_with("exit: 1"), "{kind}: {out}");
        assert!(
            out.contains(&format!("proof-1.cnf clause {n} ")),
            "{kind}: {out}"
        );
    }
}

/// The DRAT proof cut to half its length: the DRAT checker refuses it.
#[test]
fn a_truncated_proof_fails() {
    if !tools() {
        return;
    }
    let Some(dir) = tamper_target("cert_tamper_drat") else {
        return;
    };
    let path = dir.join("cert/proof-1.drat");
    let proof = std::fs::read(&path).expect("proof");
    std::fs::write(&path, &proof[..proof.len() / 2]).expect("write");
    let out = run_in(&dir, &CHECK);
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(
        out.contains("proof-1.drat does not prove proof-1.cnf unsatisfiable"),
        "{out}"
    );
    assert_cmd_snapshot!(&dir, &CHECK);
}

/// A certificate of another level is refused before anything else.
#[test]
fn a_certificate_of_another_level_fails() {
    if !tools() {
        return;
    }
    let dir = certified_example(
        "cert_other_level",
        "levels/01-toppers/tiny-frosting.txt",
        &[],
    );
    let other = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/01-toppers/first-frosting.txt");
    std::fs::copy(other, dir.join("level.txt")).expect("copy");
    assert_cmd_snapshot!(&dir, &CHECK);
}

/// No certificate folder: a failed check, naming the missing file.
#[test]
fn a_missing_certificate_fails() {
    let dir = scratch("cert_missing", &[("level.txt", b"+> . ->\n")]);
    assert_cmd_snapshot!(&dir, &CHECK);
}

#[test]
fn help() {
    assert_cmd_snapshot!(&["check-certificate", "--help"]);
}

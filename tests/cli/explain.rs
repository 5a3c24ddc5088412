//! `frosted check` (the level check's plain arguments) and what `solve`
//! says after an `unsolvable` verdict: the core of requirements and the
//! near-solutions, on made-up levels and on the public real levels that
//! are unsolvable (skipped when `../shared` is absent).

use crate::{run_in, scratch};

/// One plain source, two plain targets, nothing that branches: `lockstep`.
const LOCKSTEP: &[u8] = b"+>  .   .   ->\n.   .   .   ->\n";
/// A sprinkles target and no topper: `missing-topper`.
const NO_TOPPER: &[u8] = b"+>  .   .   ->3\n";

#[test]
fn check_names_the_plain_arguments() {
    let dir = scratch(
        "check_arguments",
        &[
            ("lockstep.txt", LOCKSTEP),
            ("no-topper.txt", NO_TOPPER),
            ("fine.txt", b"+>  .   ->\n"),
        ],
    );
    for args in [
        &["check", "lockstep.txt"][..],
        &["check", "no-topper.txt"],
        &["check", "--json", "no-topper.txt"],
        &["check", "fine.txt"],
        &["check", "missing.txt"],
    ] {
        snap!(run_in(&dir, args), args);
    }
}

#[test]
fn solve_explains_a_tiny_unsolvable_level() {
    let dir = scratch("solve_explains", &[("lockstep.txt", LOCKSTEP)]);
    for args in [
        &["solve", "lockstep.txt"][..],
        &["solve", "--no-explain", "lockstep.txt"],
        &["solve", "--explain-timeout", "0", "lockstep.txt"],
    ] {
        snap!(run_in(&dir, args), args);
    }
}

#[test]
fn solve_traces_the_explanation() {
    let dir = scratch("solve_traces", &[("lockstep.txt", LOCKSTEP)]);
    let out = run_in(&dir, &["solve", "--debug-trace", "lockstep.txt"]);
    for wanted in [
        "trace: explain question 1 asks 1 requirement (within 2 SAT calls): the target for plain donuts at (3, 1) receives",
        "trace: explain call 1 proving: sat in ",
        "trace: explain question 1: met by a layout of 3 belts",
        "trace: explain question 2: met by a layout of 2 belts",
    ] {
        assert!(out.contains(wanted), "{wanted:?} missing from:\n{out}");
    }
    let quiet = run_in(&dir, &["solve", "lockstep.txt"]);
    assert!(
        !quiet.contains("trace: explain"),
        "traced without --debug-trace:\n{quiet}"
    );
}

/// The explanation in `solve --json`, without the layouts (which would
/// copy the real level into the snapshot): the core's sentences, and per
/// near-solution the requirement dropped, its belts, and what it meets and
/// misses.
fn digest(json: &serde_json::Value) -> String {
    let texts = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|r| r["text"].as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut lines = vec![
        format!("status: {}", json["status"]),
        format!("claim: {}", json["claim"]),
    ];
    for a in json["level_check"].as_array().into_iter().flatten() {
        lines.push(format!("level check: {}", a["sentence"]));
    }
    lines.push(format!("core (minimal: {}):", json["core_minimal"]));
    lines.extend(texts(&json["core"]).into_iter().map(|t| format!("  {t}")));
    for n in json["near"].as_array().into_iter().flatten() {
        lines.push(format!("near-solution without: {}", n["dropped"]["text"]));
        lines.push(format!("  belts: {}", n["belts"]));
        lines.extend(
            texts(&n["met"])
                .into_iter()
                .map(|t| format!("  meets: {t}")),
        );
        lines.extend(
            texts(&n["missed"])
                .into_iter()
                .map(|t| format!("  misses: {t}")),
        );
    }
    lines.join("\n")
}

/// Every public real level that `solve` proves unsolvable gets a minimal
/// core and a near-solution per requirement of it, each accepted by the
/// simulator as meeting what it claims (`verify` runs on its layout).
/// 04-romantic-twilight/11 is left out: its proof alone takes a minute or
/// more (see docs/unsolvable.md for its explanation).
#[test]
fn solve_explains_the_real_unsolvable_levels() {
    for name in [
        "11-winter-snow/03",
        "12-deepest-midnight/03",
        "12-deepest-midnight/07",
        "12-deepest-midnight/09",
    ] {
        let scratch_name = format!("explain_{}", name.replace('/', "_"));
        let Some(dir) = crate::real_level_in_scratch(&scratch_name, &format!("{name}.txt")) else {
            return;
        };
        // One solver: with racing copies, a call that outlasts the head start
        // may be answered by either, and the near-solutions' layouts (their
        // belts) would vary from run to run. For the same reason no
        // neighbours, in the explanation or in the solve (before a first
        // layout, a rejected one is repaired when its call took 50 ms or more,
        // which a loaded machine can make any call take).
        let args = [
            "solve",
            "--json",
            "--threads",
            "1",
            "--no-focus",
            "--no-neighbourhoods",
            "--explain-neighbours",
            "off",
            "--explain-timeout",
            "600",
            "level.txt",
        ];
        let out = run_in(&dir, &args);
        assert!(out.starts_with("exit: 1"), "{name}: {out}");
        let line = out
            .lines()
            .find(|l| l.starts_with('{'))
            .expect("a JSON line");
        let json: serde_json::Value = serde_json::from_str(line).expect("JSON");
        assert_eq!(json["core_minimal"], true, "{name}");
        // The core's own work is part of the whole explanation's.
        let (all, core) = (&json["explain"], &json["explain"]["core"]);
        for key in ["questions", "sat_calls", "counterexamples"] {
            let (a, c) = (all[key].as_u64(), core[key].as_u64());
            assert!(
                c.is_some() && c <= a,
                "{name}: explain.core.{key} {c:?} against {a:?}"
            );
        }
        assert!(
            core["questions"].as_u64() >= Some(1),
            "{name}: the core asked nothing"
        );
        let near = json["near"].as_array().expect("near-solutions");
        assert!(!near.is_empty(), "{name}: no near-solution");
        for n in near {
            let layout = n["layout"].as_str().expect("a layout");
            std::fs::write(dir.join("near.txt"), layout).expect("write the layout");
            let verdict = run_in(&dir, &["verify", "level.txt", "near.txt"]);
            assert!(
                verdict.starts_with("exit: 1"),
                "{name}: a near-solution solves?\n{verdict}"
            );
        }
        insta::with_settings!({ snapshot_suffix => name.replace('/', "-"), description => name }, {
            insta::assert_snapshot!(digest(&json));
        });
    }
}

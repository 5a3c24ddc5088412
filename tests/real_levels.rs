//! The simulator against the real levels in `../shared/ff-levels`: every known
//! solution verifies, and every judged layout gets its recorded verdict.

mod common;

use frosted::judge::judge;

#[test]
fn every_known_solution_verifies() {
    let Some(root) = common::ff_levels() else {
        return;
    };
    let mut checked = 0;
    for level_path in common::real_levels(&root) {
        let sol = level_path.with_extension("solution.txt");
        if !sol.exists() {
            continue;
        }
        let level = common::load(&level_path);
        let layout = common::load(&sol);
        layout
            .check_layout_of(&level)
            .unwrap_or_else(|e| panic!("{}: {e}", sol.display()));
        let mut layout = layout;
        layout.flags = level.flags.clone();
        let v = judge(&layout);
        assert!(
            v.solved(),
            "{}: {:?} {:?}",
            sol.display(),
            v.reason,
            v.outcome.end
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} solutions found");
}

#[test]
fn every_judged_layout_gets_its_recorded_verdict() {
    let Some(root) = common::ff_levels() else {
        return;
    };
    let judged = root.join("judged");
    let text = std::fs::read_to_string(judged.join("verdicts.jsonl")).expect("verdicts");
    let mut wrong = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        let level = common::load(&root.join(v["level"].as_str().expect("level")));
        let mut layout = common::load(&judged.join(v["layout"].as_str().expect("layout")));
        layout
            .check_layout_of(&level)
            .expect("judged layout fits its level");
        layout.flags = level.flags.clone();
        let verdict = judge(&layout);
        let (solved, failed) = (v["solved"].as_bool(), v["failed"].as_bool());
        if Some(verdict.solved()) != solved || Some(verdict.failed()) != failed {
            wrong.push(format!(
                "{}: recorded solved={solved:?} failed={failed:?}, got solved={} failed={} ({:?}, {:?})",
                v["layout"],
                verdict.solved(),
                verdict.failed(),
                verdict.reason,
                verdict.outcome.end
            ));
        }
        n += 1;
    }
    assert!(n >= 700, "only {n} verdicts");
    assert!(
        wrong.is_empty(),
        "{} of {n} verdicts differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

//! The real levels of `../shared/ce-levels`: every level parses, every known
//! solution solves its level, and every verdict of the independent judge is
//! reproduced.

mod common;

use common::{ce_levels, load, read, real_levels};
use cosmic_express::sim::solves;
use cosmic_express::{judge, parse_track, show_track, simulate};

#[test]
fn every_level_parses_and_draws() {
    let Some(root) = ce_levels() else { return };
    let levels = real_levels(&root);
    assert!(levels.len() >= 27, "found only {} levels", levels.len());
    for path in levels {
        let level = load(&path);
        let picture = cosmic_express::show_level(&level);
        assert_eq!(picture.lines().count() as i32, level.height + 2);
    }
}

#[test]
fn every_known_solution_solves_its_level() {
    let Some(root) = ce_levels() else { return };
    let mut n = 0;
    for level_path in real_levels(&root) {
        let rel = level_path.strip_prefix(&root).expect("under root");
        let sol = root.join("solutions").join(rel.with_extension("path.json"));
        if !sol.is_file() {
            continue;
        }
        let level = load(&level_path);
        let track = parse_track(&level, &read(&sol)).expect("solution parses");
        let v = judge(&level, &track);
        assert!(v.solved, "{}: {}", sol.display(), v.reason);
        assert!(solves(&level, &track));
        // The picture reads back to the same track, and so does the JSON form.
        let picture = show_track(&level, &track);
        assert_eq!(parse_track(&level, &picture).expect("picture"), track);
        let json = track.to_json(Some("x"));
        assert_eq!(parse_track(&level, &json).expect("json"), track);
        n += 1;
    }
    assert!(n >= 15, "only {n} solutions");
}

#[test]
fn every_verdict_of_the_independent_judge_is_reproduced() {
    let Some(root) = ce_levels() else { return };
    let judged = root.join("judged");
    let lines = read(&judged.join("verdicts.jsonl"));
    let mut compared = 0;
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("verdict line");
        let level = load(&root.join(v["level"].as_str().expect("level")));
        let case = judged.join(v["track"].as_str().expect("track"));
        let track = parse_track(&level, &read(&case)).expect("case parses");
        let want = v["solved"].as_bool().expect("solved");
        let reason = v["reason"].as_str().expect("reason");
        let got = judge(&level, &track);
        assert_eq!(
            got.solved,
            want,
            "{}: {reason} / {}",
            case.display(),
            got.reason
        );
        assert_eq!(simulate(&level, &track).solved(), want);
        if let Some(rule) = reason.strip_prefix('T').and_then(|r| r.get(..1)) {
            let broken = simulate(&level, &track).broken.expect("broken");
            assert_eq!(broken.rule().to_string(), rule, "{}", case.display());
            assert!(
                got.reason.starts_with(&format!("T{rule}:")),
                "{}",
                got.reason
            );
        }
        compared += 1;
    }
    eprintln!("compared {compared} verdicts");
    assert!(compared >= 255, "only {compared} verdicts");
}

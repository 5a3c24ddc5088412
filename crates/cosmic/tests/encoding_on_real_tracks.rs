//! The encoding against the independent judge's verdicts: with a valid
//! track's cells and moves fixed, the encoding of its level is satisfiable
//! exactly when the judge says the track solves the level. The run's
//! clauses (one or two cars) neither lose a real solution nor let a
//! failing track through.

mod common;

use cegar::sat::{Answer, Backend, VarisatBackend};
use common::{ce_levels, load, read};
use cosmic_express::encode::Encoding;
use cosmic_express::{check_track, parse_track, Level, Track};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};

/// Whether the encoding of `level` admits exactly `track`.
fn encoding_admits(level: &Level, track: &Track) -> bool {
    let mut vars = BasicVarManager::default();
    let mut cnf = Cnf::new();
    let enc = Encoding::new(level, &mut cnf, &mut vars);
    let mut solver = VarisatBackend::default();
    cnf.iter().for_each(|cl| solver.add_clause(cl));
    let fixed = enc.fixing(&track.0).expect("a valid track");
    let answer = solver.solve(&fixed, vars.n_used(), None);
    matches!(answer, Ok(Answer::Sat(_)))
}

#[test]
fn the_encoding_admits_a_valid_track_exactly_when_the_judge_says_solved() {
    let Some(root) = ce_levels() else { return };
    let judged = root.join("judged");
    let (mut solved, mut failed) = (0, 0);
    for line in read(&judged.join("verdicts.jsonl")).lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let level = load(&root.join(v["level"].as_str().expect("level")));
        let case = judged.join(v["track"].as_str().expect("track"));
        let track = parse_track(&level, &read(&case)).expect("case parses");
        if check_track(&level, &track).is_err() {
            continue;
        }
        let want = v["solved"].as_bool().expect("solved");
        assert_eq!(encoding_admits(&level, &track), want, "{}", case.display());
        if want {
            solved += 1;
        } else {
            failed += 1;
        }
    }
    eprintln!("{solved} solving and {failed} failing valid tracks agree with the judge");
    assert!(solved >= 100 && failed >= 50, "{solved} / {failed}");
}

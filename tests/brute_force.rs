//! Brute force against `solve`: on tiny random levels, trying every layout must
//! agree with the solver on whether the level is solvable and on the fewest belts.
//! This is what backs the claim that `unsolvable` and `optimal` are proofs.

mod common;

use common::tiny::{layouts, random_level, Rng};
use frosted::cegar::{solve, Options, Status};
use frosted::judge::judge;
use frosted::level::Level;

/// The fewest belts of any solving layout, by trying all of them.
fn brute_force(level: &Level) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (layout, belts) in layouts(level) {
        if best.is_some_and(|b| belts >= b) {
            continue;
        }
        if judge(&layout).solved() {
            best = Some(belts);
        }
    }
    best
}

#[test]
fn solve_agrees_with_brute_force_on_tiny_random_levels() {
    let cases = common::cases("FROSTED_BRUTE_CASES", 60);
    let mut rng = Rng::new(0x5eed_1234_abcd_0001);
    let (mut solvable, mut unsolvable) = (0, 0);
    for case in 0..cases {
        let max_free = if case % 10 == 9 { 8 } else { 7 };
        let level = random_level(&mut rng, max_free);
        let expected = brute_force(&level);
        let report = solve(&level, &Options::default(), &mut |_| {}).expect("solve runs");
        let got = match report.status {
            Status::Optimal => report.belts,
            Status::Unsolvable => None,
            other => panic!("case {case}: status {other:?} on\n{level}"),
        };
        assert_eq!(
            got, expected,
            "case {case}: solve says {:?} ({}), brute force says {expected:?}, on\n{level}\nsolver layout:\n{}",
            report.status,
            report.claim,
            report.layout.map(|l| l.to_string()).unwrap_or_default()
        );
        if let Some(l) = &report.layout {
            assert!(judge(l).solved());
        }
        match expected {
            Some(_) => solvable += 1,
            None => unsolvable += 1,
        }
    }
    eprintln!(
        "{cases} tiny levels: {solvable} solvable, {unsolvable} unsolvable; solve agreed on all"
    );
    // The generator must produce both kinds, or the comparison proves little.
    assert!(
        solvable >= cases / 20 && unsolvable >= cases / 20,
        "{solvable} solvable, {unsolvable} unsolvable"
    );
}

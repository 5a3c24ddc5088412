//! Brute force against the explanations of `crates/frosted/src/explain`: on
//! tiny random levels (every layout tried), the level check never fires on
//! a solvable level; a core reported minimal is met by no layout, and each
//! set with one of its requirements removed is met by some layout; and a
//! near-solution meets what it claims, misses what it says it misses, and
//! (when its search was complete) no layout meets what it meets plus any
//! one requirement it misses.
//!
//! `FROSTED_EXPLAIN_CASES` sets how many levels each test draws.

mod common;

use cegar::sat::SolverChoice;
use cegar::xorshift::XorShift;
use common::tiny::{layouts, random_level, Rng};
use freshly_frosted::puzzle::solve_learning;
use frosted::explain::tidy::tidied;
use frosted::explain::walk::{walk, Budget};
use frosted::explain::Witness;
use frosted::explain::{
    explain, explain_after, level_check, requirements, Achieved, ExplainOptions, Explanation,
    Requirement, Trace, Watch, NEIGHBOURS_AFTER, ROUND_CALLS, WALK_RUNS,
};
use frosted::grid::Kind;
use frosted::judge::judge;
use frosted::level::{Accepts, Level, Tile};
use frosted::sim::simulate;
use std::sync::{Arc, Mutex};

/// A tiny random level, with more variety in what targets accept and in
/// `:targets` than `random_level` gives, so that the arguments have
/// something to bite on.
fn varied_level(rng: &mut Rng) -> Level {
    let mut level = random_level(rng, 6);
    if rng.below(2) == 0 {
        return level;
    }
    for c in level.targets().collect::<Vec<_>>() {
        if let Tile::Target { dir, .. } = level.tile(c) {
            if rng.below(4) == 0 {
                let kind = Kind::ALL[rng.below(3)];
                level.tiles[c.index()] = Tile::Target {
                    dir,
                    accepts: Accepts::Only(kind),
                };
            }
        }
    }
    if rng.below(4) == 0 {
        let n = 1 + rng.below(3);
        level.flags.targets = Some((0..n).map(|_| Kind::ALL[rng.below(3)]).collect());
    }
    level
}

/// Per layout whose run does not fail, the requirements it meets. Checks
/// on the way that meeting them all is what the judge calls a solution.
fn met_sets(level: &Level, all: &[Requirement]) -> Vec<Vec<bool>> {
    layouts(level)
        .filter_map(|(layout, _)| {
            let v = judge(&layout);
            let a = Achieved::of(level, &layout, &v.outcome);
            let met: Vec<bool> = all.iter().map(|&r| a.meets(r)).collect();
            let all_met = a.ran && met.iter().all(|&m| m);
            assert_eq!(
                v.solved(),
                all_met,
                "the requirements and the judge disagree:\n{layout}"
            );
            a.ran.then_some(met)
        })
        .collect()
}

/// Whether some layout meets every requirement of `want`.
fn some_layout_meets(sets: &[Vec<bool>], all: &[Requirement], want: &[Requirement]) -> bool {
    let idx: Vec<usize> = want
        .iter()
        .map(|r| {
            all.iter()
                .position(|x| x == r)
                .expect("a requirement of the level")
        })
        .collect();
    sets.iter().any(|s| idx.iter().all(|&i| s[i]))
}

#[test]
fn the_level_check_never_fires_on_a_solvable_tiny_level() {
    let cases = 2 * common::cases("FROSTED_EXPLAIN_CASES", 300);
    let mut rng = Rng::new(0xc0de_cafe_0027_0002);
    let mut fired = std::collections::BTreeMap::new();
    let mut solvable_levels = 0;
    for case in 0..cases {
        let level = varied_level(&mut rng);
        let found = level_check(&level);
        let all = requirements(&level, None);
        let sets = met_sets(&level, &all);
        let solvable = some_layout_meets(&sets, &all, &all);
        solvable_levels += usize::from(solvable);
        // What an argument says cannot hold together holds in no layout's
        // run (the explanation starts its core from it).
        for (a, want) in found
            .iter()
            .filter_map(|a| Some((a, a.impossible.as_ref()?)))
        {
            assert!(
                !some_layout_meets(&sets, &all, want),
                "case {case}: {} named {want:?}, which a layout meets:\n{level}",
                a.name
            );
            *fired.entry("a set of requirements").or_insert(0) += 1;
        }
        assert!(
            !solvable || found.is_empty(),
            "case {case}: {found:?} fired on a solvable level:\n{level}"
        );
        for a in found {
            *fired.entry(a.name).or_insert(0) += 1;
            if a.name == "lockstep" && level.sources().count() > 1 {
                *fired.entry("lockstep, several sources").or_insert(0) += 1;
            }
        }
    }
    eprintln!("{cases} tiny levels, {solvable_levels} solvable (no argument fired on them); arguments fired on the others: {fired:?}");
    // Few tiny random levels are solvable; enough must be for the test to bite.
    assert!(
        solvable_levels >= cases / 25,
        "only {solvable_levels} solvable levels"
    );
    for name in [
        "missing-topper",
        "too-few-sources",
        "unlisted-kind",
        "lockstep",
        "lockstep, several sources",
        "a set of requirements",
    ] {
        assert!(fired.contains_key(name), "{name} never fired: {fired:?}");
    }
}

/// The explanations checked on each unsolvable tiny level: without what a
/// solve learned (one varisat, the core's rounds giving each question one
/// SAT call and then two, so that many wait for a later round, and every
/// rejected layout's neighbours run, however short its SAT call, and no
/// walk), and after a solve, from what it learned (one varisat in one
/// round, and two racing CaDiCaL copies with the command line's rounds;
/// both with the command line's walks and suggested neighbours).
fn explanations(level: &Level) -> Vec<(&'static str, Explanation)> {
    let opts = |solver, threads, round_calls, neighbours_after, walk_runs, watch| ExplainOptions {
        encode: Default::default(),
        solver,
        threads,
        max_belts: None,
        timeout: None,
        search: true,
        round_calls,
        neighbours_after,
        walk_runs,
        watch,
        trace: None,
    };
    let watch = Arc::new(Watch::default());
    let lines = Arc::new(Mutex::new(Vec::new()));
    let kept = lines.clone();
    let traced = ExplainOptions {
        trace: Some(Trace {
            sink: Arc::new(move |line: &str| {
                kept.lock().expect("not poisoned").push(line.to_string())
            }),
            layouts: true,
        }),
        ..opts(
            SolverChoice::Varisat,
            1,
            vec![1, 2],
            Some(0),
            None,
            Some(watch.clone()),
        )
    };
    let alone = explain(level, &traced).expect("explain runs");
    shows_the_final_counts(&watch, &alone);
    traces_every_question_call_and_rejection(&lines.lock().expect("not poisoned"), &alone);
    let mut out = vec![("alone", alone)];
    for (name, solver, threads, rounds) in [
        ("after a solve", SolverChoice::Varisat, 1, Vec::new()),
        (
            "after a solve, racing",
            SolverChoice::Cadical,
            2,
            ROUND_CALLS.to_vec(),
        ),
    ] {
        let solve_opts = cegar::Options {
            solver: solver.clone(),
            threads,
            ..Default::default()
        };
        let (report, learned) =
            solve_learning(level, &solve_opts, &Default::default(), &mut |_| {})
                .expect("solve runs");
        assert_eq!(report.status, cegar::Status::Unsolvable, "{name}:\n{level}");
        let neighbours = Some(NEIGHBOURS_AFTER);
        let e = explain_after(
            level,
            &opts(solver, threads, rounds, neighbours, Some(WALK_RUNS), None),
            &learned,
        )
        .expect("explain runs");
        out.push((name, e));
    }
    out
}

/// The trace has one line per question asked, per SAT call and per
/// rejected layout (followed by the layout), and each question's answer.
fn traces_every_question_call_and_rejection(lines: &[String], e: &Explanation) {
    let count = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    let asked = lines
        .iter()
        .filter(|l| l.starts_with("trace: explain question ") && l.contains(" asks "))
        .count();
    let answered = count("trace: explain question ") - asked;
    assert_eq!(
        (
            asked,
            answered,
            count("trace: explain call "),
            count("trace: explain rejected ")
        ),
        (
            e.work.questions,
            e.work.questions,
            e.work.calls,
            e.work.counterexamples
        ),
        "trace lines: {lines:#?}"
    );
    for l in lines
        .iter()
        .filter(|l| l.starts_with("trace: explain rejected "))
    {
        assert!(l.contains('\n'), "a rejected layout follows its line: {l}");
    }
}

/// The watch (what progress lines read) holds the explanation's counts as
/// of its last SAT call or rejected layout, which are its final counts:
/// that call, or a neighbour of that layout, answered.
fn shows_the_final_counts(watch: &Watch, e: &Explanation) {
    let r = watch.read();
    if e.work.calls == 0 {
        assert_eq!(r.calls, 0, "no SAT call, nothing shown");
        return;
    }
    assert_eq!(
        (r.questions, r.calls, r.counterexamples),
        (e.work.questions, e.work.calls, e.work.counterexamples),
        "the watch's last reading"
    );
}

#[test]
fn cores_and_near_solutions_agree_with_brute_force_on_tiny_levels() {
    let cases = common::cases("FROSTED_EXPLAIN_CASES", 300);
    let mut rng = Rng::new(0xc0de_cafe_0027_0001);
    let (mut checked, mut near, mut put_off, mut neighbours, mut walked) = (0, 0, 0, 0, 0);
    let mut not_asked_again = 0;
    for case in 0..cases {
        let level = varied_level(&mut rng);
        let all = requirements(&level, None);
        let sets = met_sets(&level, &all);
        if some_layout_meets(&sets, &all, &all) {
            continue;
        }
        for (how, e) in explanations(&level) {
            put_off += e.core.as_ref().map_or(0, |c| c.put_off);
            not_asked_again += e.core.as_ref().map_or(0, |c| c.not_asked_again);
            neighbours += e.work.neighbours;
            walked += e.work.walked;
            let case = format!("{case} ({how})");
            near += agrees_with_brute_force(&case, &level, &sets, &all, &e);
        }
        checked += 1;
    }
    eprintln!("{cases} tiny levels: {checked} unsolvable, their cores and {near} near-solutions (three explanations each) agreed with brute force; {put_off} requirements waited for a later round of the core ({not_asked_again} questions not asked again within a round); {neighbours} neighbours of rejected layouts were run; walks made {walked} runs");
    assert!(checked >= cases / 20, "only {checked} unsolvable levels");
    assert!(put_off > 0, "no requirement waited for a later round");
    assert!(neighbours > 0, "no rejected layout's neighbours were run");
    assert!(walked > 0, "no walk was made");
}

/// Checks the explanation `e` of the unsolvable `level` against brute force
/// (`sets`: what each layout meets of `all`); returns its near-solutions.
fn agrees_with_brute_force(
    case: &str,
    level: &Level,
    sets: &[Vec<bool>],
    all: &[Requirement],
    e: &Explanation,
) -> usize {
    let core = e.core.as_ref().expect("an unsolvable level has a core");
    assert!(
        core.minimal,
        "case {case}: no deadline, so the core is minimal"
    );
    let c = &core.requirements;
    assert!(
        !some_layout_meets(sets, all, c),
        "case {case}: {c:?} is met:\n{level}"
    );
    for r in c {
        let rest: Vec<Requirement> = c.iter().copied().filter(|x| x != r).collect();
        assert!(
            some_layout_meets(sets, all, &rest),
            "case {case}: {rest:?} (core {c:?} without {r:?}) is met by no layout:\n{level}"
        );
    }
    for n in &e.near {
        let run = simulate(&n.witness.layout);
        let a = Achieved::of(level, &n.witness.layout, &run);
        assert!(
            n.met.iter().all(|&r| a.meets(r)),
            "case {case}: near misses its claims"
        );
        assert!(
            n.missed.iter().all(|&r| !a.meets(r)),
            "case {case}: near meets a miss"
        );
        assert!(
            n.missed.contains(&n.dropped),
            "case {case}: the dropped one is missed"
        );
        for &m in &n.missed {
            let mut more = n.met.clone();
            more.push(m);
            assert!(
                !some_layout_meets(sets, all, &more),
                "case {case}: {more:?} is met: the near-solution for {:?} was not grown fully:\n{level}",
                n.dropped
            );
        }
    }
    assert_eq!(
        e.near.len(),
        c.len(),
        "case {case}: one near-solution per requirement"
    );
    e.near.len()
}

/// A walk (`explain::walk`) from the run of a tiny level's layout that
/// meets the fewest requirements, asked for what the layout meeting the
/// most meets: every layout it returns meets the question when run again
/// by the judge, every run it hands back did not fail, and it finds most
/// (tiny levels have few cells, so a walk of the default length reaches
/// most layouts).
#[test]
fn a_walk_finds_only_layouts_that_meet_the_question() {
    let cases = common::cases("FROSTED_EXPLAIN_CASES", 300);
    let mut rng = Rng::new(0xc0de_cafe_0027_0002);
    let mut gen = XorShift(0x5eed);
    let (mut asked, mut found) = (0, 0);
    for _ in 0..cases {
        let level = varied_level(&mut rng);
        let all = requirements(&level, None);
        let runs: Vec<Witness> = layouts(&level)
            .map(|(layout, _)| {
                let achieved = Achieved::of(&level, &layout, &simulate(&layout));
                Witness { layout, achieved }
            })
            .filter(|w| w.achieved.ran)
            .collect();
        let met = |w: &Witness| all.iter().filter(|&&r| w.achieved.meets(r)).count();
        let (Some(start), Some(goal)) = (
            runs.iter().min_by_key(|w| met(w)),
            runs.iter().max_by_key(|w| met(w)),
        ) else {
            continue;
        };
        if met(start) == met(goal) {
            continue;
        }
        let question: Vec<Requirement> = all
            .iter()
            .copied()
            .filter(|&r| goal.achieved.meets(r))
            .collect();
        asked += 1;
        let budget = Budget {
            runs: WALK_RUNS,
            deadline: None,
        };
        let walked = walk(
            &level,
            std::slice::from_ref(start),
            &question,
            budget,
            &mut gen,
            |w| assert!(w.achieved.ran, "a failed run handed back:\n{}", w.layout),
        );
        assert!(walked.runs <= WALK_RUNS);
        let Some(w) = walked.found else { continue };
        found += 1;
        let again = Achieved::of(&level, &w.layout, &judge(&w.layout).outcome);
        assert!(
            question.iter().all(|&r| again.meets(r)),
            "the walk's layout misses {question:?}:\n{}",
            w.layout
        );
        w.layout
            .check_layout_of(&level)
            .expect("a layout of the level");
        no_belt_of_the_tidied_layout_can_go(&level, &w, &all);
    }
    eprintln!("{asked} walks asked, {found} found a layout");
    assert!(asked >= cases / 10, "only {asked} walks asked");
    assert!(
        found * 2 > asked,
        "only {found} of {asked} walks found a layout"
    );
}

/// `explain::tidy::tidied` of `w` meets what `w` meets, with at most its
/// belts, and taking away any one belt it kept leaves a run that fails or
/// misses one of those requirements.
fn no_belt_of_the_tidied_layout_can_go(level: &Level, w: &Witness, all: &[Requirement]) {
    let kept: Vec<Requirement> = all
        .iter()
        .copied()
        .filter(|&r| w.achieved.meets(r))
        .collect();
    let t = tidied(level, w, all);
    let again = Achieved::of(level, &t.layout, &judge(&t.layout).outcome);
    assert!(
        again.ran && kept.iter().all(|&r| again.meets(r)),
        "tidied misses:\n{}",
        t.layout
    );
    assert!(t.achieved.belts() <= w.achieved.belts());
    for c in level
        .free_cells()
        .filter(|&c| t.layout.tile(c) != Tile::Empty)
    {
        let fewer = t.layout.with_choice(c, None);
        let a = Achieved::of(level, &fewer, &simulate(&fewer));
        assert!(
            !(a.ran && kept.iter().all(|&r| a.meets(r))),
            "a belt tidy kept can go:\n{}",
            t.layout
        );
    }
}

/// What a walk climbs on (`Achieved::shortfall`) is zero exactly when the
/// requirement is met, for every layout of tiny levels, failed runs too.
#[test]
fn shortfall_is_zero_exactly_when_a_requirement_is_met() {
    let cases = common::cases("FROSTED_EXPLAIN_CASES", 300) / 3;
    let mut rng = Rng::new(0xc0de_cafe_0027_0003);
    let mut counted = 0;
    for _ in 0..cases {
        let level = varied_level(&mut rng);
        let all = requirements(&level, Some(2));
        for (layout, _) in layouts(&level) {
            let a = Achieved::of(&level, &layout, &simulate(&layout));
            for &r in &all {
                assert_eq!(a.shortfall(r) == 0, a.meets(r), "{r:?}:\n{layout}");
                counted += usize::from(a.shortfall(r) > 1);
            }
        }
    }
    eprintln!("{counted} shortfalls above 1");
    assert!(counted > 0, "no `:targets` count was ever more than 1 off");
}

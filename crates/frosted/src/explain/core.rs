//! A minimal core (a set of requirements that no layout meets together,
//! each of which is needed: without any one of them a layout exists), and
//! near-solutions: for each requirement of the core, a layout that meets as
//! many of the others as can hold with that one dropped.

use super::oracle::{Oracle, Verdict, Witness};
use super::tidy::tidied;
use crate::requirement::Requirement;

/// What the deletion asks: the [`Oracle`] in an explanation, a stand-in in the
/// tests of the deletion's bookkeeping.
pub trait Questions {
    /// Can `reqs` hold together? Giving up (`Unknown`) after `calls` SAT
    /// calls, when given ([`Oracle::ask_within`]).
    fn ask_within(&mut self, reqs: &[Requirement], calls: Option<usize>)
        -> Result<Verdict, String>;
    /// A run seen so far that meets `reqs`, if any.
    fn seen_meeting(&self, reqs: &[Requirement]) -> Option<Witness>;
}

impl Questions for Oracle {
    fn ask_within(
        &mut self,
        reqs: &[Requirement],
        calls: Option<usize>,
    ) -> Result<Verdict, String> {
        Oracle::ask_within(self, reqs, calls)
    }

    fn seen_meeting(&self, reqs: &[Requirement]) -> Option<Witness> {
        self.pool().meeting(reqs).cloned()
    }
}

/// What the search for a core found.
pub struct Core {
    /// The requirements, in the level's order.
    pub requirements: Vec<Requirement>,
    /// Whether each was shown needed (a layout meets the others); `false`
    /// where the question ran out of time.
    pub minimal: bool,
    /// Per requirement of the core, a layout meeting the rest of the core
    /// (from the check that it is needed).
    pub without: Vec<(Requirement, Witness)>,
    /// Requirements whose question ran out of its round's SAT calls and
    /// waited for the next round (see [`shrink`]).
    pub put_off: usize,
    /// Questions not asked again because the same set had run out of its
    /// calls already in that round (see [`shrink`]).
    pub not_asked_again: usize,
}

/// The search for a core: `None` when the whole set was not proved
/// impossible (it holds, or time ran out).
pub fn minimal_core(
    oracle: &mut Oracle,
    all: &[Requirement],
    rounds: &[usize],
) -> Result<Option<Core>, String> {
    match oracle.ask(all)? {
        Verdict::Impossible(c) => shrink(oracle, c, rounds).map(Some),
        Verdict::Met(_) | Verdict::Unknown => Ok(None),
    }
}

/// SAT calls a question of the deletion gets in each limited round, in
/// order (the default of [`super::ExplainOptions::round_calls`]; a round
/// without a limit follows): enough for most, while a question whose
/// relaxation is weak (it would reject thousands of layouts one at a time)
/// waits for a later round, when the core may have shrunk around it.
///
/// Until 2026-12-07 there was one round of 8, and these figures are of it.
/// The core of 12-deepest-midnight/03 took 9 344 SAT calls (12 s) in one
/// round, 78 (3 s) with 16 and 322 (4 s) with 64 before the walks
/// ([`super::walk`]), which answer most of its questions that are met; with
/// them, 22 calls (2 s) with 8, 38 with 16 and 134 with 64. That of
/// 04-romantic-twilight/11, whose calls are long proofs, took 81 to 93
/// calls (15 to 16 s) in one round before the walks; with them and the
/// neighbours, 38 to 46 with 8 (16 to 22 s) and 36 to 40 with 64 (14 s).
/// Without the walks, 8 had taken 12-deepest-midnight/03 to 9 707 calls:
/// the round without a limit then still held a met question whose layouts
/// the relaxation proposes one rejection at a time.
///
/// Since 2026-12-07 a round of 2 calls comes before the round of 8: on
/// 12-deepest-midnight/03 the core took 10 to 14 calls against 22 to 24
/// (three runs each), on 04-romantic-twilight/11 32 to 38 (four runs)
/// against 29 to 40, and on the 109 unsolvable variants of
/// `levels/generated/unsolvable.sh` the same 84 minimal cores, 79 of them
/// with at most 5 calls against 78 (1 525 core calls in all against
/// 1 699). It had been tried before (2026-11-29) and not kept, when a
/// question that ran out was still asked again within its round
/// ([`shrink`]).
pub const ROUND_CALLS: [usize; 2] = [2, 8];

/// A minimal core within `core`, a set proved impossible, by deletion:
/// drop a chunk of the requirements not yet shown needed and ask again.
/// Still impossible: the core shrinks to the solver's failed subset
/// (every impossible subset of the core holds every requirement shown
/// needed, so none is lost). Met: with a chunk of one, that requirement is
/// needed (the layout is its witness); with a larger chunk, the chunk is
/// halved. Chunks start at half the core, so a core much smaller than the
/// set it was found in costs a few questions, not one per requirement; a
/// run already seen that meets the core without one requirement shows that
/// one needed at no cost.
///
/// With `rounds` (numbers of SAT calls, [`ROUND_CALLS`] by default), each
/// question first gets the first number of calls; one that runs out is
/// answered as a met one for a larger chunk (halved), and for a chunk of
/// one the requirement is put off. The next round asks the put-off
/// requirements still in the core with the next number of calls, and a
/// last round without a limit (the only one when `rounds` is empty). (What a
/// question learned stays, so nothing is asked twice from scratch; and a
/// question that ran out is not asked again in the same round, when the
/// core has shrunk so that the deletion comes back to the same set: it
/// would only spend its calls again.)
pub fn shrink(
    oracle: &mut impl Questions,
    mut core: Vec<Requirement>,
    rounds: &[usize],
) -> Result<Core, String> {
    let mut needed: Vec<Requirement> = Vec::new();
    let mut put_off: Vec<Requirement> = Vec::new();
    let mut put_off_in_all = 0;
    let mut without = Vec::new();
    let mut minimal = true;
    let mut round = 0;
    let mut calls = rounds.first().copied();
    let mut chunk = core.len().div_ceil(2);
    // The questions that ran out of this round's calls: asked again in it
    // (the core shrank to the same set), they would only spend as many
    // calls again.
    let mut ran_out: Vec<Vec<Requirement>> = Vec::new();
    let mut not_asked_again = 0;
    loop {
        needed_by_the_pool(oracle, &core, &mut needed, &mut without);
        let open: Vec<Requirement> = core
            .iter()
            .copied()
            .filter(|r| !needed.contains(r) && !put_off.contains(r))
            .collect();
        if open.is_empty() {
            if put_off.is_empty() || calls.is_none() {
                break;
            }
            put_off.clear();
            ran_out.clear();
            round += 1;
            calls = rounds.get(round).copied();
            continue;
        }
        let dropped = &open[..chunk.clamp(1, open.len())];
        let trial: Vec<Requirement> = core
            .iter()
            .copied()
            .filter(|r| !dropped.contains(r))
            .collect();
        let limited = calls.is_some();
        let again = limited && ran_out.iter().any(|t| same_set(t, &trial));
        not_asked_again += usize::from(again);
        let verdict = match again {
            true => Verdict::Unknown,
            false => oracle.ask_within(&trial, calls)?,
        };
        if limited && matches!(verdict, Verdict::Unknown) {
            ran_out.push(trial.clone());
        }
        match (verdict, dropped) {
            (Verdict::Impossible(c), _) => core = c,
            (Verdict::Met(w), &[r]) => {
                needed.push(r);
                without.push((r, w));
            }
            (Verdict::Unknown, &[r]) if calls.is_some() => {
                put_off.push(r);
                put_off_in_all += 1;
            }
            (Verdict::Unknown, &[r]) => {
                needed.push(r);
                minimal = false;
            }
            (Verdict::Met(_) | Verdict::Unknown, _) => chunk = dropped.len() / 2,
        }
    }
    Ok(Core {
        requirements: core,
        minimal,
        without,
        put_off: put_off_in_all,
        not_asked_again,
    })
}

/// Whether `a` and `b` hold the same requirements.
fn same_set(a: &[Requirement], b: &[Requirement]) -> bool {
    a.len() == b.len() && a.iter().all(|r| b.contains(r))
}

/// Marks needed each requirement `r` of `core` for which a run seen so far
/// meets the core without `r`, with that run as its witness.
fn needed_by_the_pool(
    oracle: &impl Questions,
    core: &[Requirement],
    needed: &mut Vec<Requirement>,
    without: &mut Vec<(Requirement, Witness)>,
) {
    for &r in core {
        if needed.contains(&r) {
            continue;
        }
        let rest: Vec<Requirement> = core.iter().copied().filter(|&x| x != r).collect();
        if let Some(w) = oracle.seen_meeting(&rest) {
            needed.push(r);
            without.push((r, w));
        }
    }
}

/// A near-solution: a layout the simulator accepted that meets every
/// requirement of `met` and none of `missed`.
pub struct Near {
    /// The requirement of the core that was dropped.
    pub dropped: Requirement,
    pub witness: Witness,
    pub met: Vec<Requirement>,
    pub missed: Vec<Requirement>,
    /// Whether every requirement it misses was asked for with the others
    /// and shown impossible (not cut short by the deadline).
    pub complete: bool,
}

/// For the core's requirement `dropped`, grows the set from the core
/// without it, adding the level's other requirements one at a time (in the
/// level's order) while a layout still meets them all; a requirement the
/// current layout meets already costs no question. The layout is then
/// [`tidied`] (belts no requirement it meets needs are taken away).
pub fn near_solution(
    oracle: &mut Oracle,
    all: &[Requirement],
    core: &Core,
    dropped: Requirement,
) -> Result<Option<Near>, String> {
    let Some((_, start)) = core.without.iter().find(|p| p.0 == dropped) else {
        return Ok(None);
    };
    let mut held: Vec<Requirement> = core
        .requirements
        .iter()
        .copied()
        .filter(|&r| r != dropped)
        .collect();
    let mut witness = start.clone();
    let mut complete = true;
    for &r in all {
        if held.contains(&r) || r == dropped {
            continue;
        }
        if witness.achieved.meets(r) {
            held.push(r);
            continue;
        }
        let mut trial = held.clone();
        trial.push(r);
        match oracle.ask(&trial)? {
            Verdict::Met(w) => {
                witness = w;
                held.push(r);
            }
            Verdict::Impossible(_) => {}
            Verdict::Unknown => complete = false,
        }
    }
    let witness = tidied(oracle.level(), &witness, all);
    let (met, missed) = all.iter().partition(|&&r| witness.achieved.meets(r));
    Ok(Some(Near {
        dropped,
        witness,
        met,
        missed,
        complete,
    }))
}

#[cfg(test)]
mod tests {
    //! The deletion's bookkeeping against a stand-in for the oracle whose
    //! answers are set by hand: one minimal core, and questions that run
    //! out of a round's calls.
    use super::*;
    use crate::requirement::Achieved;
    use crate::sim::simulate;

    /// Requirements as opaque labels (the deletion only compares them).
    fn req(i: usize) -> Requirement {
        Requirement::MaxBelts(i)
    }

    fn set(ids: &[usize]) -> Vec<Requirement> {
        ids.iter().map(|&i| req(i)).collect()
    }

    /// No layout meets a set holding all of `core`; a set that holds it
    /// with more requirements is refuted in one call (its failed subset
    /// is itself), `core` alone only after `hard` calls; any other set is
    /// met in one call, and its run meets that set (`met` holds the sets
    /// the runs seen so far meet, the first known before any question).
    struct StandIn {
        core: Vec<Requirement>,
        hard: usize,
        met: Vec<Vec<Requirement>>,
        asked: Vec<(Vec<Requirement>, Option<usize>)>,
        /// Calls spent so far on the hard question.
        spent_on_core: usize,
    }

    fn witness() -> Witness {
        let level = crate::parse::parse("+> . ->\n").expect("a level");
        let outcome = simulate(&level);
        Witness {
            achieved: Achieved::of(&level, &level, &outcome),
            layout: level,
        }
    }

    impl Questions for StandIn {
        fn ask_within(
            &mut self,
            reqs: &[Requirement],
            calls: Option<usize>,
        ) -> Result<Verdict, String> {
            self.asked.push((reqs.to_vec(), calls));
            if !self.core.iter().all(|r| reqs.contains(r)) {
                self.met.push(reqs.to_vec());
                return Ok(Verdict::Met(witness()));
            }
            if reqs.len() > self.core.len() {
                return Ok(Verdict::Impossible(reqs.to_vec()));
            }
            let left = self.hard - self.spent_on_core;
            match calls {
                Some(n) if n < left => {
                    self.spent_on_core += n;
                    Ok(Verdict::Unknown)
                }
                _ => {
                    self.spent_on_core = self.hard;
                    Ok(Verdict::Impossible(reqs.to_vec()))
                }
            }
        }

        fn seen_meeting(&self, reqs: &[Requirement]) -> Option<Witness> {
            self.met
                .iter()
                .any(|m| reqs.iter().all(|r| m.contains(r)))
                .then(witness)
        }
    }

    /// Eleven requirements (six "sources" 0–5, five "kinds" 6–10), the
    /// core {8, 9, 10} hard to refute (12 calls), and a run known that
    /// meets all but 9: the deletion's first round drops 6 and 7 together
    /// (the hard question runs out), then 6 alone (refuted), and then
    /// would come back to dropping 7, the hard question again.
    fn like_a_level_with_one_hard_question() -> (StandIn, Vec<Requirement>) {
        let all = set(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        let stand_in = StandIn {
            core: set(&[8, 9, 10]),
            hard: 12,
            met: vec![set(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 10])],
            asked: Vec::new(),
            spent_on_core: 0,
        };
        (stand_in, all)
    }

    #[test]
    fn finds_the_minimal_core_past_a_question_that_runs_out() {
        let (mut q, all) = like_a_level_with_one_hard_question();
        let core = shrink(&mut q, all, &[8]).expect("no error");
        assert_eq!(core.requirements, set(&[8, 9, 10]));
        assert!(core.minimal);
        let shown: Vec<Requirement> = core.without.iter().map(|p| p.0).collect();
        assert!(
            same_set(&shown, &core.requirements),
            "each shown needed by a run: {shown:?}"
        );
    }

    #[test]
    fn a_first_round_question_that_ran_out_is_not_asked_again_in_that_round() {
        let (mut q, all) = like_a_level_with_one_hard_question();
        let core = shrink(&mut q, all, &[8]).expect("no error");
        assert_eq!(core.not_asked_again, 1);
        assert!(
            core.put_off >= 1,
            "the hard question waited: {}",
            core.put_off
        );
        let limited: Vec<&Vec<Requirement>> = q
            .asked
            .iter()
            .filter(|(_, calls)| calls.is_some())
            .map(|(s, _)| s)
            .collect();
        for (i, s) in limited.iter().enumerate() {
            assert!(
                !limited[..i].iter().any(|t| same_set(t, s)),
                "{s:?} asked twice in the first round: {:?}",
                q.asked
            );
        }
        let hard_asks = q.asked.iter().filter(|(s, _)| same_set(s, &q.core)).count();
        assert_eq!(hard_asks, 2, "once in each round: {:?}", q.asked);
    }

    #[test]
    fn a_question_that_runs_out_goes_on_round_by_round() {
        let (mut q, all) = like_a_level_with_one_hard_question();
        let core = shrink(&mut q, all, &[2, 8]).expect("no error");
        assert_eq!(core.requirements, set(&[8, 9, 10]));
        assert!(core.minimal);
        let hard: Vec<Option<usize>> = q
            .asked
            .iter()
            .filter(|(s, _)| same_set(s, &q.core))
            .map(|p| p.1)
            .collect();
        assert_eq!(
            hard,
            [Some(2), Some(8), None],
            "2 calls, then 8 more (10 of the 12 it needs), then to the end"
        );
    }

    #[test]
    fn without_rounds_every_question_runs_to_its_end() {
        let (mut q, all) = like_a_level_with_one_hard_question();
        let core = shrink(&mut q, all, &[]).expect("no error");
        assert_eq!(core.requirements, set(&[8, 9, 10]));
        assert!(core.minimal);
        assert_eq!(core.put_off, 0);
        assert!(q.asked.iter().all(|(_, calls)| calls.is_none()));
    }
}

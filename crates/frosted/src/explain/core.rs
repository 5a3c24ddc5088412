//! A minimal core (a set of requirements that no layout meets together,
//! each of which is needed: without any one of them a layout exists), and
//! near-solutions: for each requirement of the core, a layout that meets as
//! many of the others as can hold with that one dropped.

use super::oracle::{Oracle, Verdict, Witness};
use crate::requirement::Requirement;

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
}

/// The search for a core: `None` when the whole set was not proved
/// impossible (it holds, or time ran out).
pub fn minimal_core(oracle: &mut Oracle, all: &[Requirement]) -> Result<Option<Core>, String> {
    match oracle.ask(all)? {
        Verdict::Impossible(c) => shrink(oracle, c).map(Some),
        Verdict::Met(_) | Verdict::Unknown => Ok(None),
    }
}

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
pub fn shrink(oracle: &mut Oracle, mut core: Vec<Requirement>) -> Result<Core, String> {
    let mut needed: Vec<Requirement> = Vec::new();
    let mut without = Vec::new();
    let mut minimal = true;
    let mut chunk = core.len().div_ceil(2);
    loop {
        needed_by_the_pool(oracle, &core, &mut needed, &mut without);
        let open: Vec<Requirement> = core
            .iter()
            .copied()
            .filter(|r| !needed.contains(r))
            .collect();
        if open.is_empty() {
            break;
        }
        let dropped = &open[..chunk.clamp(1, open.len())];
        let trial: Vec<Requirement> = core
            .iter()
            .copied()
            .filter(|r| !dropped.contains(r))
            .collect();
        match (oracle.ask(&trial)?, dropped) {
            (Verdict::Impossible(c), _) => core = c,
            (Verdict::Met(w), &[r]) => {
                needed.push(r);
                without.push((r, w));
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
    })
}

/// Marks needed each requirement `r` of `core` for which a run seen so far
/// meets the core without `r`, with that run as its witness.
fn needed_by_the_pool(
    oracle: &Oracle,
    core: &[Requirement],
    needed: &mut Vec<Requirement>,
    without: &mut Vec<(Requirement, Witness)>,
) {
    for &r in core {
        if needed.contains(&r) {
            continue;
        }
        let rest: Vec<Requirement> = core.iter().copied().filter(|&x| x != r).collect();
        if let Some(w) = oracle.pool().meeting(&rest) {
            needed.push(r);
            without.push((r, w.clone()));
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
/// current layout meets already costs no question.
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
    let (met, missed) = all.iter().partition(|&&r| witness.achieved.meets(r));
    Ok(Some(Near {
        dropped,
        witness,
        met,
        missed,
        complete,
    }))
}

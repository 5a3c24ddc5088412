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
    let mut core = match oracle.ask(all)? {
        Verdict::Impossible(c) => c,
        Verdict::Met(_) | Verdict::Unknown => return Ok(None),
    };
    let mut needed: Vec<Requirement> = Vec::new();
    let mut without = Vec::new();
    let mut minimal = true;
    // Every impossible subset of the core holds every requirement shown
    // needed: so the core may shrink to the solver's failed subset.
    while let Some(&r) = core.iter().find(|r| !needed.contains(r)) {
        let trial: Vec<Requirement> = core.iter().copied().filter(|&x| x != r).collect();
        match oracle.ask(&trial)? {
            Verdict::Impossible(c) => core = c,
            Verdict::Met(w) => {
                needed.push(r);
                without.push((r, w));
            }
            Verdict::Unknown => {
                needed.push(r);
                minimal = false;
            }
        }
    }
    Ok(Some(Core {
        requirements: core,
        minimal,
        without,
    }))
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

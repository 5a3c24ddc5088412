//! What `solve` says about the loop: its report as JSON ([`report_json`]) or
//! as a summary in words ([`summary`]), the progress lines, and the report
//! made from the last progress when the loop is stopped. Every read of the
//! loop's `Report` and `Progress` is here, so that a change to them shows in
//! this module alone.

use super::front::Front;
use super::{EXIT_NO, EXIT_OK, EXIT_UNKNOWN};
use cegar::{Status, Stop};
use serde::Serialize;
use serde_json::Value;
use std::time::{Duration, Instant};

/// The loop's report and progress on a level of the puzzle `F`.
pub type Report<F> = cegar::Report<<F as Front>::Candidate>;
pub type Progress<F> = cegar::Progress<<F as Front>::Candidate>;

/// `solve --json` but for the puzzle's own fields (the cost, the candidate
/// and the proof's bound, named by [`Front`]), which [`report_json`] adds:
/// a JSON object's keys come out in alphabetical order.
#[derive(Serialize)]
struct ReportJson {
    best_seconds: Option<f64>,
    claim: String,
    clauses: usize,
    counterexamples: usize,
    iterations: usize,
    loop_clauses: usize,
    second_view: Option<SecondViewJson>,
    seconds: f64,
    solver: String,
    status: &'static str,
    threads: usize,
    times: TimesJson,
    variables: u32,
}

/// The racing copies' second view of the formula.
#[derive(Serialize)]
struct SecondViewJson {
    clauses: usize,
    eliminated: usize,
    own_variables: u32,
}

/// Where the time went, in seconds.
#[derive(Serialize)]
struct TimesJson {
    chain_bound: f64,
    encode: f64,
    improving: f64,
    proving: f64,
    sat: f64,
    searching: f64,
    simulate: f64,
    sketch: f64,
}

/// The JSON object for a report: the shared fields, then the puzzle's own:
/// the cost (`belts`, `cells`), the candidate (`layout`, `path`), and the
/// proof, null or {"max_belts" (or "max_cells"): K, "by": "sat" or "chain
/// bound"}: no candidate costing at most K (null: any) solves the level;
/// and the bound, null or the same shape: after a stop, what the lower
/// bound proves under the candidate's cost (or, without one, under any).
pub fn report_json<F: Front>(front: &F, r: &Report<F>) -> Value {
    let mut json = serde_json::to_value(shared_json::<F>(r)).unwrap_or_default();
    if let Value::Object(map) = &mut json {
        map.insert(F::COST.into(), serde_json::json!(r.cost));
        let candidate = r.candidate.as_ref().map(|c| front.json(c));
        map.insert(F::CANDIDATE.into(), candidate.unwrap_or(Value::Null));
        let proof_json = |p: &cegar::Proof| serde_json::json!({"by": p.by.name(), format!("max_{}", F::COST): p.max_cost});
        map.insert("proof".into(), r.proof().map_or(Value::Null, proof_json));
        map.insert(
            "bound".into(),
            r.bound.as_ref().map_or(Value::Null, proof_json),
        );
    }
    json
}

/// The fields of `solve --json` that both puzzles have.
fn shared_json<F: Front>(r: &Report<F>) -> ReportJson {
    let t = &r.times;
    ReportJson {
        best_seconds: r.best_at.map(|t| t.as_secs_f64()),
        claim: r.claim_words(&F::NOUNS),
        clauses: r.counts.clauses,
        counterexamples: r.counts.counterexamples,
        iterations: r.counts.iterations,
        loop_clauses: r.counts.lemmas,
        second_view: r.counts.second_view.map(|v| SecondViewJson {
            clauses: v.clauses,
            eliminated: v.eliminated,
            own_variables: v.own_variables,
        }),
        seconds: t.total.as_secs_f64(),
        solver: r.solver.clone(),
        status: r.status.name(),
        threads: r.threads,
        times: TimesJson {
            chain_bound: t.lower_bound.as_secs_f64(),
            encode: t.encode.as_secs_f64(),
            improving: t.improving.as_secs_f64(),
            proving: t.proving.as_secs_f64(),
            sat: t.sat.as_secs_f64(),
            searching: t.searching.as_secs_f64(),
            simulate: t.simulate.as_secs_f64(),
            sketch: t.sketch.as_secs_f64(),
        },
        variables: r.counts.variables,
    }
}

/// The exit code for a report's status.
pub fn exit_code<C>(r: &cegar::Report<C>) -> i32 {
    match r.status {
        Status::Optimal | Status::Solved => EXIT_OK,
        Status::Unsolvable => EXIT_NO,
        Status::Unknown => EXIT_UNKNOWN,
    }
}

/// Whether the loop ended with a proof: `optimal` or `unsolvable`.
pub fn finished_a_proof<C>(r: &cegar::Report<C>) -> bool {
    matches!(r.status, Status::Optimal | Status::Unsolvable)
}

/// The summary's formula line: its size and the solver, or that a timeout
/// came before the encoding was built (a huge board).
fn formula_line<C>(r: &cegar::Report<C>) -> String {
    if r.counts.variables == 0 && r.counts.clauses == 0 && r.status == Status::Unknown {
        return "not built: stopped before the encoding was done".into();
    }
    let solver = match r.counts.second_view {
        None => r.solver_label(),
        Some(v) => format!(
            "{}; the second view: {}{} variables eliminated, {} clauses",
            r.solver_label(),
            match v.own_variables {
                0 => String::new(),
                n => format!("{n} variables of its own, "),
            },
            v.eliminated,
            v.clauses
        ),
    };
    format!(
        "{} variables, {} clauses ({solver})",
        r.counts.variables, r.counts.clauses
    )
}

/// The summary on stderr after the layout (or track): status, claim, belts
/// (or cells), iterations, formula and times.
pub fn summary<F: Front>(r: &Report<F>) -> String {
    let cost = r.cost.map_or("-".to_string(), |b| b.to_string());
    let (t, nouns) = (&r.times, F::NOUNS);
    format!(
        "status: {}\nclaim: {}\n{}: {cost}\niterations: {} ({} counterexamples, {} loop clauses)\nformula: {}\ntime: {:.3}s (encode {:.3}s, sat {:.3}s, simulate {:.3}s, chain bound {:.3}s, sketch {:.3}s)\nsat time: {:.3}s searching, {:.3}s improving, {:.3}s proving; {}",
        r.status.name(),
        r.claim_words(&nouns),
        F::COST,
        r.counts.iterations,
        r.counts.counterexamples,
        r.counts.lemmas,
        formula_line(r),
        t.total.as_secs_f64(),
        t.encode.as_secs_f64(),
        t.sat.as_secs_f64(),
        t.simulate.as_secs_f64(),
        t.lower_bound.as_secs_f64(),
        t.sketch.as_secs_f64(),
        t.searching.as_secs_f64(),
        t.improving.as_secs_f64(),
        t.proving.as_secs_f64(),
        match r.best_at {
            Some(b) => format!("best {} after {:.3}s", nouns.candidate, b.as_secs_f64()),
            None => format!("no {}", nouns.candidate),
        },
    )
}

/// One progress line: where the loop is, and, during a long SAT call, for how
/// long that call has been running.
pub fn progress_line<F: Front>(p: &Progress<F>, running: Option<Duration>) -> String {
    let bound = match p.restarting {
        true => None,
        false => p.bound,
    };
    let mut line = format!(
        "progress: {:.1}s, {} iterations, best {}, {} {}",
        p.elapsed.as_secs_f64() + running.map_or(0.0, |r| r.as_secs_f64()),
        p.counts.iterations,
        p.best.map_or("none".into(), |b| F::NOUNS.cost(b)),
        what_the_call_does(p),
        bound.map_or("any size".into(), |b| format!("<= {}", F::NOUNS.cost(b))),
    );
    if let Some(r) = running.filter(|r| r.as_secs() >= 1) {
        line.push_str(&format!(", SAT call running for {:.1}s", r.as_secs_f64()));
    }
    line
}

/// The words of a progress line for what the call in flight does, before
/// its bound.
fn what_the_call_does<C>(p: &cegar::Progress<C>) -> &'static str {
    if p.restarting {
        "restarting elsewhere, looking for"
    } else if p.improving && p.best.is_none() {
        // Only the repair of a rejected layout frees windows before a
        // first layout is verified.
        "repairing a rejected layout, looking for"
    } else if p.improving && p.descending {
        "improving a restart's layout, looking for"
    } else if p.improving {
        "improving the best, looking for"
    } else if p.proving {
        "proving"
    } else {
        "searching"
    }
}

/// How long the SAT call in flight at `p` has been running, `start` being the
/// solve's start.
pub fn running_call<C>(p: &cegar::Progress<C>, start: Instant) -> Duration {
    start.elapsed().saturating_sub(p.elapsed)
}

/// The report of a loop stopped from outside, made from the best layout it
/// verified and its last progress: the best layout is `solved`, no layout
/// `unknown`.
pub fn stopped_report<F: Front>(
    front: &F,
    solver: String,
    threads: usize,
    start: Instant,
    stop: Stop,
    best: Option<F::Candidate>,
    last: Option<&Progress<F>>,
) -> Report<F> {
    let best = best.map(|c| {
        let cost = front.cost(&c);
        (c, cost)
    });
    cegar::Report::empty(solver, threads).stopped(stop, best, last, start.elapsed())
}

/// A progress report split in two: the layout it brings, if it is a newly
/// verified best one, and the counts (without the layout, to be kept).
pub fn split_progress<C: Clone>(p: &cegar::Progress<C>) -> (Option<C>, cegar::Progress<C>) {
    let counts = cegar::Progress {
        improved: None,
        ..p.clone()
    };
    (p.improved.clone(), counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::front::Frosted;

    /// A progress report with a best of 40 belts, looking for at most `bound`.
    fn progress(bound: usize) -> Progress<Frosted> {
        cegar::Progress {
            elapsed: Duration::from_secs(4),
            counts: cegar::Counts::default(),
            best: Some(40),
            best_at: Some(Duration::from_secs(1)),
            bound: Some(bound),
            proving: true,
            improving: false,
            restarting: false,
            descending: false,
            improved: None,
            times: cegar::Times::default(),
        }
    }

    #[test]
    fn progress_lines_say_what_the_call_looks_for() {
        let line = |p: &Progress<Frosted>| progress_line::<Frosted>(p, None);
        let proving = progress(39);
        assert_eq!(
            line(&proving),
            "progress: 4.0s, 0 iterations, best 40 belts, proving <= 39 belts"
        );
        let window = Progress::<Frosted> {
            improving: true,
            ..progress(39)
        };
        assert!(line(&window).ends_with("improving the best, looking for <= 39 belts"));
        // A restart's call has no bound, whatever the bound it put off.
        let restart = Progress::<Frosted> {
            restarting: true,
            proving: false,
            ..progress(39)
        };
        assert!(line(&restart).ends_with("restarting elsewhere, looking for any size"));
        // Descending from a restart's layout of 45 belts: the bound is its own.
        let descent = Progress::<Frosted> {
            improving: true,
            descending: true,
            ..progress(44)
        };
        assert!(line(&descent)
            .ends_with("best 40 belts, improving a restart's layout, looking for <= 44 belts"));
        // Windows before any layout is verified: the repair of a rejected one.
        let repair = Progress::<Frosted> {
            improving: true,
            proving: false,
            best: None,
            best_at: None,
            bound: None,
            ..progress(39)
        };
        assert!(
            line(&repair).ends_with("best none, repairing a rejected layout, looking for any size")
        );
    }
}

//! Why a Freshly Frosted level has no solution: `frosted check LEVEL` (the
//! plain arguments of the level check), and after an `unsolvable` verdict
//! of `solve`, the core of requirements and the near-solutions
//! (`freshly_frosted::explain`), in words on stderr or in `--json`.

use super::solve::PROGRESS_EVERY;
use super::{load_level, out, out_json, CliError, EXIT_NO, EXIT_OK};
use crate::explain::{
    explain, explain_after, level_check, Argument, ExplainOptions, Explanation, Learned, Near,
    Reading, Requirement, Work,
};
use crate::grid::CellId;
use crate::level::Level;
use freshly_frosted::requirement::count_of;
use itertools::Itertools;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The Freshly Frosted level file.
    pub level: PathBuf,
    /// Print {"impossible": BOOL, "arguments": [{"argument": NAME, "sentence": TEXT}]}.
    #[arg(long)]
    pub json: bool,
}

/// `frosted check`: exit 1 when a plain argument proves the level
/// impossible, 0 when none applies (which proves nothing either way).
pub fn check(a: CheckArgs) -> Result<i32, CliError> {
    let level = load_level(&a.level)?;
    let found = level_check(&level);
    if a.json {
        out_json(&json!({"impossible": !found.is_empty(), "arguments": arguments_json(&found)}))?;
    } else if found.is_empty() {
        out("no plain argument applies (this proves nothing: `frosted solve` decides)\n")?;
    } else {
        for arg in &found {
            out(&format!("impossible ({}): {}\n", arg.name, arg.sentence))?;
        }
    }
    Ok(if found.is_empty() { EXIT_OK } else { EXIT_NO })
}

fn arguments_json(found: &[Argument]) -> Value {
    found
        .iter()
        .map(|a| json!({"argument": a.name, "sentence": a.sentence}))
        .collect()
}

/// The explanation of an unsolvable level, computed with `opts`, from
/// what its solve learned when that was kept.
pub fn explanation(
    level: &Level,
    opts: &ExplainOptions,
    learned: Option<&Learned>,
) -> Result<Explanation, String> {
    match learned {
        Some(learned) => explain_after(level, opts, learned),
        None => explain(level, opts),
    }
}

/// Runs `work` (an explanation with `opts`) while another thread prints a
/// progress line every [`PROGRESS_EVERY`] from `opts.watch`: how long it
/// has run, the question it is on and its counts.
pub fn with_progress_lines<T>(opts: &ExplainOptions, work: impl FnOnce() -> T) -> T {
    let Some(watch) = opts.watch.clone() else {
        return work();
    };
    // The printer waits on a channel that the work closes when it ends,
    // so that it stops at once (a fast explanation is not kept waiting).
    let (done, wait) = mpsc::channel::<()>();
    let start = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut first = true;
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(PROGRESS_EVERY) {
                note!("{}", progress_line(start.elapsed(), watch.read(), first));
                first = false;
            }
        });
        let out = work();
        drop(done);
        out
    })
}

/// One progress line of an explanation (`progress:` like the solve's, so
/// that scripts and the tests treat both alike); the `first` one says that
/// the verdict is in and how to cut the explanation short.
fn progress_line(elapsed: Duration, r: Reading, first: bool) -> String {
    let hint = match first {
        true => {
            " (the level is proved unsolvable; --explain-timeout caps this, --no-explain skips it)"
        }
        false => "",
    };
    format!(
        "progress: explaining for {:.1}s, question {} ({} requirements), {} SAT calls, {} rejected layouts{hint}",
        elapsed.as_secs_f64(),
        r.questions,
        r.asking,
        r.calls,
        r.counterexamples
    )
}

fn cell(level: &Level, c: CellId) -> Value {
    let p = level.pos(c);
    json!([p.x, p.y])
}

/// A requirement as JSON: its type, its cell or kind, and its sentence.
fn requirement_json(level: &Level, r: Requirement) -> Value {
    let text = r.words(level);
    match r {
        Requirement::SourceDelivers(s) => {
            json!({"requirement": "source_delivers", "cell": cell(level, s), "text": text})
        }
        Requirement::TargetReceives(t) => {
            json!({"requirement": "target_receives", "cell": cell(level, t), "text": text})
        }
        Requirement::TargetsKind { kind, count } => json!({"requirement": "targets_kind",
            "kind": kind.name(), "code": kind.target_code(), "count": count, "text": text}),
        Requirement::TargetsOthers => json!({"requirement": "targets_others", "text": text}),
        Requirement::MaxBelts(k) => json!({"requirement": "max_belts", "belts": k, "text": text}),
    }
}

fn requirements_json(level: &Level, rs: &[Requirement]) -> Value {
    rs.iter().map(|&r| requirement_json(level, r)).collect()
}

fn near_json(level: &Level, n: &Near) -> Value {
    let deliveries: Value = n
        .witness
        .achieved
        .deliveries
        .iter()
        .map(|&(t, s, k)| {
            json!({"target": cell(level, t), "source": cell(level, s), "kind": k.name(), "code": k.target_code()})
        })
        .collect();
    json!({
        "dropped": requirement_json(level, n.dropped),
        "layout": n.witness.layout.to_string(),
        "belts": n.witness.achieved.belts(),
        "deliveries": deliveries,
        "met": requirements_json(level, &n.met),
        "missed": requirements_json(level, &n.missed),
        "complete": n.complete,
    })
}

/// The fields `solve --json` gains after an `unsolvable` verdict:
/// "level_check", "core" (null when not found in time), "core_minimal",
/// "near", and "explain" (its questions, SAT calls, rejected layouts and
/// seconds, and in "core" those of the core alone).
pub fn explanation_json(level: &Level, e: &Explanation) -> Vec<(&'static str, Value)> {
    if !e.searched {
        return vec![("level_check", arguments_json(&e.arguments))];
    }
    vec![
        ("level_check", arguments_json(&e.arguments)),
        (
            "core",
            e.core
                .as_ref()
                .map_or(Value::Null, |c| requirements_json(level, &c.requirements)),
        ),
        ("core_minimal", json!(e.core.as_ref().map(|c| c.minimal))),
        ("near", e.near.iter().map(|n| near_json(level, n)).collect()),
        ("explain", {
            let mut all = work_json(&e.work);
            all["core"] = work_json(&e.core_work);
            all
        }),
    ]
}

/// The work of part of an explanation as JSON.
fn work_json(w: &Work) -> Value {
    json!({"questions": w.questions, "sat_calls": w.calls,
        "counterexamples": w.counterexamples, "neighbours": w.neighbours, "walked": w.walked,
        "seconds": w.time.as_secs_f64()})
}

/// "no layout makes all of these hold: A; B; C".
fn core_sentence(level: &Level, rs: &[Requirement]) -> String {
    if rs.is_empty() {
        return "every layout's run fails (rules §5, condition 1), whatever else is asked".into();
    }
    let how = match rs.len() {
        1 => "this hold",
        2 => "both of these hold",
        _ => "all of these hold",
    };
    let list = rs.iter().map(|r| r.words(level)).join("; ");
    format!("no layout makes {how}: {list}")
}

/// The deliveries of a near-solution in words.
fn deliveries_words(level: &Level, n: &Near) -> String {
    let d = &n.witness.achieved.deliveries;
    if d.is_empty() {
        return "none".into();
    }
    d.iter()
        .map(|&(t, s, k)| format!("{} from {} to {}", k.name(), level.pos(s), level.pos(t)))
        .join(", ")
}

/// Requirements in words, `; ` between them, or "nothing".
fn listed(level: &Level, rs: &[Requirement]) -> String {
    match rs.is_empty() {
        true => "nothing".into(),
        false => rs.iter().map(|r| r.words(level)).join("; "),
    }
}

/// The explanation in words, for stderr after the summary.
pub fn explanation_text(level: &Level, e: &Explanation) -> String {
    let mut lines = Vec::new();
    for a in &e.arguments {
        lines.push(format!("level check ({}): {}", a.name, a.sentence));
    }
    if !e.searched {
        return lines.join("\n");
    }
    match &e.core {
        None => lines.push("core: not found in time".into()),
        Some(c) => {
            lines.push(format!("core: {}", core_sentence(level, &c.requirements)));
            if !c.minimal {
                lines.push("core: not shown minimal (a question ran out of time)".into());
            }
        }
    }
    for n in &e.near {
        lines.push(format!(
            "near-solution without \"{}\" (NOT a solution; verified by the simulator): {}; delivers {}",
            n.dropped.words(level),
            count_of(n.witness.achieved.belts(), "belt", "belts"),
            deliveries_words(level, n)
        ));
        lines.push(format!("  meets: {}", listed(level, &n.met)));
        lines.push(format!("  misses: {}", listed(level, &n.missed)));
        let layout = n.witness.layout.to_string();
        lines.extend(layout.lines().map(|l| format!("  | {l}")));
    }
    let (all, core) = (&e.work, &e.core_work);
    lines.push(format!(
        "explain: {}, {}, {}, {}, {} (the core: {}, {}), {:.3}s",
        count_of(all.questions, "question", "questions"),
        count_of(all.calls, "SAT call", "SAT calls"),
        count_of(all.counterexamples, "rejected layout", "rejected layouts"),
        count_of(all.neighbours, "neighbour run", "neighbours run"),
        count_of(all.walked, "run walked", "runs walked"),
        count_of(core.questions, "question", "questions"),
        count_of(core.calls, "SAT call", "SAT calls"),
        all.time.as_secs_f64()
    ));
    lines.join("\n")
}

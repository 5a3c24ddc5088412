//! `frosted verify`: judge a layout and say precisely why it does or does not solve
//! its level.

use super::{load_pair, out, CliError, EXIT_NO, EXIT_OK};
use crate::grid::{CellId, Kind};
use crate::judge::{describe_end, explain, judge, Verdict};
use crate::level::Level;
use crate::sim::End;
use serde_json::{json, Value};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file.
    pub level: PathBuf,
    /// The layout: the level with belts written on some `.` cells (`-`: read it
    /// from stdin, e.g. `frosted solve LEVEL | frosted verify LEVEL -`). Defaults
    /// to the level file itself (its preset belts are then the layout). The
    /// rules' flags (`:targets`, `:tickwise`, ...) are the level's: flag lines
    /// in the layout file must parse, but they do not count.
    pub layout: Option<PathBuf>,
    /// Print one JSON object: {"solved", "reason", "ticks", "end", "belts", "deliveries"}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<i32, CliError> {
    let (level, layout) = load_pair(&args.level, args.layout.as_ref())?;
    let verdict = judge(&layout);
    if args.json {
        out(&format!("{}\n", verdict_json(&level, &layout, &verdict)))?;
    } else {
        out(&verdict_text(&level, &layout, &verdict))?;
    }
    Ok(if verdict.solved() { EXIT_OK } else { EXIT_NO })
}

fn xy(level: &Level, c: CellId) -> Value {
    let p = level.pos(c);
    json!([p.x, p.y])
}

fn kind_code(k: Kind) -> Value {
    json!(k.target_code().parse::<u32>().unwrap_or(0))
}

/// The JSON form of a verdict.
pub fn verdict_json(level: &Level, layout: &Level, v: &Verdict) -> Value {
    let end = match v.outcome.end {
        End::Steady { tick, period } => json!({"kind": "steady", "tick": tick, "period": period}),
        End::Stranded { tick, cell, donut } => json!({
            "kind": "stranded", "tick": tick, "cell": xy(level, cell),
            "donut": {"kind": kind_code(donut.kind), "origin": xy(level, donut.origin)}
        }),
        End::Failed { tick, failure } => json!({
            "kind": "failed", "tick": tick, "cell": xy(level, failure.cell()),
        }),
        End::TickLimit { tick } => json!({"kind": "tick-limit", "tick": tick}),
    };
    let deliveries: Vec<Value> = v
        .outcome
        .deliveries
        .iter()
        .map(|d| {
            json!({
                "target": xy(level, d.target),
                "origin": xy(level, d.origin),
                "kind": kind_code(d.kind),
                "tick": d.tick,
            })
        })
        .collect();
    json!({
        "solved": v.solved(),
        "reason": v.reason.as_ref().map(|r| explain(layout, r, &v.outcome)),
        "ticks": v.outcome.end.tick(),
        "end": end,
        "belts": layout.added_belts(level),
        "deliveries": deliveries,
    })
}

/// The human form of a verdict.
pub fn verdict_text(level: &Level, layout: &Level, v: &Verdict) -> String {
    let mut out = String::new();
    match &v.reason {
        None => {
            let sources = level.sources().count();
            let targets = level.targets().count();
            let belts = crate::cegar::belts(layout.added_belts(level));
            out.push_str(&format!(
                "solved: every source delivered ({sources}) and every target received ({targets}), with {belts} placed\n",
            ));
        }
        Some(r) => out.push_str(&format!("not solved: {}\n", explain(layout, r, &v.outcome))),
    }
    out.push_str(&format!("run: {}\n", describe_end(layout, &v.outcome.end)));
    if v.outcome.deliveries.is_empty() {
        out.push_str("deliveries: none\n");
    } else {
        out.push_str("deliveries (target <- kind from source, first tick):\n");
        for d in &v.outcome.deliveries {
            let (t, o) = (level.pos(d.target), level.pos(d.origin));
            out.push_str(&format!(
                "  {t} <- {} (code {}) from {o}, tick {}\n",
                d.kind,
                d.kind.target_code(),
                d.tick
            ));
        }
    }
    out
}

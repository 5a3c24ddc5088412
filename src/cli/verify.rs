//! `frosted verify`: judge a layout and say precisely why it does or does not solve
//! its level.

use super::puzzle::PuzzleFlag;
use super::{cosmic, load_pair, out, out_json, CliError, EXIT_NO, EXIT_OK};
use crate::grid::{CellId, Kind};
use crate::judge::{describe_end, explain, judge, Verdict};
use crate::level::Level;
use crate::sim::End;
use serde::Serialize;
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
    ///
    /// Cosmic Express: the track (required), in either form of the rules' §7:
    /// the JSON object with a "path", or the text grid with arrows.
    pub layout: Option<PathBuf>,
    #[command(flatten)]
    pub puzzle: PuzzleFlag,
    /// Print one JSON object: {"solved", "reason", "ticks", "end", "belts", "deliveries"}.
    /// Cosmic Express: {"solved", "reason", "broken" ("T1" to "T6" or null),
    /// "cells", "boarded", "delivered", "level"}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<i32, CliError> {
    if args.puzzle.is_cosmic(&args.level) {
        return cosmic::verify(&args.level, args.layout.as_deref(), args.json);
    }
    let (level, layout) = load_pair(&args.level, args.layout.as_ref())?;
    let verdict = judge(&layout);
    if args.json {
        out_json(&verdict_json(&level, &layout, &verdict))?;
    } else {
        out(&verdict_text(&level, &layout, &verdict))?;
    }
    Ok(if verdict.solved() { EXIT_OK } else { EXIT_NO })
}

/// A cell as `[x, y]`.
fn xy(level: &Level, c: CellId) -> [usize; 2] {
    let p = level.pos(c);
    [p.x, p.y]
}

/// A donut kind as its target code (0 plain, 1 frosted, ...).
fn kind_code(k: Kind) -> u32 {
    k.target_code().parse::<u32>().unwrap_or(0)
}

/// `verify --json`: the fields in the order of the output (alphabetical, as
/// `serde_json::json!` printed them before).
#[derive(Serialize)]
pub struct VerdictJson {
    belts: usize,
    deliveries: Vec<DeliveryJson>,
    end: EndJson,
    reason: Option<String>,
    solved: bool,
    ticks: u32,
}

/// One delivery: which target got which kind from which source, first when.
#[derive(Serialize)]
struct DeliveryJson {
    kind: u32,
    origin: [usize; 2],
    target: [usize; 2],
    tick: u32,
}

/// How the run ended: `kind` is "steady", "stranded", "failed" or
/// "tick-limit"; the other fields are there for the kinds they describe.
#[derive(Serialize)]
struct EndJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    cell: Option<[usize; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    donut: Option<DonutJson>,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<u32>,
    tick: u32,
}

/// A stranded donut: its kind and its source.
#[derive(Serialize)]
struct DonutJson {
    kind: u32,
    origin: [usize; 2],
}

impl EndJson {
    /// An end of this kind at `tick`, with nothing else to say.
    fn at(kind: &'static str, tick: u32) -> EndJson {
        EndJson {
            cell: None,
            donut: None,
            kind,
            period: None,
            tick,
        }
    }

    fn of(level: &Level, end: &End) -> EndJson {
        match *end {
            End::Steady { tick, period } => EndJson {
                period: Some(period),
                ..EndJson::at("steady", tick)
            },
            End::Stranded { tick, cell, donut } => EndJson {
                cell: Some(xy(level, cell)),
                donut: Some(DonutJson {
                    kind: kind_code(donut.kind),
                    origin: xy(level, donut.origin),
                }),
                ..EndJson::at("stranded", tick)
            },
            End::Failed { tick, failure } => EndJson {
                cell: Some(xy(level, failure.cell())),
                ..EndJson::at("failed", tick)
            },
            End::TickLimit { tick } => EndJson::at("tick-limit", tick),
        }
    }
}

/// The JSON form of a verdict.
pub fn verdict_json(level: &Level, layout: &Level, v: &Verdict) -> VerdictJson {
    let deliveries = v
        .outcome
        .deliveries
        .iter()
        .map(|d| DeliveryJson {
            kind: kind_code(d.kind),
            origin: xy(level, d.origin),
            target: xy(level, d.target),
            tick: d.tick,
        })
        .collect();
    VerdictJson {
        belts: layout.added_belts(level),
        deliveries,
        end: EndJson::of(level, &v.outcome.end),
        reason: v.reason.as_ref().map(|r| explain(layout, r, &v.outcome)),
        solved: v.solved(),
        ticks: v.outcome.end.tick(),
    }
}

/// The human form of a verdict.
pub fn verdict_text(level: &Level, layout: &Level, v: &Verdict) -> String {
    let mut out = String::new();
    match &v.reason {
        None => {
            let sources = level.sources().count();
            let targets = level.targets().count();
            let belts = freshly_frosted::puzzle::NOUNS.cost(layout.added_belts(level));
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

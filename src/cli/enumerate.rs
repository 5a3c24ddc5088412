//! `frosted solve --all` and `--count`: every distinct minimal layout (or
//! every one with at most `--max-belts` belts), each verified by the
//! simulator; layouts that differ only on cells no donut visits count once.

use super::puzzle::Puzzle;
use super::solve::Args;
use super::{load_level, out, out_json, CliError, EXIT_NO, EXIT_OK, EXIT_UNKNOWN};
use cegar::{EnumEnd, Enumeration};
use freshly_frosted::level::Level;

/// Runs the enumeration `a` asks for and prints it.
pub fn run(a: &Args) -> Result<i32, CliError> {
    if Puzzle::of_file(&a.level, a.puzzle.puzzle) == Puzzle::Cosmic {
        return Err(CliError::bad_input(
            "--all and --count are for Freshly Frosted levels only",
        ));
    }
    if a.first {
        return Err(CliError::bad_input(
            "--first cannot go with --all or --count",
        ));
    }
    if a.limit == Some(0) {
        return Err(CliError::bad_input("--limit must be at least 1"));
    }
    let level = load_level(&a.level)?;
    let settings = super::solve::settings(a)?;
    let mut printed = 0usize;
    let print_each = a.all && !a.count && !a.json;
    // The first layout that could not be written: reported after the run.
    let mut failed: Option<CliError> = None;
    let mut found = |layout: &Level| {
        if print_each && failed.is_none() {
            let sep = if printed == 0 { "" } else { "\n" };
            failed = out(&format!("{sep}{layout}")).err();
            printed += 1;
        }
    };
    let e = freshly_frosted::puzzle::enumerate(
        &level,
        &settings.opts,
        &settings.encode,
        a.limit,
        &mut |_| {},
        &mut found,
    )
    .map_err(CliError::bad_input)?;
    if let Some(e) = failed {
        return Err(e);
    }
    let line = count_line(&e, a.max.max_belts.is_some());
    if a.json {
        out_json(&json(&e, a.all))?;
    } else if a.count {
        out(&format!("{line}\n"))?;
    } else {
        note!("{line}");
    }
    Ok(exit_code(&e))
}

/// 0 with at least one layout (a complete count, or stopped at --limit),
/// 1 when none exists (proved), 3 when the deadline came first.
fn exit_code(e: &Enumeration<Level>) -> i32 {
    match (e.end, e.solutions.len()) {
        (EnumEnd::Complete, 0) => EXIT_NO,
        (EnumEnd::TimedOut, _) => EXIT_UNKNOWN,
        _ => EXIT_OK,
    }
}

/// `3 layouts with 7 belts (complete)`, `at least 5 layouts ... (stopped at
/// --limit)`, `at least 2 ... (timed out)`: the number first.
pub fn count_line(e: &Enumeration<Level>, bounded: bool) -> String {
    let n = e.solutions.len();
    let layouts = if n == 1 { "layout" } else { "layouts" };
    let belts = match (e.bound, bounded) {
        (Some(k), true) => format!(" with at most {k} belts"),
        (Some(k), false) => format!(" with {k} belts (the fewest)"),
        (None, _) => String::new(),
    };
    match e.end {
        EnumEnd::Complete if e.bound.is_none() => {
            "0 layouts (complete: the level is unsolvable)".to_string()
        }
        EnumEnd::Complete => format!("{n} {layouts}{belts} (complete)"),
        EnumEnd::Limit => format!("at least {n} {layouts}{belts} (stopped at --limit)"),
        EnumEnd::TimedOut if e.bound.is_none() => {
            "at least 0 layouts (timed out before the fewest belts were proved)".to_string()
        }
        EnumEnd::TimedOut => format!("at least {n} {layouts}{belts} (timed out)"),
    }
}

/// The `--json` object.
fn json(e: &Enumeration<Level>, all: bool) -> serde_json::Value {
    let end = match e.end {
        EnumEnd::Complete => "complete",
        EnumEnd::Limit => "limit",
        EnumEnd::TimedOut => "timeout",
    };
    let mut v = serde_json::json!({
        "count": e.solutions.len(),
        "complete": e.end == EnumEnd::Complete,
        "end": end,
        "belts": e.bound,
        "seconds": e.report.times.total.as_secs_f64(),
    });
    if all {
        let layouts: Vec<String> = e.solutions.iter().map(|l| l.to_string()).collect();
        v["layouts"] = serde_json::json!(layouts);
    }
    v
}

/// Whether `solve`'s arguments ask for an enumeration.
pub fn asked(a: &Args) -> bool {
    a.all || a.count
}

//! `verify`, `show` and `simulate` on a Cosmic Express level: the judge's
//! verdict (rules §7.3), the text grid (§7.2), and the train's run moment by
//! moment (§4).

use super::puzzle::{load_ce_level, load_ce_pair, CeLevel};
use super::{out, out_json, CliError, EXIT_NO, EXIT_OK};
use cosmic_express::sim::{check_track, Train};
use cosmic_express::{judge, simulate, Entity, Event, Level, Point, Track, Verdict};
use serde::Serialize;
use std::path::Path;

/// `verify --json` for Cosmic Express: the judge's two fields of §7.3, and
/// what the run did. The fields are in the order of the output.
#[derive(Serialize)]
struct VerdictJson {
    /// Boardings during the run.
    boarded: usize,
    /// The rule of §3 the track breaks ("T1" to "T6"), or null.
    broken: Option<String>,
    /// The track's cells, entrance and exit included.
    cells: usize,
    /// Deliveries during the run.
    delivered: usize,
    level: String,
    reason: String,
    solved: bool,
}

/// The level and the track `command` needs: without a track, the level is
/// still read (a level that does not parse says so first).
pub(super) fn load_with_track(
    level: &Path,
    track: Option<&Path>,
    command: &str,
) -> Result<(CeLevel, Track), CliError> {
    let Some(track) = track else {
        load_ce_level(level)?;
        return Err(CliError::bad_input(format!(
            "a Cosmic Express level has no track of its own: give the track file too \
             (`frosted {command} LEVEL TRACK`)"
        )));
    };
    load_ce_pair(level, track)
}

/// `frosted verify LEVEL TRACK` on a Cosmic Express level.
pub fn verify(level: &Path, track: Option<&Path>, json: bool) -> Result<i32, CliError> {
    let (lv, track) = load_with_track(level, track, "verify")?;
    let verdict = judge(&lv.level, &track);
    if json {
        let outcome = simulate(&lv.level, &track);
        let count = |is: fn(&Event) -> bool| outcome.events.iter().filter(|e| is(e)).count();
        out_json(&VerdictJson {
            boarded: count(|e| matches!(e, Event::Boarded { .. })),
            broken: outcome.broken.map(|b| format!("T{}", b.rule())),
            cells: track.0.len(),
            delivered: count(|e| matches!(e, Event::Delivered { .. })),
            level: lv.name.clone(),
            reason: verdict.reason.clone(),
            solved: verdict.solved,
        })?;
    } else {
        out(&verdict_text(&verdict))?;
    }
    Ok(if verdict.solved { EXIT_OK } else { EXIT_NO })
}

/// The verdict in words: `solved: REASON` or `not solved: REASON`.
fn verdict_text(v: &Verdict) -> String {
    match v.solved {
        true => format!("solved: {}\n", v.reason),
        false => format!("not solved: {}\n", v.reason),
    }
}

/// `frosted show LEVEL [TRACK]`: the text grid of §7.2, with the track drawn
/// when one is given.
pub fn show(level: &Path, track: Option<&Path>) -> Result<i32, CliError> {
    let text = match track {
        None => cosmic_express::show_level(&load_ce_level(level)?.level),
        Some(t) => {
            let (lv, track) = load_ce_pair(level, t)?;
            cosmic_express::show_track(&lv.level, &track)
        }
    };
    out(&text)?;
    Ok(EXIT_OK)
}

/// "the orange alien at (2,2)", "the purple house at (6,6)".
fn entity_name(level: &Level, i: usize) -> String {
    let (p, e) = level.entities[i];
    match e {
        Entity::Alien(c) => format!("the {} alien at {p}", c.lower()),
        Entity::House(c) => format!("the {} house at {p}", c.lower()),
        Entity::Wall => format!("the wall at {p}"),
    }
}

/// One event of the run, in words.
fn event_line(level: &Level, e: &Event) -> String {
    match e {
        Event::Boarded {
            car, cell, alien, ..
        } => format!(
            "  {} boards car {car} on {cell}",
            entity_name(level, *alien)
        ),
        Event::Delivered {
            car, cell, house, ..
        } => format!(
            "  car {car} on {cell} delivers to {}",
            entity_name(level, *house)
        ),
        Event::Tie {
            car, cell, aliens, ..
        } => {
            let names: Vec<String> = aliens.iter().map(|&a| entity_name(level, a)).collect();
            format!(
                "  tie: car {car} on {cell} is next to {}: nobody boards",
                names.join(" and ")
            )
        }
    }
}

/// Where the engine and each car handled at moment `t` stand, and what each
/// car holds after it: `moment 3: engine (3,4); car 0 (2,4) orange alien`.
fn moment_line(path: &[Point], t: usize, train: &Train) -> String {
    let mut line = format!("moment {t}: engine on {}", path[t]);
    for (i, car) in train.cars().iter().enumerate() {
        let Some(cell) = t.checked_sub(1 + i).and_then(|k| path.get(k)) else {
            break;
        };
        let holds = match car.holds {
            Some((_, c)) => format!("{} alien", c.lower()),
            None => "empty".to_string(),
        };
        let goop = if car.gooped { ", gooped" } else { "" };
        line.push_str(&format!("; car {i} on {cell}: {holds}{goop}"));
    }
    line.push('\n');
    line
}

/// The run of a valid track, moment by moment, up to `limit` moments.
fn run_text(lv: &CeLevel, track: &Track, limit: Option<usize>) -> String {
    let (level, path) = (&lv.level, &track.0);
    let mut train = Train::new(level);
    let mut events = Vec::new();
    let mut text = String::new();
    let last = path.len().saturating_sub(2);
    text.push_str("each moment: the engine's cell, and each handled car's cell and what it holds after the moment\n");
    for t in 1..=last {
        if limit.is_some_and(|n| t > n) {
            text.push_str(&format!(
                "stopped after moment {} (--ticks); the verdict is on the whole run:\n",
                t - 1
            ));
            return text;
        }
        events.clear();
        train.moment(level, path, t, &mut events);
        text.push_str(&moment_line(path, t, &train));
        for e in &events {
            text.push_str(&event_line(level, e));
            text.push('\n');
        }
    }
    let left = |v: &[usize]| -> String {
        let names: Vec<String> = v.iter().map(|&i| entity_name(level, i)).collect();
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    };
    text.push_str(&format!(
        "after moment {last}: aliens waiting: {}; houses not served: {}\n",
        left(train.remaining_aliens()),
        left(train.remaining_houses())
    ));
    text
}

/// `frosted simulate LEVEL TRACK` on a Cosmic Express level: the track drawn,
/// the run moment by moment, then the verdict. Exit 0 whatever the verdict.
pub fn simulate_run(
    level: &Path,
    track: Option<&Path>,
    ticks: Option<u32>,
) -> Result<i32, CliError> {
    let (lv, track) = load_with_track(level, track, "simulate")?;
    let mut text = cosmic_express::show_track(&lv.level, &track);
    text.push_str(&format!(
        "{} cells, {} car{}\n\n",
        track.0.len(),
        lv.level.length,
        if lv.level.length == 1 { "" } else { "s" }
    ));
    if check_track(&lv.level, &track).is_ok() {
        text.push_str(&run_text(&lv, &track, ticks.map(|n| n as usize)));
        text.push('\n');
    }
    text.push_str(&verdict_text(&judge(&lv.level, &track)));
    out(&text)?;
    Ok(EXIT_OK)
}

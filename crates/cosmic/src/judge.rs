//! The judge of rules §7.3: solved or not, with a reason a player understands —
//! the first rule of §3 broken, or one sentence per alien and house left over,
//! saying what actually happened to it (from the events and a replay).

use crate::grid::{Color, Point};
use crate::level::Level;
use crate::sim::{simulate, Broken, Event, Train};
use crate::track::Track;

/// The judge's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub solved: bool,
    pub reason: String,
}

/// Reasons a player understands: "valid track of 35 cells; every alien delivered", "T3: path[2] (2,4) and path[3] (4,4) are not adjacent", and for a failed run one sentence per leftover, e.g. "the orange alien at (2,2) was never picked up: no car passed next to it while empty" (or "... a car passed next to it only when it was full/gooped/next to a second willing alien" — say what actually happened, from the events and a replay), "the purple house at (2,6) was never served: the purple alien boarded at moment 20 was still on car 0 at the end" etc. Coordinates shown as (x,y).
pub fn judge(level: &Level, track: &Track) -> Verdict {
    let out = simulate(level, track);
    let path = &track.0;
    if let Some(b) = out.broken {
        return Verdict {
            solved: false,
            reason: broken_reason(level, path, b),
        };
    }
    if out.train.done() {
        return Verdict {
            solved: true,
            reason: format!("valid track of {} cells; every alien delivered", path.len()),
        };
    }
    let mut sentences = Vec::new();
    for &a in out.train.remaining_aliens() {
        sentences.push(alien_sentence(level, path, a));
    }
    let mut claimed = Vec::new();
    for &h in out.train.remaining_houses() {
        sentences.push(house_sentence(
            level,
            &out.train,
            &out.events,
            h,
            &mut claimed,
        ));
    }
    Verdict {
        solved: false,
        reason: format!(
            "valid track of {} cells, but {}",
            path.len(),
            sentences.join("; ")
        ),
    }
}

/// "T3: path[2] (2,4) and path[3] (4,4) are not adjacent" and the like.
pub fn broken_reason(level: &Level, path: &[Point], b: Broken) -> String {
    let cell = |k: usize| path.get(k).map_or("?".to_string(), |p| p.to_string());
    match b {
        Broken::T1 => match path.first() {
            None => "T1: the path is empty".to_string(),
            Some(p) => format!(
                "T1: the first cell {p} is not the entrance {}",
                level.entrance
            ),
        },
        Broken::T2 => match path.last() {
            Some(p) if path.len() >= 2 => {
                format!("T2: the last cell {p} is not the exit {}", level.exit)
            }
            _ => "T2: the path has a single cell; it must end on the exit".to_string(),
        },
        Broken::T3 { at } => format!(
            "T3: path[{}] {} and path[{at}] {} are not adjacent",
            at.saturating_sub(1),
            cell(at.saturating_sub(1)),
            cell(at)
        ),
        Broken::T4 { at } => format!(
            "T4: path[{at}] {} is outside the grid and is neither the entrance nor the exit",
            cell(at)
        ),
        Broken::T5 { at } => {
            let what = path
                .get(at)
                .and_then(|&p| level.entity_at(p))
                .map_or('?', |e| e.letter());
            format!("T5: path[{at}] {} is blocked (`{what}`)", cell(at))
        }
        Broken::T6 { at, first } => format!("T6: path[{at}] {} repeats path[{first}]", cell(at)),
    }
}

/// Why an empty car never took this alien: replays the run and looks at every
/// moment a car stood next to it.
fn alien_sentence(level: &Level, path: &[Point], alien: usize) -> String {
    let (at, color) = (
        level.point_of(alien),
        level.color_of(alien).unwrap_or(Color::Purple),
    );
    let head = format!("the {} alien at {at} was never picked up", color.lower());
    let (mut full, mut gooped, mut crowd) = (Vec::new(), Vec::new(), Vec::new());
    let mut train = Train::new(level);
    let mut events = Vec::new();
    for t in 1..path.len().saturating_sub(1) {
        let before: Vec<_> = train.cars().to_vec();
        events.clear();
        train.moment(level, path, t, &mut events);
        for (i, car) in before.iter().enumerate() {
            let Some(&cell) = t.checked_sub(1 + i).and_then(|k| path.get(k)) else {
                continue;
            };
            if !cell.adjacent(at) {
                continue;
            }
            let tie = events.iter().any(|e| matches!(e, Event::Tie { car, aliens, .. } if *car == i && aliens.contains(&alien)));
            if tie {
                crowd.push(t);
            } else if car.holds.is_some() && train.cars()[i].holds.is_some() {
                full.push(t);
            } else if car.gooped && color != Color::Green {
                gooped.push(t);
            }
        }
    }
    let mut why = Vec::new();
    let moments = |v: &[usize]| {
        let s: Vec<String> = v.iter().map(|t| t.to_string()).collect();
        let word = if v.len() == 1 { "moment" } else { "moments" };
        format!("{word} {}", s.join(", "))
    };
    if !full.is_empty() {
        why.push(format!("full ({})", moments(&full)));
    }
    if !gooped.is_empty() {
        why.push(format!("gooped by a green alien ({})", moments(&gooped)));
    }
    if !crowd.is_empty() {
        why.push(format!(
            "next to a second willing alien ({})",
            moments(&crowd)
        ));
    }
    if why.is_empty() {
        return format!("{head}: {}", never_next(path, at, level.length));
    }
    format!(
        "{head}: a car passed next to it only when it was {}",
        why.join(" or ")
    )
}

/// Why no car was ever handled next to `at`.
fn never_next(path: &[Point], at: Point, cars: usize) -> String {
    match path.iter().rposition(|p| p.adjacent(at)) {
        None => "the track never passes next to it".to_string(),
        Some(k) => format!(
            "the track passes next to it only near the exit (path[{k}] {}), where no car is \
             handled any more (car i is never handled on the last i+1 cells before the exit; \
             this train has {cars})",
            path[k]
        ),
    }
}

/// Why this house was never served: an alien of its colour still on a car at the
/// end, or one that never boarded. `claimed` keeps one explanation per alien.
fn house_sentence(
    level: &Level,
    train: &Train,
    events: &[Event],
    house: usize,
    claimed: &mut Vec<usize>,
) -> String {
    let (at, color) = (
        level.point_of(house),
        level.color_of(house).unwrap_or(Color::Purple),
    );
    let head = format!("the {} house at {at} was never served", color.lower());
    let held = train
        .cars()
        .iter()
        .enumerate()
        .find_map(|(i, c)| match c.holds {
            Some((a, col)) if col == color && !claimed.contains(&a) => Some((i, a)),
            _ => None,
        });
    if let Some((car, a)) = held {
        claimed.push(a);
        let moment = events.iter().find_map(|e| match e {
            Event::Boarded { moment, alien, .. } if *alien == a => Some(*moment),
            _ => None,
        });
        return format!(
            "{head}: the {} alien from {} boarded at moment {} was still on car {car} at the end",
            color.lower(),
            level.point_of(a),
            moment.unwrap_or(0)
        );
    }
    let waiting = train
        .remaining_aliens()
        .iter()
        .copied()
        .find(|&a| level.color_of(a) == Some(color) && !claimed.contains(&a));
    match waiting {
        Some(a) => {
            claimed.push(a);
            format!(
                "{head}: the {} alien at {} that it waits for never boarded",
                color.lower(),
                level.point_of(a)
            )
        }
        None => format!("{head}: no {} alien was left for it", color.lower()),
    }
}

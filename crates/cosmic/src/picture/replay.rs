//! The frames of the train's run for the replay page: the simulator's
//! [`Train`] handles the moments one by one (rules §4.2), and each moment
//! becomes a [`Frame`]: the engine and the cars handled as tokens (a car's
//! fill is the colour of the alien it holds, its badge the alien's letter, a
//! green ring when gooped), badges on aliens that boarded and houses served,
//! and the events so far as lines.

use super::color_of;
use crate::grid::{Entity, Point};
use crate::judge::judge;
use crate::level::Level;
use crate::sim::{check_track, Event, Train};
use crate::track::Track;
use picture::palette;
use picture::replay::Corner;
use picture::{Frame, Mark, Replay, Token};

/// The run of `track` on `level`, moment by moment, with the judge's verdict.
pub fn replay(level: &Level, track: &Track) -> Replay {
    let verdict = judge(level, track);
    let word = if verdict.solved {
        "solved"
    } else {
        "not solved"
    };
    let mut frames = vec![frame(level, track, 0, &Train::new(level), &[])];
    let mut note = None;
    match check_track(level, track) {
        Err(b) => {
            note = Some(format!(
                "The track breaks rule T{} of the rules' section 3, so the train does not run.",
                b.rule()
            ));
        }
        Ok(()) => {
            let mut train = Train::new(level);
            let mut events = Vec::new();
            for t in 1..track.0.len().saturating_sub(1) {
                train.moment(level, &track.0, t, &mut events);
                frames.push(frame(level, track, t, &train, &events));
            }
        }
    }
    Replay {
        unit: "moment".into(),
        outcome: format!("{word}: {}", verdict.reason),
        solved: verdict.solved,
        note,
        frames,
    }
}

/// "the purple alien at (2,1)".
fn name(level: &Level, i: usize) -> String {
    let (p, e) = level.entities[i];
    match e {
        Entity::Alien(c) => format!("the {} alien at {p}", c.lower()),
        Entity::House(c) => format!("the {} house at {p}", c.lower()),
        Entity::Wall => format!("the wall at {p}"),
    }
}

fn at(p: Point) -> [usize; 2] {
    [p.x.max(0) as usize, p.y.max(0) as usize]
}

/// The moment's state, after moment `t` with the events so far.
fn frame(level: &Level, track: &Track, t: usize, train: &Train, events: &[Event]) -> Frame {
    let path = &track.0;
    let mut tokens = Vec::new();
    let mut marks = Vec::new();
    let mut lines = Vec::new();
    if let Some(&p) = path.get(t) {
        tokens.push(Token {
            at: at(p),
            fill: palette::YELLOW.to_string(),
            mark: "\u{25B6}".into(),
            square: true,
            ..Token::default()
        });
        lines.push(format!("engine on {p}"));
    }
    for (i, car) in train.cars().iter().enumerate() {
        let Some(&p) = t.checked_sub(1 + i).and_then(|k| path.get(k)) else {
            break;
        };
        let fill = car.holds.map_or(palette::PAPER, |(_, c)| color_of(c));
        tokens.push(Token {
            at: at(p),
            fill: fill.to_string(),
            mark: i.to_string(),
            ring: car.gooped.then(|| palette::BLUISH_GREEN.to_string()),
            square: false,
        });
        if let Some((a, c)) = car.holds {
            marks.push(Mark {
                at: at(p),
                text: Entity::Alien(c).letter().to_string(),
                corner: Corner::Ne,
                fill: color_of(c).to_string(),
            });
            lines.push(format!("car {i} on {p} holds {}", name(level, a)));
        } else {
            lines.push(format!("car {i} on {p} is empty"));
        }
        if car.gooped {
            lines.push(format!("car {i} is gooped: only green aliens board it"));
        }
    }
    let mut delivered = 0;
    for e in events {
        let (badge, entity, line) = event_badge(level, e);
        if let Event::Delivered { .. } = e {
            delivered += 1;
        }
        marks.push(Mark {
            at: at(level.point_of(entity)),
            text: badge,
            corner: Corner::Se,
            fill: palette::PAPER.to_string(),
        });
        lines.push(line);
    }
    Frame {
        step: t as u32,
        tokens,
        marks,
        lines,
        delivered,
        alert: None,
    }
}

/// An event's badge (on the alien or house), the entity it sits on, and
/// the event in words.
fn event_badge(level: &Level, e: &Event) -> (String, usize, String) {
    match e {
        Event::Boarded {
            moment, car, alien, ..
        } => (
            format!("\u{2192}{car}"),
            *alien,
            format!("moment {moment}: {} boarded car {car}", name(level, *alien)),
        ),
        Event::Delivered {
            moment, car, house, ..
        } => (
            "\u{2713}".into(),
            *house,
            format!(
                "moment {moment}: car {car} delivered to {}",
                name(level, *house)
            ),
        ),
        Event::Tie {
            moment,
            car,
            aliens,
            ..
        } => (
            "tie".into(),
            aliens.first().copied().unwrap_or(0),
            format!("moment {moment}: tie beside car {car}: nobody boards"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_level;

    #[test]
    fn the_run_is_drawn_moment_by_moment() {
        let level = parse_level(
            r#"{"width": 3, "height": 2, "length": 1, "entrances": [{"x": 0, "y": 2}],
               "exits": [{"x": 4, "y": 2}], "entities": [
               [{"x": 1, "y": 1}, {"Alien": {"color": "Purple"}}],
               [{"x": 2, "y": 1}, {"House": {"color": "Purple"}}]]}"#,
        )
        .expect("level");
        let track = Track((0..=4).map(|x| Point::new(x, 2)).collect());
        let r = replay(&level, &track);
        assert!(r.solved, "{}", r.outcome);
        assert_eq!(r.frames.len(), 4);
        // Moment 2: car 0 on (1,2) takes the alien; moment 3 is the run's last.
        assert_eq!(r.frames[2].tokens[1].fill, palette::REDDISH_PURPLE);
        let last = &r.frames[3];
        assert_eq!(last.delivered, 1);
        assert!(last
            .marks
            .iter()
            .any(|m| m.text == "\u{2713}" && m.at == [2, 1]));
    }
}

//! Pictures of Cosmic Express levels, tracks and runs, through the shared
//! `picture` crate: [`sheet`] draws the level (with its frame, entrance and
//! exit, walls, aliens and houses by colour and letter) and the track as a
//! line with arrows; [`replay::replay`] turns the train's run into the frames
//! of the HTML replay page. Coordinates on the picture are the level's.

pub mod replay;

use crate::grid::{Color, Entity, Point};
use crate::judge::judge;
use crate::level::Level;
use crate::track::Track;
use picture::palette::{self, INK};
use picture::sprite::{self, CELL, MID};
use picture::svg::{self, Paint};
use picture::{CellArt, Sheet};

/// An alien's or a house's colour (Okabe-Ito): purple is reddish purple,
/// orange is orange, green is bluish green; the letter (p o g, P O G) tells
/// them apart without colour.
pub fn color_of(c: Color) -> &'static str {
    match c {
        Color::Purple => palette::REDDISH_PURPLE,
        Color::Orange => palette::ORANGE,
        Color::Green => palette::BLUISH_GREEN,
    }
}

const TRACK: &str = palette::BLUE;

/// The sheet's column and row of a point: the picture has the frame around
/// the grid, so point `(x, y)` is column `x`, row `y`.
fn cell(level: &Level, p: Point) -> Option<(usize, usize)> {
    let (x, y) = (usize::try_from(p.x).ok()?, usize::try_from(p.y).ok()?);
    let inside = x <= level.width as usize + 1 && y <= level.height as usize + 1;
    inside.then_some((x, y))
}

fn alien(c: Color) -> String {
    let feelers = Paint::stroke(INK, 1.5);
    format!(
        "{}{}{}{}",
        svg::line(14.0, 11.0, 10.0, 4.0, &feelers),
        svg::line(26.0, 11.0, 30.0, 4.0, &feelers),
        svg::circle(
            MID,
            22.0,
            12.0,
            &Paint::fill(color_of(c)).and_stroke(INK, 1.5)
        ),
        sprite::label_at(MID, 22.0, &Entity::Alien(c).letter().to_string(), 13.0, INK)
    )
}

fn house(c: Color) -> String {
    format!(
        "{}{}",
        svg::polygon(
            &[
                (MID, 4.0),
                (35.0, 17.0),
                (35.0, 35.0),
                (5.0, 35.0),
                (5.0, 17.0)
            ],
            &Paint::fill(color_of(c)).and_stroke(INK, 1.5)
        ),
        sprite::label_at(MID, 25.0, &Entity::House(c).letter().to_string(), 13.0, INK)
    )
}

fn gate(letter: &str) -> String {
    format!(
        "{}{}",
        sprite::square(28.0, 5.0, &Paint::fill(palette::PAPER).and_stroke(INK, 2.0)),
        sprite::label(letter, 15.0, INK)
    )
}

fn wall() -> String {
    sprite::hatch(palette::HATCH)
}

/// The floor and sprite of a point.
fn art(level: &Level, p: Point) -> CellArt {
    let floor = if level.in_grid(p) {
        palette::FLOOR
    } else {
        palette::OUTSIDE
    };
    let (floor, sprite) = match level.entity_at(p) {
        Some(Entity::Wall) => (palette::WALL, wall()),
        Some(Entity::Alien(c)) => (floor, alien(c)),
        Some(Entity::House(c)) => (floor, house(c)),
        None if p == level.entrance => (floor, gate("S")),
        None if p == level.exit => (floor, gate("E")),
        None => (floor, String::new()),
    };
    CellArt {
        floor: floor.to_string(),
        sprite,
    }
}

/// The track: a line through the cells' middles, with an arrowhead on each
/// cell pointing to the next.
fn track_overlay(level: &Level, track: &Track) -> String {
    let mut points: Vec<(f64, f64)> = track
        .0
        .iter()
        .filter_map(|&p| cell(level, p))
        .map(|(c, r)| (c as f64 * CELL + MID, r as f64 * CELL + MID))
        .collect();
    let heads = points.clone();
    // The line stops at the entrance's and the exit's boxes, not under them.
    let n = points.len();
    if n >= 2 {
        points[0] = towards(points[0], points[1], 14.0);
        points[n - 1] = towards(points[n - 1], points[n - 2], 14.0);
    }
    let mut out = svg::polyline(&points, &Paint::stroke(TRACK, 5.0));
    for w in heads.windows(2) {
        let ((x1, y1), (x2, y2)) = (w[0], w[1]);
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        let angle = (y2 - y1).atan2(x2 - x1).to_degrees();
        let head = svg::polygon(
            &[(-5.0, -6.0), (5.0, 0.0), (-5.0, 6.0)],
            &Paint::fill(palette::PAPER).and_stroke(TRACK, 2.0),
        );
        out += &svg::group(
            &format!(
                "translate({} {}) rotate({})",
                svg::num(mx),
                svg::num(my),
                svg::num(angle)
            ),
            &head,
        );
    }
    out
}

/// `from` moved `by` towards `to`.
fn towards(from: (f64, f64), to: (f64, f64), by: f64) -> (f64, f64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len == 0.0 {
        return from;
    }
    (from.0 + dx / len * by, from.1 + dy / len * by)
}

/// The legend: what is on this level, and the track when there is one.
fn legend(level: &Level, track: Option<&Track>) -> Vec<(String, String)> {
    let mut out = vec![
        (gate("S"), "entrance: the train comes in here".to_string()),
        (gate("E"), "exit: the track ends here".to_string()),
    ];
    if level.entities.iter().any(|(_, e)| *e == Entity::Wall) {
        let bg = svg::rect(0.0, 0.0, CELL, CELL, 3.0, &Paint::fill(palette::WALL));
        out.push((format!("{bg}{}", wall()), "wall".to_string()));
    }
    for c in Color::ALL {
        if level.entities.iter().any(|(_, e)| *e == Entity::Alien(c)) {
            let what = format!(
                "{} alien ({}): boards an empty car beside it",
                c.lower(),
                Entity::Alien(c).letter()
            );
            out.push((alien(c), what));
        }
        if level.entities.iter().any(|(_, e)| *e == Entity::House(c)) {
            let what = format!(
                "{} house ({}): takes a {} alien from a car beside it",
                c.lower(),
                Entity::House(c).letter(),
                c.lower()
            );
            out.push((house(c), what));
        }
    }
    if track.is_some() {
        let sample = format!(
            "{}{}",
            svg::line(2.0, MID, CELL - 2.0, MID, &Paint::stroke(TRACK, 5.0)),
            svg::polygon(
                &[(15.0, 14.0), (25.0, MID), (15.0, 26.0)],
                &Paint::fill(palette::PAPER).and_stroke(TRACK, 2.0)
            )
        );
        out.push((sample, "track, from the entrance to the exit".to_string()));
    }
    out
}

/// The picture of `level`, with `track` drawn on it when given (and the
/// judge's verdict on it).
pub fn sheet(level: &Level, track: Option<&Track>, title: &str) -> Sheet {
    let (cols, rows) = (level.width as usize + 2, level.height as usize + 2);
    let cells = (0..rows)
        .flat_map(|y| (0..cols).map(move |x| Point::new(x as i32, y as i32)))
        .map(|p| art(level, p))
        .collect();
    let count = |f: fn(&Entity) -> bool| level.entities.iter().filter(|(_, e)| f(e)).count();
    let mut captions = vec![format!(
        "{}x{} (width x height), {} car{}, {} aliens, {} houses",
        level.width,
        level.height,
        level.length,
        if level.length == 1 { "" } else { "s" },
        count(|e| matches!(e, Entity::Alien(_))),
        count(|e| matches!(e, Entity::House(_))),
    )];
    if let Some(t) = track {
        let v = judge(level, t);
        let word = if v.solved { "solved" } else { "not solved" };
        captions.push(format!("{word}: {}", v.reason));
    }
    Sheet {
        title: title.to_string(),
        captions,
        cols,
        rows,
        first_label: 0,
        cells,
        overlay: track.map(|t| track_overlay(level, t)).unwrap_or_default(),
        legend: legend(level, track),
    }
}

/// The level (and track) as an SVG: `show LEVEL.json [TRACK] --svg`.
pub fn svg(level: &Level, track: Option<&Track>, title: &str) -> String {
    sheet(level, track, title).svg()
}

/// The replay page of the train's run on `track`: `simulate LEVEL.json TRACK --html`.
pub fn html(level: &Level, track: &Track, title: &str) -> String {
    picture::replay_page(
        &sheet(level, Some(track), title),
        &replay::replay(level, track),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_level;

    #[test]
    fn aliens_and_houses_have_colour_and_letter() {
        let level = parse_level(
            r#"{"width": 3, "height": 1, "length": 1, "entrances": [{"x": 0, "y": 1}],
               "exits": [{"x": 4, "y": 1}], "entities": [
               [{"x": 1, "y": 1}, {"Alien": {"color": "Green"}}],
               [{"x": 3, "y": 1}, {"House": {"color": "Green"}}]]}"#,
        )
        .expect("level");
        let s = sheet(&level, None, "t");
        assert_eq!((s.cols, s.rows), (5, 3));
        let alien = &s.cells[5 + 1].sprite;
        assert!(
            alien.contains(">g</text>") && alien.contains(palette::BLUISH_GREEN),
            "{alien}"
        );
        assert!(s.cells[5 + 3].sprite.contains(">G</text>"));
        assert!(s.cells[5].sprite.contains(">S</text>"));
        assert!(s.legend.iter().any(|l| l.1.starts_with("green house (G)")));
    }
}

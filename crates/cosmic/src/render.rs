//! The text grid of rules §7.2: the level with the frame, and optionally a track
//! drawn as arrows pointing to the next cell.

use crate::grid::Point;
use crate::level::Level;
use crate::track::Track;

/// The arrow from `from` to the adjacent cell `to`, `None` if not adjacent.
pub fn arrow(from: Point, to: Point) -> Option<char> {
    match (
        i64::from(to.x) - i64::from(from.x),
        i64::from(to.y) - i64::from(from.y),
    ) {
        (1, 0) => Some('>'),
        (-1, 0) => Some('<'),
        (0, 1) => Some('v'),
        (0, -1) => Some('^'),
        _ => None,
    }
}

/// The step an arrow stands for, `None` for any other character.
pub fn arrow_step(c: char) -> Option<(i32, i32)> {
    match c {
        '>' => Some((1, 0)),
        '<' => Some((-1, 0)),
        'v' => Some((0, 1)),
        '^' => Some((0, -1)),
        _ => None,
    }
}

/// The picture as rows of characters, without a track.
fn canvas(level: &Level) -> Vec<Vec<char>> {
    let (w, h) = (level.width, level.height);
    let mut rows: Vec<Vec<char>> = (0..=h + 1)
        .map(|y| {
            (0..=w + 1)
                .map(|x| {
                    if level.in_grid(Point::new(x, y)) {
                        '.'
                    } else {
                        '+'
                    }
                })
                .collect()
        })
        .collect();
    for &(p, e) in &level.entities {
        put(&mut rows, p, e.letter());
    }
    put(&mut rows, level.entrance, 'S');
    put(&mut rows, level.exit, 'E');
    rows
}

/// Sets the character of `p` if it is in the picture.
fn put(rows: &mut [Vec<char>], p: Point, c: char) {
    let (Ok(x), Ok(y)) = (usize::try_from(p.x), usize::try_from(p.y)) else {
        return;
    };
    if let Some(cell) = rows.get_mut(y).and_then(|r| r.get_mut(x)) {
        *cell = c;
    }
}

fn join(rows: &[Vec<char>]) -> String {
    let mut out = String::new();
    for r in rows {
        out.extend(r.iter());
        out.push('\n');
    }
    out
}

/// The text grid of rules §7.2 without a track (frame '+', S, E, '#', p o g, P O G, '.').
pub fn show_level(level: &Level) -> String {
    join(&canvas(level))
}

/// The text grid of §7.2 with the track drawn (arrows pointing to the next cell).
///
/// Every line ends in a newline. For a track that is not valid, a cell whose next
/// cell is not adjacent shows `?`, and cells outside the picture are left out;
/// S and E are always drawn where the level has them.
pub fn show_track(level: &Level, track: &Track) -> String {
    let mut rows = canvas(level);
    let path = &track.0;
    for (k, &p) in path.iter().enumerate() {
        if p == level.entrance || p == level.exit {
            continue;
        }
        let c = path.get(k + 1).and_then(|&q| arrow(p, q)).unwrap_or('?');
        put(&mut rows, p, c);
    }
    join(&rows)
}

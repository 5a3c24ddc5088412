//! Tracks (rules §3) and their two written forms (§7): the JSON object with a
//! `path`, and the text grid read by following the arrows from S to E.

use crate::error::{from_serde, InputError};
use crate::grid::Point;
use crate::json::{self, Kind, Node};
use crate::level::Level;
use crate::render::arrow_step;
use std::collections::HashSet;

/// A track file that cannot be read.
pub type TrackError = InputError;

/// The cells from the entrance to the exit, both included (rules §3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track(pub Vec<Point>);

impl Track {
    /// §7.1: {"level": name, "path": [[x, y], ...]} on one line (omit "level" when None).
    pub fn to_json(&self, name: Option<&str>) -> String {
        let cells: Vec<String> = self
            .0
            .iter()
            .map(|p| format!("[{},{}]", p.x, p.y))
            .collect();
        let path = cells.join(",");
        match name {
            Some(n) => {
                let n = serde_json::Value::String(n.to_string());
                format!("{{\"level\": {n}, \"path\": [{path}]}}")
            }
            None => format!("{{\"path\": [{path}]}}"),
        }
    }
}

/// Reads a track in either form of rules §7: the JSON object with "path" (other keys ignored), or the text grid of §7.2 (read as §7.2 says: from S follow the arrows to E). Errors carry a span like LevelError.
pub fn parse_track(level: &Level, text: &str) -> Result<Track, TrackError> {
    if text.trim_start().starts_with('{') {
        parse_json(text)
    } else {
        parse_grid(level, text)
    }
}

fn parse_json(text: &str) -> Result<Track, TrackError> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| from_serde(&e, text))?;
    let root = json::scan(text).ok_or_else(|| InputError::new("invalid JSON"))?;
    let at = |msg: String, n: &Node| InputError::at(msg, text, n.start, n.end);
    let Kind::Object(members) = &root.kind else {
        return Err(at("the track must be a JSON object".into(), &root));
    };
    // serde_json keeps the last of repeated keys; so does this.
    let Some(path) = members.iter().rev().find(|m| m.key == "path") else {
        return Err(at("the track has no key `path`".into(), &root));
    };
    let Kind::Array(cells) = &path.value.kind else {
        let msg = format!("`path` must be a list, found {}", path.value.type_name());
        return Err(at(msg, &path.value));
    };
    let mut out = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        let xy: Option<Vec<i32>> = match &cell.kind {
            Kind::Array(xy) if xy.len() == 2 => xy
                .iter()
                .map(|n| n.as_int().and_then(|v| i32::try_from(v).ok()))
                .collect(),
            _ => None,
        };
        match xy.as_deref() {
            Some(&[x, y]) => out.push(Point::new(x, y)),
            _ => {
                let msg = format!("`path[{i}]` must be a pair [x, y] of integers");
                return Err(at(msg, cell));
            }
        }
    }
    Ok(Track(out))
}

/// The picture's rows, without line ends.
fn grid_rows(text: &str) -> Vec<&str> {
    text.lines().map(|l| l.trim_end_matches('\r')).collect()
}

/// Byte offset of character `x` of row `y` in `text`.
fn offset(text: &str, rows: &[&str], x: usize, y: usize) -> usize {
    let base = rows[y].as_ptr() as usize - text.as_ptr() as usize;
    base + rows[y]
        .char_indices()
        .nth(x)
        .map_or(rows[y].len(), |(i, _)| i)
}

fn parse_grid(level: &Level, text: &str) -> Result<Track, TrackError> {
    let rows = grid_rows(text);
    let chars: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let at_char = |msg: String, p: Point| {
        let start = offset(text, &rows, p.x as usize, p.y as usize);
        InputError::at(msg, text, start, start + 1)
    };
    let get = |p: Point| -> Option<char> {
        let (x, y) = (usize::try_from(p.x).ok()?, usize::try_from(p.y).ok()?);
        chars.get(y)?.get(x).copied()
    };
    let mut starts = chars.iter().enumerate().flat_map(|(y, r)| {
        r.iter()
            .enumerate()
            .filter(|(_, &c)| c == 'S')
            .map(move |(x, _)| Point::new(x as i32, y as i32))
    });
    let Some(s) = starts.next() else {
        return Err(InputError::new("the picture has no `S` (entrance)"));
    };
    if let Some(other) = starts.next() {
        return Err(at_char("a second `S` in the picture".into(), other));
    }
    let first = first_step(s, &get).map_err(|m| at_char(m, s))?;
    let mut path = vec![s, first];
    let mut seen: HashSet<Point> = path.iter().copied().collect();
    let mut p = first;
    while get(p) != Some('E') {
        let c = get(p).unwrap_or(' ');
        let Some((dx, dy)) = arrow_step(c) else {
            let msg = format!(
                "the track from S reaches `{}`, not an arrow or E",
                c.escape_debug()
            );
            return Err(at_char(msg, p));
        };
        let next = Point::new(p.x + dx, p.y + dy);
        if get(next).is_none() {
            return Err(at_char("this arrow points out of the picture".into(), p));
        }
        if !seen.insert(next) {
            let msg = "the arrows run in a circle and never reach E";
            return Err(at_char(msg.into(), p));
        }
        p = next;
        path.push(p);
    }
    let _ = level;
    Ok(Track(path))
}

/// The cell after S: its only adjacent track cell (arrow or E); if several, the
/// only one no arrow points to (every other track cell has a predecessor arrow).
fn first_step(s: Point, get: &dyn Fn(Point) -> Option<char>) -> Result<Point, String> {
    let is_track = |p: Point| get(p).is_some_and(|c| c == 'E' || arrow_step(c).is_some());
    let candidates: Vec<Point> = s
        .neighbours()
        .into_iter()
        .filter(|&p| is_track(p))
        .collect();
    if candidates.len() == 1 {
        return Ok(candidates[0]);
    }
    let pointed_to = |p: Point| {
        p.neighbours().into_iter().any(|q| {
            get(q)
                .and_then(arrow_step)
                .is_some_and(|(dx, dy)| Point::new(q.x + dx, q.y + dy) == p)
        })
    };
    let free: Vec<Point> = candidates
        .iter()
        .copied()
        .filter(|&p| !pointed_to(p))
        .collect();
    match free.as_slice() {
        [p] => Ok(*p),
        _ if candidates.is_empty() => Err("`S` has no adjacent arrow or E".to_string()),
        _ => Err("`S` has several adjacent track cells; cannot tell where the track starts".into()),
    }
}

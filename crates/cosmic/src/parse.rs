//! Reading a level file (rules §2) and checking it is well-formed (W1–W7).
//!
//! Syntax errors carry serde_json's line and column; a well-formedness violation
//! points at the offending key or value. No input makes the reader panic.

use crate::error::{from_serde, InputError};
use crate::grid::{Color, Entity, Point};
use crate::json::{self, Kind, Node};
use crate::level::Level;

/// A level file that cannot be read or is not well-formed.
pub type LevelError = InputError;

/// The largest `width` and `height` accepted (the rules set no bound; this keeps
/// every per-cell table small).
pub const MAX_SIDE: i64 = 1000;
/// The largest `length` (number of cars) accepted.
pub const MAX_LENGTH: i64 = 1000;

const TOP_KEYS: [&str; 6] = [
    "width",
    "height",
    "length",
    "entrances",
    "exits",
    "entities",
];

/// Reads a level in the format of rules §2 and checks W1–W7.
pub fn parse_level(text: &str) -> Result<Level, LevelError> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| from_serde(&e, text))?;
    let root = json::scan(text).ok_or_else(|| InputError::new("invalid JSON"))?;
    let r = Reader { text };
    let top = r.members(&root, "the level", &TOP_KEYS)?;
    let width = r.int(top[0], "`width`", 1, MAX_SIDE)?;
    let height = r.int(top[1], "`height`", 1, MAX_SIDE)?;
    let length = r.int(top[2], "`length`", 1, MAX_LENGTH)?;
    let (entrance, entrance_node) = r.single_point(top[3], "entrances")?;
    let (exit, exit_node) = r.single_point(top[4], "exits")?;
    let entities = r.entities(top[5])?;
    let level = Level {
        width: width as i32,
        height: height as i32,
        length: length as usize,
        entrance,
        exit,
        entities: entities.iter().map(|&(p, e, _)| (p, e)).collect(),
    };
    if entrance == exit {
        return Err(r.err(
            format!("W3: the entrance and the exit are the same point {entrance}"),
            exit_node,
        ));
    }
    let points: Vec<&Node> = entities.iter().map(|&(_, _, n)| n).collect();
    r.entities_well_formed(&level, &points, top[5])?;
    for (p, node, what) in [
        (entrance, entrance_node, "entrance"),
        (exit, exit_node, "exit"),
    ] {
        if let Some(e) = level.entity_at(p) {
            let msg = format!("W7: the {what} {p} lies on an entity ({})", e.letter());
            return Err(r.err(msg, node));
        }
    }
    Ok(level)
}

struct Reader<'t> {
    text: &'t str,
}

impl<'t> Reader<'t> {
    fn err(&self, message: String, node: &Node) -> InputError {
        InputError::at(message, self.text, node.start, node.end)
    }

    /// The values of `keys` in an object that has exactly these keys, in `keys` order.
    fn members<'n>(
        &self,
        node: &'n Node<'t>,
        place: &str,
        keys: &[&str],
    ) -> Result<Vec<&'n Node<'t>>, InputError> {
        let Kind::Object(members) = &node.kind else {
            let msg = format!("W1: {place} must be an object, found {}", node.type_name());
            return Err(self.err(msg, node));
        };
        let mut found: Vec<Option<&Node>> = vec![None; keys.len()];
        for m in members {
            let at = |msg: String| InputError::at(msg, self.text, m.key_start, m.key_end);
            let Some(k) = keys.iter().position(|k| *k == m.key) else {
                let expected: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                return Err(at(format!(
                    "W1: unknown key `{}` in {place} (expected {})",
                    m.key.escape_debug(),
                    expected.join(", ")
                )));
            };
            if found[k].is_some() {
                return Err(at(format!("W1: duplicate key `{}` in {place}", m.key)));
            }
            found[k] = Some(&m.value);
        }
        keys.iter()
            .zip(found)
            .map(|(k, v)| {
                v.ok_or_else(|| {
                    let msg = format!("W1: missing key `{k}` in {place}");
                    InputError::at(msg, self.text, node.start, node.start + 1)
                })
            })
            .collect()
    }

    fn int(&self, node: &Node, name: &str, min: i64, max: i64) -> Result<i64, InputError> {
        match node.as_int() {
            Some(v) if (min..=max).contains(&v) => Ok(v),
            _ => {
                let raw = &self.text[node.start..node.end];
                let shown: String = raw.chars().take(30).collect();
                let msg =
                    format!("W1: {name} must be an integer from {min} to {max}, found `{shown}`");
                Err(self.err(msg, node))
            }
        }
    }

    /// A point object `{"x": X, "y": Y}`.
    fn point(&self, node: &Node<'t>, place: &str) -> Result<Point, InputError> {
        let v = self.members(node, place, &["x", "y"])?;
        let (lo, hi) = (i64::from(i32::MIN), i64::from(i32::MAX));
        let x = self.int(v[0], &format!("`{place}.x`"), lo, hi)?;
        let y = self.int(v[1], &format!("`{place}.y`"), lo, hi)?;
        Ok(Point::new(x as i32, y as i32))
    }

    fn list<'n>(&self, node: &'n Node<'t>, place: &str) -> Result<&'n [Node<'t>], InputError> {
        match &node.kind {
            Kind::Array(items) => Ok(items),
            _ => Err(self.err(
                format!("W1: `{place}` must be a list, found {}", node.type_name()),
                node,
            )),
        }
    }

    /// `entrances` or `exits`: a list of exactly one point (W1, W2).
    fn single_point<'n>(
        &self,
        node: &'n Node<'t>,
        key: &str,
    ) -> Result<(Point, &'n Node<'t>), InputError> {
        let items = self.list(node, key)?;
        let points = items
            .iter()
            .enumerate()
            .map(|(i, n)| self.point(n, &format!("{key}[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        match (points.first(), items.first()) {
            (Some(&p), Some(n)) if points.len() == 1 => Ok((p, n)),
            _ => Err(self.err(
                format!(
                    "W2: `{key}` must hold exactly one point, found {}",
                    points.len()
                ),
                node,
            )),
        }
    }

    /// Every `[point, entity]` pair, with the point's node.
    fn entities<'n>(
        &self,
        node: &'n Node<'t>,
    ) -> Result<Vec<(Point, Entity, &'n Node<'t>)>, InputError> {
        let items = self.list(node, "entities")?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let place = format!("entities[{i}]");
            let pair = match &item.kind {
                Kind::Array(pair) if pair.len() == 2 => pair,
                _ => {
                    let msg = format!(
                        "W1: `{place}` must be a pair [point, entity], found {}",
                        item.type_name()
                    );
                    return Err(self.err(msg, item));
                }
            };
            let p = self.point(&pair[0], &format!("{place}[0]"))?;
            let e = self.entity(&pair[1], &place)?;
            out.push((p, e, &pair[0]));
        }
        Ok(out)
    }

    fn entity(&self, node: &Node<'t>, place: &str) -> Result<Entity, InputError> {
        let unknown = |what: String| {
            let msg = format!(
                "W1: `{place}`: unknown entity {what} (expected \"Wall\", \
                 {{\"Alien\": {{\"color\": C}}}} or {{\"House\": {{\"color\": C}}}})"
            );
            self.err(msg, node)
        };
        match &node.kind {
            Kind::Object(m) if m.len() == 1 && matches!(m[0].key.as_str(), "Alien" | "House") => {
                let inner_place = format!("{place}[1].{}", m[0].key);
                let v = self.members(&m[0].value, &inner_place, &["color"])?;
                let color = self.color(v[0], &inner_place)?;
                Ok(match m[0].key.as_str() {
                    "Alien" => Entity::Alien(color),
                    _ => Entity::House(color),
                })
            }
            Kind::Object(m) => match m.first() {
                Some(first) => Err(unknown(format!("`{}`", first.key.escape_debug()))),
                None => Err(unknown("`{}`".to_string())),
            },
            _ => match node.as_str() {
                Some(s) if s == "Wall" => Ok(Entity::Wall),
                Some(s) => Err(unknown(format!("`{}`", s.escape_debug()))),
                None => Err(unknown(node.type_name().to_string())),
            },
        }
    }

    fn color(&self, node: &Node, place: &str) -> Result<Color, InputError> {
        let name = node.as_str();
        name.as_deref().and_then(Color::from_name).ok_or_else(|| {
            let found = match name {
                Some(s) => format!("`{}`", s.escape_debug()),
                None => node.type_name().to_string(),
            };
            let msg = format!(
                "W1: `{place}.color`: unknown colour {found} \
                 (expected \"Purple\", \"Orange\" or \"Green\")"
            );
            self.err(msg, node)
        })
    }

    /// W4 (no shared points), W5 (aliens and houses per colour), W6 (inside the grid).
    fn entities_well_formed(
        &self,
        level: &Level,
        points: &[&Node],
        list: &Node,
    ) -> Result<(), InputError> {
        for (i, &(p, _)) in level.entities.iter().enumerate() {
            if let Some(j) = level.entities[..i].iter().position(|(q, _)| *q == p) {
                let msg = format!("W4: entities[{i}] and entities[{j}] share the point {p}");
                return Err(self.err(msg, points[i]));
            }
        }
        for c in Color::ALL {
            let aliens = level.aliens().iter().filter(|a| a.2 == c).count();
            let houses = level.houses().iter().filter(|h| h.2 == c).count();
            if aliens != houses {
                let msg = format!(
                    "W5: {} but {}",
                    count(aliens, c, "alien"),
                    count(houses, c, "house")
                );
                return Err(self.err(msg, list));
            }
        }
        for (i, &(p, _)) in level.entities.iter().enumerate() {
            if !level.in_grid(p) {
                let msg = format!(
                    "W6: entities[{i}] at {p} is outside the {}x{} grid",
                    level.width, level.height
                );
                return Err(self.err(msg, points[i]));
            }
        }
        Ok(())
    }
}

/// "2 Purple aliens", "1 Purple house".
fn count(n: usize, c: Color, what: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {} {what}{s}", c.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A7: &str = r#"{
  "width": 7,
  "height": 7,
  "length": 1,

  "entrances": [{ "x": 0, "y": 4 }],
  "exits": [{ "x": 8, "y": 4 }],
  "entities": [
    [{ "x": 2, "y": 2 }, { "Alien": { "color": "Orange" } }],
    [{ "x": 6, "y": 2 }, { "Alien": { "color": "Purple" } }],

    [{ "x": 2, "y": 6 }, { "House": { "color": "Purple" } }],
    [{ "x": 6, "y": 6 }, { "House": { "color": "Orange" } }]
  ]
}"#;

    #[test]
    fn reads_the_example_of_section_2() {
        let level = parse_level(A7).unwrap();
        assert_eq!((level.width, level.height, level.length), (7, 7, 1));
        assert_eq!(level.entrance, Point::new(0, 4));
        assert_eq!(level.exit, Point::new(8, 4));
        assert_eq!(
            level.entities[1],
            (Point::new(6, 2), Entity::Alien(Color::Purple))
        );
        assert_eq!(level.houses()[0], (2, Point::new(2, 6), Color::Purple));
        assert_eq!(level.track_cells().len(), 49 - 4 + 2);
    }
}

//! A level (rules §2): the grid, the number of cars, entrance, exit and entities.

use crate::grid::{Color, Entity, Point};

/// A well-formed level (rules §2, W1–W7); [`crate::parse_level`] makes one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub width: i32,
    pub height: i32,
    /// Cars behind the engine.
    pub length: usize,
    pub entrance: Point,
    pub exit: Point,
    /// In file order (it breaks ties between houses, rules §4.3).
    pub entities: Vec<(Point, Entity)>,
}

impl Level {
    /// `1 <= x <= width` and `1 <= y <= height`.
    pub fn in_grid(&self, p: Point) -> bool {
        (1..=self.width).contains(&p.x) && (1..=self.height).contains(&p.y)
    }

    pub fn entity_at(&self, p: Point) -> Option<Entity> {
        self.entities.iter().find(|(q, _)| *q == p).map(|&(_, e)| e)
    }

    /// Walls, aliens and houses block the track (rules §3, T5).
    pub fn blocked(&self, p: Point) -> bool {
        self.entities.iter().any(|(q, _)| *q == p)
    }

    /// Every cell a track may use: the unblocked grid cells, the entrance and the exit, row-major with entrance and exit included wherever they are.
    pub fn track_cells(&self) -> Vec<Point> {
        let mut out: Vec<Point> = (1..=self.height)
            .flat_map(|y| (1..=self.width).map(move |x| Point::new(x, y)))
            .filter(|&p| !self.blocked(p))
            .collect();
        for p in [self.entrance, self.exit] {
            if !self.in_grid(p) {
                out.push(p);
            }
        }
        out.sort_by_key(|p| (p.y, p.x));
        out.dedup();
        out
    }

    /// (index into entities, point, colour) of every alien, in file order.
    pub fn aliens(&self) -> Vec<(usize, Point, Color)> {
        self.colored(|e| match e {
            Entity::Alien(c) => Some(c),
            _ => None,
        })
    }

    /// (index into entities, point, colour) of every house, in file order.
    pub fn houses(&self) -> Vec<(usize, Point, Color)> {
        self.colored(|e| match e {
            Entity::House(c) => Some(c),
            _ => None,
        })
    }

    /// The entities `color` gives a colour, with their index and point.
    fn colored(&self, color: impl Fn(Entity) -> Option<Color>) -> Vec<(usize, Point, Color)> {
        let with_color = |(i, &(p, e)): (usize, &(Point, Entity))| color(e).map(|c| (i, p, c));
        self.entities
            .iter()
            .enumerate()
            .filter_map(with_color)
            .collect()
    }

    /// The colour of entity `i` if it is an alien or a house.
    pub fn color_of(&self, i: usize) -> Option<Color> {
        match self.entities.get(i) {
            Some((_, Entity::Alien(c) | Entity::House(c))) => Some(*c),
            _ => None,
        }
    }

    /// The point of entity `i` (the origin for an index out of range).
    pub fn point_of(&self, i: usize) -> Point {
        self.entities.get(i).map_or(Point::new(0, 0), |&(p, _)| p)
    }
}

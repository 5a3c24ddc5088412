//! Points, colours and entities of the board (rules §1 and §2).

use std::fmt;

/// A cell: `x` is the column (grows to the right), `y` the row (grows downward).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    pub const fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }

    /// The four adjacent cells: left, right, up, down.
    pub fn neighbours(self) -> [Point; 4] {
        let Point { x, y } = self;
        [
            Point::new(x.wrapping_sub(1), y),
            Point::new(x.wrapping_add(1), y),
            Point::new(x, y.wrapping_sub(1)),
            Point::new(x, y.wrapping_add(1)),
        ]
    }

    /// `|x1 - x2| + |y1 - y2| = 1` (rules §1; diagonal cells are not adjacent).
    pub fn adjacent(self, other: Point) -> bool {
        let dx = (i64::from(self.x) - i64::from(other.x)).abs();
        let dy = (i64::from(self.y) - i64::from(other.y)).abs();
        dx + dy == 1
    }
}

impl fmt::Display for Point {
    /// `(x,y)`, as the judge's reasons show places.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// The colour of an alien or a house.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Purple,
    Orange,
    Green,
}

impl Color {
    pub const ALL: [Color; 3] = [Color::Purple, Color::Orange, Color::Green];

    /// The spelling of the level files: `Purple`, `Orange`, `Green`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Purple => "Purple",
            Color::Orange => "Orange",
            Color::Green => "Green",
        }
    }

    /// `purple`, `orange`, `green`, for sentences.
    pub fn lower(self) -> &'static str {
        match self {
            Color::Purple => "purple",
            Color::Orange => "orange",
            Color::Green => "green",
        }
    }

    /// The colour spelled as in the level files, if it is one.
    pub fn from_name(s: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// What stands on a cell (rules §2); every entity blocks the track (§3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Entity {
    Wall,
    Alien(Color),
    House(Color),
}

impl Entity {
    /// The letter of the text grid (rules §7.2): `#`, `p o g`, `P O G`.
    pub fn letter(self) -> char {
        match self {
            Entity::Wall => '#',
            Entity::Alien(Color::Purple) => 'p',
            Entity::Alien(Color::Orange) => 'o',
            Entity::Alien(Color::Green) => 'g',
            Entity::House(Color::Purple) => 'P',
            Entity::House(Color::Orange) => 'O',
            Entity::House(Color::Green) => 'G',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_is_up_down_left_right() {
        let p = Point::new(3, 3);
        for q in p.neighbours() {
            assert!(p.adjacent(q) && q.adjacent(p));
        }
        assert!(!p.adjacent(Point::new(4, 4)));
        assert!(!p.adjacent(p));
        assert!(!Point::new(i32::MIN, 0).adjacent(Point::new(i32::MAX, 0)));
    }
}

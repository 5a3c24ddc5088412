//! Typed grid primitives: directions, cell indices, donut kinds.
//!
//! Every index that crosses a module boundary is typed, so a cell can never be
//! confused with a kind or a direction.

use std::fmt;

/// A movement direction. The declaration order (Up, Down, Left, Right) is the order
/// in which the simulator looks for bumpers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    /// Left of this facing: facing Right, left is Up; facing Up, left is Left.
    pub fn turn_left(self) -> Dir {
        match self {
            Dir::Up => Dir::Left,
            Dir::Left => Dir::Down,
            Dir::Down => Dir::Right,
            Dir::Right => Dir::Up,
        }
    }

    pub fn turn_right(self) -> Dir {
        self.turn_left().opposite()
    }

    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    pub fn is_vertical(self) -> bool {
        matches!(self, Dir::Up | Dir::Down)
    }

    /// The level-format arrow: `^ v < >`.
    pub fn arrow(self) -> char {
        match self {
            Dir::Up => '^',
            Dir::Down => 'v',
            Dir::Left => '<',
            Dir::Right => '>',
        }
    }

    pub fn from_arrow(c: char) -> Option<Dir> {
        match c {
            '^' => Some(Dir::Up),
            'v' => Some(Dir::Down),
            '<' => Some(Dir::Left),
            '>' => Some(Dir::Right),
            _ => None,
        }
    }

    /// A unicode arrow for drawing.
    pub fn glyph(self) -> char {
        match self {
            Dir::Up => '↑',
            Dir::Down => '↓',
            Dir::Left => '←',
            Dir::Right => '→',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A donut's toppings state, 0 (plain) to 4 (cherries), in "most toppings" order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(u8);

impl Kind {
    pub const PLAIN: Kind = Kind(0);
    pub const COUNT: usize = 5;
    pub const ALL: [Kind; 5] = [Kind(0), Kind(1), Kind(2), Kind(3), Kind(4)];

    pub fn new(state: u8) -> Option<Kind> {
        (state < 5).then_some(Kind(state))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The state before this one (`None` for plain).
    pub fn prev(self) -> Option<Kind> {
        self.0.checked_sub(1).map(Kind)
    }

    /// The next any-source kind: None, Frosting, ..., Cherries, None, ...
    pub fn cycle_next(self) -> Kind {
        Kind((self.0 + 1) % 5)
    }

    pub fn name(self) -> &'static str {
        [
            "plain",
            "frosting",
            "sprinkles",
            "whipped cream",
            "cherries",
        ][self.index()]
    }

    /// The target / `:targets` code: 0 1 3 7 15.
    pub fn target_code(self) -> &'static str {
        ["0", "1", "3", "7", "15"][self.index()]
    }

    /// The single-character code used in tokens (`-d<k>`, `b d k`): 0 1 3 7 f.
    pub fn target_char(self) -> char {
        ['0', '1', '3', '7', 'f'][self.index()]
    }

    /// The canonical topper code: 1 2 4 8.
    pub fn topper_char(self) -> char {
        ['0', '1', '2', '4', '8'][self.index()]
    }

    /// Reads one token character with the target column of the rules' table
    /// (`2` and `3` both mean sprinkles, and so on).
    pub fn from_code_char(c: char) -> Option<Kind> {
        match c {
            '0' => Some(Kind(0)),
            '1' => Some(Kind(1)),
            '2' | '3' => Some(Kind(2)),
            '4' | '7' => Some(Kind(3)),
            '8' | 'f' | 'F' => Some(Kind(4)),
            _ => None,
        }
    }

    /// Reads a `:targets` code: the token characters plus `15`.
    pub fn from_targets_code(s: &str) -> Option<Kind> {
        if s == "15" {
            return Some(Kind(4));
        }
        let mut chars = s.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        Kind::from_code_char(c)
    }

    /// A digit for drawing donuts on the board: 0..4.
    pub fn digit(self) -> char {
        (b'0' + self.0) as char
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A cell of a grid, as a row-independent index `y * width + x`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub u32);

impl CellId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A position `(x, y)`, `x` to the right, `y` down.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub x: usize,
    pub y: usize,
}

impl Pos {
    /// The Manhattan distance to `other`: the fewest steps between them.
    pub fn manhattan(self, other: Pos) -> usize {
        self.x.abs_diff(other.x) + self.y.abs_diff(other.y)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The shape of a board: its size and the arithmetic of moving on it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub width: usize,
    pub height: usize,
}

impl Shape {
    pub fn len(self) -> usize {
        self.width * self.height
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn cell(self, p: Pos) -> CellId {
        CellId((p.y * self.width + p.x) as u32)
    }

    pub fn pos(self, c: CellId) -> Pos {
        Pos {
            x: c.index() % self.width,
            y: c.index() / self.width,
        }
    }

    /// The neighbour of `c` in direction `d`, or `None` off the grid.
    pub fn step(self, c: CellId, d: Dir) -> Option<CellId> {
        let p = self.pos(c);
        let (dx, dy) = d.delta();
        let x = p.x as i64 + dx as i64;
        let y = p.y as i64 + dy as i64;
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            None
        } else {
            Some(self.cell(Pos {
                x: x as usize,
                y: y as usize,
            }))
        }
    }

    /// All cells in row-major order.
    pub fn cells(self) -> impl Iterator<Item = CellId> {
        (0..self.len() as u32).map(CellId)
    }

    /// All cells in the simulator's scan order: column-major, `x` outer, `y` inner.
    pub fn scan_order(self) -> impl Iterator<Item = CellId> {
        let (w, h) = (self.width, self.height);
        (0..w).flat_map(move |x| (0..h).map(move |y| CellId((y * w + x) as u32)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_follow_the_rules() {
        assert_eq!(Dir::Right.turn_left(), Dir::Up);
        assert_eq!(Dir::Right.turn_right(), Dir::Down);
        assert_eq!(Dir::Up.turn_left(), Dir::Left);
        assert_eq!(Dir::Up.turn_right(), Dir::Right);
    }

    #[test]
    fn scan_order_is_column_major() {
        let s = Shape {
            width: 2,
            height: 3,
        };
        let order: Vec<Pos> = s.scan_order().map(|c| s.pos(c)).collect();
        assert_eq!(order[0], Pos { x: 0, y: 0 });
        assert_eq!(order[1], Pos { x: 0, y: 1 });
        assert_eq!(order[3], Pos { x: 1, y: 0 });
    }

    #[test]
    fn kind_codes_and_aliases() {
        assert_eq!(Kind::from_code_char('2'), Kind::from_code_char('3'));
        assert_eq!(Kind::from_targets_code("15"), Kind::from_code_char('F'));
        assert_eq!(Kind::from_targets_code("5"), None);
        assert_eq!(Kind::from_targets_code("77"), None);
    }
}

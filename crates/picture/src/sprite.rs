//! Small shapes drawn inside one cell, in the cell's own coordinates (0 to
//! [`CELL`] both ways, `y` down): arrows, discs, squares, labels, and
//! turning a sprite to face a [`Heading`]. Puzzles build their sprites from
//! these, so every puzzle's pictures share one look.

use crate::palette::INK;
use crate::svg::{self, num, Font, Paint};

/// The side of a cell, in SVG units.
pub const CELL: f64 = 40.0;
/// The middle of a cell.
pub const MID: f64 = CELL / 2.0;

/// Which way a sprite faces. Sprites are drawn facing right and turned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Heading {
    Up,
    Down,
    Left,
    Right,
}

impl Heading {
    /// Clockwise degrees from facing right.
    pub fn degrees(self) -> i32 {
        match self {
            Heading::Right => 0,
            Heading::Down => 90,
            Heading::Left => 180,
            Heading::Up => 270,
        }
    }

    /// The step one cell this way: `(dx, dy)`, `y` down.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Heading::Up => (0, -1),
            Heading::Down => (0, 1),
            Heading::Left => (-1, 0),
            Heading::Right => (1, 0),
        }
    }
}

/// `inner` (drawn facing right) turned to face `h` about the cell's middle.
pub fn facing(h: Heading, inner: &str) -> String {
    if h == Heading::Right {
        return inner.to_string();
    }
    svg::group(&format!("rotate({} {MID} {MID})", h.degrees()), inner)
}

/// A belt's arrow facing right: a shaft and a head, filled with `color`.
/// `size` is the arrow's length as a share of the cell (0.7 for a belt).
pub fn arrow(color: &str, size: f64) -> String {
    let half = CELL * size / 2.0;
    let (x0, x1) = (MID - half, MID + half);
    let head = half * 0.9;
    let shaft = half * 0.22;
    let neck = x1 - head;
    svg::polygon(
        &[
            (x0, MID - shaft),
            (neck, MID - shaft),
            (neck, MID - head * 0.75),
            (x1, MID),
            (neck, MID + head * 0.75),
            (neck, MID + shaft),
            (x0, MID + shaft),
        ],
        &Paint::fill(color),
    )
}

/// A small wedge on the right edge of the cell, pointing out: where an
/// entity sends or takes donuts.
pub fn edge_wedge(color: &str) -> String {
    let x = CELL - 1.5;
    svg::polygon(
        &[(x - 8.0, MID - 8.0), (x, MID), (x - 8.0, MID + 8.0)],
        &Paint::fill(color).and_stroke(INK, 1.0),
    )
}

/// A small wedge on the left edge of the cell, pointing in (drawn facing
/// right: a donut enters moving right).
pub fn entry_wedge(color: &str) -> String {
    svg::polygon(
        &[(1.5, MID - 8.0), (9.5, MID), (1.5, MID + 8.0)],
        &Paint::fill(color).and_stroke(INK, 1.0),
    )
}

/// A disc in the middle of the cell, `r` its radius.
pub fn disc(r: f64, p: &Paint) -> String {
    svg::circle(MID, MID, r, p)
}

/// A square in the middle of the cell, `side` wide, corners rounded by `r`.
pub fn square(side: f64, r: f64, p: &Paint) -> String {
    let o = (CELL - side) / 2.0;
    svg::rect(o, o, side, side, r, p)
}

/// A diamond in the middle of the cell, `half` its half-diagonal.
pub fn diamond(half: f64, p: &Paint) -> String {
    svg::polygon(
        &[
            (MID, MID - half),
            (MID + half, MID),
            (MID, MID + half),
            (MID - half, MID),
        ],
        p,
    )
}

/// A cross from corner to corner: the hatch of a wall or block.
pub fn hatch(color: &str) -> String {
    let p = Paint::stroke(color, 2.0);
    let (a, b) = (6.0, CELL - 6.0);
    format!("{}{}", svg::line(a, a, b, b, &p), svg::line(b, a, a, b, &p))
}

/// Text centred on `(x, y)` of the cell, bold.
pub fn label_at(x: f64, y: f64, text: &str, size: f64, color: &str) -> String {
    svg::text(x, y, text, Font::new(size, true, "middle"), color)
}

/// Text centred in the cell, bold.
pub fn label(text: &str, size: f64, color: &str) -> String {
    label_at(MID, MID, text, size, color)
}

/// A token: a disc filled with `fill`, outlined in ink, with a mark on it
/// (a kind's digit, a colour's letter), so that it is told apart without
/// its colour.
pub fn token(fill: &str, mark: &str, r: f64) -> String {
    format!(
        "{}{}",
        disc(r, &Paint::fill(fill).and_stroke(INK, 1.5)),
        label(mark, r * 1.1, INK)
    )
}

/// A transform moving a sprite to cell `(col, row)` of a grid at `origin`.
pub fn place(origin: (f64, f64), col: usize, row: usize) -> String {
    format!(
        "translate({} {})",
        num(origin.0 + col as f64 * CELL),
        num(origin.1 + row as f64 * CELL)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprites_turn_about_the_middle() {
        assert_eq!(facing(Heading::Right, "<x/>"), "<x/>");
        assert_eq!(
            facing(Heading::Up, "<x/>"),
            "<g transform=\"rotate(270 20 20)\"><x/></g>"
        );
        assert_eq!(Heading::Down.delta(), (0, 1));
    }

    #[test]
    fn a_token_carries_its_mark() {
        let t = token("#E69F00", "3", 12.0);
        assert!(t.contains(">3</text>") && t.contains("#E69F00"), "{t}");
    }
}

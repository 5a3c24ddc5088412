//! What each tile looks like: a floor colour and a sprite built from the
//! shared shapes of the `picture` crate, and the legend's words for it.
//! Kinds are told apart by colour and by their digit (0 plain to 4
//! cherries, the rules' toppings states); teleporter channels by colour and
//! letter; preset belts (part of the level) by a darker floor and ink arrows,
//! placed belts (the layout's) by a light floor and blue arrows.

use crate::grid::{Dir, Kind};
use crate::level::{Accepts, Channel, Tile};
use picture::palette::{self, INK};
use picture::sprite::{self, facing, Heading, CELL, MID};
use picture::svg::{self, Paint};

/// A kind's colour (Okabe-Ito): plain orange (dough), frosting pink,
/// sprinkles sky blue, whipped cream yellow, cherries vermillion.
pub fn kind_color(k: Kind) -> &'static str {
    [
        palette::ORANGE,
        palette::REDDISH_PURPLE,
        palette::SKY_BLUE,
        palette::YELLOW,
        palette::VERMILLION,
    ][k.index()]
}

/// A teleporter channel's colour: T blue, U bluish green.
pub fn channel_color(c: Channel) -> &'static str {
    match c {
        Channel::T => palette::BLUE,
        Channel::U => palette::BLUISH_GREEN,
    }
}

/// The colour of a placed belt's arrow.
pub const PLACED: &str = palette::BLUE;
/// The colour of a preset belt's arrow.
pub const PRESET_ARROW: &str = "#3A3A3A";
const SOURCE: &str = palette::BLUE;
const PAPER: &str = palette::PAPER;

pub fn heading(d: Dir) -> Heading {
    match d {
        Dir::Up => Heading::Up,
        Dir::Down => Heading::Down,
        Dir::Left => Heading::Left,
        Dir::Right => Heading::Right,
    }
}

/// A donut of kind `k`: its colour and digit.
pub fn donut(k: Kind) -> String {
    sprite::token(kind_color(k), &k.digit().to_string(), 12.0)
}

/// How a tile is drawn; `placed` says a belt is the layout's, not the level's.
pub fn art(tile: Tile, placed: bool) -> (&'static str, String) {
    let floor = palette::FLOOR;
    match tile {
        Tile::Empty => (floor, String::new()),
        Tile::Belt(d) if placed => (floor, facing(heading(d), &sprite::arrow(PLACED, 0.72))),
        Tile::Belt(d) => (
            palette::PRESET,
            facing(heading(d), &sprite::arrow(PRESET_ARROW, 0.72)),
        ),
        Tile::Block => (palette::WALL, block()),
        Tile::Source(d) => (floor, source(d, "+")),
        Tile::AnySource(d) => (floor, source(d, "?")),
        Tile::Target { dir, accepts } => (floor, target(dir, accepts)),
        Tile::Topper { kind, dir } => (floor, topper(kind, dir)),
        Tile::Splitter(d) => (floor, splitter(d)),
        Tile::Bumper { dir, kind } => (floor, bumper(dir, kind)),
        Tile::TeleIn(c) => (floor, tele_in(c)),
        Tile::TeleOut(c, d) => (floor, tele_out(c, d)),
        Tile::Crossover => (floor, crossover()),
    }
}

fn block() -> String {
    sprite::hatch(palette::HATCH)
}

fn source(d: Dir, mark: &str) -> String {
    format!(
        "{}{}{}",
        sprite::square(28.0, 6.0, &Paint::fill(SOURCE).and_stroke(INK, 1.5)),
        facing(heading(d), &sprite::edge_wedge(SOURCE)),
        sprite::label(mark, 17.0, PAPER)
    )
}

fn target(dir: Dir, accepts: Accepts) -> String {
    let (fill, mark) = match accepts {
        Accepts::Any => (PAPER, "?".to_string()),
        Accepts::Only(k) => (kind_color(k), k.digit().to_string()),
    };
    format!(
        "{}{}{}{}",
        sprite::disc(14.5, &Paint::fill(PAPER).and_stroke(INK, 3.0)),
        sprite::disc(10.0, &Paint::fill(fill).and_stroke(INK, 1.0)),
        facing(heading(dir), &sprite::entry_wedge(palette::PAPER)),
        sprite::label(&mark, 12.0, INK)
    )
}

fn topper(kind: Kind, dir: Dir) -> String {
    format!(
        "{}{}{}",
        facing(heading(dir), &sprite::edge_wedge(kind_color(kind))),
        sprite::diamond(14.0, &Paint::fill(kind_color(kind)).and_stroke(INK, 1.5)),
        sprite::label(&kind.digit().to_string(), 12.0, INK)
    )
}

fn splitter(d: Dir) -> String {
    let fork = format!(
        "{}{}",
        svg::path(
            "M 5 20 L 17 20 L 29 9 M 17 20 L 29 31",
            &Paint::stroke(INK, 3.5)
        ),
        svg::polygon(
            &[(31.0, 5.0), (33.0, 14.0), (24.0, 11.0)],
            &Paint::fill(INK)
        ) + &svg::polygon(
            &[(31.0, 35.0), (33.0, 26.0), (24.0, 29.0)],
            &Paint::fill(INK)
        )
    );
    format!(
        "{}{}",
        sprite::square(34.0, 5.0, &Paint::fill(PAPER).and_stroke(INK, 1.5)),
        facing(heading(d), &fork)
    )
}

fn bumper(dir: Dir, kind: Kind) -> String {
    let body = svg::path(
        "M 9 7 L 17 7 A 13 13 0 0 1 17 33 L 9 33 Z",
        &Paint::fill(kind_color(kind)).and_stroke(INK, 1.5),
    );
    let plate = svg::rect(5.0, 5.0, 5.0, 30.0, 1.0, &Paint::fill(INK));
    format!(
        "{}{}",
        facing(
            heading(dir),
            &format!("{plate}{body}{}", sprite::edge_wedge(kind_color(kind)))
        ),
        sprite::label(&kind.digit().to_string(), 12.0, INK)
    )
}

fn tele_in(c: Channel) -> String {
    let color = channel_color(c);
    format!(
        "{}{}{}",
        sprite::disc(14.0, &Paint::fill(PAPER).and_stroke(color, 4.5)),
        sprite::disc(8.5, &Paint::stroke(color, 1.5).dashed("3 2")),
        sprite::label(&c.letter().to_string(), 12.0, INK)
    )
}

fn tele_out(c: Channel, d: Dir) -> String {
    let color = channel_color(c);
    format!(
        "{}{}{}",
        facing(heading(d), &sprite::edge_wedge(color)),
        sprite::disc(13.0, &Paint::fill(color).and_stroke(INK, 1.5)),
        sprite::label(&c.letter().to_string(), 13.0, PAPER)
    )
}

fn crossover() -> String {
    let lane = Paint::fill("#8C8C8C");
    format!(
        "{}{}{}",
        svg::rect(2.0, MID - 6.0, CELL - 4.0, 12.0, 2.0, &lane),
        svg::rect(MID - 6.0, 2.0, 12.0, CELL - 4.0, 2.0, &lane),
        sprite::disc(4.0, &Paint::fill(PAPER).and_stroke(INK, 1.0))
    )
}

/// The legend's words for a tile's entry (all tiles of one entry share it).
pub fn meaning(tile: Tile, placed: bool) -> &'static str {
    match tile {
        Tile::Empty => "free floor: a belt may be placed here",
        Tile::Belt(_) if placed => "belt placed by the layout, pointing where donuts go",
        Tile::Belt(_) => "preset belt (part of the level)",
        Tile::Block => "block",
        Tile::Source(_) => "source: a plain donut every tick, out of its wedge",
        Tile::AnySource(_) => "any-source: kinds 0 1 2 3 4 0 1 ... in turn, out of its wedge",
        Tile::Target { .. } => "target: takes the kind on it (? any), entered along its wedge",
        Tile::Topper { .. } => "topper: tops a donut on the dashed cell to its kind",
        Tile::Splitter(_) => "splitter: entered along the stem, sends left, then right",
        Tile::Bumper { .. } => "bumper: pushes donuts of its kind off the cell it faces",
        Tile::TeleIn(_) => "teleporter in (ring): to the out of its letter and colour",
        Tile::TeleOut(..) => "teleporter out (disc): emits out of its wedge",
        Tile::Crossover => "crossover: donuts go straight across",
    }
}

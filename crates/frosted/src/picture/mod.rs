//! Pictures of Freshly Frosted levels and runs, through the shared `picture`
//! crate: [`sheet`] draws a level or a layout as a [`Sheet`] (one SVG with the
//! grid, every entity, a legend and the level's `:targets`), and
//! [`replay::replay`] turns the simulator's run into the frames of the HTML
//! replay page. Coordinates on the picture are the rules' `(x, y)`.

pub mod replay;
pub mod sprites;

use crate::grid::{CellId, Kind};
use crate::judge::{explain, judge};
use crate::level::{Accepts, Level, Tile};
use picture::palette::INK;
use picture::sprite::{CELL, MID};
use picture::svg::{self, Paint};
use picture::{CellArt, Sheet};
use sprites::{art, channel_color, donut, meaning};
use std::collections::BTreeMap;

/// Whether the belt on `c` of `layout` is the layout's own (on a `.` cell of
/// `level`), not one of the level's preset belts.
fn placed(level: &Level, layout: &Level, c: CellId) -> bool {
    level.shape == layout.shape && level.tile(c) == Tile::Empty && layout.tile(c) != Tile::Empty
}

/// The picture of `layout`, a layout of `level` (or the level itself: then
/// every belt is preset). A layout's picture says whether it solves the level.
pub fn sheet(level: &Level, layout: &Level, title: &str) -> Sheet {
    let cells = layout
        .shape
        .cells()
        .map(|c| {
            let (floor, sprite) = art(layout.tile(c), placed(level, layout, c));
            CellArt {
                floor: floor.to_string(),
                sprite,
            }
        })
        .collect();
    let mut captions = vec![summary(level, layout)];
    if let Some(t) = &layout.flags.targets {
        let codes: Vec<String> = t.iter().map(|k| k.digit().to_string()).collect();
        captions.push(format!(
            ":targets: the deliveries must be exactly the kinds {}",
            codes.join(" ")
        ));
    }
    if layout != level {
        captions.push(verdict(layout));
    }
    Sheet {
        title: title.to_string(),
        captions,
        cols: layout.shape.width,
        rows: layout.shape.height,
        first_label: 0,
        cells,
        overlay: overlay(layout),
        legend: legend(level, layout),
    }
}

/// "5x4, 9 free cells, 1 source, 2 targets", and the belts a layout places.
fn summary(level: &Level, layout: &Level) -> String {
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let mut s = format!(
        "{}x{} (width x height), {}, {}, {}",
        level.shape.width,
        level.shape.height,
        plural(level.free_cells().count(), "free cell"),
        plural(level.sources().count(), "source"),
        plural(level.targets().count(), "target"),
    );
    if layout != level {
        s += &format!(
            "; the layout places {}",
            plural(layout.added_belts(level), "belt")
        );
    }
    s
}

/// Whether the layout solves its level, as `verify` says it.
fn verdict(layout: &Level) -> String {
    let v = judge(layout);
    match &v.reason {
        None => format!(
            "solved: every source delivered and every target received (tick {})",
            v.outcome.end.tick()
        ),
        Some(r) => format!("not solved: {}", explain(layout, r, &v.outcome)),
    }
}

/// Drawn over the cells: a dashed frame on the cell each topper works on,
/// and a dashed line from each teleporter in to the outs of its channel.
fn overlay(layout: &Level) -> String {
    let shape = layout.shape;
    let centre = |c: CellId| {
        let p = shape.pos(c);
        (p.x as f64 * CELL + MID, p.y as f64 * CELL + MID)
    };
    let mut out = String::new();
    for c in shape.cells() {
        match layout.tile(c) {
            Tile::TeleIn(ch) => {
                let pair = Paint::stroke(channel_color(ch), 2.0).dashed("2 4");
                for o in layout.tele_outs(ch) {
                    let ((x1, y1), (x2, y2)) = (centre(c), centre(o));
                    out += &svg::line(x1, y1, x2, y2, &pair);
                }
            }
            Tile::Topper { kind, dir } => {
                if let Some(t) = shape.step(c, dir) {
                    let (x, y) = centre(t);
                    let frame = Paint::stroke(sprites::kind_color(kind), 3.0).dashed("5 3");
                    out += &svg::rect(
                        x - MID + 3.0,
                        y - MID + 3.0,
                        CELL - 6.0,
                        CELL - 6.0,
                        4.0,
                        &frame,
                    );
                    let thin = Paint::stroke(INK, 0.8).dashed("5 3");
                    out += &svg::rect(
                        x - MID + 1.0,
                        y - MID + 1.0,
                        CELL - 2.0,
                        CELL - 2.0,
                        5.0,
                        &thin,
                    );
                }
            }
            _ => {}
        }
    }
    out
}

/// One legend entry per kind of tile drawn (placed and preset belts apart),
/// then one per donut kind the level names.
fn legend(level: &Level, layout: &Level) -> Vec<(String, String)> {
    let mut entries: BTreeMap<(u8, bool), (String, String)> = BTreeMap::new();
    for c in layout.shape.cells() {
        let tile = layout.tile(c);
        let placed = placed(level, layout, c);
        entries.entry((order(tile), placed)).or_insert_with(|| {
            let (floor, sprite) = art(tile, placed);
            let bg = svg::rect(0.0, 0.0, CELL, CELL, 3.0, &Paint::fill(floor));
            (format!("{bg}{sprite}"), meaning(tile, placed).to_string())
        });
    }
    let mut out: Vec<(String, String)> = entries.into_values().collect();
    for k in kinds_named(layout) {
        out.push((
            donut(k),
            format!(
                "kind {}: {} (level code {}), colour and digit",
                k.digit(),
                k.name(),
                k.target_code()
            ),
        ));
    }
    out
}

/// The legend's order of tiles.
fn order(tile: Tile) -> u8 {
    match tile {
        Tile::Empty => 0,
        Tile::Belt(_) => 1,
        Tile::Block => 2,
        Tile::Source(_) => 3,
        Tile::AnySource(_) => 4,
        Tile::Target { .. } => 5,
        Tile::Topper { .. } => 6,
        Tile::Splitter(_) => 7,
        Tile::Bumper { .. } => 8,
        Tile::TeleIn(_) => 9,
        Tile::TeleOut(..) => 10,
        Tile::Crossover => 11,
    }
}

/// The kinds a level names: plain (its sources' donuts), the kinds of its
/// targets, toppers and bumpers, `:targets`; all five with an any-source.
fn kinds_named(level: &Level) -> Vec<Kind> {
    let mut kinds = vec![Kind::PLAIN];
    for c in level.shape.cells() {
        match level.tile(c) {
            Tile::AnySource(_) => kinds.extend(Kind::ALL),
            Tile::Target {
                accepts: Accepts::Only(k),
                ..
            }
            | Tile::Topper { kind: k, .. }
            | Tile::Bumper { kind: k, .. } => kinds.push(k),
            _ => {}
        }
    }
    kinds.extend(level.flags.targets.iter().flatten().copied());
    kinds.sort();
    kinds.dedup();
    kinds
}

/// The sheet's SVG: `show LEVEL [LAYOUT] --svg`.
pub fn svg(level: &Level, layout: &Level, title: &str) -> String {
    sheet(level, layout, title).svg()
}

/// The replay page of the run of `layout` (a layout of `level`): `simulate
/// LEVEL LAYOUT --html`.
pub fn html(level: &Level, layout: &Level, title: &str) -> String {
    picture::replay_page(&sheet(level, layout, title), &replay::replay(layout))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn placed_and_preset_belts_are_drawn_apart() {
        let level = parse("+> > . ->").expect("level");
        let layout = parse("+> > > ->").expect("layout");
        let s = sheet(&level, &layout, "t");
        assert_eq!(s.cells[1].floor, picture::palette::PRESET);
        assert_eq!(s.cells[2].floor, picture::palette::FLOOR);
        assert!(s.cells[2].sprite.contains(sprites::PLACED));
        assert!(!s.cells[1].sprite.contains(sprites::PLACED));
        let texts: Vec<&str> = s.legend.iter().map(|l| l.1.as_str()).collect();
        assert!(
            texts.iter().any(|t| t.starts_with("belt placed")),
            "{texts:?}"
        );
        assert!(
            texts.iter().any(|t| t.starts_with("preset belt")),
            "{texts:?}"
        );
        assert!(
            s.captions.iter().any(|c| c.starts_with("solved")),
            "{:?}",
            s.captions
        );
    }

    #[test]
    fn targets_and_the_topped_cell_are_shown() {
        let level = parse(":targets 1\n+> > ->1\n.  1^ .").expect("level");
        let s = sheet(&level, &level, "t");
        assert!(
            s.captions[1].contains("exactly the kinds 1"),
            "{:?}",
            s.captions
        );
        // The topper below (1, 0) works on it: a dashed frame there.
        assert!(s.overlay.contains("stroke-dasharray"), "{}", s.overlay);
        assert!(s.legend.iter().any(|l| l.1.starts_with("kind 1: frosting")));
    }
}

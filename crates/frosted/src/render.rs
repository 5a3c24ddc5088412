//! Drawing boards and runs in the terminal with unicode belts and entities.
//!
//! Every cell is one fixed-width column, so rows line up; column numbers run along
//! the top and row numbers down the left. Entities are drawn as a symbol followed by
//! their direction as an arrow and, where they have one, a kind as a digit 0-4 (the
//! toppings state of the rules' section 1, not the level file's code):
//!
//! | glyph | entity |
//! | --- | --- |
//! | `·` | empty floor |
//! | `↑ ↓ ← →` | belt |
//! | `█` | block |
//! | `⊕d` | source |
//! | `⊛d` | any-source |
//! | `◎dk`, `◎d?` | target entered moving `d`, accepting kind `k` / any |
//! | `◆kd` | topper of kind `k` working on the cell towards `d` |
//! | `⋔d` | splitter entered moving `d` |
//! | `◗dk` | bumper facing `d`, pushing donuts of kind `k` |
//! | `◌C` | teleporter in of channel `C` |
//! | `●Cd` | teleporter out of channel `C` emitting towards `d` |
//! | `╬` | crossover |
//!
//! A drawn simulation state gives every cell one more character in front of its
//! glyph: the kind digit of the donut standing on it, or a space (`0→` is a plain
//! donut on a belt pointing right). The output is plain text with no colour
//! codes and depends only on its input, so it can be snapshot-tested.

use crate::grid::{CellId, Kind, Pos, Shape};
use crate::level::{Accepts, Level, Tile};
use crate::sim::{Cross, Simulator};
use std::fmt::Write;

/// The drawing of one tile, without any donut.
pub fn glyph(tile: Tile) -> String {
    match tile {
        Tile::Empty => "·".into(),
        Tile::Belt(d) => d.glyph().to_string(),
        Tile::Block => "█".into(),
        Tile::Source(d) => format!("⊕{}", d.glyph()),
        Tile::AnySource(d) => format!("⊛{}", d.glyph()),
        Tile::Target { dir, accepts } => match accepts {
            Accepts::Any => format!("◎{}?", dir.glyph()),
            Accepts::Only(k) => format!("◎{}{}", dir.glyph(), k.digit()),
        },
        Tile::Topper { kind, dir } => format!("◆{}{}", kind.digit(), dir.glyph()),
        Tile::Splitter(d) => format!("⋔{}", d.glyph()),
        Tile::Bumper { dir, kind } => format!("◗{}{}", dir.glyph(), kind.digit()),
        Tile::TeleIn(c) => format!("◌{}", c.letter()),
        Tile::TeleOut(c, d) => format!("●{}{}", c.letter(), d.glyph()),
        Tile::Crossover => "╬".into(),
    }
}

/// The kinds of glyph, in legend order.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Entry {
    Empty,
    Belt,
    Block,
    Source,
    AnySource,
    Target,
    Topper,
    Splitter,
    Bumper,
    TeleIn,
    TeleOut,
    Crossover,
}

fn entry(tile: Tile) -> Entry {
    match tile {
        Tile::Empty => Entry::Empty,
        Tile::Belt(_) => Entry::Belt,
        Tile::Block => Entry::Block,
        Tile::Source(_) => Entry::Source,
        Tile::AnySource(_) => Entry::AnySource,
        Tile::Target { .. } => Entry::Target,
        Tile::Topper { .. } => Entry::Topper,
        Tile::Splitter(_) => Entry::Splitter,
        Tile::Bumper { .. } => Entry::Bumper,
        Tile::TeleIn(_) => Entry::TeleIn,
        Tile::TeleOut(..) => Entry::TeleOut,
        Tile::Crossover => Entry::Crossover,
    }
}

fn entry_text(e: Entry) -> (&'static str, &'static str) {
    match e {
        Entry::Empty => ("·", "empty floor: a belt may be placed here"),
        Entry::Belt => ("↑↓←→", "belt"),
        Entry::Block => ("█", "block"),
        Entry::Source => ("⊕d", "source: a plain donut towards d every tick"),
        Entry::AnySource => (
            "⊛d",
            "any-source: donuts towards d, kinds 0 1 2 3 4 0 1 ... in turn",
        ),
        Entry::Target => (
            "◎dk",
            "target entered moving d, accepting donuts of kind k (? any kind)",
        ),
        Entry::Topper => (
            "◆kd",
            "topper: turns a kind k-1 donut on the cell towards d into kind k",
        ),
        Entry::Splitter => (
            "⋔d",
            "splitter entered moving d: sends donuts to its left, then its right, in turn",
        ),
        Entry::Bumper => (
            "◗dk",
            "bumper facing d: pushes a kind k donut on the cell in front of it towards d",
        ),
        Entry::TeleIn => ("◌C", "teleporter in of channel C"),
        Entry::TeleOut => ("●Cd", "teleporter out of channel C, emitting towards d"),
        Entry::Crossover => ("╬", "crossover"),
    }
}

fn width_of(s: &str) -> usize {
    s.chars().count()
}

fn pad(out: &mut String, s: &str, width: usize) {
    out.push_str(s);
    for _ in width_of(s)..width {
        out.push(' ');
    }
}

/// The coordinate of a cell, as `(x, y)`.
fn at(shape: Shape, c: CellId) -> Pos {
    shape.pos(c)
}

/// Draws the grid: column numbers on top, row numbers on the left, and in each
/// cell its glyph, preceded, when `donuts` is given, by the digit of the kind of
/// the donut on it (or a space).
fn grid(level: &Level, donuts: Option<&[Option<Kind>]>) -> String {
    let shape = level.shape;
    let glyphs: Vec<String> = level.tiles.iter().map(|t| glyph(*t)).collect();
    let g = glyphs.iter().map(|s| width_of(s)).max().unwrap_or(1);
    let cell_w = g + usize::from(donuts.is_some());
    let col_w = cell_w.max(shape.width.saturating_sub(1).to_string().len());
    let label_w = shape.height.saturating_sub(1).to_string().len();

    let mut out = String::new();
    let mut line = " ".repeat(label_w);
    for x in 0..shape.width {
        line.push(' ');
        pad(&mut line, &x.to_string(), col_w);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    for y in 0..shape.height {
        let mut line = format!("{y:>label_w$}");
        for x in 0..shape.width {
            let c = shape.cell(Pos { x, y });
            line.push(' ');
            let mut cell = String::new();
            if let Some(d) = donuts {
                cell.push(d[c.index()].map_or(' ', Kind::digit));
            }
            cell.push_str(&glyphs[c.index()]);
            pad(&mut line, &cell, col_w);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The legend of the glyphs drawn for `level`, one line per kind of entity used,
/// then the kind digits (and, for a simulation state, how donuts are drawn).
pub fn legend(level: &Level, with_donuts: bool) -> String {
    let mut used: Vec<Entry> = level.tiles.iter().map(|t| entry(*t)).collect();
    used.sort();
    used.dedup();
    let mut out = String::from("legend:\n");
    for e in used {
        let (g, text) = entry_text(e);
        let mut line = String::from("  ");
        pad(&mut line, g, 6);
        line.push_str(text);
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(
        "  kinds k: 0 plain, 1 frosting, 2 sprinkles, 3 whipped cream, 4 cherries (level codes 0 1 3 7 15)\n",
    );
    if with_donuts {
        out.push_str("  a digit in front of a glyph is the kind of the donut on that cell (0→: a plain donut on a belt)\n");
    }
    out
}

/// Draws a level (or a layout) with its coordinates.
pub fn board(level: &Level) -> String {
    grid(level, None)
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A short summary of a level: size, free cells, sources, targets and `:targets`.
pub fn summary(level: &Level) -> String {
    let mut out = format!(
        "{}x{} (width x height), {}, {}, {}",
        level.shape.width,
        level.shape.height,
        count(level.free_cells().count(), "free cell"),
        count(level.sources().count(), "source"),
        count(level.targets().count(), "target"),
    );
    if let Some(t) = &level.flags.targets {
        let codes: Vec<String> = t.iter().map(|k| k.digit().to_string()).collect();
        let _ = write!(out, "; :targets wants kinds {}", codes.join(" "));
    }
    out.push('\n');
    out
}

/// Draws a level with its summary and legend: what `frosted show` prints.
pub fn level(level: &Level) -> String {
    format!("{}{}{}", summary(level), board(level), legend(level, false))
}

fn cross_text(c: Cross) -> String {
    match c {
        Cross::Open => "open".into(),
        Cross::Occupied(d) => format!("occupied by a donut moving {} ({d})", d.glyph()),
        Cross::OpenHorizontal => "open to horizontal entries only".into(),
        Cross::OpenVertical => "open to vertical entries only".into(),
    }
}

/// Draws the state of a simulation of `layout`: the board with the donuts on it,
/// then the non-zero waiting counters, the splitters' next turns, the crossovers'
/// states, the any-sources' next kinds and the deliveries so far. Sections with
/// nothing in them are left out, except the deliveries.
pub fn state(layout: &Level, sim: &Simulator) -> String {
    let shape = layout.shape;
    let cells = sim.cells();
    let donuts: Vec<Option<Kind>> = cells.iter().map(|s| s.donut.map(|d| d.kind)).collect();
    let mut out = grid(layout, Some(&donuts));

    let waiting: Vec<String> = shape
        .cells()
        .filter(|c| cells[c.index()].waiting > 0)
        .map(|c| format!("{} {}", at(shape, c), cells[c.index()].waiting))
        .collect();
    if !waiting.is_empty() {
        let _ = writeln!(out, "waiting: {}", waiting.join(", "));
    }

    let mut splitters = String::new();
    let mut crossovers = String::new();
    let mut any_sources = String::new();
    for c in shape.cells() {
        let st = &cells[c.index()];
        let p = at(shape, c);
        match layout.tile(c) {
            Tile::Splitter(f) => {
                let (side, d) = if st.next_right {
                    ("right", f.turn_right())
                } else {
                    ("left", f.turn_left())
                };
                let _ = writeln!(
                    splitters,
                    "  {p} {}: the next donut goes {side} ({} {d})",
                    glyph(layout.tile(c)),
                    d.glyph()
                );
            }
            Tile::Crossover => {
                let _ = writeln!(crossovers, "  {p} ╬: {}", cross_text(st.cross));
            }
            Tile::AnySource(_) => {
                let _ = writeln!(
                    any_sources,
                    "  {p} {}: emits kind {} ({}) next",
                    glyph(layout.tile(c)),
                    st.cycle.digit(),
                    st.cycle
                );
            }
            _ => {}
        }
    }
    for (title, body) in [
        ("splitters", splitters),
        ("crossovers", crossovers),
        ("any-sources", any_sources),
    ] {
        if !body.is_empty() {
            let _ = write!(out, "{title}:\n{body}");
        }
    }

    let ds = sim.deliveries();
    if ds.is_empty() {
        out.push_str("deliveries: none\n");
    } else {
        out.push_str("deliveries (target <- kind from source, first tick):\n");
        for d in ds {
            let _ = writeln!(
                out,
                "  {} <- {} ({}) from {}, tick {}",
                at(shape, d.target),
                d.kind.digit(),
                d.kind,
                at(shape, d.origin),
                d.tick
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn every_tile_has_a_glyph_and_the_grid_lines_up() {
        let l = parse("+> +v? -^ -<? ->3 1v\nx> b>7 T- T+v * #\n. ^ v < > .").unwrap();
        let b = board(&l);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines[0], "  0   1   2   3   4   5");
        assert_eq!(lines[1], "0 ⊕→  ⊛↓  ◎↑0 ◎←? ◎→2 ◆1↓");
        assert_eq!(lines[2], "1 ⋔→  ◗→3 ◌T  ●T↓ ╬   █");
        assert_eq!(lines[3], "2 ·   ↑   ↓   ←   →   ·");
        let leg = legend(&l, false);
        assert!(leg.contains("◗dk"), "{leg}");
        assert!(!leg.contains("donut on that cell"), "{leg}");
    }

    #[test]
    fn state_shows_donuts_and_deliveries() {
        let l = parse("+> > > ->").unwrap();
        let mut sim = Simulator::new(&l);
        for _ in 0..4 {
            sim.step();
        }
        let s = state(&l, &sim);
        assert!(
            s.starts_with("  0    1    2    3\n0  ⊕→  0→   0→   0◎→0\n"),
            "{s}"
        );
        assert!(s.contains("(3, 0) <- 0 (plain) from (0, 0), tick 4"), "{s}");
    }
}

//! A board as one SVG: a title and caption lines, the grid with its column and
//! row numbers, a sprite on each cell, an overlay (a track, a topper's
//! working cell), and a legend of the sprites used. A puzzle fills a
//! [`Sheet`]; [`Geometry`] says where each cell lands, for the replay's
//! player and for tests that look at the drawn pixels.

use crate::palette::{GRID, INK, MUTED, PAPER};
use crate::sprite::{self, CELL};
use crate::svg::{self, Font, Paint};

/// One cell: its floor colour and what is drawn on it (cell coordinates).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CellArt {
    pub floor: String,
    pub sprite: String,
}

/// A board to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sheet {
    pub title: String,
    /// Lines under the title: size, what the level asks for.
    pub captions: Vec<String>,
    pub cols: usize,
    pub rows: usize,
    /// The coordinate written above column 0 and beside row 0.
    pub first_label: i64,
    /// Row-major, `cols * rows` cells.
    pub cells: Vec<CellArt>,
    /// Drawn over every cell, in grid coordinates (cell `(c, r)` spans
    /// `c*CELL..(c+1)*CELL`).
    pub overlay: String,
    /// The legend: a sprite (cell coordinates) and what it means.
    pub legend: Vec<(String, String)>,
}

const MARGIN: f64 = 16.0;
const LABELS: f64 = 22.0;
const TITLE: Font = Font::new(17.0, true, "start");
const CAPTION: Font = Font::new(12.5, false, "start");
const COORD: Font = Font::new(10.0, false, "middle");
const LEGEND: Font = Font::new(12.0, false, "start");
/// The legend's sprites are drawn at this share of a cell.
const LEGEND_SCALE: f64 = 0.7;
const LEGEND_ROW: f64 = CELL * LEGEND_SCALE + 6.0;
/// The narrowest picture.
const MIN_WIDTH: f64 = 300.0;

/// Captions longer than this many characters are wrapped.
const WRAP: usize = 90;

/// `text` cut at spaces into lines of at most `width` characters (a longer
/// word stands alone), the lines after the first indented.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
            line.push_str("  ");
        }
        if !line.is_empty() && !line.ends_with("  ") {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// About how wide `text` is set in `font` (DejaVu Sans is a little over half an
/// em a character, bold a little more): enough to size the picture.
fn text_width(text: &str, font: Font) -> f64 {
    let per = if font.bold { 0.62 } else { 0.56 };
    text.chars().count() as f64 * font.size * per
}

/// Where the parts of a sheet land in its SVG.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Geometry {
    /// The top left corner of cell (0, 0).
    pub origin: (f64, f64),
    pub cell: f64,
    pub width: f64,
    pub height: f64,
    /// Where the legend starts (its top left corner).
    pub legend: (f64, f64),
}

impl Geometry {
    /// The box of cell `(col, row)`: `(x, y, width, height)`.
    pub fn cell_box(&self, col: usize, row: usize) -> (f64, f64, f64, f64) {
        let (x, y) = self.origin;
        (x + col as f64 * CELL, y + row as f64 * CELL, CELL, CELL)
    }
}

impl Sheet {
    fn header_height(&self) -> f64 {
        if self.title.is_empty() && self.captions.is_empty() {
            return MARGIN;
        }
        MARGIN + 22.0 + self.caption_lines().len() as f64 * 18.0 + 6.0
    }

    /// The captions, each wrapped at [`WRAP`] characters.
    fn caption_lines(&self) -> Vec<String> {
        self.captions.iter().flat_map(|c| wrap(c, WRAP)).collect()
    }

    /// The sheet without its title and captions (a page that shows them
    /// itself).
    pub fn bare(&self) -> Sheet {
        Sheet {
            title: String::new(),
            captions: Vec::new(),
            ..self.clone()
        }
    }

    /// Where everything lands: the legend stands right of the grid, one
    /// entry a row, its top level with the grid's.
    pub fn geometry(&self) -> Geometry {
        let origin = (MARGIN + LABELS, self.header_height() + LABELS);
        let grid_w = self.cols as f64 * CELL;
        let grid_h = self.rows as f64 * CELL;
        let legend_left = origin.0 + grid_w + 28.0;
        let legend_text = self
            .legend
            .iter()
            .map(|(_, t)| text_width(t, LEGEND))
            .fold(0.0, f64::max);
        let legend_w = CELL * LEGEND_SCALE + 10.0 + legend_text;
        let header_w = self
            .caption_lines()
            .iter()
            .map(|c| text_width(c, CAPTION))
            .fold(text_width(&self.title, TITLE), f64::max);
        let width = [
            legend_left + legend_w + MARGIN,
            MARGIN + header_w + MARGIN,
            MIN_WIDTH,
        ];
        let legend_h = self.legend.len() as f64 * LEGEND_ROW;
        Geometry {
            origin,
            cell: CELL,
            width: width.into_iter().fold(0.0, f64::max).ceil(),
            height: (origin.1 + grid_h.max(legend_h) + MARGIN).ceil(),
            legend: (legend_left, origin.1),
        }
    }

    /// The whole picture as one SVG document.
    pub fn svg(&self) -> String {
        self.svg_with_layer("")
    }

    /// The picture with `layer` drawn over the grid (grid coordinates): the
    /// replay page puts its moving tokens there.
    pub fn svg_with_layer(&self, layer: &str) -> String {
        let g = self.geometry();
        let mut body = svg::rect(0.0, 0.0, g.width, g.height, 0.0, &Paint::fill(PAPER));
        body += "\n";
        body += &self.header();
        body += &self.coordinates(&g);
        body += &self.grid(&g);
        body += &self.legend_svg(&g);
        if !layer.is_empty() {
            body += &svg::at(g.origin.0, g.origin.1, layer);
            body += "\n";
        }
        svg::document(g.width, g.height, &self.title, body.trim_end())
    }

    fn header(&self) -> String {
        if self.title.is_empty() && self.captions.is_empty() {
            return String::new();
        }
        let mut out = svg::text(MARGIN, MARGIN + 8.0, &self.title, TITLE, INK);
        out += "\n";
        for (i, c) in self.caption_lines().iter().enumerate() {
            let y = MARGIN + 30.0 + i as f64 * 18.0;
            out += &svg::text(MARGIN, y, c, CAPTION, MUTED);
            out += "\n";
        }
        out
    }

    fn coordinates(&self, g: &Geometry) -> String {
        let (ox, oy) = g.origin;
        let mut out = String::new();
        for c in 0..self.cols {
            let n = (self.first_label + c as i64).to_string();
            out += &svg::text(ox + (c as f64 + 0.5) * CELL, oy - 10.0, &n, COORD, MUTED);
        }
        for r in 0..self.rows {
            let n = (self.first_label + r as i64).to_string();
            out += &svg::text(ox - 11.0, oy + (r as f64 + 0.5) * CELL, &n, COORD, MUTED);
        }
        out + "\n"
    }

    /// The cells (floor, then sprite), the grid lines, the overlay.
    fn grid(&self, g: &Geometry) -> String {
        let mut out = String::new();
        for (i, cell) in self.cells.iter().enumerate() {
            let (col, row) = (i % self.cols.max(1), i / self.cols.max(1));
            let floor = svg::rect(0.0, 0.0, CELL, CELL, 0.0, &Paint::fill(&cell.floor));
            let inner = format!("{floor}{}", cell.sprite);
            out += &format!(
                "<g transform=\"{}\">{inner}</g>\n",
                sprite::place(g.origin, col, row)
            );
        }
        let (ox, oy) = g.origin;
        let (w, h) = (self.cols as f64 * CELL, self.rows as f64 * CELL);
        let thin = Paint::stroke(GRID, 1.0);
        let mut lines = String::new();
        for c in 1..self.cols {
            let x = ox + c as f64 * CELL;
            lines += &svg::line(x, oy, x, oy + h, &thin);
        }
        for r in 1..self.rows {
            let y = oy + r as f64 * CELL;
            lines += &svg::line(ox, y, ox + w, y, &thin);
        }
        out += &lines;
        out += &svg::rect(ox, oy, w, h, 0.0, &Paint::stroke(INK, 1.5));
        out += "\n";
        if !self.overlay.is_empty() {
            out += &svg::at(ox, oy, &self.overlay);
            out += "\n";
        }
        out
    }

    fn legend_svg(&self, g: &Geometry) -> String {
        let mut out = String::new();
        let size = CELL * LEGEND_SCALE;
        let x = g.legend.0;
        for (i, (sprite, text)) in self.legend.iter().enumerate() {
            let y = g.legend.1 + i as f64 * LEGEND_ROW;
            let frame = svg::rect(0.0, 0.0, CELL, CELL, 3.0, &Paint::stroke(GRID, 1.0));
            out += &svg::group(
                &format!(
                    "translate({} {}) scale({LEGEND_SCALE})",
                    svg::num(x),
                    svg::num(y)
                ),
                &format!("{frame}{sprite}"),
            );
            out += &svg::text(x + size + 10.0, y + size / 2.0, text, LEGEND, INK);
            out += "\n";
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet() -> Sheet {
        Sheet {
            title: "t".into(),
            captions: vec!["c".into()],
            cols: 3,
            rows: 2,
            first_label: 0,
            cells: vec![
                CellArt {
                    floor: "#fff".into(),
                    sprite: String::new()
                };
                6
            ],
            overlay: String::new(),
            legend: vec![("<x/>".into(), "a thing".into())],
        }
    }

    #[test]
    fn cells_land_where_the_geometry_says() {
        let s = sheet();
        let g = s.geometry();
        let (x, y, w, _) = g.cell_box(2, 1);
        assert_eq!(w, CELL);
        let svg = s.svg();
        let moved = format!("translate({} {})", svg::num(x), svg::num(y));
        assert!(svg.contains(&moved), "{moved} not in {svg}");
        assert!(svg.contains(">a thing</text>"));
        assert!(g.legend.0 > x + w);
    }

    #[test]
    fn long_captions_are_wrapped() {
        let text = "word ".repeat(40);
        let lines = wrap(text.trim_end(), 30);
        assert!(lines.len() >= 6, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 30), "{lines:?}");
        assert!(lines[1].starts_with("  word"), "{lines:?}");
        assert_eq!(wrap("short", 30), ["short"]);
        let bare = sheet().bare();
        assert!(bare.geometry().origin.1 < sheet().geometry().origin.1);
    }
}

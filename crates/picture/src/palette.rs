//! Colours: the Okabe-Ito palette (Okabe and Ito, "Color Universal Design"),
//! whose eight colours stay apart for readers with any common colour-vision
//! deficiency, plus the greys of the board. Pictures draw their own light
//! background, so they read the same on light and on dark pages, and every
//! colour that tells things apart comes with a mark (a letter, a digit or a
//! shape) as well.

pub const BLACK: &str = "#000000";
pub const ORANGE: &str = "#E69F00";
pub const SKY_BLUE: &str = "#56B4E9";
pub const BLUISH_GREEN: &str = "#009E73";
pub const YELLOW: &str = "#F0E442";
pub const BLUE: &str = "#0072B2";
pub const VERMILLION: &str = "#D55E00";
pub const REDDISH_PURPLE: &str = "#CC79A7";

/// The eight colours in the palette's order.
pub const OKABE_ITO: [&str; 8] = [
    BLACK,
    ORANGE,
    SKY_BLUE,
    BLUISH_GREEN,
    YELLOW,
    BLUE,
    VERMILLION,
    REDDISH_PURPLE,
];

/// The picture's own background (drawn, so a dark page does not show through).
pub const PAPER: &str = "#FFFFFF";
/// Text and outlines.
pub const INK: &str = "#1A1A1A";
/// Secondary text: coordinates, captions.
pub const MUTED: &str = "#5A5A5A";
/// Grid lines between cells.
pub const GRID: &str = "#C8C8C8";
/// A cell the player may build on.
pub const FLOOR: &str = "#F4F4F1";
/// A cell that came with the level (a preset belt's cell).
pub const PRESET: &str = "#DADAD5";
/// A wall or block.
pub const WALL: &str = "#4D4D4D";
/// The cross drawn on a wall.
pub const HATCH: &str = "#6E6E6E";
/// Outside the playing field (a frame around it).
pub const OUTSIDE: &str = "#E9E9F2";

#[cfg(test)]
mod tests {
    use super::*;

    /// The relative luminance of a `#RRGGBB` colour (WCAG).
    fn luminance(c: &str) -> f64 {
        let channel = |i: usize| {
            let v = u8::from_str_radix(&c[i..i + 2], 16).unwrap_or(0) as f64 / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    }

    #[test]
    fn ink_reads_on_every_board_colour() {
        for bg in [PAPER, FLOOR, PRESET, OUTSIDE] {
            let ratio = (luminance(bg) + 0.05) / (luminance(INK) + 0.05);
            assert!(ratio > 7.0, "{bg}: contrast {ratio}");
        }
        assert_eq!(OKABE_ITO.len(), 8);
    }
}

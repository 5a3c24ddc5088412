//! Shows a place in a text file the way a compiler does: the message,
//! `file:line:col`, the line, and a caret under the offending characters.
//! Level files (`parse`) and SAT solvers' output (`sat::dimacs`) both point at
//! their errors with it.
//!
//! Places are stored 0-based and shown 1-based.

use std::fmt;

/// A place in a text: 0-based line and column (in characters), and a length.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub line: usize,
    pub col: usize,
    pub len: usize,
}

impl Span {
    /// The span of `part`, a substring of `line` (which is line `line_no`).
    pub fn of(line_no: usize, line: &str, part: &str) -> Span {
        let offset = (part.as_ptr() as usize)
            .saturating_sub(line.as_ptr() as usize)
            .min(line.len());
        let col = line
            .get(..offset)
            .map_or(0, |before| before.chars().count());
        Span {
            line: line_no,
            col,
            len: part.chars().count().max(1),
        }
    }
}

/// The message, `path:line:col`, the line (`line_text`) and a caret under the
/// span.
pub fn render(message: &dyn fmt::Display, path: &str, span: Span, line_text: &str) -> String {
    let line_no = (span.line + 1).to_string();
    let pad = " ".repeat(line_no.len());
    let (shown, col) = display_window(line_text, span.col);
    // As wide as the characters it stands under.
    let under: usize = line_text
        .chars()
        .skip(span.col)
        .take(span.len.clamp(1, 40))
        .map(width)
        .sum();
    let caret = "^".repeat(under.max(1));
    format!(
        "{message}\n{pad}--> {path}:{}:{}\n{pad} |\n{line_no} | {shown}\n{pad} | {}{caret}",
        span.line + 1,
        span.col + 1,
        " ".repeat(col),
    )
}

/// How many columns a terminal gives `c`: two for the wide characters of East
/// Asian scripts and for emoji, one for the rest. A short table of the main
/// blocks rather than all of Unicode's: it only places a caret.
fn width(c: char) -> usize {
    #[rustfmt::skip]
    const WIDE: [(u32, u32); 14] = [
        (0x1100, 0x115F), (0x2E80, 0x303E), (0x3041, 0x33FF), (0x3400, 0x4DBF),
        (0x4E00, 0x9FFF), (0xA000, 0xA4CF), (0xAC00, 0xD7A3), (0xF900, 0xFAFF),
        (0xFE30, 0xFE4F), (0xFF00, 0xFF60), (0xFFE0, 0xFFE6), (0x1F300, 0x1F64F),
        (0x1F900, 0x1F9FF), (0x20000, 0x3FFFD),
    ];
    let c = c as u32;
    if WIDE
        .iter()
        .any(|&(first, last)| (first..=last).contains(&c))
    {
        2
    } else {
        1
    }
}

/// Cuts a long line to a window around `col` and makes control characters visible;
/// returns the shown text and the caret's column within it, in terminal columns.
fn display_window(line: &str, col: usize) -> (String, usize) {
    const WINDOW: usize = 60;
    let chars: Vec<char> = line.chars().collect();
    let start = col.saturating_sub(WINDOW);
    let end = (col + WINDOW).min(chars.len());
    let mut out = String::new();
    let mut caret = 0;
    if start > 0 {
        out.push('…');
        caret += 1;
    }
    for (i, &c) in chars[start.min(end)..end].iter().enumerate() {
        let shown = match c {
            // One column, as the caret counts it.
            '\t' => ' ',
            // Unicode's control pictures: ␀ for NUL, ␍ for CR, ␡ for DEL.
            '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('�'),
            '\u{7f}' => '␡',
            c if c.is_control() => '�',
            c => c,
        };
        if start + i < col {
            caret += width(shown);
        }
        out.push(shown);
    }
    if end < chars.len() {
        out.push('…');
    }
    (out, caret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_of_a_substring_counts_characters() {
        let line = "v ä 12 x";
        let x = &line[line.find('x').unwrap()..];
        assert_eq!(
            Span::of(3, line, x),
            Span {
                line: 3,
                col: 7,
                len: 1
            }
        );
        let n = &line[line.find("12").unwrap()..][..2];
        assert_eq!(Span::of(0, line, n).col, 4);
    }

    #[test]
    fn the_caret_stands_under_the_column() {
        let r = render(
            &"bad",
            "f.txt",
            Span {
                line: 1,
                col: 3,
                len: 2,
            },
            "ab\tcd e",
        );
        assert_eq!(r, "bad\n --> f.txt:2:4\n  |\n2 | ab cd e\n  |    ^^");
        // A long line is cut around the column, and the caret follows the cut.
        let long = format!("{}X", "y".repeat(100));
        let r = render(
            &"m",
            "f",
            Span {
                line: 0,
                col: 100,
                len: 1,
            },
            &long,
        );
        let lines: Vec<&str> = r.lines().collect();
        let shown = lines[3].trim_start_matches("1 | ");
        let caret = lines[4].trim_start_matches("  | ").find('^').unwrap();
        assert_eq!(shown.chars().nth(caret), Some('X'));
        // Wide characters take two columns, before the caret and under it.
        assert_eq!(caret_line(3, 2, "+> 漢字 ->"), "  |    ^^^^");
        assert_eq!(caret_line(3, 1, "😀😀 ?? ->"), "  |      ^");
    }

    /// The caret line of an error at `col` on the first line, `len` long.
    fn caret_line(col: usize, len: usize, line: &str) -> String {
        let span = Span { line: 0, col, len };
        let r = render(&"m", "f", span, line);
        r.lines().nth(4).unwrap_or_default().to_string()
    }
}

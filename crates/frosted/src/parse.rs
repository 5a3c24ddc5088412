//! Reading the level format (rules, section 2) with errors that point at the
//! offending line and column.
//!
//! Spans are stored 0-based and shown 1-based. No input, however broken, makes the
//! parser panic: every problem becomes a [`ParseError`].

use crate::grid::{Dir, Kind, Shape};
use crate::level::{Accepts, Channel, Flags, Level, Tile};
use std::fmt;

pub use snippet::Span;

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    NotUtf8,
    UnknownToken(String),
    BadTopperKind(String),
    UnknownFlag(String),
    BadTargetsCode(String),
    EmptyTargets,
    BadLoopThreshold(String),
    Ragged { expected: usize, found: usize },
    EmptyGrid,
    EmptyFile,
    LoneCarriageReturn,
    TeleInWithoutOut(char),
    TeleOutWithoutIn(char),
    DuplicateTeleIn(char),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NotUtf8 => write!(f, "the file is not valid UTF-8 text"),
            ErrorKind::UnknownToken(t) => write!(
                f,
                "unknown token `{}` (expected . ^ v < > # +d +d? -d -d? -dk kd xd bdk T- T+d U- U+d *)",
                t.escape_debug()
            ),
            ErrorKind::BadTopperKind(t) => write!(
                f,
                "`{}` is not a topper: topper kinds are 1 2 3 4 7 8 f F (0, 5, 6 and 9 are not)",
                t.escape_debug()
            ),
            ErrorKind::UnknownFlag(t) => write!(
                f,
                "unknown flag `{}` (expected :targets, :comment, :tickwise, :allow-invalid-deliveries or :loop-threshold)",
                t.escape_debug()
            ),
            ErrorKind::BadTargetsCode(t) => write!(
                f,
                "bad :targets code `{}` (expected 0 1 3 7 15, or the aliases 2 4 8 f F)",
                t.escape_debug()
            ),
            ErrorKind::EmptyTargets => write!(f, ":targets lists no donut kinds"),
            ErrorKind::BadLoopThreshold(t) => write!(
                f,
                ":loop-threshold needs a positive whole number, found `{}`",
                t.escape_debug()
            ),
            ErrorKind::Ragged { expected, found } => write!(
                f,
                "ragged grid: this row has {found} tokens, the first row has {expected}"
            ),
            ErrorKind::EmptyGrid => write!(f, "the level has no grid rows"),
            ErrorKind::EmptyFile => write!(f, "the file is empty"),
            ErrorKind::LoneCarriageReturn => write!(
                f,
                "a carriage return (CR) inside a line: lines end in LF or CR LF \
                 (a file from an old Mac? convert it with `tr '\\r' '\\n'`)"
            ),
            ErrorKind::TeleInWithoutOut(c) => {
                write!(f, "teleporter in `{c}-` has no teleporter out `{c}+d` of its channel")
            }
            ErrorKind::TeleOutWithoutIn(c) => {
                write!(f, "teleporter out of channel {c} has no teleporter in `{c}-`")
            }
            ErrorKind::DuplicateTeleIn(c) => {
                write!(f, "channel {c} has more than one teleporter in")
            }
        }
    }
}

/// A parse error with its place and the text of the offending line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub kind: ErrorKind,
    pub span: Span,
    /// The offending line (may be shortened around the column for display).
    pub line_text: String,
}

impl ParseError {
    /// Renders the error the way a compiler does: message, `file:line:col`, the line
    /// and a caret under the offending characters.
    pub fn render(&self, path: &str) -> String {
        snippet::render(&self.kind, path, self.span, &self.line_text)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.span.line + 1,
            self.span.col + 1,
            self.kind
        )
    }
}

impl std::error::Error for ParseError {}

/// Parses a level or layout from raw bytes (checking UTF-8 first).
pub fn parse_bytes(bytes: &[u8]) -> Result<Level, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(s) => parse(s),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count();
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let prefix = String::from_utf8_lossy(&bytes[line_start..e.valid_up_to()]);
            let line_end = bytes[line_start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |i| line_start + i);
            Err(ParseError {
                kind: ErrorKind::NotUtf8,
                span: Span {
                    line,
                    col: prefix.chars().count(),
                    len: 1,
                },
                line_text: String::from_utf8_lossy(&bytes[line_start..line_end]).into_owned(),
            })
        }
    }
}

struct Token<'a> {
    text: &'a str,
    col: usize,
}

/// Splits a line on whitespace, keeping the character column of each token.
fn tokens(line: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, char col)
    for (col, (b, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((sb, sc)) = start.take() {
                out.push(Token {
                    text: &line[sb..b],
                    col: sc,
                });
            }
        } else if start.is_none() {
            start = Some((b, col));
        }
    }
    if let Some((sb, sc)) = start {
        out.push(Token {
            text: &line[sb..],
            col: sc,
        });
    }
    out
}

/// Parses a level or layout from text.
pub fn parse(text: &str) -> Result<Level, ParseError> {
    // A UTF-8 byte-order mark (some Windows editors write one) is not part of
    // the first line: columns are counted as an editor shows them.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = Lines(text.lines().collect());
    let mut flags = Flags::default();
    let mut grid = Grid::default();
    for (ln, raw) in lines.0.iter().enumerate() {
        reject_lone_carriage_return(raw).map_err(|(kind, span)| lines.error(kind, ln, span))?;
        let toks = tokens(raw);
        let Some(first) = toks.first() else { continue };
        if first.text.starts_with(':') {
            parse_flag(&toks, &mut flags)
                .map_err(|(k, t)| lines.error(k, ln, token_span(t.unwrap_or(first))))?;
            continue;
        }
        grid.read_row(raw, &toks, ln)
            .map_err(|(kind, span)| lines.error(kind, ln, span))?;
    }
    let Some(width) = grid.width else {
        let last = lines.0.len().saturating_sub(1);
        let kind = if text.trim().is_empty() {
            ErrorKind::EmptyFile
        } else {
            ErrorKind::EmptyGrid
        };
        return Err(lines.error(kind, last, (0, 1)));
    };
    check_teleporter_channels(&grid.tele)
        .map_err(|(kind, s)| lines.error(kind, s.line, (s.col, s.len)))?;
    Ok(Level {
        shape: Shape {
            width,
            height: grid.height,
        },
        tiles: grid.tiles,
        flags,
    })
}

/// The lines of the text parsed, for the error messages.
struct Lines<'t>(Vec<&'t str>);

impl Lines<'_> {
    /// An error of `kind` on line `line` at `(col, len)`, with the line's text.
    fn error(&self, kind: ErrorKind, line: usize, (col, len): (usize, usize)) -> ParseError {
        ParseError {
            kind,
            span: Span { line, col, len },
            line_text: self.0.get(line).copied().unwrap_or("").to_string(),
        }
    }
}

/// An error's column and length on its line.
type LineError = (ErrorKind, (usize, usize));

/// The column and length of a token.
fn token_span(t: &Token) -> (usize, usize) {
    (t.col, t.text.chars().count())
}

/// `lines()` ends lines at LF and CR LF; a lone CR would be whitespace and
/// join two rows into one without a word.
fn reject_lone_carriage_return(raw: &str) -> Result<(), LineError> {
    match raw.find('\r') {
        Some(b) => Err((ErrorKind::LoneCarriageReturn, (raw[..b].chars().count(), 1))),
        None => Ok(()),
    }
}

/// The grid rows read so far.
#[derive(Default)]
struct Grid {
    tiles: Vec<Tile>,
    /// The tokens of the first row.
    width: Option<usize>,
    height: usize,
    /// Where each teleporter token is, for the channel checks at the end:
    /// its channel, whether it is an in, its span and its tile index.
    tele: Vec<(Channel, bool, Span, usize)>,
}

impl Grid {
    /// Reads the row `raw` (line `ln`, split into `toks`), which must be as
    /// wide as the first row.
    fn read_row(&mut self, raw: &str, toks: &[Token], ln: usize) -> Result<(), LineError> {
        match self.width {
            None => self.width = Some(toks.len()),
            Some(w) if w != toks.len() => {
                let at = match toks.get(w) {
                    Some(t) => token_span(t),
                    None => (raw.chars().count(), 1),
                };
                let found = toks.len();
                return Err((ErrorKind::Ragged { expected: w, found }, at));
            }
            Some(_) => {}
        }
        for t in toks {
            let (col, len) = token_span(t);
            let span = Span { line: ln, col, len };
            let tile = parse_token(t.text).map_err(|k| (k, (col, len)))?;
            match tile {
                Tile::TeleIn(c) => self.tele.push((c, true, span, self.tiles.len())),
                Tile::TeleOut(c, _) => self.tele.push((c, false, span, self.tiles.len())),
                _ => {}
            }
            self.tiles.push(tile);
        }
        self.height += 1;
        Ok(())
    }
}

/// Each teleporter channel in use has one in and at least one out: else the
/// error, at the second in, or the lone in or out.
fn check_teleporter_channels(
    tele: &[(Channel, bool, Span, usize)],
) -> Result<(), (ErrorKind, Span)> {
    for ch in [Channel::T, Channel::U] {
        let ins: Vec<_> = tele.iter().filter(|t| t.0 == ch && t.1).collect();
        let outs: Vec<_> = tele.iter().filter(|t| t.0 == ch && !t.1).collect();
        let c = ch.letter();
        let problem = if ins.len() > 1 {
            Some((ErrorKind::DuplicateTeleIn(c), ins[1]))
        } else if let (Some(i), true) = (ins.first(), outs.is_empty()) {
            Some((ErrorKind::TeleInWithoutOut(c), *i))
        } else if let (Some(o), true) = (outs.first(), ins.is_empty()) {
            Some((ErrorKind::TeleOutWithoutIn(c), *o))
        } else {
            None
        };
        if let Some((kind, at)) = problem {
            return Err((kind, at.2));
        }
    }
    Ok(())
}

type FlagError<'t, 'a> = (ErrorKind, Option<&'t Token<'a>>);

fn parse_flag<'t, 'a>(toks: &'t [Token<'a>], flags: &mut Flags) -> Result<(), FlagError<'t, 'a>> {
    let word = toks[0].text;
    let rest = &toks[1..];
    if word.starts_with(":target") {
        if rest.is_empty() {
            return Err((ErrorKind::EmptyTargets, None));
        }
        let mut kinds = Vec::with_capacity(rest.len());
        for t in rest {
            let k = Kind::from_targets_code(t.text)
                .ok_or((ErrorKind::BadTargetsCode(t.text.to_string()), Some(t)))?;
            kinds.push(k);
        }
        flags.targets = Some(kinds);
    } else if word.starts_with(":comment") {
        let text: Vec<&str> = rest.iter().map(|t| t.text).collect();
        flags.comments.push(text.join(" "));
    } else if word.starts_with(":tickwise") {
        flags.tickwise = true;
    } else if word.starts_with(":allow-invalid-deliveries") {
        flags.allow_invalid_deliveries = true;
    } else if word.starts_with(":loop-threshold") {
        let Some(t) = rest.first() else {
            return Err((ErrorKind::BadLoopThreshold(String::new()), None));
        };
        match t.text.parse::<u64>() {
            Ok(n) if n > 0 => flags.loop_threshold = Some(n),
            _ => return Err((ErrorKind::BadLoopThreshold(t.text.to_string()), Some(t))),
        }
    } else {
        return Err((ErrorKind::UnknownFlag(word.to_string()), None));
    }
    Ok(())
}

/// Parses one grid token.
pub fn parse_token(t: &str) -> Result<Tile, ErrorKind> {
    let unknown = || ErrorKind::UnknownToken(t.to_string());
    let chars: Vec<char> = t.chars().collect();
    let dir = |i: usize| chars.get(i).copied().and_then(Dir::from_arrow);
    let tile = match chars.as_slice() {
        ['.'] => Tile::Empty,
        ['#'] => Tile::Block,
        ['*'] => Tile::Crossover,
        [c] => Tile::Belt(Dir::from_arrow(*c).ok_or_else(unknown)?),
        ['+', _] => Tile::Source(dir(1).ok_or_else(unknown)?),
        ['+', _, '?'] => Tile::AnySource(dir(1).ok_or_else(unknown)?),
        ['-', _] => Tile::Target {
            dir: dir(1).ok_or_else(unknown)?,
            accepts: Accepts::Only(Kind::PLAIN),
        },
        ['-', _, '?'] => Tile::Target {
            dir: dir(1).ok_or_else(unknown)?,
            accepts: Accepts::Any,
        },
        ['-', _, k] => Tile::Target {
            dir: dir(1).ok_or_else(unknown)?,
            accepts: Accepts::Only(Kind::from_code_char(*k).ok_or_else(unknown)?),
        },
        ['x' | 'X', _] => Tile::Splitter(dir(1).ok_or_else(unknown)?),
        ['b', _, k] => Tile::Bumper {
            dir: dir(1).ok_or_else(unknown)?,
            kind: Kind::from_code_char(*k).ok_or_else(unknown)?,
        },
        [c @ ('T' | 'U'), '-'] => Tile::TeleIn(channel(*c)),
        [c @ ('T' | 'U'), '+', _] => Tile::TeleOut(channel(*c), dir(2).ok_or_else(unknown)?),
        [k, _] if dir(1).is_some() => {
            if matches!(k, '0' | '5' | '6' | '9') {
                return Err(ErrorKind::BadTopperKind(t.to_string()));
            }
            let kind = Kind::from_code_char(*k).ok_or_else(unknown)?;
            Tile::Topper {
                kind,
                dir: dir(1).ok_or_else(unknown)?,
            }
        }
        _ => return Err(unknown()),
    };
    Ok(tile)
}

fn channel(c: char) -> Channel {
    if c == 'T' {
        Channel::T
    } else {
        Channel::U
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(text: &str) -> ErrorKind {
        parse(text).unwrap_err().kind
    }

    #[test]
    fn line_ends_and_a_byte_order_mark() {
        let lf = parse("+> . ->\n-> . ->\n").unwrap();
        let crlf = parse("+> . ->\r\n-> . ->\r\n").unwrap();
        let bom = parse("\u{feff}+> . ->\n-> . ->\n").unwrap();
        assert_eq!((lf.shape.width, lf.shape.height), (3, 2));
        assert_eq!(crlf.tiles, lf.tiles);
        assert_eq!(bom.tiles, lf.tiles);
        // A lone CR would join two rows: an error at the CR, not a 6x1 level.
        let e = parse("+> . ->\r-> . ->\r").unwrap_err();
        assert_eq!(e.kind, ErrorKind::LoneCarriageReturn);
        assert_eq!((e.span.line, e.span.col), (0, 7));
        // Behind a flag word too (it would have swallowed the file).
        let e = parse(":comment hi\r+> . ->\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::LoneCarriageReturn);
        // Columns after a byte-order mark are the ones an editor shows.
        let e = parse("\u{feff}+> ?? ->\n").unwrap_err();
        assert_eq!((e.span.line, e.span.col), (0, 3));
    }

    #[test]
    fn parses_every_token() {
        let l = parse(
            ":targets 0 1 3 7 15\n+> +v? -^ -<? ->3 1v 2^ 8< x> X^ b>7 T- T+v U- U+< * # . ^\n",
        )
        .unwrap();
        assert_eq!(l.shape.width, 19);
        assert_eq!(l.at(1, 0), Tile::AnySource(Dir::Down));
        assert_eq!(
            l.at(6, 0),
            Tile::Topper {
                kind: Kind::new(2).unwrap(),
                dir: Dir::Up
            }
        );
        assert_eq!(l.at(9, 0), Tile::Splitter(Dir::Up));
        assert_eq!(l.flags.targets.as_ref().unwrap().len(), 5);
    }

    #[test]
    fn each_error_has_its_kind_and_place() {
        let e = parse(". .\n. . .\n").unwrap_err();
        assert_eq!(
            e.kind,
            ErrorKind::Ragged {
                expected: 2,
                found: 3
            }
        );
        assert_eq!((e.span.line, e.span.col), (1, 4));
        assert_eq!(kind_of("+> ?? ->"), ErrorKind::UnknownToken("??".into()));
        assert_eq!(
            kind_of(":targets 0 5\n+> ->"),
            ErrorKind::BadTargetsCode("5".into())
        );
        assert_eq!(kind_of(":targets\n+> ->"), ErrorKind::EmptyTargets);
        assert_eq!(
            kind_of(":bogus\n+> ->"),
            ErrorKind::UnknownFlag(":bogus".into())
        );
        assert_eq!(kind_of(":targets 0\n"), ErrorKind::EmptyGrid);
        assert_eq!(kind_of(""), ErrorKind::EmptyFile);
        assert_eq!(kind_of(" \n\n"), ErrorKind::EmptyFile);
        assert_eq!(kind_of("T- +> ->"), ErrorKind::TeleInWithoutOut('T'));
        assert_eq!(kind_of("U+> +> ->"), ErrorKind::TeleOutWithoutIn('U'));
        assert_eq!(kind_of("T- T- T+>"), ErrorKind::DuplicateTeleIn('T'));
        assert_eq!(kind_of("5> +> ->"), ErrorKind::BadTopperKind("5>".into()));
        assert_eq!(
            kind_of(":loop-threshold 0\n+>"),
            ErrorKind::BadLoopThreshold("0".into())
        );
    }

    #[test]
    fn targets_flag_prefix_and_last_wins() {
        let l = parse(":target 0\n:targets 1 1\n+> ->").unwrap();
        assert_eq!(l.flags.targets, Some(vec![Kind::new(1).unwrap(); 2]));
    }

    #[test]
    fn print_then_parse_is_identity() {
        let text =
            ":comment hi there\n:targets 3 15\n:tickwise\n+>  2>  .   -<?\n#   *   T-  T+v\n";
        let l = parse(text).unwrap();
        let printed = l.to_string();
        assert_eq!(parse(&printed).unwrap(), l);
    }

    #[test]
    fn not_utf8_is_an_error_with_a_place() {
        let e = parse_bytes(b"+> ->\n. \xff .").unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotUtf8);
        assert_eq!((e.span.line, e.span.col), (1, 2));
    }

    #[test]
    fn render_shows_line_and_caret() {
        let e = parse("+> -> .\n.  ?? .").unwrap_err();
        let r = e.render("x.txt");
        assert!(r.contains("--> x.txt:2:4"), "{r}");
        assert!(r.ends_with("|    ^^"), "{r}");
    }
}

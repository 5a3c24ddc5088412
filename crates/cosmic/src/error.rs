//! Input errors with a place: a message and, where one is known, a span (0-based
//! stored, 1-based shown) rendered in the compiler style of `snippet`.

use std::fmt;

pub use snippet::Span;

/// A level or track file that cannot be read (rules §7.3: an input error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub message: String,
    /// Where the problem is, when it can be pointed at.
    pub span: Option<Span>,
    /// The text of the line the span is on (empty without a span).
    pub line_text: String,
}

impl InputError {
    /// An error without a place.
    pub fn new(message: impl Into<String>) -> InputError {
        InputError {
            message: message.into(),
            span: None,
            line_text: String::new(),
        }
    }

    /// An error at bytes `start..end` of `text` (clamped to one line).
    pub fn at(message: impl Into<String>, text: &str, start: usize, end: usize) -> InputError {
        let start = floor_char(text, start.min(text.len()));
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let end = floor_char(text, end.clamp(start, line_end));
        let line_text = text[line_start..line_end].trim_end_matches('\r');
        let span = Span {
            line: text[..line_start].matches('\n').count(),
            col: text[line_start..start].chars().count(),
            len: text[start..end].chars().count().max(1),
        };
        InputError {
            message: message.into(),
            span: Some(span),
            line_text: line_text.to_string(),
        }
    }

    /// The compiler-style picture: message, `path:line:col`, the line and a caret;
    /// without a span, the message and `--> path`.
    pub fn render(&self, path: &str) -> String {
        match self.span {
            Some(span) => snippet::render(&self.message, path, span, &self.line_text),
            None => format!("{}\n --> {path}", self.message),
        }
    }
}

/// The largest char boundary at or before `i`.
fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span {
            Some(s) => write!(
                f,
                "line {}, column {}: {}",
                s.line + 1,
                s.col + 1,
                self.message
            ),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// A serde_json syntax error, placed where serde_json says (its columns count bytes).
pub(crate) fn from_serde(e: &serde_json::Error, text: &str) -> InputError {
    let full = e.to_string();
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    let message = format!("invalid JSON: {message}");
    if e.line() == 0 {
        return InputError::new(message);
    }
    let line_start = text
        .split_inclusive('\n')
        .take(e.line() - 1)
        .map(str::len)
        .sum::<usize>();
    let start = line_start + e.column().saturating_sub(1);
    InputError::at(message, text, start, start + 1)
}

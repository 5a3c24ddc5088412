//! Building SVG text: one function per element, a [`Paint`] for fill and
//! stroke, escaping, and a number format that keeps the text stable (at most
//! two decimals, no trailing zeros), so pictures can be snapshot-tested.

/// A number as SVG writes it: at most two decimals, no trailing zeros, no `-0`.
pub fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "-0" | "" => "0".to_string(),
        _ => s.to_string(),
    }
}

/// Text made safe for SVG and HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// How a shape is filled and outlined.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Paint {
    pub fill: Option<String>,
    pub stroke: Option<String>,
    pub width: f64,
    pub dash: Option<String>,
}

impl Paint {
    /// Filled with `color`, no outline.
    pub fn fill(color: &str) -> Paint {
        Paint {
            fill: Some(color.to_string()),
            ..Paint::default()
        }
    }

    /// Outlined with `color`, `width` wide, not filled.
    pub fn stroke(color: &str, width: f64) -> Paint {
        Paint::default().and_stroke(color, width)
    }

    /// This paint with an outline.
    pub fn and_stroke(mut self, color: &str, width: f64) -> Paint {
        self.stroke = Some(color.to_string());
        self.width = width;
        self
    }

    /// This paint with a dashed outline (`dash`: the SVG dash array).
    pub fn dashed(mut self, dash: &str) -> Paint {
        self.dash = Some(dash.to_string());
        self
    }

    fn attrs(&self) -> String {
        let mut out = format!(" fill=\"{}\"", self.fill.as_deref().unwrap_or("none"));
        if let Some(s) = &self.stroke {
            out += &format!(" stroke=\"{s}\" stroke-width=\"{}\"", num(self.width));
            out += " stroke-linejoin=\"round\" stroke-linecap=\"round\"";
        }
        if let Some(d) = &self.dash {
            out += &format!(" stroke-dasharray=\"{d}\"");
        }
        out
    }
}

/// A rectangle with corners rounded by `r`.
pub fn rect(x: f64, y: f64, w: f64, h: f64, r: f64, p: &Paint) -> String {
    let round = if r > 0.0 {
        format!(" rx=\"{}\"", num(r))
    } else {
        String::new()
    };
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{round}{}/>",
        num(x),
        num(y),
        num(w),
        num(h),
        p.attrs()
    )
}

pub fn circle(cx: f64, cy: f64, r: f64, p: &Paint) -> String {
    format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{}/>",
        num(cx),
        num(cy),
        num(r),
        p.attrs()
    )
}

pub fn polygon(points: &[(f64, f64)], p: &Paint) -> String {
    let pts: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
        .collect();
    format!("<polygon points=\"{}\"{}/>", pts.join(" "), p.attrs())
}

pub fn polyline(points: &[(f64, f64)], p: &Paint) -> String {
    let pts: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
        .collect();
    format!("<polyline points=\"{}\"{}/>", pts.join(" "), p.attrs())
}

/// A path with the data `d`.
pub fn path(d: &str, p: &Paint) -> String {
    format!("<path d=\"{d}\"{}/>", p.attrs())
}

pub fn line(x1: f64, y1: f64, x2: f64, y2: f64, p: &Paint) -> String {
    format!(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>",
        num(x1),
        num(y1),
        num(x2),
        num(y2),
        p.attrs()
    )
}

/// How a line of text is set.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Font {
    pub size: f64,
    pub bold: bool,
    /// `start`, `middle` or `end`.
    pub anchor: &'static str,
}

impl Font {
    pub const fn new(size: f64, bold: bool, anchor: &'static str) -> Font {
        Font { size, bold, anchor }
    }
}

/// The fonts asked for: common ones, then the generic family; no font is
/// embedded or fetched.
pub const FAMILY: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// A line of text whose middle height is `y` (the baseline is computed, as
/// `dominant-baseline` is not drawn alike everywhere).
pub fn text(x: f64, y: f64, content: &str, font: Font, color: &str) -> String {
    let weight = if font.bold {
        " font-weight=\"bold\""
    } else {
        ""
    };
    format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{}\"{weight} fill=\"{color}\">{}</text>",
        num(x),
        num(y + font.size * 0.36),
        num(font.size),
        font.anchor,
        escape(content)
    )
}

/// `inner` drawn with the SVG `transform`.
pub fn group(transform: &str, inner: &str) -> String {
    format!("<g transform=\"{transform}\">{inner}</g>")
}

/// `inner` moved by `(x, y)`.
pub fn at(x: f64, y: f64, inner: &str) -> String {
    group(&format!("translate({} {})", num(x), num(y)), inner)
}

/// A whole SVG document, `width` by `height`, with a title for screen readers.
pub fn document(width: f64, height: f64, title: &str, inner: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
font-family=\"{FAMILY}\" role=\"img\">\n<title>{}</title>\n{inner}\n</svg>\n",
        escape(title),
        w = num(width),
        h = num(height),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.5), "12.5");
    }

    #[test]
    fn text_is_escaped() {
        let t = text(
            0.0,
            0.0,
            "a<b & \"c\"",
            Font::new(10.0, false, "start"),
            "#000",
        );
        assert!(t.contains("a&lt;b &amp; &quot;c&quot;"), "{t}");
        assert_eq!(escape("<>&'"), "&lt;&gt;&amp;&#39;");
    }
}

//! The HTML pages: the replay of one run (the board's SVG inline, the frames
//! as JSON, the player's script and style inline: no network, no external
//! file, no font fetched), and the index page of a bench with its table.
//!
//! The replay page keeps what it shows where a script or a test can read it:
//! `#tick` and `#delivered` hold the step and the deliveries so far,
//! `window.replay` the same as an object, and `body[data-step]` the step.
//! Opening the page with `#tick=N` shows step N.

use crate::replay::Replay;
use crate::sheet::Sheet;
use crate::sprite::CELL;
use crate::svg::{escape, num};

const PLAYER: &str = include_str!("player.js");
const STYLE: &str = include_str!("player.css");

/// The start of a page: the head with its title and style.
fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n",
        escape(title)
    )
}

/// The player's buttons, slider and speeds.
fn controls(unit: &str) -> String {
    let speeds: String = [(1, ""), (2, " selected"), (4, ""), (8, ""), (16, "")]
        .iter()
        .map(|(n, sel)| format!("<option value=\"{n}\"{sel}>{n} {unit}s/s</option>"))
        .collect();
    format!(
        "<div class=\"controls\">\n\
<button id=\"first\" title=\"the start (Home)\">start</button>\n\
<button id=\"back\" title=\"one {unit} back (&#x2190;)\">&#x25C0; step</button>\n\
<button id=\"play\" title=\"play or pause (space)\">&#x25B6; play</button>\n\
<button id=\"fwd\" title=\"one {unit} forward (&#x2192;)\">step &#x25B6;</button>\n\
<button id=\"final\" title=\"the end (End)\">end</button>\n\
<label>speed <select id=\"speed\">{speeds}</select></label>\n</div>\n\
<input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"{unit}\">\n"
    )
}

/// One self-contained HTML page replaying a run: the board drawn by `sheet`,
/// the frames of `replay` drawn over it by the player.
pub fn replay_page(sheet: &Sheet, replay: &Replay) -> String {
    let unit = escape(&replay.unit);
    let layer = format!("<g id=\"live\" data-cell=\"{}\"></g>", num(CELL));
    // The page says the title and the outcome itself.
    let board = sheet.bare().svg_with_layer(&layer);
    let class = if replay.solved {
        " class=\"solved\""
    } else {
        ""
    };
    let note = replay
        .note
        .as_ref()
        .map(|n| format!("<p id=\"note\">{}</p>\n", escape(n)))
        .unwrap_or_default();
    format!(
        "{}<body>\n<h1>{}</h1>\n<p id=\"outcome\"{class}>{}</p>\n{note}<main>\n\
<div id=\"board\">\n{board}</div>\n<aside>\n{}\
<p class=\"big\">{unit} <b id=\"tick\">0</b> of <b id=\"last\">0</b></p>\n\
<p class=\"big\">delivered so far: <b id=\"delivered\">0</b></p>\n\
<ul id=\"lines\"></ul>\n<p id=\"end\" hidden>end of the run: {}</p>\n\
<p class=\"help\">Keys: space plays or pauses, &#x2190; &#x2192; step, Home and End jump. \
Open the page with <code>#tick=N</code> to start at {unit} N. The frames come from the simulator.</p>\n\
</aside>\n</main>\n<script type=\"application/json\" id=\"replay-data\">{}</script>\n\
<script>\n{PLAYER}</script>\n</body>\n</html>\n",
        head(&sheet.title),
        escape(&sheet.title),
        escape(&replay.outcome),
        controls(&unit),
        escape(&replay.outcome),
        replay.embeddable_json(),
    )
}

/// A row of the index page: its cells, the first one linking to `link`.
#[derive(Clone, Debug, Default)]
pub struct IndexRow {
    pub cells: Vec<String>,
    pub link: Option<String>,
}

/// A page with a table, the first column linking to each row's page.
/// Columns after the first whose cells all look like numbers are
/// right-aligned.
pub fn index_page(title: &str, intro: &str, headers: &[&str], rows: &[IndexRow]) -> String {
    let numeric = |col: usize| {
        col > 0
            && rows.iter().all(|r| {
                r.cells
                    .get(col)
                    .is_none_or(|c| c == "-" || c.parse::<f64>().is_ok())
            })
    };
    let th: String = headers
        .iter()
        .map(|h| format!("<th>{}</th>", escape(h)))
        .collect();
    let mut body = String::new();
    for r in rows {
        body += "<tr>";
        for (i, c) in r.cells.iter().enumerate() {
            let class = if numeric(i) { " class=\"num\"" } else { "" };
            let text = match (&r.link, i) {
                (Some(l), 0) => format!("<a href=\"{}\">{}</a>", escape(l), escape(c)),
                _ => escape(c),
            };
            body += &format!("<td{class}>{text}</td>");
        }
        body += "</tr>\n";
    }
    format!(
        "{}<body>\n<h1>{}</h1>\n<p>{}</p>\n<table>\n<tr>{th}</tr>\n{body}</table>\n</body>\n</html>\n",
        head(title),
        escape(title),
        escape(intro)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Frame;

    #[test]
    fn the_page_holds_everything_it_needs() {
        let sheet = Sheet {
            title: "a <level>".into(),
            cols: 1,
            rows: 1,
            cells: vec![Default::default()],
            ..Sheet::default()
        };
        let replay = Replay {
            unit: "tick".into(),
            outcome: "solved: yes".into(),
            solved: true,
            note: None,
            frames: vec![Frame::default()],
        };
        let page = replay_page(&sheet, &replay);
        assert!(page.contains("<title>a &lt;level&gt;</title>"));
        assert!(page.contains("id=\"live\"") && page.contains("id=\"delivered\""));
        // Nothing is fetched: no `src`, no `<link>`, and the only addresses
        // are SVG's namespace name.
        assert!(!page.contains("src=") && !page.contains("<link"));
        let ns = "http://www.w3.org/2000/svg";
        assert_eq!(page.matches("http").count(), page.matches(ns).count());
        assert!(page.contains("class=\"solved\""));
    }

    #[test]
    fn the_index_links_each_row() {
        let rows = [IndexRow {
            cells: vec!["a.txt".into(), "optimal".into(), "3".into()],
            link: Some("a.html".into()),
        }];
        let page = index_page("bench", "intro", &["level", "status", "belts"], &rows);
        assert!(page.contains("<a href=\"a.html\">a.txt</a>"), "{page}");
        assert!(page.contains("<td class=\"num\">3</td>"), "{page}");
    }
}

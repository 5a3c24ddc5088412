//! The frames of a run, as the replay page's player reads them (JSON). A
//! puzzle's simulator makes them; the player only draws them: tokens (a
//! donut, a car) on cells, marks (a waiting counter, a splitter's next side,
//! a delivery count) in a cell's corner, and text lines beside the board.

use serde::Serialize;

/// A whole run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Replay {
    /// What one step of the run is called: `tick`, `moment`.
    pub unit: String,
    /// How the run ended, in the words of the judge (`solved: ...`, `not
    /// solved: ...`).
    pub outcome: String,
    pub solved: bool,
    /// Said under the outcome: frames left out, a track that cannot run.
    pub note: Option<String>,
    /// At least one: the start.
    pub frames: Vec<Frame>,
}

/// The state after one step.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Frame {
    /// Which step this is the state after (0: the start).
    pub step: u32,
    pub tokens: Vec<Token>,
    pub marks: Vec<Mark>,
    /// Text beside the board: the states of things, the events so far.
    pub lines: Vec<String>,
    /// Deliveries so far (the number the page shows, and tests read back).
    pub delivered: u32,
    /// A cell to ring in red: where the run failed.
    pub alert: Option<[usize; 2]>,
}

/// Something that moves, drawn as a disc with a mark on it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Token {
    /// Column and row on the sheet.
    pub at: [usize; 2],
    pub fill: String,
    /// A letter or digit on the token, so it reads without its colour.
    pub mark: String,
    /// An outline other than ink (a gooped car), if any.
    pub ring: Option<String>,
    /// Drawn as a rounded square (an engine) rather than a disc.
    pub square: bool,
}

/// Which corner of a cell a mark sits in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Corner {
    #[default]
    Ne,
    Nw,
    Se,
    Sw,
}

/// A small label in a corner of a cell.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Mark {
    pub at: [usize; 2],
    pub text: String,
    pub corner: Corner,
    /// The label's background.
    pub fill: String,
}

impl Replay {
    /// The replay as JSON that can sit inside a `<script>` element: `</`
    /// is written `<\/`, which JSON reads back the same.
    pub fn embeddable_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|_| "{\"frames\":[]}".to_string())
            .replace("</", "<\\/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_cannot_close_its_script() {
        let r = Replay {
            outcome: "</script><b>".into(),
            frames: vec![Frame::default()],
            ..Replay::default()
        };
        let j = r.embeddable_json();
        assert!(!j.contains("</"), "{j}");
        let back: serde_json::Value = serde_json::from_str(&j).expect("json");
        assert_eq!(back["outcome"], "</script><b>");
        assert_eq!(back["frames"][0]["step"], 0);
    }
}

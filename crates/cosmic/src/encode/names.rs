//! The `c` lines of a DIMACS dump that name the encoding's variables, so
//! that a model of a dumped formula can be read by hand or decoded.

use super::Encoding;
use crate::level::Level;

impl Encoding {
    /// What the formula is, then a line per variable: `cell VAR X Y` (the
    /// track uses (X,Y)) and `move VAR X1 Y1 X2 Y2` (it goes from (X1,Y1) to
    /// (X2,Y2)); the `c ` is the writer's.
    pub fn variable_comments(&self, level: &Level) -> Vec<String> {
        let mut out = vec![
            format!(
                "cosmic-express encoding of a {}x{} level ({} car{}) with {} track cells \
                 (entrance and exit included) and {} moves",
                level.width,
                level.height,
                level.length,
                if level.length == 1 { "" } else { "s" },
                self.cells.len(),
                self.moves.len()
            ),
            "a variable per cell: `c cell VAR X Y`: the track uses (X,Y)".into(),
            "a variable per move: `c move VAR X1 Y1 X2 Y2`: the track goes from (X1,Y1) to (X2,Y2)"
                .into(),
        ];
        for (c, p) in self.cells.enumerate() {
            out.push(format!("cell {} {} {}", self.on[c].to_ipasir(), p.x, p.y));
        }
        for m in self.moves.iter() {
            let (a, b) = (self.cells[m.from], self.cells[m.to]);
            let var = m.lit.to_ipasir();
            out.push(format!("move {var} {} {} {} {}", a.x, a.y, b.x, b.y));
        }
        out
    }
}

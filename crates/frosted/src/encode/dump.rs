//! DIMACS files of the encoding (`frosted dump-cnf`): the comments naming
//! the choice variables, facts about cells fixed by unit clauses
//! (`--assume`), and the first-iteration CNF with its assumptions.

use super::{option_index, option_name, EncodeOptions, Encoding, CHOICES};
use crate::grid::Dir;
use crate::level::Level;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

impl Encoding {
    /// Comments naming every belt variable, for DIMACS files.
    pub fn variable_comments(&self) -> Vec<String> {
        let mut out = vec![
            format!(
                "frosted encoding of a {}x{} level with {} free cells",
                self.level.shape.width,
                self.level.shape.height,
                self.free.len()
            ),
            "choice variables: `c choice VAR X Y OPTION`, OPTION one of none up down left right; exactly one per cell".into(),
        ];
        for (i, &c) in self.free.enumerate() {
            let p = self.level.pos(c);
            for (j, opt) in CHOICES.iter().enumerate() {
                let name = option_name(*opt);
                out.push(format!(
                    "choice {} {} {} {}",
                    self.choice[i][j].to_ipasir(),
                    p.x,
                    p.y,
                    name
                ));
            }
        }
        out.push(format!("strong {}", self.strong.to_ipasir()));
        out
    }
}

/// A fact about one free cell's option, fixed by a unit clause in a dumped
/// CNF (`frosted dump-cnf --assume`): the cell at `pos` holds `option`
/// (`None`: no belt), or with `holds` false, does not. Written `X,Y=OPTION` or
/// `X,Y!=OPTION`, with the coordinates of the `c choice` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellFact {
    pub pos: crate::grid::Pos,
    pub option: Option<Dir>,
    pub holds: bool,
}

impl std::str::FromStr for CellFact {
    type Err = String;

    fn from_str(s: &str) -> Result<CellFact, String> {
        let form = "expected X,Y=OPTION or X,Y!=OPTION (OPTION one of none, up, down, left, right), e.g. 4,7=down";
        let (cell, option, holds) = match s.split_once("!=") {
            Some((c, o)) => (c, o, false),
            None => match s.split_once('=') {
                Some((c, o)) => (c, o, true),
                None => return Err(form.to_string()),
            },
        };
        let coordinate = |t: &str| t.trim().parse::<usize>().ok();
        let pos = match cell.split_once(',') {
            Some((x, y)) => match (coordinate(x), coordinate(y)) {
                (Some(x), Some(y)) => crate::grid::Pos { x, y },
                _ => {
                    return Err(format!(
                        "the cell `{cell}` is not two whole numbers X,Y; {form}"
                    ))
                }
            },
            None => return Err(format!("the cell `{cell}` is not X,Y; {form}")),
        };
        let option = match CHOICES.iter().find(|&&o| option_name(o) == option.trim()) {
            Some(&o) => o,
            None => return Err(format!("`{option}` is not an option; {form}")),
        };
        Ok(CellFact { pos, option, holds })
    }
}

impl std::fmt::Display for CellFact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let eq = if self.holds { "=" } else { "!=" };
        let option = option_name(self.option);
        write!(f, "{},{}{eq}{option}", self.pos.x, self.pos.y)
    }
}

impl Encoding {
    /// The literal that says [`CellFact`] `fact` holds, or why there is none
    /// (the cell is off the grid or not a free cell).
    pub fn fact_literal(&self, fact: CellFact) -> Result<Lit, String> {
        let shape = self.level.shape;
        let p = fact.pos;
        if p.x >= shape.width || p.y >= shape.height {
            return Err(format!(
                "`{fact}`: the cell {p} is off the {}x{} grid",
                shape.width, shape.height
            ));
        }
        let cell = shape.cell(p);
        let Some(i) = self.free_id(cell) else {
            return Err(format!(
                "`{fact}`: the cell {p} is not a free cell (a `.`): it holds {}",
                self.level.tile(cell).describe()
            ));
        };
        let lit = self.choice[i][option_index(fact.option)];
        Ok(if fact.holds { lit } else { !lit })
    }
}

/// What `frosted dump-cnf` writes: see [`dimacs`].
#[derive(Clone, Debug, Default)]
pub struct Dump {
    /// Add unit clauses bounding the layout to at most this many belts.
    pub max_belts: Option<usize>,
    /// `¬strong` instead of `strong`: the pure relaxation.
    pub relaxed: bool,
    /// The ranks (C7) in place of C7′.
    pub ranks: bool,
    /// Unit clauses fixing free cells' options: one case of a split proof.
    pub assume: Vec<CellFact>,
    /// How to encode (the defaults, as `solve` does).
    pub encode: EncodeOptions,
}

/// The first-iteration CNF of a level as DIMACS text, with `c` lines naming every
/// choice variable: the encoding plus unit clauses for the first call's
/// assumptions (`strong`, or its negation when `relaxed`, and at most `max_belts`
/// belts), and one for each fact of `assume`. With `ranks`, loops are
/// grounded by ranks (C7, the racing copies' view:
/// [`Encoding::ranked_clauses`]) instead of vertex elimination (C7′); the
/// choice variables keep their numbers, so a model decodes the same way. An
/// error names a fact about a cell that is not free.
pub fn dimacs(level: &Level, dump: &Dump) -> Result<String, String> {
    let mut vars = rustsat::instances::BasicVarManager::default();
    let mut cnf = rustsat::instances::Cnf::new();
    let mut enc = Encoding::new(level, &dump.encode, &mut cnf, &mut vars);
    let mut clauses: Vec<Clause> = cnf.into_iter().collect();
    let mut comments = enc.variable_comments();
    if dump.ranks {
        match enc.ranked_clauses(&clauses) {
            Some(ranked) => {
                comments.push("loops grounded by ranks (C7) instead of vertex elimination".into());
                clauses = ranked;
            }
            None => comments.push("no exact ranks: the same clauses as without --ranks".into()),
        }
    }
    let mut assumptions = vec![if dump.relaxed {
        !enc.strong
    } else {
        enc.strong
    }];
    assumptions.extend(&enc.goals);
    if let Some(k) = dump.max_belts.filter(|&k| k < enc.free.len()) {
        clauses.extend(enc.bound_belts(k, &mut vars));
        assumptions.extend(enc.belts.at_most(k).unwrap_or_default());
    }
    if !dump.assume.is_empty() {
        for &fact in &dump.assume {
            assumptions.push(enc.fact_literal(fact)?);
        }
        let facts: Vec<String> = dump.assume.iter().map(|f| f.to_string()).collect();
        comments.push(format!("assumed: {}", facts.join(" ")));
    }
    let mut text = String::new();
    cegar::sat::dimacs::write_with_assumptions(
        &mut text,
        vars.n_used(),
        clauses.iter(),
        &assumptions,
        &comments,
    );
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::FreeId;
    use cegar::keyed::StorageKey;

    #[test]
    fn cell_facts_read_and_print() {
        let fact: CellFact = "4,7=down".parse().unwrap();
        let pos = crate::grid::Pos { x: 4, y: 7 };
        let expected = CellFact {
            pos,
            option: Some(Dir::Down),
            holds: true,
        };
        assert_eq!(fact, expected);
        let denied: CellFact = " 4 , 1 != none ".parse().unwrap();
        assert_eq!((denied.option, denied.holds), (None, false));
        for text in ["4,7=down", "4,1!=up", "0,0=none", "12,3!=left"] {
            assert_eq!(text.parse::<CellFact>().unwrap().to_string(), text);
        }
        for bad in ["4,7", "4=down", "4,7=Down", "-1,2=up", "4,7,1=up", ""] {
            assert!(bad.parse::<CellFact>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fact_literals_name_the_cell_option() {
        let level = crate::parse::parse("+>  .   ->\n").unwrap();
        let mut vars = rustsat::instances::BasicVarManager::default();
        let mut cnf = rustsat::instances::Cnf::new();
        let enc = Encoding::new(&level, &EncodeOptions::default(), &mut cnf, &mut vars);
        let right: CellFact = "1,0=right".parse().unwrap();
        assert_eq!(
            enc.fact_literal(right),
            Ok(enc.choice[FreeId::create_from_index(0)][4])
        );
        let not_none: CellFact = "1,0!=none".parse().unwrap();
        assert_eq!(
            enc.fact_literal(not_none),
            Ok(!enc.choice[FreeId::create_from_index(0)][0])
        );
        let source: CellFact = "0,0=up".parse().unwrap();
        assert!(enc
            .fact_literal(source)
            .unwrap_err()
            .contains("a source facing right"));
        let off: CellFact = "3,0=up".parse().unwrap();
        assert!(enc
            .fact_literal(off)
            .unwrap_err()
            .contains("off the 3x1 grid"));
    }
}

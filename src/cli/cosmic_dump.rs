//! `dump-cnf` and `decode` on a Cosmic Express level: the track encoding in
//! DIMACS with `c` lines naming its variables, and a solver's model read
//! back as a track.

use super::puzzle::{both_forms, load_ce_level, CeLevel};
use super::{display_name, out, read_bounded, CliError, EXIT_NO, EXIT_OK, EXIT_UNKNOWN};
use crate::sat::{dimacs, Answer};
use cosmic_express::encode::Encoding;
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::Clause;
use std::path::{Path, PathBuf};

/// The first-iteration CNF of a Cosmic Express level, bounded to tracks of at
/// most `max_cells` cells if asked.
pub fn dimacs_text(level: &CeLevel, max_cells: Option<usize>) -> String {
    let mut vars = BasicVarManager::default();
    let mut cnf = Cnf::new();
    let mut enc = Encoding::new(&level.level, &mut cnf, &mut vars);
    let mut clauses: Vec<Clause> = cnf.into_iter().collect();
    let mut comments = vec![format!("level {}", level.name)];
    comments.extend(enc.variable_comments(&level.level));
    let mut assumptions = Vec::new();
    if let Some(k) = max_cells.filter(|&k| k < enc.cells.len()) {
        clauses.extend(enc.cells_used.encode_at_most(k, &mut vars));
        assumptions.extend(enc.cells_used.at_most(k).unwrap_or_default());
        comments.push(format!("bounded: at most {k} track cells"));
    }
    let mut text = String::new();
    dimacs::write_with_assumptions(
        &mut text,
        vars.n_used(),
        clauses.iter(),
        &assumptions,
        &comments,
    );
    text
}

/// `frosted dump-cnf` on a Cosmic Express level. `freshly_only` names a
/// flag given that only Freshly Frosted has.
pub fn dump_cnf(
    level: &Path,
    output: Option<&PathBuf>,
    max_cells: Option<usize>,
    freshly_only: Option<&str>,
) -> Result<i32, CliError> {
    if let Some(flag) = freshly_only {
        return Err(CliError::bad_input(format!(
            "{flag} is for Freshly Frosted levels; a Cosmic Express dump takes \
             --max-belts (--max-cost: the track's cells) and --output only"
        )));
    }
    let text = dimacs_text(&load_ce_level(level)?, max_cells);
    match output {
        Some(p) => std::fs::write(p, text)
            .map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", p.display())))?,
        None => out(&text)?,
    }
    Ok(EXIT_OK)
}

/// `frosted decode` on a Cosmic Express level: the track the model's moves
/// make from the entrance, and the simulator's verdict on it.
pub fn decode(level: &Path, model: &Path) -> Result<i32, CliError> {
    let lv = load_ce_level(level)?;
    let mut vars = BasicVarManager::default();
    let mut cnf = Cnf::new();
    let enc = Encoding::new(&lv.level, &mut cnf, &mut vars);
    let limit = super::dump::model_limit(vars.n_used());
    let bytes = read_bounded(model, limit, "a model of this level's CNF")?;
    let text = String::from_utf8_lossy(&bytes);
    match dimacs::parse_output(&text, vars.n_used())
        .map_err(|e| CliError::bad_input(e.render(&display_name(model))))?
    {
        Answer::Sat(values) => {
            let read = enc.read(&values);
            out(&both_forms(&lv, &read.track))?;
            let verdict = cosmic_express::judge(&lv.level, &read.track);
            let cycles = match read.cycles.len() {
                0 => String::new(),
                n => format!(
                    " ({n} detached cycle{} of used cells beside it)",
                    if n == 1 { "" } else { "s" }
                ),
            };
            let cells = cosmic_express::puzzle::NOUNS.cost(read.track.0.len());
            match verdict.solved {
                true => note!("decoded a track of {cells}{cycles}; the simulator says: solved"),
                false => note!(
                    "decoded a track of {cells}{cycles}; the simulator says: not solved: {} \
                     (a model of a dumped CNF is only a candidate: `frosted solve` runs the \
                     loop that turns candidates into solutions)",
                    verdict.reason
                ),
            }
            Ok(EXIT_OK)
        }
        Answer::Unsat => {
            note!("the solver says UNSATISFIABLE: there is no track to decode");
            Ok(EXIT_NO)
        }
        Answer::Unknown => {
            note!("the solver says UNKNOWN: there is no track to decode");
            Ok(EXIT_UNKNOWN)
        }
    }
}

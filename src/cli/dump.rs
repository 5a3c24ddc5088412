//! `frosted dump-cnf` and `frosted decode`: the level's formula for an outside
//! SAT solver, and the layout in that solver's model.

use super::puzzle::PuzzleFlag;
use super::{
    cosmic_dump, display_name, load_level, out, read_bounded, CliError, EXIT_NO, EXIT_OK,
    EXIT_UNKNOWN,
};
use crate::encode::Encoding;
use crate::sat::{dimacs, Answer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct DumpArgs {
    /// The level file.
    pub level: PathBuf,
    /// Write the CNF here instead of stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub puzzle: PuzzleFlag,
    #[command(flatten)]
    pub max: super::flags::MaxCost,
    /// Leave out the searching-mode strengthening (a pure relaxation: UNSAT then
    /// proves that no layout solves the level).
    #[arg(long)]
    pub relaxed: bool,
    /// Ground loops the way the racing solver copies after the first do
    /// (C7 in encodings/README.md: ranks that rise along the support
    /// edges) instead of by vertex elimination (C7′, "the support edges
    /// close no cycle", what `solve`'s first copy holds): the same problem,
    /// in far more clauses on levels whose donuts can loop through a
    /// splitter or teleporter (09-tropical-rain/11: 103 000 instead of
    /// 16 000), and faster for some searches there. The belt variables keep
    /// their numbers, so `frosted decode` reads its models too.
    #[arg(long)]
    pub ranks: bool,
    /// Fix a free cell's option with a unit clause: `X,Y=OPTION` (the cell
    /// holds it) or `X,Y!=OPTION` (it does not), OPTION one of none, up,
    /// down, left, right, X and Y as in the `c choice` lines (from 0, y
    /// down). Repeat it to split a hard call into cases that an external
    /// solver can refute one by one: `--assume 4,1!=up`, then `--assume
    /// 4,1=up --assume 4,7!=down`, then `--assume 4,1=up --assume 4,7=down`
    /// cover every layout.
    #[arg(long, value_name = "X,Y=OPTION")]
    pub assume: Vec<crate::encode::CellFact>,
    #[command(flatten)]
    pub encoding: super::flags::EncodingFlags,
}

pub fn dump_cnf(a: DumpArgs) -> Result<i32, CliError> {
    if a.puzzle.is_cosmic(&a.level) {
        let freshly_only = [
            (a.relaxed, "--relaxed"),
            (a.ranks, "--ranks"),
            (!a.assume.is_empty(), "--assume"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag));
        return cosmic_dump::dump_cnf(&a.level, a.output.as_ref(), a.max.max_belts, freshly_only);
    }
    let level = load_level(&a.level)?;
    let dump = crate::encode::Dump {
        max_belts: a.max.max_belts,
        relaxed: a.relaxed,
        ranks: a.ranks,
        assume: a.assume.clone(),
        encode: a.encoding.options(),
    };
    let text = crate::encode::dimacs(&level, &dump)
        .map_err(|e| CliError::bad_input(format!("--assume {e}")))?;
    match &a.output {
        Some(p) => std::fs::write(p, text)
            .map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", p.display())))?,
        None => out(&text)?,
    }
    Ok(EXIT_OK)
}

#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    /// The level the CNF was dumped from.
    pub level: PathBuf,
    /// The SAT solver's output: `s SATISFIABLE` and `v` lines, or MiniSat's
    /// result file (`SAT` and the model); `-` for stdin.
    pub model: PathBuf,
    #[command(flatten)]
    pub puzzle: PuzzleFlag,
}

/// Room for a solver's comment lines in a model file, and for the variables
/// the loop adds after the first iteration (a model of a `--dump-calls` file:
/// loop-formula gates, a lazy belt counter grown on a big board).
const MODEL_SLACK_BYTES: u64 = 64 << 20;
/// Room for one variable's value in a model file (`-12345678 `, with margin).
const MODEL_BYTES_PER_VAR: u64 = 24;

/// The largest model file read for a formula of `n_vars` variables: a model
/// names each variable once, a few bytes each, plus room. Anything much
/// larger is not a model of this level's CNFs (and `/dev/zero` would be
/// read for ever).
pub fn model_limit(n_vars: u32) -> u64 {
    MODEL_SLACK_BYTES + MODEL_BYTES_PER_VAR * u64::from(n_vars)
}

pub fn decode(a: DecodeArgs) -> Result<i32, CliError> {
    if a.puzzle.is_cosmic(&a.level) {
        return cosmic_dump::decode(&a.level, &a.model);
    }
    let level = load_level(&a.level)?;
    let mut vars = BasicVarManager::default();
    let mut cnf = Cnf::new();
    let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
    let limit = model_limit(vars.n_used());
    let bytes = read_bounded(&a.model, limit, "a model of this level's CNF")?;
    let text = String::from_utf8_lossy(&bytes);
    match dimacs::parse_output(&text, vars.n_used())
        .map_err(|e| CliError::bad_input(e.render(&display_name(&a.model))))?
    {
        Answer::Sat(model) => {
            if let Some((c, n)) = enc.one_hot_violation(&model) {
                return Err(CliError::bad_input(format!(
                    "{}: the model sets {n} of the 5 options (none, up, down, \
                     left, right) of the free cell {}, where the level's CNF sets \
                     exactly one: is it a whole model of `frosted dump-cnf {}`?",
                    display_name(&a.model),
                    level.pos(c),
                    a.level.display()
                )));
            }
            let layout = enc.decode(&model);
            out(&layout.to_string())?;
            // A model is a candidate; only the simulator says whether it solves.
            let verdict = crate::judge::judge(&layout);
            let placed = freshly_frosted::puzzle::NOUNS.cost(layout.added_belts(&level));
            match &verdict.reason {
                None => note!("decoded {placed}; the simulator says: solved"),
                Some(r) => note!(
                    "decoded {placed}; the simulator says: not solved: {} \
                     (a model of a dumped CNF is only a candidate: `frosted solve` \
                     runs the loop that turns candidates into solutions)",
                    crate::judge::explain(&layout, r, &verdict.outcome)
                ),
            }
            Ok(EXIT_OK)
        }
        Answer::Unsat => {
            note!("the solver says UNSATISFIABLE: there is no layout to decode");
            Ok(EXIT_NO)
        }
        Answer::Unknown => {
            note!("the solver says UNKNOWN: there is no layout to decode");
            Ok(EXIT_UNKNOWN)
        }
    }
}

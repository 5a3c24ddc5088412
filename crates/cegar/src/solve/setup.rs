//! Starting a solve: the puzzle writes its encoding, the racing copies get
//! their second view (the puzzle's other encoding with no variable
//! eliminated, or else the first simplified by variable elimination, on a
//! thread of its own, while the first calls run), the clauses are shuffled if asked, and the backend
//! receives them.

use super::focus::Focus;
use super::neighbourhood::Neighbourhood;
use super::restart::Restart;
use super::run::{Loop, Second};
use super::{Event, Options};
use crate::puzzle::{Encoded, Puzzle};
use crate::report::{Report, Times};
use crate::sat::call_dump::CallDump;
use crate::sat::elim::Background;
use crate::sat::race::{shuffle, Race};
use crate::sat::Backend;
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::Clause;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The formula the first copy holds, and the other copies' view of it.
struct Formula {
    enc: Encoded,
    first: Vec<Clause>,
    second: Vec<Clause>,
    /// Variables only the second view has.
    own_variables: u32,
    /// Whether the second view is another encoding of the puzzle's
    /// ([`Puzzle::second_view`]), in which no variable is eliminated (its
    /// unit clauses are propagated, nothing more), rather than the first
    /// view to simplify.
    other_view: bool,
}

/// Encodes the puzzle, builds the backend, and gives it the encoding.
pub(super) fn start<'a, P: Puzzle>(
    puzzle: &'a mut P,
    opts: &'a Options,
    events: &'a mut dyn FnMut(Event<P::Candidate>),
) -> Result<Loop<'a, P>, String> {
    let start = Instant::now();
    let mut vars = BasicVarManager::default();
    let mut f = encode(puzzle, opts, &mut vars)?;
    let (backend, interface, second) = backend(puzzle, opts, &mut f, &vars)?;
    let report = Report {
        times: Times {
            encode: start.elapsed(),
            ..Times::default()
        },
        ..Report::empty(opts.solver.name(), opts.threads)
    };
    // The puzzle computes its focus only when it is on.
    let focus = match opts.focus_slice {
        Some(slice) => Focus::new(puzzle.focus(), slice),
        None => Focus::default(),
    };
    // With `first` the only use of the windows is the repair of a rejected
    // candidate: `Loop::repair` builds them when one is due.
    let windows = match opts.neighbourhoods && !opts.first {
        true => puzzle.windows(),
        false => Vec::new(),
    };
    let dump = opts
        .dump_calls
        .as_ref()
        .map(|dir| CallDump::new(dir, puzzle.variable_comments()));
    let first = f.first;
    // Searching only pays when it adds constraints; otherwise its UNSAT
    // would just be repeated by proving.
    let proving = !f.enc.adds_strength || f.enc.strong.is_none();
    let mut lp = Loop {
        bound: opts.max_cost.filter(|&k| k < f.enc.max_cost),
        deadline: opts.timeout.map(|t| start + t),
        lower: None,
        deeper_left: opts.lower_bound_deeper_budget.saturating_mul(4),
        deeper_pending: None,
        puzzle,
        opts,
        events,
        enc: f.enc,
        backend,
        vars,
        report,
        start,
        neighbourhood: Neighbourhood::new(windows),
        dump,
        interface,
        second,
        proving,
        done: false,
        last_call: Vec::new(),
        restart: Restart::new(opts),
        last_call_time: Duration::ZERO,
        focus,
    };
    for cl in &first {
        lp.add_encoding(cl);
    }
    if opts.record {
        let n_vars = lp.vars.n_used();
        (lp.events)(Event::Encoded {
            clauses: &first,
            n_vars,
        });
    }
    Ok(lp)
}

/// The puzzle's encoding, its second view, and the shuffle.
fn encode<P: Puzzle>(
    puzzle: &mut P,
    opts: &Options,
    vars: &mut BasicVarManager,
) -> Result<Formula, String> {
    let mut cnf = Cnf::new();
    let enc = puzzle.encode(&mut cnf, vars)?;
    let mut first: Vec<Clause> = cnf.into_iter().collect();
    let first_vars = vars.n_used();
    let (mut second, other_view) = match opts.threads > 1 && opts.eliminate {
        true => match puzzle.second_view(&first, vars) {
            Some(view) => (view, true),
            None => (first.clone(), false),
        },
        false => (Vec::new(), false),
    };
    let own_variables = vars.n_used() - first_vars;
    if let Some(seed) = opts.seed {
        shuffle(&mut first, seed);
        shuffle(&mut second, seed);
    }
    Ok(Formula {
        enc,
        first,
        second,
        own_variables,
        other_view,
    })
}

/// A backend, the variables elimination must keep (empty: no elimination),
/// and the second view, still being simplified.
type Built = (Box<dyn Backend>, Vec<bool>, Option<Second>);

/// The backend: one solver, or a race whose copies after the first hold
/// the second view: the puzzle's other encoding (nothing eliminated), or
/// the first view simplified by variable elimination. The elimination runs
/// on a thread of its own, beside the first calls.
fn backend<P: Puzzle>(
    puzzle: &P,
    opts: &Options,
    f: &mut Formula,
    vars: &BasicVarManager,
) -> Result<Built, String> {
    if opts.threads <= 1 {
        return Ok((opts.solver.build()?, Vec::new(), None));
    }
    let race = Race::new(&opts.solver, opts.threads, opts.head_start);
    if !opts.eliminate {
        return Ok((Box::new(race), Vec::new(), None));
    }
    let mut frozen = puzzle.interface();
    if frozen.is_empty() || f.other_view {
        frozen = vec![true; vars.n_used() as usize];
    }
    let second = std::mem::take(&mut f.second);
    let view = Second {
        own_variables: f.own_variables,
        clauses: second.len(),
        variables: vars.n_used(),
        replaced: f.first.len(),
        elim: Arc::new(Background::start(second, vars.n_used(), frozen.clone())),
        traced: false,
    };
    let race = race.simplified_start(f.first.len(), view.elim.clone());
    Ok((Box::new(race), frozen, Some(view)))
}

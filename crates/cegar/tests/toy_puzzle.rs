//! The seam proven on a puzzle that is not Freshly Frosted: a toy made up
//! for this test. On a small grid with walls, light a set of cells that
//! connects a start, a gem and a goal; the cost is the number of lit cells.
//!
//! The encoding knows only the walls and that the start and the goal are lit
//! (a relaxation). The gem and the connection are left to the check, a walk
//! over the lit cells; a failing walk becomes a cut clause (one of the cells
//! around the start's lit region must be lit), which every solution
//! satisfies. Brute force over every set of cells gives the true minimum,
//! which the loop must find and prove, with every kind of proof it gives.

use cegar::cost::CostCounter;
use cegar::sat::SolverChoice;
use cegar::solve::LOWER_BOUND_DEEPER_BUDGET;
use cegar::{Bound, Check, Decision, Decoded, Encoded, LowerBound, Options, Puzzle};
use cegar::{Claim, Event, ProofMethod, Status};
use rustsat::instances::{Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use std::sync::atomic::AtomicBool;

/// A toy level: `#` wall, `S` start, `G` gem, `T` goal, `.` free.
struct Toy {
    w: usize,
    h: usize,
    cells: Vec<u8>,
    lit: Vec<Lit>,
    counter: CostCounter,
    with_bound: bool,
    /// The work each question to the lower bound needs (0: none).
    bound_work: u64,
    /// The work each question to the lower bound's deeper search needs,
    /// when it has one (it knows the fewest lit cells, by brute force).
    deeper: Option<u64>,
    /// Focus sets, narrowest first: the cells each keeps dark. With some,
    /// the toy has a `strong` literal (which constrains nothing), so that
    /// its first calls search.
    focus: Vec<Vec<usize>>,
    /// The sketch it offers before the first call, if any.
    sketch: Option<Vec<bool>>,
}

impl Toy {
    fn new(rows: &[&str], with_bound: bool) -> Toy {
        Toy {
            w: rows[0].len(),
            h: rows.len(),
            cells: rows.iter().flat_map(|r| r.bytes()).collect(),
            lit: Vec::new(),
            counter: CostCounter::default(),
            with_bound,
            bound_work: 0,
            deeper: None,
            focus: Vec::new(),
            sketch: None,
        }
    }

    fn find(&self, b: u8) -> usize {
        self.cells
            .iter()
            .position(|&c| c == b)
            .expect("the toy level has it")
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.w, i / self.w);
        let mut n = Vec::new();
        if x > 0 {
            n.push(i - 1);
        }
        if x + 1 < self.w {
            n.push(i + 1);
        }
        if y > 0 {
            n.push(i - self.w);
        }
        if y + 1 < self.h {
            n.push(i + self.w);
        }
        n
    }

    /// The lit cells connected to the start.
    fn region(&self, on: &[bool]) -> Vec<bool> {
        let mut seen = vec![false; on.len()];
        let mut todo = vec![self.find(b'S')];
        while let Some(i) = todo.pop() {
            if on[i] && !seen[i] {
                seen[i] = true;
                todo.extend(self.neighbours(i));
            }
        }
        seen
    }

    /// The exact rule, by a walk: start, gem and goal are lit and connected,
    /// and no wall is lit.
    fn solves(&self, on: &[bool]) -> bool {
        let region = self.region(on);
        let walls_dark = (0..on.len()).all(|i| !(on[i] && self.cells[i] == b'#'));
        walls_dark && region[self.find(b'G')] && region[self.find(b'T')]
    }

    fn manhattan(&self, a: usize, b: usize) -> usize {
        (a % self.w).abs_diff(b % self.w) + (a / self.w).abs_diff(b / self.w)
    }
}

impl Puzzle for Toy {
    type Candidate = Vec<bool>;

    fn encode(&mut self, cnf: &mut Cnf, vars: &mut dyn ManageVars) -> Result<Encoded, String> {
        self.lit = (0..self.cells.len()).map(|_| vars.new_lit()).collect();
        for (i, &c) in self.cells.iter().enumerate() {
            match c {
                b'#' => cnf.add_clause(Clause::from([!self.lit[i]])),
                b'S' | b'T' => cnf.add_clause(Clause::from([self.lit[i]])),
                _ => {}
            }
        }
        // Lazy from the start: bounds are encoded as the loop asks for them.
        let (counter, clauses) = CostCounter::new(self.lit.clone(), 0, vars);
        self.counter = counter;
        clauses.into_iter().for_each(|cl| cnf.add_clause(cl));
        let strong = (!self.focus.is_empty()).then(|| vars.new_lit());
        Ok(Encoded {
            decisions: self.cells.len(),
            max_cost: self.cells.len(),
            strong,
            adds_strength: strong.is_some(),
            ..Encoded::default()
        })
    }

    fn cost_at_most(&mut self, k: usize, vars: &mut dyn ManageVars) -> (Vec<Clause>, Vec<Lit>) {
        let clauses = self.counter.encode_at_most(k, vars);
        (clauses, self.counter.at_most(k).unwrap_or_default())
    }

    fn decode(&mut self, model: &[bool], _vars: &mut dyn ManageVars) -> Decoded<Vec<bool>> {
        let on = self
            .lit
            .iter()
            .map(|l| model.get(l.var().idx()).copied().unwrap_or(false))
            .collect();
        Decoded {
            candidate: Some(on),
            lemmas: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn check(&mut self, on: &Vec<bool>, explain: bool) -> Check {
        if self.solves(on) {
            return Check::Accepted {
                cost: on.iter().filter(|&&b| b).count(),
            };
        }
        // Some cell next to the start's region, outside it, must be lit.
        let region = self.region(on);
        let around: Vec<Lit> = (0..on.len())
            .filter(|&i| !region[i] && self.neighbours(i).iter().any(|&j| region[j]))
            .map(|i| self.lit[i])
            .collect();
        Check::Rejected {
            clauses: vec![Clause::from_iter(around)],
            reason: explain.then(|| "the gem or the goal is cut off".to_string()),
        }
    }

    fn sketch(&mut self) -> Option<Vec<bool>> {
        self.sketch.clone()
    }

    fn lower_bound(&self) -> Result<Box<dyn LowerBound>, String> {
        if !self.with_bound {
            return Err("not asked for".into());
        }
        let [s, g, t] = [b'S', b'G', b'T'].map(|b| self.find(b));
        let far = [(s, g), (g, t), (s, t)].map(|(a, b)| self.manhattan(a, b));
        Ok(Box::new(Distance {
            fewest: far.into_iter().max().unwrap_or(0) + 1,
            deeper: self
                .deeper
                .and_then(|need| brute_force(self).map(|fewest| (fewest, need))),
            need: self.bound_work,
            work: std::cell::Cell::new(0),
        }))
    }

    fn windows(&self) -> Vec<Vec<usize>> {
        (0..self.h)
            .map(|y| (y * self.w..(y + 1) * self.w).collect())
            .collect()
    }

    fn focus(&self) -> Vec<Vec<Lit>> {
        let dark = |cells: &Vec<usize>| cells.iter().map(|&i| !self.lit[i]).collect();
        self.focus.iter().map(dark).collect()
    }

    fn decisions_of(&self, on: &Vec<bool>) -> Vec<Decision> {
        (0..on.len())
            .map(|i| Decision {
                keep: if on[i] { self.lit[i] } else { !self.lit[i] },
                costs: on[i],
            })
            .collect()
    }
}

/// Two cells `d` apart need `d + 1` lit cells to be connected: the fewest
/// any solution has; each question takes `need` units of work. Its deeper
/// search, when it has one, knows the fewest, and needs the work given
/// with it (`deeper`).
struct Distance {
    fewest: usize,
    deeper: Option<(usize, u64)>,
    need: u64,
    work: std::cell::Cell<u64>,
}

impl Distance {
    /// Whether `k` lit cells are allowed by a search that knows `fewest`
    /// and needs `need` units of work, with `budget`.
    fn allows_with(&self, (fewest, need): (usize, u64), k: usize, budget: u64) -> Bound {
        self.work.set(self.work.get() + need.min(budget));
        if budget < need {
            Bound::OutOfBudget
        } else if k < fewest {
            Bound::Refuted
        } else {
            Bound::Allowed
        }
    }
}

impl LowerBound for Distance {
    fn name(&self) -> &'static str {
        "distance bound"
    }

    fn allows(&self, k: usize, budget: u64) -> Bound {
        self.allows_with((self.fewest, self.need), k, budget)
    }

    fn has_deeper(&self) -> bool {
        self.deeper.is_some()
    }

    fn allows_deeper(&self, k: usize, budget: u64, _: &AtomicBool) -> Bound {
        match self.deeper {
            Some(deeper) => self.allows_with(deeper, k, budget),
            None => Bound::OutOfBudget,
        }
    }

    fn work(&self) -> u64 {
        self.work.get()
    }
}

/// The fewest lit cells that solve, by trying every set.
fn brute_force(toy: &Toy) -> Option<usize> {
    let n = toy.cells.len();
    (0u32..1 << n)
        .map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|on| toy.solves(on))
        .map(|on| on.iter().filter(|&&b| b).count())
        .min()
}

const LEVELS: [&[&str]; 5] = [
    &["S.G", "...", "..T"],
    &["S#G", ".#.", "..T"],
    &["S..", "##.", "G.T"],
    &["SG.", "...", "..T"],
    &["S.#", "..#", "#GT"],
];

fn solve(rows: &[&str], opts: &Options, with_bound: bool) -> cegar::Report<Vec<bool>> {
    let mut toy = Toy::new(rows, with_bound);
    let mut progress = 0;
    let r = cegar::solve(&mut toy, opts, &mut |e| {
        if let Event::Progress(_) = e {
            progress += 1;
        }
    })
    .expect("the toy solves");
    assert!(progress >= r.counts.iterations, "a progress event per call");
    r
}

#[test]
fn the_loop_finds_and_proves_the_fewest_lit_cells() {
    for rows in LEVELS {
        let want = brute_force(&Toy::new(rows, false));
        for with_bound in [false, true] {
            for threads in [1, 2] {
                let opts = Options {
                    threads,
                    head_start: std::time::Duration::ZERO,
                    ..Options::default()
                };
                let r = solve(rows, &opts, with_bound);
                assert_eq!(r.cost, want, "{rows:?}");
                assert_eq!(r.status, Status::Optimal, "{rows:?}");
                let on = r.candidate.as_ref().expect("an optimal candidate");
                assert!(Toy::new(rows, false).solves(on), "{rows:?}");
                let proof = r.proof().expect("optimal is proved");
                assert_eq!(proof.max_cost, want.map(|k| k - 1));
                if !with_bound {
                    assert_eq!(proof.by, ProofMethod::Sat);
                }
            }
        }
    }
}

#[test]
fn a_cut_off_gem_is_proved_unsolvable() {
    let rows: &[&str] = &["S.#", "..#", "##G", "T.."];
    assert_eq!(brute_force(&Toy::new(rows, false)), None);
    let r = solve(rows, &Options::default(), false);
    assert_eq!(r.status, Status::Unsolvable);
    assert!(r.candidate.is_none());
    assert_eq!(
        r.claim,
        Claim::Proved(cegar::Proof {
            max_cost: None,
            by: ProofMethod::Sat
        })
    );
    assert!(
        r.counts.counterexamples > 0,
        "the check's cuts did the work"
    );
}

#[test]
fn a_bound_below_the_optimum_is_proved_by_the_lower_bound() {
    let rows = LEVELS[0];
    let opts = Options {
        max_cost: Some(3),
        ..Options::default()
    };
    let r = solve(rows, &opts, true);
    assert_eq!(r.status, Status::Unsolvable);
    let proof = r.proof().expect("a proof");
    assert_eq!(proof.by, ProofMethod::LowerBound("distance bound"));
    assert_eq!(proof.max_cost, Some(3));
    assert_eq!(r.counts.iterations, 0, "no SAT call was needed");
}

/// Solves the toy with the loop's trace lines collected.
fn solve_traced(toy: &mut Toy, opts: &Options) -> (cegar::Report<Vec<bool>>, Vec<String>) {
    let mut traces = Vec::new();
    let r = cegar::solve(toy, opts, &mut |e| {
        if let Event::Trace(t) = e {
            traces.push(t);
        }
    })
    .expect("the toy solves");
    (r, traces)
}

/// A deeper search proves what the plain one allows: on a level whose
/// walls make the way longer than the distances, the plain bound allows
/// one cell under the optimum, the deeper search (asked after the plain
/// one allowed it) refutes it, and without it (no budget, with one thread
/// or two) the SAT calls prove it.
#[test]
fn the_deeper_search_proves_what_the_plain_one_allows() {
    let rows = LEVELS[1];
    for (budget, threads) in [(LOWER_BOUND_DEEPER_BUDGET, 1), (0, 1), (0, 2)] {
        let opts = Options {
            trace: true,
            threads,
            lower_bound_deeper_budget: budget,
            ..Options::default()
        };
        let mut toy = Toy::new(rows, true);
        toy.deeper = Some(0);
        let (r, traces) = solve_traced(&mut toy, &opts);
        assert_eq!(r.status, Status::Optimal);
        assert_eq!(r.cost, Some(7));
        let proof = r.proof().expect("a proof");
        assert_eq!(proof.max_cost, Some(6));
        let deeper = traces.iter().any(|t| t.contains("the deeper search"));
        match budget {
            0 => {
                assert_eq!(proof.by, ProofMethod::Sat, "{traces:?}");
                assert!(!deeper, "never asked: {traces:?}");
            }
            _ => {
                assert_eq!(proof.by, ProofMethod::LowerBound("distance bound"));
                assert!(deeper, "asked after the plain search allowed: {traces:?}");
            }
        }
    }
}

/// A deeper search that needs more work than the loop waits for goes on
/// beside the proving call over the whole instance, with two threads,
/// and the claim is proved (by whichever answer the loop reads first).
#[test]
fn a_slow_deeper_search_goes_on_beside_the_proving_call() {
    let opts = Options {
        threads: 2,
        trace: true,
        ..Options::default()
    };
    let mut toy = Toy::new(LEVELS[1], true);
    toy.deeper = Some(2 * LOWER_BOUND_DEEPER_BUDGET);
    let (r, traces) = solve_traced(&mut toy, &opts);
    assert_eq!(r.status, Status::Optimal);
    assert_eq!(r.cost, Some(7));
    assert_eq!(r.proof().and_then(|p| p.max_cost), Some(6));
    let waited = traces
        .iter()
        .any(|t| t.contains("OutOfBudget") && t.contains("the deeper search"));
    let beside = traces
        .iter()
        .any(|t| t.contains("the deeper search beside the SAT calls"));
    assert!(waited && beside, "{traces:?}");
}

/// On a puzzle with more decisions than `lower_bound_wait_decisions`, with
/// two threads, the questions after a candidate go beside the SAT calls at
/// once: only the first question (before any call) is answered while the
/// loop waits, and the same claim is proved.
#[test]
fn questions_after_a_candidate_go_beside_the_calls_at_once() {
    let opts = Options {
        threads: 2,
        trace: true,
        lower_bound_wait_decisions: 0,
        ..Options::default()
    };
    let mut toy = Toy::new(LEVELS[1], true);
    toy.deeper = Some(0);
    let (r, traces) = solve_traced(&mut toy, &opts);
    assert_eq!(r.status, Status::Optimal);
    assert_eq!(r.cost, Some(7));
    assert_eq!(r.proof().and_then(|p| p.max_cost), Some(6));
    let sent = traces
        .iter()
        .any(|t| t.contains("at most 6: searched beside the SAT calls (budget"));
    assert!(sent, "the question after the candidate: {traces:?}");
    let answers: Vec<&String> = traces.iter().filter(|t| t.contains("(work ")).collect();
    assert!(!answers.is_empty(), "{traces:?}");
    let waited_after_first = answers[1..]
        .iter()
        .filter(|t| !t.contains("beside the SAT calls"))
        .count();
    assert_eq!(waited_after_first, 0, "{traces:?}");
}

/// A lower bound that needs more work than the slice of its budget the
/// loop waits for: with one thread the loop waits for the whole search,
/// which proves the claim before any SAT call; with two, the search goes on
/// beside the SAT calls once the slice runs out, and the same claim is
/// proved (by whichever answer the loop reads first).
#[test]
fn a_slow_lower_bound_proves_the_same_beside_the_calls() {
    for threads in [1, 2] {
        let opts = Options {
            max_cost: Some(3),
            threads,
            trace: true,
            ..Options::default()
        };
        let mut toy = Toy::new(LEVELS[0], true);
        // Three searches (the bounds 1, 2 and 3) fit in the budget.
        toy.bound_work = opts.lower_bound_budget / 4;
        let (r, traces) = solve_traced(&mut toy, &opts);
        assert_eq!(r.status, Status::Unsolvable, "{threads} threads");
        let proof = r.proof().expect("a proof");
        assert_eq!(proof.max_cost, Some(3));
        let ran_out = traces.iter().any(|t| t.contains("OutOfBudget"));
        match threads {
            1 => {
                assert_eq!(proof.by, ProofMethod::LowerBound("distance bound"));
                assert_eq!(r.counts.iterations, 0, "no SAT call was needed");
                assert!(!ran_out, "one search with the whole budget: {traces:?}");
            }
            _ => assert!(ran_out, "the slice ran out first: {traces:?}"),
        }
    }
}

/// The search beside the SAT calls gets its own, larger budget: a bound
/// that needs more work than the loop's budget runs out with one thread
/// (the SAT calls prove the claim), and with two it is searched beside the
/// calls with the beside budget.
#[test]
fn the_search_beside_the_calls_has_the_larger_budget() {
    for threads in [1, 2] {
        let opts = Options {
            max_cost: Some(3),
            threads,
            trace: true,
            lower_bound_budget: 4_000,
            lower_bound_beside_budget: 4_000_000,
            ..Options::default()
        };
        let mut toy = Toy::new(LEVELS[0], true);
        toy.bound_work = 10 * opts.lower_bound_budget;
        let (r, traces) = solve_traced(&mut toy, &opts);
        assert_eq!(r.status, Status::Unsolvable, "{threads} threads");
        let beside = format!(
            "beside the SAT calls (budget {})",
            opts.lower_bound_beside_budget
        );
        let sent = traces.iter().any(|t| t.contains(&beside));
        match threads {
            1 => {
                assert!(!sent, "no search beside the calls: {traces:?}");
                let proof = r.proof().expect("a proof");
                assert_eq!(proof.by, ProofMethod::Sat, "the bound ran out");
            }
            _ => assert!(sent, "searched beside the calls: {traces:?}"),
        }
    }
}

/// Before any candidate is verified, a rejected one is repaired: the
/// neighbourhood search frees one of its windows at a time. Its calls have
/// no cost bound (none is known yet), and the minimum is still proved by a
/// call over the whole instance. Without the neighbourhood search there is
/// no repair.
#[test]
fn a_rejected_candidate_is_repaired_before_the_first_verified() {
    let rows = LEVELS[0];
    let want = brute_force(&Toy::new(rows, false));
    let opts = Options {
        threads: 1,
        trace: true,
        repair_from: std::time::Duration::ZERO,
        ..Options::default()
    };
    let repaired = |traces: &[String]| {
        traces
            .iter()
            .any(|t| t.starts_with("trace: repairing the rejected candidate"))
    };
    let (r, traces) = solve_traced(&mut Toy::new(rows, false), &opts);
    assert_eq!(r.status, Status::Optimal);
    assert_eq!(r.cost, want);
    assert_eq!(r.proof().map(|p| p.by.clone()), Some(ProofMethod::Sat));
    assert!(repaired(&traces), "{traces:#?}");
    for t in traces.iter().filter(|t| t.contains("(repairing")) {
        assert!(t.contains("bound None"), "{t}");
    }
    // `first` repairs too, and stops at the first candidate verified
    // (no window around it follows: no "improving" call after it).
    let first = Options {
        first: true,
        ..opts.clone()
    };
    let (r, traces) = solve_traced(&mut Toy::new(rows, false), &first);
    assert_eq!(
        (r.status, r.claim.clone()),
        (Status::Solved, Claim::Verified(None))
    );
    assert!(repaired(&traces), "{traces:#?}");
    assert!(
        !traces
            .iter()
            .any(|t| t.contains("improving") && !t.contains("(repairing")),
        "{traces:#?}"
    );
    let without = Options {
        neighbourhoods: false,
        ..opts
    };
    let (r, traces) = solve_traced(&mut Toy::new(rows, false), &without);
    assert_eq!((r.status, r.cost), (Status::Optimal, want));
    assert!(
        !traces.iter().any(|t| t.contains("repairing")),
        "{traces:#?}"
    );
}

#[test]
fn first_stops_at_a_verified_candidate_and_claims_no_proof() {
    let opts = Options {
        first: true,
        solver: SolverChoice::Varisat,
        ..Options::default()
    };
    let r = solve(LEVELS[1], &opts, false);
    assert_eq!(r.status, Status::Solved);
    assert_eq!(r.claim, Claim::Verified(None));
    assert!(r.proof().is_none());
}

/// The solving sets of lit cells with at most `k` lit (every one, when
/// `k` is `None`), by trying every set.
fn every_solution(toy: &Toy, k: Option<usize>) -> Vec<Vec<bool>> {
    let n = toy.cells.len();
    (0u32..1 << n)
        .map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|on| k.is_none_or(|k| on.iter().filter(|&&b| b).count() <= k))
        .filter(|on| toy.solves(on))
        .collect()
}

/// Enumeration with the default blocking clause (some decision differs):
/// every minimal set, and every set within one more, exactly once each.
#[test]
fn enumeration_lists_every_solution_once() {
    let mut several = 0;
    for rows in LEVELS {
        let Some(fewest) = brute_force(&Toy::new(rows, false)) else {
            continue;
        };
        for max_cost in [None, Some(fewest + 1)] {
            let mut want = every_solution(&Toy::new(rows, false), Some(max_cost.unwrap_or(fewest)));
            let opts = Options {
                max_cost,
                ..Options::default()
            };
            let mut seen = 0;
            let e = cegar::enumerate(
                &mut Toy::new(rows, true),
                &opts,
                None,
                &mut |_| {},
                &mut |_| seen += 1,
            )
            .expect("the toy enumerates");
            assert_eq!(e.end, cegar::EnumEnd::Complete, "{rows:?}");
            assert_eq!(seen, e.solutions.len());
            let mut got = e.solutions.clone();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{rows:?} at {max_cost:?}");
            several += usize::from(want.len() > 1);
            let limited = cegar::enumerate(
                &mut Toy::new(rows, false),
                &opts,
                Some(1),
                &mut |_| {},
                &mut |_| {},
            )
            .expect("the toy enumerates");
            assert_eq!(limited.end, cegar::EnumEnd::Limit, "{rows:?}");
            assert_eq!(limited.solutions.len(), 1);
        }
    }
    assert!(several >= 3, "only {several} cases with several solutions");
}

/// A focus that holds no solution proves nothing: with a first focus set
/// that keeps every free cell dark (no solution there) and a second that
/// keeps one corner dark, the loop still finds and proves the fewest lit
/// cells that brute force gives, with one thread or two, and its first
/// calls are the focused ones.
#[test]
fn a_focus_without_a_solution_proves_nothing() {
    for rows in LEVELS {
        let want = brute_force(&Toy::new(rows, false));
        for threads in [1, 2] {
            let opts = Options {
                trace: true,
                threads,
                focus_slice: Some(std::time::Duration::from_secs(5)),
                ..Options::default()
            };
            let mut toy = Toy::new(rows, false);
            let free: Vec<usize> = (0..toy.cells.len())
                .filter(|&i| toy.cells[i] == b'.')
                .collect();
            toy.focus = vec![free, vec![toy.cells.len() - 1]];
            let (r, traces) = solve_traced(&mut toy, &opts);
            assert_eq!(r.cost, want, "{rows:?}");
            let status = match want {
                Some(_) => Status::Optimal,
                None => Status::Unsolvable,
            };
            assert_eq!(r.status, status, "{rows:?}");
            let first = traces.iter().find(|t| t.contains("iteration 1 "));
            assert!(
                first.is_some_and(|t| t.contains("searching focus 0")),
                "{rows:?}: {traces:?}"
            );
            assert!(
                traces.iter().any(|t| t.contains("searching focus 1")),
                "the first set holds no solution, so the second is tried: {traces:?}"
            );
        }
    }
}

/// A sketch is a candidate like a model's: one that solves is the first
/// verified candidate (no SAT call found it, and the minimum is still found
/// and proved), one that does not is rejected with its cut, and with the
/// option off the puzzle is not asked.
#[test]
fn a_sketch_is_checked_like_any_candidate() {
    for rows in LEVELS {
        let want = brute_force(&Toy::new(rows, false));
        let toy = Toy::new(rows, false);
        let every: Vec<bool> = toy.cells.iter().map(|&c| c != b'#').collect();
        let dark: Vec<bool> = toy
            .cells
            .iter()
            .map(|&c| matches!(c, b'S' | b'T'))
            .collect();
        for (sketch, solves) in [
            (every.clone(), toy.solves(&every)),
            (dark.clone(), toy.solves(&dark)),
        ] {
            for on in [true, false] {
                let opts = Options {
                    trace: true,
                    sketch: on,
                    ..Options::default()
                };
                let mut toy = Toy::new(rows, false);
                toy.sketch = Some(sketch.clone());
                let (r, traces) = solve_traced(&mut toy, &opts);
                assert_eq!(r.cost, want, "{rows:?}");
                assert_eq!(r.status, Status::Optimal, "{rows:?}");
                let used = traces
                    .iter()
                    .any(|t| t.starts_with("trace: sketch: a verified"));
                assert_eq!(used, on && solves, "{rows:?}: {traces:?}");
                if on {
                    assert!(r.times.sketch > std::time::Duration::ZERO);
                }
            }
        }
    }
}

/// A sketch that costs more than the bound (`max_cost`) is no candidate of
/// that solve: the loop still proves that nothing within the bound solves.
#[test]
fn a_sketch_over_the_bound_is_dropped() {
    let mut tried = 0;
    for rows in LEVELS {
        let Some(want) = brute_force(&Toy::new(rows, false)) else {
            continue;
        };
        if want == 0 {
            continue;
        }
        let toy = Toy::new(rows, false);
        let every: Vec<bool> = toy.cells.iter().map(|&c| c != b'#').collect();
        if !toy.solves(&every) {
            continue;
        }
        let opts = Options {
            trace: true,
            max_cost: Some(want - 1),
            ..Options::default()
        };
        let mut toy = Toy::new(rows, false);
        toy.sketch = Some(every);
        let (r, traces) = solve_traced(&mut toy, &opts);
        tried += 1;
        assert!(r.candidate.is_none(), "{rows:?}: {traces:?}");
        assert_eq!(r.status, Status::Unsolvable, "{rows:?}");
        assert!(
            traces
                .iter()
                .any(|t| t.starts_with("trace: sketch: dropped")),
            "{rows:?}: {traces:?}"
        );
    }
    assert!(
        tried > 0,
        "no toy level has a solving sketch over its bound"
    );
}

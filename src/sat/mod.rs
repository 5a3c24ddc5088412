//! SAT solver backends behind one small trait, so the same encoding feeds varisat,
//! CaDiCaL or any DIMACS solver binary.
//!
//! Literals and clauses are rustsat's types; the encoder never sees a backend.

pub mod call_dump;
pub mod dimacs;
pub mod elim;
pub mod race;

use rustsat::types::{Clause, Lit};
use std::time::Instant;
use varisat::ExtendFormula;

/// The answer to one solver call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model: `model[v]` is the value of variable `v` (0-based index).
    Sat(Vec<bool>),
    Unsat,
    /// The solver stopped without an answer (deadline reached).
    Unknown,
}

/// An incremental SAT solver: clauses are added once and kept; each call may add
/// assumptions that hold for that call only.
pub trait Backend {
    fn add_clause(&mut self, clause: &Clause);
    /// Solves under `assumptions`. `n_vars` is the number of variables in use (the
    /// model returned covers at least those). Stops with `Unknown` at `deadline` if
    /// the backend can be interrupted.
    fn solve(
        &mut self,
        assumptions: &[Lit],
        n_vars: u32,
        deadline: Option<Instant>,
    ) -> Result<Answer, String>;

    /// After an [`Answer::Unsat`]: assumptions of that call which together
    /// are already unsatisfiable with the clauses (a failed core), when the
    /// solver can tell. `None` means "all of them, perhaps".
    fn core(&mut self) -> Option<Vec<Lit>> {
        None
    }
}

/// The backends `--solver` accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverChoice {
    Varisat,
    Cadical,
    /// Runs a DIMACS solver binary on every call.
    Command(String),
}

impl SolverChoice {
    pub fn parse(s: &str) -> Result<SolverChoice, String> {
        match s {
            "varisat" => Ok(SolverChoice::Varisat),
            "cadical" => Ok(SolverChoice::Cadical),
            _ => match s.strip_prefix("cmd:") {
                Some(p) if !p.trim().is_empty() => Ok(SolverChoice::Command(p.to_string())),
                _ => Err(format!(
                    "unknown solver `{s}`: expected varisat, cadical, or cmd:PROGRAM (a DIMACS solver binary such as cmd:cadical)"
                )),
            },
        }
    }

    pub fn name(&self) -> String {
        match self {
            SolverChoice::Varisat => "varisat".into(),
            SolverChoice::Cadical => "cadical".into(),
            SolverChoice::Command(p) => format!("cmd:{p}"),
        }
    }

    pub fn build(&self) -> Result<Box<dyn Backend>, String> {
        match self {
            SolverChoice::Varisat => Ok(Box::new(VarisatBackend::default())),
            SolverChoice::Cadical => cadical_backend(),
            SolverChoice::Command(p) => Ok(Box::new(CommandBackend::new(p))),
        }
    }
}

fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.var().idx(), !l.is_neg())
}

fn from_varisat(l: varisat::Lit) -> Lit {
    Lit::new(l.index() as u32, l.is_negative())
}

/// varisat, pure Rust. It cannot be interrupted, so a deadline is only checked
/// between calls.
#[derive(Default)]
pub struct VarisatBackend {
    solver: varisat::Solver<'static>,
    buf: Vec<varisat::Lit>,
}

impl Backend for VarisatBackend {
    fn add_clause(&mut self, clause: &Clause) {
        self.buf.clear();
        self.buf.extend(clause.iter().map(|l| to_varisat(*l)));
        self.solver.add_clause(&self.buf);
    }

    fn solve(
        &mut self,
        assumptions: &[Lit],
        n_vars: u32,
        _: Option<Instant>,
    ) -> Result<Answer, String> {
        let a: Vec<varisat::Lit> = assumptions.iter().map(|l| to_varisat(*l)).collect();
        self.solver.assume(&a);
        match self.solver.solve() {
            Ok(true) => {
                let mut model = vec![false; n_vars as usize];
                for l in self.solver.model().unwrap_or_default() {
                    if let Some(v) = model.get_mut(l.index()) {
                        *v = l.is_positive();
                    }
                }
                Ok(Answer::Sat(model))
            }
            Ok(false) => Ok(Answer::Unsat),
            Err(e) => Err(format!("varisat: {e}")),
        }
    }

    fn core(&mut self) -> Option<Vec<Lit>> {
        let core = self.solver.failed_core()?;
        Some(core.iter().map(|&l| from_varisat(l)).collect())
    }
}

#[cfg(feature = "cadical")]
fn cadical_backend() -> Result<Box<dyn Backend>, String> {
    Ok(Box::new(cadical::CadicalBackend::default()))
}

#[cfg(not(feature = "cadical"))]
fn cadical_backend() -> Result<Box<dyn Backend>, String> {
    Err("this frosted was built without the `cadical` feature (cargo build --features cadical, which needs libclang); use --solver varisat or --solver cmd:cadical".into())
}

#[cfg(feature = "cadical")]
mod cadical {
    use super::{Answer, Backend};
    use rustsat::solvers::{ControlSignal, Solve, SolveIncremental, SolverResult, Terminate};
    use rustsat::types::{Clause, Lit, TernaryVal, Var};
    use rustsat_cadical::CaDiCaL;
    use std::time::Instant;

    /// CaDiCaL through rustsat-cadical; interrupted at the deadline.
    #[derive(Default)]
    pub struct CadicalBackend {
        solver: CaDiCaL<'static, 'static>,
    }

    impl Backend for CadicalBackend {
        fn add_clause(&mut self, clause: &Clause) {
            let _ = self.solver.add_clause_ref(clause);
        }

        fn solve(
            &mut self,
            assumptions: &[Lit],
            n_vars: u32,
            deadline: Option<Instant>,
        ) -> Result<Answer, String> {
            match deadline {
                Some(d) => self.solver.attach_terminator(move || {
                    if Instant::now() >= d {
                        ControlSignal::Terminate
                    } else {
                        ControlSignal::Continue
                    }
                }),
                None => self.solver.detach_terminator(),
            }
            match self
                .solver
                .solve_assumps(assumptions)
                .map_err(|e| format!("cadical: {e}"))?
            {
                SolverResult::Sat => {
                    let mut model = vec![false; n_vars as usize];
                    for (i, v) in model.iter_mut().enumerate() {
                        let val = self
                            .solver
                            .lit_val(Var::new(i as u32).pos_lit())
                            .unwrap_or(TernaryVal::DontCare);
                        *v = val == TernaryVal::True;
                    }
                    Ok(Answer::Sat(model))
                }
                SolverResult::Unsat => Ok(Answer::Unsat),
                SolverResult::Interrupted => Ok(Answer::Unknown),
            }
        }

        fn core(&mut self) -> Option<Vec<Lit>> {
            // rustsat gives the core as a clause of negated assumptions.
            let core = self.solver.core().ok()?;
            Some(core.into_iter().map(|l| !l).collect())
        }
    }
}

/// Runs a DIMACS solver binary (`cadical`, `minisat`, `kissat`, ...) on every call:
/// the whole formula plus the assumptions as unit clauses goes to a temporary file.
pub struct CommandBackend {
    program: String,
    clauses: Vec<Clause>,
}

impl CommandBackend {
    pub fn new(program: &str) -> CommandBackend {
        CommandBackend {
            program: program.to_string(),
            clauses: Vec::new(),
        }
    }
}

impl Backend for CommandBackend {
    fn add_clause(&mut self, clause: &Clause) {
        self.clauses.push(clause.clone());
    }

    fn solve(
        &mut self,
        assumptions: &[Lit],
        n_vars: u32,
        deadline: Option<Instant>,
    ) -> Result<Answer, String> {
        use std::process::{Command, Stdio};
        let dir = std::env::temp_dir();
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path = dir.join(format!("frosted-{}-{stamp}.cnf", std::process::id()));
        let mut text = String::new();
        dimacs::write_with_assumptions(&mut text, n_vars, self.clauses.iter(), assumptions, &[]);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut child = Command::new(&self.program)
            .arg(&path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run solver `{}`: {e}", self.program))?;
        let stdout = child.stdout.take();
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut out) = stdout {
                use std::io::Read;
                let _ = out.read_to_string(&mut s);
            }
            s
        });
        let mut timed_out = false;
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        let _ = child.kill();
                        let _ = child.wait();
                        timed_out = true;
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(e) => return Err(format!("waiting for `{}`: {e}", self.program)),
            }
        }
        let out = reader.join().unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        if timed_out {
            return Ok(Answer::Unknown);
        }
        dimacs::parse_output(&out, n_vars).map_err(|e| format!("solver `{}`: {e}", self.program))
    }
}

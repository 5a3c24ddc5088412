//! SAT solver backends behind one small trait, so the same encoding feeds varisat,
//! CaDiCaL (built in, `cadical.rs`) or any DIMACS solver binary.
//!
//! Literals and clauses are rustsat's types; the encoder never sees a backend.

pub mod cadical;
pub mod call_dump;
pub mod dimacs;
pub mod elim;
pub mod race;
#[cfg(test)]
mod testing;

use rustsat::types::{Clause, Lit};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use varisat::ExtendFormula;

/// Set when the whole program is asked to stop (Ctrl-C in the command line).
static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every running call that can be interrupted (a `cmd:` solver, CaDiCaL)
/// to stop as at its deadline, with [`Answer::Unknown`], and every later call
/// too. Only stores an atomic, so a signal handler may call it.
pub fn stop_all() {
    STOP.store(true, Ordering::SeqCst);
}

/// [`stop_all`] was called, or `deadline` has passed.
pub(crate) fn must_stop(deadline: Option<Instant>) -> bool {
    STOP.load(Ordering::SeqCst) || deadline.is_some_and(|d| Instant::now() >= d)
}

/// The answer to one solver call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model: `model[v]` is the value of variable `v` (0-based index).
    Sat(Vec<bool>),
    Unsat,
    /// The solver stopped without an answer (deadline reached).
    Unknown,
}

/// What a solver call gives: its answer, or why the backend could not give one.
pub type Solved = Result<Answer, String>;

/// An incremental SAT solver: clauses are added once and kept; each call may add
/// assumptions that hold for that call only.
pub trait Backend {
    fn add_clause(&mut self, clause: &Clause);
    /// Solves under `assumptions`. `n_vars` is the number of variables in use (the
    /// model returned covers at least those). Stops with `Unknown` at `deadline`
    /// or at [`stop_all`] if the backend can be interrupted.
    fn solve(&mut self, assumptions: &[Lit], n_vars: u32, deadline: Option<Instant>) -> Solved;

    /// After an [`Answer::Unsat`]: assumptions of that call which together
    /// are already unsatisfiable with the clauses (a failed core), when the
    /// solver can tell. `None` means "all of them, perhaps".
    fn core(&mut self) -> Option<Vec<Lit>> {
        None
    }

    /// Makes every later call stop with [`Answer::Unknown`] soon after
    /// `flag` is set (the loop's lower bound sets it when it proves what
    /// the call is looking for); `None` stops listening. A
    /// [`race::Race`] and CaDiCaL listen; another backend may ignore it.
    fn interrupt_on(&mut self, _flag: Option<Arc<AtomicBool>>) {}

    /// The calls so far were short preliminaries (the loop's focused
    /// calls): the next call is the first over the whole instance, and a
    /// [`race::Race`] lets its other members join it as early as a first
    /// call's. Other backends ignore it.
    fn next_call_is_first(&mut self) {}
}

/// The backends `--solver` accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverChoice {
    Varisat,
    Cadical,
    /// Runs a DIMACS solver binary on every call.
    Command(String),
    /// Racing copies of different solvers: copy `i` runs the `i`-th, round
    /// and round; one thread runs the first.
    Portfolio(Vec<SolverChoice>),
}

impl SolverChoice {
    pub fn parse(s: &str) -> Result<SolverChoice, String> {
        if s.contains('+') {
            let parts = s
                .split('+')
                .map(SolverChoice::parse_one)
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(SolverChoice::Portfolio(parts));
        }
        SolverChoice::parse_one(s)
    }

    fn parse_one(s: &str) -> Result<SolverChoice, String> {
        match s {
            "varisat" => Ok(SolverChoice::Varisat),
            "cadical" => Ok(SolverChoice::Cadical),
            _ => match s.strip_prefix("cmd:") {
                Some(p) if !p.trim().is_empty() => Ok(SolverChoice::Command(p.to_string())),
                _ => Err(format!(
                    "unknown solver `{s}`: expected varisat, cadical, cmd:PROGRAM (a DIMACS solver binary such as cmd:cadical), or several joined by `+` (cadical+varisat)"
                )),
            },
        }
    }

    pub fn name(&self) -> String {
        match self {
            SolverChoice::Varisat => "varisat".into(),
            SolverChoice::Cadical => "cadical".into(),
            SolverChoice::Command(p) => format!("cmd:{p}"),
            SolverChoice::Portfolio(parts) => {
                parts.iter().map(|p| p.name()).collect::<Vec<_>>().join("+")
            }
        }
    }

    /// The solver of racing copy `i`: the portfolio's `i`-th (round and
    /// round), or the one solver.
    pub fn member(&self, i: usize) -> &SolverChoice {
        match self {
            SolverChoice::Portfolio(parts) if !parts.is_empty() => parts[i % parts.len()].member(0),
            _ => self,
        }
    }

    /// A backend whose calls also stop, with [`Answer::Unknown`], while
    /// `cancel` is set, where the backend can be interrupted (CaDiCaL).
    pub fn build_cancellable(&self, cancel: Arc<AtomicBool>) -> Result<Box<dyn Backend>, String> {
        match self.member(0) {
            SolverChoice::Cadical => Ok(Box::new(cadical::CadicalBackend::cancellable(cancel))),
            one => one.build(),
        }
    }

    pub fn build(&self) -> Result<Box<dyn Backend>, String> {
        match self.member(0) {
            SolverChoice::Varisat => Ok(Box::new(VarisatBackend::default())),
            SolverChoice::Cadical => Ok(Box::new(cadical::CadicalBackend::default())),
            SolverChoice::Command(p) => Ok(Box::new(CommandBackend::new(p))),
            SolverChoice::Portfolio(_) => Err("internal error: an empty portfolio".into()),
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

    fn solve(&mut self, assumptions: &[Lit], n_vars: u32, _: Option<Instant>) -> Solved {
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

/// The formula files of the `cmd:` calls running now, so that a program
/// that is stopping can remove them before it exits ([`remove_temp_files`]).
static TEMP_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Writes `text` to the new file `path` and registers it, unless
/// [`stop_all`] was called (then `false`, and no file). The registry is
/// locked while writing, so [`remove_temp_files`] never misses a file.
fn write_temp_file(path: &Path, text: &str) -> Result<bool, String> {
    let mut files = TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner());
    if STOP.load(Ordering::SeqCst) {
        return Ok(false);
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    files.push(path.to_path_buf());
    Ok(true)
}

/// Removes `path` and forgets it.
fn remove_temp_file(path: &Path) {
    let mut files = TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner());
    files.retain(|p| p != path);
    let _ = std::fs::remove_file(path);
}

/// Removes the formula files of every `cmd:` call still running: for a
/// program that exits after [`stop_all`] without waiting for its calls.
pub fn remove_temp_files() {
    let mut files = TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner());
    for p in files.drain(..) {
        let _ = std::fs::remove_file(p);
    }
}

/// Runs a DIMACS solver binary on every call: the whole formula plus the
/// assumptions as unit clauses goes to a temporary file. Solvers that print
/// SAT-competition `s` and `v` lines (`cadical`, `kissat`, ...) are run as
/// `PROGRAM FILE`; MiniSat and Glucose (a program named `minisat*` or
/// `glucose*`), which print no model, as `PROGRAM FILE /dev/stdout`, so that
/// their result file (`SAT` and the model) comes on stdout.
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

    /// MiniSat's way: the answer goes to a result file, the second argument.
    fn writes_result_file(&self) -> bool {
        let name = Path::new(&self.program)
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        name.starts_with("minisat") || name.starts_with("glucose")
    }

    /// Runs the program on the formula file `path` until it ends or must
    /// stop (then `None`); returns its stdout, and how it ended (its exit
    /// status and the start of its stderr) for an error message.
    fn run(
        &self,
        path: &Path,
        deadline: Option<Instant>,
    ) -> Result<Option<(String, String)>, String> {
        use std::process::{Command, Stdio};
        let mut cmd = Command::new(&self.program);
        cmd.arg(path);
        if self.writes_result_file() {
            cmd.arg("/dev/stdout");
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run solver `{}`: {e}", self.program))?;
        fn read_all(
            pipe: Option<impl std::io::Read + Send + 'static>,
        ) -> std::thread::JoinHandle<String> {
            std::thread::spawn(move || {
                let mut s = String::new();
                if let Some(mut pipe) = pipe {
                    let _ = pipe.read_to_string(&mut s);
                }
                s
            })
        }
        let reader = read_all(child.stdout.take());
        let errors = read_all(child.stderr.take());
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if must_stop(deadline) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    let _ = (reader.join(), errors.join());
                    return Ok(None);
                }
                Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
                Err(e) => {
                    let _ = child.kill();
                    return Err(format!("waiting for `{}`: {e}", self.program));
                }
            }
        };
        let stderr = errors.join().unwrap_or_default();
        let mut ended = format!("it exited with {status}");
        if let Some(line) = stderr.lines().map(str::trim).find(|l| !l.is_empty()) {
            let line: String = line.chars().take(200).collect();
            ended += &format!("; its stderr begins: {line}");
        }
        Ok(Some((reader.join().unwrap_or_default(), ended)))
    }
}

impl Backend for CommandBackend {
    fn add_clause(&mut self, clause: &Clause) {
        self.clauses.push(clause.clone());
    }

    fn solve(&mut self, assumptions: &[Lit], n_vars: u32, deadline: Option<Instant>) -> Solved {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path = std::env::temp_dir().join(format!("cegar-{}-{stamp}.cnf", std::process::id()));
        let mut text = String::new();
        dimacs::write_with_assumptions(&mut text, n_vars, self.clauses.iter(), assumptions, &[]);
        if !write_temp_file(&path, &text)? {
            return Ok(Answer::Unknown);
        }
        let out = self.run(&path, deadline);
        remove_temp_file(&path);
        match out? {
            None => Ok(Answer::Unknown),
            Some((out, ended)) => dimacs::parse_output(&out, n_vars)
                .map_err(|e| format!("solver `{}`: {e} ({ended})", self.program)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SolverChoice;

    #[test]
    fn a_portfolio_names_each_racing_copys_solver() {
        let p = SolverChoice::parse("cadical+varisat").expect("parses");
        assert_eq!(p.name(), "cadical+varisat");
        assert_eq!(p.member(0), &SolverChoice::Cadical);
        assert_eq!(p.member(1), &SolverChoice::Varisat);
        assert_eq!(p.member(2), &SolverChoice::Cadical);
        assert_eq!(SolverChoice::Varisat.member(5), &SolverChoice::Varisat);
        assert!(SolverChoice::parse("cadical+minisat").is_err());
        assert!(SolverChoice::parse("cadical+").is_err());
    }
}

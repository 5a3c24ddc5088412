//! Writing the formula of each SAT call to a DIMACS file, so that one hard call
//! of a solve can be studied on its own: handed to another solver, split into
//! cubes, or timed from scratch.
//!
//! A [`CallDump`] is fed every clause the solve loop gives its solver and, just
//! before each call, writes `DIR/call-NNNN.cnf`: the clauses so far, then the
//! call's assumptions as unit clauses, with `c` lines naming the puzzle's
//! variables (so a model of it can be read back) and saying what the call was.
//! It only watches: the solver itself is not wrapped and answers as usual.

use super::dimacs;
use rustsat::types::{Clause, Lit};
use std::path::{Path, PathBuf};

/// The clauses of a solve so far, and where to write each call's formula.
pub struct CallDump {
    dir: PathBuf,
    /// Comments opening every file (the puzzle's names of its variables).
    comments: Vec<String>,
    clauses: Vec<Clause>,
}

impl CallDump {
    /// Dumps into `dir`, which must exist.
    pub fn new(dir: &Path, comments: Vec<String>) -> CallDump {
        CallDump {
            dir: dir.to_path_buf(),
            comments,
            clauses: Vec::new(),
        }
    }

    /// A clause the solver was given.
    pub fn add(&mut self, clause: &Clause) {
        self.clauses.push(clause.clone());
    }

    /// The file of call number `call` (counted from 1, as the iterations).
    fn path(&self, call: usize) -> PathBuf {
        self.dir.join(format!("call-{call:04}.cnf"))
    }

    /// Writes the formula of call `call`: every clause so far, then
    /// `assumptions` as unit clauses. `what` says what the call looks for.
    pub fn write(
        &self,
        call: usize,
        what: &str,
        assumptions: &[Lit],
        n_vars: u32,
    ) -> Result<PathBuf, String> {
        let mut comments = self.comments.clone();
        comments.push(format!("call {call}: {what}"));
        comments.push(format!(
            "the last {} clauses are the call's assumptions (units); the {} before them the formula so far",
            assumptions.len(),
            self.clauses.len()
        ));
        let mut text = String::new();
        dimacs::write_with_assumptions(
            &mut text,
            n_vars,
            self.clauses.iter(),
            assumptions,
            &comments,
        );
        let path = self.path(call);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_clauses_then_assumptions() {
        let dir = std::env::temp_dir().join(format!("cegar-call-dump-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut d = CallDump::new(&dir, vec!["names".into()]);
        d.add(&Clause::from([Lit::positive(0), Lit::negative(1)]));
        let p = d.write(3, "proving", &[Lit::positive(1)], 2).unwrap();
        assert_eq!(p, dir.join("call-0003.cnf"));
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(
            text,
            "c names\nc call 3: proving\n\
             c the last 1 clauses are the call's assumptions (units); the 1 before them the formula so far\n\
             p cnf 2 2\n1 -2 0\n2 0\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! DIMACS CNF output and SAT-competition solver output (`s` and `v` lines).
//!
//! The writer is our own, not rustsat's (`instances::fio::dimacs`): ours puts
//! the puzzle's `c` lines (the names of the variables, what a call asks)
//! before the header and appends a call's assumptions as unit clauses, from
//! clauses the loop already holds; rustsat's writes a fixed comment of its
//! own, takes a `Cnf` (a copy of every clause), and its comment lines end
//! without a line break.

use super::Answer;
use rustsat::types::{Clause, Lit};
use snippet::{self, Span};
use std::fmt::{self, Write};

/// Writes a DIMACS CNF: the `comments` first (each becomes a `c` line), then the
/// header and the clauses.
pub fn write<'a>(
    out: &mut String,
    n_vars: u32,
    clauses: impl Iterator<Item = &'a Clause> + Clone,
    comments: &[String],
) {
    for c in comments {
        let _ = writeln!(out, "c {c}");
    }
    let n = clauses.clone().count();
    let _ = writeln!(out, "p cnf {n_vars} {n}");
    for cl in clauses {
        for l in cl.iter() {
            let _ = write!(out, "{} ", l.to_ipasir());
        }
        out.push_str("0\n");
    }
}

/// Writes `clauses` and then `assumptions` as unit clauses: a solver run on
/// the file answers as an incremental call under those assumptions would.
pub fn write_with_assumptions<'a>(
    out: &mut String,
    n_vars: u32,
    clauses: impl Iterator<Item = &'a Clause> + Clone,
    assumptions: &[Lit],
    comments: &[String],
) {
    let units: Vec<Clause> = assumptions.iter().map(|&l| Clause::from([l])).collect();
    write(
        out,
        n_vars,
        clauses.map(|c| -> &Clause { c }).chain(units.iter()),
        comments,
    );
}

/// Reads a DIMACS CNF: its header's variable count and its clauses, in
/// order; `c` lines are skipped. A clause may span lines; the header's
/// clause count must match.
pub fn parse_cnf(text: &str) -> Result<(u32, Vec<Clause>), String> {
    let mut header: Option<(u32, usize)> = None;
    let mut clauses = Vec::new();
    let mut current: Vec<Lit> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("p cnf") {
            let nums: Vec<&str> = rest.split_whitespace().collect();
            let parsed = match nums[..] {
                [v, c] => v.parse().ok().zip(c.parse().ok()),
                _ => None,
            };
            header = Some(parsed.ok_or(format!("line {}: a bad header `{line}`", i + 1))?);
            continue;
        }
        let (n_vars, _) = header.ok_or(format!("line {}: a clause before the header", i + 1))?;
        for tok in line.split_whitespace() {
            let v: i64 = tok
                .parse()
                .map_err(|_| format!("line {}: `{tok}` is not a literal", i + 1))?;
            if v == 0 {
                clauses.push(current.drain(..).collect());
            } else if v.unsigned_abs() > u64::from(n_vars) {
                return Err(format!(
                    "line {}: literal {v} names a variable above the header's {n_vars}",
                    i + 1
                ));
            } else {
                let var = (v.unsigned_abs() - 1) as u32;
                current.push(Lit::new(var, v < 0));
            }
        }
    }
    let (n_vars, n_clauses) = header.ok_or("no `p cnf` header")?;
    if !current.is_empty() {
        return Err("the last clause does not end with 0".into());
    }
    if clauses.len() != n_clauses {
        return Err(format!(
            "the header says {n_clauses} clauses, the file has {}",
            clauses.len()
        ));
    }
    Ok((n_vars, clauses))
}

/// A solver output that cannot be read: the message and, when the problem is
/// on one line, where (with that line's text, to show it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputError {
    pub message: String,
    pub place: Option<(Span, String)>,
}

impl OutputError {
    fn at(i: usize, line: &str, part: &str, message: String) -> OutputError {
        OutputError {
            message,
            place: Some((Span::of(i, line, part), line.to_string())),
        }
    }

    fn whole(message: &str) -> OutputError {
        OutputError {
            message: message.to_string(),
            place: None,
        }
    }

    /// The message, and for an error on a line, `path:line:col`, the line and
    /// a caret.
    pub fn render(&self, path: &str) -> String {
        match &self.place {
            Some((span, text)) => snippet::render(&self.message, path, *span, text),
            None => format!("{path}: {}", self.message),
        }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Some((span, _)) => write!(
                f,
                "line {}, column {}: {}",
                span.line + 1,
                span.col + 1,
                self.message
            ),
            None => f.write_str(&self.message),
        }
    }
}

/// Sets the model's value of every literal in `part`, a piece of the 0-based
/// line `i`; literals beyond the model (and the closing `0`) are ignored.
/// Says whether the piece holds the `0` that ends a model.
fn literals(i: usize, line: &str, part: &str, model: &mut [bool]) -> Result<bool, OutputError> {
    let mut ended = false;
    for tok in part.split_whitespace() {
        let n: i64 = tok
            .parse()
            .map_err(|_| OutputError::at(i, line, tok, format!("`{tok}` is not a literal")))?;
        let var = n.unsigned_abs() as usize;
        if var >= 1 && var <= model.len() {
            model[var - 1] = n > 0;
        }
        ended |= n == 0;
    }
    Ok(ended)
}

/// Reads a solver's output: `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` and
/// `v` lines with the model (the SAT competitions' form), or else MiniSat's
/// result file (a line `SAT`, `UNSAT` or `INDET`, then the model's literals,
/// ended by `0`). Variables the model does not mention are false.
pub fn parse_output(text: &str, n_vars: u32) -> Result<Answer, OutputError> {
    let has_status_line = text.lines().any(|l| l.trim().starts_with("s "));
    let mut model = vec![false; n_vars as usize];
    if !has_status_line {
        let lines: Vec<&str> = text.lines().collect();
        if let Some(k) = lines
            .iter()
            .position(|l| matches!(l.trim(), "SAT" | "UNSAT" | "INDET"))
        {
            return match lines[k].trim() {
                "UNSAT" => Ok(Answer::Unsat),
                "INDET" => Ok(Answer::Unknown),
                _ => {
                    // The literals, up to the `0` that ends them.
                    for (i, line) in lines.iter().enumerate().skip(k + 1) {
                        if literals(i, line, line, &mut model)? {
                            return Ok(Answer::Sat(model));
                        }
                    }
                    Err(OutputError::whole(
                        "MiniSat's `SAT` without a model ended by 0",
                    ))
                }
            };
        }
    }
    // The status and the line it is on; a second, different one is an error
    // (two outputs in one file?), not a silent last-one-wins.
    let mut status: Option<(&str, usize)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(s) = line.strip_prefix("s ") {
            let s = s.trim();
            if !matches!(s, "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN") {
                return Err(OutputError::at(i, raw, s, format!("unknown status `{s}`")));
            }
            match status {
                Some((first, at)) if first != s => {
                    return Err(OutputError::at(
                        i,
                        raw,
                        s,
                        format!("a second status `s {s}`, after `s {first}` on line {at}"),
                    ))
                }
                Some(_) => {}
                None => status = Some((s, i + 1)),
            }
        } else if let Some(v) =
            line.strip_prefix("v ")
                .or(if line == "v" { Some("") } else { None })
        {
            literals(i, raw, v, &mut model)?;
        }
    }
    match status.map(|(s, _)| s) {
        Some("SATISFIABLE") => Ok(Answer::Sat(model)),
        Some("UNSATISFIABLE") => Ok(Answer::Unsat),
        Some(_) => Ok(Answer::Unknown),
        None => Err(OutputError::whole(
            "no `s SATISFIABLE` or `s UNSATISFIABLE` line (nor MiniSat's `SAT` or `UNSAT`) in the solver output",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::types::Lit;

    #[test]
    fn writes_and_reads_back() {
        let cls = [Clause::from([Lit::positive(0), Lit::negative(1)])];
        let mut s = String::new();
        write(&mut s, 2, cls.iter(), &["hello".into()]);
        assert_eq!(s, "c hello\np cnf 2 1\n1 -2 0\n");
        assert_eq!(parse_cnf(&s), Ok((2, cls.to_vec())));
        assert!(parse_cnf("p cnf 2 2\n1 -2 0\n").is_err());
        assert!(parse_cnf("p cnf 1 1\n1 -2 0\n").is_err());
        let a = parse_output("c x\ns SATISFIABLE\nv 1 -2\nv 0\n", 2).unwrap();
        assert_eq!(a, Answer::Sat(vec![true, false]));
        assert_eq!(parse_output("s UNSATISFIABLE\n", 2).unwrap(), Answer::Unsat);
        assert!(parse_output("garbage\n", 2).is_err());
        // Two different statuses: an error naming both lines.
        assert_eq!(
            parse_output("s UNSATISFIABLE\ns SATISFIABLE\nv 1 2 0\n", 2)
                .unwrap_err()
                .to_string(),
            "line 2, column 3: a second status `s SATISFIABLE`, after `s UNSATISFIABLE` on line 1"
        );
        assert!(parse_output("s SATISFIABLE\nv 1 2 0\ns UNKNOWN\n", 2).is_err());
        // A bad literal is pointed at, on its line, in characters.
        let e = parse_output("s SATISFIABLE\nv 1 -2\nv  3 ±4 0\n", 4).unwrap_err();
        assert_eq!(e.to_string(), "line 3, column 6: `±4` is not a literal");
        assert_eq!(
            e.render("m.txt"),
            "`±4` is not a literal\n --> m.txt:3:6\n  |\n3 | v  3 ±4 0\n  |      ^^"
        );
        let e = parse_output("SAT\n1 -2\n", 3).unwrap_err();
        assert_eq!(
            (e.place.clone(), e.render("r")),
            (None, "r: MiniSat's `SAT` without a model ended by 0".into())
        );
        assert_eq!(
            parse_output("s UNKNOWN\ns UNKNOWN\n", 2).unwrap(),
            Answer::Unknown
        );
    }

    /// MiniSat's result file, alone or after its banner on stdout.
    #[test]
    fn parses_minisat_result() {
        let banner = "WARNING: for repeatability\n| Number of variables: 3 |\n";
        let a = parse_output(&format!("{banner}SAT\n1 -2\n3 0\nSATISFIABLE\n"), 3).unwrap();
        assert_eq!(a, Answer::Sat(vec![true, false, true]));
        assert_eq!(parse_output("UNSAT\n", 3).unwrap(), Answer::Unsat);
        assert_eq!(parse_output("INDET\n", 3).unwrap(), Answer::Unknown);
        // A model cut short (no `0`) or with a bad literal is an error.
        assert!(parse_output("SAT\n1 -2\n", 3).is_err());
        assert!(parse_output("SAT\n1 x 0\n", 3).is_err());
        // `s` lines win: "SAT" in a competition solver's comment is not read.
        let b = parse_output("c SAT\ns SATISFIABLE\nv -1 0\n", 1).unwrap();
        assert_eq!(b, Answer::Sat(vec![false]));
    }
}

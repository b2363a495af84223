//! The DIMACS CNF reader.
//!
//! `c` lines are comments, `p cnf VARS CLAUSES` comes before the first clause, and every
//! clause is a list of non-zero integers ended by `0` (it may span lines). A `%` line ends the
//! formula, as in the SATLIB files that have one. The header's counts are hints, as SAT solvers
//! take them: a mismatch is a warning, and nothing is reserved from them.

use super::file::{Lit, MAX_VARS, PbFile, Row};
use crate::input::InputError;

/// Reads a DIMACS CNF file.
pub fn parse(file: &str, text: &str) -> Result<PbFile, InputError> {
    let err = |line: usize, msg: String| InputError::new(file, Some(line), msg);
    let mut header: Option<(u32, u64, usize)> = None;
    let mut rows = Vec::new();
    let mut clause: Vec<Lit> = Vec::new();
    let mut clause_line = 0;
    // The first literal above the header's count, and the largest variable.
    let mut above: Option<(i64, usize)> = None;
    let mut max_var = 0u32;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('c') {
            continue;
        }
        if l.starts_with('%') {
            break;
        }
        if l.starts_with('p') {
            if header.is_some() {
                return Err(err(line, "a second 'p' line".into()));
            }
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() != 4 || w[0] != "p" || w[1] != "cnf" {
                return Err(err(
                    line,
                    format!("the header must be 'p cnf VARIABLES CLAUSES', not '{l}'"),
                ));
            }
            let vars = w[2]
                .parse::<u32>()
                .map_err(|_| err(line, format!("'{}' is not a number of variables", w[2])))?;
            if vars > MAX_VARS {
                return Err(err(
                    line,
                    format!("{vars} variables are more than sokuc takes ({})", MAX_VARS),
                ));
            }
            let clauses = w[3]
                .parse::<u64>()
                .map_err(|_| err(line, format!("'{}' is not a number of clauses", w[3])))?;
            header = Some((vars, clauses, line));
            continue;
        }
        let Some((vars, _, _)) = header else {
            // (Solvers differ here; a clause before any header is most likely not DIMACS.)
            return Err(err(line, "a clause before the 'p cnf' header".into()));
        };
        for w in l.split_whitespace() {
            let n: i64 = w.parse().map_err(|_| {
                err(
                    line,
                    format!("'{w}' is not a literal (a non-zero integer, 0 ends the clause)"),
                )
            })?;
            if n == 0 {
                rows.push(Row::Clause {
                    lits: std::mem::take(&mut clause),
                    line: clause_line,
                });
                continue;
            }
            let var = u32::try_from(n.unsigned_abs())
                .ok()
                .filter(|&v| v <= MAX_VARS)
                .ok_or_else(|| err(line, format!("literal {n} is out of range (at most {})", MAX_VARS)))?;
            if var > vars && above.is_none() {
                above = Some((n, line));
            }
            max_var = max_var.max(var);
            if clause.is_empty() {
                clause_line = line;
            }
            clause.push(Lit { var, neg: n < 0 });
        }
    }
    let Some((vars, declared, hline)) = header else {
        return Err(InputError::new(file, None, "no 'p cnf VARIABLES CLAUSES' header"));
    };
    if !clause.is_empty() {
        return Err(err(clause_line, "the last clause does not end with 0".into()));
    }
    // The header's counts are hints, as SAT solvers take them.
    let mut warnings = Vec::new();
    if let Some((n, line)) = above {
        warnings.push(format!(
            "{file}:{line}: literal {n} names a variable above the header's {vars} (read as {max_var} variables)"
        ));
    }
    if rows.len() as u64 != declared {
        warnings.push(format!(
            "{file}:{hline}: the header says {declared} clause{}, but the file has {}",
            if declared == 1 { "" } else { "s" },
            rows.len()
        ));
    }
    Ok(PbFile {
        source: file.to_string(),
        num_vars: vars.max(max_var),
        warnings,
        names: Vec::new(),
        rows,
        objective: None,
        cnf: true,
        split: Default::default(),
    })
}

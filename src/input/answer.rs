//! External solver answers: SAT-competition output (`s` and `v` lines).

use super::InputError;

/// What an external solver said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Values of variables `1..=n` as listed (`None`: not mentioned).
    Sat(Vec<Option<bool>>),
    Unsat,
    Unknown,
}

/// Parses `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` and `v` lines. Lines starting
/// with `c` and blank lines are ignored. A bare list of literals (as minisat writes
/// after `SAT`) is accepted too.
pub fn parse_sat_answer(file: &str, text: &str) -> Result<Answer, InputError> {
    let mut status: Option<(&str, usize)> = None;
    let mut values: Vec<Option<bool>> = Vec::new();
    let mut terminated = false;
    let mut saw_values = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let ln = Some(i + 1);
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let (tag, rest) = match line.split_once(char::is_whitespace) {
            Some((t, r)) => (t, r.trim()),
            None => (line, ""),
        };
        match tag {
            "s" => {
                if status.is_some() {
                    return Err(InputError::new(file, ln, "a second 's' line"));
                }
                status = Some((rest, i + 1));
            }
            "SAT" | "SATISFIABLE" if rest.is_empty() => status = Some(("SATISFIABLE", i + 1)),
            "UNSAT" | "UNSATISFIABLE" if rest.is_empty() => status = Some(("UNSATISFIABLE", i + 1)),
            _ => {
                let lits = if tag == "v" {
                    rest
                } else if tag.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
                    line
                } else {
                    return Err(InputError::new(
                        file,
                        ln,
                        format!("unexpected line {:?} (expected 's', 'v' or 'c' lines)", truncate(line)),
                    ));
                };
                saw_values = true;
                for tok in lits.split_whitespace() {
                    if terminated {
                        return Err(InputError::new(file, ln, "literals after the terminating 0"));
                    }
                    let x: i64 = tok
                        .parse()
                        .map_err(|_| InputError::new(file, ln, format!("{:?} is not a literal", truncate(tok))))?;
                    if x == 0 {
                        terminated = true;
                        continue;
                    }
                    let v = x.unsigned_abs() as usize;
                    if v > 50_000_000 {
                        return Err(InputError::new(file, ln, format!("variable {v} is out of range")));
                    }
                    if values.len() < v {
                        values.resize(v, None);
                    }
                    values[v - 1] = Some(x > 0);
                }
            }
        }
    }
    match status {
        None if text.trim().is_empty() => Err(InputError::new(file, None, "the answer file is empty")),
        None => Err(InputError::new(
            file,
            None,
            "no 's' status line (expected 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN')",
        )),
        Some(("SATISFIABLE", ln)) => {
            if !saw_values {
                return Err(InputError::new(
                    file,
                    Some(ln),
                    "the answer says SATISFIABLE but has no 'v' lines",
                ));
            }
            if !terminated {
                return Err(InputError::new(
                    file,
                    None,
                    "the 'v' lines are truncated: no terminating 0",
                ));
            }
            Ok(Answer::Sat(values))
        }
        Some(("UNSATISFIABLE", _)) => Ok(Answer::Unsat),
        Some(("UNKNOWN", _)) | Some(("INDETERMINATE", _)) => Ok(Answer::Unknown),
        Some((other, ln)) => Err(InputError::new(
            file,
            Some(ln),
            format!("unknown status {:?}", truncate(other)),
        )),
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}

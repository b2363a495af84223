//! External solver answers: SAT-competition output (`s` and `v` lines).
//!
//! What `decode` reads: SAT-competition output (`s SATISFIABLE` and `v ... 0`
//! lines, also minisat+'s `v x1 -x2` and MiniZinc's `=====UNSATISFIABLE=====` and separators;
//! the MiniZinc export prints its solution as `s`/`v` lines, so every format decodes the same
//! way), a CBC solution file, or a HiGHS solution file (raw style, as `highs --solution_file`
//! writes).

use super::InputError;

/// What an external solver said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Values of variables `1..=n` as listed (`None`: not mentioned).
    Sat(Vec<Option<bool>>),
    Unsat,
    Unknown,
}

/// Parses `s SATISFIABLE` (or a PB solver's `s OPTIMUM FOUND`) / `s UNSATISFIABLE` /
/// `s UNKNOWN` and `v` lines. Lines starting with `c`, `o` lines and blank lines are ignored. A bare list of literals (as minisat writes
/// after `SAT`) is accepted too.
pub fn parse_sat_answer(file: &str, text: &str) -> Result<Answer, InputError> {
    let mut status: Option<(&str, usize)> = None;
    let mut values: Vec<Option<bool>> = Vec::new();
    let mut terminated = false;
    let mut saw_values = false;
    // minisat+ writes `v x1 -x2 ...` with no terminating 0.
    let mut named = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let ln = Some(i + 1);
        // MiniZinc's solution separators and its own status line.
        if line == "----------" || line == "==========" {
            continue;
        }
        if line == "=====UNSATISFIABLE=====" {
            status = Some(("UNSATISFIABLE", i + 1));
            continue;
        }
        if line == "=====UNKNOWN=====" {
            status = Some(("UNKNOWN", i + 1));
            continue;
        }
        // `o` lines: a PB solver's objective values as its solutions improved.
        if line.is_empty() || line.starts_with('c') || line.starts_with('%') || line.starts_with("o ") {
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
                    // `~x3` is how OPB writes a negated literal; minisat+ and others echo it.
                    let plain = tok.replacen('~', "-", 1).replacen('x', "", 1);
                    if plain.len() != tok.len() {
                        named = true;
                    }
                    let x: i64 = plain
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
        // A PB solver's proven optimum is a satisfying model too.
        Some(("SATISFIABLE", ln)) | Some(("OPTIMUM FOUND", ln)) => {
            if !saw_values {
                return Err(InputError::new(
                    file,
                    Some(ln),
                    "the answer says SATISFIABLE but has no 'v' lines",
                ));
            }
            if !terminated && !named {
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

/// Whether `text` looks like a CBC solution file (its first line is CBC's status).
pub fn looks_like_cbc(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    [
        "Optimal",
        "Infeasible",
        "Integer infeasible",
        "Stopped",
        "Unbounded",
        "Problem proven infeasible",
    ]
    .iter()
    .any(|p| first.starts_with(p))
}

/// Parses a CBC solution file: a status line, then `index name value [reduced cost]` for
/// the non-zero columns. `names` are the model's column names in variable order.
pub fn parse_cbc_solution(file: &str, text: &str, names: &[String]) -> Result<Answer, InputError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines
        .next()
        .ok_or_else(|| InputError::new(file, None, "the solution file is empty"))?;
    let first = first.trim();
    if first.starts_with("Infeasible")
        || first.starts_with("Integer infeasible")
        || first.starts_with("Problem proven infeasible")
    {
        return Ok(Answer::Unsat);
    }
    if !first.starts_with("Optimal") {
        return Ok(Answer::Unknown);
    }
    let index: std::collections::HashMap<&str, usize> =
        names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut values = vec![Some(false); names.len()];
    for (i, line) in lines {
        let ln = Some(i + 1);
        let toks: Vec<&str> = line.split_whitespace().collect();
        // CBC marks infeasible rows/columns with "**" in front.
        let toks: Vec<&str> = toks.into_iter().filter(|t| *t != "**").collect();
        if toks.len() < 3 {
            return Err(InputError::new(
                file,
                ln,
                format!("expected `index name value`, found {:?}", truncate(line)),
            ));
        }
        let &v = index.get(toks[1]).ok_or_else(|| {
            InputError::new(
                file,
                ln,
                format!(
                    "unknown column {:?} (was the model emitted with the same options?)",
                    truncate(toks[1])
                ),
            )
        })?;
        let x: f64 = toks[2]
            .parse()
            .map_err(|_| InputError::new(file, ln, format!("{:?} is not a number", truncate(toks[2]))))?;
        values[v] = Some(x > 0.5);
    }
    Ok(Answer::Sat(values))
}

/// Whether `text` looks like a HiGHS solution file (`highs --solution_file`, raw style).
pub fn looks_like_highs(text: &str) -> bool {
    text.lines().map(str::trim).find(|l| !l.is_empty()) == Some("Model status")
}

/// Parses a HiGHS solution file: `Model status`, the status, then under
/// `# Primal solution values` a feasibility word, `Objective v`, `# Columns n` and `n` lines of
/// `name value`. `names` are the model's column names in variable order.
pub fn parse_highs_solution(file: &str, text: &str, names: &[String]) -> Result<Answer, InputError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let mut next = |what: &str| {
        lines
            .next()
            .ok_or_else(|| InputError::new(file, None, format!("the solution file ends before {what}")))
    };
    next("the model status")?;
    let (_, status) = next("the model status")?;
    match status {
        "Optimal" => {}
        "Infeasible" => return Ok(Answer::Unsat),
        _ => return Ok(Answer::Unknown),
    }
    let (ln, header) = next("the primal solution")?;
    if header != "# Primal solution values" {
        return Err(InputError::new(
            file,
            Some(ln),
            format!("expected `# Primal solution values`, found {:?}", truncate(header)),
        ));
    }
    let (ln, feasibility) = next("the primal solution")?;
    if feasibility != "Feasible" {
        return Err(InputError::new(
            file,
            Some(ln),
            format!(
                "the status is Optimal but the primal solution is {:?}",
                truncate(feasibility)
            ),
        ));
    }
    let (mut ln, mut line) = next("the columns")?;
    if line.starts_with("Objective") {
        (ln, line) = next("the columns")?;
    }
    let count: usize = line
        .strip_prefix("# Columns")
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| {
            InputError::new(
                file,
                Some(ln),
                format!("expected `# Columns N`, found {:?}", truncate(line)),
            )
        })?;
    if count != names.len() {
        return Err(InputError::new(
            file,
            Some(ln),
            format!(
                "the solution has {count} columns but the model has {} (was it emitted with the same options?)",
                names.len()
            ),
        ));
    }
    let index: std::collections::HashMap<&str, usize> =
        names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut values = vec![None; names.len()];
    for _ in 0..count {
        let (ln, line) = next("the last column")?;
        let (name, value) = line.split_once(char::is_whitespace).ok_or_else(|| {
            InputError::new(
                file,
                Some(ln),
                format!("expected `name value`, found {:?}", truncate(line)),
            )
        })?;
        let &v = index.get(name).ok_or_else(|| {
            InputError::new(
                file,
                Some(ln),
                format!(
                    "unknown column {:?} (was the model emitted with the same options?)",
                    truncate(name)
                ),
            )
        })?;
        let x: f64 = value
            .trim()
            .parse()
            .map_err(|_| InputError::new(file, Some(ln), format!("{:?} is not a number", truncate(value))))?;
        values[v] = Some(x > 0.5);
    }
    Ok(Answer::Sat(values))
}

#[cfg(test)]
mod highs_tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    const GOOD: &str =
        "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 0\n# Columns 2\nb 1\na 0\n# Rows 0\n";

    #[test]
    fn reads_values_by_name() {
        assert!(looks_like_highs(GOOD));
        assert_eq!(
            parse_highs_solution("f", GOOD, &names()).unwrap(),
            Answer::Sat(vec![Some(false), Some(true)])
        );
        let infeasible = "Model status\nInfeasible\n\n# Primal solution values\nNone\n";
        assert_eq!(parse_highs_solution("f", infeasible, &names()).unwrap(), Answer::Unsat);
        let limit = "Model status\nTime limit reached\n";
        assert_eq!(parse_highs_solution("f", limit, &names()).unwrap(), Answer::Unknown);
    }

    #[test]
    fn bad_files_name_the_line() {
        let truncated = GOOD.replace("a 0\n# Rows 0\n", "");
        let e = parse_highs_solution("f", &truncated, &names()).unwrap_err();
        assert!(e.to_string().contains("ends before"), "{e}");
        let unknown = GOOD.replace("a 0", "zz 0");
        assert_eq!(parse_highs_solution("f", &unknown, &names()).unwrap_err().line, Some(9));
        let count = GOOD.replace("# Columns 2", "# Columns 3");
        assert_eq!(parse_highs_solution("f", &count, &names()).unwrap_err().line, Some(7));
        let number = GOOD.replace("b 1", "b x");
        assert!(
            parse_highs_solution("f", &number, &names())
                .unwrap_err()
                .to_string()
                .contains("not a number")
        );
    }
}

#[cfg(test)]
mod pb_answer_tests {
    use super::*;

    #[test]
    fn reads_a_pb_solvers_optimum() {
        // minisat+ and the PB competition: `o` lines as solutions improve, `~x` for false.
        let text = "c minisat+\no 12\no 7\ns OPTIMUM FOUND\nv x1 ~x2 -x3 x4\n";
        assert_eq!(
            parse_sat_answer("f", text).unwrap(),
            Answer::Sat(vec![Some(true), Some(false), Some(false), Some(true)])
        );
    }

    #[test]
    fn an_optimum_without_values_is_refused() {
        let e = parse_sat_answer("f", "o 3\ns OPTIMUM FOUND\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }
}

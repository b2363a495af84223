//! Exports of the IR for external solvers: CPLEX LP, free MPS, OPB (PB competition) and a
//! self-contained MiniZinc model. All are deterministic and use the pool's variable names
//! (OPB, whose grammar only allows `x<n>`, names them in comments; MiniZinc prefixes them
//! with `v_`).
//!
//! The front-ends make names that every format takes as they are and that are distinct by
//! construction (see `soku::compile::place_name`). [`check_names`] checks both again before
//! anything is written, so a front-end bug fails loudly instead of producing a file that a
//! solver misreads (CBC silently renames a column it cannot read, and two columns with one
//! name merge into one).

mod lp;
mod mps;
mod mzn;
mod opb;

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io;

use crate::ir::FastMap;
use crate::ir::{Cmp, Linear, PbFormula};

pub use lp::write_lp;
pub use mps::write_mps;
pub use mzn::write_mzn;
pub use opb::write_opb;

/// A row with positive literals only: `sum c_i x_i (cmp) rhs`, negations moved into `rhs`
/// (`c * !x = c - c * x`) and coefficients of one variable merged.
pub struct Row {
    pub label: String,
    pub terms: Vec<(i64, usize)>,
    pub cmp: Cmp,
    pub rhs: i64,
}

pub fn rows(f: &PbFormula) -> Vec<Row> {
    let labels = f.constraints.iter().map(|(l, _)| l.clone());
    f.linear_rows()
        .into_iter()
        .zip(labels)
        .map(|(lin, label)| positive(&lin, label))
        .collect()
}

/// The objective over variables (positive coefficients or not) and its constant: a term on
/// a negated literal, `c·~x`, is `c - c·x`. `None` without an objective.
pub fn objective(f: &PbFormula) -> Option<(Vec<(i64, usize)>, i64)> {
    let terms = f.objective.clone()?;
    let r = positive(&Linear::new(terms, Cmp::Eq, 0), String::new());
    Some((r.terms, -r.rhs))
}

fn positive(lin: &Linear, label: String) -> Row {
    let mut rhs = lin.rhs;
    let mut terms: Vec<(i64, usize)> = Vec::with_capacity(lin.terms.len());
    // Where each variable's term is, so that merging a row's repeated variables stays linear
    // in its length (a bipyramid-2000 row has 16,000 terms); terms keep the order of their
    // first appearance.
    let mut at: FastMap<usize, usize> = FastMap::default();
    for &(c, l) in &lin.terms {
        let (c, v) = if l.is_positive() {
            (c, l.var().index())
        } else {
            rhs -= c;
            (-c, l.var().index())
        };
        match at.entry(v) {
            Entry::Occupied(i) => terms[*i.get()].0 += c,
            Entry::Vacant(e) => {
                e.insert(terms.len());
                terms.push((c, v));
            }
        }
    }
    terms.retain(|t| t.0 != 0);
    Row {
        label,
        terms,
        cmp: lin.cmp,
        rhs,
    }
}

/// `+3 x -2 y` style, with a caller-chosen variable spelling.
pub(crate) fn signed(c: i64) -> String {
    if c < 0 { format!("- {}", -c) } else { format!("+ {c}") }
}

/// The longest name CBC's LP reader (CoinLpIO) accepts; it renames longer columns.
pub const MAX_NAME_LEN: usize = 100;

/// Words LP readers take as keywords rather than names (CoinLpIO refuses a column called
/// `inf` or `end`). Compared without case.
const LP_KEYWORDS: &[&str] = &[
    "bin",
    "binaries",
    "binary",
    "bound",
    "bounds",
    "end",
    "free",
    "gen",
    "general",
    "generals",
    "infinity",
    "inf",
    "int",
    "integer",
    "integers",
    "max",
    "maximize",
    "maximise",
    "maximum",
    "min",
    "minimize",
    "minimise",
    "minimum",
    "semi",
    "semis",
    "semicontinuous",
    "sos",
    "st",
    "subject",
    "such",
    "that",
    "to",
];

/// Why `name` cannot be written as it is to LP, MPS and (after `v_`) MiniZinc, if it cannot.
fn name_problem(name: &str) -> Option<String> {
    let mut chars = name.chars();
    match chars.next() {
        None => return Some("it is empty".into()),
        Some(c) if !c.is_ascii_alphabetic() => return Some(format!("it starts with {c:?}, not an ASCII letter")),
        _ => {}
    }
    if let Some(c) = chars.find(|&c| !(c.is_ascii_alphanumeric() || c == '_')) {
        return Some(format!("{c:?} is not an ASCII letter, digit or '_'"));
    }
    if name.len() > MAX_NAME_LEN {
        return Some(format!("it is longer than {MAX_NAME_LEN} characters"));
    }
    if LP_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name)) {
        return Some("it is an LP keyword".into());
    }
    None
}

/// Checks that every variable name can be written as it is to every format, and that no
/// two variables share a name. A failure is a bug in sokuc, and the error says so.
pub fn check_names(names: &[String]) -> io::Result<()> {
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        if let Some(why) = name_problem(n) {
            return Err(io::Error::other(format!(
                "internal error: variable {} is named {n:?}, which the export formats do not accept: {why}",
                i + 1
            )));
        }
        if let Some(first) = seen.insert(n, i) {
            return Err(io::Error::other(format!(
                "internal error: variables {} and {} are both named {n:?}; the export would merge them",
                first + 1,
                i + 1
            )));
        }
    }
    Ok(())
}

/// Text for a comment line: line breaks and other control characters (which would end the
/// comment and start a line of model text) become spaces.
pub(crate) fn comment(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn duplicate_and_unwritable_names_are_refused() {
        assert!(check_names(&names(&["p_ABC_012_r0", "p_f2_x_y__z__w_021_r0", "unsat"])).is_ok());
        let dup = check_names(&names(&["a_1", "b_2", "a_1"])).unwrap_err().to_string();
        assert!(
            dup.contains("variables 1 and 3") && dup.contains("internal error"),
            "{dup}"
        );
        for bad in ["", "1x", "_x", "x-y", "x y", "p_\u{c4}", "end", "Inf", "st"] {
            let e = check_names(&names(&["ok", bad])).unwrap_err().to_string();
            assert!(e.contains("variable 2"), "{bad:?}: {e}");
        }
        assert!(check_names(&[format!("p{}", "x".repeat(MAX_NAME_LEN - 1))]).is_ok());
        assert!(check_names(&[format!("p{}", "x".repeat(MAX_NAME_LEN))]).is_err());
    }

    #[test]
    fn comments_stay_on_one_line() {
        assert_eq!(comment("instance a\nb\r\tc \u{c4}"), "instance a b  c \u{c4}");
    }
}

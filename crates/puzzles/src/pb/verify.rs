//! The checker: every row of the file, as written, in exact arithmetic.
//!
//! It shares nothing with `compile.rs` (no normalisation, no IR): each product term is the
//! conjunction of its literals, each sum is a `BigInt`, and each relation is compared as the
//! file wrote it. An answer that fails here is never printed as a solution.

use num_bigint::BigInt;

use super::file::{Lit, PbFile, Row, Term};
use crate::ir::Cmp;
use crate::puzzle::Invalid;

fn value(values: &[bool], l: &Lit) -> bool {
    // A variable past the answer's end (declared but unused) is false.
    let v = values.get(l.var as usize - 1).copied().unwrap_or(false);
    v != l.neg
}

fn sum(values: &[bool], terms: &[Term]) -> BigInt {
    terms
        .iter()
        .filter(|t| t.lits.iter().all(|l| value(values, l)))
        .map(|t| &t.coef)
        .sum()
}

/// Checks the values of the file's variables against every row.
pub fn check_values(p: &PbFile, values: &[bool]) -> Result<(), Invalid> {
    for r in &p.rows {
        match r {
            Row::Clause { lits, line } => {
                if !lits.iter().any(|l| value(values, l)) {
                    return Err(Invalid(format!("the clause at line {line} is false")));
                }
            }
            Row::Linear { terms, cmp, rhs, line } => {
                let lhs = sum(values, terms);
                let holds = match cmp {
                    Cmp::Ge => &lhs >= rhs,
                    Cmp::Le => &lhs <= rhs,
                    Cmp::Eq => &lhs == rhs,
                };
                if !holds {
                    return Err(Invalid(format!(
                        "the constraint at line {line} does not hold: its left side is {lhs}, not {cmp} {rhs}"
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The objective's value, exactly.
pub fn objective_value(p: &PbFile, values: &[bool]) -> Option<BigInt> {
    p.objective.as_ref().map(|o| sum(values, &o.terms))
}

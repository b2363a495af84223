//! The IR's rows as the 0/1 model's rows: one column per variable, a negative literal
//! written over its variable's column, a column met twice in a row summed into one term.

use super::helper;
use crate::ir::{Cmp, Linear, Lit};

/// `Σ c·l` over the columns as `(column, coefficient)` terms and the constant a negative
/// literal leaves (`c * !x` is `c - c * x`); a column met twice gets one term.
pub(super) fn column_terms(terms: &[(i64, Lit)]) -> (Vec<(u32, f64)>, f64) {
    let mut out: Vec<(u32, f64)> = Vec::with_capacity(terms.len());
    let mut constant = 0.0;
    for &(c, l) in terms {
        let (c, x) = (c as f64, l.var().0);
        if l.is_positive() {
            out.push((x, c));
        } else {
            out.push((x, -c));
            constant += c;
        }
    }
    out.sort_unstable_by_key(|t| t.0);
    out.dedup_by(|b, a| {
        if a.0 == b.0 {
            a.1 += b.1;
            true
        } else {
            false
        }
    });
    out.retain(|t| t.1 != 0.0);
    (out, constant)
}

/// A row of the IR as CBC's row: terms, lower and upper bound.
pub(super) fn row(lin: &Linear) -> helper::Row {
    let (terms, constant) = column_terms(&lin.terms);
    let rhs = lin.rhs as f64 - constant;
    match lin.cmp {
        Cmp::Le => (terms, f64::NEG_INFINITY, rhs),
        Cmp::Ge => (terms, rhs, f64::INFINITY),
        Cmp::Eq => (terms, rhs, rhs),
    }
}

/// The sum of a knapsack-like row's weights stays below this (2^50): sums of whole numbers
/// in doubles are exact there, with room.
const EXACT_MAGNITUDE: f64 = (1u64 << 50) as f64;

/// Whether a model row weighs its columns like a knapsack: weights of more than one size (a
/// row of one size is a cardinality row, which steers nowhere and implies no count), summing
/// below 2^50, so that sums and bounds over them are exact in doubles. What `mip_guide.rs`
/// and `mip_cardinality.rs` ask of a row before using it.
pub(super) fn knapsack_like(terms: &[(u32, f64)]) -> bool {
    let size = |t: &(u32, f64)| t.1.abs();
    terms.iter().any(|t| size(t) != size(&terms[0])) && terms.iter().map(size).sum::<f64>() < EXACT_MAGNITUDE
}

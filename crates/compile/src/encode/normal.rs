//! A linear row in normal form (positive coefficients on distinct variables, between two
//! bounds): what every encoding of a linear row starts from.

use std::collections::HashMap;

use crate::ir::{Cmp, Linear, Lit, Var};

/// `sum coef * lit` with positive coefficients, distinct variables, and `lo <= sum <= hi`.
/// Bounds and the total are 128-bit: a row of many 63-bit coefficients sums past 64 bits.
pub(super) struct Normal {
    pub terms: Vec<(u64, Lit)>,
    pub lo: u128,
    /// `None`: no upper bound.
    pub hi: Option<u128>,
    /// The largest value of the sum.
    pub total: u128,
    pub unsat: bool,
}

impl Normal {
    /// The bounds as `u64`, for the encodings that count in `u64`. Their callers send unsat
    /// rows and rows whose total reaches 2^63 elsewhere, and a satisfiable row's bounds are at
    /// most its total (`lo` past it is unsat, `hi` at or past it is `None`).
    pub fn bounds_u64(&self) -> (u64, Option<u64>) {
        debug_assert!(!self.unsat && self.total < u128::from(u64::MAX / 2));
        let fit = |x: u128| u64::try_from(x).expect("a bound is at most the total, below 2^63");
        (fit(self.lo), self.hi.map(fit))
    }
}

/// `lin` in normal form.
pub(super) fn normalize(lin: &Linear) -> Normal {
    // Merge per variable: c1*x + c2*!x = c2 + (c1 - c2)*x.
    let mut per_var: Vec<(Var, i128, i128)> = Vec::new(); // (var, coef of x, coef of !x)
    let mut idx: HashMap<Var, usize> = HashMap::new();
    for &(c, l) in &lin.terms {
        let k = *idx.entry(l.var()).or_insert_with(|| {
            per_var.push((l.var(), 0, 0));
            per_var.len() - 1
        });
        if l.is_positive() {
            per_var[k].1 += i128::from(c);
        } else {
            per_var[k].2 += i128::from(c);
        }
    }
    let mut shift: i128 = 0; // constant moved to the left side
    let mut terms = Vec::new();
    let mut total: u128 = 0;
    for (v, cp, cn) in per_var {
        shift += cn;
        let c = cp - cn;
        // A variable repeated many times can merge past 2^64: it is split into several
        // terms on one literal. Such a row sums past 2^63 and goes to the adder, which
        // (like the BDD) takes repeated literals.
        let (mag, lit) = if c >= 0 {
            (c.unsigned_abs(), v.pos())
        } else {
            // c*x = c - c*!x
            shift += c;
            (c.unsigned_abs(), v.negative())
        };
        total += mag;
        let mut left = mag;
        while left > 0 {
            let part = left.min(u128::from(u64::MAX));
            terms.push((u64::try_from(part).expect("at most u64::MAX"), lit));
            left -= part;
        }
    }
    let rhs = i128::from(lin.rhs) - shift;
    let (lo, hi) = match lin.cmp {
        Cmp::Le => (i128::MIN, rhs),
        Cmp::Ge => (rhs, i128::MAX),
        Cmp::Eq => (rhs, rhs),
    };
    let unsat = hi < 0 || (lo > 0 && lo.unsigned_abs() > total) || lo > hi;
    Normal {
        terms,
        lo: lo.max(0).unsigned_abs(),
        hi: if hi >= 0 && hi.unsigned_abs() >= total {
            None
        } else {
            Some(hi.max(0).unsigned_abs())
        },
        total,
        unsat,
    }
}

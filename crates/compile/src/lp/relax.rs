//! The LP relaxation of a 0/1 formula: every constraint as one linear row over variables in
//! `[0, 1]`, in exact integers.
//!
//! The IR states constraints over literals; a relaxation needs them over variables, so a
//! negative literal `¬x` becomes `1 − x` (its coefficient moves to the right side) and a
//! variable met twice in one row has its coefficients merged. Clauses are `Σ lits ≥ 1`,
//! at-most-one groups `≤ 1`, exactly-one groups `= 1`, and a `SumOf` row is its parts added
//! up. The rows are built in `i128` from the formula's `i64` coefficients: a sum of fewer
//! than 2^32 terms of at most 2^63 each cannot overflow it, so this is exact and is what the
//! certificate check reads (the simplex only sees a floating-point copy).

use std::collections::BTreeMap;

use crate::ir::{Cmp, Constraint, Lit, PbFormula};

/// `Σ coef · x_var  (cmp)  rhs` over variables, variables ascending, no zero coefficient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub terms: Vec<(u32, i128)>,
    pub cmp: Cmp,
    pub rhs: i128,
}

/// Adds `coef · lit` to a row under construction (`terms`, and the constant moved to `rhs`).
fn add_lit(terms: &mut BTreeMap<u32, i128>, rhs: &mut i128, coef: i128, lit: Lit) {
    let v = lit.var().0;
    if lit.is_positive() {
        *terms.entry(v).or_insert(0) += coef;
    } else {
        // coef · (1 − x): the constant goes to the other side.
        *terms.entry(v).or_insert(0) -= coef;
        *rhs -= coef;
    }
}

fn finish(terms: BTreeMap<u32, i128>, cmp: Cmp, rhs: i128) -> Row {
    Row {
        terms: terms.into_iter().filter(|&(_, c)| c != 0).collect(),
        cmp,
        rhs,
    }
}

/// Constraint `index` of `f` as a row over variables.
///
/// # Panics
/// When `index` is not a constraint of `f`.
pub fn row(f: &PbFormula, index: usize) -> Row {
    let mut terms = BTreeMap::new();
    let unit = |ls: &[Lit], cmp: Cmp, mut terms: BTreeMap<u32, i128>| {
        let mut rhs = 1;
        for &l in ls {
            add_lit(&mut terms, &mut rhs, 1, l);
        }
        finish(terms, cmp, rhs)
    };
    match &f.constraints()[index].1 {
        Constraint::Clause(ls) => unit(ls, Cmp::Ge, terms),
        Constraint::AtMostOne(ls) => unit(ls, Cmp::Le, terms),
        Constraint::ExactlyOne(ls) => unit(ls, Cmp::Eq, terms),
        Constraint::Linear(lin) => {
            let mut rhs = i128::from(lin.rhs);
            for &(c, l) in &lin.terms {
                add_lit(&mut terms, &mut rhs, i128::from(c), l);
            }
            finish(terms, lin.cmp, rhs)
        }
        // Summed here rather than through `PbFormula::expand_sum_of`, whose `i64` sums
        // could wrap: the checker must not trust a row it did not add up exactly.
        Constraint::SumOf { parts, cmp, rhs } => {
            let mut r = i128::from(*rhs);
            for &p in parts {
                if let Constraint::Linear(lin) = &f.constraints()[p].1 {
                    for &(c, l) in &lin.terms {
                        add_lit(&mut terms, &mut r, i128::from(c), l);
                    }
                }
            }
            finish(terms, *cmp, r)
        }
    }
}

/// Every constraint of `f` as a row, in the formula's order (row `i` is constraint `i`).
pub fn rows(f: &PbFormula) -> Vec<Row> {
    (0..f.constraints().len()).map(|i| row(f, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Linear, Var};

    #[test]
    fn negative_literals_move_their_constant_and_repeats_merge() {
        let mut f = PbFormula::new(3);
        let (a, b, c) = (Var(0), Var(1), Var(2));
        f.add("clause", Constraint::Clause(vec![a.pos(), b.negative(), c.pos()]));
        f.add(
            "lin",
            Constraint::Linear(Linear::new(
                vec![(2, a.pos()), (3, a.negative()), (5, b.pos())],
                Cmp::Le,
                4,
            )),
        );
        f.add(
            "sum",
            Constraint::SumOf {
                parts: vec![1, 1],
                cmp: Cmp::Ge,
                rhs: 1,
            },
        );
        let r = rows(&f);
        // a + (1 − b) + c ≥ 1  ->  a − b + c ≥ 0
        assert_eq!(r[0].terms, vec![(0, 1), (1, -1), (2, 1)]);
        assert_eq!((r[0].cmp, r[0].rhs), (Cmp::Ge, 0));
        // 2a + 3(1 − a) + 5b ≤ 4  ->  −a + 5b ≤ 1
        assert_eq!(r[1].terms, vec![(0, -1), (1, 5)]);
        assert_eq!(r[1].rhs, 1);
        // twice that, ≥ 1: −2a + 10b ≥ 1 − 6
        assert_eq!(r[2].terms, vec![(0, -2), (1, 10)]);
        assert_eq!(r[2].rhs, -5);
    }

    #[test]
    fn a_variable_that_cancels_leaves_the_row() {
        let mut f = PbFormula::new(1);
        f.add("taut", Constraint::Clause(vec![Var(0).pos(), Var(0).negative()]));
        let r = row(&f, 0);
        // x + 1 − x ≥ 1  ->  0 ≥ 0
        assert!(r.terms.is_empty());
        assert_eq!(r.rhs, 0);
    }
}

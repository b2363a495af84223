//! The 0/1 model's rows: the IR's rows as columns (one column per variable, a negative
//! literal written over its variable's column, a column met twice in a row summed into one
//! term), which rows weigh their columns like a knapsack, and the cardinality rows that
//! knapsack rows imply, added to the model before it goes out (see "Implied cardinality
//! rows" below).

use super::helper::Row;
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
pub(super) fn row(lin: &Linear) -> Row {
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
/// below 2^50, so that sums and bounds over them are exact in doubles. What `guide.rs`
/// and the implied cardinality rows below ask of a row before using it.
pub(super) fn knapsack_like(terms: &[(u32, f64)]) -> bool {
    let size = |t: &(u32, f64)| t.1.abs();
    terms.iter().any(|t| size(t) != size(&terms[0])) && terms.iter().map(size).sum::<f64>() < EXACT_MAGNITUDE
}

// Implied cardinality rows.
//
// Cardinality rows implied by knapsack rows, added to the 0/1 model before it goes out.
//
// A row `Σ w·x <= C` with positive weights lets at most `k` of its variables be 1, where
// `k` is the number of its smallest weights that fit in `C` together: any `k + 1` of them
// weigh at least the `k + 1` smallest, which do not fit. The row `Σ x <= k` says nothing a
// 0/1 point of the model does not already obey, but the LP relaxation does not know it: at
// the LP optimum of a strongly correlated knapsack (profit = weight + constant) the light
// items are taken whole and one heavy item in part, and the profit bound stays loose by the
// constant per item the cardinality would forbid. HiGHS and CBC then branch on nearly every
// item. With the cardinality row, `auto` proves strongly and inverse strongly correlated
// knapsacks of 1,000 items in 0.6–4 s, where HiGHS had not in 20 s
// (encodings/mip-cardinality.md).
//
// Negative weights are complemented first (`w·x = w + |w|·(1 - x)`), and a `>=` bound is
// the `<=` bound of the negated row, so each bound of an inequality can imply one.

/// The fewest terms a row needs to imply a cardinality row. A short row's cardinality is a
/// short row too, of no use to the LP and one more row to carry.
pub(super) const CARD_TERMS: usize = 16;

/// The least share of the model's columns a row must hold: a knapsack's capacity or an
/// objective bound covers most of them, a packing or covering row few.
const CARD_SHARE: usize = 2;

/// The cardinality rows the `rows` of a model over `columns` columns, every one 0/1, imply:
/// one per bound of each inequality with at least [`CARD_TERMS`] terms and half of the
/// columns, whose weights are not all of one size (such a row is a cardinality row
/// already), where the bound leaves out at least one of the row's variables.
///
/// Not from equalities: the equality that holds most columns in the puzzles' models is the
/// sum of their vertex rows, over placements of which exactly one per face is taken, so its
/// counts say less than the faces do, and with them CBC took 0.22–0.26 s on icosoku100's
/// slowest line instead of 0.09–0.11 s. Subset sums and market splits, the equalities of
/// the PB benchmark, are `mitm`'s.
pub(super) fn implied(rows: &[Row], columns: usize) -> Vec<Row> {
    let least = CARD_TERMS.max(columns.div_ceil(CARD_SHARE));
    let mut out = Vec::new();
    for (terms, lo, up) in rows {
        // Weights summing below 2^50, so that `k` is counted exactly.
        if terms.len() < least || lo == up || !knapsack_like(terms) {
            continue;
        }
        if up.is_finite() {
            out.extend(at_most(terms.iter().copied(), *up));
        }
        if lo.is_finite() {
            // `Σ w·x >= lo` is `Σ -w·x <= -lo`.
            out.extend(at_most(terms.iter().map(|&(j, w)| (j, -w)), -*lo));
        }
    }
    out
}

/// The cardinality row `Σ w·x <= cap` implies, if it cuts anything: with `z` the variable
/// or its complement, whichever has the positive weight, `Σ z <= k`, written over the
/// variables themselves.
fn at_most(terms: impl Iterator<Item = (u32, f64)> + Clone, cap: f64) -> Option<Row> {
    let negative = terms.clone().filter(|t| t.1 < 0.0).count();
    // Every negative weight complemented: `Σ |w|·z <= cap + Σ |w| over the negative ones`.
    let room = cap - terms.clone().filter(|t| t.1 < 0.0).map(|t| t.1).sum::<f64>();
    if room < 0.0 {
        // No 0/1 point fits: the row refutes the model by itself, the solver's business.
        return None;
    }
    let mut sizes: Vec<f64> = terms.clone().map(|t| t.1.abs()).collect();
    let len = sizes.len();
    sizes.sort_unstable_by(f64::total_cmp);
    let mut used = 0.0;
    let k = sizes
        .iter()
        .take_while(|&&s| {
            used += s;
            used <= room
        })
        .count();
    if k >= len {
        return None;
    }
    // `Σ z <= k` with `z = 1 - x` for the negative ones: `Σ ±x <= k - negative`.
    let row = terms.map(|(j, w)| (j, if w < 0.0 { -1.0 } else { 1.0 })).collect();
    Some((row, f64::NEG_INFINITY, k as f64 - negative as f64))
}

#[cfg(test)]
mod cardinality_tests {
    use super::*;

    fn holds(row: &Row, x: &[bool]) -> bool {
        let s: f64 = row.0.iter().map(|&(j, c)| if x[j as usize] { c } else { 0.0 }).sum();
        row.1 <= s && s <= row.2
    }

    /// Every 0/1 point of a row holds the rows it implies, and some row is tight, on random
    /// rows of 16 to 18 terms with weights of both signs and bounds on either side.
    #[test]
    fn implied_rows_cut_no_point_of_their_row() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: i32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            i32::try_from(state % m.unsigned_abs() as u64).unwrap()
        };
        let mut cut_somewhere = 0;
        for case in 0..60u32 {
            let n = u32::try_from(CARD_TERMS).unwrap() + case % 3;
            let weights: Vec<i32> = (0..n)
                .map(|_| {
                    let w = 1 + next(40);
                    if next(4) == 0 { -w } else { w }
                })
                .collect();
            let total: i32 = weights.iter().map(|w| w.abs()).sum();
            let bound = f64::from(next(total) - total / 4);
            let terms: Vec<(u32, f64)> = (0..n).zip(weights.iter().map(|&w| f64::from(w))).collect();
            let row: Row = match case % 3 {
                0 => (terms, f64::NEG_INFINITY, bound),
                1 => (terms, bound, f64::INFINITY),
                _ => (terms, bound - 20.0, bound + 20.0),
            };
            let implied = implied(std::slice::from_ref(&row), n as usize);
            let mut tight = vec![false; implied.len()];
            for bits in 0u32..(1 << n) {
                let x: Vec<bool> = (0..n).map(|j| bits >> j & 1 == 1).collect();
                if !holds(&row, &x) {
                    continue;
                }
                for (i, r) in implied.iter().enumerate() {
                    assert!(holds(r, &x), "case {case}: {row:?} implies {r:?}, cut by {x:?}");
                    let s: f64 = r.0.iter().map(|&(j, c)| if x[j as usize] { c } else { 0.0 }).sum();
                    tight[i] |= s == r.2;
                }
            }
            // `k` is the most that fit, so some point of a one-sided row reaches it.
            if case % 3 != 2 {
                assert!(
                    tight.iter().all(|&t| t),
                    "case {case}: {row:?} implies {implied:?}, never tight"
                );
            }
            cut_somewhere += implied.len();
        }
        assert!(cut_somewhere > 20, "only {cut_somewhere} implied rows in 60 cases");
    }

    #[test]
    fn the_most_light_items_that_fit() {
        // Weights 1..=20 (sum 210): 1 + 2 + ... + 6 = 21 fits in 25, one more does not.
        let terms: Vec<(u32, f64)> = (0..20u32).map(|j| (j, f64::from(j + 1))).collect();
        let rows = implied(&[(terms.clone(), f64::NEG_INFINITY, 25.0)], 20);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].2, 6.0);
        assert!(rows[0].0.iter().all(|t| t.1 == 1.0));
        // `>= 200`: the 10 left out weigh at most 10, so at most 4 of the lightest ones are
        // out: `Σ -x <= 4 - 20`, at least 16 in.
        let rows = implied(&[(terms.clone(), 200.0, f64::INFINITY)], 20);
        assert_eq!(rows[0].2, 4.0 - 20.0);
        assert!(rows[0].0.iter().all(|t| t.1 == -1.0));
        // All of one size, too short, or a bound that leaves every variable free: nothing.
        assert!(implied(&[((0..20u32).map(|j| (j, 3.0)).collect(), f64::NEG_INFINITY, 25.0)], 20).is_empty());
        assert!(implied(&[(terms[..10].to_vec(), f64::NEG_INFINITY, 25.0)], 20).is_empty());
        assert!(implied(&[(terms.clone(), f64::NEG_INFINITY, 210.0)], 20).is_empty());
        // An equality.
        assert!(implied(&[(terms.clone(), 25.0, 25.0)], 20).is_empty());
        // Under half of the model's columns.
        assert!(implied(&[(terms, f64::NEG_INFINITY, 25.0)], 41).is_empty());
    }
}

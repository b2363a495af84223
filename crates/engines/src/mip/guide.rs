//! A feasibility problem on HiGHS, steered by one of its rows.
//!
//! A 0/1 problem with no objective often has one row that is an objective in disguise: an
//! optimisation problem turned into a decision by bounding its objective (MIPLIB's problems
//! with `objective <= v`, a knapsack with `value >= V`). HiGHS, given no objective, searches
//! for any point and prunes on nothing but infeasibility, and the bound row is the one it
//! finds hardest to satisfy. Given that row's left-hand side as its objective, with the row's
//! bound as an objective cutoff, it steers towards the row (its heuristics, reduced-cost
//! fixing and cuts work on the objective) and stops at the first point it finds.
//!
//! The row stays in the model, so the set of points is the same and a point is an answer
//! like any other. The cutoff lies above the row's bound by at least 1 (the row's left-hand
//! side takes integer values only on integer coefficients), so it never cuts a point the
//! row lets in: "infeasible" means what it meant without the guide.
//!
//! On the public benchmark's MIPLIB decision pairs, `auto` now decides cap6000's and
//! l152lav's unsatisfiable files and air05's satisfiable one within 20 s, which it did not
//! without this, and p2756's and mod010's four to five times sooner (encodings/mip-guide.md).

use super::helper::Row;
use super::rows::knapsack_like;

/// The least share of the formula's variables a row must hold to guide the search: an
/// objective bound covers most of a problem's columns, a packing or covering row few.
const GUIDE_SHARE: usize = 2;

/// The fewest terms a guiding row may have.
const GUIDE_TERMS: usize = 8;

/// The row that guides HiGHS on a feasibility problem over `vars` variables: the one-sided
/// row with the most terms, holding at least half of the variables and at least
/// [`GUIDE_TERMS`], its coefficients summing below 2^50 and not all of one
/// size (a cardinality row steers nowhere in particular). The latest such row wins a tie: a decision made from an
/// optimisation problem states its objective bound last.
pub(super) struct Guide {
    /// The objective to minimise, by column.
    pub(super) objective: Vec<(u32, f64)>,
    /// No point of the model has an objective value at or above this.
    pub(super) cutoff: f64,
    /// How many terms the row has (for the stats).
    pub(super) terms: usize,
}

/// The guide for `rows` over `vars` variables, if one row qualifies.
pub(super) fn guide(rows: &[Row], vars: usize) -> Option<Guide> {
    let least = GUIDE_TERMS.max(vars.div_ceil(GUIDE_SHARE));
    let (terms, lo, up) = rows
        .iter()
        .filter(|(terms, lo, up)| {
            let one_sided = lo.is_finite() != up.is_finite();
            // Exact values, with room: the cutoff's margin of 1 must mean 1.
            one_sided && terms.len() >= least && knapsack_like(terms)
        })
        .max_by_key(|(terms, _, _)| terms.len())?;
    // `Σ c·x <= up` is minimised as it is, `Σ c·x >= lo` as `Σ -c·x <= -lo`.
    let (sign, bound) = if up.is_finite() { (1.0, *up) } else { (-1.0, -*lo) };
    // At least 1 above the bound, and more on big values, where HiGHS's tolerances are wider
    // in absolute terms: a looser cutoff only prunes less.
    let cutoff = bound + 1.0 + bound.abs() * 1e-6;
    Some(Guide {
        objective: terms.iter().map(|&(j, c)| (j, sign * c)).collect(),
        cutoff,
        terms: terms.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(coefs: &[f64], lo: f64, up: f64) -> Row {
        ((0u32..).zip(coefs.iter().copied()).collect(), lo, up)
    }

    #[test]
    fn the_longest_uneven_one_sided_row_guides() {
        let inf = f64::INFINITY;
        let weights = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0];
        let rows = vec![
            // Ten terms of one size: a cardinality row.
            row(&[1.0; 10], -inf, 4.0),
            // Two-sided.
            row(&weights, 2.0, 30.0),
            // The one.
            row(&weights, 12.0, inf),
            // Too short.
            row(&weights[..4], -inf, 7.0),
        ];
        let g = guide(&rows, 10).unwrap();
        assert_eq!(g.terms, 10);
        // Σ w·x >= 12 is minimised as Σ -w·x, which no point takes to -12 + 1 or above.
        assert_eq!(g.objective[0], (0, -3.0));
        assert!(g.cutoff > -12.0 + 0.999 && g.cutoff < -12.0 + 1.001, "{}", g.cutoff);
        // Half the variables at least.
        assert!(guide(&rows, 21).is_none());
    }

    #[test]
    fn a_tie_goes_to_the_last_row() {
        let weights = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        let rows = vec![row(&weights, -f64::INFINITY, 10.0), row(&weights, -f64::INFINITY, 20.0)];
        let g = guide(&rows, 8).unwrap();
        assert!(g.cutoff > 20.0, "{}", g.cutoff);
        assert_eq!(g.objective[1], (1, 1.0));
    }
}

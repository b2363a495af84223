//! How wide a row each engine takes whole: the numbers of pumpkin (`i32`), CBC and HiGHS
//! (`f64` with tolerances) are narrower than the IR's, so each engine refuses, or writes in
//! digit columns, the rows past its limit rather than let one wrap or round into a wrong
//! answer. The portfolio reads them to keep a formula off an engine that would refuse it.

use crate::ir::PbFormula;

/// The width (sum of |coefficient| plus |rhs|) from which `cp` refuses a row:
/// pumpkin's integers are `i32`, and half of 2^31 keeps partial sums off the edge.
pub const CP_ROW_LIMIT: u128 = 1 << 30;

/// The width from which `mip` always writes a row as digit columns (and `auto` keeps the
/// formula off `mip`, on which such columns are slow).
///
/// CBC computes in `f64` with tolerances: a binary within 10^-6 of 0 or 1 counts as
/// integral, and a row may be off by about 10^-6 of its scale. Rounding such a point to 0/1
/// moves a row of width `w` by up to about `w * 10^-6`; rows are integral, so below a drift
/// of 1 the rounded model is exact. tests/wide_rows.rs found CBC models breaking rows by a
/// whole unit from widths of 4 * 10^6, and a one-term row `(2^20 - 2) x = 1` that CBC
/// "satisfied" with `x` within 10^-6 of 0. Tolerances only let more points in, so CBC's
/// "infeasible" (asked twice, see `mip/solve.rs`) and its bound hold whatever the width; only its
/// model may break a wide row. So rows between [`MIP_EXACT_ROW_LIMIT`] and this limit go to
/// CBC whole (they are common: MIPLIB's mod008 has five, and splitting them makes CBC 90
/// times slower there), and the model CBC returns is checked against them exactly; if one
/// breaks, CBC solves again with those rows as digit columns too. Wider rows do not go to
/// CBC whole: with a row of width 2^28 (two variables), CBC's library ended its process
/// without an answer (tests/wide_rows.rs).
pub const MIP_ROW_LIMIT_BITS: u32 = 20;
/// `2^MIP_ROW_LIMIT_BITS`.
pub const MIP_ROW_LIMIT: u128 = 1 << MIP_ROW_LIMIT_BITS;

/// [`MIP_ROW_LIMIT`] for `highs`: HiGHS gets rows whole up to 2^32, with the same exact
/// check of its model and the same second solve if the model breaks one. Whole rows are
/// what a MIP solver's relaxation is good at: as decision problems (`objective <= v`),
/// MIPLIB's air03 and mitre have one row past 2^22, with which HiGHS settles them in
/// 1.5-4 s whole and not within 5 s as digit columns. Past 2^32 the drift reaches
/// thousands of units, so such rows start as digit columns.
pub const HIGHS_ROW_LIMIT_BITS: u32 = 32;
/// `2^HIGHS_ROW_LIMIT_BITS`.
pub const HIGHS_ROW_LIMIT: u128 = 1 << HIGHS_ROW_LIMIT_BITS;
/// The width below which a row the solver gets whole is exact: its drift is at most 0.27.
#[cfg(any(feature = "mip", feature = "highs"))]
pub const MIP_EXACT_ROW_LIMIT: u128 = 1 << 18;

/// The width from which `mip` and `highs` no longer take the solver's word for an optimum.
///
/// Below it the model is exact (checked, see [`MIP_ROW_LIMIT`]), and sokuc reads the
/// objective off the rounded model. Rounding moves the objective by at most `w * 10^-6`
/// (the integrality tolerance), and the solver may stop with its incumbent up to an
/// absolute gap of 1/2 above its bound (CBC's `allowableGap`; HiGHS's pruning at
/// `floor(ub - 1/2)`, see `mip/settings.rs`): the optimum it found is exact only while gap
/// plus drift is below the 1 that separates integral objectives. At 2^18 that is
/// 0.5 + 0.27 = 0.77; at 2^19, the limit before, 0.5 + 0.53 left room for an optimum 1 too
/// high from a width of 5 * 10^5. From here on the solver's objective only guides it to good
/// solutions, and each optimum is proven by HiGHS's dual bound judged on the exact value, or
/// by refuting "objective <= value - 1" as a row, which `mip` writes in digit columns like
/// any wide row (`wide_objective.rs`).
#[cfg(any(feature = "mip", feature = "highs"))]
pub const MIP_OBJECTIVE_LIMIT_BITS: u32 = 18;
/// `2^MIP_OBJECTIVE_LIMIT_BITS`.
#[cfg(any(feature = "mip", feature = "highs"))]
pub const MIP_OBJECTIVE_LIMIT: u128 = 1 << MIP_OBJECTIVE_LIMIT_BITS;

/// The first row (by label) whose coefficients and right-hand side add up to `limit` or more,
/// an implied `SumOf` counting the rows it adds: backends whose numbers are narrower than the
/// IR's `i64` (pumpkin's `i32`, CBC's `f64`) refuse such a formula rather than let a row
/// wrap or round into a wrong answer.
pub fn row_at_least(f: &PbFormula, limit: u128) -> Option<(&str, u128)> {
    let width = |c: &crate::ir::Constraint| -> u128 {
        match c {
            crate::ir::Constraint::Linear(l) => {
                l.terms.iter().map(|&(c, _)| c.unsigned_abs() as u128).sum::<u128>() + l.rhs.unsigned_abs() as u128
            }
            _ => 0,
        }
    };
    f.constraints().iter().find_map(|(label, c)| {
        let w = match c {
            crate::ir::Constraint::SumOf { parts, rhs, .. } => {
                parts
                    .iter()
                    .map(|&p| f.constraints().get(p).map_or(0, |(_, c)| width(c)))
                    .sum::<u128>()
                    + rhs.unsigned_abs() as u128
            }
            other => width(other),
        };
        (w >= limit).then_some((label.as_str(), w))
    })
}

/// What `mip` cannot take as it is: the first row (which it splits into digit columns, slow
/// on CBC) whose width reaches [`MIP_ROW_LIMIT`]. (A wide objective it takes: see
/// [`MIP_OBJECTIVE_LIMIT`].)
pub fn too_wide_for_mip(f: &PbFormula) -> Option<(String, u128)> {
    row_at_least(f, MIP_ROW_LIMIT).map(|(label, w)| (format!("constraint \"{label}\""), w))
}

/// What backend `name` cannot take as it is: `mip` a row past [`MIP_ROW_LIMIT`] (see
/// [`too_wide_for_mip`]), `highs` one past [`HIGHS_ROW_LIMIT`], `cp` a row or an objective
/// past [`CP_ROW_LIMIT`] (it bounds the objective with a row); the others take any width.
/// (`mip` and `highs` take an objective of any 64-bit width: see `wide_objective.rs`.)
pub fn too_wide_for(name: &str, f: &PbFormula) -> Option<(String, u128)> {
    let row = |limit| row_at_least(f, limit).map(|(label, w)| (format!("constraint \"{label}\""), w));
    match name {
        "mip" => too_wide_for_mip(f),
        "highs" => row(HIGHS_ROW_LIMIT),
        "cp" => row(CP_ROW_LIMIT).or_else(|| {
            let w = f
                .objective()?
                .iter()
                .map(|t| u128::from(t.0.unsigned_abs()))
                .sum::<u128>();
            (w >= CP_ROW_LIMIT).then(|| ("the objective".to_string(), w))
        }),
        _ => None,
    }
}

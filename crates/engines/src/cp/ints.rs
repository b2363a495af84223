//! pumpkin's numbers are `i32`: the model's coefficients, bounds, indices and labels as
//! such, each conversion checked against what the model's limits let through.

/// A constraint's tag in pumpkin's proof log.
pub(super) type Tag = pumpkin_core::proof::ConstraintTag;

/// A number of a row (a coefficient, a right-hand side, a sum of coefficients, a bound) as
/// pumpkin's `i32`: [`refuse_wide_rows`] refuses a formula with a row whose coefficients and
/// right-hand side add up to 2^30 or more before anything is built, and the objective is
/// bounded the same way (`objective::LARGEST_SUM`), so each fits.
pub(super) fn narrow(x: i64) -> i32 {
    i32::try_from(x).expect("rows and objectives of 2^30 or more are refused before building")
}

/// An index or a count of the model (a group's options, an option, a label, a row of labels)
/// as pumpkin's `i32`. Each counts variables or constraints of the formula, and 2^31 of either
/// is past what [`estimate_bytes`] lets the memory limit build (and past the memory any
/// formula that size takes itself).
pub(super) fn int(i: usize) -> i32 {
    i32::try_from(i).expect("fewer than 2^31 variables and constraints reach the cp model")
}

/// An `i32` of the model that is an index (non-negative by construction) as a `usize`.
pub(super) fn at(i: i32) -> usize {
    usize::try_from(i).expect("an index of the cp model is non-negative")
}

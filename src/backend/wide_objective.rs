//! `mip` on an objective as wide as [`super::MIP_OBJECTIVE_LIMIT`] or wider, past CBC's tolerances:
//! the optimum is proven by refuting bound rows, never taken on CBC's word.

use super::helper::Solver;
use super::mip::solve;
use super::optimise::{Improved, Optimum};
use super::{BackendError, SolveOptions, SolveStats, Status};
use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula};

/// The widest coefficient of the guide: well inside a double's 53 bits of mantissa.
const GUIDE_BITS: u32 = 40;

/// The label of the row that bounds the objective in [`optimise_wide`].
const BOUND_LABEL: &str = "objective below the best value found";

/// An objective as wide as [`MIP_OBJECTIVE_LIMIT`] or wider, past CBC's tolerances: CBC
/// minimises it only as a guide to good solutions, and each value it finds (read exactly
/// off the rounded model) is put to the test "objective <= value - 1", a row that `narrow`
/// writes in digit columns as exactly as any other. A solution of that is better and the
/// next value to test; a refutation (confirmed as every CBC "infeasible" is) proves the
/// optimum. Every step keeps the objective as CBC's guide, so the first solution is usually
/// already the optimum and the second step proves it.
pub(super) fn optimise_wide(
    solver: Solver,
    formula: &PbFormula,
    opts: &SolveOptions,
    objective: &[(i64, Lit)],
    improved: &mut Improved<'_>,
) -> Result<Optimum, BackendError> {
    let n = formula.num_vars as usize;
    let guide = guide(objective);
    let mut stats = SolveStats::default();
    let mut best: Option<i64> = None;
    let mut steps = 0u32;
    let mut note = None;
    let mut infeasible = false;
    let optimal = loop {
        let bounded;
        let f = match best {
            None => formula,
            // Nothing is below the least i64: the best is optimal.
            Some(i64::MIN) => break true,
            Some(v) => {
                let mut g = formula.clone();
                g.add(
                    BOUND_LABEL,
                    Constraint::Linear(Linear::new(objective.to_vec(), Cmp::Le, v - 1)),
                );
                bounded = g;
                &bounded
            }
        };
        let out = match solve(solver, f, opts, Some(&guide)) {
            Ok((out, _)) => out,
            // The bound row is too long for any digit base: the best found stands, unproven.
            Err(e @ BackendError::Unavailable { .. }) if best.is_some() => {
                note = Some(format!("the optimum cannot be proven here: {e}"));
                break false;
            }
            Err(e) => return Err(e),
        };
        steps += 1;
        stats.vars = stats.vars.max(out.stats.vars);
        stats.clauses = stats.clauses.max(out.stats.clauses);
        stats.build_ms += out.stats.build_ms;
        stats.solve_ms += out.stats.solve_ms;
        stats.extra.extend(out.stats.extra);
        match (out.status, out.assignment) {
            (Status::Sat, Some(a)) => {
                let a = &a[..n];
                let Some(v) = formula.objective_value(a).filter(|&v| best.is_none_or(|b| v < b)) else {
                    // A model that breaks the bound row: the run path's verifier rejects it.
                    let _ = improved(a);
                    break false;
                };
                best = Some(v);
                if improved(a).is_break() {
                    break false;
                }
            }
            (Status::Unsat, _) => {
                infeasible = best.is_none();
                break best.is_some();
            }
            _ => break false,
        }
    };
    stats.extra.insert(
        "optimise".into(),
        format!("{}, wide objective: bound rows", solver.backend()).into(),
    );
    stats.extra.insert("solves".into(), steps.into());
    stats.extra.insert("loads".into(), steps.into());
    if let Some(note) = note {
        stats.extra.insert("optimum".into(), note.into());
    }
    Ok(Optimum {
        status: if best.is_some() {
            Status::Sat
        } else if infeasible {
            Status::Unsat
        } else {
            Status::Unknown
        },
        optimal,
        stats,
    })
}

/// The objective as the solver's guide: scaled down until its largest coefficient has at
/// most [`GUIDE_BITS`] bits, the terms that vanish left out. Only the bound rows decide;
/// the guide only steers the search, and unscaled it does harm: CBC called a feasible model
/// infeasible, twice, with objective coefficients near 2^60 (tests/wide_objective.rs).
/// Objectives of MIPLIB's size are left as they are.
fn guide(objective: &[(i64, Lit)]) -> Vec<(i64, Lit)> {
    let largest = objective.iter().map(|t| t.0.unsigned_abs()).max().unwrap_or(0);
    let shift = (64 - largest.leading_zeros()).saturating_sub(GUIDE_BITS);
    objective
        .iter()
        .map(|&(c, l)| (c / (1i64 << shift), l))
        .filter(|t| t.0 != 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Var;

    #[test]
    fn the_guide_keeps_signs_and_the_largest_term_within_40_bits() {
        let l = |v| Lit::new(Var(v), true);
        let g = guide(&[(1 << 60, l(0)), (-(3 << 50), l(1)), (5, l(2))]);
        assert_eq!(g, vec![(1 << 39, l(0)), (-(3 << 29), l(1))]);
        let narrow = [(7, l(0)), (-2, l(1)), ((1 << 40) - 1, l(2))];
        assert_eq!(guide(&narrow), narrow.to_vec());
    }
}

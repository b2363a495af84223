//! `mip` and `highs` on an objective as wide as [`crate::limits::MIP_OBJECTIVE_LIMIT`] or wider, past
//! the width where the solver's "optimal" can be taken as it is: the optimum is proven by
//! HiGHS's dual bound judged against the exact value of its solution (objectives narrower
//! than 2^32), or by refuting bound rows; never on the solver's word alone.

use super::helper::Solver;
use crate::basis::Bound;
use crate::contract::{BackendError, Improved, Optimum, Outcome, SolveStats};
use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Status};
use crate::limits::{HIGHS_ROW_LIMIT, HIGHS_ROW_LIMIT_BITS};

/// The `stats.extra` key of the dual bound a solver sent with a finished search's solution.
/// It bounds the objective's column terms only: the constant the objective's negated
/// literals leave (`c·~x = c - c·x`, see `rows::column_terms`) never reaches the solver.
pub(super) const DUAL_BOUND: &str = "dual_bound";

/// One solve of a formula by the MIP solver, minimising the guide it is given: `mip::solve`,
/// handed in by `mip` so that this module needs nothing of `mip`'s (`mip` calls this one,
/// never the other way round).
pub(super) type Solve<'a> = dyn FnMut(&PbFormula, &[(i64, Lit)]) -> Solved + 'a;

/// What [`Solve`] answers: the outcome, and whether the solver finished its search.
pub(super) type Solved = Result<(Outcome, bool), BackendError>;

/// The widest coefficient of the guide: well inside a double's 53 bits of mantissa.
const GUIDE_BITS: u32 = 40;

/// The label of the row that bounds the objective in [`optimise_wide`].
const BOUND_LABEL: &str = "objective below the best value found";

/// How far above `value - 1` a dual bound must be to prove `value` optimal, in objective
/// units: half the step between integral values, far more than the rounding of a bound on an
/// objective narrower than 2^32 (see [`bound_proves`]).
const MARGIN: f64 = 0.5;

/// An objective as wide as [`crate::limits::MIP_OBJECTIVE_LIMIT`] or wider, past CBC's tolerances: CBC
/// minimises it only as a guide to good solutions, and each value it finds (read exactly
/// off the rounded model) is put to the test "objective <= value - 1", a row that `narrow`
/// writes in digit columns as exactly as any other. A solution of that is better and the
/// next value to test; a refutation (confirmed as every CBC "infeasible" is) proves the
/// optimum. Every step keeps the objective as CBC's guide, so the first solution is usually
/// already the optimum and the second step proves it.
///
/// HiGHS proves an optimum far faster with its own bound than by refuting a bound row (on
/// MIPLIB's cap6000, 3 s against no verdict in 60 s: the row takes away the incumbent its
/// pruning needs), so where [`bound_proves`] accepts the dual bound HiGHS sends with a
/// finished search, that bound is the proof and no row is added.
///
/// `solve` is one solve on `solver` (see [`Solve`]). What proved the optimum goes into
/// `stats.basis.bound`: [`Bound::DualBound`] or [`Bound::Refuted`].
pub(super) fn optimise_wide(
    solver: Solver,
    formula: &PbFormula,
    objective: &[(i64, Lit)],
    improved: &mut Improved<'_>,
    solve: &mut Solve<'_>,
) -> Result<Optimum, BackendError> {
    let n = formula.num_vars() as usize;
    let guide = guide(objective);
    let engine = || solver.backend().to_string();
    let mut stats = SolveStats::default();
    let mut best: Option<i64> = None;
    let mut steps = 0u32;
    let mut note = None;
    let mut infeasible = false;
    let mut by_bound = false;
    let optimal = loop {
        let bounded;
        let f = match best {
            None => formula,
            // Nothing is below the least i64: the best is optimal, by arithmetic rather than
            // by any engine, so no bound is recorded.
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
        let (out, finished) = match solve(f, &guide) {
            Ok(answer) => answer,
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
        let bound = out.stats.extra.get(DUAL_BOUND).and_then(serde_json::Value::as_f64);
        stats.extra.extend(out.stats.extra);
        stats.basis.absorb(*out.stats.basis);
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
                let proof = bound
                    .filter(|_| finished)
                    .and_then(|b| Some((b, bound_proves(solver, &guide, b, v)?)));
                if let Some((b, margin)) = proof {
                    note = Some(format!(
                        "{}'s dual bound {b} on the objective's columns, plus the constant {} of its negated literals, is {margin} above the exact value of its solution less 1, on an objective whose sum of magnitudes is below 2^{HIGHS_ROW_LIMIT_BITS}",
                        solver.name(),
                        constant(&guide),
                    ));
                    stats.basis.bound = Some(Bound::DualBound {
                        engine: engine(),
                        margin,
                    });
                    by_bound = true;
                    break true;
                }
            }
            (Status::Unsat, _) => {
                infeasible = best.is_none();
                if best.is_some() {
                    // "objective <= best - 1" refuted (confirmed as every "infeasible" is,
                    // or decided exactly while the row was written).
                    stats.basis.bound = Some(Bound::Refuted { engine: engine() });
                }
                break best.is_some();
            }
            _ => break false,
        }
    };
    let how = if by_bound { "its dual bound" } else { "bound rows" };
    stats.extra.insert(
        "optimise".into(),
        format!("{}, wide objective: {how}", solver.backend()).into(),
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

/// The constant the negated literals of `objective` leave when it is written over columns:
/// `Σ c` over its `c·~x` terms (`c·~x = c - c·x`), exactly.
fn constant(objective: &[(i64, Lit)]) -> i128 {
    objective
        .iter()
        .filter(|t| !t.1.is_positive())
        .map(|t| i128::from(t.0))
        .sum()
}

/// Whether a finished search's dual bound `bound` proves `value`, the exact objective of the
/// solver's rounded model, optimal, and with what margin. `objective` is what the solver
/// minimised; `bound` bounds its column terms, which are the objective less [`constant`], so
/// the value is taken to the same footing, `value - constant`, in exact integers before it
/// meets the bound. No solution's column terms are below `bound`, and with an integer
/// objective the next value down, `value - 1`, is more than [`MARGIN`] below it: the
/// margin returned is how far `bound` is above `value - 1` (on the columns' footing).
///
/// Only HiGHS sends a bound, and only where the objective is the solver's guide unscaled and
/// narrower than [`HIGHS_ROW_LIMIT`]: the width up to which sokuc takes HiGHS's word on a row
/// given whole, and far inside the 2^53 a double holds exactly, so that [`MARGIN`] is a
/// margin no rounding of the bound comes near (and `value - constant`, at most the width in
/// magnitude, is exact as a double). Wider objectives are proven by bound rows alone.
fn bound_proves(solver: Solver, objective: &[(i64, Lit)], bound: f64, value: i64) -> Option<f64> {
    let width: u128 = objective.iter().map(|t| u128::from(t.0.unsigned_abs())).sum();
    if solver != Solver::Highs || width >= HIGHS_ROW_LIMIT || !bound.is_finite() {
        return None;
    }
    let columns = i128::from(value) - constant(objective);
    #[allow(clippy::cast_precision_loss)] // |columns| <= width < 2^32: exact as a double
    let margin = bound - (columns - 1) as f64;
    (margin >= MARGIN).then_some(margin)
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

    /// HiGHS's bound is on the columns' terms, without the constant `c·~x = c - c·x`
    /// leaves: `bound_proves` must add it before judging, whatever its sign.
    #[test]
    fn a_bound_off_by_the_objective_constant_proves_nothing() {
        let (x, nx) = (|v| Lit::new(Var(v), true), |v| Lit::new(Var(v), false));
        for (c0, c1) in [(300_000i64, -400_000i64), (300_000, 400_000)] {
            let objective = [(c0, nx(0)), (c1, nx(1)), (500_000, x(2))];
            let constant = i128::from(c0 + c1);
            // x0 = 1, x1 = 0, x2 = 0: only ~x1 holds.
            let value = c1;
            let columns = i128::from(value) - constant;
            let at = |d: f64| columns as f64 + d;
            assert_eq!(
                bound_proves(Solver::Highs, &objective, at(0.0), value),
                Some(1.0),
                "{c0} {c1}"
            );
            assert_eq!(
                bound_proves(Solver::Highs, &objective, at(-0.375), value),
                Some(0.625),
                "{c0} {c1}"
            );
            // A true bound of value - 1 leaves a better solution possible; judged without
            // the constant, it is off by it (and passes when the constant is negative).
            assert_eq!(
                bound_proves(Solver::Highs, &objective, at(-1.0), value),
                None,
                "{c0} {c1}"
            );
            assert_eq!(
                bound_proves(Solver::Highs, &objective, at(-0.625), value),
                None,
                "{c0} {c1}"
            );
            // CBC sends no bound, and one from it is not taken.
            assert_eq!(bound_proves(Solver::Cbc, &objective, at(0.0), value), None, "{c0} {c1}");
        }
    }
    /// A solver that answers from a script: each call's answer in turn, its calls counted.
    fn scripted(
        answers: Vec<(Outcome, bool)>,
        calls: &mut Vec<bool>,
    ) -> impl FnMut(&PbFormula, &[(i64, Lit)]) -> Solved + '_ {
        let mut answers = answers.into_iter();
        move |f: &PbFormula, _: &[(i64, Lit)]| {
            calls.push(f.constraints().iter().any(|(label, _)| label == BOUND_LABEL));
            Ok(answers.next().expect("no more answers"))
        }
    }

    fn sat(a: Vec<bool>, bound: Option<f64>) -> Outcome {
        let mut out = Outcome::unknown(SolveStats::default());
        out.status = Status::Sat;
        out.assignment = Some(a);
        if let Some(b) = bound {
            out.stats.extra.insert(DUAL_BOUND.into(), b.into());
        }
        out
    }

    fn unsat() -> Outcome {
        let mut out = Outcome::unknown(SolveStats::default());
        out.status = Status::Unsat;
        out
    }

    /// `optimise_wide` takes a dual bound as the proof only with the objective's constant
    /// added and the margin held, recording `DualBound` with that margin; otherwise it goes
    /// on to a bound row, whose refutation it records as `Refuted`. Of either sign of the
    /// constant, the bound HiGHS would send for a true bound of `value - 1` (which leaves a
    /// better solution possible) proves nothing.
    #[test]
    fn a_dual_bound_proves_only_with_the_constant_and_its_margin() {
        let (x, nx) = (|v| Lit::new(Var(v), true), |v| Lit::new(Var(v), false));
        for (c0, c1) in [(300_000i64, -400_000i64), (300_000, 400_000)] {
            let objective = vec![(c0, nx(0)), (c1, nx(1)), (500_000, x(2))];
            let mut f = PbFormula::new(3);
            f.set_objective(Some(objective.clone()));
            let a = vec![true, false, false];
            let value = f.objective_value(&a).unwrap();
            #[allow(clippy::cast_precision_loss)]
            let columns = (i128::from(value) - constant(&objective)) as f64;
            // (the bound sent, finished, proven by it)
            for (bound, finished, proves) in [
                (columns, true, true),
                (columns - 0.375, true, true),
                (columns - 1.0, true, false),
                (columns - 0.625, true, false),
                (columns, false, false),
            ] {
                let what = format!("constant {}, bound {bound}, finished {finished}", c0 + c1);
                let mut calls = Vec::new();
                let answers = vec![(sat(a.clone(), Some(bound)), finished), (unsat(), true)];
                let mut solve = scripted(answers, &mut calls);
                let mut seen = Vec::new();
                let mut improved = |m: &[bool]| {
                    seen.push(m.to_vec());
                    std::ops::ControlFlow::Continue(())
                };
                let o = optimise_wide(Solver::Highs, &f, &objective, &mut improved, &mut solve).unwrap();
                drop(solve);
                assert!(o.optimal, "{what}");
                assert_eq!(seen, vec![a.clone()], "{what}");
                if proves {
                    assert_eq!(calls, vec![false], "{what}");
                    let margin = bound - (columns - 1.0);
                    let want = Bound::DualBound {
                        engine: "highs".into(),
                        margin,
                    };
                    assert_eq!(o.stats.basis.bound, Some(want), "{what}");
                } else {
                    // The second call had the bound row, and its refutation is the proof.
                    assert_eq!(calls, vec![false, true], "{what}");
                    let want = Bound::Refuted { engine: "highs".into() };
                    assert_eq!(o.stats.basis.bound, Some(want), "{what}");
                }
            }
        }
    }
}

//! Rows around the widths where a backend's numbers end (pumpkin's `i32`: 2^30; CBC's
//! tolerances: 2^20; the IR's `i64`: 2^62). On random small formulas whose coefficients sit just
//! below or above those edges, every backend either answers what brute force says (a model is
//! evaluated against the formula, `unsat` must be brute-force unsat) or, exactly when its
//! numbers cannot hold a row, refuses the formula (`mip` never does on rows this short: it
//! splits a row past 2^20 into digit columns). A wrapped or rounded row would show up here
//! as a wrong status or a model that breaks a row.

use proptest::prelude::*;
use sokuc::backend::{self, BackendError, CP_ROW_LIMIT, SolveOptions, Status};
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};

/// A row's shape: per term (how far below the edge, negated?, variable, positive literal?),
/// the comparison, which terms make up the right-hand side, and a small shift of it.
type Shape = (Vec<(i64, bool, u32, bool)>, usize, u8, i64);

fn shape(n: u32) -> impl Strategy<Value = Shape> {
    (
        prop::collection::vec((0i64..4, any::<bool>(), 0..n, any::<bool>()), 1..=6),
        0usize..3,
        any::<u8>(),
        -2i64..=2,
    )
}

/// The rows at width about `2^exp`: each coefficient `±(2^exp - small)`, the right-hand side
/// a subset sum of them moved by a little, so that rows sit at the edge of their sums and
/// both sat and unsat come up.
fn formula(exp: u32, n: u32, rows: &[Shape]) -> PbFormula {
    let mut f = PbFormula::new(n);
    for (k, (terms, cmp, subset, shift)) in rows.iter().enumerate() {
        let coefs: Vec<i64> = terms
            .iter()
            .map(|&(small, neg, _, _)| {
                if neg {
                    -((1i64 << exp) - small)
                } else {
                    (1i64 << exp) - small
                }
            })
            .collect();
        let rhs = coefs
            .iter()
            .enumerate()
            .filter(|(i, _)| subset >> i & 1 == 1)
            .map(|(_, c)| c)
            .sum::<i64>()
            + shift;
        let lits = terms.iter().map(|&(_, _, v, pos)| Lit::new(Var(v), pos));
        let row = Linear::new(
            coefs.into_iter().zip(lits).collect(),
            [Cmp::Le, Cmp::Ge, Cmp::Eq][*cmp],
            rhs,
        );
        f.add(format!("row {k}"), Constraint::Linear(row));
    }
    f
}

fn brute_force_sat(f: &PbFormula) -> bool {
    (0u32..1 << f.num_vars()).any(|m| {
        let a: Vec<bool> = (0..f.num_vars()).map(|i| m >> i & 1 == 1).collect();
        f.evaluate(&a).is_ok()
    })
}

/// The widest row: sum of |coefficients| plus |right-hand side|, as the backends measure it.
fn width(f: &PbFormula) -> u128 {
    f.constraints()
        .iter()
        .map(|(_, c)| match c {
            Constraint::Linear(l) => {
                l.terms.iter().map(|&(c, _)| c.unsigned_abs() as u128).sum::<u128>() + l.rhs.unsigned_abs() as u128
            }
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_backend_answers_exactly_or_refuses_rows_past_its_numbers(
        exp in prop::sample::select(vec![15u32, 16, 17, 18, 19, 20, 26, 27, 28, 29, 50, 59]),
        (n, rows) in (1u32..=5).prop_flat_map(|n| (Just(n), prop::collection::vec(shape(n), 1..=2))),
    ) {
        let f = formula(exp, n, &rows);
        let truth = brute_force_sat(&f);
        let w = width(&f);
        for name in backend::available() {
            let mut b = backend::by_name(name).unwrap();
            let refuses = match name {
                "cp" => w >= CP_ROW_LIMIT,
                // mip writes a row past its tolerances as digit columns (ir::digits), so it
                // answers: checked here against brute force like every other backend.
                "mip" => false,
                _ => false,
            };
            match b.solve(&f, &SolveOptions::default()) {
                Ok(out) => {
                    prop_assert!(!refuses, "{name} took a row of width {w}");
                    match out.status {
                        Status::Sat => {
                            let a = out.assignment.expect("a model");
                            prop_assert!(f.evaluate(&a[..n as usize]).is_ok(), "{name}: the model breaks a row (width {w})");
                        }
                        Status::Unsat => prop_assert!(!truth, "{name}: unsat, but brute force finds a model (width {w})"),
                        Status::Unknown => prop_assert!(false, "{name}: unknown on {n} variables"),
                    }
                }
                Err(BackendError::Unavailable { .. }) if refuses => {}
                Err(e) => prop_assert!(false, "{name} (width {w}): {e}"),
            }
        }
    }
}

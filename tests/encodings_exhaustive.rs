//! Every encoding, checked on every assignment of small formulas: the CNF (with its
//! auxiliaries free) is satisfiable under an assignment of the primary variables exactly
//! when the assignment satisfies the pseudo-Boolean formula.

use proptest::prelude::*;
use sokuc::encode::{Cnf, EncodeOptions, PbEncoding, encode};
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
use varisat::{ExtendFormula, Solver};

const ENCODINGS: [PbEncoding; 6] = PbEncoding::ALL;

fn check_all_assignments(f: &PbFormula, enc: PbEncoding) {
    let mut cnf = Cnf::new();
    encode(
        f,
        EncodeOptions {
            pb: enc,
            ..Default::default()
        },
        &mut cnf,
    )
    .unwrap();
    let mut solver = Solver::new();
    for c in cnf.clauses() {
        let lits: Vec<varisat::Lit> = c
            .iter()
            .map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize))
            .collect();
        solver.add_clause(&lits);
    }
    let n = f.num_vars() as usize;
    for bits in 0u32..(1 << n) {
        let a: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
        let assume: Vec<varisat::Lit> = (0..n).map(|i| varisat::Lit::from_index(i, a[i])).collect();
        solver.assume(&assume);
        let cnf_ok = solver.solve().expect("no limits set");
        let pb_ok = f.evaluate(&a).is_ok();
        assert_eq!(
            cnf_ok, pb_ok,
            "encoding {enc:?} disagrees on assignment {a:?} for {f:?}"
        );
    }
}

fn lit(v: u32, pos: bool) -> Lit {
    Lit::new(Var(v), pos)
}

fn linear_strategy() -> impl Strategy<Value = PbFormula> {
    (1usize..=7).prop_flat_map(|n| {
        (
            proptest::collection::vec((-4i64..=4, 0..n as u32, any::<bool>()), 1..=8),
            prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq)],
            -3i64..=14,
            Just(n),
        )
            .prop_map(|(terms, cmp, rhs, n)| {
                let mut f = PbFormula::new(n as u32);
                let terms = terms.into_iter().map(|(c, v, p)| (c, lit(v, p))).collect();
                f.add("lin", Constraint::Linear(Linear::new(terms, cmp, rhs)));
                f
            })
    })
}

/// A coefficient from one of the ranges the large-row encodings must get right: small,
/// zero, around 10^6 and 10^7, and near 2^40, of either sign.
fn coef_strategy() -> impl Strategy<Value = i64> {
    prop_oneof![
        -4i64..=4,
        Just(0i64),
        1_000_000i64..=10_000_000,
        -10_000_000i64..=-1_000_000,
        (1i64 << 40) - 1000..=(1i64 << 40) + 1000,
        -(1i64 << 40) - 1000..=-(1i64 << 40) + 1000,
    ]
}

/// Rows with large coefficients: up to 8 terms (repeated and negated variables, or none at
/// all), optionally all with one coefficient, and a right-hand side that is the sum of a
/// random subset moved by a little (so that rows are tight, not only trivially true or
/// false), or far out on either side (trivially true or false).
fn large_row_strategy() -> impl Strategy<Value = PbFormula> {
    (1usize..=7).prop_flat_map(|n| {
        (
            proptest::collection::vec((coef_strategy(), 0..n as u32, any::<bool>()), 0..=8),
            any::<bool>(),
            prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq)],
            any::<u8>(),
            -2i64..=2,
            0u8..10,
            Just(n),
        )
            .prop_map(|(mut terms, all_equal, cmp, mask, delta, far, n)| {
                if all_equal && let Some(&(c, _, _)) = terms.first() {
                    for t in &mut terms {
                        t.0 = c;
                    }
                }
                let positive: i64 = terms.iter().map(|t| t.0.max(0)).sum();
                let negative: i64 = terms.iter().map(|t| t.0.min(0)).sum();
                let rhs = match far {
                    0 => positive + 1 + delta.abs(),
                    1 => negative - 1 - delta.abs(),
                    _ => {
                        terms
                            .iter()
                            .enumerate()
                            .filter(|(k, _)| mask >> (k % 8) & 1 == 1)
                            .map(|(_, t)| t.0)
                            .sum::<i64>()
                            + delta
                    }
                };
                let mut f = PbFormula::new(n as u32);
                let terms = terms.into_iter().map(|(c, v, p)| (c, lit(v, p))).collect();
                f.add("large", Constraint::Linear(Linear::new(terms, cmp, rhs)));
                f
            })
    })
}

/// Exactly-one / at-most-one groups plus linear constraints over them: the shape the
/// domain encoding exploits (a group's true literal decides a small integer).
fn grouped_strategy() -> impl Strategy<Value = PbFormula> {
    (
        proptest::collection::vec((1usize..=4, any::<bool>()), 1..=3),
        proptest::collection::vec(0i64..=3, 12),
        prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq)],
        0i64..=9,
    )
        .prop_filter("at most 10 variables", |(groups, ..)| {
            groups.iter().map(|g| g.0).sum::<usize>() <= 10
        })
        .prop_map(|(groups, coefs, cmp, rhs)| {
            let n: usize = groups.iter().map(|g| g.0).sum();
            let mut f = PbFormula::new(n as u32);
            let mut next = 0u32;
            for (size, exact) in &groups {
                let lits: Vec<Lit> = (0..*size).map(|k| lit(next + k as u32, true)).collect();
                next += *size as u32;
                f.add(
                    "group",
                    if *exact {
                        Constraint::ExactlyOne(lits)
                    } else {
                        Constraint::AtMostOne(lits)
                    },
                );
            }
            let terms = (0..n).map(|i| (coefs[i], lit(i as u32, true))).collect();
            f.add("sum", Constraint::Linear(Linear::new(terms, cmp, rhs)));
            f
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn linear_constraints_every_assignment(f in linear_strategy()) {
        for enc in ENCODINGS {
            check_all_assignments(&f, enc);
        }
    }

    #[test]
    fn large_coefficient_rows_every_assignment(f in large_row_strategy()) {
        for enc in ENCODINGS {
            check_all_assignments(&f, enc);
        }
    }

    #[test]
    fn grouped_linear_constraints_every_assignment(f in grouped_strategy()) {
        for enc in ENCODINGS {
            check_all_assignments(&f, enc);
        }
    }
}

/// Two linear rows and an implied row over their sum, as the 3SoKu global sum is built.
fn sum_of_strategy() -> impl Strategy<Value = PbFormula> {
    (
        proptest::collection::vec(0i64..=3, 8),
        proptest::collection::vec(0i64..=3, 8),
        prop_oneof![Just(Cmp::Le), Just(Cmp::Eq)],
        0i64..=8,
        0i64..=8,
        prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq)],
        0i64..=14,
    )
        .prop_map(|(c1, c2, cmp1, r1, r2, cmp, rhs)| {
            let mut f = PbFormula::new(8);
            for g in 0..2u32 {
                f.add(
                    "group",
                    Constraint::ExactlyOne((0..4).map(|k| lit(g * 4 + k, true)).collect()),
                );
            }
            let a = f.add(
                "a",
                Constraint::Linear(Linear::new(
                    (0..8).map(|i| (c1[i], lit(i as u32, true))).collect(),
                    cmp1,
                    r1,
                )),
            );
            let b = f.add(
                "b",
                Constraint::Linear(Linear::new(
                    (0..8).map(|i| (c2[i], lit(i as u32, true))).collect(),
                    Cmp::Eq,
                    r2,
                )),
            );
            f.add(
                "sum",
                Constraint::SumOf {
                    parts: vec![a, b],
                    cmp,
                    rhs,
                },
            );
            f
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn implied_sum_of_rows_every_assignment(f in sum_of_strategy()) {
        for enc in ENCODINGS {
            check_all_assignments(&f, enc);
        }
    }
}

#[test]
fn at_most_one_and_exactly_one_of_every_size() {
    for n in 1..=9u32 {
        for exact in [false, true] {
            let mut f = PbFormula::new(n);
            let lits: Vec<Lit> = (0..n).map(|i| lit(i, true)).collect();
            f.add(
                "g",
                if exact {
                    Constraint::ExactlyOne(lits)
                } else {
                    Constraint::AtMostOne(lits)
                },
            );
            for enc in ENCODINGS {
                check_all_assignments(&f, enc);
            }
        }
    }
}

#[test]
fn the_vertex_sum_shape_of_icosoku() {
    // Five faces of three options each, corner weights 0..3, sum = 6: the domain encoding's
    // corner integers and running sum, checked on all 2^15 assignments.
    let mut f = PbFormula::new(15);
    let w = [0, 1, 3, 2, 2, 0, 3, 3, 1, 0, 1, 2, 3, 0, 2];
    for g in 0..5u32 {
        f.add(
            "face",
            Constraint::ExactlyOne((0..3).map(|k| lit(g * 3 + k, true)).collect()),
        );
    }
    let terms = (0..15).map(|i| (w[i], lit(i as u32, true))).collect();
    f.add("vertex", Constraint::Linear(Linear::new(terms, Cmp::Eq, 6)));
    for enc in ENCODINGS {
        check_all_assignments(&f, enc);
    }
}

/// Terms, comparison, right-hand side.
type Row = (Vec<(i64, Lit)>, Cmp, i64);

#[test]
fn degenerate_rows_in_every_encoding() {
    // Empty rows (true and false), a row of zeros, one term, all-equal coefficients, and a
    // coefficient at the top of the IR's range: every encoding, every assignment.
    let big = 1i64 << 61;
    let rows: Vec<Row> = vec![
        (vec![], Cmp::Le, 0),
        (vec![], Cmp::Ge, 1),
        (vec![], Cmp::Eq, 0),
        (vec![(0, lit(0, true)), (0, lit(1, false))], Cmp::Eq, 0),
        (vec![(0, lit(0, true)), (0, lit(1, false))], Cmp::Ge, 1),
        (vec![(5, lit(0, true))], Cmp::Eq, 5),
        (vec![(5, lit(0, false))], Cmp::Le, 4),
        ((0..4).map(|v| (1_000_003, lit(v, true))).collect(), Cmp::Eq, 2_000_006),
        ((0..4).map(|v| (1_000_003, lit(v, true))).collect(), Cmp::Ge, 3_000_008),
        (
            vec![(big, lit(0, true)), (big, lit(1, true)), (big - 1, lit(2, true))],
            Cmp::Ge,
            big,
        ),
        (
            vec![(big, lit(0, true)), (-big, lit(1, true)), (big, lit(2, false))],
            Cmp::Eq,
            0,
        ),
    ];
    for (terms, cmp, rhs) in rows {
        let mut f = PbFormula::new(4);
        f.add("row", Constraint::Linear(Linear::new(terms, cmp, rhs)));
        for enc in ENCODINGS {
            check_all_assignments(&f, enc);
        }
    }
}

//! The library's model API against brute force written here: random small models built with
//! `sokuc::Model` (clauses, at-most-one and exactly-one groups, cardinality rows, linear rows
//! with negative coefficients and coefficients past 64 bits, an objective) must
//! - count exactly as many solutions as brute force finds;
//! - solve on every backend of this build, with presolve on and off, to brute force's
//!   verdict, with an assignment that
//!   satisfies every row as this file evaluates it, and with an objective, a proven optimum
//!   equal to brute force's;
//! - compile to CNF with every encoding, and that CNF, read back as a DIMACS file and solved,
//!   must agree with brute force, its model variables satisfying the rows.
//!
//! Only the public API is used.

use num_bigint::BigInt;
use proptest::prelude::*;
use sokuc::{Backend, Cmp, Encoding, Instance, Lit, Model, Options, Status, Var};

const N: usize = 6;

/// A row as this file evaluates it.
#[derive(Debug, Clone)]
enum Row {
    Clause(Vec<(usize, bool)>),
    AtMostOne(Vec<(usize, bool)>),
    ExactlyOne(Vec<(usize, bool)>),
    Cardinality(Vec<(usize, bool)>, Cmp, u64),
    Linear(Vec<(BigInt, usize, bool)>, Cmp, BigInt),
}

fn lit() -> impl Strategy<Value = (usize, bool)> {
    (0..N, any::<bool>())
}

fn coefficient() -> impl Strategy<Value = BigInt> {
    prop_oneof![
        6 => (-5i64..=5).prop_map(BigInt::from),
        1 => (-3i64..=3).prop_map(|k| BigInt::from(k) * BigInt::from(10u8).pow(20)),
    ]
}

fn cmp() -> impl Strategy<Value = Cmp> {
    prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq)]
}

fn row() -> impl Strategy<Value = Row> {
    let lits = || proptest::collection::vec(lit(), 0..=4);
    prop_oneof![
        2 => lits().prop_map(Row::Clause),
        1 => lits().prop_map(Row::AtMostOne),
        1 => proptest::collection::vec(lit(), 1..=4).prop_map(Row::ExactlyOne),
        1 => (lits(), cmp(), 0u64..=4).prop_map(|(l, c, k)| Row::Cardinality(l, c, k)),
        3 => (
            proptest::collection::vec((coefficient(), 0..N, any::<bool>()), 1..=4),
            cmp(),
            prop_oneof![4 => (-6i64..=6).prop_map(BigInt::from), 1 => (-2i64..=2).prop_map(|k| BigInt::from(k) * BigInt::from(10u8).pow(20))],
        )
            .prop_map(|(t, c, r)| Row::Linear(t, c, r)),
    ]
}

fn on(x: &[bool], (v, neg): (usize, bool)) -> bool {
    x[v] != neg
}

fn compare(lhs: &BigInt, cmp: Cmp, rhs: &BigInt) -> bool {
    match cmp {
        Cmp::Le => lhs <= rhs,
        Cmp::Ge => lhs >= rhs,
        Cmp::Eq => lhs == rhs,
    }
}

fn holds(rows: &[Row], x: &[bool]) -> bool {
    rows.iter().all(|r| match r {
        Row::Clause(ls) => ls.iter().any(|&l| on(x, l)),
        Row::AtMostOne(ls) => ls.iter().filter(|&&l| on(x, l)).count() <= 1,
        Row::ExactlyOne(ls) => ls.iter().filter(|&&l| on(x, l)).count() == 1,
        Row::Cardinality(ls, c, k) => {
            let n = ls.iter().filter(|&&l| on(x, l)).count();
            compare(&BigInt::from(n), *c, &BigInt::from(*k))
        }
        Row::Linear(ts, c, rhs) => {
            let lhs: BigInt = ts.iter().filter(|t| on(x, (t.1, t.2))).map(|t| t.0.clone()).sum();
            compare(&lhs, *c, rhs)
        }
    })
}

fn assignments() -> impl Iterator<Item = Vec<bool>> {
    (0u32..1 << N).map(|m| (0..N).map(|i| m >> i & 1 == 1).collect())
}

fn build(rows: &[Row], objective: &[(i64, usize, bool)]) -> (Model, Vec<Var>) {
    let mut m = Model::new();
    let x = m.new_vars(N);
    let l = |(v, neg): (usize, bool)| -> Lit { if neg { !x[v] } else { x[v].pos() } };
    for r in rows {
        match r {
            Row::Clause(ls) => m.add_clause(ls.iter().map(|&v| l(v))),
            Row::AtMostOne(ls) => m.add_at_most_one(ls.iter().map(|&v| l(v))),
            Row::ExactlyOne(ls) => m.add_exactly_one(ls.iter().map(|&v| l(v))),
            Row::Cardinality(ls, c, k) => m.add_cardinality(ls.iter().map(|&v| l(v)), *c, *k),
            Row::Linear(ts, c, rhs) => m.add_linear(ts.iter().map(|t| (t.0.clone(), l((t.1, t.2)))), *c, rhs.clone()),
        }
    }
    if !objective.is_empty() {
        m.minimise(objective.iter().map(|&(c, v, neg)| (c, l((v, neg)))));
    }
    (m, x)
}

/// The backends this build has that take any model (`mitm` takes only some shapes by
/// design, and refuses the rest).
fn backends() -> Vec<Backend> {
    Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Mitm)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn models_agree_with_brute_force_on_every_backend_and_encoding(
        rows in proptest::collection::vec(row(), 1..=5),
        objective in proptest::collection::vec((-4i64..=4, 0..N, any::<bool>()), 0..=3),
    ) {
        let (m, x) = build(&rows, &objective);
        let models: Vec<Vec<bool>> = assignments().filter(|a| holds(&rows, a)).collect();
        let value = |a: &[bool]| -> i64 { objective.iter().filter(|t| on(a, (t.1, t.2))).map(|t| t.0).sum() };
        let best = models.iter().map(|a| value(a)).min();

        let counted = m.count(&sokuc::Count::new()).unwrap().expect("no time limit");
        prop_assert_eq!(counted.to_string(), models.len().to_string(), "count of {:?}", rows);

        // With presolve off too: on models this small, presolve alone often decides.
        for (b, presolve) in backends().into_iter().flat_map(|b| [(b, true), (b, false)]) {
            let o = m.solve(&Options::new().backend(b).presolve(presolve)).unwrap();
            match o.status() {
                Status::Sat => {
                    prop_assert!(!models.is_empty(), "{}: sat on an unsatisfiable model {:?}", b, rows);
                    let a: Vec<bool> = x.iter().map(|&v| o.value(v).unwrap()).collect();
                    prop_assert!(holds(&rows, &a), "{}: the assignment breaks a row of {:?}", b, rows);
                    if !objective.is_empty() && o.optimal() == Some(true) {
                        prop_assert_eq!(Some(value(&a)), best, "{}: a claimed optimum of {:?}", b, rows);
                        prop_assert_eq!(o.objective_value(), Some(&BigInt::from(value(&a))));
                    }
                }
                Status::Unsat => prop_assert!(models.is_empty(), "{}: unsat with {} models: {:?}", b, models.len(), rows),
                other => prop_assert!(false, "{}: {:?} without a time limit on {:?}", b, other, rows),
            }
        }

        for enc in Encoding::ALL {
            let cnf = m.to_cnf(enc).unwrap();
            let mut text = Vec::new();
            cnf.write_dimacs(&mut text).unwrap();
            let text = String::from_utf8(text).unwrap();
            let back = Instance::parse("cnf", "model.cnf", &text).unwrap();
            let o = back.solve(&Options::new().backend(Backend::Sat)).unwrap();
            match o.status() {
                Status::Sat => {
                    let a: Vec<bool> = (0..N).map(|i| o.assignment().unwrap().values()[i]).collect();
                    prop_assert!(holds(&rows, &a), "{}: the CNF's model breaks a row of {:?}", enc.name(), rows);
                }
                Status::Unsat => prop_assert!(models.is_empty(), "{}: the CNF is unsat, the model has {} solutions: {:?}", enc.name(), models.len(), rows),
                other => prop_assert!(false, "{}: {:?}", enc.name(), other),
            }
            prop_assert_eq!(cnf.dimacs(x[N - 1].pos()), N as i64);
            prop_assert_eq!(cnf.model_var(N as i64), Some(x[N - 1]));
        }
    }
}

#[test]
fn assumptions_leave_the_model_as_it_was() {
    let mut m = Model::new();
    let x = m.new_vars(3);
    m.add_exactly_one(x.iter().copied());
    for (i, &v) in x.iter().enumerate() {
        let o = m.solve_assuming([v.pos()], &Options::new()).unwrap();
        assert_eq!(o.status(), Status::Sat);
        let on: Vec<bool> = x.iter().map(|&w| o.value(w).unwrap()).collect();
        assert_eq!(on.iter().position(|&b| b), Some(i));
    }
    let two = m.solve_assuming([x[0].pos(), x[1].pos()], &Options::new()).unwrap();
    assert_eq!(two.status(), Status::Unsat);
    assert_eq!(m.num_rows(), 1, "the assumptions were added to the model");
}

#[test]
fn names_are_checked_and_kept() {
    let mut m = Model::new();
    let a = m.new_named_var("apple").unwrap();
    assert_eq!(m.var_named("apple"), Some(a));
    assert_eq!(m.name(a), "apple");
    for bad in ["apple", "x3", "2b", "", "a b", "~a"] {
        assert!(m.new_named_var(bad).is_err(), "{bad:?} was taken");
    }
    m.add_clause([a]);
    let mut opb = Vec::new();
    m.write(sokuc::Format::Opb, &Options::new(), &mut opb).unwrap();
    let o = m.solve(&Options::new()).unwrap();
    assert!(o.text().contains("apple"), "{}", o.text());
}

//! The search engine's native enumeration ([`Engine::enumerate`]) against brute force, on
//! formulas built to have many incidences whose bounds meet: exactly-one groups with rows
//! whose coefficients are all zero, all equal, or equal on most of a group's options (as a
//! tile-type count row is). The engine skips recomputing such incidences; the set of leaves
//! must still be every model, each once, with random tie-breaking too, and with everything
//! fixed by assumptions exactly that one model.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use proptest::prelude::*;
use sokuc::backend::Deadline;
use sokuc::backend::search::Engine;
use sokuc::backend::search::engine::walk::Walk;
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};

/// Every model of `f`, by brute force over all assignments.
fn models(f: &PbFormula) -> BTreeSet<Vec<bool>> {
    let n = f.num_vars() as usize;
    (0u32..(1 << n))
        .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|a| f.evaluate(a).is_ok())
        .collect()
}

/// Every leaf of the engine's walk, in order (duplicates kept, to be counted).
fn leaves(f: &PbFormula, assumptions: &[Lit], randomize: bool, seed: u64) -> (Walk, Vec<Vec<bool>>) {
    let mut e = Engine::new(f);
    let primary = e
        .primary_groups(&vec![true; f.num_vars() as usize])
        .expect("every variable primary");
    let mut out = Vec::new();
    let walk = e.enumerate(assumptions, &primary, randomize, seed, &Deadline::default(), &mut |a| {
        out.push(a.to_vec());
        ControlFlow::Continue(())
    });
    (walk, out)
}

/// How a row weighs the options: all zero, all one value, one value but a few others
/// (sparse), or anything.
#[derive(Debug, Clone)]
enum Weights {
    Zero,
    Equal(i64),
    Sparse(i64, Vec<(usize, i64)>),
    Any(Vec<i64>),
}

fn formula_strategy() -> impl Strategy<Value = PbFormula> {
    // Groups of 1 to 4 options, at most 12 variables in all.
    proptest::collection::vec(1usize..=4, 1..=4)
        .prop_flat_map(|sizes| {
            let n: usize = sizes.iter().sum();
            let weights = prop_oneof![
                1 => Just(Weights::Zero),
                1 => (0i64..=3).prop_map(Weights::Equal),
                2 => (0i64..=1, proptest::collection::vec((0..n, 0i64..=3), 1..=2))
                    .prop_map(|(m, o)| Weights::Sparse(m, o)),
                2 => proptest::collection::vec(-1i64..=3, n).prop_map(Weights::Any),
            ];
            let row = (
                weights,
                prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq)],
                -1i64..=8,
            );
            (Just(sizes), proptest::collection::vec(row, 0..=4))
        })
        .prop_map(|(sizes, rows)| {
            let n: usize = sizes.iter().sum();
            let mut f = PbFormula::new(n as u32);
            let mut v = 0u32;
            for s in sizes {
                let group = (v..v + s as u32).map(|x| Lit::new(Var(x), true)).collect();
                f.add("eo", Constraint::ExactlyOne(group));
                v += s as u32;
            }
            for (w, cmp, rhs) in rows {
                let coefs: Vec<i64> = match w {
                    Weights::Zero => vec![0; n],
                    Weights::Equal(c) => vec![c; n],
                    Weights::Sparse(m, others) => {
                        let mut c = vec![m; n];
                        for (o, x) in others {
                            c[o] = x;
                        }
                        c
                    }
                    Weights::Any(c) => c,
                };
                let terms = coefs
                    .iter()
                    .enumerate()
                    .map(|(x, &c)| (c, Lit::new(Var(x as u32), true)))
                    .collect();
                f.add("row", Constraint::Linear(Linear::new(terms, cmp, rhs)));
            }
            f
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]
    #[test]
    fn enumeration_lists_every_model_once(f in formula_strategy(), seed in 0u64..3) {
        let want = models(&f);
        for randomize in [false, true] {
            let (walk, got) = leaves(&f, &[], randomize, seed);
            prop_assert_eq!(walk, Walk::Complete);
            let set: BTreeSet<Vec<bool>> = got.iter().cloned().collect();
            prop_assert_eq!(set.len(), got.len(), "a leaf came twice: {:?}", f);
            prop_assert_eq!(&set, &want, "{:?}", f);
        }
        // Everything fixed: each model, assumed literal by literal, is the one leaf.
        for m in want.iter().take(3) {
            let fixed: Vec<Lit> = m.iter().enumerate().map(|(x, &b)| Lit::new(Var(x as u32), b)).collect();
            let (walk, got) = leaves(&f, &fixed, false, seed);
            prop_assert_eq!(walk, Walk::Complete);
            prop_assert_eq!(got, vec![m.clone()]);
        }
    }
}

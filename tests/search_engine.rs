//! The propagation-search engine against brute force over every assignment of small random
//! formulas: EO groups (some overlapping, some with negative literals), linear rows with
//! negative coefficients and literals, clauses, AMO and SumOf rows. Its status must equal
//! brute force, and each model it returns must satisfy the formula.

use proptest::prelude::*;
use sokuc::backend::Deadline;
use sokuc::backend::search::Engine;
use sokuc::backend::search::engine::Answer;
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};

fn lit(v: u32, pos: bool) -> Lit {
    Lit::new(Var(v), pos)
}

fn brute_force(f: &PbFormula) -> bool {
    let n = f.num_vars() as usize;
    (0u32..(1 << n)).any(|bits| {
        let a: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
        f.evaluate(&a).is_ok()
    })
}

#[derive(Debug, Clone)]
enum Row {
    Eo(Vec<(u32, bool)>),
    Amo(Vec<(u32, bool)>),
    Clause(Vec<(u32, bool)>),
    Lin(Vec<(i64, u32, bool)>, Cmp, i64),
}

fn formula_strategy() -> impl Strategy<Value = (PbFormula, bool)> {
    (2usize..=10)
        .prop_flat_map(|n| {
            let v = 0..n as u32;
            let lits = proptest::collection::vec((v.clone(), proptest::bool::weighted(0.85)), 1..=4);
            let row = prop_oneof![
                3 => lits.clone().prop_map(Row::Eo),
                1 => lits.clone().prop_map(Row::Amo),
                1 => lits.prop_map(Row::Clause),
                3 => (
                    proptest::collection::vec((-3i64..=4, v, any::<bool>()), 1..=6),
                    prop_oneof![Just(Cmp::Le), Just(Cmp::Ge), Just(Cmp::Eq)],
                    -2i64..=8,
                )
                    .prop_map(|(t, c, r)| Row::Lin(t, c, r)),
            ];
            (proptest::collection::vec(row, 1..=6), Just(n), any::<bool>())
        })
        .prop_map(|(rows, n, sum_of)| {
            let mut f = PbFormula::new(n as u32);
            let ls = |v: &[(u32, bool)]| v.iter().map(|&(x, p)| lit(x, p)).collect::<Vec<_>>();
            let mut linear = Vec::new();
            for r in rows {
                match r {
                    Row::Eo(v) => {
                        f.add("eo", Constraint::ExactlyOne(ls(&v)));
                    }
                    Row::Amo(v) => {
                        f.add("amo", Constraint::AtMostOne(ls(&v)));
                    }
                    Row::Clause(v) => {
                        f.add("clause", Constraint::Clause(ls(&v)));
                    }
                    Row::Lin(t, c, r) => {
                        let terms = t.into_iter().map(|(c, x, p)| (c, lit(x, p))).collect();
                        linear.push(f.add("lin", Constraint::Linear(Linear::new(terms, c, r))));
                    }
                }
            }
            if sum_of && !linear.is_empty() {
                f.add(
                    "sum",
                    Constraint::SumOf {
                        parts: linear,
                        cmp: Cmp::Le,
                        rhs: 6,
                    },
                );
            }
            (f, sum_of)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]
    #[test]
    fn engine_agrees_with_brute_force((f, _) in formula_strategy(), seed in 0u64..4) {
        let mut e = Engine::new(&f);
        let (answer, model) = e.solve(&[], seed, &Deadline::default());
        let want = brute_force(&f);
        match answer {
            Answer::Sat => {
                prop_assert!(want);
                let a = model.unwrap();
                prop_assert!(f.evaluate(&a).is_ok(), "{:?} {:?}", f, a);
            }
            Answer::Unsat => prop_assert!(!want, "{:?}", f),
            Answer::Unknown => prop_assert!(false, "no deadline was set"),
            Answer::GaveUp => prop_assert!(false, "no failure budget was set"),
        }
    }

    /// With a failure budget (what `--backend auto` gives search), the engine either
    /// answers correctly or gives up, and gives up only once the budget is spent.
    #[test]
    fn a_failure_budget_gives_up_or_answers_correctly((f, _) in formula_strategy(), seed in 0u64..4, budget in 0u64..6) {
        let mut e = Engine::new(&f);
        e.max_failures = Some(budget);
        let (answer, model) = e.solve(&[], seed, &Deadline::default());
        let want = brute_force(&f);
        match answer {
            Answer::Sat => {
                prop_assert!(want);
                prop_assert!(f.evaluate(&model.unwrap()).is_ok());
            }
            Answer::Unsat => prop_assert!(!want, "{:?}", f),
            Answer::Unknown => prop_assert!(false, "no deadline was set"),
            Answer::GaveUp => prop_assert!(e.counters.failures >= budget, "gave up after {} of {budget} failures", e.counters.failures),
        }
    }

    #[test]
    fn assumptions_and_new_right_hand_sides((f, _) in formula_strategy(), v in 0u32..10, pos: bool, rhs in -2i64..8) {
        let mut f = f;
        let v = v % f.num_vars();
        let mut e = Engine::new(&f);
        // Change the right-hand side of the first linear row, in the engine and in the formula.
        if let Some(ci) = f.constraints().iter().position(|(_, c)| matches!(c, Constraint::Linear(_))) {
            prop_assert!(e.set_rhs(ci, rhs));
            prop_assert!(f.set_rhs(ci, rhs));
        }
        let mut g = f.clone();
        g.add("assumption", Constraint::Clause(vec![lit(v, pos)]));
        let (answer, model) = e.solve(&[lit(v, pos)], 1, &Deadline::default());
        prop_assert_eq!(answer == Answer::Sat, brute_force(&g), "{:?}", g);
        if let Some(a) = model {
            prop_assert!(g.evaluate(&a).is_ok());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    /// One engine, several solves (as `sweep` uses it): the first stopped by an interrupt
    /// wherever it happens to be, the next ones complete. Undoing through the trail must leave
    /// nothing behind from the stopped solve.
    #[test]
    fn one_engine_solves_again_after_being_stopped((f, _) in formula_strategy(), seed in 0u64..4) {
        let mut e = Engine::new(&f);
        let stop = Deadline::new(None, Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true))));
        let (first, _) = e.solve(&[], seed, &stop);
        let want = brute_force(&f);
        prop_assert!(first == Answer::Unknown || (first == Answer::Sat) == want);
        for s in [seed, seed + 1] {
            let (answer, model) = e.solve(&[], s, &Deadline::default());
            prop_assert_eq!(answer == Answer::Sat, want, "{:?}", f);
            if let Some(a) = model {
                prop_assert!(f.evaluate(&a).is_ok());
            }
        }
    }
}

/// Peak resident memory of this test process (Linux), in bytes.
fn peak_resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// A random bipyramid-1000 (2,000 faces, search depth about 2,000): the engine used to copy
/// its whole state (0.8 MB here) at every decision, 1.7 GB at full depth (7.2 GB on
/// bipyramid-2000). With the trail the state exists once.
#[test]
fn a_large_bipyramid_is_searched_in_bounded_memory() {
    use sokuc::soku::generate::{TileChoice, random_solvable};
    let v = sokuc::input::variant_file::load_variant("bipyramid-1000", None, ("test", None)).unwrap();
    let g = random_solvable(&v, &TileChoice::Random { max_weight: 3 }, 0, false, 1).unwrap();
    let compiled = sokuc::soku::compile(&g.instance).unwrap();
    let f = &compiled.model.formula;
    let mut e = Engine::new(f);
    let limit = Deadline::new(Some(std::time::Duration::from_secs(300)), None);
    let (answer, model) = e.solve(&[], 0, &limit);
    assert_eq!(answer, Answer::Sat);
    assert!(f.evaluate(&model.unwrap()).is_ok());
    if let Some(peak) = peak_resident() {
        // The model, the engine's tables and one state take about 100 MB.
        assert!(peak < 600 << 20, "peak resident size {} MB", peak >> 20);
    }
}

//! Optimisation (issue 17, item 3) against brute force written here, on every backend of
//! this build and `auto`: small random OPB files with an objective, biased toward the
//! degenerate ones (a zero objective, all-equal coefficients, only negative ones, large ones
//! that the CNF backends' bound encoding may refuse, every variable fixed, unsatisfiable
//! rows). Status and optimum must be brute force's, proven; the `o` lines streamed as
//! solutions improve must be strictly better each time and end with the printed optimum.
//! Then each backend's declared way of optimising and its capabilities against what it
//! does.

mod common;

use sokuc::backend::Algorithms;
use std::ops::ControlFlow;

use common::{root, sokuc};
use proptest::prelude::*;
use serde_json::Value;
use sokuc::backend::{self, BackendError, SolveOptions, Status};
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
use sokuc::registry;
use sokuc::run::{LpMode, RunOptions};

const N: u32 = 6;

/// A row: terms (coefficient, variable from 1, negated), relation, right-hand side.
type Row = (Vec<(i64, u32, bool)>, &'static str, i64);
/// The objective's terms, as a row's.
type Objective = Vec<(i64, u32, bool)>;

fn sum(terms: &[(i64, u32, bool)], x: &[bool]) -> i64 {
    terms
        .iter()
        .filter(|&&(_, v, neg)| x[v as usize - 1] != neg)
        .map(|t| t.0)
        .sum()
}

fn holds(rows: &[Row], x: &[bool]) -> bool {
    rows.iter().all(|(terms, rel, rhs)| {
        let lhs = sum(terms, x);
        match *rel {
            ">=" => lhs >= *rhs,
            "<=" => lhs <= *rhs,
            _ => lhs == *rhs,
        }
    })
}

fn terms_text(terms: &[(i64, u32, bool)]) -> String {
    terms
        .iter()
        .map(|(c, v, neg)| format!(" {c:+} {}x{v}", if *neg { "~" } else { "" }))
        .collect()
}

fn opb(rows: &[Row], obj: &Objective, maximise: bool) -> String {
    let mut s = format!("* #variable= {N} #constraint= {}\n", rows.len());
    s.push_str(&format!(
        "{}{} ;\n",
        if maximise { "max:" } else { "min:" },
        terms_text(obj)
    ));
    for (terms, rel, rhs) in rows {
        s.push_str(&format!("{} {rel} {rhs} ;\n", terms_text(terms).trim_start()));
    }
    s
}

/// The best value brute force finds (`None`: no assignment satisfies the rows).
fn brute_force(rows: &[Row], obj: &Objective, maximise: bool) -> Option<i64> {
    (0..1u32 << N)
        .map(|bits| (0..N).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|x| holds(rows, x))
        .map(|x| sum(obj, &x))
        .reduce(|a, b| if maximise { a.max(b) } else { a.min(b) })
}

fn lit() -> impl Strategy<Value = (u32, bool)> {
    (1u32..=N, any::<bool>())
}

/// Rows most assignments satisfy, so the objective has points to choose from.
fn soft_row() -> impl Strategy<Value = Row> {
    (
        proptest::collection::vec((-6i64..=6, lit()).prop_map(|(c, (v, n))| (c, v, n)), 1..=4),
        prop_oneof![Just(">="), Just("<="), Just("=")],
        -3i64..=3,
    )
}

/// Rows of one of the degenerate kinds, or soft ones: every variable fixed (unit rows),
/// a contradiction (unsat), or a few soft rows.
fn rows() -> impl Strategy<Value = Vec<Row>> {
    prop_oneof![
        4 => proptest::collection::vec(soft_row(), 1..=3),
        1 => proptest::collection::vec(any::<bool>(), N as usize).prop_map(|values| {
            values
                .iter()
                .enumerate()
                .map(|(i, &on)| (vec![(1, i as u32 + 1, false)], "=", on as i64))
                .collect()
        }),
        1 => (1u32..=N).prop_map(|v| vec![(vec![(1, v, false)], ">=", 1), (vec![(1, v, false)], "<=", 0)]),
    ]
}

/// An objective of one of the kinds: random (zeros among them), all zero, all equal, only
/// negative, large coefficients (a wide range for the bound encoding).
fn objective() -> impl Strategy<Value = Objective> {
    let vars = || proptest::collection::vec(lit(), 1..=N as usize);
    prop_oneof![
        3 => proptest::collection::vec((-9i64..=9, lit()).prop_map(|(c, (v, n))| (c, v, n)), 1..=6),
        1 => vars().prop_map(|ls| ls.into_iter().map(|(v, n)| (0, v, n)).collect()),
        1 => (1i64..=5, vars()).prop_map(|(c, ls)| ls.into_iter().map(|(v, n)| (c, v, n)).collect()),
        1 => proptest::collection::vec((-9i64..=-1, lit()).prop_map(|(c, (v, n))| (c, v, n)), 1..=6),
        1 => proptest::collection::vec((-5000i64..=5000, lit()).prop_map(|(c, (v, n))| (c, v, n)), 1..=6),
    ]
}

/// Every backend of the build, and `auto`.
fn backends() -> Vec<&'static str> {
    let mut v = backend::available();
    v.push("auto");
    v
}

/// The `o` values in `text`, and whether they are each better than the last (by the
/// objective's direction) and the last is `best`.
fn o_lines(text: &str) -> Vec<i64> {
    text.lines()
        .filter_map(|l| l.strip_prefix("o "))
        .map(|v| v.parse().unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    /// Status and optimum equal brute force's on every backend, presolve on and off; the
    /// optimum is proven; the model holds and has that value; the streamed `o` lines improve
    /// strictly and end with it, before the `s` line.
    #[test]
    fn every_backend_finds_the_brute_force_optimum(rows in rows(), obj in objective(), maximise in any::<bool>()) {
        let text = opb(&rows, &obj, maximise);
        let best = brute_force(&rows, &obj, maximise);
        let p = registry::parse("opb", "opt.opb", &text).unwrap();
        for name in backends() {
            for presolve in [true, false] {
                let mut b = backend::by_name(name).unwrap();
                let opts = RunOptions {
                    solve: SolveOptions::default(),
                    compile: sokuc::puzzle::CompileOptions { presolve },
                    lp: if presolve { LpMode::Auto } else { LpMode::Off },
                    unique: false,
                    strict: false,
                };
                let mut streamed = Vec::new();
                let r = p
                    .solve_streaming(b.as_mut(), &opts, false, &mut streamed)
                    .unwrap_or_else(|e| panic!("{name}: {e} on\n{text}"));
                let streamed = String::from_utf8(streamed).unwrap();
                let what = format!("{name} presolve {presolve} on\n{text}");
                match best {
                    None => {
                        prop_assert_eq!(r.status, Status::Unsat, "{}", what);
                        prop_assert!(streamed.is_empty(), "{}", what);
                    }
                    Some(best) => {
                        prop_assert_eq!(r.status, Status::Sat, "{}", what);
                        prop_assert_eq!(&r.json["optimal"], &Value::Bool(true), "{}", what);
                        let x: Vec<bool> = r.json["model"].as_array().unwrap().iter().map(|l| l.as_i64().unwrap() > 0).collect();
                        prop_assert!(holds(&rows, &x), "{}", what);
                        prop_assert_eq!(sum(&obj, &x), best, "{}", what);
                        prop_assert_eq!(r.json["objective"].as_str().unwrap(), best.to_string());
                        let o = o_lines(&streamed);
                        prop_assert_eq!(o.last(), Some(&best), "{}: {}", what, streamed);
                        for w in o.windows(2) {
                            prop_assert!(if maximise { w[1] > w[0] } else { w[1] < w[0] }, "{}: {}", what, streamed);
                        }
                        // The answer's text has no `o` line of its own: they went out already.
                        prop_assert!(r.text.starts_with("s OPTIMUM FOUND\n"), "{}: {}", what, r.text);
                    }
                }
            }
        }
    }
}

/// The command line: `o` lines strictly decreasing (a `min:` file), each before the `s`
/// line, the last one the optimum the JSON gives, on every backend.
#[test]
fn the_o_lines_decrease_and_end_with_the_optimum() {
    for file in ["knapsack-opt-25-s1.opb"] {
        let f = root().join("instances/opb").join(file);
        let f = f.to_str().unwrap();
        for name in backends() {
            let o = sokuc().args(["solve", "--backend", name, f]).output().unwrap();
            // A proven optimum exits 30, as PB solvers do (the competitions' table).
            assert_eq!(o.status.code(), Some(30), "{name} {file}");
            let text = String::from_utf8(o.stdout).unwrap();
            let s_at = text.find("\ns OPTIMUM FOUND\n").expect("proven optimal") + 1;
            let values = o_lines(&text);
            assert!(!values.is_empty(), "{name}: {text}");
            assert!(values.windows(2).all(|w| w[1] < w[0]), "{name}: {values:?}");
            assert!(!text[s_at..].lines().any(|l| l.starts_with("o ")), "{name}: {text}");
            let j = sokuc()
                .args(["solve", "--backend", name, "--format", "json", f])
                .output()
                .unwrap();
            let json: Value = serde_json::from_slice(&j.stdout).unwrap();
            assert_eq!(
                json["objective"].as_str().unwrap(),
                values.last().unwrap().to_string(),
                "{name}"
            );
            assert_eq!(json["optimal"], Value::Bool(true));
        }
    }
}

/// A formula with an objective: pick at most 3 of 8 variables (`x1 + ... + x8 <= 3`) and
/// take at least 2 of the last four, minimising `-(1..=8)·x`; the optimum is -(8+7+6) = -21.
fn small_optimisation() -> PbFormula {
    let mut f = PbFormula::new(8);
    let x = |i: u32| Lit::new(Var(i), true);
    f.add(
        "at most 3",
        Constraint::Linear(Linear::new((0..8).map(|i| (1, x(i))).collect(), Cmp::Le, 3)),
    );
    f.add(
        "two of the last four",
        Constraint::Linear(Linear::new((4..8).map(|i| (1, x(i))).collect(), Cmp::Ge, 2)),
    );
    f.set_objective(Some((0..8).map(|i| (-(i as i64 + 1), x(i))).collect()));
    f
}

/// What each backend declares matches what it does: the way it optimises
/// ([`Backend::optimisation`], reported in `extra.optimise`), one model built for native and
/// assumption-based optimisation (and for a session that changes right-hand sides in
/// place), one solver run for native optimisation; `assumptions` honoured by a plain solve
/// exactly when declared, and by every session.
#[test]
fn declared_capabilities_match_behaviour() {
    let f = small_optimisation();
    for name in backends() {
        let mut b = backend::by_name(name).unwrap();
        let caps = b.capabilities();
        let mut values = Vec::new();
        let o = b
            .optimise(&f, &SolveOptions::default(), &mut |a: &[bool]| {
                values.push(f.objective_value(a).unwrap());
                ControlFlow::Continue(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(o.status, Status::Sat, "{name}");
        assert!(o.optimal, "{name}");
        assert_eq!(values.last(), Some(&-21), "{name}: {values:?}");
        assert!(values.windows(2).all(|w| w[1] < w[0]), "{name}: {values:?}");
        let extra = &o.stats.extra;
        let loads = extra["loads"].as_u64().unwrap();
        let solves = extra["solves"].as_u64().unwrap();
        if name != "auto" {
            // `auto` hands the formula to an engine, which reports its own way.
            assert_eq!(extra["optimise"], Value::from(b.optimisation().name()), "{name}");
        }
        match extra["optimise"].as_str().unwrap() {
            "native" => assert_eq!((loads, solves), (1, 1), "{name}"),
            "assumptions" => {
                assert_eq!(loads, 1, "{name}");
                assert_eq!(
                    solves as usize,
                    values.len() + 1,
                    "{name}: a solve per model, and the proof"
                );
            }
            "rhs" => {
                let in_place = name == "auto" || caps.rhs_changes;
                assert_eq!(loads, if in_place { 1 } else { solves }, "{name}");
            }
            other => panic!("{name}: {other}"),
        }
        // Assumptions: x1 and !x8 together with the rows.
        let assume = vec![Lit::new(Var(0), true), Lit::new(Var(7), false)];
        let mut plain = f.clone();
        plain.set_objective(None);
        let opts = SolveOptions {
            assumptions: assume.clone(),
            ..Default::default()
        };
        match b.solve(&plain, &opts) {
            Ok(out) => {
                assert!(caps.assumptions, "{name} took assumptions it does not declare");
                let a = out.assignment.expect("sat");
                assert!(a[0] && !a[7], "{name} ignored its assumptions");
            }
            Err(BackendError::Unsupported { .. }) => assert!(!caps.assumptions, "{name} refused declared assumptions"),
            Err(e) => panic!("{name}: {e}"),
        }
        let mut s = b.session(&plain, &SolveOptions::default()).unwrap();
        let out = s.solve(&assume, &SolveOptions::default()).unwrap();
        let a = out.assignment.expect("sat");
        assert!(a[0] && !a[7], "{name}: a session ignored its assumptions");
        // x1 with x2, x3 and x4 breaks "at most 3" with the two of the last four.
        let too_many: Vec<Lit> = (0..4).map(|i| Lit::new(Var(i), true)).collect();
        assert_eq!(
            s.solve(&too_many, &SolveOptions::default()).unwrap().status,
            Status::Unsat,
            "{name}"
        );
    }
}

/// With a time limit that can stop it, an optimisation answers with whatever it has: the
/// proven optimum, the best solution found (`s SATISFIABLE` after its `o` lines), or
/// nothing (`s UNKNOWN`), never a malformed or inconsistent answer. (Which of the three
/// depends on the machine; each is checked for what it must say.)
#[test]
fn a_time_limit_leaves_the_best_found() {
    let f = root().join("instances/opb/knapsack-opt-25-s2.opb");
    let f = f.to_str().unwrap();
    for name in backends() {
        for timeout in ["0.05", "0.3"] {
            let o = sokuc()
                .args(["solve", "--backend", name, "--timeout", timeout, f])
                .output()
                .unwrap();
            let text = String::from_utf8(o.stdout).unwrap();
            let values = o_lines(&text);
            assert!(values.windows(2).all(|w| w[1] < w[0]), "{name}: {values:?}");
            let status = text
                .lines()
                .find(|l| l.starts_with("s "))
                .unwrap_or_else(|| panic!("{name}: {text}"));
            match status {
                "s OPTIMUM FOUND" | "s SATISFIABLE" => {
                    let code = if status == "s OPTIMUM FOUND" { 30 } else { 10 };
                    assert_eq!(o.status.code(), Some(code), "{name}");
                    assert!(!values.is_empty(), "{name}: {text}");
                    assert!(text.lines().any(|l| l.starts_with("v ")), "{name}: {text}");
                }
                "s UNKNOWN" => {
                    assert_eq!(o.status.code(), Some(0), "{name}");
                    assert!(values.is_empty(), "{name}: {text}");
                }
                other => panic!("{name}: {other}"),
            }
        }
    }
}

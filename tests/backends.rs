//! One backend test suite, written once and instantiated for every backend of the build.

mod common;

use sokuc::backend::Algorithms;
use std::time::Duration;

use sokuc::backend::{self, SolveOptions, Status};
use sokuc::input::{batch, instance_file, variant_file::load_variant};
use sokuc::model::{Fixed, Instance};
use sokuc::run;

use common::Presolve;

fn load(name: &str) -> Instance {
    instance_file::read_instance(&common::root().join("instances").join(name)).unwrap()
}

fn run(backend: &str, inst: &Instance, mode: Presolve, limit: Option<Duration>) -> Status {
    let mut b = backend::by_name(backend).unwrap();
    let opts = SolveOptions {
        time_limit: limit,
        ..Default::default()
    };
    let r = run::solve(inst, b.as_mut(), &mode.with(opts)).unwrap();
    if r.answer.status == Status::Sat {
        sokuc::soku::verify::verify(inst, r.answer.solution.as_ref().unwrap()).unwrap();
        assert!(r.answer.verified);
    }
    r.answer.status
}

/// A tiny LCG so the random instances are the same on every run, without test-only crates.
fn rng(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *seed >> 33
}

/// n pigeons, n - 1 holes: each pigeon in exactly one hole, at most one pigeon per hole.
use common::pigeonhole;

use sokuc::backend::{BackendError, Outcome};
use sokuc::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};

/// Every assignment of `f`'s variables (at most 12) that satisfies it and `units`.
fn brute_solutions(f: &PbFormula, units: &[Lit]) -> Vec<Vec<bool>> {
    let n = f.num_vars() as usize;
    assert!(n <= 12, "brute force over {n} variables");
    (0u32..1 << n)
        .map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|a| f.evaluate(a).is_ok() && units.iter().all(|l| l.eval(a)))
        .collect()
}

/// A small random pseudo-Boolean formula over `n` variables: clauses, at-most-one,
/// exactly-one and linear rows with coefficients -3..3, each over distinct variables.
fn random_formula(seed: &mut u64, n: u32) -> PbFormula {
    let mut f = PbFormula::new(n);
    for _ in 0..2 + rng(seed) % 4 {
        let mut vars: Vec<u32> = (0..n).collect();
        for i in (1..vars.len()).rev() {
            vars.swap(i, (rng(seed) % (i as u64 + 1)) as usize);
        }
        let len = 1 + (rng(seed) % 4) as usize;
        let lits: Vec<Lit> = vars[..len]
            .iter()
            .map(|&v| Lit::new(Var(v), !rng(seed).is_multiple_of(3)))
            .collect();
        let c = match rng(seed) % 4 {
            0 => Constraint::Clause(lits),
            1 => Constraint::AtMostOne(lits),
            2 => Constraint::ExactlyOne(lits),
            _ => {
                let terms: Vec<(i64, Lit)> = lits
                    .into_iter()
                    .map(|l| ([-3, -2, -1, 1, 2, 3][(rng(seed) % 6) as usize], l))
                    .collect();
                let cmp = [Cmp::Le, Cmp::Ge, Cmp::Eq][(rng(seed) % 3) as usize];
                Constraint::Linear(Linear::new(terms, cmp, (rng(seed) % 7) as i64 - 3))
            }
        };
        f.add("random", c);
    }
    f
}

/// Checks an answer against the formula, `units` and the brute-force solutions.
fn check_answer(o: &Outcome, f: &PbFormula, units: &[Lit], what: &str) {
    let want = !brute_solutions(f, units).is_empty();
    assert_eq!(o.status == Status::Sat, want, "{what}: {:?}", o.status);
    assert_ne!(o.status, Status::Unknown, "{what}");
    if let Some(a) = &o.assignment {
        assert!(f.evaluate(a).is_ok(), "{what}: the answer violates the formula");
        assert!(
            units.iter().all(|l| l.eval(a)),
            "{what}: the answer violates an assumption"
        );
    }
}

/// The tetrahedron with four tiles (total weight 10), as the sweep tests use it.
fn tetra(caps: &[u64]) -> Instance {
    Instance {
        source: "session test".into(),
        variant: load_variant("tetrahedron", None, ("test", None)).unwrap(),
        capacities: caps.to_vec(),
        tiles: vec![[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]],
        fixed: vec![],
    }
}

/// Capacity vectors for one session: every arrangement of 1,2,3,4 (as a sweep visits them)
/// and degenerate ones: all zero, all equal, a wrong total, everything on one vertex, and
/// one vector twice in a row.
fn capacity_vectors() -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for a in 1..=4u64 {
        for b in 1..=4 {
            for c in 1..=4 {
                // The fourth capacity makes the total 10; triples past 10 have none (and
                // cannot be an arrangement of 1,2,3,4 anyway).
                let Some(d) = 10u64.checked_sub(a + b + c) else {
                    continue;
                };
                let v = vec![a, b, c, d];
                let mut s = v.clone();
                s.sort();
                if s == [1, 2, 3, 4] {
                    out.push(v);
                }
            }
        }
    }
    out.extend([
        vec![0, 0, 0, 0],
        vec![3, 3, 3, 3],
        vec![10, 0, 0, 0],
        vec![0, 0, 5, 5],
        vec![2, 2, 3, 3],
        vec![2, 2, 3, 3],
        vec![4, 4, 1, 1],
        vec![1, 2, 3, 4],
    ]);
    out
}

macro_rules! backend_suite {
    ($modname:ident, $name:expr) => {
        mod $modname {
            use super::*;

            /// `--all --jobs 2` enumerates every solution exactly when the backend declares
            /// [`backend::Capabilities::parallel`]; otherwise it is refused by name (exit 2).
            #[test]
            fn jobs_run_or_are_refused_by_the_declared_capability() {
                let b = backend::by_name($name).unwrap();
                let all = |args: &[&str]| {
                    common::sokuc()
                        .args([
                            "solve",
                            "instances/octasoku.toml",
                            "--all",
                            "--format",
                            "json",
                            "--timeout",
                            "120",
                        ])
                        .args(args)
                        .current_dir(common::root())
                        .output()
                        .unwrap()
                };
                let o = all(&["--jobs", "2", "--backend", $name]);
                let stderr = String::from_utf8_lossy(&o.stderr);
                if b.capabilities().parallel {
                    assert_eq!(o.status.code(), Some(0), "{stderr}");
                    // As many lines (solutions, then the summary) as search on one thread,
                    // whose enumeration tests/enumerate.rs checks against brute force on
                    // smaller instances; hundreds of them, so the tree is really split.
                    let one = all(&["--backend", "search"]);
                    let lines = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).lines().count();
                    assert!(lines(&one) > 100, "{}", lines(&one));
                    assert_eq!(lines(&o), lines(&one));
                    let out = String::from_utf8(o.stdout).unwrap();
                    let summary: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
                    assert_eq!(summary["complete"], true, "{summary}");
                    assert_eq!(
                        summary["solutions"].as_u64(),
                        Some(lines(&one) as u64 - 1),
                        "{summary}"
                    );
                } else {
                    assert_eq!(o.status.code(), Some(2), "{stderr}");
                    assert!(
                        stderr.contains("does not support parallel enumeration"),
                        "{stderr}"
                    );
                }
            }

            /// A seed is taken exactly when the backend declares it; otherwise it is refused
            /// by name, never silently ignored.
            #[test]
            fn a_seed_is_used_or_refused() {
                let mut b = backend::by_name($name).unwrap();
                let opts = SolveOptions {
                    seed: Some(7),
                    ..Default::default()
                };
                let r = run::solve(
                    &load("tetrasoku-seed.toml"),
                    b.as_mut(),
                    &Presolve::Off.with(opts),
                );
                if b.capabilities().seed {
                    assert_eq!(r.unwrap().answer.status, Status::Sat);
                } else {
                    let e = r.unwrap_err().to_string();
                    assert!(e.contains("seed"), "{e}");
                }
            }

            #[test]
            fn seed_tetrasoku() {
                assert_eq!(
                    run($name, &load("tetrasoku-seed.toml"), Presolve::On, None),
                    Status::Sat
                );
                assert_eq!(
                    run($name, &load("tetrasoku-seed.toml"), Presolve::Off, None),
                    Status::Sat
                );
            }

            #[test]
            fn seed_icosahedron_and_fixed() {
                for f in ["icosoku-seed.toml", "icosoku-fixed.toml", "octasoku.toml"] {
                    assert_eq!(
                        run($name, &load(f), Presolve::On, Some(Duration::from_secs(120))),
                        Status::Sat,
                        "{f}"
                    );
                }
            }

            /// Constraints over no variables (a Kakuro cell with every digit filtered away
            /// leaves one): true ones are no-ops, a false one makes the formula unsat. pumpkin
            /// panicked on these until the differential test found it.
            #[test]
            fn constraints_without_variables() {
                use sokuc::ir::{Cmp, Constraint, Linear, PbFormula, Var};
                let base = || {
                    let mut f = PbFormula::new(2);
                    f.add("x or y", Constraint::Clause(vec![Var(0).pos(), Var(1).pos()]));
                    f
                };
                let cases: Vec<(Constraint, Status)> = vec![
                    (Constraint::ExactlyOne(vec![]), Status::Unsat),
                    (Constraint::Clause(vec![]), Status::Unsat),
                    (Constraint::AtMostOne(vec![]), Status::Sat),
                    (Constraint::Linear(Linear::new(vec![], Cmp::Eq, 1)), Status::Unsat),
                    (Constraint::Linear(Linear::new(vec![], Cmp::Eq, 0)), Status::Sat),
                    (Constraint::Linear(Linear::new(vec![], Cmp::Le, 3)), Status::Sat),
                    (Constraint::Linear(Linear::new(vec![], Cmp::Ge, 1)), Status::Unsat),
                ];
                for (c, want) in cases {
                    let mut f = base();
                    f.add("empty", c.clone());
                    let mut b = backend::by_name($name).unwrap();
                    let out = b.solve(&f, &SolveOptions::default()).unwrap();
                    assert_eq!(out.status, want, "{c:?}");
                    if want == Status::Sat {
                        assert!(f.evaluate(&out.assignment.unwrap()).is_ok());
                    }
                }
            }

            #[test]
            fn unsat_cases_without_presolve() {
                for f in ["tetrasoku-unsat.toml", "icosoku-unsat.toml"] {
                    assert_eq!(run($name, &load(f), Presolve::Off, None), Status::Unsat, "{f}");
                }
                let items = batch::read_batch(&common::root().join("instances/batches/unsat-icosoku100.txt")).unwrap();
                for item in items.iter().take(5) {
                    assert_eq!(
                        run($name, &item.instance, Presolve::Off, None),
                        Status::Unsat,
                        "line {}",
                        item.line
                    );
                }
            }

            #[test]
            fn a_time_limit_that_expires_answers_unknown() {
                assert_eq!(
                    run(
                        $name,
                        &load("icosoku-seed.toml"),
                        Presolve::On,
                        Some(Duration::ZERO)
                    ),
                    Status::Unknown
                );
            }

            #[test]
            fn a_time_limit_stops_a_search_already_under_way() {
                // The pigeonhole formula (13 pigeons, 12 holes) is exponential for resolution
                // and for search without a global view, so the limit has to cut the search.
                let php = pigeonhole(13);
                let mut b = backend::by_name($name).unwrap();
                let opts = SolveOptions {
                    time_limit: Some(Duration::from_millis(300)),
                    ..Default::default()
                };
                let t = std::time::Instant::now();
                let r = b.solve(&php, &opts).unwrap();
                let took = t.elapsed();
                // Generous slack: this checks that the limit is honoured, not how fast.
                assert!(took < Duration::from_secs(10), "{took:?}");
                // A solver that sees the pigeonhole structure (CBC's clique cuts) may refute
                // it within the limit; anything else must answer unknown.
                assert_ne!(r.status, Status::Sat);
                eprintln!("{}: {:?} after {took:?}", $name, r.status);
            }

            #[test]
            fn the_time_limit_counts_from_when_the_command_started() {
                // A clock started 10 s ago with a 5 s limit: whatever the backend would build,
                // the answer is unknown, at once.
                let mut b = backend::by_name($name).unwrap();
                let opts = SolveOptions {
                    time_limit: Some(Duration::from_secs(5)),
                    started: std::time::Instant::now().checked_sub(Duration::from_secs(10)),
                    ..Default::default()
                };
                let t = std::time::Instant::now();
                let r = run::solve(&load("icosoku-seed.toml"), b.as_mut(), &Presolve::Off.with(opts)).unwrap();
                assert_eq!(r.answer.status, Status::Unknown);
                assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
            }

            #[test]
            fn a_model_over_the_memory_limit_is_refused_by_the_backend() {
                // Straight to the backend (past the compiled model's own check): each estimates
                // its model before building it, and 16 KiB holds none of them.
                let inst = load("icosoku-seed.toml");
                let compiled = sokuc::soku::compile_plain(&inst);
                let mut b = backend::by_name($name).unwrap();
                let opts = SolveOptions {
                    encode: sokuc::encode::EncodeOptions {
                        max_memory: 16 << 10,
                        ..Default::default()
                    },
                    ..Default::default()
                };
                match b.solve(&compiled.model.formula, &opts) {
                    Err(backend::BackendError::Encode(e @ sokuc::encode::EncodeError::Memory { .. })) => {
                        assert!(
                            e.to_string()
                                .contains("more than the limit of 16 KiB (--max-memory)"),
                            "{e}"
                        );
                    }
                    other => panic!("{}: {:?}", $name, other.map(|o| o.status)),
                }
            }

            #[test]
            fn an_interrupt_answers_unknown_or_is_refused() {
                let mut b = backend::by_name($name).unwrap();
                let opts = SolveOptions {
                    interrupt: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true))),
                    ..Default::default()
                };
                let r = run::solve(&load("icosoku-seed.toml"), b.as_mut(), &Presolve::On.with(opts));
                if b.capabilities().interrupt {
                    let r = r.unwrap();
                    assert_eq!(r.answer.status, Status::Unknown);
                    assert!(r.answer.solution.is_none());
                } else {
                    // A backend that cannot be interrupted says so instead of ignoring the flag.
                    let e = r.err().expect("an unsupported interrupt must be refused");
                    assert!(e.to_string().contains("interrupts"), "{e}");
                }
            }

            /// A session solved under assumptions answers like the formula plus those
            /// assumptions as unit clauses, solved afresh, and like brute force; one session
            /// serves many assumption sets in a row.
            #[test]
            fn session_assumptions_match_unit_clauses_and_brute_force() {
                let mut seed = 0xa55u64 ^ $name.len() as u64;
                let mut formulas = vec![pigeonhole(4)];
                for k in 0..12 {
                    formulas.push(random_formula(&mut seed, 6 + k % 5));
                }
                for (k, f) in formulas.iter().enumerate() {
                    let mut b = backend::by_name($name).unwrap();
                    let mut s = b.session(f, &SolveOptions::default()).unwrap();
                    for round in 0..5 {
                        let units: Vec<Lit> = (0..rng(&mut seed) % 4)
                            .map(|_| {
                                Lit::new(
                                    Var((rng(&mut seed) % f.num_vars() as u64) as u32),
                                    rng(&mut seed) % 2 == 0,
                                )
                            })
                            .collect();
                        let what = format!("formula {k}, round {round}, assumptions {units:?}");
                        let o = s.solve(&units, &SolveOptions::default()).unwrap();
                        check_answer(&o, f, &units, &what);
                        let mut g = f.clone();
                        for &l in &units {
                            g.add("unit", Constraint::Clause(vec![l]));
                        }
                        let mut fresh = backend::by_name($name).unwrap();
                        let p = fresh.solve(&g, &SolveOptions::default()).unwrap();
                        assert_eq!(o.status, p.status, "{what}");
                    }
                    // Assumptions hold for one solve only: without them the answer is the
                    // formula's own.
                    let o = s.solve(&[], &SolveOptions::default()).unwrap();
                    check_answer(&o, f, &[], &format!("formula {k} after assumptions"));
                }
            }

            /// Right-hand sides changed in a session (as the sweep changes vertex capacities)
            /// answer like a formula compiled with those capacities, and like brute force;
            /// every answer decodes and verifies.
            #[test]
            fn session_right_hand_sides_match_fresh_formulas() {
                let mut b = backend::by_name($name).unwrap();
                let seeded = b.capabilities().seed;
                let mut compiled = sokuc::soku::compile_plain(&tetra(&[1, 2, 3, 4]));
                let mut s = b
                    .session(&compiled.model.formula, &SolveOptions::default())
                    .unwrap();
                let mut saw = std::collections::BTreeSet::new();
                for (i, caps) in capacity_vectors().iter().enumerate() {
                    if i % 5 == 0 {
                        s.forget_phases();
                    }
                    for (&row, &c) in compiled.vertex_rows.iter().zip(caps) {
                        s.set_rhs(row, c as i64).unwrap();
                    }
                    let opts = SolveOptions {
                        seed: seeded.then_some(i as u64),
                        ..Default::default()
                    };
                    let o = s.solve(&[], &opts).unwrap();
                    let inst = tetra(caps);
                    let fresh_model = sokuc::soku::compile_plain(&inst);
                    let mut fresh = backend::by_name($name).unwrap();
                    let p = fresh.solve(&fresh_model.model.formula, &opts).unwrap();
                    assert_eq!(o.status, p.status, "{caps:?}");
                    let want = common::brute_force(&common::raw_of(&inst));
                    assert_eq!(o.status == Status::Sat, want, "{caps:?}: {:?}", o.status);
                    assert_ne!(o.status, Status::Unknown);
                    saw.insert(o.status.as_str());
                    compiled.set_capacities(caps);
                    if let Some(a) = &o.assignment {
                        sokuc::run::finish(&inst, &compiled, a).unwrap();
                    }
                }
                assert_eq!(saw.len(), 2, "{saw:?}");
            }

            /// Adding a clause that excludes each answer in turn enumerates exactly the
            /// solutions brute force counts, each once.
            #[test]
            fn session_no_goods_enumerate_every_solution() {
                let mut seed = 0xe0u64;
                let mut formulas = Vec::new();
                while formulas.len() < 6 {
                    let f = random_formula(&mut seed, 5);
                    let n = brute_solutions(&f, &[]).len();
                    if (1..=12).contains(&n) || (formulas.len() == 5 && n == 0) {
                        formulas.push(f);
                    }
                }
                for (k, f) in formulas.iter().enumerate() {
                    let mut want = brute_solutions(f, &[]);
                    want.sort();
                    let mut b = backend::by_name($name).unwrap();
                    let mut s = b.session(f, &SolveOptions::default()).unwrap();
                    let mut found: Vec<Vec<bool>> = Vec::new();
                    loop {
                        let o = s.solve(&[], &SolveOptions::default()).unwrap();
                        match o.status {
                            Status::Unsat => break,
                            Status::Sat => {}
                            other => panic!("formula {k}: {other:?}"),
                        }
                        let a = o.assignment.unwrap();
                        assert!(f.evaluate(&a).is_ok(), "formula {k}");
                        assert!(!found.contains(&a), "formula {k}: an excluded answer came back");
                        let nogood: Vec<Lit> = (0..f.num_vars())
                            .map(|v| Lit::new(Var(v), !a[v as usize]))
                            .collect();
                        s.add_clause(&nogood).unwrap();
                        found.push(a);
                        assert!(
                            found.len() <= want.len(),
                            "formula {k}: more answers than solutions"
                        );
                    }
                    found.sort();
                    assert_eq!(found, want, "formula {k}");
                }
            }

            /// What a session cannot do is refused by name or emulated as documented:
            /// assumptions always work (as unit clauses where the backend has none), seeds,
            /// time limits and interrupts as the flags say, proofs never; a session that ran
            /// out of time still answers later solves; bad rows and literals are errors.
            #[test]
            fn session_capabilities_tell_the_truth() {
                let mut b = backend::by_name($name).unwrap();
                let caps = b.capabilities();
                assert!(
                    caps.incremental || !caps.rhs_changes,
                    "right-hand sides in place need a native session"
                );
                let mut seed = 0xcafeu64;
                let f = loop {
                    let f = random_formula(&mut seed, 6);
                    if !brute_solutions(&f, &[]).is_empty() {
                        break f;
                    }
                };
                // Plain solves take assumptions exactly when the flag says so.
                let with_assumption = SolveOptions {
                    assumptions: vec![Var(0).pos()],
                    ..Default::default()
                };
                match b.solve(&f, &with_assumption) {
                    Ok(o) => {
                        assert!(caps.assumptions);
                        check_answer(&o, &f, &[Var(0).pos()], "plain solve");
                    }
                    Err(BackendError::Unsupported { feature, .. }) => {
                        assert!(!caps.assumptions);
                        assert!(feature.contains("assumptions"), "{feature}");
                    }
                    Err(e) => panic!("{e}"),
                }
                // Opening takes no assumptions (each solve brings its own).
                assert!(matches!(
                    b.session(&f, &with_assumption),
                    Err(BackendError::Unsupported { .. })
                ));
                let mut s = b.session(&f, &SolveOptions::default()).unwrap();
                // Assumptions in the options count like the argument, in every session.
                let o = s.solve(&[Var(1).negative()], &with_assumption).unwrap();
                check_answer(
                    &o,
                    &f,
                    &[Var(0).pos(), Var(1).negative()],
                    "assumptions in both places",
                );
                let refused = |r: Result<Outcome, BackendError>, what: &str| match r {
                    Err(BackendError::Unsupported { feature, .. }) => assert!(feature.contains(what), "{feature}"),
                    other => panic!("{what}: {:?}", other.map(|o| o.status)),
                };
                let seeded = SolveOptions {
                    seed: Some(3),
                    ..Default::default()
                };
                if caps.seed {
                    check_answer(&s.solve(&[], &seeded).unwrap(), &f, &[], "seeded");
                } else {
                    refused(s.solve(&[], &seeded), "seed");
                }
                let proof = SolveOptions {
                    proof: Some(std::env::temp_dir().join("sokuc-session-proof.drat")),
                    ..Default::default()
                };
                refused(s.solve(&[], &proof), "proof");
                let interrupted = SolveOptions {
                    interrupt: Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true))),
                    ..Default::default()
                };
                if caps.interrupt {
                    assert_eq!(s.solve(&[], &interrupted).unwrap().status, Status::Unknown);
                } else {
                    refused(s.solve(&[], &interrupted), "interrupts");
                }
                let expired = SolveOptions {
                    time_limit: Some(Duration::ZERO),
                    ..Default::default()
                };
                assert!(caps.time_limit);
                assert_eq!(s.solve(&[], &expired).unwrap().status, Status::Unknown);
                // Stopped solves leave the session usable.
                check_answer(
                    &s.solve(&[], &SolveOptions::default()).unwrap(),
                    &f,
                    &[],
                    "after a stop",
                );
                drop(s);
                // Only linear rows have right-hand sides; literals must be the formula's.
                let mut g = PbFormula::new(2);
                g.add("clause", Constraint::Clause(vec![Var(0).pos(), Var(1).pos()]));
                g.add(
                    "row",
                    Constraint::Linear(Linear::new(
                        vec![(1, Var(0).pos()), (1, Var(1).pos())],
                        Cmp::Le,
                        2,
                    )),
                );
                let mut s = b.session(&g, &SolveOptions::default()).unwrap();
                assert!(s.set_rhs(0, 1).is_err());
                assert!(s.set_rhs(2, 1).is_err());
                assert!(s.add_clause(&[Var(2).pos()]).is_err());
                assert!(s.solve(&[Var(5).pos()], &SolveOptions::default()).is_err());
                s.set_rhs(1, 0).unwrap();
                assert_eq!(
                    s.solve(&[], &SolveOptions::default()).unwrap().status,
                    Status::Unsat
                );
                s.set_rhs(1, 1).unwrap();
                let o = s.solve(&[], &SolveOptions::default()).unwrap();
                assert_eq!(o.status, Status::Sat);
                assert_eq!(o.assignment.unwrap().iter().filter(|&&x| x).count(), 1);
            }

            #[test]
            fn random_small_instances_match_brute_force() {
                let mut seed = 0x5eed_u64 ^ $name.len() as u64;
                for variant in ["tetrahedron", "octahedron"] {
                    let v = load_variant(variant, None, ("test", None)).unwrap();
                    for _ in 0..25 {
                        let tiles: Vec<[u64; 3]> = (0..v.num_faces())
                            .map(|_| [rng(&mut seed) % 4, rng(&mut seed) % 4, rng(&mut seed) % 4])
                            .collect();
                        let total: u64 = tiles.iter().flatten().sum();
                        // Random capacities with the right total: both outcomes occur.
                        let mut caps = vec![0u64; v.num_vertices()];
                        for _ in 0..total {
                            let k = (rng(&mut seed) as usize) % caps.len();
                            caps[k] += 1;
                        }
                        let fixed = if rng(&mut seed) % 3 == 0 {
                            vec![Fixed {
                                face: 0,
                                tile: 0,
                                rotation: None,
                            }]
                        } else {
                            vec![]
                        };
                        let inst = Instance {
                            source: "random".into(),
                            variant: v.clone(),
                            capacities: caps,
                            tiles,
                            fixed,
                        };
                        let want = if common::brute_force(&common::raw_of(&inst)) {
                            Status::Sat
                        } else {
                            Status::Unsat
                        };
                        assert_eq!(
                            run($name, &inst, Presolve::Off, None),
                            want,
                            "{:?} {:?}",
                            inst.capacities,
                            inst.tiles
                        );
                        assert_eq!(run($name, &inst, Presolve::On, None), want);
                    }
                }
            }
        }
    };
}

backend_suite!(sat, "sat");
backend_suite!(cp, "cp");
backend_suite!(search, "search");
backend_suite!(auto, "auto");
#[cfg(feature = "cadical")]
backend_suite!(cadical, "cadical");
#[cfg(feature = "mip")]
backend_suite!(mip, "mip");
#[cfg(feature = "highs")]
backend_suite!(highs, "highs");

/// `mitm` has its own suite (`tests/mitm.rs`): it enumerates at most 44 free variables, and
/// most of this suite's models (3SoKu's) have hundreds, which it refuses by design.
#[test]
fn every_backend_of_this_build_is_covered() {
    let mut covered = vec!["sat", "cp", "mitm", "search"];
    if cfg!(feature = "cadical") {
        covered.push("cadical");
    }
    if cfg!(feature = "mip") {
        covered.push("mip");
    }
    if cfg!(feature = "highs") {
        covered.push("highs");
    }
    let mut have = backend::available();
    have.sort();
    covered.sort();
    assert_eq!(have, covered);
}

//! One backend test suite, written once and instantiated for every backend of the build.

mod common;

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

macro_rules! backend_suite {
    ($modname:ident, $name:expr) => {
        mod $modname {
            use super::*;

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
                    let mut f = PbFormula {
                        num_vars: 2,
                        ..Default::default()
                    };
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
#[cfg(feature = "cadical")]
backend_suite!(cadical, "cadical");
#[cfg(feature = "mip")]
backend_suite!(mip, "mip");

#[test]
fn every_backend_of_the_build_is_covered() {
    let mut covered = vec!["sat", "cp", "search"];
    if cfg!(feature = "cadical") {
        covered.push("cadical");
    }
    if cfg!(feature = "mip") {
        covered.push("mip");
    }
    let mut have = backend::available();
    have.sort();
    covered.sort();
    assert_eq!(have, covered);
}

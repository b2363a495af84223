//! The seed's batches: 100 random IcoSoKu instances (all satisfiable) and the 100
//! "4-unsat" instances (capacities sum to 79, four tiles fixed).

mod common;

use sokuc::backend::{SolveOptions, Status, sat::varisat::Varisat};
use sokuc::input::batch::read_batch;
use sokuc::run;

use common::Presolve;

#[test]
fn icosoku100_all_solved_and_verified() {
    let items =
        read_batch(&common::root().join("instances/batches/icosoku100.txt")).expect("shared/ beside the checkout");
    assert_eq!(items.len(), 100);
    for item in &items {
        let r = run::solve(
            &item.instance,
            &mut Varisat,
            &Presolve::On.with(SolveOptions::default()),
        )
        .unwrap();
        assert_eq!(r.answer.status, Status::Sat, "line {}", item.line);
        assert!(r.answer.verified);
        sokuc::soku::verify::verify(&item.instance, r.answer.solution.as_ref().unwrap()).unwrap();
    }
}

#[test]
fn four_unsat_batch_is_unsat_by_presolve() {
    let items = read_batch(&common::root().join("instances/batches/unsat-icosoku100.txt")).unwrap();
    assert_eq!(items.len(), 100);
    for item in &items {
        assert_eq!(item.instance.fixed.len(), 4);
        let r = run::solve(
            &item.instance,
            &mut Varisat,
            &Presolve::On.with(SolveOptions::default()),
        )
        .unwrap();
        assert_eq!(r.answer.status, Status::Unsat, "line {}", item.line);
        let reason = r.answer.reason.unwrap();
        assert!(reason.contains("78") && reason.contains("79"), "{reason}");
    }
}

#[test]
fn four_unsat_batch_is_unsat_for_the_solver_too() {
    // Second opinion: without presolve the CNF itself must be unsatisfiable (the implied
    // global-sum row makes this a matter of propagation), and the arithmetic behind
    // presolve's reason is recomputed here from the raw batch line.
    let path = common::root().join("instances/batches/unsat-icosoku100.txt");
    let items = read_batch(&path).unwrap();
    let raw = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = raw.lines().collect();
    for item in &items {
        let caps: u64 = lines[item.line - 1]
            .split('\t')
            .next()
            .unwrap()
            .split_whitespace()
            .map(|x| x.parse::<u64>().unwrap())
            .sum();
        assert_eq!(caps, 79, "line {}", item.line);
        let r = run::solve(
            &item.instance,
            &mut Varisat,
            &Presolve::Off.with(SolveOptions::default()),
        )
        .unwrap();
        assert_eq!(r.answer.status, Status::Unsat, "line {}", item.line);
    }
}

//! The cardinality rows the MIP engines add beside knapsack rows
//! (`crates/engines/src/mip/rows.rs`) leave every answer as brute force has it: correlated
//! knapsacks of 20 items, some of their literals negated, optimised and decided at the
//! optimum and one past it, through each MIP backend of the build, with the rows reported
//! as added.
#![cfg(any(feature = "mip", feature = "highs"))]

mod common;

use common::{Rng, sokuc};
use serde_json::Value;

const ITEMS: usize = 20;

/// A strongly or inverse strongly correlated knapsack: weights, values, capacity, and which
/// items are written as the negation of their variable (`~x`: the item is taken when `x` is
/// false).
struct Knapsack {
    w: Vec<i64>,
    v: Vec<i64>,
    cap: i64,
    negated: Vec<bool>,
}

fn knapsack(rng: &mut Rng, inverse: bool) -> Knapsack {
    let mut w = Vec::new();
    let mut v = Vec::new();
    for _ in 0..ITEMS {
        let a = 1 + i64::try_from(rng.below(1000)).unwrap();
        let (wi, vi) = if inverse { (a + 100, a) } else { (a, a + 100) };
        w.push(wi);
        v.push(vi);
    }
    let cap = w.iter().sum::<i64>() / 2;
    let negated = (0..ITEMS).map(|_| rng.below(3) == 0).collect();
    Knapsack { w, v, cap, negated }
}

impl Knapsack {
    /// The best value, by trying every set of items.
    fn best(&self) -> i64 {
        (0u32..1 << ITEMS)
            .filter_map(|m| {
                let taken = |i: usize| m >> i & 1 == 1;
                let weight: i64 = (0..ITEMS).filter(|&i| taken(i)).map(|i| self.w[i]).sum();
                (weight <= self.cap).then(|| (0..ITEMS).filter(|&i| taken(i)).map(|i| self.v[i]).sum())
            })
            .max()
            .unwrap()
    }

    fn lit(&self, i: usize) -> String {
        format!("{}x{}", if self.negated[i] { "~" } else { "" }, i + 1)
    }

    fn terms(&self, c: &[i64], sign: i64) -> String {
        (0..ITEMS)
            .map(|i| format!("{:+} {} ", sign * c[i], self.lit(i)))
            .collect()
    }

    /// The capacity as a `>=` row of negated weights (as the competition writes `<=`).
    fn capacity(&self) -> String {
        format!("{}>= {} ;\n", self.terms(&self.w, -1), -self.cap)
    }

    fn optimisation(&self) -> String {
        format!("min: {};\n{}", self.terms(&self.v, -1), self.capacity())
    }

    fn decision(&self, at_least: i64) -> String {
        format!("{}{}>= {at_least} ;\n", self.capacity(), self.terms(&self.v, 1))
    }
}

fn run(file: &std::path::Path, backend: &str) -> Value {
    let out = sokuc()
        .args(["solve", "--backend", backend, "--timeout", "60", "--format", "json"])
        .arg(file)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{backend}: {e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn backends() -> Vec<&'static str> {
    let mut v = Vec::new();
    if cfg!(feature = "mip") {
        v.push("mip");
    }
    if cfg!(feature = "highs") {
        v.push("highs");
    }
    v
}

#[test]
fn correlated_knapsacks_keep_their_brute_force_answers() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..4 {
        let k = knapsack(&mut rng, case % 2 == 1);
        let best = k.best();
        let opt = dir.path().join(format!("opt-{case}.opb"));
        std::fs::write(&opt, k.optimisation()).unwrap();
        let sat = dir.path().join(format!("sat-{case}.opb"));
        std::fs::write(&sat, k.decision(best)).unwrap();
        let unsat = dir.path().join(format!("unsat-{case}.opb"));
        std::fs::write(&unsat, k.decision(best + 1)).unwrap();
        for backend in backends() {
            let rows = format!("{backend}_cardinality_rows");
            let o = run(&opt, backend);
            assert_eq!(o["optimal"], true, "case {case}, {backend}: {o}");
            assert_eq!(o["objective"], (-best).to_string(), "case {case}, {backend}: {o}");
            // The value row of the decisions gives a row too: at least so many items.
            let s = run(&sat, backend);
            assert_eq!(s["status"], "sat", "case {case}, {backend}: {s}");
            assert_eq!(s["verified"], true, "case {case}, {backend}: {s}");
            let u = run(&unsat, backend);
            assert_eq!(u["status"], "unsat", "case {case}, {backend}: {u}");
            for doc in [&o, &s, &u] {
                let added = doc["stats"]["extra"][&rows].as_u64();
                assert!(
                    added.is_some_and(|n| n >= 1),
                    "case {case}, {backend}: no {rows} in {doc}"
                );
            }
        }
    }
}

#[test]
fn the_puzzles_models_get_no_cardinality_rows() {
    // Their rows that hold half of the columns are equalities (the sum of the vertex rows):
    // counts from them only slowed CBC down.
    for file in [
        "instances/icosoku-seed.toml",
        "instances/tetrasoku-seed.toml",
        "instances/octahedron-pool.toml",
    ] {
        for backend in backends() {
            let doc = run(&common::root().join(file), backend);
            assert_eq!(doc["status"], "sat", "{file}, {backend}: {doc}");
            let rows = format!("{backend}_cardinality_rows");
            assert!(doc["stats"]["extra"].get(&rows).is_none(), "{file}, {backend}: {doc}");
        }
    }
}

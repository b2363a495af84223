//! A 0/1 knapsack optimised, its typed assignment read back, and the optimum checked
//! against dynamic programming.
//!
//! Run: `cargo run --example knapsack`

use sokuc::{Cmp, Model, Options, Status};

fn main() -> Result<(), sokuc::Error> {
    // (weight, value) of each item, and the capacity.
    let items: [(u64, u64); 12] = [
        (23, 92),
        (31, 57),
        (29, 49),
        (44, 68),
        (53, 60),
        (38, 43),
        (63, 67),
        (85, 84),
        (89, 87),
        (82, 72),
        (17, 31),
        (41, 55),
    ];
    let capacity = 165u64;

    let mut m = Model::new();
    let take = m.new_vars(items.len());
    m.add_linear(take.iter().zip(&items).map(|(&x, &(w, _))| (w, x)), Cmp::Le, capacity);
    m.maximise(take.iter().zip(&items).map(|(&x, &(_, v))| (v, x)));

    let outcome = m.solve(&Options::new())?;
    assert_eq!(outcome.status(), Status::Sat);
    assert_eq!(outcome.optimal(), Some(true), "the optimum is proven");
    let chosen: Vec<usize> = (0..items.len())
        .filter(|&i| outcome.value(take[i]) == Some(true))
        .collect();
    let weight: u64 = chosen.iter().map(|&i| items[i].0).sum();
    let value: u64 = chosen.iter().map(|&i| items[i].1).sum();
    assert!(weight <= capacity);
    assert_eq!(outcome.objective_value(), Some(&value.into()));

    // The textbook dynamic programme over capacities, as an independent check.
    let mut best = vec![0u64; capacity as usize + 1];
    for &(w, v) in &items {
        for c in (w as usize..=capacity as usize).rev() {
            best[c] = best[c].max(best[c - w as usize] + v);
        }
    }
    assert_eq!(value, best[capacity as usize]);

    println!("items {chosen:?}: weight {weight} of {capacity}, value {value} (optimal)");
    for claim in outcome.claims() {
        println!("evidence: {claim}");
    }
    Ok(())
}

//! The n-queens problem counted exactly: no solution is listed, the model's CNF is counted.
//!
//! Run: `cargo run --release --example nqueens -- 8`

use sokuc::{Count, Model, Var};

/// Solutions for n = 1..=10, as published (OEIS A000170).
const PUBLISHED: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q: Vec<Vec<Var>> = (0..n).map(|_| m.new_vars(n)).collect();
    for (c, row) in q.iter().enumerate() {
        m.add_exactly_one(row.iter().copied());
        // Column c: the c-th square of every row.
        m.add_at_most_one(q.iter().map(|r| r[c]));
    }
    // Each diagonal of either direction holds at most one queen.
    for d in 0..2 * n - 1 {
        let down = (0..n).filter_map(|r| (d + r + 1).checked_sub(n).filter(|&c| c < n).map(|c| q[r][c]));
        m.add_at_most_one(down);
        let up = (0..n).filter_map(|r| d.checked_sub(r).filter(|&c| c < n).map(|c| q[r][c]));
        m.add_at_most_one(up);
    }
    m
}

fn main() -> Result<(), sokuc::Error> {
    let n: usize = std::env::args().nth(1).map_or(8, |a| a.parse().expect("n, a number"));
    let count = queens(n).count(&Count::new())?.expect("no time limit");
    println!("{n} queens: {count} solutions");
    if let Some(&published) = PUBLISHED.get(n.wrapping_sub(1)) {
        assert_eq!(count, published.into(), "the published count");
    }
    Ok(())
}

//! The counter against brute force (every assignment enumerated) on random and degenerate
//! small CNFs, and on formulas whose counts are known.

use std::collections::HashSet;

use num_bigint::BigUint;

use super::{Stopped, count};
use crate::budget::Deadline;
use crate::encode::Cnf;
use crate::ir::{Lit, Var};

const MB: u64 = 1 << 20;

/// xorshift64*: the tests' own generator, so that a failure names a seed that replays it.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn lit(d: i64) -> Lit {
    Lit::from_dimacs(d)
}

fn cnf(num_vars: u32, clauses: &[&[i64]]) -> Cnf {
    let mut f = Cnf::new();
    f.num_vars = num_vars;
    for c in clauses {
        f.add_clause_public(&c.iter().map(|&d| lit(d)).collect::<Vec<_>>());
    }
    f
}

/// Distinct projections of the models, by enumerating all 2^n assignments.
fn brute(f: &Cnf, projection: &[Var]) -> u64 {
    let n = f.num_vars as usize;
    let mut seen = HashSet::new();
    let mut a = vec![false; n];
    for bits in 0u64..1 << n {
        for (i, x) in a.iter_mut().enumerate() {
            *x = bits >> i & 1 == 1;
        }
        if f.satisfied_by(&a) {
            let key: Vec<bool> = projection.iter().map(|v| a[v.index()]).collect();
            seen.insert(key);
        }
    }
    seen.len() as u64
}

fn ours(f: &Cnf, projection: &[Var]) -> u64 {
    let c = count(f, projection, 64 * MB, &Deadline::default()).unwrap();
    u64::try_from(&c.value).unwrap()
}

fn all(n: u32) -> Vec<Var> {
    (0..n).map(Var).collect()
}

fn random_cnf(rng: &mut Rng, n: u32, m: usize, max_len: u64) -> Cnf {
    let mut f = Cnf::new();
    f.num_vars = n;
    for _ in 0..m {
        let len = 1 + usize::try_from(rng.below(max_len)).unwrap();
        let c: Vec<Lit> = (0..len)
            .map(|_| Lit::new(Var(u32::try_from(rng.below(u64::from(n))).unwrap()), rng.below(2) == 0))
            .collect();
        f.add_clause_public(&c);
    }
    f
}

#[test]
fn random_small_cnfs_count_as_brute_force_does() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..600 {
        let n = 1 + u32::try_from(rng.below(14)).unwrap();
        // From sparse (many components, many models) to dense (few or none).
        let m = usize::try_from(rng.below(3 * u64::from(n) + 2)).unwrap();
        let max_len = 1 + rng.below(4);
        let f = random_cnf(&mut rng, n, m, max_len);
        let projection: Vec<Var> = match case % 5 {
            0 => all(n),
            1 => Vec::new(),
            _ => (0..n).filter(|_| rng.below(2) == 0).map(Var).collect(),
        };
        assert_eq!(
            ours(&f, &projection),
            brute(&f, &projection),
            "case {case}: {f:?} on {projection:?}"
        );
    }
}

#[test]
fn degenerate_formulas() {
    // No clause: every assignment of the projection.
    assert_eq!(ours(&cnf(5, &[]), &all(5)), 32);
    assert_eq!(ours(&cnf(5, &[]), &[]), 1);
    assert_eq!(ours(&cnf(0, &[]), &[]), 1);
    // The empty clause: nothing, projected or not.
    assert_eq!(ours(&cnf(3, &[&[]]), &all(3)), 0);
    assert_eq!(ours(&cnf(3, &[&[1, 2], &[]]), &[]), 0);
    // Unit clauses only, consistent and clashing.
    assert_eq!(ours(&cnf(4, &[&[1], &[-2], &[1]]), &all(4)), 4);
    assert_eq!(ours(&cnf(4, &[&[1], &[-1]]), &all(4)), 0);
    assert_eq!(ours(&cnf(4, &[&[1], &[-1]]), &[]), 0);
    // Repeated literals and tautologies.
    assert_eq!(ours(&cnf(2, &[&[1, 1, 1]]), &all(2)), 2);
    assert_eq!(ours(&cnf(2, &[&[1, -1]]), &all(2)), 4);
    assert_eq!(ours(&cnf(2, &[&[1, -1, 2], &[-2, -2]]), &all(2)), 2);
    // Repeated projection variables count once; one beyond the CNF's variables is free.
    assert_eq!(ours(&cnf(2, &[&[1, 2]]), &[Var(0), Var(0), Var(1)]), 3);
    assert_eq!(ours(&cnf(2, &[&[1, 2]]), &[Var(0), Var(5)]), 4);
    // Existential variables that make the projection unsatisfiable, or free.
    assert_eq!(ours(&cnf(3, &[&[3], &[-3]]), &[Var(0)]), 0);
    assert_eq!(ours(&cnf(3, &[&[1, 3], &[1, -3]]), &[Var(0), Var(1)]), 2);
    assert_eq!(ours(&cnf(3, &[&[2, 3], &[-2, 3]]), &[Var(0)]), 2);
}

/// Exactly one of `vars`, as pairwise at-most-one clauses and one at-least-one clause.
fn exactly_one(f: &mut Cnf, vars: &[u32]) {
    f.add_clause_public(&vars.iter().map(|&v| Var(v).pos()).collect::<Vec<_>>());
    for (i, &a) in vars.iter().enumerate() {
        for &b in &vars[i + 1..] {
            f.add_clause_public(&[Var(a).negative(), Var(b).negative()]);
        }
    }
}

#[test]
fn known_counts() {
    for k in 1..=30u32 {
        let mut f = Cnf::new();
        f.num_vars = k;
        exactly_one(&mut f, &(0..k).collect::<Vec<_>>());
        assert_eq!(ours(&f, &all(k)), k as u64);
    }
    // Pigeonhole: 6 pigeons, 5 holes.
    let (p, h) = (6u32, 5u32);
    let mut f = Cnf::new();
    f.num_vars = p * h;
    for i in 0..p {
        exactly_one(&mut f, &(0..h).map(|j| i * h + j).collect::<Vec<_>>());
    }
    for j in 0..h {
        for a in 0..p {
            for b in a + 1..p {
                f.add_clause_public(&[Var(a * h + j).negative(), Var(b * h + j).negative()]);
            }
        }
    }
    assert_eq!(ours(&f, &all(p * h)), 0);
    // With 5 pigeons the count is 5! = 120 placements.
    let mut g = Cnf::new();
    g.num_vars = 5 * 5;
    for i in 0..5 {
        exactly_one(&mut g, &(0..5).map(|j| i * 5 + j).collect::<Vec<_>>());
    }
    for j in 0..5 {
        exactly_one(&mut g, &(0..5).map(|i| i * 5 + j).collect::<Vec<_>>());
    }
    assert_eq!(ours(&g, &all(25)), 120);
}

#[test]
fn independent_components_multiply_beyond_128_bits() {
    // 60 disjoint exactly-one-of-5 groups: 5^60 (about 2^139), and 300 free variables more.
    let mut f = Cnf::new();
    f.num_vars = 300;
    for g in 0..60 {
        exactly_one(&mut f, &(5 * g..5 * g + 5).collect::<Vec<_>>());
    }
    let c = count(&f, &all(600), 64 * MB, &Deadline::default()).unwrap();
    assert_eq!(c.value, BigUint::from(5u32).pow(60) << 300);
    // Symmetric groups are one cache entry each time they recur... but each group has its
    // own variables, so here it is decomposition that does the work: no search blows up.
    assert!(c.stats.decisions < 10_000, "{:?}", c.stats);
}

#[test]
fn projection_hides_auxiliaries() {
    // y_i <-> (x_i and x_{i+1}) for a chain: 2^n projected on x whatever the y do.
    let n = 12u32;
    let mut f = Cnf::new();
    f.num_vars = 2 * n - 1;
    for i in 0..n - 1 {
        let (x, x1, y) = (Var(i).pos(), Var(i + 1).pos(), Var(n + i).pos());
        f.add_clause_public(&[!y, x]);
        f.add_clause_public(&[!y, x1]);
        f.add_clause_public(&[y, !x, !x1]);
    }
    assert_eq!(ours(&f, &all(n)), 1 << n);
    assert_eq!(ours(&f, &all(2 * n - 1)), 1 << n);
}

#[test]
fn a_tiny_memory_limit_still_counts_or_says_so() {
    let mut rng = Rng(7);
    for _ in 0..40 {
        let f = random_cnf(&mut rng, 14, 30, 3);
        let want = brute(&f, &all(10));
        // A cache too small for most entries only costs time, never correctness.
        match count(&f, &all(10), 4096, &Deadline::default()) {
            Ok(c) => assert_eq!(u64::try_from(&c.value).unwrap(), want),
            Err(Stopped::Memory { needed, limit }) => assert!(needed > limit),
            Err(e) => panic!("{e}"),
        }
        let c = count(&f, &all(10), 40_000, &Deadline::default()).unwrap();
        assert_eq!(u64::try_from(&c.value).unwrap(), want);
        assert!(c.stats.peak_cache_bytes <= 40_000, "{:?}", c.stats);
    }
    // Not even the formula fits.
    let f = random_cnf(&mut rng, 14, 300, 3);
    assert!(matches!(
        count(&f, &all(14), 100, &Deadline::default()),
        Err(Stopped::Memory { .. })
    ));
}

#[test]
fn a_passed_deadline_stops_the_count() {
    let d = Deadline::new(Some(std::time::Duration::ZERO), None);
    // A count that needs many components (a chain of 3-clauses over 400 variables).
    let mut rng = Rng(11);
    let mut f = Cnf::new();
    f.num_vars = 400;
    for _ in 0..700 {
        let c: Vec<Lit> = (0..3)
            .map(|_| Lit::new(Var(u32::try_from(rng.below(400)).unwrap()), rng.below(2) == 0))
            .collect();
        f.add_clause_public(&c);
    }
    assert_eq!(count(&f, &all(400), 64 * MB, &d), Err(Stopped::Time));
}

//! Rows too wide for 64 bits over few variables, as the clauses they mean.
//!
//! A row of a handful of terms with 160-bit coefficients forbids only a few of its `2^k`
//! assignments, but split into digit columns (`ir/digits.rs`) it becomes a chain of carries
//! that no engine propagates through well: on the PB benchmark's planted big-int files
//! (rows of six 80- and 160-bit terms), `auto` found no solution within 60 s, where a
//! cutting-planes solver, which reads such rows whole, answers in a tenth of a second.
//!
//! Over positive coefficients, `Σ a_i·l_i >= b` fails exactly when the literals that are
//! true add up to less than `b`. So a set `C` of its literals is a clause the row implies
//! when the others alone cannot reach `b` (`Σ_{i∉C} a_i < b`), and the row is the
//! conjunction of its minimal such sets: any falsifying assignment makes its false literals
//! such a set, which contains a minimal one. An `=` row is the `>=` row and the `>=` row of
//! its negated literals (`Σ a_i·¬l_i >= Σ a_i - b`). Everything is computed in exact
//! arithmetic; the verifier still checks the file's own rows.

use num_bigint::BigInt;

use crate::ir::{Cmp, Lit};

/// Rows of at most this many terms become clauses: 256 subsets to look at, and at most
/// `C(8,4) = 70` minimal clauses per `>=` row.
pub(super) const FEW_TERMS: usize = 8;

/// The clauses of `Σ terms cmp rhs` (positive coefficients, distinct variables, `>=` or
/// `=`, neither always true nor never: `0 < rhs <= Σ a_i`, as `normalise` leaves a wide
/// row), or `None` when the row has more than [`FEW_TERMS`] terms.
pub(super) fn clauses(terms: &[(BigInt, Lit)], cmp: Cmp, rhs: &BigInt) -> Option<Vec<Vec<Lit>>> {
    if terms.len() > FEW_TERMS {
        return None;
    }
    let total: BigInt = terms.iter().map(|t| &t.0).sum();
    let lits: Vec<Lit> = terms.iter().map(|t| t.1).collect();
    let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
    let coefs: Vec<&BigInt> = terms.iter().map(|t| &t.0).collect();
    Some(match cmp {
        Cmp::Ge => at_least(&coefs, &lits, rhs, &total),
        // Σ a·l <= R  <=>  Σ a·¬l >= Σa - R
        Cmp::Le => at_least(&coefs, &negated, &(&total - rhs), &total),
        Cmp::Eq => {
            let mut cs = at_least(&coefs, &lits, rhs, &total);
            cs.extend(at_least(&coefs, &negated, &(&total - rhs), &total));
            cs
        }
    })
}

/// The minimal clauses of `Σ coefs[i]·lits[i] >= b`.
fn at_least(coefs: &[&BigInt], lits: &[Lit], b: &BigInt, total: &BigInt) -> Vec<Vec<Lit>> {
    if b > total {
        return vec![Vec::new()];
    }
    let k = lits.len();
    // sum[mask]: the coefficients of the literals in `mask`, built from the mask without
    // its lowest bit.
    let mut sum: Vec<BigInt> = Vec::with_capacity(1 << k);
    sum.push(BigInt::default());
    for mask in 1usize..1 << k {
        let low = mask.trailing_zeros() as usize;
        let rest = sum[mask & (mask - 1)].clone();
        sum.push(rest + coefs[low]);
    }
    // Implied: with every literal of `mask` false, the others reach less than `b`.
    let implied = |mask: usize| total - &sum[mask] < *b;
    let mut out = Vec::new();
    for mask in 1usize..1 << k {
        if implied(mask) && (0..k).all(|i| mask & (1 << i) == 0 || !implied(mask & !(1 << i))) {
            out.push((0..k).filter(|i| mask & (1 << i) != 0).map(|i| lits[i]).collect());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Var;

    fn holds_row(terms: &[(BigInt, Lit)], cmp: Cmp, rhs: &BigInt, x: &[bool]) -> bool {
        let s: BigInt = terms
            .iter()
            .filter(|t| x[t.1.var().0 as usize] == t.1.is_positive())
            .map(|t| &t.0)
            .sum();
        match cmp {
            Cmp::Ge => s >= *rhs,
            Cmp::Le => s <= *rhs,
            Cmp::Eq => s == *rhs,
        }
    }

    fn holds_clauses(cs: &[Vec<Lit>], x: &[bool]) -> bool {
        cs.iter()
            .all(|c| c.iter().any(|l| x[l.var().0 as usize] == l.is_positive()))
    }

    /// Every row of up to [`FEW_TERMS`] terms with wide random coefficients, each sign of
    /// literal and each comparison: the clauses hold on exactly the assignments the row
    /// holds on, and none is implied by another (minimal).
    #[test]
    fn the_clauses_hold_exactly_where_the_row_holds() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut kinds = [0usize; 2];
        for round in 0..600 {
            let k = 1 + round % FEW_TERMS;
            let terms: Vec<(BigInt, Lit)> = (0..k)
                .map(|i| {
                    // 1 to 3 words: up to 192 bits, with small ones mixed in.
                    let words = 1 + next() % 3;
                    let mut c = BigInt::from(1 + next() % 5);
                    for _ in 1..words {
                        c = (c << 64) + BigInt::from(next());
                    }
                    (c, Lit::new(Var(i as u32), next() % 2 == 0))
                })
                .collect();
            let total: BigInt = terms.iter().map(|t| &t.0).sum();
            // A right-hand side inside (0, total], often an exact subset sum (for `=`).
            let rhs = if next() % 2 == 0 {
                terms.iter().filter(|_| next() % 2 == 0).map(|t| &t.0).sum::<BigInt>()
            } else {
                &total * BigInt::from(next() % 1000) / 1000
            };
            if rhs <= BigInt::default() || rhs > total {
                continue;
            }
            for cmp in [Cmp::Ge, Cmp::Le, Cmp::Eq] {
                let cs = clauses(&terms, cmp, &rhs).unwrap();
                for a in 0usize..1 << k {
                    let x: Vec<bool> = (0..k).map(|i| a & (1 << i) != 0).collect();
                    let want = holds_row(&terms, cmp, &rhs, &x);
                    assert_eq!(holds_clauses(&cs, &x), want, "{terms:?} {cmp:?} {rhs}: {x:?}");
                    kinds[usize::from(want)] += 1;
                }
                if cmp != Cmp::Eq {
                    // Minimal: no clause contains another.
                    for (i, c) in cs.iter().enumerate() {
                        for (j, d) in cs.iter().enumerate() {
                            assert!(i == j || !d.iter().all(|l| c.contains(l)), "{cs:?}");
                        }
                    }
                }
            }
        }
        assert!(kinds[0] > 1000 && kinds[1] > 1000, "{kinds:?}");
        let big = (0..=FEW_TERMS)
            .map(|i| (BigInt::from(1) << 100, Lit::new(Var(i as u32), true)))
            .collect::<Vec<_>>();
        assert!(clauses(&big, Cmp::Ge, &BigInt::from(5)).is_none());
    }
}

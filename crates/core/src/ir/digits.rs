//! Rows written as digit columns with carries: OPB rows too wide for the IR's 64-bit rows (issue
//! 17), and rows too wide for CBC's tolerances (the `mip` backend).
//!
//! A normalised row `Σ a_i·l_i >= b` (every `a_i > 0`) holds exactly when the slack
//! `t = Σ a_i·l_i - b` is at least 0, i.e. when `Σ a_i·l_i - Σ_j 2^j·t_j = b` for some bits
//! `t_j` (`t` is at most `Σ a_i - b`, so `bitlen(Σ a_i - b)` bits are enough; an `=` row
//! needs no slack). That one wide equality is then checked digit by digit in base `B = 2^k`,
//! as one adds by hand: column `d` says
//!
//! ```text
//! Σ_i a_{i,d}·l_i - Σ_{t_j in column d} 2^(j-kd)·t_j + c_{d-1} - B·c_d = b_d
//! ```
//!
//! with `c_{-1} = 0` and the last carry `0`. Multiplying column `d` by `B^d` and adding up,
//! the carries cancel and the wide equality is left, so every solution of the columns
//! solves the row; conversely the prefix sums of a solution of the row are multiples of
//! `B^(d+1)` and define the carries. Each carry `c_d` lies between the bounds that the
//! column's lowest `d+1` digits can produce (computed exactly below, so both signs), and is
//! the integer `lo_d + Σ_j 2^j·u_{d,j}` over fresh bits. Given the file's variables, the
//! slack and every carry are determined, so the auxiliary bits never add solutions: they
//! are not primary, and counting over all variables would give the same number.
//!
//! Every column row has coefficients below `B·2(n+2)` for `n` terms, so with `k` at most
//! [`MAX_DIGIT_BITS`] and at most 2^25 terms (the OPB reader's limit) it stays far below 2^62: every
//! encoder and backend (SAT, MIP numerics, CP's 32-bit domains for small `k`) takes it as it
//! is. The caller normalises each column as any `=` row (gcd, units, exactly-one).

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive};

use super::{Cmp, Lit, Var};

/// The widest digit: column rows of `n` terms stay below `2^(k+2)·(n+2)`.
pub const MAX_DIGIT_BITS: u32 = 24;

/// An auxiliary variable of one split row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Aux {
    /// Bit `j` of the slack `Σ a·l - b` of a `>=` row.
    Slack(u32),
    /// Bit `j` of carry `d` (the carry out of column `d`, minus its lowest value).
    Carry(u32, u32),
}

/// When and how a row is split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// Rows whose coefficients and right-hand side add up to less than `2^above` (as the file
    /// wrote them, or once normalised) stay one IR row; wider ones are split. At most 62.
    pub above: u32,
    /// Digits of base `2^digit_bits`, 1 to [`MAX_DIGIT_BITS`].
    pub digit_bits: u32,
}

impl Default for Split {
    /// Base 16. Narrower digits (base 2) make each column a tiny adder but chain many
    /// carries, which the propagation of `search`, `cp` and `mip` handles badly; wider ones
    /// (base 2^8 and up) make the pseudo-polynomial CNF encodings grow with `B` past the
    /// clause budget. Measured on the BIGINT files in `encodings/pb-bigint.md`.
    fn default() -> Split {
        Split {
            above: 62,
            digit_bits: 4,
        }
    }
}

/// Why no assignment satisfies a row (found while splitting it), or why it cannot be split.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoSplit(pub String);

/// One column: `Σ coef·lit = rhs`, every coefficient positive.
pub type Column = (Vec<(i64, Lit)>, i64);

/// The columns of `Σ terms cmp rhs` (`cmp` is `>=` or `=`, every coefficient positive, the
/// variables distinct). `new_var` makes each auxiliary variable once. `Err` says why no
/// assignment can satisfy the row.
pub fn split(
    terms: &[(BigUint, Lit)],
    cmp: Cmp,
    rhs: &BigUint,
    digit_bits: u32,
    new_var: &mut dyn FnMut(Aux) -> Var,
) -> Result<Vec<Column>, NoSplit> {
    let k = digit_bits.clamp(1, MAX_DIGIT_BITS);
    let total: BigUint = terms.iter().map(|t| &t.0).sum();
    if &total < rhs {
        return Err(NoSplit(format!("the left side reaches at most {total} < {rhs}")));
    }
    let slack_bits = match cmp {
        Cmp::Ge => u32::try_from((&total - rhs).bits()).map_err(|_| NoSplit("the row is too wide".into()))?,
        _ => 0,
    };
    let width = terms
        .iter()
        .map(|t| t.0.bits())
        .chain([rhs.bits(), u64::from(slack_bits), 1])
        .max()
        .unwrap_or(1);
    let columns = u32::try_from(width.div_ceil(u64::from(k))).map_err(|_| NoSplit("the row is too wide".into()))?;
    let slack: Vec<Var> = (0..slack_bits).map(|j| new_var(Aux::Slack(j))).collect();
    // Carries 0..columns-1; the last is 0 (no digit above the widest number).
    let mut carries: Vec<(i64, Vec<Var>)> = Vec::new();
    for d in 0..columns - 1 {
        let (lo, hi) = carry_range(terms, rhs, slack_bits, k, d)?;
        let w = 64 - (hi - lo).leading_zeros();
        carries.push((lo, (0..w).map(|j| new_var(Aux::Carry(d, j))).collect()));
    }
    let base = 1i128 << k;
    let mut out = Vec::with_capacity(columns as usize);
    for d in 0..columns {
        // Signed terms first, then every negative coefficient moves onto the negated literal.
        let mut signed: Vec<(i128, Lit)> = Vec::new();
        let mut want = i128::from(digit(rhs, k, d));
        for (a, l) in terms {
            let ad = digit(a, k, d);
            if ad != 0 {
                signed.push((i128::from(ad), *l));
            }
        }
        for j in (k * d)..(k * (d + 1)).min(slack_bits) {
            signed.push((-(1i128 << (j - k * d)), Lit::new(slack[j as usize], true)));
        }
        if d > 0 {
            let (lo, bits) = &carries[d as usize - 1];
            want -= i128::from(*lo);
            for (j, &u) in bits.iter().enumerate() {
                signed.push((1i128 << j, Lit::new(u, true)));
            }
        }
        if d + 1 < columns {
            let (lo, bits) = &carries[d as usize];
            want += base * i128::from(*lo);
            for (j, &u) in bits.iter().enumerate() {
                signed.push((-(base << j), Lit::new(u, true)));
            }
        }
        let mut row = Vec::with_capacity(signed.len());
        for (c, l) in signed {
            if c < 0 {
                // c·x = c + |c|·~x
                want -= c;
                row.push((-c, !l));
            } else {
                row.push((c, l));
            }
        }
        // Bounded by the module comment's 2^(k+2)·(n+2) with n ≤ 2^25 terms: always fits.
        let fit = |x: i128| i64::try_from(x).map_err(|_| NoSplit("a digit column is too wide".into()));
        let row: Result<Vec<(i64, Lit)>, NoSplit> = row.into_iter().map(|(c, l)| Ok((fit(c)?, l))).collect();
        out.push((row?, fit(want)?));
    }
    Ok(out)
}

/// What splitting one IR row gives (see [`split_linear`]).
// The MIP backends split their wide rows so; the other engines take the digit columns of a
// `WideRow` as built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Columns {
    /// The columns, as `=` rows with positive coefficients.
    Rows(Vec<super::Linear>),
    /// Every assignment satisfies the row: nothing to write.
    Holds,
    /// No assignment satisfies the row, and why.
    Fails(String),
}

/// The digit columns (base `2^digit_bits`) of an IR row, whose terms may repeat a variable
/// and have either sign: merged per variable into `Σ a·l >= b` or `= b` with every `a > 0`
/// (a `<=` row is negated; `c·x` with `c < 0` is `c + |c|·¬x`), then [`split`]. Exact in
/// `i128`: an IR row's coefficients are `i64`.
pub fn split_linear(lin: &super::Linear, digit_bits: u32, new_var: &mut dyn FnMut(Aux) -> Var) -> Columns {
    use super::Linear;
    use std::collections::BTreeMap;

    let sign: i128 = if lin.cmp == Cmp::Le { -1 } else { 1 };
    let cmp = if lin.cmp == Cmp::Eq { Cmp::Eq } else { Cmp::Ge };
    // Net coefficient of each variable's positive literal, and the constant moved right.
    let mut net: BTreeMap<Var, i128> = BTreeMap::new();
    let mut rhs = sign * i128::from(lin.rhs);
    for &(c, l) in &lin.terms {
        let c = sign * i128::from(c);
        if l.is_positive() {
            *net.entry(l.var()).or_default() += c;
        } else {
            // c·¬x = c - c·x
            *net.entry(l.var()).or_default() -= c;
            rhs -= c;
        }
    }
    let mut terms: Vec<(BigUint, Lit)> = Vec::new();
    for (v, c) in net {
        match c {
            0 => {}
            c if c > 0 => terms.push((BigUint::from(c.unsigned_abs()), Lit::new(v, true))),
            c => {
                rhs -= c;
                terms.push((BigUint::from(c.unsigned_abs()), Lit::new(v, false)));
            }
        }
    }
    if rhs < 0 {
        return match cmp {
            Cmp::Eq => Columns::Fails(format!("its positive side would have to add up to {rhs}")),
            _ => Columns::Holds,
        };
    }
    if rhs == 0 && cmp == Cmp::Ge {
        return Columns::Holds;
    }
    match split(&terms, cmp, &BigUint::from(rhs.unsigned_abs()), digit_bits, new_var) {
        Ok(cols) => Columns::Rows(cols.into_iter().map(|(t, b)| Linear::new(t, Cmp::Eq, b)).collect()),
        Err(NoSplit(why)) => Columns::Fails(why),
    }
}

/// Digit `d` of `x` in base `2^k`.
fn digit(x: &BigUint, k: u32, d: u32) -> u64 {
    let mask = (BigUint::one() << k) - 1u32;
    ((x >> (u64::from(k) * u64::from(d))) & mask).to_u64().unwrap_or(0)
}

/// The values carry `d` can take: the prefix `P_d` of the row's columns `0..=d`
/// (left side minus slack minus right-hand side, lowest `k(d+1)` bits of each number) over
/// every assignment, divided by `B^(d+1)` (a solution makes `P_d` a multiple of it).
fn carry_range(
    terms: &[(BigUint, Lit)],
    rhs: &BigUint,
    slack_bits: u32,
    k: u32,
    d: u32,
) -> Result<(i64, i64), NoSplit> {
    let bits = u64::from(k) * u64::from(d + 1);
    let m = BigInt::one() << bits;
    let low = |x: &BigUint| BigInt::from(x.clone()) % &m;
    let b_low = low(rhs);
    let a_low: BigInt = terms.iter().map(|t| low(&t.0)).sum();
    let t_max: BigInt = (BigInt::one() << bits.min(u64::from(slack_bits))) - 1;
    let max_p = a_low - &b_low;
    let min_p = -t_max - b_low;
    let hi = floor_div(&max_p, &m);
    let lo = -floor_div(&-min_p, &m);
    if lo > hi {
        return Err(NoSplit(format!(
            "its two sides never agree in their lowest {bits} bits (no multiple of 2^{bits} in the range of their difference)"
        )));
    }
    // lo ≥ -1 and hi < number of terms: both fit.
    let as_i64 = |x: &BigInt| x.to_i64().ok_or_else(|| NoSplit("a carry is too wide".into()));
    Ok((as_i64(&lo)?, as_i64(&hi)?))
}

/// `⌊a / m⌋` for `m > 0` (BigInt's `/` rounds toward zero).
fn floor_div(a: &BigInt, m: &BigInt) -> BigInt {
    if a.is_negative() {
        let up: BigInt = (-a + m - 1) / m;
        -up
    } else {
        a / m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Linear;

    /// The column system over every assignment of the row's literals and the auxiliaries:
    /// which assignments of the row's variables have some auxiliary values that satisfy it.
    fn column_solutions(coefs: &[u64], cmp: Cmp, rhs: u64, k: u32) -> Result<Vec<bool>, NoSplit> {
        let n = coefs.len() as u32;
        let terms: Vec<(BigUint, Lit)> = coefs
            .iter()
            .enumerate()
            .map(|(i, &c)| (BigUint::from(c), Lit::new(Var(i as u32), true)))
            .collect();
        let mut aux = Vec::new();
        let mut next = n;
        let cols = split(&terms, cmp, &BigUint::from(rhs), k, &mut |a| {
            aux.push(a);
            next += 1;
            Var(next - 1)
        })?;
        let total = next;
        assert!(total - n <= 16, "too many auxiliaries to enumerate");
        let mut unique = true;
        let sols = (0..1u32 << n)
            .map(|x| {
                let hits = (0..1u32 << (total - n))
                    .filter(|y| {
                        let a: Vec<bool> = (0..total)
                            .map(|v| if v < n { x >> v & 1 == 1 } else { y >> (v - n) & 1 == 1 })
                            .collect();
                        cols.iter()
                            .all(|(row, r)| row.iter().filter(|(_, l)| l.eval(&a)).map(|(c, _)| c).sum::<i64>() == *r)
                    })
                    .count();
                unique &= hits <= 1;
                hits > 0
            })
            .collect();
        assert!(
            unique,
            "the auxiliaries of {coefs:?} {cmp} {rhs} (k = {k}) are not determined"
        );
        Ok(sols)
    }

    fn brute(coefs: &[u64], cmp: Cmp, rhs: u64) -> Vec<bool> {
        (0..1u32 << coefs.len())
            .map(|x| {
                let s: u64 = coefs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| x >> i & 1 == 1)
                    .map(|(_, c)| c)
                    .sum();
                if cmp == Cmp::Ge { s >= rhs } else { s == rhs }
            })
            .collect()
    }

    #[test]
    fn columns_have_the_solutions_of_the_row_with_determined_auxiliaries() {
        let rows: &[&[u64]] = &[
            &[1],
            &[5],
            &[3, 3, 3],
            &[4, 4, 4, 4],
            &[1, 2, 4, 8],
            &[7, 5, 3],
            &[16, 1, 9],
            &[13, 11, 6, 2],
        ];
        for coefs in rows {
            let sum: u64 = coefs.iter().sum();
            for cmp in [Cmp::Ge, Cmp::Eq] {
                for rhs in 1..=sum {
                    for k in [1, 2, 3, 4] {
                        // A row refused outright has no solution.
                        let got =
                            column_solutions(coefs, cmp, rhs, k).unwrap_or_else(|_| vec![false; 1 << coefs.len()]);
                        assert_eq!(got, brute(coefs, cmp, rhs), "{coefs:?} {cmp} {rhs}, k = {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_rhs_above_the_sum_is_refused_and_a_parity_clash_is_caught_in_column_zero() {
        assert!(column_solutions(&[2, 3], Cmp::Ge, 6, 1).is_err());
        // Even coefficients, odd right-hand side: the lowest bits never agree.
        let e = column_solutions(&[2, 4, 6], Cmp::Eq, 5, 1).unwrap_err();
        assert!(e.0.contains("lowest 1 bits"), "{e}");
    }

    #[test]
    fn a_2_to_255_coefficient_gives_small_columns() {
        let big = BigUint::one() << 255u32;
        let terms = vec![
            (big.clone(), Lit::new(Var(0), true)),
            (big.clone() - 1u32, Lit::new(Var(1), true)),
        ];
        let mut next = 2;
        let cols = split(&terms, Cmp::Ge, &big, 8, &mut |_| {
            next += 1;
            Var(next - 1)
        })
        .unwrap();
        assert_eq!(cols.len(), 32);
        for (row, rhs) in &cols {
            assert!(row.iter().all(|(c, _)| *c > 0 && *c < 1 << 12), "{row:?}");
            assert!(*rhs < 1 << 14);
        }
    }

    /// `split_linear` on IR rows with both signs, negated literals and a variable twice:
    /// given the row's variables, the columns have a solution (exactly one) exactly when the
    /// row holds, in every base from 2 to 8, for every comparison and many right-hand sides.
    #[test]
    fn split_linear_keeps_exactly_the_rows_solutions() {
        let x = |v: u32, pos: bool| Lit::new(Var(v), pos);
        let shapes: Vec<Vec<(i64, Lit)>> = vec![
            vec![(5, x(0, true)), (-3, x(1, true)), (6, x(2, false))],
            vec![(4, x(0, true)), (4, x(1, false)), (-4, x(2, false))],
            vec![(3, x(0, true)), (2, x(0, false)), (7, x(1, true))],
            vec![(-1, x(0, false)), (-2, x(1, false)), (-4, x(2, true))],
            vec![(9, x(0, true)), (-9, x(0, true)), (1, x(1, true))],
        ];
        for terms in shapes {
            for cmp in [Cmp::Le, Cmp::Ge, Cmp::Eq] {
                for rhs in -14..=14 {
                    let lin = Linear::new(terms.clone(), cmp, rhs);
                    for k in 1..=3 {
                        let n = 3u32;
                        let mut next = n;
                        let got = split_linear(&lin, k, &mut |_| {
                            next += 1;
                            Var(next - 1)
                        });
                        let aux = next - n;
                        assert!(aux <= 14, "{aux} auxiliaries");
                        for m in 0..1u32 << n {
                            let a: Vec<bool> = (0..n).map(|v| m >> v & 1 == 1).collect();
                            let want = lin.holds(&a);
                            let hits = match &got {
                                Columns::Holds => 1,
                                Columns::Fails(_) => 0,
                                Columns::Rows(cols) => (0..1u32 << aux)
                                    .filter(|y| {
                                        let full: Vec<bool> =
                                            a.iter().copied().chain((0..aux).map(|j| y >> j & 1 == 1)).collect();
                                        cols.iter().all(|c| {
                                            c.cmp == Cmp::Eq && c.terms.iter().all(|&(q, _)| q > 0) && c.holds(&full)
                                        })
                                    })
                                    .count(),
                            };
                            assert_eq!(hits > 0, want, "{lin:?} base 2^{k} at {a:?}: {got:?}");
                            assert!(hits <= 1, "{lin:?} base 2^{k}: auxiliaries not determined");
                        }
                    }
                }
            }
        }
    }
}

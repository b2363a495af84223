//! Farkas certificates: multipliers on a formula's rows that prove its LP relaxation has no
//! solution, and their exact check.
//!
//! Every row `a·x (≤, ≥, =) b` of the relaxation (see `relax.rs`) holds for every solution,
//! so does `y · (a·x − b) ≥ 0` when `y ≥ 0` on a `≥` row, `y ≤ 0` on a `≤` row, and `y` of
//! either sign on an `=` row. Adding these up gives one row `c·x ≥ d` that every solution
//! satisfies, with `c = Σ y_i a_i` and `d = Σ y_i b_i`. Over the box `[0, 1]ⁿ` its left side
//! is at most `Σ_j max(c_j, 0)`; when that is below `d`, no point of the box satisfies the
//! rows, so no 0/1 assignment does, and the formula is unsatisfiable.
//!
//! The simplex finds `y` in floating point; nothing it says is trusted. [`from_duals`] turns
//! its multipliers into integers (scaling by a common denominator) and [`check`] redoes the
//! argument above in `i128` with overflow checks, from the formula itself. A certificate that
//! does not pass is no argument at all, and the run goes on to the backend.

use std::collections::HashMap;

use super::relax::{self, Row};
use crate::ir::{Cmp, PbFormula};

/// Integer multipliers on constraints of a formula (by index), zero ones left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    pub multipliers: Vec<(usize, i128)>,
}

/// What a certificate that passed adds up to: `c·x ≥ rhs`, whose left side is at most
/// `max` on the box, and `max < rhs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    pub max: i128,
    pub rhs: i128,
}

/// Why a certificate is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejected {
    #[error("the formula has no constraint #{0}")]
    NoSuchRow(usize),
    #[error("constraint #{row} is a {cmp} row, and a multiplier of {multiplier} turns it around")]
    WrongSign { row: usize, cmp: Cmp, multiplier: i128 },
    #[error("the sum overflows 128-bit integers")]
    Overflow,
    #[error("the rows add up to a row with left side at most {max} and right side {rhs}, which the box satisfies")]
    Satisfiable { max: i128, rhs: i128 },
}

/// Whether a multiplier of this sign keeps the row's direction (`≥` after scaling).
fn sign_ok(cmp: Cmp, y: i128) -> bool {
    match cmp {
        Cmp::Ge => y >= 0,
        Cmp::Le => y <= 0,
        Cmp::Eq => true,
    }
}

/// The check, with `row(i)` giving constraint `i` as a row.
fn check_with<'a>(row: impl Fn(usize) -> Option<&'a Row>, cert: &Certificate) -> Result<Checked, Rejected> {
    let mut c: HashMap<u32, i128> = HashMap::new();
    let mut d: i128 = 0;
    for &(i, y) in &cert.multipliers {
        let row = row(i).ok_or(Rejected::NoSuchRow(i))?;
        if !sign_ok(row.cmp, y) {
            return Err(Rejected::WrongSign {
                row: i,
                cmp: row.cmp,
                multiplier: y,
            });
        }
        for &(v, a) in &row.terms {
            let t = a.checked_mul(y).ok_or(Rejected::Overflow)?;
            let e = c.entry(v).or_insert(0);
            *e = e.checked_add(t).ok_or(Rejected::Overflow)?;
        }
        d = row
            .rhs
            .checked_mul(y)
            .and_then(|t| d.checked_add(t))
            .ok_or(Rejected::Overflow)?;
    }
    let mut max: i128 = 0;
    for &cj in c.values() {
        if cj > 0 {
            max = max.checked_add(cj).ok_or(Rejected::Overflow)?;
        }
    }
    if max < d {
        Ok(Checked { max, rhs: d })
    } else {
        Err(Rejected::Satisfiable { max, rhs: d })
    }
}

/// Checks `cert` against `f` exactly: `Ok` only if the multiplied rows of `f` add up to a
/// row that no point of `[0, 1]ⁿ` satisfies. The rows are built here from the formula
/// (only those the certificate names), whatever built the certificate.
pub fn check(f: &PbFormula, cert: &Certificate) -> Result<Checked, Rejected> {
    let rows: HashMap<usize, Row> = cert
        .multipliers
        .iter()
        .filter(|&&(i, _)| i < f.constraints().len())
        .map(|&(i, _)| (i, relax::row(f, i)))
        .collect();
    check_with(|i| rows.get(&i), cert)
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The first continued-fraction convergent of `x` within `tol` of it, if its denominator
/// is at most `max_den`: `(numerator, denominator)`. Duals of these 0/1 models are small
/// fractions, which this recovers exactly from their rounded values.
fn rational(x: f64, max_den: i128, tol: f64) -> Option<(i128, i128)> {
    let (mut h0, mut h1) = (0i128, 1i128);
    let (mut k0, mut k1) = (1i128, 0i128);
    let mut r = x;
    for _ in 0..64 {
        let a = r.floor();
        if a.abs() > 1e15 {
            return None;
        }
        let a = a as i128;
        (h0, h1) = (h1, a * h1 + h0);
        (k0, k1) = (k1, a * k1 + k0);
        if k1 > max_den {
            return None;
        }
        if (x - h1 as f64 / k1 as f64).abs() <= tol {
            return Some((h1, k1));
        }
        let frac = r - a as f64;
        if frac.abs() < 1e-15 {
            return Some((h1, k1));
        }
        r = 1.0 / frac;
    }
    None
}

/// Integer multipliers from floating-point ones, `y[i]` for row `i`: first the exact small
/// fractions they approximate over one common denominator, then finer and finer scalings.
/// The first that passes [`check`] (on `rows`, built by `relax::rows` from the formula) is
/// returned, divided by the common factor of its multipliers.
pub fn from_duals(rows: &[Row], y: &[f64]) -> Option<(Certificate, Checked)> {
    let top = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if !(top.is_finite() && top > 0.0) {
        return None;
    }
    // Scaled to [-1, 1], with dust and wrong signs (rounding error) cleared.
    let z: Vec<f64> = y
        .iter()
        .zip(rows)
        .map(|(&v, r)| {
            let v = v / top;
            let wrong = match r.cmp {
                Cmp::Ge => v < 0.0,
                Cmp::Le => v > 0.0,
                Cmp::Eq => false,
            };
            if v.abs() < 1e-9 || wrong { 0.0 } else { v }
        })
        .collect();
    let mut tries: Vec<Vec<i128>> = Vec::new();
    // Common denominator of the simplest fractions.
    let mut lcm: i128 = 1;
    let mut fracs = Vec::with_capacity(z.len());
    for &v in &z {
        match rational(v, 10_000, 1e-7) {
            Some((p, q)) => {
                lcm = lcm / gcd(lcm, q) * q;
                fracs.push((p, q));
            }
            None => {
                lcm = 0;
                break;
            }
        }
        if lcm > 1 << 40 {
            lcm = 0;
            break;
        }
    }
    if lcm > 0 {
        tries.push(fracs.iter().map(|&(p, q)| p * (lcm / q)).collect());
    }
    for bits in [20, 30, 40] {
        let s = (1u64 << bits) as f64;
        tries.push(z.iter().map(|&v| (v * s).round() as i128).collect());
    }
    for ints in tries {
        let g = ints.iter().fold(0, |g, &v| gcd(g, v));
        if g == 0 {
            continue;
        }
        let cert = Certificate {
            multipliers: ints
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0)
                .map(|(i, &v)| (i, v / g))
                .collect(),
        };
        if let Ok(checked) = check_with(|i| rows.get(i), &cert) {
            return Some((cert, checked));
        }
    }
    None
}

/// The certificate in words: the rows by label with their multipliers (at most `shown` of
/// them, largest first), and what they add up to.
pub fn describe(f: &PbFormula, cert: &Certificate, checked: &Checked, shown: usize) -> String {
    let mut terms: Vec<&(usize, i128)> = cert.multipliers.iter().collect();
    terms.sort_by_key(|&&(i, y)| (std::cmp::Reverse(y.unsigned_abs()), i));
    let mut s = String::new();
    for (k, &&(i, y)) in terms.iter().take(shown).enumerate() {
        let sign = match (k, y < 0) {
            (0, false) => "",
            (0, true) => "−",
            (_, false) => " + ",
            (_, true) => " − ",
        };
        let label = f.constraints().get(i).map_or("?", |(l, _)| l.as_str());
        s.push_str(&format!("{sign}{}×({label})", y.unsigned_abs()));
    }
    if terms.len() > shown {
        let more = terms.len() - shown;
        s.push_str(&format!(" + {more} more row{}", if more == 1 { "" } else { "s" }));
    }
    format!(
        "{s} add up to a row whose left side is at most {} for values between 0 and 1, but must be at least {}",
        checked.max, checked.rhs
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Constraint, Linear, Var};

    /// x + y ≥ 2 (a clause-like row) and x + y ≤ 1.
    fn clash() -> PbFormula {
        let mut f = PbFormula::new(2);
        let (x, y) = (Var(0).pos(), Var(1).pos());
        f.add(
            "both",
            Constraint::Linear(Linear::new(vec![(1, x), (1, y)], Cmp::Ge, 2)),
        );
        f.add("at most one", Constraint::AtMostOne(vec![x, y]));
        f
    }

    #[test]
    fn a_sound_certificate_passes_and_tampered_ones_do_not() {
        let f = clash();
        let good = Certificate {
            multipliers: vec![(0, 1), (1, -1)],
        };
        assert_eq!(check(&f, &good), Ok(Checked { max: 0, rhs: 1 }));
        // Scaled as a whole it is still one.
        assert!(
            check(
                &f,
                &Certificate {
                    multipliers: vec![(0, 3), (1, -3)]
                }
            )
            .is_ok()
        );
        let flipped = Certificate {
            multipliers: vec![(0, 1), (1, 1)],
        };
        assert!(matches!(check(&f, &flipped), Err(Rejected::WrongSign { row: 1, .. })));
        let one_row_scaled = Certificate {
            multipliers: vec![(0, 1), (1, -3)],
        };
        assert!(matches!(check(&f, &one_row_scaled), Err(Rejected::Satisfiable { .. })));
        assert_eq!(
            check(
                &f,
                &Certificate {
                    multipliers: vec![(2, 1)]
                }
            ),
            Err(Rejected::NoSuchRow(2))
        );
        let huge = Certificate {
            // 2 × i128::MAX on the right side.
            multipliers: vec![(0, i128::MAX), (1, -1)],
        };
        assert_eq!(check(&f, &huge), Err(Rejected::Overflow));
    }

    #[test]
    fn floating_duals_become_small_integers() {
        let f = clash();
        let rows = relax::rows(&f);
        let (cert, checked) = from_duals(&rows, &[0.5000000001, -0.4999999999]).unwrap();
        assert_eq!(cert.multipliers, vec![(0, 1), (1, -1)]);
        assert_eq!(checked, Checked { max: 0, rhs: 1 });
        let text = describe(&f, &cert, &checked, 10);
        assert!(text.starts_with("1×(both) − 1×(at most one) add up"), "{text}");
        assert!(from_duals(&rows, &[0.0, 0.0]).is_none());
    }

    #[test]
    fn fractions_are_found() {
        assert_eq!(rational(1.0 / 3.0 + 1e-12, 100, 1e-9), Some((1, 3)));
        assert_eq!(rational(-0.75, 100, 1e-9), Some((-3, 4)));
        assert_eq!(rational(0.0, 100, 1e-9), Some((0, 1)));
    }
}

//! [`PbFormula::evaluate`] compiled once into flat tables, for callers that check many
//! assignments of one formula (`solve --all` checks every solution it prints).
//!
//! Every constraint's left side is a sum over literals, so it is a constant (the
//! coefficients of its negative literals) plus, for each *true* variable, that variable's
//! coefficient in it (negated for a negative literal). The tables list, per variable, the
//! constraints it occurs in with that coefficient; a check adds them up over the true
//! variables only, then compares every left side with its bound. Clauses and the
//! one-of groups count true literals, which is the same sum with coefficient 1; a
//! [`Constraint::SumOf`] adds up its parts' left sides, as `evaluate` does. A violation is
//! named by `evaluate` itself, so the message is the same.

use super::formula::{Cmp, Constraint, PbFormula, Violation};
use super::lit::Lit;

/// What a left side is compared with.
#[derive(Debug, Clone, Copy)]
enum Bound {
    Cmp(Cmp, i64),
    AtLeastOne,
    AtMostOne,
    ExactlyOne,
}

/// A formula's constraints as flat tables (see the module documentation).
#[derive(Debug, Clone)]
pub struct Evaluator {
    num_vars: usize,
    /// Per variable, where its entries in `occ` start (`num_vars + 1` offsets).
    start: Vec<u32>,
    /// (constraint, coefficient when the variable is true).
    occ: Vec<(u32, i64)>,
    /// The left side of each constraint with every variable false.
    base: Vec<i64>,
    bound: Vec<Bound>,
    /// For each sum-of constraint: its index and its parts.
    sums: Vec<(u32, Vec<u32>)>,
    /// Scratch: the left sides of the assignment being checked.
    lhs: Vec<i64>,
}

impl Evaluator {
    pub fn new(f: &PbFormula) -> Evaluator {
        let n = f.num_vars as usize;
        let nc = f.constraints.len();
        let mut base = vec![0i64; nc];
        let mut bound = Vec::with_capacity(nc);
        let mut sums = Vec::new();
        // (variable, constraint, coefficient), counting-sorted by variable below.
        let mut entries: Vec<(u32, u32, i64)> = Vec::new();
        for (ci, (_, c)) in f.constraints.iter().enumerate() {
            let mut term = |coef: i64, l: Lit| {
                if l.is_positive() {
                    entries.push((l.var().0, ci as u32, coef));
                } else {
                    base[ci] += coef;
                    entries.push((l.var().0, ci as u32, -coef));
                }
            };
            bound.push(match c {
                Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls) => {
                    ls.iter().for_each(|&l| term(1, l));
                    match c {
                        Constraint::Clause(_) => Bound::AtLeastOne,
                        Constraint::AtMostOne(_) => Bound::AtMostOne,
                        _ => Bound::ExactlyOne,
                    }
                }
                Constraint::Linear(lin) => {
                    lin.terms.iter().for_each(|&(coef, l)| term(coef, l));
                    Bound::Cmp(lin.cmp, lin.rhs)
                }
                Constraint::SumOf { parts, cmp, rhs } => {
                    sums.push((ci as u32, parts.iter().map(|&p| p as u32).collect()));
                    Bound::Cmp(*cmp, *rhs)
                }
            });
        }
        let mut start = vec![0u32; n + 1];
        for &(v, _, _) in &entries {
            start[v as usize + 1] += 1;
        }
        for k in 1..=n {
            start[k] += start[k - 1];
        }
        let mut fill = start.clone();
        let mut occ = vec![(0u32, 0i64); entries.len()];
        for (v, ci, coef) in entries {
            let at = &mut fill[v as usize];
            occ[*at as usize] = (ci, coef);
            *at += 1;
        }
        Evaluator {
            num_vars: n,
            start,
            occ,
            base,
            bound,
            sums,
            lhs: vec![0; nc],
        }
    }

    /// Whether `a` satisfies every constraint: [`PbFormula::evaluate`]'s answer, with its
    /// violation (from `evaluate` itself, given the same formula as `f`).
    pub fn evaluate(&mut self, f: &PbFormula, a: &[bool]) -> Result<(), Violation> {
        if a.len() != self.num_vars || !self.holds(a) {
            // `evaluate` names the violation; it finds one (the two sums are the same).
            f.evaluate(a)?;
            return Err(Violation {
                index: 0,
                label: "assignment".into(),
                kind: "evaluation",
                detail: "the flat evaluation and the formula's disagree".into(),
            });
        }
        Ok(())
    }

    /// Whether `a` (one value per variable) satisfies every constraint.
    fn holds(&mut self, a: &[bool]) -> bool {
        self.lhs.copy_from_slice(&self.base);
        for (v, _) in a.iter().enumerate().filter(|(_, x)| **x) {
            for &(ci, coef) in &self.occ[self.start[v] as usize..self.start[v + 1] as usize] {
                self.lhs[ci as usize] += coef;
            }
        }
        for (ci, parts) in &self.sums {
            self.lhs[*ci as usize] = parts.iter().map(|&p| self.lhs[p as usize]).sum();
        }
        self.lhs.iter().zip(&self.bound).all(|(&x, b)| match *b {
            Bound::Cmp(cmp, rhs) => cmp.holds(x, rhs),
            Bound::AtLeastOne => x >= 1,
            Bound::AtMostOne => x <= 1,
            Bound::ExactlyOne => x == 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Linear, Lit, Var};

    /// On random formulas with every kind of constraint, negative literals, repeated
    /// literals and sums of parts, the tables agree with `evaluate` on random assignments.
    #[test]
    fn agrees_with_evaluate() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let (mut sat, mut unsat) = (0, 0);
        for _ in 0..300 {
            let n = 1 + next(8) as u32;
            let mut f = PbFormula {
                num_vars: n,
                ..Default::default()
            };
            let mut linear = Vec::new();
            for _ in 0..1 + next(5) {
                let lits: Vec<Lit> = (0..next(4))
                    .map(|_| Lit::new(Var(next(n as u64) as u32), next(2) == 0))
                    .collect();
                let cmp = [Cmp::Le, Cmp::Ge, Cmp::Eq][next(3) as usize];
                let c = match next(5) {
                    0 => Constraint::Clause(lits),
                    1 => Constraint::AtMostOne(lits),
                    2 => Constraint::ExactlyOne(lits),
                    3 if !linear.is_empty() => Constraint::SumOf {
                        parts: linear.clone(),
                        cmp,
                        rhs: next(5) as i64 - 1,
                    },
                    _ => {
                        let terms = lits.into_iter().map(|l| (next(7) as i64 - 3, l)).collect();
                        Constraint::Linear(Linear::new(terms, cmp, next(5) as i64 - 2))
                    }
                };
                let is_linear = matches!(c, Constraint::Linear(_));
                let ci = f.add("c", c);
                if is_linear {
                    linear.push(ci);
                }
            }
            let mut e = Evaluator::new(&f);
            for _ in 0..20 {
                let a: Vec<bool> = (0..n).map(|_| next(2) == 0).collect();
                let got = e.evaluate(&f, &a);
                assert_eq!(got, f.evaluate(&a), "{f:?} {a:?}");
                if got.is_ok() {
                    sat += 1;
                } else {
                    unsat += 1;
                }
            }
            let short: Vec<bool> = vec![true; n as usize - 1];
            assert_eq!(e.evaluate(&f, &short), f.evaluate(&short));
        }
        assert!(sat > 100 && unsat > 100, "{sat} {unsat}");
    }
}

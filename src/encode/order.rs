//! Order-encoded (unary) integers with sparse value sets, and their addition.
//!
//! An [`OrderInt`] takes one of `values` (sorted, distinct); for every value but the
//! smallest it has a literal meaning "x >= value". Adding two of them with a cap gives the
//! generalized totalizer / sequential weight counter building block: the sum's order
//! literals are *defined* in both directions, so the encoding is exact for `=`, `<=`, `>=`.

use super::sink::ClauseSink;
use crate::ir::Lit;

/// A literal or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum B {
    True,
    False,
    L(Lit),
}

impl B {
    fn not(self) -> B {
        match self {
            B::True => B::False,
            B::False => B::True,
            B::L(l) => B::L(!l),
        }
    }
}

/// Emits the clause `ante_1 & ... & ante_k -> cons`, simplifying constants away.
pub fn imply(sink: &mut dyn ClauseSink, ante: &[B], cons: B, buf: &mut Vec<Lit>) {
    buf.clear();
    for a in ante {
        match a {
            B::False => return,
            B::True => {}
            B::L(l) => buf.push(!*l),
        }
    }
    match cons {
        B::True => return,
        B::False => {}
        B::L(l) => buf.push(l),
    }
    sink.add_clause(buf);
}

#[derive(Debug, Clone)]
pub struct OrderInt {
    pub values: Vec<u64>,
    /// `ge[k]` means "x >= values[k + 1]".
    pub ge: Vec<Lit>,
}

impl OrderInt {
    /// The Boolean term `coef * lit` as an integer in {0, coef}.
    pub fn term(coef: u64, lit: Lit) -> OrderInt {
        OrderInt {
            values: vec![0, coef],
            ge: vec![lit],
        }
    }

    pub fn constant(v: u64) -> OrderInt {
        OrderInt {
            values: vec![v],
            ge: vec![],
        }
    }

    /// "x >= t" as a literal or constant.
    pub fn at_least(&self, t: u64) -> B {
        if t <= self.values[0] {
            return B::True;
        }
        // `values` is ascending: binary search keeps `add` at O(pairs log n), which matters
        // for sums over many distinct weights.
        match self.values.partition_point(|&v| v < t) {
            k if k == self.values.len() => B::False,
            k => B::L(self.ge[k - 1]),
        }
    }

    /// The literal "x >= next value after v", i.e. the negation of "x <= v".
    fn above(&self, v: u64) -> B {
        self.at_least(v + 1)
    }

    /// `a + b`, with every sum of at least `cap` collapsed into `cap`.
    pub fn add(sink: &mut dyn ClauseSink, a: &OrderInt, b: &OrderInt, cap: u64) -> OrderInt {
        // Up to two clauses per pair of values: refuse before building what will not fit.
        let pairs = (a.values.len() as u64).saturating_mul(b.values.len() as u64);
        if pairs.saturating_mul(2) > sink.room() {
            sink.exhaust();
            return OrderInt::constant(0);
        }
        let mut values: Vec<u64> = Vec::with_capacity(a.values.len() * b.values.len());
        for &x in &a.values {
            for &y in &b.values {
                values.push((x + y).min(cap));
            }
        }
        values.sort_unstable();
        values.dedup();
        let ge: Vec<Lit> = values[1..].iter().map(|_| sink.new_var().pos()).collect();
        let c = OrderInt { values, ge };
        let mut buf = Vec::new();
        // Ladder: x >= v_{k+1} -> x >= v_k.
        for k in 1..c.ge.len() {
            sink.add_clause(&[!c.ge[k], c.ge[k - 1]]);
        }
        for &x in &a.values {
            for &y in &b.values {
                let s = (x + y).min(cap);
                // a >= x & b >= y -> c >= x + y
                imply(sink, &[a.at_least(x), b.at_least(y)], c.at_least(s), &mut buf);
                // a <= x & b <= y -> c <= x + y
                if s < cap {
                    imply(sink, &[a.above(x).not(), b.above(y).not()], c.above(s).not(), &mut buf);
                }
            }
        }
        c
    }
}

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

    /// "x >= values[i]", for a value of `x`.
    fn ge_at(&self, i: usize) -> B {
        if i == 0 { B::True } else { B::L(self.ge[i - 1]) }
    }

    /// "x <= values[i]", i.e. not "x >= values[i + 1]".
    fn le_at(&self, i: usize) -> B {
        match self.ge.get(i) {
            Some(&l) => B::L(!l),
            None => B::True,
        }
    }

    /// `a + b`, with every sum of at least `cap` collapsed into `cap`.
    pub fn add(sink: &mut dyn ClauseSink, a: &OrderInt, b: &OrderInt, cap: u64) -> OrderInt {
        // Up to two clauses per pair of values: refuse before building what will not fit.
        let pairs = (a.values.len() as u64).saturating_mul(b.values.len() as u64);
        if pairs.saturating_mul(2) > sink.room() {
            sink.exhaust(pairs.saturating_mul(2));
            return OrderInt::constant(0);
        }
        let Some(values) = sum_values(&a.values, &b.values, cap, &mut || sink.should_stop()) else {
            return OrderInt::constant(0);
        };
        let ge: Vec<Lit> = values[1..].iter().map(|_| sink.new_var().pos()).collect();
        let c = OrderInt { values, ge };
        let mut buf = Vec::new();
        // Ladder: x >= v_{k+1} -> x >= v_k.
        for k in 1..c.ge.len() {
            sink.add_clause(&[!c.ge[k], c.ge[k - 1]]);
        }
        // Every operand is a value of its integer, so its order literals are found by index
        // (no search in `a` or `b`), and for one `x` the sums grow with `y`, so their index in
        // `c` is found by galloping forward from the previous one.
        for (i, &x) in a.values.iter().enumerate() {
            if i % 64 == 0 && sink.should_stop() {
                break;
            }
            let (a_ge, a_le) = (a.ge_at(i), a.le_at(i));
            let mut k = 0;
            for (j, &y) in b.values.iter().enumerate() {
                let s = x.saturating_add(y).min(cap);
                k = gallop(&c.values, k, s);
                // a >= x & b >= y -> c >= x + y
                imply(sink, &[a_ge, b.ge_at(j)], c.ge_at(k), &mut buf);
                // a <= x & b <= y -> c <= x + y
                if s < cap {
                    imply(sink, &[a_le, b.le_at(j)], c.le_at(k), &mut buf);
                }
            }
        }
        c
    }
}

/// The index of `v` in `values` (ascending, and holding `v`), searching forward from
/// `from`, where it is known to be at or after: steps of 1, 2, 4, ... then a binary search.
fn gallop(values: &[u64], from: usize, v: u64) -> usize {
    let mut lo = from;
    let mut step = 1;
    let mut hi = from;
    while hi < values.len() && values[hi] < v {
        lo = hi + 1;
        hi = from + step;
        step *= 2;
    }
    let hi = hi.min(values.len());
    lo + values[lo..hi].partition_point(|&w| w < v)
}

/// The distinct values of `x + y` (x in `a`, y in `b`), each capped at `cap`, ascending.
///
/// For each value of the shorter operand the sums over the longer one are already sorted,
/// so when the shorter one is small (a face's corner weights, a single term) the runs are
/// merged in linear time. Otherwise pairs are collected in chunks that are sorted and
/// deduplicated whenever the buffer doubles. Nothing is reserved from `|a| * |b|`: the pairs
/// can far outnumber the distinct sums (at most `cap + 1`); memory stays within about twice
/// the result plus one run.
///
/// `None` when `stop` says so (checked between runs and chunks): the deadline passed.
pub(super) fn sum_values(a: &[u64], b: &[u64], cap: u64, stop: &mut dyn FnMut() -> bool) -> Option<Vec<u64>> {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let run = |y: u64| long.iter().map(move |&x| x.saturating_add(y).min(cap));
    if short.len() <= 32 {
        let mut values: Vec<u64> = Vec::new();
        let mut merged: Vec<u64> = Vec::new();
        for &y in short {
            if stop() {
                return None;
            }
            merged.clear();
            let (mut i, mut r) = (0, run(y).peekable());
            loop {
                let next = match (values.get(i), r.peek()) {
                    (Some(&v), Some(&w)) if v <= w => {
                        i += 1;
                        v
                    }
                    (_, Some(&w)) => {
                        r.next();
                        w
                    }
                    (Some(&v), None) => {
                        i += 1;
                        v
                    }
                    (None, None) => break,
                };
                if merged.last() != Some(&next) {
                    merged.push(next);
                }
            }
            std::mem::swap(&mut values, &mut merged);
        }
        return Some(values);
    }
    let mut values: Vec<u64> = Vec::new();
    let mut compact_at = 1 << 16;
    for &y in short {
        values.extend(run(y));
        if values.len() >= compact_at {
            if stop() {
                return None;
            }
            values.sort_unstable();
            values.dedup();
            compact_at = (2 * values.len()).max(1 << 16);
        }
    }
    values.sort_unstable();
    values.dedup();
    Some(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn naive(a: &[u64], b: &[u64], cap: u64) -> Vec<u64> {
        let s: BTreeSet<u64> = a
            .iter()
            .flat_map(|&x| b.iter().map(move |&y| (x + y).min(cap)))
            .collect();
        s.into_iter().collect()
    }

    fn sorted_set(seed: &mut u64, n: usize, spread: u64) -> Vec<u64> {
        let mut s = BTreeSet::new();
        while s.len() < n {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s.insert((*seed >> 33) % spread);
        }
        s.into_iter().collect()
    }

    #[test]
    fn sums_of_value_sets_match_the_definition() {
        let mut seed = 7;
        // Short operands (merged runs), long ones (sorted chunks, compacted past 2^16 pairs),
        // with and without the cap biting.
        for (na, nb, spread) in [
            (1, 1, 5),
            (2, 300, 1000),
            (40, 50, 100),
            (33, 3000, 1 << 20),
            (400, 400, 1 << 30),
        ] {
            let a = sorted_set(&mut seed, na, spread);
            let b = sorted_set(&mut seed, nb, spread);
            for cap in [spread / 3, spread * 3] {
                let got = sum_values(&a, &b, cap, &mut || false).unwrap();
                assert_eq!(got, naive(&a, &b, cap), "{na}x{nb} cap {cap}");
                let swapped = sum_values(&b, &a, cap, &mut || false).unwrap();
                assert_eq!(got, swapped);
            }
        }
        // A stop request is honoured.
        let a: Vec<u64> = (0..1000).collect();
        assert!(sum_values(&a, &a, u64::MAX, &mut || true).is_none());
    }

    #[test]
    fn gallop_finds_every_value_from_any_earlier_start() {
        let values: Vec<u64> = (0..200).map(|i| i * 10 + (i % 7)).collect();
        for (k, &v) in values.iter().enumerate() {
            for from in [0, k / 2, k.saturating_sub(1), k] {
                assert_eq!(gallop(&values, from, v), k);
            }
        }
    }
}

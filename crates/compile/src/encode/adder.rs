//! `lo <= sum c_i x_i <= hi` (all `c_i > 0`) with a binary adder network: size polynomial in
//! the number of coefficient bits, whatever the coefficients' magnitude.
//!
//! Every term puts its literal in the bucket of each bit set in its coefficient. Each
//! bucket, lowest first, is reduced by full adders (three bits of weight `2^b` make a sum bit
//! of weight `2^b` and a carry of weight `2^(b+1)`) and a final half adder, until one bit
//! is left; the buckets are queues, so the adders form balanced trees. The bits left form the
//! sum in binary, compared with the bounds by one clause per relevant bit of each bound.
//!
//! The adders are defined in both directions (sum = xor, carry = majority), so every
//! auxiliary is a function of the primary literals and the encoding is exact. It is not
//! arc consistent (the price of being small): a solver learns what a BDD would propagate.

use std::collections::VecDeque;

use super::sink::ClauseSink;
use crate::ir::Lit;

/// A bit of the sum: a literal or the constant 0.
type Bit = Option<Lit>;

/// The sum bits, lowest first.
fn sum_bits(sink: &mut dyn ClauseSink, terms: &[(u64, Lit)]) -> Vec<Bit> {
    let mut buckets: Vec<VecDeque<Lit>> = vec![VecDeque::new(); 66];
    for &(c, l) in terms {
        for (b, bucket) in buckets.iter_mut().enumerate().take(64) {
            if c >> b & 1 == 1 {
                bucket.push_back(l);
            }
        }
    }
    let mut out = Vec::new();
    let mut b = 0;
    while b < buckets.len() {
        if buckets[b].is_empty() && buckets[b..].iter().all(VecDeque::is_empty) {
            break;
        }
        if b + 1 == buckets.len() {
            buckets.push(VecDeque::new());
        }
        while buckets[b].len() >= 2 {
            if sink.should_stop() {
                return out;
            }
            let x = buckets[b].pop_front().expect("two or more");
            let y = buckets[b].pop_front().expect("two or more");
            let (s, carry) = match buckets[b].pop_front() {
                Some(z) => full_adder(sink, x, y, z),
                None => half_adder(sink, x, y),
            };
            buckets[b].push_back(s);
            buckets[b + 1].push_back(carry);
        }
        out.push(buckets[b].pop_front());
        b += 1;
    }
    out
}

/// Writes `s <-> x xor y xor z` and `c <-> majority(x, y, z)`; returns `(s, c)`.
fn full_adder(sink: &mut dyn ClauseSink, x: Lit, y: Lit, z: Lit) -> (Lit, Lit) {
    let s = sink.new_var().pos();
    let c = sink.new_var().pos();
    // The sum: for each of the 8 input patterns, the clause that forbids the wrong parity.
    for pattern in 0u8..8 {
        let lits = [x, y, z];
        let mut clause = Vec::with_capacity(4);
        let mut parity = false;
        for (k, &l) in lits.iter().enumerate() {
            let on = pattern >> k & 1 == 1;
            parity ^= on;
            clause.push(if on { !l } else { l });
        }
        clause.push(if parity { s } else { !s });
        sink.add_clause(&clause);
    }
    // The carry: any two inputs true make it true, any two false make it false.
    for (a, b) in [(x, y), (x, z), (y, z)] {
        sink.add_clause(&[!a, !b, c]);
        sink.add_clause(&[a, b, !c]);
    }
    (s, c)
}

/// Writes `s <-> x xor y` and `c <-> x and y`; returns `(s, c)`.
fn half_adder(sink: &mut dyn ClauseSink, x: Lit, y: Lit) -> (Lit, Lit) {
    let s = sink.new_var().pos();
    let c = sink.new_var().pos();
    sink.add_clause(&[!x, !y, !s]);
    sink.add_clause(&[x, y, !s]);
    sink.add_clause(&[!x, y, s]);
    sink.add_clause(&[x, !y, s]);
    sink.add_clause(&[!x, !y, c]);
    sink.add_clause(&[x, !c]);
    sink.add_clause(&[y, !c]);
    (s, c)
}

/// Clauses an adder network over these coefficients writes (adders only), counted without
/// building it: 14 per full adder, 7 per half adder.
#[cfg(test)]
fn num_clauses(terms: &[(u64, Lit)]) -> u64 {
    let mut count = [0u64; 130];
    for &(c, _) in terms {
        for (b, n) in count.iter_mut().enumerate().take(64) {
            *n += c >> b & 1;
        }
    }
    let mut clauses = 0u64;
    for b in 0..count.len() - 1 {
        // Each full adder takes three bits and gives back one (and a carry); a half adder
        // takes the last two.
        let mut n = count[b];
        while n >= 2 {
            if n >= 3 {
                let full = (n - 1) / 2;
                clauses += 14 * full;
                count[b + 1] += full;
                n -= 2 * full;
            } else {
                clauses += 7;
                count[b + 1] += 1;
                n = 1;
            }
        }
    }
    clauses
}

/// Encodes `lo <= sum <= hi` (`hi` `None`: no upper bound) with one adder network for both
/// bounds: an equality fixes every sum bit by a unit clause.
pub fn encode_range(sink: &mut dyn ClauseSink, terms: &[(u64, Lit)], lo: u128, hi: Option<u128>) {
    let bits = sum_bits(sink, terms);
    if sink.should_stop() {
        return;
    }
    let bit = |j: usize| bits.get(j).copied().flatten();
    // Past the last sum bit the sum has zeros; a bound with a one there is out of reach.
    let width = bits
        .len()
        .max(128 - lo.leading_zeros() as usize)
        .max(hi.map_or(0, |h| 128 - h.leading_zeros() as usize));
    let mut clause = Vec::new();
    if let Some(h) = hi {
        // sum > h exactly when, at the highest bit where they differ, the sum has 1 and h has
        // 0. For each 0 bit j of h: not (s_j and s_i for every higher 1 bit i of h).
        for j in 0..width {
            if h >> j & 1 == 1 {
                continue;
            }
            let Some(sj) = bit(j) else { continue };
            clause.clear();
            clause.push(!sj);
            let mut satisfied = false;
            for i in j + 1..width {
                if h >> i & 1 == 1 {
                    match bit(i) {
                        Some(si) => clause.push(!si),
                        None => satisfied = true,
                    }
                }
            }
            if !satisfied {
                sink.add_clause(&clause);
            }
        }
    }
    if lo > 0 {
        // sum < lo exactly when, at the highest differing bit, the sum has 0 and lo has 1. For
        // each 1 bit j of lo: s_j or s_i for some higher 0 bit i of lo.
        for j in 0..width {
            if lo >> j & 1 == 0 {
                continue;
            }
            clause.clear();
            if let Some(sj) = bit(j) {
                clause.push(sj);
            }
            for i in j + 1..width {
                if lo >> i & 1 == 0
                    && let Some(si) = bit(i)
                {
                    clause.push(si);
                }
            }
            sink.add_clause(&clause);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Cnf;
    use crate::ir::Var;

    #[test]
    fn the_clause_count_matches_the_network() {
        let mut seed = 5u64;
        for n in 0..30u32 {
            let terms: Vec<(u64, Lit)> = (0..n)
                .map(|v| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 20) | 1, Var(v).pos())
                })
                .collect();
            let mut cnf = Cnf::new();
            cnf.reserve_vars(n);
            sum_bits(&mut cnf, &terms);
            assert_eq!(cnf.num_clauses() as u64, num_clauses(&terms), "{n} terms");
        }
    }
}

//! At-most-one and exactly-one.

use super::sink::ClauseSink;
use crate::ir::Lit;

/// Groups up to this size use the pairwise encoding (no auxiliaries, best propagation);
/// larger ones use the sequential "ladder" with `n - 1` auxiliaries and `3n` clauses.
const PAIRWISE_MAX: usize = 6;

pub fn at_most_one(sink: &mut dyn ClauseSink, lits: &[Lit]) {
    if lits.len() <= PAIRWISE_MAX {
        for i in 0..lits.len() {
            for j in i + 1..lits.len() {
                sink.add_clause(&[!lits[i], !lits[j]]);
            }
        }
        return;
    }
    // s_i: "one of lits[0..=i] is true".
    let n = lits.len();
    let s: Vec<Lit> = (0..n - 1).map(|_| sink.new_var().pos()).collect();
    for i in 0..n - 1 {
        sink.add_clause(&[!lits[i], s[i]]);
        sink.add_clause(&[!s[i], !lits[i + 1]]);
        if i + 1 < n - 1 {
            sink.add_clause(&[!s[i], s[i + 1]]);
        }
    }
}

pub fn exactly_one(sink: &mut dyn ClauseSink, lits: &[Lit]) {
    sink.add_clause(lits);
    at_most_one(sink, lits);
}

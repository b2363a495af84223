//! Rows whose sums are too wide for the order encodings: the BDD rows (both bounds), and
//! the per-row choice of `--pb-encoding auto` (encodings/pb-large.md has the rule and the
//! measurements behind its thresholds).

use super::bdd::{self, Bdd};
use super::cnf::{Groups, Item, Normal, PbEncoding, group_plan};
use super::order::sum_values;
use super::sink::ClauseSink;
use crate::ir::Lit;

/// Internal nodes one diagram of `--pb-encoding bdd` may have, whatever the clause budget:
/// a node and its memo entries take about 100 bytes while building, so this keeps the build
/// under a gigabyte.
const BDD_MAX_NODES: usize = 1 << 23;

/// `auto` keeps `domain` for a row whose domain encoding is estimated at most this many
/// clauses. Every row of the puzzles is far below (an IcoSoKu vertex: a few hundred), so
/// their CNF does not change.
const DOMAIN_KEEP: u64 = 100_000;

/// `auto` tries the arc-consistent encodings (domain, BDD) up to about this many clauses per
/// row before it takes the adder.
const GAC_MAX: u64 = 1 << 21;

/// `auto`'s node cap per diagram (two clauses per node, so a `<=` side stays under
/// [`GAC_MAX`] / 4 clauses; an equality has two sides).
const AUTO_BDD_NODES: usize = 1 << 18;

/// How `auto` encodes one row.
pub(super) enum Plan {
    /// One of the order encodings (always `domain` from `auto`).
    Order(PbEncoding),
    /// These diagrams, already built: one per bound.
    Bdd(Vec<Bdd>),
    Adder,
}

/// The row as `<=` rows for diagrams: `sum <= hi`, and `sum >= lo` as
/// `sum c * !x <= total - lo`. An equality is two diagrams (each arc consistent on its own;
/// one diagram for both bounds is not smaller on the rows measured, and is not monotone).
fn sides(n: &Normal) -> Vec<(Vec<(u64, Lit)>, i128)> {
    let mut out = Vec::new();
    // Totals stay far below 2^127 (fewer than 2^32 terms below 2^64 each).
    if let Some(h) = n.hi {
        out.push((n.terms.clone(), h as i128));
    }
    if n.lo > 0 {
        let neg = n.terms.iter().map(|&(c, l)| (c, !l)).collect();
        out.push((neg, (n.total - n.lo) as i128));
    }
    out
}

/// `--pb-encoding bdd`: each bound as a diagram, built and written in turn. A diagram over
/// what the budget leaves (or over [`BDD_MAX_NODES`]) spends the budget: the encoding then
/// fails with the usual "too large" error.
pub(super) fn bdd(sink: &mut dyn ClauseSink, n: &Normal) {
    for (terms, k) in sides(n) {
        let cap = (sink.room() / 2).min(BDD_MAX_NODES as u64) as usize;
        let built = bdd::build(&terms, k, cap, &mut || sink.should_stop());
        match built {
            Some(d) => d.emit(sink),
            None => {
                sink.exhaust((cap as u64).saturating_mul(2).saturating_add(1));
                return;
            }
        }
    }
}

/// Writes diagrams chosen by `auto`.
pub(super) fn emit_all(sink: &mut dyn ClauseSink, diagrams: &[Bdd]) {
    let clauses: u64 = diagrams.iter().map(Bdd::num_clauses).sum();
    if clauses > sink.room() {
        sink.exhaust(clauses);
        return;
    }
    for d in diagrams {
        d.emit(sink);
    }
}

/// `auto`: `domain` while its estimate is small; otherwise the smaller of `domain` and the
/// BDD when either fits in about [`GAC_MAX`] clauses; otherwise the adder. The estimates
/// stop early, so a hopeless candidate costs about as much as its limit, not its size.
pub(super) fn choose(n: &Normal, groups: &Groups, stop: &mut dyn FnMut() -> bool) -> Plan {
    if n.total >= u128::from(u64::MAX / 2) {
        return Plan::Adder;
    }
    let domain = domain_clauses(n, groups, GAC_MAX, stop);
    if domain.is_some_and(|d| d <= DOMAIN_KEEP) {
        return Plan::Order(PbEncoding::Domain);
    }
    let mut diagrams = Vec::new();
    for (terms, k) in sides(n) {
        match bdd::build(&terms, k, AUTO_BDD_NODES, stop) {
            Some(d) => diagrams.push(d),
            None => {
                return match domain {
                    Some(_) => Plan::Order(PbEncoding::Domain),
                    None => Plan::Adder,
                };
            }
        }
    }
    let bdd: u64 = diagrams.iter().map(Bdd::num_clauses).sum();
    match domain {
        Some(d) if d <= bdd => Plan::Order(PbEncoding::Domain),
        _ => Plan::Bdd(diagrams),
    }
}

/// About how many clauses the domain encoding of the row writes (two per pair of values
/// added, one per new order literal, the groups' own definitions); `None` past `limit`.
fn domain_clauses(n: &Normal, groups: &Groups, limit: u64, stop: &mut dyn FnMut() -> bool) -> Option<u64> {
    // The caller routes totals past 2^63 elsewhere, so the bounds fit.
    let (lo, hi) = (n.lo as u64, n.hi.map(|h| h as u64));
    let cap = hi.map_or(lo, |h| h + 1);
    let mut clauses = 0u64;
    let mut acc: Option<Vec<u64>> = None;
    for item in group_plan(&n.terms, groups) {
        let values = item.values(&n.terms);
        if let Item::Group(own, _) = &item {
            clauses += (own.len() as u64 + 1) * values.len() as u64;
        }
        acc = Some(match acc {
            None => values,
            Some(a) => {
                clauses += 2 * a.len() as u64 * values.len() as u64;
                if clauses > limit {
                    return None;
                }
                let sum = sum_values(&a, &values, cap, stop)?;
                clauses += sum.len() as u64;
                sum
            }
        });
    }
    (clauses <= limit).then_some(clauses)
}

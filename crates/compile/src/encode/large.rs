//! Rows whose sums are too wide for the order encodings: the BDD rows (both bounds), and
//! the per-row choice of `--pb-encoding auto` (encodings/pb-large.md has the rule and the
//! measurements behind its thresholds).

use super::bdd::{self, Mdd};
use super::groups::{Groups, Item, build_items, group_plan};
use super::normal::Normal;
use super::options::PbEncoding;
use super::order::{OrderInt, sum_values};
use super::sink::ClauseSink;
use crate::ir::Lit;

/// Internal nodes one diagram of `--pb-encoding bdd` may have, whatever the clause budget:
/// a node and its memo entries take about 100 bytes while building, so this keeps the build
/// under a gigabyte.
const BDD_MAX_NODES: usize = 1 << 23;

/// `auto` keeps `domain` for a row whose domain encoding is estimated at most this many
/// clauses, whatever the budget. Every row of the puzzles is far below (an IcoSoKu vertex: a
/// few hundred), so their CNF does not change.
const DOMAIN_KEEP: u64 = 100_000;

/// `auto` also keeps `domain` while its estimate is at most this share (1/`DOMAIN_SHARE`)
/// of the clause budget left: measured, it beats the diagrams and the adder by far on the
/// rows where it fits (encodings/pb-large.md), so it is given the budget first.
const DOMAIN_SHARE: u64 = 2;

/// `auto`'s node cap per diagram (about two clauses per node on rows of lone terms; an
/// equality has two diagrams).
const AUTO_BDD_NODES: usize = 1 << 19;

/// How `auto` encodes one row.
pub(super) enum Plan {
    /// One of the order encodings (always `domain` from `auto`).
    Order(PbEncoding),
    /// Decision diagrams over these integers, already built: one per bound.
    Bdd(Vec<Item>, Vec<(Side, Mdd)>),
    Adder,
}

/// One bound of a row as a `<=` diagram's input: the row's integers in the diagram's order,
/// each as it is or reversed (`max - y`, for the lower bound), and the bound.
pub(super) struct Side {
    /// Item index, in level order.
    levels: Vec<usize>,
    reversed: bool,
    values: Vec<Vec<u64>>,
    k: i128,
}

/// The row's bounds as `<=` rows: `sum y <= hi`, and `sum y >= lo` as
/// `sum (max_y - y) <= sum max_y - lo`. An equality is two diagrams, each arc consistent on
/// its own (one diagram with both bounds is not monotone, so its two-clause encoding would
/// not be). Levels go by decreasing largest value: the big terms first keep the intervals
/// wide and the diagram small.
fn sides(n: &Normal, items: &[Vec<u64>]) -> Vec<Side> {
    let mut out = Vec::new();
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| {
        let span = |v: &Vec<u64>| v[v.len() - 1] - v[0];
        span(&items[b]).cmp(&span(&items[a])).then(a.cmp(&b))
    });
    // Totals stay far below 2^127 (fewer than 2^32 terms below 2^64 each).
    if let Some(h) = n.hi {
        out.push(Side {
            values: order.iter().map(|&i| items[i].clone()).collect(),
            levels: order.clone(),
            reversed: false,
            k: h as i128,
        });
    }
    if n.lo > 0 {
        let max_sum: i128 = items.iter().map(|v| i128::from(v[v.len() - 1])).sum();
        out.push(Side {
            values: order
                .iter()
                .map(|&i| {
                    let top = items[i][items[i].len() - 1];
                    items[i].iter().rev().map(|&w| top - w).collect()
                })
                .collect(),
            levels: order,
            reversed: true,
            k: max_sum - n.lo as i128,
        });
    }
    out
}

/// The row's integers (domain groups, lone terms) and their values.
fn plan_values(n: &Normal, groups: &Groups) -> (Vec<Item>, Vec<Vec<u64>>) {
    let plan = group_plan(&n.terms, groups);
    let values = plan.iter().map(|it| it.values(&n.terms)).collect();
    (plan, values)
}

/// `--pb-encoding bdd`: each bound as a diagram, built and written in turn. A diagram over
/// what the budget leaves (or over [`BDD_MAX_NODES`]) spends the budget: the encoding then
/// fails with the usual "too large" error.
pub(super) fn bdd(sink: &mut dyn ClauseSink, n: &Normal, groups: &Groups) {
    let (plan, values) = plan_values(n, groups);
    let mut built = Vec::new();
    for side in sides(n, &values) {
        // At most BDD_MAX_NODES, which is a usize.
        let cap = usize::try_from(sink.room() / 2).map_or(BDD_MAX_NODES, |r| r.min(BDD_MAX_NODES));
        let mdd = bdd::build(&side.values, side.k, cap, &mut || sink.should_stop());
        match mdd {
            Some(d) => built.push((side, d)),
            None => {
                sink.exhaust((cap as u64).saturating_mul(2).saturating_add(1));
                return;
            }
        }
    }
    emit_all(sink, n, plan, &built);
}

/// Writes diagrams: the row's integers first (a group's order literals), then each diagram
/// over them.
pub(super) fn emit_all(sink: &mut dyn ClauseSink, n: &Normal, plan: Vec<Item>, diagrams: &[(Side, Mdd)]) {
    let clauses: u64 = diagrams.iter().map(|(_, d)| d.num_clauses()).sum();
    if clauses > sink.room() {
        sink.exhaust(clauses);
        return;
    }
    let ints: Vec<OrderInt> = build_items(sink, &n.terms, plan);
    for (side, d) in diagrams {
        let ge: Vec<Vec<Lit>> = side
            .levels
            .iter()
            .map(|&i| {
                let g = &ints[i].ge;
                if side.reversed {
                    // "max - y >= max - w_(m-j)" is "y <= w_(m-j)", the negation of the
                    // order literal "y >= w_(m-j+1)".
                    g.iter().rev().map(|&l| !l).collect()
                } else {
                    g.clone()
                }
            })
            .collect();
        let ge: Vec<&[Lit]> = ge.iter().map(Vec::as_slice).collect();
        d.emit(sink, &ge);
    }
}

/// `auto`: `domain` while its estimate is small, or at most half the budget left (`room`
/// clauses); otherwise the decision diagram when it has at most [`AUTO_BDD_NODES`] nodes per
/// bound; otherwise the adder. The estimates stop early, so a hopeless candidate costs about
/// as much as its limit.
pub(super) fn choose(n: &Normal, groups: &Groups, room: u64, stop: &mut dyn FnMut() -> bool) -> Plan {
    if n.total >= u128::from(u64::MAX / 2) {
        return Plan::Adder;
    }
    let limit = DOMAIN_KEEP.max(room / DOMAIN_SHARE);
    if domain_clauses(n, groups, limit, stop).is_some() {
        return Plan::Order(PbEncoding::Domain);
    }
    let (plan, values) = plan_values(n, groups);
    let mut diagrams = Vec::new();
    for side in sides(n, &values) {
        match bdd::build(&side.values, side.k, AUTO_BDD_NODES, stop) {
            Some(d) => diagrams.push((side, d)),
            None => return Plan::Adder,
        }
    }
    Plan::Bdd(plan, diagrams)
}

/// About how many clauses the domain encoding of the row writes (two per pair of values
/// added, one per new order literal, the groups' own definitions); `None` past `limit`.
fn domain_clauses(n: &Normal, groups: &Groups, limit: u64, stop: &mut dyn FnMut() -> bool) -> Option<u64> {
    // The caller routes totals past 2^63 elsewhere, so the bounds fit.
    let (lo, hi) = n.bounds_u64();
    let cap = hi.map_or(lo, |h| h + 1);
    let plan = group_plan(&n.terms, groups);
    // First a bound from the number of values alone (a partial sum takes at most `cap + 1`
    // values, and at most the product of its parts' counts): enough for every puzzle row,
    // and it spares computing the value sets twice.
    let (mut bound, mut len) = (0u64, 0u64);
    for (k, item) in plan.iter().enumerate() {
        let count = item.values(&n.terms).len() as u64;
        if let Item::Group(own, _) = item {
            bound = bound.saturating_add((own.len() as u64 + 1) * count);
        }
        if k == 0 {
            len = count;
        } else {
            bound = bound.saturating_add(len.saturating_mul(count).saturating_mul(2));
            len = len.saturating_mul(count).min(cap.saturating_add(1));
            bound = bound.saturating_add(len);
        }
    }
    if bound <= limit {
        return Some(bound);
    }
    let mut clauses = 0u64;
    let mut acc: Option<Vec<u64>> = None;
    for item in plan {
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

#[cfg(test)]
mod tests {
    use crate::budget::Deadline;
    use crate::encode::{Cnf, Cost, EncodeError, EncodeOptions, PbEncoding, encode, estimate};
    use crate::ir::{Cmp, Constraint, Linear, PbFormula, Var};

    fn row(weights: &[i64], cmp: Cmp, rhs: i64) -> PbFormula {
        let mut f = PbFormula::new(u32::try_from(weights.len()).unwrap());
        let terms = weights
            .iter()
            .enumerate()
            .map(|(i, &w)| (w, Var(u32::try_from(i).unwrap()).pos()))
            .collect();
        f.add("row", Constraint::Linear(Linear::new(terms, cmp, rhs)));
        f
    }

    fn opts(pb: PbEncoding, max_clauses: u64) -> EncodeOptions {
        EncodeOptions {
            pb,
            max_clauses,
            ..Default::default()
        }
    }

    #[test]
    fn auto_keeps_the_domain_encoding_of_small_rows() {
        // Weights 1..40 (an order-encoded sum of about 40 * 400 pairs): byte for byte the
        // domain CNF.
        let w: Vec<i64> = (1..=40).collect();
        for cmp in [Cmp::Le, Cmp::Ge, Cmp::Eq] {
            let f = row(&w, cmp, 400);
            let (mut a, mut d) = (Cnf::new(), Cnf::new());
            encode(&f, opts(PbEncoding::Auto, 1 << 30), &mut a).unwrap();
            encode(&f, opts(PbEncoding::Domain, 1 << 30), &mut d).unwrap();
            assert_eq!(a, d, "{cmp:?}");
        }
    }

    #[test]
    fn auto_stays_within_the_budget_where_domain_does_not() {
        // 48 weights near 10^6 and 2^40: the order encoding needs about one literal per
        // subset sum, far past a budget of 200,000 clauses; auto takes a diagram or the adder.
        let mut seed = 3u64;
        for base in [1_000_000i64, 1 << 40] {
            let w: Vec<i64> = (0..48)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    base + (seed >> 40) as i64 % base
                })
                .collect();
            let half = w.iter().sum::<i64>() / 2;
            for cmp in [Cmp::Le, Cmp::Eq] {
                let f = row(&w, cmp, half);
                let budget = 200_000;
                let r = estimate(
                    &f,
                    opts(PbEncoding::Domain, budget),
                    Cost::CNF,
                    &Deadline::default(),
                    "t",
                );
                assert!(matches!(r, Err(EncodeError::TooLarge { .. })), "{r:?}");
                let e = estimate(&f, opts(PbEncoding::Auto, budget), Cost::CNF, &Deadline::default(), "t").unwrap();
                assert!(e.clauses <= budget);
                let e = estimate(
                    &f,
                    opts(PbEncoding::Adder, budget),
                    Cost::CNF,
                    &Deadline::default(),
                    "t",
                )
                .unwrap();
                assert!(e.clauses < 20_000, "{}", e.clauses);
            }
        }
    }

    #[test]
    fn an_exponential_diagram_fails_cleanly() {
        // Distinct powers-of-two-like weights with an equality in the middle: the diagram
        // has no small form; --pb-encoding bdd reports "too large" within the budget.
        let w: Vec<i64> = (0..40).map(|i| (1i64 << 20) + (i * i * 7919) % 65_521).collect();
        let half = w.iter().sum::<i64>() / 2;
        let f = row(&w, Cmp::Eq, half);
        let r = encode(&f, opts(PbEncoding::Bdd, 50_000), &mut Cnf::new());
        assert!(matches!(r, Err(EncodeError::TooLarge { encoding: "bdd", .. })), "{r:?}");
    }
}

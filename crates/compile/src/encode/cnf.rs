//! The CNF driver: every IR constraint, encoded into a sink.

use std::collections::HashMap;

use super::adder;
use super::card::{at_most_one, exactly_one};
use super::groups::{Groups, grouped_items};
use super::large::{self, Plan};
use super::normal::normalize;
use super::options::{EncodeOptions, PbEncoding};
use super::order::{B, OrderInt, imply};
use super::sink::{Budgeted, ClauseSink, Cost, Counting, Over};
use crate::budget::Deadline;
use crate::budget::memory::{format_size, over_limit};
use crate::ir::{Cmp, Constraint, Linear, PbFormula};

/// Why a model was not built. `TooLarge` and `Memory` are the user's limits (exit 2);
/// `TimedOut` means the time limit passed while building, and backends answer `unknown`.
#[non_exhaustive]
#[derive(Debug, Clone, thiserror::Error)]
pub enum EncodeError {
    /// The CNF would pass the clause budget.
    #[error(
        "the CNF would need more than {limit} clauses (at constraint \"{label}\", {encoding} encoding); raise --max-clauses, try another --pb-encoding, or use a backend that takes linear rows as they are (search, cp, mip)"
    )]
    TooLarge {
        /// The row being encoded when the budget ran out.
        label: String,
        /// The budget, in clauses.
        limit: u64,
        /// The row's encoding.
        encoding: &'static str,
    },
    #[error(
        "{what} would need at least {} of memory, more than the limit of {} (--max-memory){hint}",
        format_size(*.needed),
        format_size(*.limit)
    )]
    /// The model would pass the memory limit: refused before the memory is taken.
    Memory {
        /// What was being built, e.g. "the CNF for varisat (domain encoding, at constraint ...)".
        what: String,
        /// The bytes it would need, at least.
        needed: u64,
        /// The limit, in bytes.
        limit: u64,
        /// What else to try, starting with "; ".
        hint: String,
    },
    /// The time limit passed while the model was being built.
    #[error("the time limit was reached while the model was being built")]
    TimedOut,
}

impl EncodeError {
    /// A memory refusal with the usual advice: raise the limit.
    pub fn memory(what: impl Into<String>, needed: u64, limit: u64, other: &str) -> EncodeError {
        EncodeError::Memory {
            what: what.into(),
            needed,
            limit,
            hint: format!("; raise --max-memory{other}"),
        }
    }
}

/// Auxiliary variables `first..=last` (0-based) were made for the constraint `label`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuxRange {
    pub label: String,
    pub first: u32,
    pub last: u32,
}

#[derive(Debug, Clone, Default)]
pub struct EncodeStats {
    pub aux: Vec<AuxRange>,
}

/// Encodes `f` into `sink`. Primary variables keep their indices; auxiliaries follow.
///
/// Stops with [`EncodeError::TooLarge`] once the clause budget is spent, or with
/// [`EncodeError::Memory`] once the sink's memory (by its [`Cost`]) would pass the limit; the
/// sink then holds a partial CNF that must not be used. On a thread that compiles within a
/// deadline (the page's exports set one) it also stops with
/// [`EncodeError::TimedOut`] when that deadline passes.
pub fn encode(f: &PbFormula, opts: EncodeOptions, sink: &mut dyn ClauseSink) -> Result<EncodeStats, EncodeError> {
    encode_until(f, opts, sink, &Deadline::default())
}

/// [`encode`] that also stops with [`EncodeError::TimedOut`] once `deadline` passes.
pub fn encode_until(
    f: &PbFormula,
    opts: EncodeOptions,
    sink: &mut dyn ClauseSink,
    deadline: &Deadline,
) -> Result<EncodeStats, EncodeError> {
    let cost = sink.cost();
    run(f, opts, sink, cost, deadline, "the CNF")
}

/// The size of the CNF [`encode`] would write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    pub vars: u64,
    pub clauses: u64,
    pub lits: u64,
    /// By the cost model.
    pub bytes: u64,
}

/// Counts what [`encode`] would write for a sink with this `cost`, without storing any of
/// it, and refuses exactly as encoding would (clause budget, memory limit, deadline). A
/// solver backend calls this before it builds anything, so a hopeless model is refused in
/// the time it takes to count to the limit, instead of after filling a solver with clauses.
/// `who` names the sink in messages ("the CNF for varisat").
pub fn estimate(
    f: &PbFormula,
    opts: EncodeOptions,
    cost: Cost,
    deadline: &Deadline,
    who: &str,
) -> Result<Estimate, EncodeError> {
    let mut counting = Counting::default();
    run(f, opts, &mut counting, cost, deadline, who)?;
    let (vars, clauses, lits) = (
        counting.num_vars as u64,
        counting.num_clauses as u64,
        counting.num_lits as u64,
    );
    let bytes = cost.bytes(vars, clauses, lits);
    // Counting compared the CNF alone with the limit; with what the process holds already:
    if let Some(needed) = over_limit(bytes, opts.max_memory) {
        return Err(EncodeError::memory(
            format!("{who} ({} encoding)", opts.pb.name()),
            needed,
            opts.max_memory,
            ", try another --pb-encoding, or use a backend that takes linear rows as they are (search, cp, mip)",
        ));
    }
    Ok(Estimate {
        vars,
        clauses,
        lits,
        bytes,
    })
}

#[allow(clippy::too_many_arguments)]
fn run(
    f: &PbFormula,
    opts: EncodeOptions,
    sink: &mut dyn ClauseSink,
    cost: Cost,
    deadline: &Deadline,
    who: &str,
) -> Result<EncodeStats, EncodeError> {
    let mut budgeted = Budgeted::new(sink, opts.max_clauses, opts.max_memory, cost, deadline);
    let sink: &mut Budgeted = &mut budgeted;
    sink.reserve_vars(f.num_vars());
    let groups = Groups::new(f);
    let mut stats = EncodeStats::default();
    // Left-side sums built so far, by constraint index, for `SumOf`.
    let mut sums: HashMap<usize, OrderInt> = HashMap::new();
    for (index, (label, c)) in f.constraints().iter().enumerate() {
        let before = sink.num_vars();
        match c {
            Constraint::Clause(ls) => sink.add_clause(ls),
            Constraint::AtMostOne(ls) => at_most_one(sink, ls),
            Constraint::ExactlyOne(ls) => exactly_one(sink, ls),
            Constraint::Linear(lin) => {
                if let Some(s) = linear(sink, lin, opts.pb, &groups) {
                    sums.insert(index, s);
                }
            }
            Constraint::SumOf { parts, cmp, rhs } => sum_of(sink, f, parts, *cmp, *rhs, &sums, opts.pb, &groups),
        }
        // Between constraints too: one constraint may write few clauses but take long, and
        // the sink compares its bytes with the limit only every so many clauses.
        if sink.over.is_none() && sink.time_up() {
            sink.over = Some(Over::Time);
        }
        if sink.over.is_none() && sink.bytes() > opts.max_memory {
            sink.over = Some(Over::Memory(sink.bytes()));
        }
        match sink.over {
            None => {}
            Some(Over::Time) => return Err(EncodeError::TimedOut),
            Some(Over::Clauses) => {
                return Err(EncodeError::TooLarge {
                    label: label.clone(),
                    limit: opts.max_clauses,
                    encoding: opts.pb.name(),
                });
            }
            Some(Over::Memory(needed)) => {
                return Err(EncodeError::memory(
                    format!("{who} ({} encoding, at constraint \"{label}\")", opts.pb.name()),
                    needed,
                    opts.max_memory,
                    ", try another --pb-encoding, or use a backend that takes linear rows as they are (search, cp, mip)",
                ));
            }
        }
        let after = sink.num_vars();
        if after > before {
            stats.aux.push(AuxRange {
                label: label.clone(),
                first: before,
                last: after - 1,
            });
        }
    }
    Ok(stats)
}

/// Encodes `lin`. When its left side was built as one order-encoded sum over positive
/// literals and the constraint has an upper bound (so capping never hides a value a solution
/// can take), returns that sum for reuse by [`Constraint::SumOf`].
fn linear(sink: &mut dyn ClauseSink, lin: &Linear, enc: PbEncoding, groups: &Groups) -> Option<OrderInt> {
    let n = normalize(lin);
    if n.unsat {
        sink.add_clause(&[]);
        return None;
    }
    if n.lo == 0 && n.hi.is_none() {
        return None;
    }
    let plan = match enc {
        PbEncoding::Auto => {
            let room = sink.choice_room();
            large::choose(&n, groups, room, &mut || sink.should_stop())
        }
        PbEncoding::Bdd => {
            large::bdd(sink, &n, groups);
            return None;
        }
        PbEncoding::Adder => Plan::Adder,
        e => Plan::Order(e),
    };
    let enc = match plan {
        Plan::Order(e) => e,
        Plan::Bdd(items, diagrams) => {
            large::emit_all(sink, &n, items, &diagrams);
            return None;
        }
        Plan::Adder => {
            adder::encode_range(sink, &n.terms, n.lo, n.hi);
            return None;
        }
    };
    // The order encodings count in u64 (with a cap): a row whose sums pass that range
    // (only possible with several coefficients near 2^63) takes the adder instead.
    if n.total >= u128::from(u64::MAX / 2) {
        adder::encode_range(sink, &n.terms, n.lo, n.hi);
        return None;
    }
    let (lo, hi) = n.bounds_u64();
    // Sums at or above `cap` are all alike for this constraint.
    let cap = match hi {
        Some(h) => h + 1,
        None => lo,
    };
    let items: Vec<OrderInt> = match enc {
        PbEncoding::Domain => grouped_items(sink, &n.terms, groups),
        _ => n.terms.iter().map(|&(c, l)| OrderInt::term(c, l)).collect(),
    };
    let sum = match enc {
        PbEncoding::Totalizer => tree(sink, &items, cap),
        _ => {
            let mut it = items.into_iter();
            let first = it.next().unwrap_or_else(|| OrderInt::constant(0));
            it.fold(first, |acc, x| OrderInt::add(sink, &acc, &x, cap))
        }
    };
    let mut buf = Vec::new();
    imply(sink, &[], sum.at_least(lo), &mut buf);
    if let Some(h) = hi {
        imply(sink, &[sum.at_least(h + 1)], B::False, &mut buf);
    }
    let reusable =
        hi.is_some() && n.terms.iter().all(|(_, l)| l.is_positive()) && lin.terms.iter().all(|(c, _)| *c >= 0);
    reusable.then_some(sum)
}

/// `sum of parts' left sides (cmp) rhs`: from the parts' own sums when all were kept, so
/// that fixing each part propagates straight to the total; otherwise as one big linear.
#[allow(clippy::too_many_arguments)]
fn sum_of(
    sink: &mut dyn ClauseSink,
    f: &PbFormula,
    parts: &[usize],
    cmp: Cmp,
    rhs: i64,
    sums: &HashMap<usize, OrderInt>,
    enc: PbEncoding,
    groups: &Groups,
) {
    let kept: Option<Vec<OrderInt>> = parts.iter().map(|p| sums.get(p).cloned()).collect();
    let Some(items) = kept else {
        linear(sink, &f.expand_sum_of(parts, cmp, rhs), enc, groups);
        return;
    };
    let mut buf = Vec::new();
    if rhs < 0 {
        if cmp != Cmp::Ge {
            sink.add_clause(&[]);
        }
        return;
    }
    let rhs = rhs.unsigned_abs();
    let (lo, hi) = match cmp {
        Cmp::Le => (0, Some(rhs)),
        Cmp::Ge => (rhs, None),
        Cmp::Eq => (rhs, Some(rhs)),
    };
    let cap = hi.map_or(lo, |h| h + 1).max(1);
    let total = tree(sink, &items, cap);
    imply(sink, &[], total.at_least(lo), &mut buf);
    if let Some(h) = hi {
        imply(sink, &[total.at_least(h + 1)], B::False, &mut buf);
    }
}

fn tree(sink: &mut dyn ClauseSink, items: &[OrderInt], cap: u64) -> OrderInt {
    match items.len() {
        0 => OrderInt::constant(0),
        1 => items[0].clone(),
        n => {
            let a = tree(sink, &items[..n / 2], cap);
            let b = tree(sink, &items[n / 2..], cap);
            OrderInt::add(sink, &a, &b, cap)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Cnf;
    use crate::ir::Var;

    /// `sum i * x_i = n` over `n` variables: a sum with many distinct weights.
    fn wide(n: u32) -> PbFormula {
        let mut f = PbFormula::new(n);
        let terms = (0..n).map(|i| (i as i64 + 1, Var(i).pos())).collect();
        f.add("wide", Constraint::Linear(Linear::new(terms, Cmp::Eq, n as i64)));
        f
    }

    #[test]
    fn a_passed_deadline_stops_encoding() {
        let stop = Deadline::new(
            None,
            Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true))),
        );
        let r = encode_until(&wide(300), EncodeOptions::default(), &mut Cnf::new(), &stop);
        assert!(matches!(r, Err(EncodeError::TimedOut)), "{r:?}");
        let r = estimate(&wide(300), EncodeOptions::default(), Cost::CNF, &stop, "test");
        assert!(matches!(r, Err(EncodeError::TimedOut)), "{r:?}");
    }

    #[test]
    fn the_estimate_counts_what_encoding_writes() {
        for pb in PbEncoding::ALL {
            let opts = EncodeOptions {
                pb,
                ..Default::default()
            };
            let mut cnf = Cnf::new();
            encode(&wide(60), opts, &mut cnf).unwrap();
            let e = estimate(&wide(60), opts, Cost::CNF, &Deadline::default(), "test").unwrap();
            assert_eq!(e.clauses, cnf.num_clauses() as u64);
            assert_eq!(e.vars, cnf.num_vars as u64);
            assert_eq!(e.lits, cnf.clauses().map(|c| c.len() as u64).sum::<u64>());
        }
    }

    #[test]
    fn the_memory_limit_refuses_by_the_sink_cost() {
        let opts = EncodeOptions {
            max_memory: 100_000,
            ..Default::default()
        };
        match estimate(&wide(300), opts, Cost::CNF, &Deadline::default(), "the CNF for a test") {
            Err(EncodeError::Memory {
                needed, limit, what, ..
            }) => {
                assert!(needed > limit && limit == 100_000);
                assert!(what.starts_with("the CNF for a test (auto encoding"), "{what}");
            }
            other => panic!("{other:?}"),
        }
        // The same through the sink's own cost, and the error names the limit.
        let e = encode(&wide(300), opts, &mut Cnf::new()).unwrap_err();
        assert!(e.to_string().contains("(--max-memory); raise --max-memory"), "{e}");
    }
}

//! The CNF driver: every IR constraint, encoded into a sink.

use std::collections::HashMap;

use super::card::{at_most_one, exactly_one};
use super::order::{B, OrderInt, imply};
use super::sink::{Budgeted, ClauseSink};
use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};

/// How linear constraints become clauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PbEncoding {
    /// Domain-aware: terms that share an exactly-one/at-most-one group become one small
    /// integer (order-encoded "weight at this corner"), then a running unary sum.
    #[default]
    Domain,
    /// Generic sequential weight counter over the raw literals.
    Swc,
    /// Generic generalized totalizer (balanced tree of unary adders) over the raw literals.
    Totalizer,
}

impl PbEncoding {
    pub fn name(self) -> &'static str {
        match self {
            PbEncoding::Domain => "domain",
            PbEncoding::Swc => "swc",
            PbEncoding::Totalizer => "totalizer",
        }
    }
}

/// Default clause budget of one encoding. Measured: 50M short clauses took 4.3 GB in varisat
/// (sequential counter on large weights), so 20M keeps a solve under about 2 GB.
pub const DEFAULT_MAX_CLAUSES: u64 = 20_000_000;

#[derive(Debug, Clone, Copy)]
pub struct EncodeOptions {
    pub pb: PbEncoding,
    /// Give up (with [`EncodeError::TooLarge`]) rather than write more clauses than this.
    pub max_clauses: u64,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            pb: PbEncoding::default(),
            max_clauses: DEFAULT_MAX_CLAUSES,
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum EncodeError {
    #[error(
        "the CNF would need more than {limit} clauses (at constraint \"{label}\", {encoding} encoding); raise --max-clauses, try another --pb-encoding, or use a backend that takes linear rows as they are (search, cp, mip)"
    )]
    TooLarge {
        label: String,
        limit: u64,
        encoding: &'static str,
    },
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
/// Stops with [`EncodeError::TooLarge`] once the clause budget is spent; the sink then holds
/// a partial CNF that must not be used.
pub fn encode(f: &PbFormula, opts: EncodeOptions, sink: &mut dyn ClauseSink) -> Result<EncodeStats, EncodeError> {
    let mut budgeted = Budgeted::new(sink, opts.max_clauses);
    let sink: &mut Budgeted = &mut budgeted;
    sink.reserve_vars(f.num_vars);
    let groups = Groups::new(f);
    let mut stats = EncodeStats::default();
    // Left-side sums built so far, by constraint index, for `SumOf`.
    let mut sums: HashMap<usize, OrderInt> = HashMap::new();
    for (index, (label, c)) in f.constraints.iter().enumerate() {
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
        if sink.over {
            return Err(EncodeError::TooLarge {
                label: label.clone(),
                limit: opts.max_clauses,
                encoding: opts.pb.name(),
            });
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

/// At-most-one groups of the formula (exactly-one groups included), by variable.
struct Groups {
    /// For each group: its variables, and whether exactly one of them must hold.
    members: Vec<(Vec<Var>, bool)>,
    of_var: HashMap<Var, Vec<usize>>,
}

impl Groups {
    fn new(f: &PbFormula) -> Groups {
        let mut members = Vec::new();
        let mut of_var: HashMap<Var, Vec<usize>> = HashMap::new();
        for (_, c) in &f.constraints {
            let (ls, exact) = match c {
                Constraint::ExactlyOne(ls) => (ls, true),
                Constraint::AtMostOne(ls) => (ls, false),
                _ => continue,
            };
            if ls.iter().any(|l| !l.is_positive()) {
                continue;
            }
            let g = members.len();
            for l in ls {
                of_var.entry(l.var()).or_default().push(g);
            }
            members.push((ls.iter().map(|l| l.var()).collect(), exact));
        }
        Groups { members, of_var }
    }
}

/// `sum coef * lit` with positive coefficients, distinct variables, and `lo <= sum <= hi`.
struct Normal {
    terms: Vec<(u64, Lit)>,
    lo: u64,
    /// `None`: no upper bound.
    hi: Option<u64>,
    unsat: bool,
}

fn normalize(lin: &Linear) -> Normal {
    // Merge per variable: c1*x + c2*!x = c2 + (c1 - c2)*x.
    let mut per_var: Vec<(Var, i64, i64)> = Vec::new(); // (var, coef of x, coef of !x)
    let mut idx: HashMap<Var, usize> = HashMap::new();
    for &(c, l) in &lin.terms {
        let k = *idx.entry(l.var()).or_insert_with(|| {
            per_var.push((l.var(), 0, 0));
            per_var.len() - 1
        });
        if l.is_positive() {
            per_var[k].1 += c;
        } else {
            per_var[k].2 += c;
        }
    }
    let mut shift: i64 = 0; // constant moved to the left side
    let mut terms = Vec::new();
    for (v, cp, cn) in per_var {
        shift += cn;
        let c = cp - cn;
        if c > 0 {
            terms.push((c as u64, v.pos()));
        } else if c < 0 {
            // c*x = c - c*!x
            shift += c;
            terms.push(((-c) as u64, v.negative()));
        }
    }
    let total: i64 = terms.iter().map(|&(c, _)| c as i64).sum();
    let rhs = lin.rhs - shift;
    let (lo, hi) = match lin.cmp {
        Cmp::Le => (i64::MIN, rhs),
        Cmp::Ge => (rhs, i64::MAX),
        Cmp::Eq => (rhs, rhs),
    };
    let unsat = hi < 0 || lo > total || lo > hi;
    Normal {
        terms,
        lo: lo.max(0) as u64,
        hi: if hi >= total { None } else { Some(hi.max(0) as u64) },
        unsat,
    }
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
    // Sums at or above `cap` are all alike for this constraint.
    let cap = match n.hi {
        Some(h) => h + 1,
        None => n.lo,
    };
    let items: Vec<OrderInt> = match enc {
        PbEncoding::Domain => grouped_items(sink, &n.terms, groups),
        PbEncoding::Swc | PbEncoding::Totalizer => n.terms.iter().map(|&(c, l)| OrderInt::term(c, l)).collect(),
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
    imply(sink, &[], sum.at_least(n.lo), &mut buf);
    if let Some(h) = n.hi {
        imply(sink, &[sum.at_least(h + 1)], B::False, &mut buf);
    }
    let reusable =
        n.hi.is_some() && n.terms.iter().all(|(_, l)| l.is_positive()) && lin.terms.iter().all(|(c, _)| *c >= 0);
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
    let rhs = rhs as u64;
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

/// Groups terms whose variables are in a common at-most-one group into one integer each.
/// Groups covering more terms are taken first; what is left stays a single term.
fn grouped_items(sink: &mut dyn ClauseSink, terms: &[(u64, Lit)], groups: &Groups) -> Vec<OrderInt> {
    let mut cover: HashMap<usize, usize> = HashMap::new();
    for &(_, l) in terms {
        if l.is_positive() {
            for &g in groups.of_var.get(&l.var()).map(Vec::as_slice).unwrap_or(&[]) {
                *cover.entry(g).or_default() += 1;
            }
        }
    }
    let mut order: Vec<(usize, usize)> = cover.into_iter().filter(|&(_, c)| c > 1).collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut owner: Vec<Option<usize>> = vec![None; terms.len()];
    for &(g, _) in &order {
        let take: Vec<usize> = (0..terms.len())
            .filter(|&i| {
                owner[i].is_none()
                    && terms[i].1.is_positive()
                    && groups.of_var.get(&terms[i].1.var()).is_some_and(|gs| gs.contains(&g))
            })
            .collect();
        if take.len() > 1 {
            for i in take {
                owner[i] = Some(g);
            }
        }
    }
    // Items in order of their first term, so a running sum follows the input's order.
    let mut items = Vec::new();
    let mut done: Vec<usize> = Vec::new();
    for i in 0..terms.len() {
        match owner[i] {
            None => items.push(OrderInt::term(terms[i].0, terms[i].1)),
            Some(g) if !done.contains(&g) => {
                done.push(g);
                let mine: Vec<(u64, Lit)> = (0..terms.len())
                    .filter(|&j| owner[j] == Some(g))
                    .map(|j| terms[j])
                    .collect();
                let (vars, exact) = &groups.members[g];
                let can_be_zero = !exact || vars.len() > mine.len();
                items.push(group_int(sink, &mine, can_be_zero));
            }
            Some(_) => {}
        }
    }
    items
}

/// The integer "coefficient of the one true literal" of an at-most-one group.
fn group_int(sink: &mut dyn ClauseSink, mine: &[(u64, Lit)], can_be_zero: bool) -> OrderInt {
    let mut values: Vec<u64> = mine.iter().map(|&(c, _)| c).collect();
    if can_be_zero {
        values.push(0);
    }
    values.sort_unstable();
    values.dedup();
    let mut ge = Vec::with_capacity(values.len() - 1);
    for &v in &values[1..] {
        let xs: Vec<Lit> = mine.iter().filter(|&&(c, _)| c >= v).map(|&(_, l)| l).collect();
        if xs.len() == 1 {
            ge.push(xs[0]);
            continue;
        }
        // g <-> OR xs (exact because at most one of xs holds).
        let g = sink.new_var().pos();
        for &x in &xs {
            sink.add_clause(&[!x, g]);
        }
        let mut c: Vec<Lit> = vec![!g];
        c.extend_from_slice(&xs);
        sink.add_clause(&c);
        ge.push(g);
    }
    OrderInt { values, ge }
}

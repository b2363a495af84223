//! The at-most-one groups of a formula, and the integers the domain encoding makes of the
//! terms of a row that share a group (also the integers of `auto`'s decision diagrams).

use std::collections::HashMap;

use super::order::OrderInt;
use super::sink::ClauseSink;
use crate::ir::{Constraint, Lit, PbFormula, Var};

/// At-most-one groups of the formula (exactly-one groups included), by variable.
pub(super) struct Groups {
    /// For each group: its variables, and whether exactly one of them must hold.
    members: Vec<(Vec<Var>, bool)>,
    of_var: HashMap<Var, Vec<usize>>,
}

impl Groups {
    pub(super) fn new(f: &PbFormula) -> Groups {
        let mut members = Vec::new();
        let mut of_var: HashMap<Var, Vec<usize>> = HashMap::new();
        for (_, c) in f.constraints() {
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

/// One integer of the domain encoding's running sum: a lone term, or the terms of one
/// at-most-one group (and whether the group may have none of them true).
pub(super) enum Item {
    Term(usize),
    Group(Vec<usize>, bool),
}

impl Item {
    /// The values this integer takes, ascending.
    pub(super) fn values(&self, terms: &[(u64, Lit)]) -> Vec<u64> {
        match self {
            Item::Term(i) => vec![0, terms[*i].0],
            Item::Group(own, can_be_zero) => {
                let mut v: Vec<u64> = own.iter().map(|&j| terms[j].0).collect();
                if *can_be_zero {
                    v.push(0);
                }
                v.sort_unstable();
                v.dedup();
                v
            }
        }
    }
}

/// Groups terms whose variables are in a common at-most-one group into one integer each.
/// Groups covering more terms are taken first; what is left stays a single term.
///
/// Linear in the terms and their group memberships: a vertex of a large bipyramid sees
/// thousands of faces with dozens of options each, so nothing here may be quadratic.
pub(super) fn group_plan(terms: &[(u64, Lit)], groups: &Groups) -> Vec<Item> {
    // The terms of each group, in term order.
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, &(_, l)) in terms.iter().enumerate() {
        if l.is_positive() {
            for &g in groups.of_var.get(&l.var()).map(Vec::as_slice).unwrap_or(&[]) {
                let m = members.entry(g).or_default();
                // A variable listed twice in one group is one term of it.
                if m.last() != Some(&i) {
                    m.push(i);
                }
            }
        }
    }
    let mut order: Vec<(usize, usize)> = members
        .iter()
        .filter(|(_, m)| m.len() > 1)
        .map(|(&g, m)| (g, m.len()))
        .collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut owner: Vec<Option<usize>> = vec![None; terms.len()];
    // The terms each group took, in term order.
    let mut taken: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(g, _) in &order {
        let take: Vec<usize> = members[&g].iter().copied().filter(|&i| owner[i].is_none()).collect();
        if take.len() > 1 {
            for &i in &take {
                owner[i] = Some(g);
            }
            taken.insert(g, take);
        }
    }
    // Items in order of their first term, so a running sum follows the input's order.
    let mut items = Vec::new();
    for (i, owner) in owner.iter().enumerate() {
        match *owner {
            None => items.push(Item::Term(i)),
            Some(g) => {
                let Some(own) = taken.remove(&g) else {
                    continue; // built at its first term
                };
                let (vars, exact) = &groups.members[g];
                let can_be_zero = !exact || vars.len() > own.len();
                items.push(Item::Group(own, can_be_zero));
            }
        }
    }
    items
}

/// The domain encoding's integers, built.
pub(super) fn grouped_items(sink: &mut dyn ClauseSink, terms: &[(u64, Lit)], groups: &Groups) -> Vec<OrderInt> {
    build_items(sink, terms, group_plan(terms, groups))
}

/// The integers of a plan, built: a term is its own literal, a group gets its order literals.
pub(super) fn build_items(sink: &mut dyn ClauseSink, terms: &[(u64, Lit)], plan: Vec<Item>) -> Vec<OrderInt> {
    plan.into_iter()
        .map(|item| match item {
            Item::Term(i) => OrderInt::term(terms[i].0, terms[i].1),
            Item::Group(own, can_be_zero) => {
                let mine: Vec<(u64, Lit)> = own.iter().map(|&j| terms[j]).collect();
                group_int(sink, &mine, can_be_zero)
            }
        })
        .collect()
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

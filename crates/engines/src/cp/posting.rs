//! How the IR's rows are given to pumpkin while the model is built: each variable's literal,
//! a row's terms on one group as that group's table, and wide rows over partial sums.

use std::collections::HashMap;

use pumpkin_core::Solver;
use pumpkin_core::predicate;
use pumpkin_core::variables::{AffineView, DomainId, Literal, TransformableVariable};

use super::ints::{Tag, at, narrow};
use super::table_element::TableElementArgs;
use crate::ir::{Cmp, Linear, Lit};

/// pumpkin's model while it is built.
pub(super) struct Posting {
    pub(super) solver: Solver,
    pub(super) tag: Tag,
    /// `place[v]`: the chosen group of variable `v` and its value there.
    pub(super) place: Vec<Option<(usize, i32)>>,
    pub(super) group_len: Vec<usize>,
    /// The groups' integers.
    pub(super) ints: Vec<DomainId>,
    /// Each variable's literal, made when a constraint first needs it: for a group's variable
    /// the view `[P = i]` (pumpkin ties it to P with two clauses), otherwise a fresh 0/1
    /// variable. A group's variables that only rows' `element`s see need none.
    pub(super) lits: Vec<Option<Literal>>,
    /// Integers made besides the groups'.
    pub(super) made: usize,
    /// 0/1 variables made for variables outside the groups.
    pub(super) fresh: usize,
}

impl Posting {
    pub(super) fn lit(&mut self, l: Lit) -> Literal {
        let v = l.var().index();
        let x = match self.lits[v] {
            Some(x) => x,
            None => {
                let x = match self.place[v] {
                    Some((g, value)) => {
                        let p = self.ints[g];
                        self.solver.new_literal_for_predicate(predicate![p == value], self.tag)
                    }
                    None => {
                        self.fresh += 1;
                        self.solver.new_literal()
                    }
                };
                self.lits[v] = Some(x);
                x
            }
        };
        if l.is_positive() { x } else { !x }
    }

    /// Posts `lin` plus the integer terms `extra` (coefficient 1). Returns with `want_sum`
    /// an integer equal to the row's left side, and false when the row has no variables and
    /// does not hold.
    pub(super) fn post(&mut self, lin: &Linear, extra: &[DomainId], want_sum: bool) -> (Option<DomainId>, bool) {
        let tag = self.tag;
        // The row's terms on each group: (group, (value, coefficient, literal) of each).
        type Terms = Vec<(i32, i64, Lit)>;
        let mut per_group: Vec<(usize, Terms)> = Vec::new();
        // Where each group is in `per_group` (a row can span thousands of groups).
        let mut slot: HashMap<usize, usize> = HashMap::new();
        let mut loose: Vec<(i64, Lit)> = Vec::new();
        for &(c, l) in &lin.terms {
            match self.place[l.var().index()] {
                // A negated literal of a group's variable is on the group too: `c·¬[P = i]`
                // adds `c` at every value but `i`. (Made into a literal of its own instead,
                // each of these costs pumpkin an equality literal on P: on nw04's objective
                // row, 87,482 of them took 3 s to post, past any deadline.)
                Some((g, i)) => {
                    let k = *slot.entry(g).or_insert_with(|| {
                        per_group.push((g, Vec::new()));
                        per_group.len() - 1
                    });
                    per_group[k].1.push((i, c, l));
                }
                _ => loose.push((c, l)),
            }
        }
        let mut terms: Vec<AffineView<DomainId>> = extra.iter().map(|d| d.scaled(1)).collect();
        // Bounds of the left side, for the optional sum variable.
        let (mut lo, mut hi) = (0i64, 0i64);
        for d in extra {
            lo += i64::from(self.solver.lower_bound(d));
            hi += i64::from(self.solver.upper_bound(d));
        }
        for (g, entries) in per_group {
            // Few terms on a group stay literal views; more become one integer, the group's
            // contribution `W = table[P]`.
            if entries.len() < 2 {
                loose.extend(entries.into_iter().map(|(_, c, l)| (c, l)));
                continue;
            }
            let mut table = vec![0i32; self.group_len[g]];
            let mut everywhere = 0i32;
            for (i, c, l) in entries {
                if l.is_positive() {
                    table[at(i)] += narrow(c);
                } else {
                    table[at(i)] -= narrow(c);
                    everywhere += narrow(c);
                }
            }
            for t in &mut table {
                *t += everywhere;
            }
            let (a, b) = (*table.iter().min().unwrap_or(&0), *table.iter().max().unwrap_or(&0));
            lo += i64::from(a);
            hi += i64::from(b);
            let w = self.solver.new_bounded_integer(a, b);
            self.made += 1;
            let _ = self.solver.add_propagator(TableElementArgs {
                index: self.ints[g],
                table: table.into(),
                rhs: w,
                tag,
                holes: false,
            });
            terms.push(w.scaled(1));
        }
        // A zero coefficient adds nothing, and pumpkin 0.5.0's linear propagator asserts that
        // every bound change of a term moves its sum (found by tests/cp_model.rs).
        for (c, l) in loose.into_iter().filter(|&(c, _)| c != 0) {
            terms.push(self.lit(l).get_integer_variable().scaled(narrow(c)));
            lo += c.min(0);
            hi += c.max(0);
        }
        let rhs = narrow(lin.rhs);
        if want_sum {
            let s = self.solver.new_bounded_integer(narrow(lo), narrow(hi));
            self.made += 1;
            let mut t = partial_sums(&mut self.solver, terms, tag);
            t.push(s.scaled(-1));
            self.solver
                .add_constraint(pumpkin_constraints::equals(t, 0, tag))
                .post();
            post_cmp(&mut self.solver, vec![s.scaled(1)], lin.cmp, rhs, tag);
            return (Some(s), true);
        }
        if terms.is_empty() {
            return (None, lin.cmp.holds(0, lin.rhs));
        }
        post_cmp(&mut self.solver, terms, lin.cmp, rhs, tag);
        (None, true)
    }
}

/// Rows wider than this are posted over partial sums (see [`partial_sums`]).
const WIDE_ROW: usize = 4096;
/// The terms of one partial sum.
const SUM_TERMS: usize = 1024;

/// `terms` as at most [`WIDE_ROW`] terms of the same sum: a wider row's terms are added up in
/// runs of [`SUM_TERMS`], each run into an integer of its own (`run - s = 0`). Bounds reason
/// the same over the runs' sums as over the whole row, and each step of pumpkin's search
/// then touches a run, not the row: on nw04's objective row (87,482 terms) one propagation
/// or explanation of the whole row made single search steps of up to 0.9 s, which no
/// deadline check can cut short.
fn partial_sums(solver: &mut Solver, terms: Vec<AffineView<DomainId>>, tag: Tag) -> Vec<AffineView<DomainId>> {
    if terms.len() <= WIDE_ROW {
        return terms;
    }
    let sums = terms
        .chunks(SUM_TERMS)
        .map(|run| {
            let lo: i64 = run.iter().map(|t| i64::from(solver.lower_bound(t))).sum();
            let hi: i64 = run.iter().map(|t| i64::from(solver.upper_bound(t))).sum();
            let s = solver.new_bounded_integer(narrow(lo), narrow(hi));
            let mut with_sum = run.to_vec();
            with_sum.push(s.scaled(-1));
            solver
                .add_constraint(pumpkin_constraints::equals(with_sum, 0, tag))
                .post();
            s.scaled(1)
        })
        .collect();
    partial_sums(solver, sums, tag)
}

fn post_cmp(solver: &mut Solver, terms: Vec<AffineView<DomainId>>, cmp: Cmp, rhs: i32, tag: Tag) {
    let terms = partial_sums(solver, terms, tag);
    match cmp {
        Cmp::Eq => solver
            .add_constraint(pumpkin_constraints::equals(terms, rhs, tag))
            .post(),
        Cmp::Le => solver
            .add_constraint(pumpkin_constraints::less_than_or_equals(terms, rhs, tag))
            .post(),
        Cmp::Ge => {
            let neg: Vec<_> = terms.iter().map(|t| t.scaled(-1)).collect();
            solver
                .add_constraint(pumpkin_constraints::less_than_or_equals(neg, -rhs, tag))
                .post()
        }
    };
}

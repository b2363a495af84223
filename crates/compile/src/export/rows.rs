//! The model as rows over positive literals, the form LP, MPS, OPB and MiniZinc all write.

use std::collections::hash_map::Entry;

use crate::ir::FastMap;
use crate::ir::{Cmp, Linear, PbFormula};

/// A row with positive literals only: `sum c_i x_i (cmp) rhs`, negations moved into `rhs`
/// (`c * !x = c - c * x`) and coefficients of one variable merged.
#[derive(Debug)]
pub struct Row {
    pub label: String,
    pub terms: Vec<(i64, usize)>,
    pub cmp: Cmp,
    pub rhs: i64,
}

pub fn rows(f: &PbFormula) -> Vec<Row> {
    let labels = f.constraints().iter().map(|(l, _)| l.clone());
    f.linear_rows()
        .into_iter()
        .zip(labels)
        .map(|(lin, label)| positive(&lin, label))
        .collect()
}

/// The objective over variables (positive coefficients or not) and its constant: a term on
/// a negated literal, `c·~x`, is `c - c·x`. `None` without an objective.
pub fn objective(f: &PbFormula) -> Option<(Vec<(i64, usize)>, i64)> {
    let terms = f.objective()?.to_vec();
    let r = positive(&Linear::new(terms, Cmp::Eq, 0), String::new());
    Some((r.terms, -r.rhs))
}

fn positive(lin: &Linear, label: String) -> Row {
    let mut rhs = lin.rhs;
    let mut terms: Vec<(i64, usize)> = Vec::with_capacity(lin.terms.len());
    // Where each variable's term is, so that merging a row's repeated variables stays linear
    // in its length (a bipyramid-2000 row has 16,000 terms); terms keep the order of their
    // first appearance.
    let mut at: FastMap<usize, usize> = FastMap::default();
    for &(c, l) in &lin.terms {
        let (c, v) = if l.is_positive() {
            (c, l.var().index())
        } else {
            rhs -= c;
            (-c, l.var().index())
        };
        match at.entry(v) {
            Entry::Occupied(i) => terms[*i.get()].0 += c,
            Entry::Vacant(e) => {
                e.insert(terms.len());
                terms.push((c, v));
            }
        }
    }
    terms.retain(|t| t.0 != 0);
    Row {
        label,
        terms,
        cmp: lin.cmp,
        rhs,
    }
}

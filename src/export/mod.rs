//! Exports of the IR for external solvers: CPLEX LP, free MPS, OPB (PB competition) and a
//! self-contained MiniZinc model. All are deterministic and use the pool's variable names
//! (OPB, whose grammar only allows `x<n>`, names them in comments).

mod lp;
mod mps;
mod mzn;
mod opb;

use crate::ir::{Cmp, Linear, PbFormula};

pub use lp::write_lp;
pub use mps::write_mps;
pub use mzn::write_mzn;
pub use opb::write_opb;

/// A row with positive literals only: `sum c_i x_i (cmp) rhs`, negations moved into `rhs`
/// (`c * !x = c - c * x`) and coefficients of one variable merged.
pub struct Row {
    pub label: String,
    pub terms: Vec<(i64, usize)>,
    pub cmp: Cmp,
    pub rhs: i64,
}

pub fn rows(f: &PbFormula) -> Vec<Row> {
    let labels = f.constraints.iter().map(|(l, _)| l.clone());
    f.linear_rows()
        .into_iter()
        .zip(labels)
        .map(|(lin, label)| positive(&lin, label))
        .collect()
}

fn positive(lin: &Linear, label: String) -> Row {
    let mut rhs = lin.rhs;
    let mut terms: Vec<(i64, usize)> = Vec::new();
    for &(c, l) in &lin.terms {
        let (c, v) = if l.is_positive() {
            (c, l.var().index())
        } else {
            rhs -= c;
            (-c, l.var().index())
        };
        match terms.iter_mut().find(|t| t.1 == v) {
            Some(t) => t.0 += c,
            None => terms.push((c, v)),
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

/// `+3 x -2 y` style, with a caller-chosen variable spelling.
pub(crate) fn signed(c: i64) -> String {
    if c < 0 { format!("- {}", -c) } else { format!("+ {c}") }
}

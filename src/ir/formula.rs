use std::fmt;

use super::lit::Lit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    Le,
    Ge,
    Eq,
}

impl fmt::Display for Cmp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cmp::Le => "<=",
            Cmp::Ge => ">=",
            Cmp::Eq => "=",
        })
    }
}

/// `sum coef_i * lit_i  (<=, >=, =)  rhs` over literals (a negative literal counts 1 when
/// its variable is false).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Linear {
    pub terms: Vec<(i64, Lit)>,
    pub cmp: Cmp,
    pub rhs: i64,
}

impl Linear {
    pub fn new(terms: Vec<(i64, Lit)>, cmp: Cmp, rhs: i64) -> Linear {
        Linear { terms, cmp, rhs }
    }

    pub fn lhs(&self, assignment: &[bool]) -> i64 {
        self.terms.iter().filter(|(_, l)| l.eval(assignment)).map(|(c, _)| c).sum()
    }

    pub fn holds(&self, assignment: &[bool]) -> bool {
        let s = self.lhs(assignment);
        match self.cmp {
            Cmp::Le => s <= self.rhs,
            Cmp::Ge => s >= self.rhs,
            Cmp::Eq => s == self.rhs,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Constraint {
    /// At least one literal is true.
    Clause(Vec<Lit>),
    /// At most one literal is true.
    AtMostOne(Vec<Lit>),
    /// Exactly one literal is true.
    ExactlyOne(Vec<Lit>),
    Linear(Linear),
}

impl Constraint {
    pub fn holds(&self, a: &[bool]) -> bool {
        let count = |ls: &[Lit]| ls.iter().filter(|l| l.eval(a)).count();
        match self {
            Constraint::Clause(ls) => count(ls) >= 1,
            Constraint::AtMostOne(ls) => count(ls) <= 1,
            Constraint::ExactlyOne(ls) => count(ls) == 1,
            Constraint::Linear(lin) => lin.holds(a),
        }
    }

    pub fn lits(&self) -> Box<dyn Iterator<Item = Lit> + '_> {
        match self {
            Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls) => Box::new(ls.iter().copied()),
            Constraint::Linear(lin) => Box::new(lin.terms.iter().map(|&(_, l)| l)),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Constraint::Clause(_) => "clause",
            Constraint::AtMostOne(_) => "at-most-one",
            Constraint::ExactlyOne(_) => "exactly-one",
            Constraint::Linear(_) => "linear",
        }
    }
}

/// The first constraint an assignment violates.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("constraint #{index} ({label}, {kind}) is violated: {detail}")]
pub struct Violation {
    pub index: usize,
    pub label: String,
    pub kind: &'static str,
    pub detail: String,
}

/// A pseudo-Boolean formula over variables `0..num_vars`, each constraint with a label
/// saying what it stands for ("vertex A", "face ABC", ...).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PbFormula {
    pub num_vars: u32,
    pub constraints: Vec<(String, Constraint)>,
}

impl PbFormula {
    pub fn add(&mut self, label: impl Into<String>, c: Constraint) {
        for l in c.lits() {
            assert!(l.var().0 < self.num_vars, "literal of an unknown variable in {}", c.kind());
        }
        self.constraints.push((label.into(), c));
    }

    /// Checks a full assignment (one value per variable) and names the first violated
    /// constraint.
    pub fn evaluate(&self, assignment: &[bool]) -> Result<(), Violation> {
        if assignment.len() != self.num_vars as usize {
            return Err(Violation {
                index: 0,
                label: "assignment".into(),
                kind: "size",
                detail: format!("{} values for {} variables", assignment.len(), self.num_vars),
            });
        }
        for (i, (label, c)) in self.constraints.iter().enumerate() {
            if !c.holds(assignment) {
                let detail = match c {
                    Constraint::Linear(lin) => format!("left side is {}, needs {} {}", lin.lhs(assignment), lin.cmp, lin.rhs),
                    other => {
                        let n = other.lits().filter(|l| l.eval(assignment)).count();
                        format!("{n} of its literals are true")
                    }
                };
                return Err(Violation { index: i, label: label.clone(), kind: c.kind(), detail });
            }
        }
        Ok(())
    }

    pub fn count(&self, kind: &str) -> usize {
        self.constraints.iter().filter(|(_, c)| c.kind() == kind).count()
    }
}

use std::fmt;

use super::lit::Lit;

/// How a linear row's left side compares with its right side.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `=`
    Eq,
}

impl Cmp {
    /// Whether `lhs cmp rhs` holds.
    pub fn holds(self, lhs: i64, rhs: i64) -> bool {
        match self {
            Cmp::Le => lhs <= rhs,
            Cmp::Ge => lhs >= rhs,
            Cmp::Eq => lhs == rhs,
        }
    }
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
        self.terms
            .iter()
            .filter(|(_, l)| l.eval(assignment))
            .map(|(c, _)| c)
            .sum()
    }

    pub fn holds(&self, assignment: &[bool]) -> bool {
        self.cmp.holds(self.lhs(assignment), self.rhs)
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
    /// An implied constraint: the left sides of the earlier linear constraints `parts`,
    /// added up, compared with `rhs`. Encoders may build it from the sums they already made
    /// for the parts (so propagation sees the whole at once); backends that cannot may
    /// expand it with [`PbFormula::expand_sum_of`].
    SumOf {
        parts: Vec<usize>,
        cmp: Cmp,
        rhs: i64,
    },
}

impl Constraint {
    pub(crate) fn lits(&self) -> Box<dyn Iterator<Item = Lit> + '_> {
        match self {
            Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls) => {
                Box::new(ls.iter().copied())
            }
            Constraint::Linear(lin) => Box::new(lin.terms.iter().map(|&(_, l)| l)),
            Constraint::SumOf { .. } => Box::new(std::iter::empty()),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Constraint::Clause(_) => "clause",
            Constraint::AtMostOne(_) => "at-most-one",
            Constraint::ExactlyOne(_) => "exactly-one",
            Constraint::Linear(_) => "linear",
            Constraint::SumOf { .. } => "sum-of",
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
///
/// Its invariants (every literal is of a variable below `num_vars`; a `SumOf` refers to
/// earlier linear rows) are kept by [`PbFormula::add`] and [`PbFormula::set_objective`]:
/// outside the crate the fields are read through accessors only.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PbFormula {
    pub(crate) num_vars: u32,
    pub(crate) constraints: Vec<(String, Constraint)>,
    /// A linear objective to minimise, `Σ coef·lit` (OPB's `min:`); `None` for a
    /// decision problem. Backends solve the constraints; the run path improves an answer
    /// until no better one exists (`run::optimise`).
    pub(crate) objective: Option<Vec<(i64, Lit)>>,
    /// An objective too wide for one 64-bit sum (OPB files past 62 bits), minimised
    /// lexicographically: `objective` is its first stage (see [`Staged`]).
    pub(crate) staged: Option<Staged>,
    /// Rows too wide for 64 bits, as written, next to the digit columns that stand for them
    /// in `constraints` (see [`WideRow`]).
    pub(crate) wide: Vec<WideRow>,
}

/// A row too wide for one 64-bit row, kept exactly beside the digit columns over slack and
/// carry bits that stand for it in the formula's constraints (`ir/digits.rs`). Every backend
/// solves the columns; an engine that takes the row whole (`mitm`) may use it instead, and
/// then finds the auxiliary bits from the columns. Changing a column's right-hand side drops
/// the row ([`PbFormula::set_rhs`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WideRow {
    pub terms: Vec<(num_bigint::BigInt, Lit)>,
    pub cmp: Cmp,
    pub rhs: num_bigint::BigInt,
    /// The indices of its digit columns among the constraints.
    pub columns: std::ops::Range<usize>,
    /// Its slack and carry bits, which its columns define and nothing else uses.
    pub aux: std::ops::Range<u32>,
}

impl WideRow {
    /// Whether the row holds under `assignment`, in exact arithmetic.
    pub fn holds(&self, assignment: &[bool]) -> bool {
        let lhs: num_bigint::BigInt = self
            .terms
            .iter()
            .filter(|(_, l)| l.eval(assignment))
            .map(|(c, _)| c)
            .sum();
        match self.cmp {
            Cmp::Le => lhs <= self.rhs,
            Cmp::Ge => lhs >= self.rhs,
            Cmp::Eq => lhs == self.rhs,
        }
    }
}

/// An objective whose sums do not fit in 64 bits, minimised in stages.
///
/// The front-end defines the objective's value, up to a constant, as `Σ 2^b·z_b` in binary
/// over fresh bits `z_b` (an exact row, written as digit columns). Minimising it is then
/// minimising its binary digits lexicographically, top first: a stage is `Σ 2^(b-lo)·z_b`
/// over one chunk `lo..hi` of the bits ([`Staged::stages`]), minimised with the bits of the
/// stages before it fixed at their optimum (the binary form of a number is unique, so
/// fixing a chunk's bits fixes its value and nothing else). The formula's own objective is
/// the first stage of 61 bits; the run path cuts the stages as wide as the backend takes
/// ([`crate::backend::Backend::objective_stage_bits`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staged {
    /// The whole objective, exactly (`Σ coef·lit`, minimised, as `objective` would be).
    pub exact: Vec<(num_bigint::BigInt, Lit)>,
    /// The bits `z_b` of the value, lowest first.
    pub bits: Vec<Lit>,
}

impl Staged {
    /// The stages, top first, each over at most `width` bits (at least 1, at most 61).
    pub fn stages(&self, width: u32) -> Vec<Vec<(i64, Lit)>> {
        let width = width.clamp(1, 61) as usize;
        let mut out = Vec::new();
        let mut hi = self.bits.len();
        while hi > 0 {
            let lo = hi.saturating_sub(width);
            out.push((lo..hi).map(|b| (1i64 << (b - lo), self.bits[b])).collect());
            hi = lo;
        }
        out
    }
}

impl PbFormula {
    /// An empty formula over the variables `0..num_vars`.
    pub fn new(num_vars: u32) -> PbFormula {
        PbFormula {
            num_vars,
            ..PbFormula::default()
        }
    }

    /// The number of variables.
    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// The constraints, each with its label, in the order they were added.
    pub fn constraints(&self) -> &[(String, Constraint)] {
        &self.constraints
    }

    /// The objective to minimise, if any.
    pub fn objective(&self) -> Option<&[(i64, Lit)]> {
        self.objective.as_deref()
    }

    /// The rows too wide for 64 bits, as written (see [`WideRow`]).
    pub fn wide_rows(&self) -> &[WideRow] {
        &self.wide
    }

    /// Records that the constraints `columns` are the digit columns of `row`, over the
    /// auxiliary variables `aux` (see [`WideRow`]).
    pub(crate) fn add_wide(&mut self, row: WideRow) {
        debug_assert!(row.columns.end <= self.constraints.len() && row.aux.end <= self.num_vars);
        self.wide.push(row);
    }

    /// Sets the right-hand side of the linear row at `index` (a sweep changes only these
    /// between solves); `false`, and no change, when that row is not linear.
    pub fn set_rhs(&mut self, index: usize, rhs: i64) -> bool {
        match self.constraints.get_mut(index) {
            Some((_, Constraint::Linear(l))) => {
                l.rhs = rhs;
                // The columns no longer stand for the row as written.
                self.wide.retain(|w| !w.columns.contains(&index));
                true
            }
            _ => false,
        }
    }

    /// Sets (or, with `None`, removes) the objective to minimise.
    ///
    /// # Panics
    /// If a literal is of a variable the formula does not have.
    pub fn set_objective(&mut self, terms: Option<Vec<(i64, Lit)>>) {
        if let Some(terms) = &terms {
            for (_, l) in terms {
                assert!(l.var().0 < self.num_vars, "objective literal of an unknown variable");
            }
        }
        self.objective = terms;
        self.staged = None;
    }

    /// Adds a constraint; returns its index (for [`Constraint::SumOf`]).
    pub fn add(&mut self, label: impl Into<String>, c: Constraint) -> usize {
        for l in c.lits() {
            assert!(
                l.var().0 < self.num_vars,
                "literal of an unknown variable in {}",
                c.kind()
            );
        }
        if let Constraint::SumOf { parts, .. } = &c {
            for &p in parts {
                assert!(
                    matches!(self.constraints.get(p), Some((_, Constraint::Linear(_)))),
                    "sum-of refers to constraint #{p}, which is not an earlier linear constraint"
                );
            }
        }
        self.constraints.push((label.into(), c));
        self.constraints.len() - 1
    }

    /// The linear constraint a [`Constraint::SumOf`] stands for, with its parts' terms merged.
    pub fn expand_sum_of(&self, parts: &[usize], cmp: Cmp, rhs: i64) -> Linear {
        let mut terms: Vec<(i64, Lit)> = Vec::new();
        let mut at: super::hash::FastMap<Lit, usize> = super::hash::FastMap::default();
        for &p in parts {
            if let (_, Constraint::Linear(lin)) = &self.constraints[p] {
                for &(c, l) in &lin.terms {
                    match at.get(&l) {
                        Some(&i) => terms[i].0 += c,
                        None => {
                            at.insert(l, terms.len());
                            terms.push((c, l));
                        }
                    }
                }
            }
        }
        Linear::new(terms, cmp, rhs)
    }

    /// The left side of a [`Constraint::SumOf`]: the parts' left sides added up.
    fn sum_of_lhs(&self, parts: &[usize], a: &[bool]) -> i64 {
        parts
            .iter()
            .map(|&p| match &self.constraints[p].1 {
                Constraint::Linear(lin) => lin.lhs(a),
                _ => 0,
            })
            .sum()
    }

    /// Every constraint as a linear row over literals (the 0/1 program view used by MIP and
    /// by the LP, MPS, OPB and MiniZinc exports); `SumOf` rows are expanded.
    pub fn linear_rows(&self) -> Vec<Linear> {
        let unit = |ls: &[Lit], cmp, rhs| Linear::new(ls.iter().map(|&l| (1, l)).collect(), cmp, rhs);
        self.constraints
            .iter()
            .map(|(_, c)| match c {
                Constraint::Clause(ls) => unit(ls, Cmp::Ge, 1),
                Constraint::AtMostOne(ls) => unit(ls, Cmp::Le, 1),
                Constraint::ExactlyOne(ls) => unit(ls, Cmp::Eq, 1),
                Constraint::Linear(lin) => lin.clone(),
                Constraint::SumOf { parts, cmp, rhs } => self.expand_sum_of(parts, *cmp, *rhs),
            })
            .collect()
    }

    fn holds(&self, c: &Constraint, a: &[bool]) -> bool {
        let count = |ls: &[Lit]| ls.iter().filter(|l| l.eval(a)).count();
        match c {
            Constraint::Clause(ls) => count(ls) >= 1,
            Constraint::AtMostOne(ls) => count(ls) <= 1,
            Constraint::ExactlyOne(ls) => count(ls) == 1,
            Constraint::Linear(lin) => lin.holds(a),
            Constraint::SumOf { parts, cmp, rhs } => cmp.holds(self.sum_of_lhs(parts, a), *rhs),
        }
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
            if !self.holds(c, assignment) {
                let detail = match c {
                    Constraint::Linear(lin) => {
                        format!("left side is {}, needs {} {}", lin.lhs(assignment), lin.cmp, lin.rhs)
                    }
                    Constraint::SumOf { parts, cmp, rhs } => {
                        format!("left side is {}, needs {cmp} {rhs}", self.sum_of_lhs(parts, assignment))
                    }
                    other => {
                        let n = other.lits().filter(|l| l.eval(assignment)).count();
                        format!("{n} of its literals are true")
                    }
                };
                return Err(Violation {
                    index: i,
                    label: label.clone(),
                    kind: c.kind(),
                    detail,
                });
            }
        }
        Ok(())
    }

    /// The whole objective's value under `assignment`, exactly: the staged objective's when
    /// there is one, else the objective's (`None` without an objective).
    pub(crate) fn exact_objective_value(&self, assignment: &[bool]) -> Option<num_bigint::BigInt> {
        match &self.staged {
            Some(st) => Some(
                st.exact
                    .iter()
                    .filter(|(_, l)| l.eval(assignment))
                    .map(|(c, _)| c)
                    .sum(),
            ),
            None => self.objective_value(assignment).map(num_bigint::BigInt::from),
        }
    }

    /// The objective's value under `assignment` (`None` without an objective).
    pub fn objective_value(&self, assignment: &[bool]) -> Option<i64> {
        self.objective
            .as_ref()
            .map(|terms| terms.iter().filter(|(_, l)| l.eval(assignment)).map(|(c, _)| c).sum())
    }
}

use std::fmt;

use super::lit::Lit;

/// How a linear row's left side compares with its right side.
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

    /// Whether `lhs cmp rhs` holds, for a left side summed exactly in 128 bits.
    pub fn holds_exactly(self, lhs: i128, rhs: i64) -> bool {
        let rhs = i128::from(rhs);
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

    /// The left side under `assignment`, exactly: summed in 128 bits, which no row can pass
    /// (fewer than 2^60 terms of at most 2^63 each), so a row that [`PbFormula::add`] would
    /// refuse as too wide is still evaluated correctly here.
    pub fn lhs(&self, assignment: &[bool]) -> i128 {
        self.terms
            .iter()
            .filter(|(_, l)| l.eval(assignment))
            .map(|&(c, _)| i128::from(c))
            .sum()
    }

    pub fn holds(&self, assignment: &[bool]) -> bool {
        self.cmp.holds_exactly(self.lhs(assignment), self.rhs)
    }

    /// The sum of the coefficients' absolute values: every left side (and every partial sum
    /// of one, in any order) lies within plus or minus this.
    pub fn magnitude(&self) -> u128 {
        magnitude(&self.terms)
    }
}

/// The sum of the coefficients' absolute values (saturating, which needs more than 2^64
/// terms).
fn magnitude(terms: &[(i64, Lit)]) -> u128 {
    terms
        .iter()
        .fold(0u128, |s, &(c, _)| s.saturating_add(u128::from(c.unsigned_abs())))
}

/// A row, an implied sum or an objective whose coefficients add up past `i64::MAX` in
/// absolute value: its sums would not fit the 64-bit arithmetic that encoders, engines and
/// the evaluator use. Front-ends split such rows before they reach the IR (`pb` writes them
/// as digit columns, and a wide objective in stages).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} is too wide for 64-bit sums: its coefficients add up to {total} in absolute value, past {max}",
    max = i64::MAX
)]
pub struct TooWide {
    /// The constraint (its kind and label) or "the objective".
    pub what: String,
    /// The sum of its coefficients' absolute values.
    pub total: u128,
}

/// Whether a sum of this magnitude fits every 64-bit sum over it.
fn fits(total: u128) -> bool {
    total <= i64::MAX as u128
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
    pub fn lits(&self) -> Box<dyn Iterator<Item = Lit> + '_> {
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
/// (`crate::backend::Backend::objective_stage_bits`).
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
    pub fn add_wide(&mut self, row: WideRow) {
        debug_assert!(row.columns.end <= self.constraints.len() && row.aux.end <= self.num_vars);
        self.wide.push(row);
    }

    /// Sets the right-hand side of row `index`, a linear row or a `SumOf` (a sweep changes
    /// only these between solves); `false`, and no change, when that row has none.
    pub fn set_rhs(&mut self, index: usize, rhs: i64) -> bool {
        let slot = match self.constraints.get_mut(index) {
            Some((_, Constraint::Linear(l))) => &mut l.rhs,
            Some((_, Constraint::SumOf { rhs: r, .. })) => r,
            _ => return false,
        };
        *slot = rhs;
        // The columns no longer stand for the row as written.
        self.wide.retain(|w| !w.columns.contains(&index));
        true
    }

    /// The right-hand side of row `index`, where it has one (a linear row or a `SumOf`).
    pub fn rhs(&self, index: usize) -> Option<i64> {
        match self.constraints.get(index) {
            Some((_, Constraint::Linear(l))) => Some(l.rhs),
            Some((_, Constraint::SumOf { rhs, .. })) => Some(*rhs),
            _ => None,
        }
    }

    /// `n` new variables, numbered from the returned one on (a bound's bits, a counter's
    /// outputs): the formula's rows may use them from now on.
    ///
    /// # Panics
    /// Past `u32::MAX` variables.
    pub fn add_vars(&mut self, n: u32) -> u32 {
        let first = self.num_vars;
        self.num_vars = first.checked_add(n).expect("fewer than 2^32 variables");
        first
    }

    /// Takes the objective out, leaving a decision problem over the same rows (and the same
    /// stages, so that a bound row written for the first stage keeps its meaning).
    pub fn take_objective(&mut self) -> Option<Vec<(i64, Lit)>> {
        self.objective.take()
    }

    /// Drops every row from `len` on (a session's rows for one call), and the wide rows whose
    /// columns went with them.
    pub fn truncate(&mut self, len: usize) {
        self.constraints.truncate(len);
        self.wide.retain(|w| w.columns.end <= len);
    }

    /// Makes one stage of the staged objective the objective to minimise now (`None`: no
    /// stage is left), keeping the stages: the run path minimises them one after another.
    ///
    /// # Panics
    /// If a literal is of a variable the formula does not have, or the stage is too wide for
    /// 64-bit sums (a stage is at most 61 bits wide).
    pub fn set_stage(&mut self, terms: Option<Vec<(i64, Lit)>>) {
        let staged = self.staged.take();
        self.set_objective(terms);
        self.staged = staged;
    }

    /// Sets an objective too wide for one 64-bit sum: its stages, the first of which is the
    /// objective to minimise first.
    ///
    /// # Panics
    /// If a stage's literal is of a variable the formula does not have.
    pub fn set_staged_objective(&mut self, staged: Staged) {
        self.set_objective(staged.stages(61).into_iter().next());
        self.staged = Some(staged);
    }

    /// Takes every row out, for a pass that adds them back rewritten ([`PbFormula::add`]).
    ///
    /// # Panics
    /// If the formula has wide rows or `SumOf` rows, which name rows by position.
    pub fn take_constraints(&mut self) -> Vec<(String, Constraint)> {
        assert!(
            self.wide.is_empty()
                && !self
                    .constraints
                    .iter()
                    .any(|(_, c)| matches!(c, Constraint::SumOf { .. })),
            "rows named by position cannot be taken out"
        );
        std::mem::take(&mut self.constraints)
    }

    /// The objective in its stages, where it is too wide for one 64-bit sum.
    pub fn staged(&self) -> Option<&Staged> {
        self.staged.as_ref()
    }

    /// Sets (or, with `None`, removes) the objective to minimise.
    ///
    /// # Panics
    /// If a literal is of a variable the formula does not have, or the coefficients add up
    /// past `i64::MAX` in absolute value ([`PbFormula::try_set_objective`] says so instead).
    /// Callers keep objectives narrower: `pb` stages an objective from 2^62 on, and the
    /// other front-ends' objectives count tiles.
    pub fn set_objective(&mut self, terms: Option<Vec<(i64, Lit)>>) {
        if let Err(e) = self.try_set_objective(terms) {
            panic!("{e}");
        }
    }

    /// [`PbFormula::set_objective`], with an objective too wide for 64-bit sums refused
    /// (and the formula unchanged).
    ///
    /// # Errors
    /// `TooWide` when the coefficients add up past `i64::MAX` in absolute value.
    ///
    /// # Panics
    /// If a literal is of a variable the formula does not have.
    pub fn try_set_objective(&mut self, terms: Option<Vec<(i64, Lit)>>) -> Result<(), TooWide> {
        if let Some(terms) = &terms {
            for (_, l) in terms {
                assert!(l.var().0 < self.num_vars, "objective literal of an unknown variable");
            }
            let total = magnitude(terms);
            if !fits(total) {
                return Err(TooWide {
                    what: "the objective".into(),
                    total,
                });
            }
        }
        self.objective = terms;
        self.staged = None;
        Ok(())
    }

    /// Adds a constraint; returns its index (for [`Constraint::SumOf`]).
    ///
    /// # Panics
    /// If a literal is of a variable the formula does not have, a `SumOf` names a constraint
    /// that is not an earlier linear one, or the row is too wide for 64-bit sums
    /// ([`PbFormula::try_add`] says so instead). The front-ends never build such a row:
    /// `pb` normalises a row as written below 2^62 (merging, negating, saturating and
    /// dividing by the gcd never raise the sum of the coefficients' absolute values) and
    /// writes a wider one as clauses or digit columns; 3SoKu's and the pools' rows are bounded
    /// by the input limits on weights and capacities, Kakuro's and Tricky Triple's by their
    /// grids; the engines' bound rows are an objective's terms, which
    /// [`PbFormula::set_objective`] bounds.
    pub fn add(&mut self, label: impl Into<String>, c: Constraint) -> usize {
        match self.try_add(label, c) {
            Ok(index) => index,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`PbFormula::add`], with a row too wide for 64-bit sums refused (and the formula
    /// unchanged): a linear row whose coefficients add up past `i64::MAX` in absolute value,
    /// or a `SumOf` whose parts' do together.
    ///
    /// # Errors
    /// `TooWide`, naming the row.
    ///
    /// # Panics
    /// As [`PbFormula::add`], for an unknown variable or a `SumOf` over a part that is not an
    /// earlier linear row.
    pub fn try_add(&mut self, label: impl Into<String>, c: Constraint) -> Result<usize, TooWide> {
        for l in c.lits() {
            assert!(
                l.var().0 < self.num_vars,
                "literal of an unknown variable in {}",
                c.kind()
            );
        }
        let total = match &c {
            Constraint::Linear(lin) => lin.magnitude(),
            Constraint::SumOf { parts, .. } => {
                let mut total = 0u128;
                for &p in parts {
                    match self.constraints.get(p) {
                        Some((_, Constraint::Linear(lin))) => total = total.saturating_add(lin.magnitude()),
                        _ => panic!("sum-of refers to constraint #{p}, which is not an earlier linear constraint"),
                    }
                }
                total
            }
            // A count of literals.
            _ => 0,
        };
        let label = label.into();
        if !fits(total) {
            return Err(TooWide {
                what: format!("constraint #{} ({label}, {})", self.constraints.len(), c.kind()),
                total,
            });
        }
        self.constraints.push((label, c));
        Ok(self.constraints.len() - 1)
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

    /// The left side of a [`Constraint::SumOf`]: the parts' left sides added up, in 128 bits
    /// (exact: [`PbFormula::try_add`] bounds the parts' magnitudes together by `i64::MAX`;
    /// saturating only past 2^127, which no formula that fits in memory reaches).
    fn sum_of_lhs(&self, parts: &[usize], a: &[bool]) -> i128 {
        parts
            .iter()
            .map(|&p| match &self.constraints[p].1 {
                Constraint::Linear(lin) => lin.lhs(a),
                _ => 0,
            })
            .fold(0i128, i128::saturating_add)
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
            Constraint::SumOf { parts, cmp, rhs } => cmp.holds_exactly(self.sum_of_lhs(parts, a), *rhs),
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
    pub fn exact_objective_value(&self, assignment: &[bool]) -> Option<num_bigint::BigInt> {
        match &self.staged {
            Some(st) => Some(
                st.exact
                    .iter()
                    .filter(|(_, l)| l.eval(assignment))
                    .map(|(c, _)| c)
                    .sum(),
            ),
            None => self.objective_sum(assignment).map(num_bigint::BigInt::from),
        }
    }

    /// The objective's value under `assignment` (`None` without an objective).
    ///
    /// # Panics
    /// If the value does not fit in `i64`, which needs an objective too wide for 64-bit sums:
    /// [`PbFormula::set_objective`] refuses one, and the front-ends that set a stage directly
    /// keep it below 2^62 (see [`Staged`]).
    pub fn objective_value(&self, assignment: &[bool]) -> Option<i64> {
        self.objective_sum(assignment)
            .map(|v| i64::try_from(v).unwrap_or_else(|_| panic!("the objective's value {v} is past 64 bits")))
    }

    /// The objective's value, summed exactly in 128 bits (as [`Linear::lhs`]).
    fn objective_sum(&self, assignment: &[bool]) -> Option<i128> {
        self.objective.as_ref().map(|terms| {
            terms
                .iter()
                .filter(|(_, l)| l.eval(assignment))
                .map(|&(c, _)| i128::from(c))
                .sum()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Var;

    fn x(i: u32) -> Lit {
        Lit::new(Var(i), true)
    }

    /// Two coefficients of `i64::MAX` and a 2: the left side under all-true is 2^64, which
    /// a 64-bit sum wraps to 0 (or panics on with overflow checks).
    fn past_64_bits(cmp: Cmp, rhs: i64) -> Linear {
        Linear::new(vec![(i64::MAX, x(0)), (i64::MAX, x(1)), (2, x(2))], cmp, rhs)
    }

    #[test]
    fn a_row_past_64_bits_is_summed_exactly() {
        let all = [true; 3];
        assert_eq!(past_64_bits(Cmp::Ge, 1).lhs(&all), 1i128 << 64);
        // Wrapped, the first would fail and the others hold.
        assert!(past_64_bits(Cmp::Ge, 1).holds(&all));
        assert!(!past_64_bits(Cmp::Le, 0).holds(&all));
        assert!(!past_64_bits(Cmp::Eq, 0).holds(&all));
        // Negative coefficients, below i64::MIN.
        let low = Linear::new(vec![(i64::MIN, x(0)), (i64::MIN, x(1))], Cmp::Ge, 0);
        assert_eq!(low.lhs(&all), -(1i128 << 64));
        assert!(!low.holds(&all));
        assert_eq!(low.magnitude(), 1u128 << 64);
    }

    #[test]
    fn a_formula_refuses_rows_and_objectives_too_wide_for_64_bit_sums() {
        let mut f = PbFormula::new(3);
        let e = f
            .try_add("wide", Constraint::Linear(past_64_bits(Cmp::Ge, 1)))
            .unwrap_err();
        assert_eq!(e.total, 1u128 << 64);
        assert!(e.to_string().contains("constraint #0 (wide, linear)"), "{e}");
        assert!(f.constraints().is_empty());
        // One coefficient of i64::MIN: its absolute value, 2^63, is past i64::MAX (and
        // negating it, as encoders do, overflows).
        let min = Linear::new(vec![(i64::MIN, x(0))], Cmp::Le, 0);
        assert!(f.try_add("min", Constraint::Linear(min)).is_err());
        // Each part fits; their sum does not.
        let half = (1i64 << 62) + 1;
        let a = f.add("a", Constraint::Linear(Linear::new(vec![(half, x(0))], Cmp::Le, half)));
        let b = f.add("b", Constraint::Linear(Linear::new(vec![(half, x(1))], Cmp::Le, half)));
        let sum = Constraint::SumOf {
            parts: vec![a, b],
            cmp: Cmp::Le,
            rhs: 0,
        };
        let e = f.try_add("sum", sum).unwrap_err();
        assert_eq!(e.total, 2 * half as u128);
        assert_eq!(f.constraints().len(), 2);
        // At the edge: exactly i64::MAX fits.
        let edge = Linear::new(vec![(i64::MAX - 1, x(0)), (1, x(2))], Cmp::Ge, 1);
        assert_eq!(f.try_add("edge", Constraint::Linear(edge)), Ok(2));
        // The objective likewise, and a refused one leaves the formula's as it was.
        f.set_objective(Some(vec![(5, x(0))]));
        let e = f
            .try_set_objective(Some(vec![(i64::MAX, x(0)), (1, x(1))]))
            .unwrap_err();
        assert_eq!(e.what, "the objective");
        assert_eq!(f.objective(), Some(&[(5, x(0))][..]));
    }

    #[test]
    #[should_panic(expected = "too wide for 64-bit sums")]
    fn add_panics_on_a_row_too_wide() {
        PbFormula::new(3).add("wide", Constraint::Linear(past_64_bits(Cmp::Ge, 1)));
    }

    /// Rows that reach the formula without `add` (a presolve rewrites rows in place) are still
    /// evaluated exactly, and an objective set directly has its exact value.
    #[test]
    fn evaluate_is_exact_on_rows_that_bypass_the_check() {
        let mut f = PbFormula::new(3);
        f.constraints
            .push(("wide".into(), Constraint::Linear(past_64_bits(Cmp::Le, 0))));
        let all = [true; 3];
        let v = f.evaluate(&all).unwrap_err();
        assert!(v.detail.contains(&format!("left side is {}", 1i128 << 64)), "{v}");
        assert!(f.evaluate(&[false, false, true]).is_err());
        assert!(f.evaluate(&[false; 3]).is_ok());
        f.constraints.clear();
        f.constraints
            .push(("a".into(), Constraint::Linear(past_64_bits(Cmp::Ge, 0))));
        f.constraints
            .push(("b".into(), Constraint::Linear(past_64_bits(Cmp::Ge, 0))));
        f.constraints.push((
            "sum".into(),
            Constraint::SumOf {
                parts: vec![0, 1],
                cmp: Cmp::Ge,
                rhs: 1,
            },
        ));
        assert!(f.evaluate(&all).is_ok());
        f.objective = Some(vec![(i64::MAX, x(0)), (i64::MAX, x(1))]);
        assert_eq!(
            f.exact_objective_value(&all),
            Some(num_bigint::BigInt::from((1i128 << 64) - 2))
        );
    }
}

//! Optimisation: the best solution of a formula with an objective ([`PbFormula::objective`]).
//!
//! Every backend optimises through [`crate::Algorithms::optimise`], in one of three ways
//! ([`Method`]): natively (`mip` gives CBC the objective, `cp` runs pumpkin's linear
//! SAT–UNSAT search), with the objective bound encoded once and tightened under assumptions
//! (the CNF backends, [`by_assumptions`]), or with a bound row whose right-hand side is
//! tightened between solves of a session ([`by_rhs`]). Each model a backend finds goes to
//! the caller's [`Improved`] callback as it is found, which checks it (the run path takes it
//! through the whole check pipeline) and may stop the search; the backend never decides on
//! its own that a model is right.

use std::ops::ControlFlow;

use super::session;
use crate::contract::{Backend, BackendError, Improved, Method, Optimum, Outcome, SolveOptions, SolveStats};
use crate::encode::{EncodeError, PbEncoding};
use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Status, Var};

/// The objective as `constant + Σ coef·x` over distinct variables (a negative literal
/// `c·!x` is `c - c·x`), with its least and greatest values; `None` when a sum does not fit
/// in 62 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normal {
    pub constant: i64,
    pub terms: Vec<(i64, Var)>,
    pub lo: i64,
    pub hi: i64,
}

pub fn normal(objective: &[(i64, Lit)]) -> Option<Normal> {
    let mut by_var: std::collections::BTreeMap<Var, i128> = Default::default();
    let mut constant: i128 = 0;
    for &(c, l) in objective {
        let c = i128::from(c);
        if l.is_positive() {
            *by_var.entry(l.var()).or_default() += c;
        } else {
            constant += c;
            *by_var.entry(l.var()).or_default() -= c;
        }
    }
    let terms: Vec<(i128, Var)> = by_var
        .into_iter()
        .filter(|&(_, c)| c != 0)
        .map(|(v, c)| (c, v))
        .collect();
    let lo = constant + terms.iter().map(|t| t.0.min(0)).sum::<i128>();
    let hi = constant + terms.iter().map(|t| t.0.max(0)).sum::<i128>();
    let bound = 1i128 << 62;
    let fits = |x: i128| x.abs() < bound;
    if !(fits(lo) && fits(hi) && fits(constant) && fits(hi - lo)) {
        return None;
    }
    // Each coefficient's magnitude is at most hi - lo, so all of them fit too.
    let narrow = |x: i128| i64::try_from(x).ok();
    Some(Normal {
        constant: narrow(constant)?,
        terms: terms
            .into_iter()
            .map(|(c, v)| Some((narrow(c)?, v)))
            .collect::<Option<_>>()?,
        lo: narrow(lo)?,
        hi: narrow(hi)?,
    })
}

/// What the driver keeps while a session improves: the last value and the statistics.
struct Run<'i, 'a> {
    improved: &'i mut Improved<'a>,
    stats: SolveStats,
    solves: u64,
    best: Option<i64>,
    method: Method,
    name: &'static str,
}

impl Run<'_, '_> {
    fn add(&mut self, s: &SolveStats) {
        self.solves += 1;
        self.stats.build_ms += s.build_ms;
        self.stats.solve_ms += s.solve_ms;
        self.stats.vars = self.stats.vars.max(s.vars);
        self.stats.clauses = self.stats.clauses.max(s.clauses);
    }

    /// A model of the bounded formula: its value, after the caller saw it (`Break`: stop).
    fn found(&mut self, formula: &PbFormula, a: &[bool]) -> Result<ControlFlow<()>, BackendError> {
        let n = formula.num_vars() as usize;
        let a = a.get(..n).ok_or_else(|| BackendError::Solver {
            backend: self.name,
            message: format!("a model of {} values for {n} variables", a.len()),
        })?;
        let v = formula.objective_value(a).unwrap_or(0);
        if let Some(b) = self.best
            && v >= b
        {
            return Err(BackendError::Solver {
                backend: self.name,
                message: format!("the solver's model under the bound has objective {v}, not below {b}"),
            });
        }
        self.best = Some(v);
        Ok((self.improved)(a))
    }

    /// One solve's answer in a strategy's loop: `None` when a better model was recorded and
    /// the search goes on, else how it ends (the status, and whether optimality is proven).
    fn answer(&mut self, formula: &PbFormula, out: Outcome) -> Result<Option<(Status, bool)>, BackendError> {
        self.add(&out.stats);
        match out {
            Outcome {
                status: Status::Sat,
                assignment: Some(a),
                ..
            } => Ok(self.found(formula, &a)?.is_break().then_some((Status::Sat, false))),
            Outcome {
                status: Status::Sat, ..
            } => Err(BackendError::Solver {
                backend: self.name,
                message: "\"sat\" without a model".into(),
            }),
            // Unsat under the bound (or its assumptions): nothing better exists, or, before
            // any model, no solution at all; `end` tells the two apart by `best`.
            Outcome {
                status: Status::Unsat, ..
            } => Ok(Some((Status::Unsat, true))),
            Outcome { .. } => Ok(Some((Status::Unknown, false))),
        }
    }

    fn end(mut self, status: Status, optimal: bool, loads: u64) -> Optimum {
        let status = if self.best.is_some() { Status::Sat } else { status };
        let extra = &mut self.stats.extra;
        extra.insert("optimise".into(), self.method.name().into());
        extra.insert("solves".into(), self.solves.into());
        extra.insert("loads".into(), loads.into());
        let optimal = optimal && self.best.is_some();
        if optimal {
            // The last solve refuted the formula under "objective <= best - 1" (its bound
            // row or assumptions): that refutation is the proof.
            self.stats.basis.bound = Some(crate::basis::Bound::Refuted {
                engine: self.name.to_string(),
            });
        }
        Optimum {
            status,
            optimal,
            stats: self.stats,
        }
    }
}

/// The best solution of `formula` on `b`: natively where `b` has a way of its own
/// ([`Backend::optimise_natively`]), else [`by_sessions`].
pub fn optimise<B: Backend + ?Sized>(
    b: &mut B,
    formula: &PbFormula,
    opts: &SolveOptions,
    improved: &mut Improved<'_>,
) -> Result<Optimum, BackendError> {
    match b.optimise_natively(formula, opts, improved) {
        Some(done) => done,
        None => by_sessions(b, formula, opts, improved),
    }
}

/// The generic optimisation: a plain solve without an objective, else the method the
/// backend declares, `by_assumptions` or [`by_rhs`] (a backend that declares
/// [`Method::Native`] optimises natively; through here it gets [`by_rhs`]).
pub fn by_sessions<B: Backend + ?Sized>(
    b: &mut B,
    formula: &PbFormula,
    opts: &SolveOptions,
    improved: &mut Improved<'_>,
) -> Result<Optimum, BackendError> {
    let Some(objective) = &formula.objective() else {
        let out = b.solve(formula, opts)?;
        let mut run = Run {
            improved,
            stats: SolveStats::default(),
            solves: 0,
            best: None,
            method: Method::Rhs,
            name: b.name(),
        };
        run.add(&out.stats);
        run.stats.extra = out.stats.extra.clone();
        if let (Status::Sat, Some(a)) = (out.status, &out.assignment) {
            let _ = run.found(formula, a)?;
        }
        return Ok(run.end(out.status, false, 1));
    };
    let normal = normal(objective);
    if b.optimisation() == Method::Assumptions
        && let Some(n) = &normal
    {
        match by_assumptions(b, formula, n, opts, improved) {
            Err(BackendError::Encode(EncodeError::TooLarge { .. } | EncodeError::Memory { .. })) => {}
            done => return done,
        }
    }
    by_rhs(b, formula, normal.as_ref(), opts, improved)
}

/// The objective bound encoded once: fresh variables `b_0..b_{m-1}` (after the formula's)
/// make a number `B = Σ 2^j·b_j`, and the row `Σ (coef/g)·x - B <= (lo - constant)/g` says
/// `(objective - lo)/g <= B`, with `g` the gcd of the coefficients. With `B` free the row
/// always holds; assuming `B = floor((v - 1 - lo)/g)` bit by bit asks for a solution of
/// value below `v`, and "unsat" under those assumptions proves the last solution optimal. Falls back (through the caller) when the row is too large.
pub fn by_assumptions<B: Backend + ?Sized>(
    b: &mut B,
    formula: &PbFormula,
    n: &Normal,
    opts: &SolveOptions,
    improved: &mut Improved<'_>,
) -> Result<Optimum, BackendError> {
    // Every value of `objective - lo` is a multiple of the coefficients' gcd: the bound
    // counts in those units, which narrows the range (all-equal coefficients make it the
    // number of terms).
    let g = n.terms.iter().fold(0u64, |g, t| gcd(g, t.0.unsigned_abs())).max(1);
    // hi >= lo, so the difference is its own magnitude.
    let range = (n.hi - n.lo).unsigned_abs() / g;
    let bits32 = u64::BITS - range.leading_zeros();
    let bits = bits32 as usize;
    // Σ|coef| + 2^bits must fit the encoder's 64-bit sums. The unary encodings write about
    // two clauses per pair (term, value below the range): where that alone passes the clause
    // budget, counting up to the budget before the refusal would only waste time.
    let unary = matches!(
        opts.encode.pb,
        PbEncoding::Domain | PbEncoding::Swc | PbEncoding::Totalizer
    );
    let pairs = ((n.terms.len() + bits) as u64).saturating_mul(range);
    if bits > 60 || (unary && pairs.saturating_mul(2) > opts.encode.max_clauses) {
        return by_rhs(b, formula, Some(n), opts, improved);
    }
    let mut bounded = formula.clone();
    bounded.take_objective();
    let first = bounded.add_vars(bits32);
    let g_units = g;
    let g = i64::try_from(g).expect("the gcd of coefficients below 2^62 fits");
    let mut terms: Vec<(i64, Lit)> = n.terms.iter().map(|&(c, v)| (c / g, v.pos())).collect();
    terms.extend((0..bits32).map(|j| (-(1i64 << j), Var(first + j).pos())));
    bounded.add(
        "objective bound",
        Constraint::Linear(Linear::new(terms, Cmp::Le, (n.lo - n.constant) / g)),
    );
    let name = b.name();
    let mut run = Run {
        improved,
        stats: SolveStats::default(),
        solves: 0,
        best: None,
        method: Method::Assumptions,
        name,
    };
    let mut s = session::open(b, &bounded, &without_assumptions(opts))?;
    let mut assumptions: Vec<Lit> = Vec::with_capacity(bits);
    loop {
        let out = s.solve(&assumptions, opts)?;
        if let Some((status, optimal)) = run.answer(formula, out)? {
            return Ok(run.end(status, optimal, 1));
        }
        let v = run.best.expect("a model was found");
        if v <= n.lo {
            return Ok(run.end(Status::Sat, true, 1));
        }
        if opts.deadline().passed() {
            return Ok(run.end(Status::Unknown, false, 1));
        }
        // (objective - lo) / g <= B holds for a value below v exactly when B is at least
        // that value's quotient, and the largest such quotient is floor((v - 1 - lo) / g).
        // v > lo here, so v - 1 - lo is not negative.
        let target = (v - 1 - n.lo).unsigned_abs() / g_units;
        assumptions.clear();
        assumptions.extend((0..bits32).map(|j| Lit::new(Var(first + j), target >> j & 1 == 1)));
    }
}

/// The bound as a row `objective <= v - 1` in a session, its right-hand side tightened
/// after each solution: native on backends with `crate::Capabilities::rhs_changes`, a
/// fresh load of the formula otherwise (the linear SAT–UNSAT search of a backend without
/// sessions). `normal` is `None` when the objective's sums do not fit in 62 bits: the row
/// then holds the objective's terms as they are, and the floor is not known.
pub fn by_rhs<B: Backend + ?Sized>(
    b: &mut B,
    formula: &PbFormula,
    normal: Option<&Normal>,
    opts: &SolveOptions,
    improved: &mut Improved<'_>,
) -> Result<Optimum, BackendError> {
    let mut bounded = formula.clone();
    let objective = bounded.take_objective().unwrap_or_default();
    let ceiling = normal.map_or(i64::MAX, |n| n.hi);
    let row = bounded.add(
        "objective bound",
        Constraint::Linear(Linear::new(objective, Cmp::Le, ceiling)),
    );
    let name = b.name();
    let rhs_changes = b.capabilities().rhs_changes;
    let mut run = Run {
        improved,
        stats: SolveStats::default(),
        solves: 0,
        best: None,
        method: Method::Rhs,
        name,
    };
    let mut s = session::open(b, &bounded, &without_assumptions(opts))?;
    let mut loads = 1;
    loop {
        let out = s.solve(&[], opts)?;
        if let Some((status, optimal)) = run.answer(formula, out)? {
            return Ok(run.end(status, optimal, loads));
        }
        let v = run.best.expect("a model was found");
        if normal.is_some_and(|n| v <= n.lo) {
            return Ok(run.end(Status::Sat, true, loads));
        }
        if opts.deadline().passed() {
            return Ok(run.end(Status::Unknown, false, loads));
        }
        s.set_rhs(row, v - 1)?;
        if !rhs_changes {
            loads += 1;
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The options of opening a session: those of the solves, without assumptions (each
/// solve brings them again).
fn without_assumptions(opts: &SolveOptions) -> SolveOptions {
    SolveOptions {
        assumptions: Vec::new(),
        ..opts.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_form_keeps_every_value() {
        let x = |i: u32, pos: bool| Lit::new(Var(i), pos);
        let objective = vec![(3, x(0, true)), (-2, x(1, false)), (5, x(0, false)), (4, x(2, true))];
        let n = normal(&objective).unwrap();
        for bits in 0..8u32 {
            let a: Vec<bool> = (0..3).map(|i| bits >> i & 1 == 1).collect();
            let direct: i64 = objective.iter().filter(|(_, l)| l.eval(&a)).map(|t| t.0).sum();
            let by_normal = n.constant + n.terms.iter().filter(|(_, v)| a[v.index()]).map(|t| t.0).sum::<i64>();
            assert_eq!(direct, by_normal, "{a:?}");
            assert!(n.lo <= direct && direct <= n.hi);
        }
        assert!(normal(&[(i64::MAX, x(0, true)), (i64::MAX, x(1, true))]).is_none());
    }
}

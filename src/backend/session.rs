//! Sessions: one formula loaded into a solver once and solved many times, under assumptions,
//! with changed right-hand sides or with clauses added in between (a sweep over capacity
//! vectors, a generator checking uniqueness). Every backend has one: [`Backend::session`]
//! falls back on [`Resolving`], which re-solves a copy of the formula each time; backends
//! that can keep their solver loaded say so in [`Capabilities::incremental`] and
//! [`Capabilities::rhs_changes`].

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use super::{Backend, BackendError, Capabilities, Outcome, SolveOptions};
use crate::ir::{Constraint, Lit, PbFormula};

/// A formula loaded into a solver once and solved many times.
pub trait Session {
    /// New right-hand side for linear row `row` (index into the formula's constraints; a
    /// [`Constraint::Linear`] or [`Constraint::SumOf`]); it holds for every later solve.
    fn set_rhs(&mut self, row: usize, rhs: i64) -> Result<(), BackendError>;
    /// A clause that holds for every later solve (e.g. a no-good excluding an answer).
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), BackendError>;
    /// Solves under `assumptions` (true for this call only, together with
    /// `opts.assumptions`); `opts` give the time limit, interrupt and seed. The assignment
    /// covers the formula's variables.
    fn solve(&mut self, assumptions: &[Lit], opts: &SolveOptions) -> Result<Outcome, BackendError>;
    /// Forgets guesses carried from earlier solves (the sweep does this at each block start,
    /// so that an answer depends only on its block).
    fn forget_phases(&mut self) {}
}

/// The options a session's solve cannot honour. Assumptions are not among them: every
/// session takes them. A proof would have to cover every solve of the session, which no
/// backend's proof format can (varisat's DRAT writer cannot even express assumptions).
pub(crate) fn check_session_options(
    caps: Capabilities,
    backend: &'static str,
    opts: &SolveOptions,
) -> Result<(), BackendError> {
    if opts.proof.is_some() {
        return Err(BackendError::Unsupported {
            backend,
            feature: "proofs in a session",
        });
    }
    super::check_caps(caps, backend, opts, false)
}

/// The options of opening a session ([`Backend::session`]): those of a solve, and no
/// assumptions (they belong to each solve).
pub(crate) fn check_open_options(
    caps: Capabilities,
    backend: &'static str,
    opts: &SolveOptions,
) -> Result<(), BackendError> {
    if !opts.assumptions.is_empty() {
        return Err(BackendError::Unsupported {
            backend,
            feature: "assumptions when opening a session (each solve takes its own)",
        });
    }
    check_session_options(caps, backend, opts)
}

/// Refuses literals of variables the formula does not have: a solver would either ignore
/// them (the search engine) or grow new variables (SAT solvers), and neither is what the
/// caller meant.
pub(crate) fn check_lits(formula: &PbFormula, lits: &[Lit], backend: &'static str) -> Result<(), BackendError> {
    match lits.iter().find(|l| l.var().0 >= formula.num_vars) {
        Some(l) => Err(BackendError::Solver {
            backend,
            message: format!(
                "literal {} of a variable the formula does not have ({} variables)",
                l.dimacs(),
                formula.num_vars
            ),
        }),
        None => Ok(()),
    }
}

/// Sets the right-hand side of constraint `row` in `formula` (only linear rows have one);
/// true if it changed.
pub(crate) fn set_formula_rhs(
    formula: &mut PbFormula,
    row: usize,
    rhs: i64,
    backend: &'static str,
) -> Result<bool, BackendError> {
    let old = match formula.constraints.get_mut(row).map(|(_, c)| c) {
        Some(Constraint::Linear(l)) => &mut l.rhs,
        Some(Constraint::SumOf { rhs: r, .. }) => r,
        other => {
            return Err(BackendError::Solver {
                backend,
                message: match other {
                    None => format!("constraint {row} does not exist"),
                    Some(c) => format!("constraint {row} is a {}, which has no right-hand side", c.kind()),
                },
            });
        }
    };
    Ok(std::mem::replace(old, rhs) != rhs)
}

/// The label of clauses added through [`Session::add_clause`].
pub(crate) const ADDED: &str = "added in a session";

/// The session of a backend without a native one: it keeps its own copy of the formula,
/// applies right-hand sides and clauses to the copy, and hands the copy to the backend's
/// plain [`Backend::solve`] each time. Assumptions go in `opts.assumptions` when the backend
/// takes them, else in as unit clauses for that one solve. Nothing is carried between
/// solves, so it is exactly as correct as the backend.
pub struct Resolving<'b, B: Backend + ?Sized> {
    backend: &'b mut B,
    formula: PbFormula,
}

impl<'b, B: Backend + ?Sized> Resolving<'b, B> {
    pub fn new(backend: &'b mut B, formula: &PbFormula) -> Resolving<'b, B> {
        Resolving {
            backend,
            formula: formula.clone(),
        }
    }
}

impl<B: Backend + ?Sized> Session for Resolving<'_, B> {
    fn set_rhs(&mut self, row: usize, rhs: i64) -> Result<(), BackendError> {
        set_formula_rhs(&mut self.formula, row, rhs, self.backend.name()).map(|_| ())
    }

    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), BackendError> {
        check_lits(&self.formula, lits, self.backend.name())?;
        self.formula.add(ADDED, Constraint::Clause(lits.to_vec()));
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit], opts: &SolveOptions) -> Result<Outcome, BackendError> {
        let name = self.backend.name();
        check_session_options(self.backend.capabilities(), name, opts)?;
        check_lits(&self.formula, assumptions, name)?;
        check_lits(&self.formula, &opts.assumptions, name)?;
        let native = self.backend.capabilities().assumptions;
        if assumptions.is_empty() && (native || opts.assumptions.is_empty()) {
            return self.backend.solve(&self.formula, opts);
        }
        if native {
            let mut o = opts.clone();
            o.assumptions.extend_from_slice(assumptions);
            return self.backend.solve(&self.formula, &o);
        }
        // Unit clauses for this solve only: removed again whatever the answer.
        let keep = self.formula.constraints.len();
        for &l in assumptions.iter().chain(&opts.assumptions) {
            self.formula.add("assumption", Constraint::Clause(vec![l]));
        }
        let o = SolveOptions {
            assumptions: Vec::new(),
            ..opts.clone()
        };
        let out = self.backend.solve(&self.formula, &o);
        self.formula.constraints.truncate(keep);
        out
    }
}

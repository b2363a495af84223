//! Sessions: one formula loaded into a solver once and solved many times, under assumptions,
//! with changed right-hand sides or with clauses added in between (a sweep over capacity
//! vectors, a generator checking uniqueness). Every backend has one ([`open`]): its own where
//! it says so ([`Backend::has_native_session`]), else [`Resolving`], which re-solves a copy
//! of the formula each time. How much a native session keeps between solves is declared in
//! [`Capabilities::incremental`] and [`Capabilities::rhs_changes`].

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use crate::contract::{
    ADDED, Backend, BackendError, Outcome, Session, SolveOptions, check_lits, check_open_options,
    check_session_options, set_formula_rhs,
};
use crate::ir::{Constraint, Lit, PbFormula};

/// A session of `formula` on `b`: the backend's own where it has one
/// ([`Backend::has_native_session`]), else a [`Resolving`] one. `opts` are those of loading.
pub fn open<'b, B: Backend + ?Sized>(
    b: &'b mut B,
    formula: &PbFormula,
    opts: &SolveOptions,
) -> Result<Box<dyn Session + 'b>, BackendError> {
    if b.has_native_session() {
        return b.session_natively(formula, opts);
    }
    check_open_options(b.capabilities(), b.name(), opts)?;
    Ok(Box::new(Resolving::new(b, formula)))
}

/// The session of a backend without a native one: it keeps its own copy of the formula,
/// applies right-hand sides and clauses to the copy, and hands the copy to the backend's
/// plain [`Backend::solve`] each time. Assumptions go in `opts.assumptions` when the backend
/// takes them, else in as unit clauses for that one solve. Nothing is carried between
/// solves, so it is exactly as correct as the backend.
#[derive(Debug)]
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
        let keep = self.formula.constraints().len();
        for &l in assumptions.iter().chain(&opts.assumptions) {
            self.formula.add("assumption", Constraint::Clause(vec![l]));
        }
        let o = SolveOptions {
            assumptions: Vec::new(),
            ..opts.clone()
        };
        let out = self.backend.solve(&self.formula, &o);
        self.formula.truncate(keep);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Capabilities;
    use crate::ir::{Status, Var};
    use crate::sat::varisat::Varisat;

    /// A backend that declares varisat's capabilities (incremental among them) but has no
    /// session of its own, as the test doubles that wrap an engine do.
    struct Wrapped;

    impl Backend for Wrapped {
        fn name(&self) -> &'static str {
            "wrapped"
        }
        fn capabilities(&self) -> Capabilities {
            Varisat.capabilities()
        }
        fn solve(&mut self, f: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
            Varisat.solve(f, opts)
        }
    }

    /// What a backend declares it can do does not decide whether it has sessions of its own:
    /// every backend gets one, natively or re-solving.
    #[test]
    fn every_backend_gets_a_session_whatever_its_capabilities_say() {
        assert!(Wrapped.capabilities().incremental);
        let mut f = PbFormula::new(2);
        let (x, y) = (Var(0).pos(), Var(1).pos());
        f.add("x or y", Constraint::Clause(vec![x, y]));
        for b in [&mut Wrapped as &mut dyn Backend, &mut Varisat] {
            let mut s = open(b, &f, &SolveOptions::default()).unwrap();
            assert_eq!(s.solve(&[], &SolveOptions::default()).unwrap().status, Status::Sat);
            s.add_clause(&[!x]).unwrap();
            s.add_clause(&[!y]).unwrap();
            assert_eq!(s.solve(&[], &SolveOptions::default()).unwrap().status, Status::Unsat);
        }
    }
}

//! What works over any backend through the trait alone: enumerating every solution,
//! optimising an objective, and sessions, each the backend's native way where it declares
//! one and the generic way otherwise. Callers reach them through [`Algorithms`], which every
//! backend has; engines reach the generic ways directly when their native one hands over.
//!
//! Dependencies: this module uses only the contract (`super::contract`); engines and the
//! portfolio use it, never the other way round.

mod enumerate;
mod optimise;
mod session;

pub use enumerate::by_blocking;
pub use optimise::{Normal, by_rhs, by_sessions, normal};

use crate::contract::{Backend, BackendError, Enumeration, Improved, Optimum, Session, SolveOptions, Visit};
use crate::ir::{PbFormula, Projection};

/// Enumeration, optimisation and sessions on any backend: its native way where it has one,
/// else the generic way of this module.
pub trait Algorithms: Backend {
    /// Every solution of `formula`, told apart by `projection` (answers that agree on the
    /// primary variables are one solution): each goes to `visit` as it is found, until the
    /// solutions run out, `visit` returns `Break`, or the deadline of `opts` passes.
    fn enumerate(
        &mut self,
        formula: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, BackendError> {
        enumerate::enumerate(self, formula, projection, opts, visit)
    }

    /// The best solution of `formula` by its objective (a plain solve without one): each
    /// improving model goes to `improved` as it is found, and `Break` from it stops.
    fn optimise(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Result<Optimum, BackendError> {
        optimise::optimise(self, formula, opts, improved)
    }

    /// `formula` loaded for many solves (see [`Session`]); `opts` are those of loading.
    fn session(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Box<dyn Session + '_>, BackendError> {
        session::open(self, formula, opts)
    }
}

impl<B: Backend + ?Sized> Algorithms for B {}

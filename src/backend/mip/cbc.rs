//! CBC, the `mip` backend: the 0/1 model of [`super::solve`] solved by CBC in the helper
//! program `sokuc-cbc` (see [`super::helper`]).

use super::helper::Solver;
use super::solve::{CAPABILITIES, optimise_with, solve};
use crate::backend::contract::{Backend, BackendError, Capabilities, Improved, Method, Optimum, Outcome, SolveOptions};
use crate::ir::PbFormula;

/// The `mip` backend (CBC).
#[derive(Default)]
pub struct Mip;

impl Backend for Mip {
    fn name(&self) -> &'static str {
        "mip"
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        solve(Solver::Cbc, formula, opts, None).map(|(out, _)| out)
    }

    fn optimisation(&self) -> Method {
        Method::Native
    }

    fn optimise_natively(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Option<Result<Optimum, BackendError>> {
        Some(optimise_with(self, Solver::Cbc, formula, opts, improved))
    }
}

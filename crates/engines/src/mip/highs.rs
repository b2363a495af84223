//! HiGHS: the `mip` backend's integer program (see [`super::solve`]) solved by HiGHS's branch
//! and cut instead of CBC's, in the helper program `sokuc-highs` (see [`super::helper`]).
//!
//! HiGHS and CBC read the same model: one binary column per variable, rows as they are up to
//! the width their tolerances keep exact, wider rows as digit columns, and a wide objective
//! proven by bound rows. What differs is the search: HiGHS's presolve, cuts and heuristics
//! settle set-partitioning and big-objective rows that CBC does not (MIPLIB's air03, mitre
//! and p2756 as decision problems), and CBC settles others first; `auto` races them.
//!
//! An "infeasible" from HiGHS is asked again with presolve and scaling off, as CBC's is.
//!
//! The helper `sokuc-highs` builds the model for the `highs` crate (the binding good_lp
//! wraps) rather than through good_lp, because good_lp's solution does not carry HiGHS's dual
//! bound, which the wide objective weighs against the exact value of HiGHS's model
//! (`encodings/optimise.md`). Debian 12 has no HiGHS package, so cargo builds it from the
//! source highs-sys carries (cmake and a C++ compiler, about 4 minutes on 2 cores); nothing
//! is needed to run it.

use super::helper::Solver;
use super::solve::{CAPABILITIES, optimise_with, solve};
use crate::contract::{Backend, BackendError, Capabilities, Improved, Method, Optimum, Outcome, SolveOptions};
use crate::ir::PbFormula;

/// The `highs` backend.
#[derive(Debug, Default)]
pub struct Highs;

impl Backend for Highs {
    fn name(&self) -> &'static str {
        "highs"
    }

    fn capabilities(&self) -> Capabilities {
        CAPABILITIES
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        solve(Solver::Highs, formula, opts, None).map(|(out, _)| out)
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
        Some(optimise_with(self, Solver::Highs, formula, opts, improved))
    }
}

//! CBC, the `mip` backend: the 0/1 model of [`super::solve`] solved by CBC in the helper
//! program `sokuc-cbc` (see [`super::helper`]).
//!
//! CBC comes from Debian's package (`coinor-libcbc-dev` to build, `coinor-libcbc3` to run;
//! `scripts/install-tools.sh` installs it) rather than `cbc-src`, a 15-minute source build on
//! 2 cores. Only `sokuc-cbc`, built and installed beside `sokuc` when the `mip` feature is on,
//! links it: `readelf -d target/release/sokuc` lists no CBC library, so no other command pays
//! for loading CBC, Clp, CoinUtils, LAPACK or gfortran. For each solve the engine writes its
//! model to the helper through a pipe (binary columns, one row per constraint, the objective
//! if any, CBC's parameters: `settings.rs`); the helper models it with good_lp
//! (`variables!`, one `constraint!` per row), solves it with good_lp's CBC solver
//! (`coin_cbc`), and writes back CBC's verdict and the columns' values. A missing helper or
//! CBC library is an error for `--backend mip` only (exit 2, naming what is missing and how to
//! install it). The `mip` feature stays, so that a default build has no `--backend mip` at all.

use super::helper::Solver;
use super::solve::{CAPABILITIES, optimise_with, solve};
use crate::contract::{Backend, BackendError, Capabilities, Improved, Method, Optimum, Outcome, SolveOptions};
use crate::ir::PbFormula;

/// The `mip` backend (CBC).
#[derive(Debug, Default)]
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

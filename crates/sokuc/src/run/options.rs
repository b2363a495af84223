//! What a run is asked to do ([`RunOptions`]), and whether the LP relaxation is tried first
//! ([`LpMode`], [`lp_limits`]).

use crate::backend::SolveOptions;
use crate::puzzle::CompileOptions;

/// What to run: the backend's options, how to compile, whether to try the LP relaxation
/// first, and whether to prove uniqueness.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub solve: SolveOptions,
    pub compile: CompileOptions,
    pub lp: LpMode,
    /// Look for two solutions (an enumeration with limit 2): unique, or a second solution.
    pub unique: bool,
    /// `--strict`: an unsat, optimum or uniqueness claim is printed only with checked
    /// evidence or a second engine's agreement; otherwise the best checked
    /// answer is printed with an unknown status.
    pub strict: bool,
}

/// Whether the compiled model's LP relaxation is tried before the backend (`--lp`): an
/// infeasible relaxation, with its certificate checked exactly, answers `unsat` without a
/// backend (see `lp` and encodings/lp.md).
///
/// ```
/// use sokuc::{LpMode, Options};
/// let opts = Options::new().lp(LpMode::Off);
/// # let _ = opts;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum LpMode {
    /// Where it pays: on models of at most 100 constraints (every 3SoKu and tile-pool
    /// model), and never when a DRAT proof is asked for.
    #[default]
    Auto,
    /// On models of up to 400 constraints.
    On,
    /// Never.
    Off,
}

/// Whether the LP relaxation is tried, and within which limits. `On` tries it on formulas
/// up to 400 rows; `Auto` up to 100 (where it costs about a millisecond; on larger models,
/// the grid kinds, the backends answer faster than the LP would), and never when a DRAT
/// proof is asked for: only the solver can write one, and an LP refutation would leave it
/// unwritten. The measurements behind the rule are in encodings/lp.md.
pub fn lp_limits(mode: LpMode, opts: &SolveOptions) -> Option<crate::lp::Limits> {
    match mode {
        LpMode::On => Some(crate::lp::Limits::default()),
        LpMode::Off => None,
        LpMode::Auto if opts.proof.is_some() => None,
        LpMode::Auto => Some(crate::lp::Limits::auto()),
    }
}

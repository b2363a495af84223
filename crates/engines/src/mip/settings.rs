//! The settings `mip` and `highs` give their solver for one attempt: CBC's command-line
//! parameters or HiGHS's options, from what the attempt is for (see [`super::solve`]).
//!
//! - CBC runs its serial branch and bound (no `threads` parameter; `encodings/cbc-threads/`).
//!   HiGHS runs on one thread, with `mip_rel_gap 0` and `mip_abs_gap 0` on an objective; its
//!   log is off, because the helper's standard output carries the answer.
//! - A feasibility problem (no objective) first gets CBC with strong branching, primal
//!   heuristics and cuts off for its first second: there is nothing for them to improve, and
//!   on IcoSoKu they were most of CBC's time. If that did not settle it, CBC starts again with
//!   its defaults for the time left.
//! - An "infeasible" stands only when a second run says it too: CBC's with CLP's scaling and
//!   presolve off (its scaled LP has called a feasible 0/1 program infeasible), HiGHS's with
//!   `presolve off` and `simplex_scale_strategy 0`. `stats.extra.confirmed` says when both
//!   runs agreed; a solution from the second run is the answer.
//!
//! `tests/miplib.rs` holds these settings to MIPLIB 3's published optima and to the verdicts
//! of its decision pairs (the objective bounded at the optimum, and one below it).

use std::time::Duration;

use super::helper::Solver;

/// The absolute gap at which CBC may call an objective's search finished (`allowableGap`):
/// any gap below 1 is final on an integer objective, if the solution's value is exact; that
/// it is not, the rounding drift (see `MIP_OBJECTIVE_LIMIT`) must make up for: gap plus drift
/// stays below 1 only on objectives narrower than that limit.
pub(super) const CBC_ABSOLUTE_GAP: &str = "0.5";

/// HiGHS's absolute gap (`mip_abs_gap`): none. On an integral objective HiGHS rounds the
/// gap up to the objective's step (`ub - ceil(gap)`, `computeNewUpperLimit` in HiGHS 1.16's
/// HighsMipSolverData.cpp), so 0.5 made it stop as soon as no node could be a whole unit
/// below its incumbent's value as HiGHS computes it: with that value drifted down by the
/// rounding of its columns, a better solution could be left unexplored. Without a gap it
/// prunes only nodes that cannot go below `floor(ub - 1/2)`, which spares every better
/// solution while the drift is below 1/2: the same footing as CBC's gap of 1/2.
pub(super) const HIGHS_ABSOLUTE_GAP: &str = "0.0";

/// HiGHS's integrality tolerance (`mip_feasibility_tolerance`, its default): what the drift
/// of `MIP_OBJECTIVE_LIMIT`'s arithmetic is made of, so set rather than left to a default.
/// CBC's (`integerTolerance`) is no wider.
pub(super) const HIGHS_INTEGRALITY_TOLERANCE: &str = "1e-6";

/// What one attempt is for, in CBC's terms (HiGHS gets its defaults for `Light` and `Full`,
/// see [`parameters`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Settings {
    /// No strong branching, primal heuristics or cuts: a feasibility problem has no
    /// objective for them to improve, and CBC spent most of its time in them (its
    /// feasibility pump alone took 80-100 ms on icosoku-seed). Measured on icosoku100
    /// (`bench --backend mip --lp off`): median 142 -> 45 ms, max 1012 -> 168 ms.
    Light,
    /// CBC's defaults: on free-peg ADTS (`sokuc adts --backend mip`) the light settings
    /// found nothing in 60 s where the defaults answer in 2-16 s.
    Full,
    /// CBC's defaults with CLP's scaling and presolve off: the second opinion on an
    /// "infeasible" (see `confirmed` in mip/solve.rs).
    Unscaled,
}

/// The solver's settings for one attempt, with `own_limit` as its own time limit.
pub(super) fn parameters(
    solver: Solver,
    settings: Settings,
    objective: bool,
    seed: Option<u64>,
    own_limit: Option<Duration>,
) -> Vec<(String, String)> {
    let mut p = Vec::new();
    let mut set = |k: &str, v: &str| p.push((k.to_string(), v.to_string()));
    match solver {
        Solver::Cbc => {
            set("log", "0");
            // No `threads`: CBC's default (0) runs its serial branch and bound. Any `threads`
            // of 1 or more switches on CBC 2.10's threaded tree search (CBC_THREAD), which with
            // its preprocessing claimed 1128 optimal on MIPLIB's lseu, whose optimum is 1120
            // (encodings/cbc-threads/ reproduces it without sokuc). One thread is what the
            // default gives anyway.
            if objective {
                // The objective takes integer values only: a gap of 1/2 plus the rounding
                // drift stays below 1 (see `CBC_ABSOLUTE_GAP`), and no relative gap is allowed.
                set("ratioGap", "0");
                set("allowableGap", CBC_ABSOLUTE_GAP);
            }
            if settings == Settings::Unscaled {
                set("scaling", "off");
                set("presolve", "off");
            }
            if settings == Settings::Light {
                set("strong", "0");
                set("heuristicsOnOff", "off");
                set("cutsOnOff", "off");
            }
            // No user parameter reaches CBC beyond these: one (a cutoff, a gap) could change
            // what CBC's statuses mean, and so turn "worse than the cutoff" into a printed unsat.
            if let Some(seed) = seed {
                set("randomCbcSeed", &(seed % (i32::MAX as u64)).max(1).to_string());
            }
            if let Some(left) = own_limit {
                set("timeMode", "elapsed");
                set("sec", &format!("{:.3}", left.as_secs_f64()));
            }
        }
        Solver::Highs => {
            // One thread, like every other engine: a race shares the machine's cores.
            set("threads", "1");
            if objective {
                // No absolute gap (see `HIGHS_ABSOLUTE_GAP`), and HiGHS's default relative
                // gap (10^-4) is not allowed either.
                set("mip_rel_gap", "0.0");
                set("mip_abs_gap", HIGHS_ABSOLUTE_GAP);
                set("mip_feasibility_tolerance", HIGHS_INTEGRALITY_TOLERANCE);
            }
            if settings == Settings::Unscaled {
                set("presolve", "off");
                set("simplex_scale_strategy", "0");
            }
            if let Some(seed) = seed {
                set("random_seed", &(seed % (i32::MAX as u64)).to_string());
            }
            if let Some(left) = own_limit {
                // A point in the number: the helper sends it as a float (see `typed` in
                // helpers/src/bin/sokuc-highs.rs).
                set("time_limit", &format!("{:.3}", left.as_secs_f64()));
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{MIP_OBJECTIVE_LIMIT, MIP_OBJECTIVE_LIMIT_BITS};

    /// The integrality tolerance both solvers keep at most: a column within it of 0 or 1
    /// counts as integral.
    const TOLERANCE: f64 = 1e-6;

    /// How far rounding the columns to 0/1 can move an objective whose magnitudes add up
    /// to `width`.
    #[allow(clippy::cast_precision_loss)]
    fn drift(width: u128) -> f64 {
        width as f64 * TOLERANCE
    }

    fn value(p: &[(String, String)], key: &str) -> f64 {
        let v = &p.iter().find(|(k, _)| k == key).unwrap_or_else(|| panic!("no {key}")).1;
        v.parse().unwrap()
    }

    /// The gap each solver may stop at on an integral objective, as the objective's values
    /// go: CBC's `allowableGap`; HiGHS's rounded up to a whole unit where it has one, and
    /// without one its pruning at `floor(ub - 1/2)`, half a unit.
    fn gap(solver: Solver) -> f64 {
        let p = parameters(solver, Settings::Full, true, None, None);
        match solver {
            Solver::Cbc => value(&p, "allowableGap"),
            Solver::Highs => {
                assert_eq!(value(&p, "mip_rel_gap"), 0.0);
                assert_eq!(value(&p, "mip_feasibility_tolerance"), TOLERANCE);
                if value(&p, "mip_abs_gap") > 0.0 { 1.0 } else { 0.5 }
            }
        }
    }

    /// The solver's word on an optimum is taken only below `MIP_OBJECTIVE_LIMIT`: there its
    /// gap plus the drift of the rounded model's objective stays below 1, so no integral
    /// value hides between the optimum it proved and the one it found. At 2^19, the limit
    /// before, a gap of 1/2 and a drift of 0.52 left room for a solution 1 better.
    #[test]
    fn the_solvers_word_is_taken_only_where_gap_and_drift_stay_below_1() {
        assert_eq!(MIP_OBJECTIVE_LIMIT, 1 << MIP_OBJECTIVE_LIMIT_BITS);
        for solver in [Solver::Cbc, Solver::Highs] {
            let g = gap(solver);
            assert!(
                g + drift(MIP_OBJECTIVE_LIMIT - 1) < 1.0,
                "{}: gap {g}, drift {}",
                solver.name(),
                drift(MIP_OBJECTIVE_LIMIT - 1)
            );
            assert!(g + drift(1 << 19) >= 1.0, "{}: gap {g}", solver.name());
        }
        // Without an objective there is no gap to set.
        for solver in [Solver::Cbc, Solver::Highs] {
            let p = parameters(solver, Settings::Full, false, None, None);
            assert!(!p.iter().any(|(k, _)| k.contains("Gap") || k.contains("gap")), "{p:?}");
        }
    }
}

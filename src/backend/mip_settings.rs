//! The settings `mip` and `highs` give their solver for one attempt: CBC's command-line
//! parameters or HiGHS's options, from what the attempt is for (see `mip.rs`).

use std::time::Duration;

use super::helper::Solver;

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
    /// "infeasible" (see `confirmed` in mip.rs).
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
                // The objective takes integer values only: a gap below 1/2 leaves no better
                // solution, and no relative gap is allowed.
                set("ratioGap", "0");
                set("allowableGap", "0.5");
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
                // As for CBC: an absolute gap below 1/2 on an integer objective is final,
                // and HiGHS's default relative gap (10^-4) is not allowed.
                set("mip_rel_gap", "0.0");
                set("mip_abs_gap", "0.5");
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
                // src/bin/sokuc-highs.rs).
                set("time_limit", &format!("{:.3}", left.as_secs_f64()));
            }
        }
    }
    p
}

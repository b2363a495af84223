//! Who races whom: the engines `auto` runs together on one formula (`race/` runs them),
//! chosen from measurements on the public PB benchmark (encodings/auto.md, "The race,
//! measured" and "The engine beside HiGHS").

use crate::contract::SolveOptions;
use crate::engines;
use crate::ir::PbFormula;
use crate::limits::too_wide_for;

/// Whether backend `name` is in this build, honours `opts` and holds `f`'s rows.
pub(super) fn fits(name: &str, f: &PbFormula, opts: &SolveOptions) -> bool {
    too_wide_for(name, f).is_none() && engines::engine(name).is_some_and(|b| b.check_options(opts).is_ok())
}

/// The engines that may race the picked one, in order of preference. HiGHS's branch and
/// cut (a process of its own, so the engines share nothing but the machine) races alone
/// where the build has it: on the public PB benchmark's 132 decision files at 5 s
/// (encodings/auto.md) it answered 97, and `sat` beside it all 98 that any engine answered,
/// so a third or fourth engine would only take a share of the two cores. Without it, CBC
/// and pumpkin's lazy clause generation (which keeps rows whole where the CDCL engines see
/// their clauses) race together.
const PARTNERS: [&str; 3] = ["highs", "mip", "cp"];

/// The engines that optimise an objective, in order of preference: CBC and HiGHS prove
/// different optima first (knapsacks with several rows on CBC, bin packing, colouring and
/// wide knapsacks on HiGHS), so where the build has both they race each other.
pub(super) const OPTIMISERS: [&str; 2] = ["highs", "mip"];

/// The engines `auto` runs on `formula`, `engine` first: `engine` alone with a seed (a
/// seeded run is asked to be reproducible, and which engine wins a race is not) or a DRAT
/// proof (only the picked engine writes one); else `engine` and its partners in this build
/// that are not `engine`, honour `opts` and whose numbers hold the formula's rows: the first
/// of [`PARTNERS`] alone if that is `highs`, else all of them; for an optimiser, the other
/// optimiser and `cp`, as many as there are cores beside the first engine's (at least one).
/// At 20 s on the PB benchmark's 45 optimisation files, `highs` alone proved 34 optima, `mip`
/// 28, `cp` 18, and `cp` none that `highs` did not (encodings/auto.md): on two cores a
/// third engine only slows the other two down.
pub(super) fn field_for(formula: &PbFormula, opts: &SolveOptions, engine: &'static str) -> Vec<&'static str> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    field_on(formula, opts, engine, cores)
}

/// [`field_for`] on a machine of `cores` cores.
fn field_on(formula: &PbFormula, opts: &SolveOptions, engine: &'static str, cores: usize) -> Vec<&'static str> {
    let mut field = vec![engine];
    if opts.seed.is_some() || opts.proof.is_some() {
        return field;
    }
    let partner = |name: &&'static str| *name != engine && fits(name, formula, opts);
    if OPTIMISERS.contains(&engine) {
        let partners = OPTIMISERS.into_iter().chain(["cp"]).filter(partner);
        field.extend(partners.take(cores.saturating_sub(1).max(1)));
        return field;
    }
    let partners: Vec<&'static str> = PARTNERS.into_iter().filter(partner).collect();
    match partners.first() {
        Some(&"highs") => field.push("highs"),
        _ => field.extend(partners),
    }
    field
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cmp, Constraint, Linear, Lit, Var};

    /// `x0 + x1 >= 1`, minimising `x0 + 2·x1`.
    fn small() -> PbFormula {
        let mut f = PbFormula::new(2);
        let x = |v| Lit::new(Var(v), true);
        f.add(
            "row",
            Constraint::Linear(Linear::new(vec![(1, x(0)), (1, x(1))], Cmp::Ge, 1)),
        );
        f.set_objective(Some(vec![(1, x(0)), (2, x(1))]));
        f
    }

    #[test]
    #[cfg_attr(
        not(all(feature = "mip", feature = "highs")),
        ignore = "needs the mip and highs backends (--features mip,highs)"
    )]
    fn an_objective_races_one_engine_per_core() {
        let (f, opts) = (small(), SolveOptions::default());
        assert_eq!(field_on(&f, &opts, "highs", 1), ["highs", "mip"]);
        assert_eq!(field_on(&f, &opts, "highs", 2), ["highs", "mip"]);
        assert_eq!(field_on(&f, &opts, "highs", 4), ["highs", "mip", "cp"]);
        // A seed asks for a run that repeats: one engine, whatever the cores.
        let seeded = SolveOptions {
            seed: Some(7),
            ..SolveOptions::default()
        };
        assert_eq!(field_on(&f, &seeded, "highs", 4), ["highs"]);
    }
}

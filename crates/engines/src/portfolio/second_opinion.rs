//! A second opinion on an optimum `mip` or `highs` claims when `auto` optimises: another kind
//! of engine (`cp`, else `sat`) is asked, for a short slice, for a solution strictly better
//! than it. An optimality proof is a claim no verifier checks; this is where a wrong one can
//! be caught without the cost of a second full proof.
//!
//! When a better solution turns up, the user sees it with its `o` line, `s SATISFIABLE`
//! instead of `s OPTIMUM FOUND`, `"contradiction"` in the JSON, a line on standard error, and
//! exit 1. When anything better is refuted, `optimal_by` names both engines. `compare` holds
//! backends to the same standard on a problem with an objective (see `crate::compare`).

use std::time::{Duration, Instant};

use crate::contract::{Improved, Optimum, SolveOptions};
use crate::engines;
use crate::ir::{Cmp, Constraint, Linear, PbFormula, Status};
use crate::limits::{CP_ROW_LIMIT, row_at_least};

/// The engines asked for a second opinion on an optimum `mip` claims, in order: `cp` finds
/// good solutions fast on MIPLIB-like rows (it found lseu's 1120 where CBC once claimed 1128
/// optimal), `sat` takes what cp's 32-bit numbers cannot.
const SECOND_OPINION: [&str; 2] = ["cp", "sat"];

/// The least time a second opinion gets, whatever the first engine took.
const SECOND_OPINION_MIN: Duration = Duration::from_millis(100);

/// The part of the whole time limit a second opinion leaves unused at the end, at most
/// [`RESERVE_MAX`]: the optimum is already proven, so the answer is printed before the
/// limit rather than after it, where a harness that kills at the limit would lose it.
const RESERVE_SHARE: u32 = 20;
/// The most a second opinion leaves unused at the end of the time limit.
const RESERVE_MAX: Duration = Duration::from_secs(1);

/// How long a second opinion runs: as long as the first engine took (at least
/// [`SECOND_OPINION_MIN`]), and within what is left of the time limit less its reserve.
fn slice(first_took: Duration, left: Option<Duration>, limit: Option<Duration>) -> Duration {
    let wanted = first_took.max(SECOND_OPINION_MIN);
    let reserve = limit.map_or(Duration::ZERO, |t| (t / RESERVE_SHARE).min(RESERVE_MAX));
    left.map_or(wanted, |left| left.saturating_sub(reserve).min(wanted))
}

/// Asks a second engine whether anything beats `value`, the optimum the first engine
/// claims: the formula without its objective, plus the row "objective <= value - 1", for as
/// long as the first engine took (at least [`SECOND_OPINION_MIN`]), ending a little before
/// the deadline (see [`slice`]).
/// An optimality proof is a claim no verifier checks, so this is where a wrong one can be
/// caught without the cost of a second full proof.
/// - A model of that row is a solution strictly better than the claimed optimum: it goes to
///   `improved` (the run path checks it and prints it as the better solution), the optimum
///   is withdrawn, and `stats.basis.contradiction` says who claimed what (the run path then
///   exits 1, as `compare` does on a disagreement).
/// - A refutation confirms the optimum: `stats.basis.confirmed_by` names the engine.
/// - Anything else (no answer in time, a refusal, an error) leaves the claim as it was, with
///   `stats.extra.second_opinion` saying why there is none.
/// - With a seed (`opts.seed`) there is none: a seeded run must repeat exactly, and the
///   slice is wall-clock time.
pub(super) fn second_opinion(
    formula: &PbFormula,
    opts: &SolveOptions,
    improved: &mut Improved<'_>,
    claimer: &str,
    value: i64,
    first_took: Duration,
    o: &mut Optimum,
) {
    let note = |o: &mut Optimum, text: String| {
        o.stats.extra.insert("second_opinion".into(), text.into());
    };
    // The claim was made before it is questioned: its lateness is judged from now, not from
    // the end of the second opinion.
    o.stats.basis.claimed_at.get_or_insert_with(Instant::now);
    let Some(objective) = formula.objective() else { return };
    // A seeded run repeats exactly, answer and words. A second opinion runs on a slice of
    // wall-clock time, so whether it decides in its slice depends on the machine's load:
    // seeded, the run would print "confirmed by cp" on one run and "the engine's word" on
    // the next.
    if opts.seed.is_some() {
        return note(
            o,
            "none: a seeded run repeats exactly, and a second opinion runs on a slice of time".into(),
        );
    }
    let Some(bound) = value.checked_sub(1) else {
        return note(o, "none: the claimed optimum is the least i64".into());
    };
    let mut f = formula.clone();
    f.take_objective();
    f.add(
        "objective below the claimed optimum",
        Constraint::Linear(Linear::new(objective.to_vec(), Cmp::Le, bound)),
    );
    let budget = slice(first_took, opts.deadline().remaining(), opts.time_limit);
    if budget.is_zero() {
        return note(o, "none: no time left".into());
    }
    let engine = SECOND_OPINION.into_iter().find(|&name| {
        let fits = name != "cp" || row_at_least(&f, CP_ROW_LIMIT).is_none();
        fits && engines::engine(name).is_some_and(|b| b.check_options(opts).is_ok())
    });
    let Some(name) = engine else {
        return note(o, "none: no other engine of this build takes the formula".into());
    };
    let mut b = engines::engine(name).expect("found above");
    let mine = SolveOptions {
        time_limit: Some(budget),
        started: Some(Instant::now()),
        assumptions: Vec::new(),
        proof: None,
        ..opts.clone()
    };
    match b.solve(&f, &mine) {
        Ok(out) => match (out.status, &out.assignment) {
            (Status::Sat, Some(a)) => {
                // Only a model that holds, and is better, refutes the claim: an engine's
                // model counts for nothing until it is checked.
                let better = formula.objective_value(a).filter(|&b| b < value);
                let Some(better) = better.filter(|_| formula.evaluate(a).is_ok()) else {
                    o.stats.basis.faults.push(crate::basis::Fault {
                        engine: name.to_string(),
                        what: "offered a model that breaks a row or is no better, as a second opinion".into(),
                    });
                    return note(o, format!("{name} offered a model that does not hold"));
                };
                o.optimal = false;
                let message = format!(
                    "{claimer} claimed {value} optimal, but {name} found a solution of value {better}: {claimer}'s optimality claim is wrong"
                );
                o.stats.basis.faults.push(crate::basis::Fault {
                    engine: claimer.to_string(),
                    what: format!("claimed {value} optimal, which {name}'s checked model refutes"),
                });
                o.stats.basis.contradiction.get_or_insert(crate::basis::Contradiction {
                    claimed_by: claimer.to_string(),
                    claim: format!("{value} optimal"),
                    disputed: Some(crate::basis::Disputed::Optimum),
                    refuted_by: name.to_string(),
                    message,
                });
                // The run path checks the better solution like any other and prints it.
                let _ = improved(a);
            }
            (Status::Unsat, _) => {
                o.stats.basis.confirmed_by.get_or_insert_with(|| name.to_string());
            }
            _ => note(o, format!("{name} did not decide within {:.3} s", budget.as_secs_f64())),
        },
        Err(e) => note(o, format!("{name} refused: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::contract::SolveStats;
    use crate::ir::{Lit, Var};

    /// Pick at least two of four items, minimising their cost 3, 5, 4, 6: the optimum is 7.
    fn items() -> PbFormula {
        let mut f = PbFormula::new(4);
        let x = |i| Lit::new(Var(i), true);
        f.add(
            "two items",
            Constraint::Linear(Linear::new((0..4).map(|i| (1, x(i))).collect(), Cmp::Ge, 2)),
        );
        f.set_objective(Some(vec![(3, x(0)), (5, x(1)), (4, x(2)), (6, x(3))]));
        f
    }

    fn claimed() -> Optimum {
        Optimum {
            status: Status::Sat,
            optimal: true,
            stats: SolveStats::default(),
        }
    }

    #[test]
    fn a_better_solution_withdraws_a_wrong_optimum_and_reports_the_contradiction() {
        let f = items();
        let mut seen = Vec::new();
        let mut improved = |a: &[bool]| {
            seen.push(f.objective_value(a).unwrap());
            ControlFlow::Continue(())
        };
        let mut o = claimed();
        // 9 (items 0 and 2 cost 7) is not the optimum.
        second_opinion(
            &f,
            &SolveOptions::default(),
            &mut improved,
            "mip",
            9,
            Duration::from_secs(1),
            &mut o,
        );
        assert!(!o.optimal, "the wrong optimum stands");
        let c = &o.stats.basis.contradiction.as_ref().unwrap().message;
        assert!(
            c.contains("mip claimed 9 optimal") && c.contains("found a solution of value"),
            "{c}"
        );
        assert_eq!(seen.len(), 1);
        assert!(seen[0] < 9 && seen[0] >= 7, "{seen:?}");
    }

    #[test]
    fn a_refutation_confirms_a_right_optimum() {
        let f = items();
        let mut improved = |_: &[bool]| -> ControlFlow<()> { panic!("nothing beats the optimum") };
        let mut o = claimed();
        second_opinion(
            &f,
            &SolveOptions::default(),
            &mut improved,
            "mip",
            7,
            Duration::from_secs(1),
            &mut o,
        );
        assert!(o.optimal);
        assert_eq!(o.stats.basis.confirmed_by.as_deref(), Some("cp"));
        assert!(o.stats.basis.contradiction.is_none());
    }

    #[test]
    fn the_slice_ends_before_the_limit() {
        let s = Duration::from_secs_f64;
        // Plenty of time: as long as the first engine took, at least the minimum.
        assert_eq!(slice(s(2.0), Some(s(30.0)), Some(s(60.0))), s(2.0));
        assert_eq!(slice(s(0.01), Some(s(30.0)), Some(s(60.0))), SECOND_OPINION_MIN);
        // The proof came at 17 s of 20: the slice ends 1 s (a twentieth) before the limit.
        assert_eq!(slice(s(17.0), Some(s(3.0)), Some(s(20.0))), s(2.0));
        // Of 5 s, a twentieth is kept: 0.25 s.
        assert_eq!(slice(s(4.0), Some(s(1.0)), Some(s(5.0))), s(0.75));
        // Over an hour, the reserve stays at one second.
        assert_eq!(slice(s(3000.0), Some(s(600.0)), Some(s(3600.0))), s(599.0));
        // Inside the reserve already: no time for a second opinion.
        assert_eq!(slice(s(4.0), Some(s(0.2)), Some(s(5.0))), Duration::ZERO);
        // No limit: as long as the first engine took.
        assert_eq!(slice(s(7.0), None, None), s(7.0));
    }

    #[test]
    fn no_time_left_leaves_the_claim_with_a_note() {
        let f = items();
        let mut improved = |_: &[bool]| -> ControlFlow<()> { panic!("no engine ran") };
        let mut o = claimed();
        let opts = SolveOptions {
            time_limit: Some(Duration::ZERO),
            started: Some(Instant::now()),
            ..Default::default()
        };
        second_opinion(&f, &opts, &mut improved, "mip", 7, Duration::from_secs(1), &mut o);
        assert!(o.optimal);
        assert_eq!(o.stats.extra["second_opinion"], "none: no time left");
    }

    /// A seeded run repeats exactly: no second opinion, whose slice is wall-clock time, and
    /// a note that says so. A wrong optimum then stands unchallenged (the engine's word), as
    /// the evidence says.
    #[test]
    fn a_seeded_run_gets_no_second_opinion() {
        let f = items();
        let mut improved = |_: &[bool]| -> ControlFlow<()> { panic!("no engine ran") };
        let mut o = claimed();
        let opts = SolveOptions {
            seed: Some(1),
            ..Default::default()
        };
        second_opinion(&f, &opts, &mut improved, "mip", 9, Duration::from_secs(1), &mut o);
        assert!(o.optimal);
        assert!(o.stats.basis.confirmed_by.is_none());
        let note = o.stats.extra["second_opinion"].as_str().unwrap();
        assert!(note.starts_with("none: a seeded run repeats exactly"), "{note}");
    }
}

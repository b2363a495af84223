//! Optimisation on every backend: the backend searches ([`crate::backend::Algorithms::optimise`]: natively, or
//! with the objective bound under assumptions, or with a bound row), and every model it
//! reports comes through here before anyone sees it: [`super::finish`] (the IR, the decoder
//! and the front-end's verifier) and a strictly better objective value than the last one,
//! computed here exactly from the IR. Only then does it go to the caller's `on_improved`
//! (which streams the PB competition's `o` line) and become the best solution.
//!
//! An objective too wide for 64 bits comes in stages ([`crate::ir::Staged`]): each is one
//! ordinary optimisation on the backend, run with the stages before it fixed at their
//! optimum, so every engine optimises it with its own 64-bit sums. The stages' models are
//! checked against the whole objective in exact arithmetic, and the answer is optimal only
//! when every stage was proven.

use std::borrow::Cow;
use std::ops::ControlFlow;

use num_bigint::BigInt;

use super::assignment::{AnswerProblem, finish};
use super::error::RunError;
use crate::backend::algorithms::Algorithms;
use crate::backend::{Backend, Contradiction, SolveOptions, SolveStats, Status};
use crate::ir::{Constraint, PbFormula};
use crate::puzzle::Puzzle;

/// The end of an optimisation: the status, the best solution, the objective values of the
/// improving solutions in order, and whether the last is proven optimal.
pub(crate) struct Improved<S> {
    pub status: Status,
    pub solution: Option<S>,
    pub improvements: Vec<BigInt>,
    pub optimal: bool,
    pub stats: SolveStats,
}

/// Called with each checked improving solution and its objective value (as in the IR).
pub type OnImproved<'a, S> = dyn FnMut(&S, &BigInt) -> Result<(), RunError> + 'a;

/// How one stage ended: as the backend said (status, proven, statistics), or, in a later
/// stage, with the backend's failure or with its refutation of the stage, which the best
/// solution so far satisfies.
enum StageEnd {
    Done(Status, bool, SolveStats),
    Failed(String),
    Contradiction(Contradiction),
}

/// What the stages found so far: the best solution, its IR assignment (whose bits fix a
/// finished stage) and the improving values.
struct Found<S> {
    best: Option<S>,
    assignment: Vec<bool>,
    improvements: Vec<BigInt>,
}

/// Optimises `formula` (the compiled `c`) on `b` within the deadline of `opts`.
pub(crate) fn optimise<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    formula: &PbFormula,
    b: &mut dyn Backend,
    opts: &SolveOptions,
    on_improved: &mut OnImproved<'_, P::Solution>,
) -> Result<Improved<P::Solution>, RunError> {
    // A wide objective's stages, as wide as this backend takes them.
    let mut stages = formula
        .staged()
        .as_ref()
        .map(|s| s.stages(b.objective_stage_bits()))
        .unwrap_or_default()
        .into_iter();
    let mut found = Found {
        best: None,
        assignment: Vec::new(),
        improvements: Vec::new(),
    };
    let mut stage: Cow<'_, PbFormula> = match stages.next() {
        Some(first) => {
            let mut f = formula.clone();
            f.set_stage(Some(first));
            Cow::Owned(f)
        }
        None => Cow::Borrowed(formula),
    };
    let count = stages.len() + 1;
    let mut stats = SolveStats::default();
    let mut first_status = None;
    let mut confirmed_all = true;
    for next in 0..count {
        let (status, optimal, st) = match one_stage(p, c, formula, &stage, next > 0, b, opts, on_improved, &mut found)?
        {
            StageEnd::Done(status, optimal, mut st) => {
                // The stage's claims were made by now (a race says when, earlier): the whole
                // answer's claim is the last stage's.
                st.basis.claimed_at.get_or_insert_with(std::time::Instant::now);
                (status, optimal, st)
            }
            // A later stage that fails leaves the best solution of the stages before it:
            // checked, and unproven. A refutation of a stage the best solution satisfies is
            // a contradiction between the engine and that solution, said as such (exit 1).
            StageEnd::Failed(why) => {
                stats.extra.insert("objective_stage_failed".into(), why.into());
                (Status::Unknown, false, SolveStats::default())
            }
            StageEnd::Contradiction(c) => {
                stats.basis.contradiction.get_or_insert(c);
                (Status::Unknown, false, SolveStats::default())
            }
        };
        confirmed_all &= !optimal || st.basis.confirmed_by.is_some();
        // An engine that minimised the objective whole (`mitm`) settled every stage at once.
        let whole = optimal && st.extra.contains_key(crate::backend::mitm::WHOLE_OBJECTIVE);
        merge(&mut stats, st);
        if formula.staged().is_some() {
            stats
                .extra
                .insert("objective_stages".into(), format!("{} of {count}", next + 1).into());
        }
        if !confirmed_all {
            stats.basis.confirmed_by = None;
        }
        first_status.get_or_insert(status);
        let done = !optimal || whole || next + 1 == count || found.best.is_none();
        if done {
            let best = found.best.is_some();
            return Ok(Improved {
                // A backend that stopped in time after a solution still answers with it.
                status: if best {
                    Status::Sat
                } else {
                    first_status.unwrap_or(status)
                },
                optimal: optimal && best,
                solution: found.best,
                improvements: found.improvements,
                stats,
            });
        }
        // The stage is proven: its bits keep their values from here on.
        let mut f = stage.into_owned();
        for (_, l) in f.objective().unwrap_or_default().to_vec() {
            let fixed = if l.eval(&found.assignment) { l } else { !l };
            f.add(
                "the objective's higher stages at their optimum",
                Constraint::Clause(vec![fixed]),
            );
        }
        f.set_stage(stages.next());
        stage = Cow::Owned(f);
    }
    unreachable!("the last stage returns")
}

/// One optimisation on the backend: of `stage`'s objective, every model checked against
/// `whole` (the formula with the whole objective). Each model must improve the stage's
/// objective. In the first stage that makes it better than the best so far; in a later one
/// only the bits above the stage are fixed, so a model may be no better than the best
/// (the stage's value as the best's, or higher, with other bits below): it is not an
/// improvement, and goes nowhere.
#[allow(clippy::too_many_arguments)]
fn one_stage<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    whole: &PbFormula,
    stage: &PbFormula,
    later: bool,
    b: &mut dyn Backend,
    opts: &SolveOptions,
    on_improved: &mut OnImproved<'_, P::Solution>,
    found: &mut Found<P::Solution>,
) -> Result<StageEnd, RunError> {
    let mut failure: Option<RunError> = None;
    let mut models = 0usize;
    let mut last_stage_value: Option<i64> = None;
    let backend = b.name();
    let wrong = |problem| RunError::Wrong {
        backend: backend.to_string(),
        problem,
    };
    let mut check = |a: &[bool]| -> ControlFlow<()> {
        models += 1;
        let mut accept = || -> Result<(), RunError> {
            let s = finish(p, c, a).map_err(wrong)?;
            // `finish` checks the compiled formula; a later stage also fixes the bits above.
            if later && let Err(v) = stage.evaluate(a) {
                return Err(wrong(AnswerProblem::Violates(format!("{} ({})", v.label, v.detail))));
            }
            let sv = stage.objective_value(a).unwrap_or_default();
            if let Some(last) = last_stage_value
                && sv >= last
            {
                return Err(wrong(AnswerProblem::Violates(format!(
                    "the objective bound (value {sv}, needs at most {})",
                    last - 1
                ))));
            }
            last_stage_value = Some(sv);
            let v = whole.exact_objective_value(a).unwrap_or_default();
            if let Some(last) = found.improvements.last() {
                if later && &v >= last {
                    return Ok(());
                }
                if &v >= last {
                    return Err(wrong(AnswerProblem::Violates(format!(
                        "the objective bound (value {v}, needs at most {})",
                        last - 1
                    ))));
                }
            }
            on_improved(&s, &v)?;
            found.improvements.push(v);
            found.best = Some(s);
            if whole.staged().is_some() {
                found.assignment = a.to_vec();
            }
            Ok(())
        };
        match accept() {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        }
    };
    let out = b.optimise(stage, opts, &mut check);
    if let Some(e) = failure {
        return Err(e);
    }
    let out = match out {
        Ok(out) => out,
        Err(e) if later => return Ok(StageEnd::Failed(format!("{}: {e}", b.answered_by()))),
        Err(e) => return Err(e.into()),
    };
    // `auto` names its engine only once it has run.
    let wrong = |problem| RunError::Wrong {
        backend: b.answered_by().to_string(),
        problem,
    };
    if later && out.status == Status::Unsat && models == 0 {
        let engine = b.answered_by();
        return Ok(StageEnd::Contradiction(Contradiction {
            claimed_by: engine.to_string(),
            claim: "that a stage of the objective has no solution".into(),
            // No claim of the answer's: the stage is the run path's own question.
            disputed: None,
            refuted_by: "the best solution so far".into(),
            message: format!(
                "{engine} called a stage of the objective infeasible, which the best solution satisfies"
            ),
        }));
    }
    match (out.status, models) {
        (Status::Sat, 0) => {
            return Err(wrong(AnswerProblem::Size {
                got: 0,
                want: stage.num_vars() as usize,
            }));
        }
        (Status::Unsat, _) if models > 0 || found.best.is_some() => {
            return Err(wrong(AnswerProblem::Violates(format!(
                "nothing: the backend reported solutions, then \"{}\"",
                out.status.as_str()
            ))));
        }
        _ => {}
    }
    Ok(StageEnd::Done(out.status, out.optimal, out.stats))
}

/// Adds one stage's statistics to the whole run's: sizes are the largest model's, times and
/// the optimisation's counters (`solves`, `loads`) add up, other notes are the last
/// stage's, and the basis of every stage is kept ([`crate::backend::Basis::absorb`]).
fn merge(total: &mut SolveStats, st: SolveStats) {
    total.vars = total.vars.max(st.vars);
    total.clauses = total.clauses.max(st.clauses);
    total.build_ms += st.build_ms;
    total.solve_ms += st.solve_ms;
    total.basis.absorb(*st.basis);
    for (k, v) in st.extra {
        match (total.extra.get(&k), &v) {
            (Some(serde_json::Value::Number(a)), serde_json::Value::Number(b))
                if (k == "solves" || k == "loads") && a.is_u64() && b.is_u64() =>
            {
                let sum = a.as_u64().unwrap_or(0).saturating_add(b.as_u64().unwrap_or(0));
                total.extra.insert(k, sum.into());
            }
            _ => {
                total.extra.insert(k, v);
            }
        }
    }
}

//! Optimisation on every backend: the backend searches ([`Backend::optimise`]: natively, or
//! with the objective bound under assumptions, or with a bound row), and every model it
//! reports comes through here before anyone sees it: [`super::finish`] (the IR, the decoder
//! and the front-end's verifier) and a strictly better objective value than the last one,
//! computed here from the IR. Only then does it go to the caller's `on_improved` (which
//! streams the PB competition's `o` line) and become the best solution.

use std::ops::ControlFlow;

use super::{AnswerProblem, RunError, finish};
use crate::backend::{Backend, SolveOptions, SolveStats, Status};
use crate::ir::PbFormula;
use crate::puzzle::Puzzle;

/// The end of an optimisation: the status, the best solution, the objective values of the
/// improving solutions in order, and whether the last is proven optimal.
pub(crate) struct Improved<S> {
    pub status: Status,
    pub solution: Option<S>,
    pub improvements: Vec<i64>,
    pub optimal: bool,
    pub stats: SolveStats,
}

/// Called with each checked improving solution and its objective value (as in the IR).
pub type OnImproved<'a, S> = dyn FnMut(&S, i64) -> Result<(), RunError> + 'a;

/// Optimises `formula` (the compiled `c`) on `b` within the deadline of `opts`.
pub(crate) fn optimise<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    formula: &PbFormula,
    b: &mut dyn Backend,
    opts: &SolveOptions,
    on_improved: &mut OnImproved<'_, P::Solution>,
) -> Result<Improved<P::Solution>, RunError> {
    let mut best: Option<P::Solution> = None;
    let mut improvements: Vec<i64> = Vec::new();
    let mut failure: Option<RunError> = None;
    let backend = b.name();
    let wrong = |problem| RunError::Wrong {
        backend: backend.to_string(),
        problem,
    };
    let mut check = |a: &[bool]| -> ControlFlow<()> {
        let mut accept = || -> Result<(), RunError> {
            let s = finish(p, c, a).map_err(wrong)?;
            let v = formula.objective_value(a).unwrap_or(0);
            if let Some(&last) = improvements.last()
                && v >= last
            {
                return Err(wrong(AnswerProblem::Violates(format!(
                    "the objective bound (value {v}, needs at most {})",
                    last - 1
                ))));
            }
            on_improved(&s, v)?;
            improvements.push(v);
            best = Some(s);
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
    let out = b.optimise(formula, opts, &mut check);
    if let Some(e) = failure {
        return Err(e);
    }
    let out = out?;
    // `auto` names its engine only once it has run.
    let wrong = |problem| RunError::Wrong {
        backend: b.answered_by().to_string(),
        problem,
    };
    match (out.status, &best) {
        (Status::Sat, None) => {
            return Err(wrong(AnswerProblem::Size {
                got: 0,
                want: formula.num_vars as usize,
            }));
        }
        (Status::Unsat, Some(_)) => {
            return Err(wrong(AnswerProblem::Violates(format!(
                "nothing: the backend reported solutions, then \"{}\"",
                out.status.as_str()
            ))));
        }
        _ => {}
    }
    Ok(Improved {
        // A backend that stopped in time after a solution still answers with it.
        status: if best.is_some() { Status::Sat } else { out.status },
        optimal: out.optimal && best.is_some(),
        solution: best,
        improvements,
        stats: out.stats,
    })
}

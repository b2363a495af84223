//! The only way an assignment becomes a solution ([`finish`]): checked against the IR,
//! decoded, and verified; and why one is not ([`AnswerProblem`]).

use crate::ir::{Evaluator, PbFormula};
use crate::puzzle::{Invalid, Puzzle};

/// Why an assignment is not a solution. From an in-process backend that is a bug (exit 1);
/// from an answer file it is the file's fault (exit 2, see [`super::external`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerProblem {
    #[error("it gives {got} values for {want} variables")]
    Size { got: usize, want: usize },
    /// The violation's own sentence: "constraint #0 (...) is violated: ...".
    #[error("{0}")]
    Violates(String),
    #[error("it cannot be decoded: {0}")]
    Decode(Invalid),
    #[error("it fails verification: {0}")]
    Invalid(Invalid),
}

/// Checks a full assignment against the IR, decodes it and verifies the solution: the only
/// way an assignment becomes a solution.
pub fn finish<P: Puzzle>(p: &P, c: &P::Compiled, assignment: &[bool]) -> Result<P::Solution, AnswerProblem> {
    finish_by(p, c, assignment, |f, a| f.evaluate(a))
}

/// [`finish`] with the formula's evaluation compiled once ([`Evaluator`], made from `p`'s
/// formula): for the many answers of an enumeration.
pub(crate) fn finish_with<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    e: &mut Evaluator,
    assignment: &[bool],
) -> Result<P::Solution, AnswerProblem> {
    finish_by(p, c, assignment, |f, a| e.evaluate(f, a))
}

fn finish_by<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    assignment: &[bool],
    evaluate: impl FnOnce(&PbFormula, &[bool]) -> Result<(), crate::ir::Violation>,
) -> Result<P::Solution, AnswerProblem> {
    let f = p.formula(c);
    let n = f.num_vars() as usize;
    if assignment.len() < n {
        return Err(AnswerProblem::Size {
            got: assignment.len(),
            want: n,
        });
    }
    let a = &assignment[..n];
    evaluate(f, a).map_err(|v| AnswerProblem::Violates(v.to_string()))?;
    let s = p.decode(c, a).map_err(AnswerProblem::Decode)?;
    p.verify(&s).map_err(AnswerProblem::Invalid)?;
    Ok(s)
}

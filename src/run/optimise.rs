//! Optimisation on every backend: improve an answer until no better one exists.
//!
//! The first solution's objective value `v` becomes a bound, `objective <= v - 1`, added as
//! one more linear row, and the backend solves again; each answer goes through
//! [`super::finish`] like any other, and must also satisfy the bound (checked here, against
//! the IR's objective). "unsat" under the bound proves the last solution optimal; the time
//! limit leaves the best one found, not proven. This is SAT–UNSAT linear search; a backend
//! that optimises natively can later take the objective itself.

use super::{AnswerProblem, RunError, solve_checked};
use crate::backend::{Backend, SolveOptions, SolveStats};
use crate::ir::{Cmp, Constraint, Linear, PbFormula, Status};
use crate::puzzle::Puzzle;

/// The best solution found, its assignment, the objective values of the improving
/// solutions in order, and whether the last is proven optimal.
pub(crate) struct Improved<S> {
    pub solution: S,
    pub improvements: Vec<i64>,
    pub optimal: bool,
}

/// Improves `first` (a checked solution and its assignment of `formula`) until the
/// backend proves no better one exists or the deadline passes. Statistics add up.
pub(crate) fn improve<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    formula: &PbFormula,
    b: &mut dyn Backend,
    opts: &SolveOptions,
    first: (P::Solution, Vec<bool>),
    stats: &mut SolveStats,
) -> Result<Improved<P::Solution>, RunError> {
    let Some(terms) = formula.objective.clone() else {
        return Ok(Improved {
            solution: first.0,
            improvements: Vec::new(),
            optimal: false,
        });
    };
    let value = |a: &[bool]| formula.objective_value(a).unwrap_or(0);
    let (mut best, assignment) = first;
    let mut improvements = vec![value(&assignment)];
    // The objective cannot go below the sum of its negative coefficients.
    let floor: i64 = terms.iter().map(|t| t.0.min(0)).sum();
    let mut bounded = formula.clone();
    bounded.objective = None;
    let row = bounded.add("objective bound", Constraint::Linear(Linear::new(terms, Cmp::Le, 0)));
    loop {
        let v = *improvements.last().expect("one value at least");
        if v <= floor {
            return Ok(Improved {
                solution: best,
                improvements,
                optimal: true,
            });
        }
        if opts.deadline().passed() {
            break;
        }
        if let Constraint::Linear(l) = &mut bounded.constraints[row].1 {
            l.rhs = v - 1;
        }
        let (status, found, s) = solve_checked(p, c, &bounded, b, opts)?;
        stats.solve_ms += s.solve_ms;
        stats.build_ms += s.build_ms;
        match (status, found) {
            (Status::Sat, Some((sol, a))) => {
                let nv = value(&a);
                if nv >= v {
                    return Err(RunError::Wrong {
                        backend: b.answered_by().to_string(),
                        problem: AnswerProblem::Violates(format!(
                            "the objective bound (value {nv}, needs at most {})",
                            v - 1
                        )),
                    });
                }
                improvements.push(nv);
                best = sol;
            }
            (Status::Unsat, _) => {
                return Ok(Improved {
                    solution: best,
                    improvements,
                    optimal: true,
                });
            }
            _ => break,
        }
    }
    Ok(Improved {
        solution: best,
        improvements,
        optimal: false,
    })
}

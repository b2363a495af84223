//! One solve through the run path ([`solve`]): compile, one backend call (an optimisation,
//! or with `--unique` a walk over two solutions), every answer checked through
//! [`finish`], `--strict`'s second engine, and the gate's verdict, as an [`Outcome`].

use std::time::Instant;

use super::assignment::{AnswerProblem, finish};
use super::error::RunError;
use super::gate::{self, no_solution_reason};
use super::optimise::{self, OnImproved};
use super::options::RunOptions;
use super::prepare::{Prepared, compile_within, note_lp, prepare};
use super::{confirm, enumerate};
use crate::backend::{Backend, Disputed, Ended, SolveOptions, SolveStats, Status};
use crate::ir::PbFormula;
use crate::puzzle::{Answer, CompileOptions, Puzzle};

/// The result of one run: the answer in the puzzle's terms, and the run's sizes and times.
#[derive(Debug, Clone)]
pub struct Outcome<S> {
    pub answer: Answer<S>,
    pub stats: SolveStats,
}

/// One backend call, checked: the status, and for "sat" the verified solution with the
/// assignment it came from.
type Checked1<S> = (Status, Option<(S, Vec<bool>)>, SolveStats);

fn solve_checked<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    formula: &PbFormula,
    b: &mut dyn Backend,
    opts: &SolveOptions,
) -> Result<Checked1<P::Solution>, RunError> {
    let out = b.solve(formula, opts)?;
    check_outcome(p, c, formula, b.answered_by(), out)
}

/// A backend's outcome, checked: a "sat" answer becomes a solution only through [`finish`].
fn check_outcome<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    formula: &PbFormula,
    backend: &str,
    out: crate::backend::Outcome,
) -> Result<Checked1<P::Solution>, RunError> {
    if out.status != Status::Sat {
        return Ok((out.status, None, out.stats));
    }
    let wrong = |problem| RunError::Wrong {
        backend: backend.to_string(),
        problem,
    };
    // A "sat" without an assignment is as wrong as a wrong assignment.
    let a = out.assignment.ok_or_else(|| {
        wrong(AnswerProblem::Size {
            got: 0,
            want: formula.num_vars() as usize,
        })
    })?;
    let s = finish(p, c, &a).map_err(wrong)?;
    Ok((Status::Sat, Some((s, a)), out.stats))
}

/// Compiles `p`, solves it on `b`, and checks any answer through [`finish`]; with
/// `opts.unique`, enumerates up to two solutions (`enumerate::walk`): one means unique
/// (when the enumeration is complete), two show another. One time limit covers compiling
/// and solving (the clock starts here unless the caller's already runs).
pub fn solve<P: Puzzle>(p: &P, b: &mut dyn Backend, opts: &RunOptions) -> Result<Outcome<P::Solution>, RunError> {
    solve_with(p, b, opts, &mut |_, _| Ok(()))
}

/// [`solve`], with each improving solution of an optimisation (checked, strictly better)
/// and its objective value handed to `on_improved` as it is found: `solve` prints the PB
/// competition's `o` lines through it.
pub fn solve_with<P: Puzzle>(
    p: &P,
    b: &mut dyn Backend,
    opts: &RunOptions,
    on_improved: &mut OnImproved<'_, P::Solution>,
) -> Result<Outcome<P::Solution>, RunError> {
    let solve_opts = &opts.solve.clock_started();
    let t0 = Instant::now();
    let name = b.name();
    let no_answer = |status, reason: String, stats, by: Option<&str>| {
        let mut ending = gate::Ending::new(status, by.unwrap_or(name), name);
        ending.reason = Some(reason);
        ending.asked_unique = opts.unique;
        ending.strict = opts.strict;
        Outcome {
            answer: gate::judge(ending),
            stats,
        }
    };
    let ready = match prepare(p, b, opts, solve_opts, t0, !opts.unique)? {
        Prepared::Answered(Status::Unsat, reason, mut stats, Some("presolve")) if opts.strict => {
            // Presolve's derivation is an argument, not a checked certificate: under
            // --strict the model without presolve must be refuted by an engine too.
            return presolve_strictly(p, opts, solve_opts, reason, &mut stats).map(|mut o| {
                o.stats = stats;
                o
            });
        }
        Prepared::Answered(status, reason, stats, by) => return Ok(no_answer(status, reason, stats, by)),
        Prepared::Ready(r) => r,
    };
    let compiled = &ready.compiled;
    let formula = p.formula(compiled);
    let mut optimum = None;
    let mut first_assignment = Vec::new();
    let (mut status, mut found, mut second, mut stats) = if opts.unique {
        let mut found = Vec::new();
        let walked = enumerate::walk(p, compiled, b, solve_opts, Some(2), &mut |s, _| {
            found.push(s);
            Ok(std::ops::ControlFlow::Continue(()))
        })?;
        let mut found = found.into_iter();
        let (first, second) = (found.next(), found.next());
        let unique = match (&first, &second, walked.ended) {
            (Some(_), Some(_), _) => Some(false),
            (Some(_), None, Ended::Complete) => Some(true),
            _ => None,
        };
        first_assignment = walked.first.clone();
        (walked.status(), first, Some((unique, second)), walked.stats)
    } else if formula.objective().is_some() && ready.quick.is_none() {
        let o = optimise::optimise(p, compiled, formula, b, solve_opts, on_improved)?;
        if o.solution.is_some() {
            optimum = Some((o.optimal, o.improvements));
        }
        (o.status, o.solution, None, o.stats)
    } else {
        let (status, found, stats) = match ready.quick {
            Some(out) => check_outcome(p, compiled, formula, b.answered_by(), out)?,
            None => solve_checked(p, compiled, formula, b, solve_opts)?,
        };
        (status, found.map(|(s, _)| s), None, stats)
    };
    // When the engine's claims were made: as it returned, unless it says (a race's claim
    // stood before the race ended). Lateness is judged from this instant alone, so that
    // `--strict`'s second engine, asked after it, cannot make the first engine's claim late.
    let claimed_at = stats.basis.claimed_at.unwrap_or_else(Instant::now);
    let first_late = solve_opts.deadline().late(claimed_at);
    stats.build_ms += ready.compile_ms;
    note_lp(&mut stats, ready.lp.as_ref());
    // `auto` names the engine it picked.
    let name = b.answered_by();
    let mut found_by = None;
    if opts.strict && !first_late {
        let mut claims = Claims {
            status: &mut status,
            found: &mut found,
            optimum: &mut optimum,
            second: &mut second,
            first_assignment: &first_assignment,
            found_by: &mut found_by,
        };
        confirm_strictly(p, compiled, name, solve_opts, &mut claims, &mut stats)?;
    }
    let interrupted = status == Status::Unknown && solve_opts.deadline().interrupted();
    let mut ending = gate::Ending::new(status, found_by.unwrap_or(name), name);
    ending.basis = (*stats.basis).clone();
    ending.late = first_late;
    ending.solution = found;
    ending.asked_unique = opts.unique;
    ending.strict = opts.strict;
    ending.reason = match no_solution_reason(status, name) {
        Some(_) if interrupted => Some("the command was interrupted".to_string()),
        r => r,
    };
    if let Some((optimal, improvements)) = optimum {
        ending.optimal = Some(optimal);
        ending.improvements = improvements;
    }
    if let Some((unique, second)) = second {
        ending.unique = unique;
        ending.second = second;
    }
    Ok(Outcome {
        answer: gate::judge(ending),
        stats,
    })
}

/// The claims of one run that `--strict` may put to a second engine.
struct Claims<'a, S> {
    status: &'a mut Status,
    found: &'a mut Option<S>,
    optimum: &'a mut Option<(bool, Vec<num_bigint::BigInt>)>,
    second: &'a mut Option<(Option<bool>, Option<S>)>,
    first_assignment: &'a [bool],
    /// The second engine, when its checked model became the answer's solution.
    found_by: &'a mut Option<&'static str>,
}

/// Under `--strict`, puts the run's one unconfirmed claim (unsat, an optimum, uniqueness) to
/// an engine of another kind ([`confirm`]): a refutation confirms it
/// (`stats.basis.confirmed_by`); a model of the question that passes [`finish`] is a
/// contradiction, and that model becomes the answer; a model that does not, or a refutation
/// after the time limit, is the second engine's fault, in the record. Without a verdict the
/// claim stays unconfirmed, and the gate withholds it. A claim already confirmed is left
/// alone.
fn confirm_strictly<P: Puzzle>(
    p: &P,
    compiled: &P::Compiled,
    first: &'static str,
    opts: &SolveOptions,
    claims: &mut Claims<'_, P::Solution>,
    stats: &mut SolveStats,
) -> Result<(), RunError> {
    if stats.basis.confirmed_by.is_some() {
        return Ok(());
    }
    let formula = p.formula(compiled);
    let (question, claim, disputed) = if *claims.status == Status::Unsat {
        (formula.clone(), "that there is no solution".to_string(), Disputed::Unsat)
    } else if let Some((true, improvements)) = claims.optimum.as_ref() {
        let value = improvements.last().and_then(|v| i64::try_from(v).ok());
        let (Some(objective), Some(v), None) = (formula.objective(), value, formula.staged()) else {
            stats.extra.insert(
                "strict".into(),
                "the objective is wider than 64 bits: no second engine can be asked".into(),
            );
            return Ok(());
        };
        let Some(bound) = v.checked_sub(1) else { return Ok(()) };
        let mut q = formula.clone();
        q.take_objective();
        q.add(
            "objective below the claimed optimum",
            crate::ir::Constraint::Linear(crate::ir::Linear::new(objective.to_vec(), crate::ir::Cmp::Le, bound)),
        );
        (q, format!("that {v} is optimal"), Disputed::Optimum)
    } else if let Some((Some(true), _)) = claims.second.as_ref() {
        let projection = crate::ir::Projection::new(formula, p.primary(compiled));
        let mut q = formula.clone();
        q.add(
            "another solution than the first",
            crate::ir::Constraint::Clause(projection.block(claims.first_assignment)),
        );
        (q, "that the solution is unique".to_string(), Disputed::Unique)
    } else {
        return Ok(());
    };
    match confirm::ask(&question, first, opts) {
        confirm::Said::Refuted(by) => stats.basis.confirmed_by = Some(by.to_string()),
        confirm::Said::Late(by) => stats.basis.faults.push(confirm::late_confirmation(by)),
        confirm::Said::Nothing(why) => {
            stats.extra.insert("strict".into(), why.into());
        }
        confirm::Said::Model(by, a) => {
            let checked = finish(p, compiled, &a).and_then(|s| match question.evaluate(&a) {
                Ok(()) => Ok(s),
                Err(v) => Err(AnswerProblem::Violates(v.to_string())),
            });
            match checked {
                Err(why) => stats.basis.faults.push(crate::backend::Fault {
                    engine: by.to_string(),
                    what: format!("offered a model that is not a solution ({why})"),
                }),
                Ok(s) => {
                    let message = format!("{first} claimed {claim}, but {by} found a checked solution that refutes it");
                    stats.basis.contradiction = Some(crate::backend::Contradiction {
                        claimed_by: first.to_string(),
                        claim,
                        disputed: Some(disputed),
                        refuted_by: by.to_string(),
                        message,
                    });
                    if *claims.status == Status::Unsat {
                        *claims.status = Status::Sat;
                        *claims.found = Some(s);
                        *claims.found_by = Some(by);
                    } else if let Some((optimal, improvements)) = claims.optimum.as_mut() {
                        *optimal = false;
                        if let Some(v) = formula.exact_objective_value(&a) {
                            improvements.push(v);
                        }
                        *claims.found = Some(s);
                    } else if let Some((unique, second)) = claims.second.as_mut() {
                        *unique = Some(false);
                        *second = Some(s);
                    }
                }
            }
        }
    }
    Ok(())
}

/// A presolve refutation under `--strict`: the puzzle compiled without presolve goes to an
/// engine ([`confirm::ask`]); its refutation confirms presolve's, a checked solution
/// contradicts it, and anything else leaves the claim withheld by the gate.
fn presolve_strictly<P: Puzzle>(
    p: &P,
    opts: &RunOptions,
    solve_opts: &SolveOptions,
    reason: String,
    stats: &mut SolveStats,
) -> Result<Outcome<P::Solution>, RunError> {
    let name = "presolve";
    let mut ending = gate::Ending::new(Status::Unsat, name, name);
    ending.asked_unique = opts.unique;
    ending.strict = true;
    let plain = CompileOptions { presolve: false };
    match compile_within(p, plain, &solve_opts.deadline()) {
        Some(Ok(c)) => match confirm::ask(p.formula(&c), name, solve_opts) {
            confirm::Said::Refuted(by) => ending.basis.confirmed_by = Some(by.to_string()),
            confirm::Said::Late(by) => ending.basis.faults.push(confirm::late_confirmation(by)),
            confirm::Said::Model(by, a) => match finish(p, &c, &a) {
                Ok(s) => {
                    ending.status = Status::Sat;
                    ending.by = by.to_string();
                    ending.solution = Some(s);
                    ending.basis.contradiction = Some(crate::backend::Contradiction {
                        claimed_by: name.into(),
                        claim: "that there is no solution".into(),
                        disputed: Some(Disputed::Unsat),
                        refuted_by: by.to_string(),
                        message: format!("presolve refuted the puzzle ({reason}), but {by} found a checked solution"),
                    });
                }
                Err(why) => ending.basis.faults.push(crate::backend::Fault {
                    engine: by.to_string(),
                    what: format!("offered a model that is not a solution ({why})"),
                }),
            },
            confirm::Said::Nothing(why) => {
                stats.extra.insert("strict".into(), why.into());
            }
        },
        // The model without presolve is refuted while it is built (or the time ran out).
        Some(Err(_)) | None => {
            stats.extra.insert(
                "strict".into(),
                "the model without presolve could not be built in time".into(),
            );
        }
    }
    if ending.status == Status::Unsat {
        ending.reason = Some(reason);
    }
    Ok(Outcome {
        answer: gate::judge(ending),
        stats: SolveStats::default(),
    })
}


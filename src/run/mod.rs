//! The one run path: compile -> backend -> evaluate against the IR -> decode -> verify ->
//! [`Outcome`]. Every command reaches a solver through [`solve`], and every assignment,
//! whether from an in-process backend, a session (`sweep`) or an external solver's file
//! (`decode`), becomes a solution only through [`finish`].
//!
//! This module is generic over [`Puzzle`]; [`any`] erases the puzzle type so that the CLI
//! and the registry can hold any kind behind one `Box<dyn AnyPuzzle>`.

pub mod any;
mod confirm;
pub mod emit;
pub mod enumerate;
pub mod external;
#[cfg(test)]
mod faults;
mod gate;
mod optimise;
pub mod parallel;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::backend::{Backend, BackendError, Deadline, Ended, SolveOptions, SolveStats, Status, Waited};
use crate::ir::{Evaluator, PbFormula};
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation};

pub use any::{AnyPuzzle, Checked, Report, Stream};
pub use enumerate::Enumerated;
pub use optimise::OnImproved;

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
/// backend (see [`crate::lp`] and encodings/lp.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LpMode {
    /// Where it pays: see [`lp_limits`].
    #[default]
    Auto,
    On,
    Off,
}

/// The result of one run: the answer in the puzzle's terms, and the run's sizes and times.
#[derive(Debug, Clone)]
pub struct Outcome<S> {
    pub answer: Answer<S>,
    pub stats: SolveStats,
}

/// Why an assignment is not a solution. From an in-process backend that is a bug (exit 1);
/// from an answer file it is the file's fault (exit 2, see [`external`]).
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

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// A backend's "sat" answer that is not a solution: a bug, never printed as an answer.
    #[error("the {backend} answer is wrong: {problem}")]
    Wrong { backend: String, problem: AnswerProblem },
    /// Writing a solution out failed (a closed pipe ends an enumeration quietly).
    #[error("{0}")]
    Output(#[from] std::io::Error),
}

impl From<RunError> for crate::Error {
    fn from(e: RunError) -> crate::Error {
        match e {
            RunError::Backend(b) => b.into(),
            wrong @ RunError::Wrong { .. } => crate::Error::internal_from(wrong.to_string(), wrong),
            RunError::Output(e) => crate::Error::Io(e),
        }
    }
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
    let n = f.num_vars as usize;
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

/// How often a thread waiting for the compiling worker looks at the deadline.
const POLL: Duration = Duration::from_millis(50);

/// Compiles within the deadline: `None` once it passes. On large instances presolve and
/// compiling take seconds, and `Puzzle::compile` takes no deadline, so with a time limit
/// they run on a worker thread whose front-end loops look at the deadline between faces or
/// rows (`budget::compile_stop`) while this one waits. Past the deadline the worker is given
/// [`crate::budget::GRACE`] to end; a step longer than that between two looks is left to
/// finish on its own (its model is then dropped).
fn compile_within<P: Puzzle>(
    p: &P,
    opts: CompileOptions,
    deadline: &Deadline,
) -> Option<Result<P::Compiled, Refutation>> {
    if !deadline.is_set() {
        return Some(p.compile(&opts));
    }
    let (tx, rx) = mpsc::channel();
    let owned = p.clone();
    let stop = deadline.clone();
    let worker = std::thread::Builder::new().name("sokuc-compile".into()).spawn(move || {
        // The front-ends' loops stop once the deadline passes (`budget::compile_stop`), and
        // what a stopped compile returns is never sent: past the deadline the caller answers
        // `unknown` whatever comes.
        let compiled = crate::budget::compiling_within(&stop, || owned.compile(&opts));
        if !stop.passed() {
            // The receiver is gone when the caller stopped waiting.
            let _ = tx.send(compiled);
        }
    });
    let Ok(worker) = worker else {
        return Some(p.compile(&opts));
    };
    let Ok(waited) = deadline.wait(&rx, POLL, || Ok::<(), std::convert::Infallible>(()));
    match waited {
        Waited::Done(c) => Some(c),
        // The compile sees the deadline at its next face or row and ends; it is given a
        // moment to, so that it does not run on beside what the process does next (bench,
        // sweep).
        Waited::Passed => {
            let _ = crate::budget::join_within(worker, crate::budget::GRACE);
            None
        }
        // Compiling panicked: the same panic as without a worker.
        Waited::WorkerGone => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            // It stopped at the deadline without sending.
            Ok(()) => None,
        },
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
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
            want: formula.num_vars as usize,
        })
    })?;
    let s = finish(p, c, &a).map_err(wrong)?;
    Ok((Status::Sat, Some((s, a)), out.stats))
}

/// How many rows an LP refutation names before "+ N more rows".
const LP_ROWS_SHOWN: usize = 12;

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

/// The LP attempt's outcome in the statistics (`extra.lp`, `extra.lp_ms`,
/// `extra.lp_iterations`); its time is part of `build_ms`.
fn note_lp(stats: &mut SolveStats, lp: Option<&crate::lp::Attempt>) {
    if let Some(a) = lp {
        stats.extra.insert("lp".into(), a.verdict.word().into());
        stats.extra.insert("lp_ms".into(), crate::report::round_ms(a.ms).into());
        stats.extra.insert("lp_iterations".into(), a.iterations.into());
    }
}

/// What comes before the backend's answer: the compiled model, or an answer already.
enum Prepared<C> {
    /// Answered before any backend: the time limit while compiling, presolve, the LP; and
    /// which of them decided (`verdict_by`).
    Answered(Status, String, SolveStats, Option<&'static str>),
    Ready(Ready<C>),
}

struct Ready<C> {
    compiled: C,
    /// Compiling, and unless the quick attempt answered (its time is then in its own
    /// statistics), that attempt and the LP.
    compile_ms: f64,
    lp: Option<crate::lp::Attempt>,
    /// The backend's quick attempt, when it answered.
    quick: Option<crate::backend::Outcome>,
}

/// Compiles within the deadline, then (`quick_allowed`, under `--lp auto`) the backend's
/// quick attempt, then the LP relaxation when that did not answer.
fn prepare<P: Puzzle>(
    p: &P,
    b: &mut dyn Backend,
    opts: &RunOptions,
    solve_opts: &SolveOptions,
    t0: Instant,
    quick_allowed: bool,
) -> Result<Prepared<P::Compiled>, RunError> {
    // Options the backend cannot honour are refused before anything is compiled.
    b.check_options(solve_opts)?;
    p.check_size(solve_opts.encode.max_memory).map_err(BackendError::from)?;
    let early = |status, reason: &str, by| {
        let stats = SolveStats {
            build_ms: ms(t0),
            ..Default::default()
        };
        Ok(Prepared::Answered(status, reason.to_string(), stats, by))
    };
    let compiled = match compile_within(p, opts.compile, &solve_opts.deadline()) {
        None if solve_opts.deadline().interrupted() => {
            return early(
                Status::Unknown,
                "the command was interrupted while compiling the model",
                None,
            );
        }
        None => {
            return early(
                Status::Unknown,
                "the time limit was reached while compiling the model",
                None,
            );
        }
        Some(Err(refutation)) => {
            return early(Status::Unsat, &format!("presolve: {refutation}"), Some("presolve"));
        }
        Some(Ok(c)) => c,
    };
    let formula = p.formula(&compiled);
    let compiled_ms = ms(t0);
    let lp_limits = lp_limits(opts.lp, solve_opts);
    // With `--lp auto` the LP runs only where it pays: when the backend's quick first
    // attempt (if it has one) did not answer.
    // An optimisation starts in the backend's own search (which keeps what it learns).
    let quick_allowed = quick_allowed && formula.objective.is_none();
    let quick = match (opts.lp, &lp_limits, quick_allowed) {
        (LpMode::Auto, Some(_), true) => b.try_quickly(formula, solve_opts)?,
        _ => None,
    };
    let lp = match quick {
        Some(_) => None,
        None => lp_limits.map(|limits| {
            let deadline = solve_opts.deadline();
            crate::lp::refute(formula, &limits, &|| deadline.passed())
        }),
    };
    let compile_ms = if quick.is_some() { compiled_ms } else { ms(t0) };
    if let Some(crate::lp::Attempt {
        verdict: crate::lp::Verdict::Refuted { certificate, checked },
        ..
    }) = &lp
    {
        // The LP was the solver: its columns and rows are the model's size.
        let mut stats = SolveStats {
            vars: u64::from(formula.num_vars),
            clauses: formula.constraints.len() as u64,
            build_ms: compile_ms,
            ..Default::default()
        };
        note_lp(&mut stats, lp.as_ref());
        let why = crate::lp::farkas::describe(formula, certificate, checked, LP_ROWS_SHOWN);
        return Ok(Prepared::Answered(
            Status::Unsat,
            format!("LP relaxation: {why}"),
            stats,
            Some("lp"),
        ));
    }
    Ok(Prepared::Ready(Ready {
        compiled,
        compile_ms,
        lp,
        quick,
    }))
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
    } else if formula.objective.is_some() && ready.quick.is_none() {
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
    stats.build_ms += ready.compile_ms;
    note_lp(&mut stats, ready.lp.as_ref());
    // `auto` names the engine it picked.
    let name = b.answered_by();
    if opts.strict {
        let mut claims = Claims {
            status: &mut status,
            found: &mut found,
            optimum: &mut optimum,
            second: &mut second,
            first_assignment: &first_assignment,
        };
        confirm_strictly(p, compiled, name, solve_opts, &mut claims, &mut stats)?;
    }
    let interrupted = status == Status::Unknown && solve_opts.deadline().interrupted();
    let mut ending = gate::Ending::new(status, name, name);
    ending.basis = engine_basis(&stats);
    let claims_more =
        status == Status::Unsat || matches!(optimum, Some((true, _))) || matches!(second, Some((Some(true), _)));
    if claims_more && overdue(solve_opts) {
        ending.late = true;
        ending.basis.faults.push(crate::backend::Fault {
            engine: name.to_string(),
            what: "claimed after the time limit".into(),
        });
    }
    ending.solution = found;
    ending.asked_unique = opts.unique;
    ending.strict = opts.strict;
    ending.reason = match no_solution_reason(status, name) {
        Some(_) if interrupted => Some("the command was interrupted".to_string()),
        r => r,
    };
    ending.contradiction = stats
        .extra
        .get("contradiction")
        .and_then(|v| v.as_str())
        .map(str::to_string);
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

/// Whether the time limit of `opts`, and the grace a worker gets to end
/// ([`crate::budget::GRACE`]), has passed: an engine that answers later has not kept the
/// limit, and its claims count for nothing.
fn overdue(opts: &SolveOptions) -> bool {
    match (opts.started, opts.time_limit) {
        (Some(start), Some(limit)) => start
            .checked_add(limit.saturating_add(crate::budget::GRACE))
            .is_some_and(|end| Instant::now() > end),
        _ => false,
    }
}

/// The claims of one run that `--strict` may put to a second engine.
struct Claims<'a, S> {
    status: &'a mut Status,
    found: &'a mut Option<S>,
    optimum: &'a mut Option<(bool, Vec<num_bigint::BigInt>)>,
    second: &'a mut Option<(Option<bool>, Option<S>)>,
    first_assignment: &'a [bool],
}

/// Under `--strict`, puts the run's one unconfirmed claim (unsat, an optimum, uniqueness) to
/// an engine of another kind ([`confirm`]): a refutation confirms it
/// (`stats.basis.confirmed_by`); a model of the question that passes [`finish`] is a
/// contradiction, and that model becomes the answer; a model that does not is the second
/// engine's fault, in the record. Without a verdict the claim stays unconfirmed, and the
/// gate withholds it. A claim already confirmed or backed by a certificate is left alone.
fn confirm_strictly<P: Puzzle>(
    p: &P,
    compiled: &P::Compiled,
    first: &'static str,
    opts: &SolveOptions,
    claims: &mut Claims<'_, P::Solution>,
    stats: &mut SolveStats,
) -> Result<(), RunError> {
    if stats.basis.confirmed_by.is_some() || stats.extra.contains_key("confirmed_by") {
        return Ok(());
    }
    let formula = p.formula(compiled);
    let (question, claim) = if *claims.status == Status::Unsat {
        (formula.clone(), "that there is no solution".to_string())
    } else if let Some((true, improvements)) = claims.optimum.as_ref() {
        let value = improvements.last().and_then(|v| i64::try_from(v).ok());
        let (Some(objective), Some(v), None) = (&formula.objective, value, &formula.staged) else {
            stats.extra.insert(
                "strict".into(),
                "the objective is wider than 64 bits: no second engine can be asked".into(),
            );
            return Ok(());
        };
        let Some(bound) = v.checked_sub(1) else { return Ok(()) };
        let mut q = formula.clone();
        q.objective = None;
        q.add(
            "objective below the claimed optimum",
            crate::ir::Constraint::Linear(crate::ir::Linear::new(objective.clone(), crate::ir::Cmp::Le, bound)),
        );
        (q, format!("that {v} is optimal"))
    } else if let Some((Some(true), _)) = claims.second.as_ref() {
        let projection = crate::ir::Projection::new(formula, p.primary(compiled));
        let mut q = formula.clone();
        q.add(
            "another solution than the first",
            crate::ir::Constraint::Clause(projection.block(claims.first_assignment)),
        );
        (q, "that the solution is unique".to_string())
    } else {
        return Ok(());
    };
    match confirm::ask(&question, first, opts) {
        confirm::Said::Refuted(by) => stats.basis.confirmed_by = Some(by.to_string()),
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
                        refuted_by: by.to_string(),
                        message,
                    });
                    if *claims.status == Status::Unsat {
                        *claims.status = Status::Sat;
                        *claims.found = Some(s);
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
            confirm::Said::Model(by, a) => match finish(p, &c, &a) {
                Ok(s) => {
                    ending.status = Status::Sat;
                    ending.by = by.to_string();
                    ending.solution = Some(s);
                    ending.basis.contradiction = Some(crate::backend::Contradiction {
                        claimed_by: name.into(),
                        claim: "that there is no solution".into(),
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

/// What the engines say backs their claims (`stats.basis`), with what older parts of the
/// portfolio still say only in the statistics (`extra.confirmed_by`, the second opinion's
/// confirmation) folded in.
fn engine_basis(stats: &SolveStats) -> crate::backend::Basis {
    let mut basis = (*stats.basis).clone();
    if basis.confirmed_by.is_none() {
        basis.confirmed_by = stats
            .extra
            .get("confirmed_by")
            .and_then(|v| v.as_str())
            .map(str::to_string);
    }
    basis
}

/// Why there is no solution, when the backend ran.
fn no_solution_reason(status: Status, backend: &str) -> Option<String> {
    match status {
        Status::Sat => None,
        Status::Unsat => Some(format!("proven by the {backend} backend")),
        Status::Unknown => Some("the time limit was reached or the search was interrupted".to_string()),
    }
}

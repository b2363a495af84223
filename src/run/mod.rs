//! The one run path: compile -> backend -> evaluate against the IR -> decode -> verify ->
//! [`Outcome`]. Every command reaches a solver through [`solve`], and every assignment,
//! whether from an in-process backend, a session (`sweep`) or an external solver's file
//! (`decode`), becomes a solution only through [`finish`].
//!
//! This module is generic over [`Puzzle`]; [`any`] erases the puzzle type so that the CLI
//! and the registry can hold any kind behind one `Box<dyn AnyPuzzle>`.

pub mod any;
pub mod emit;
pub mod external;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::backend::{Backend, BackendError, Deadline, SolveOptions, SolveStats, Status, Waited};
use crate::ir::{Constraint, PbFormula};
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation};

pub use any::{AnyPuzzle, Checked, Report};

/// What to run: the backend's options, how to compile, whether to try the LP relaxation
/// first, and whether to prove uniqueness.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub solve: SolveOptions,
    pub compile: CompileOptions,
    pub lp: LpMode,
    /// After a solution, solve again with it excluded: unique, or a second solution.
    pub unique: bool,
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
    #[error("it violates {0}")]
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
}

impl From<RunError> for crate::Error {
    fn from(e: RunError) -> crate::Error {
        match e {
            RunError::Backend(b) => b.into(),
            wrong @ RunError::Wrong { .. } => crate::Error::internal(wrong.to_string()),
        }
    }
}

/// Checks a full assignment against the IR, decodes it and verifies the solution: the only
/// way an assignment becomes a solution.
pub fn finish<P: Puzzle>(p: &P, c: &P::Compiled, assignment: &[bool]) -> Result<P::Solution, AnswerProblem> {
    let f = p.formula(c);
    let n = f.num_vars as usize;
    if assignment.len() < n {
        return Err(AnswerProblem::Size {
            got: assignment.len(),
            want: n,
        });
    }
    let a = &assignment[..n];
    f.evaluate(a).map_err(|v| AnswerProblem::Violates(v.to_string()))?;
    let s = p.decode(c, a).map_err(AnswerProblem::Decode)?;
    p.verify(&s).map_err(AnswerProblem::Invalid)?;
    Ok(s)
}

/// How often a thread waiting for the compiling worker looks at the deadline.
const POLL: Duration = Duration::from_millis(50);

/// Compiles within the deadline: `None` once it passes. Presolve and compiling cannot look
/// at the clock, and on large instances they take seconds, so with a time limit they run on
/// a worker thread while this one waits. Past the deadline the worker is left to finish on
/// its own (its model is then dropped); the process may exit first.
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
    let worker = std::thread::Builder::new().name("sokuc-compile".into()).spawn(move || {
        // The receiver is gone when the caller stopped waiting.
        let _ = tx.send(owned.compile(&opts));
    });
    let Ok(worker) = worker else {
        return Some(p.compile(&opts));
    };
    let Ok(waited) = deadline.wait(&rx, POLL, || Ok::<(), std::convert::Infallible>(()));
    match waited {
        Waited::Done(c) => Some(c),
        Waited::Passed => None,
        // Compiling panicked: the same panic as without a worker.
        Waited::WorkerGone => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the worker sends before it ends"),
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

/// The first solve, and the second if it ran.
type Both<S> = (Checked1<S>, Option<Checked1<S>>);

/// The two solves of `--unique` (the second with the first answer excluded), on a backend
/// that keeps its solver loaded between solves ([`crate::backend::Capabilities::incremental`]):
/// one session, so the second solve starts from everything the first learnt and only the
/// no-good is added. Both answers are checked through [`finish`] exactly as in [`solve`].
fn solve_unique_in_session<P: Puzzle>(
    p: &P,
    c: &P::Compiled,
    formula: &PbFormula,
    b: &mut dyn Backend,
    opts: &SolveOptions,
) -> Result<Both<P::Solution>, RunError> {
    let name = b.name();
    let t0 = Instant::now();
    // Assumptions belong to each solve, not to opening the session.
    let open = SolveOptions {
        assumptions: Vec::new(),
        ..opts.clone()
    };
    let mut session = b.session(formula, &open)?;
    let open_ms = ms(t0);
    let out = session.solve(&[], opts)?;
    let mut first = check_outcome(p, c, formula, name, out)?;
    first.2.build_ms += open_ms;
    let Some((_, assignment)) = &first.1 else {
        return Ok((first, None));
    };
    let nogood = p.exclude(c, assignment);
    session.add_clause(&nogood)?;
    let out = session.solve(&[], opts)?;
    let second = check_outcome(p, c, formula, name, out)?;
    // The session's formula holds the no-good but `finish` checks the puzzle's: a second
    // answer must also be another answer.
    if let Some((_, a)) = &second.1
        && !nogood.iter().any(|l| a[l.var().index()] == l.is_positive())
    {
        return Err(RunError::Wrong {
            backend: name.to_string(),
            problem: AnswerProblem::Violates("another solution: it is the first answer again".into()),
        });
    }
    Ok((first, Some(second)))
}

/// Compiles `p`, solves it on `b`, and checks any answer through [`finish`]; with
/// `opts.unique`, solves once more with the answer excluded. One time limit covers compiling
/// and both solves (the clock starts here unless the caller's already runs).
pub fn solve<P: Puzzle>(p: &P, b: &mut dyn Backend, opts: &RunOptions) -> Result<Outcome<P::Solution>, RunError> {
    let solve_opts = &opts.solve.clock_started();
    let t0 = Instant::now();
    let name = b.name();
    // Options the backend cannot honour are refused before anything is compiled.
    b.check_options(solve_opts)?;
    p.check_size(solve_opts.encode.max_memory).map_err(BackendError::from)?;
    let no_answer = |status, reason: &str, stats| {
        let mut answer = Answer::without_solution(status, Some(reason.to_string()), name);
        answer.asked_unique = opts.unique;
        Outcome { answer, stats }
    };
    let compiled = match compile_within(p, opts.compile, &solve_opts.deadline()) {
        None => {
            let stats = SolveStats {
                build_ms: ms(t0),
                ..Default::default()
            };
            return Ok(no_answer(
                Status::Unknown,
                "the time limit was reached while compiling the model",
                stats,
            ));
        }
        Some(Err(refutation)) => {
            let stats = SolveStats {
                build_ms: ms(t0),
                ..Default::default()
            };
            return Ok(no_answer(Status::Unsat, &format!("presolve: {refutation}"), stats));
        }
        Some(Ok(c)) => c,
    };
    let formula = p.formula(&compiled);
    let compiled_ms = ms(t0);
    let lp_limits = lp_limits(opts.lp, solve_opts);
    // With `--lp auto` the LP runs only where it pays: when the backend's quick first
    // attempt (if it has one) did not answer. `--unique` keeps its one session instead.
    let quick = match (opts.lp, &lp_limits, opts.unique) {
        (LpMode::Auto, Some(_), false) => b.try_quickly(formula, solve_opts)?,
        _ => None,
    };
    let lp = match quick {
        Some(_) => None,
        None => lp_limits.map(|limits| {
            let deadline = solve_opts.deadline();
            crate::lp::refute(formula, &limits, &|| deadline.passed())
        }),
    };
    // What came before the backend's answer: compiling, and unless the quick attempt
    // answered (its time is then in its own statistics), that attempt and the LP.
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
        return Ok(no_answer(Status::Unsat, &format!("LP relaxation: {why}"), stats));
    }
    // A backend that keeps its solver loaded answers --unique in one session (proofs cannot
    // span a session: with --proof the two solves stay separate).
    let in_session = opts.unique && b.capabilities().incremental && solve_opts.proof.is_none();
    let (first, mut second) = if let Some(out) = quick {
        (check_outcome(p, &compiled, formula, b.answered_by(), out)?, None)
    } else if in_session {
        solve_unique_in_session(p, &compiled, formula, b, solve_opts)?
    } else {
        (solve_checked(p, &compiled, formula, b, solve_opts)?, None)
    };
    let (status, found, mut stats) = first;
    stats.build_ms += compile_ms;
    note_lp(&mut stats, lp.as_ref());
    // `auto` names the engine it picked.
    let name = b.answered_by();
    let mut answer = Answer::without_solution(status, None, name);
    answer.asked_unique = opts.unique;
    answer.reason = match status {
        Status::Sat => None,
        Status::Unsat => Some(format!("proven by the {name} backend")),
        Status::Unknown => Some("the time limit was reached or the search was interrupted".to_string()),
    };
    let Some((solution, assignment)) = found else {
        return Ok(Outcome { answer, stats });
    };
    answer.solution = Some(solution);
    answer.verified = true;
    if opts.unique {
        if second.is_none() {
            let mut f = formula.clone();
            f.add(
                "another solution",
                Constraint::Clause(p.exclude(&compiled, &assignment)),
            );
            second = Some(solve_checked(p, &compiled, &f, b, solve_opts)?);
        }
        let (s2, found2, st2) = second.expect("the second solve ran");
        if b.answered_by() != name {
            // `auto` may answer the uniqueness question with another engine.
            stats.extra.insert("unique_backend".into(), b.answered_by().into());
        }
        stats.build_ms += st2.build_ms;
        stats.solve_ms += st2.solve_ms;
        answer.unique = match s2 {
            Status::Unsat => Some(true),
            Status::Sat => Some(false),
            Status::Unknown => None,
        };
        answer.second = found2.map(|(s, _)| s);
    }
    Ok(Outcome { answer, stats })
}

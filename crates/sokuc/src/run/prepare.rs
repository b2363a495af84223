//! What comes before the backend's answer, for a solve and an enumeration alike: compiling
//! within the deadline, the backend's quick attempt, and the LP relaxation.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::error::RunError;
use super::options::{LpMode, RunOptions, lp_limits};
use crate::backend::{Backend, BackendError, Deadline, SolveOptions, SolveStats, Status, Waited};
use crate::puzzle::{CompileOptions, Puzzle, Refutation};

/// How often a thread waiting for the compiling worker looks at the deadline.
const POLL: Duration = Duration::from_millis(50);

/// Compiles within the deadline: `None` once it passes. On large instances presolve and
/// compiling take seconds, and `Puzzle::compile` takes no deadline, so with a time limit
/// they run on a worker thread whose front-end loops look at the deadline between faces or
/// rows (`budget::compile_stop`) while this one waits. Past the deadline the worker is given
/// [`crate::budget::GRACE`] to end; a step longer than that between two looks is left to
/// finish on its own (its model is then dropped).
pub(super) fn compile_within<P: Puzzle>(
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

pub(super) fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

/// How many rows an LP refutation names before "+ N more rows".
const LP_ROWS_SHOWN: usize = 12;

/// The LP attempt's outcome in the statistics (`extra.lp`, `extra.lp_ms`,
/// `extra.lp_iterations`); its time is part of `build_ms`.
pub(super) fn note_lp(stats: &mut SolveStats, lp: Option<&crate::lp::Attempt>) {
    if let Some(a) = lp {
        stats.extra.insert("lp".into(), a.verdict.word().into());
        stats.extra.insert("lp_ms".into(), crate::report::round_ms(a.ms).into());
        stats.extra.insert("lp_iterations".into(), a.iterations.into());
    }
}

/// What comes before the backend's answer: the compiled model, or an answer already.
pub(super) enum Prepared<C> {
    /// Answered before any backend: the time limit while compiling, presolve, the LP; and
    /// which of them decided (`verdict_by`).
    Answered(Status, String, SolveStats, Option<&'static str>),
    Ready(Ready<C>),
}

pub(super) struct Ready<C> {
    pub(super) compiled: C,
    /// Compiling, and unless the quick attempt answered (its time is then in its own
    /// statistics), that attempt and the LP.
    pub(super) compile_ms: f64,
    pub(super) lp: Option<crate::lp::Attempt>,
    /// The backend's quick attempt, when it answered.
    pub(super) quick: Option<crate::backend::Outcome>,
}

/// Compiles within the deadline, then (`quick_allowed`, under `--lp auto`) the backend's
/// quick attempt, then the LP relaxation when that did not answer.
pub(super) fn prepare<P: Puzzle>(
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
    let quick_allowed = quick_allowed && formula.objective().is_none();
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
            vars: u64::from(formula.num_vars()),
            clauses: formula.constraints().len() as u64,
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

//! Every solution (`solve --all`, and `--unique` as the first two): the run path of
//! [`super::solve`] up to the backend, then [`crate::backend::Algorithms::enumerate`] with the puzzle's
//! projection ([`Puzzle::primary`]), and every assignment checked through [`super::finish`] (the IR,
//! the decoder, the independent verifier) before it is handed on. Solutions are handed on
//! one by one as they are found and never collected here.

use std::ops::ControlFlow;
use std::time::Instant;

use super::assignment::{AnswerProblem, finish_with};
use super::error::RunError;
use super::gate::no_solution_reason;
use super::options::RunOptions;
use super::prepare::{Prepared, Ready, ms, note_lp, prepare};
use crate::backend::algorithms::Algorithms;
use crate::backend::{Backend, Ended, Found, SolveOptions, SolveStats, Status};
use crate::ir::{Evaluator, Projection};
use crate::puzzle::Puzzle;

/// What a walk over the solutions found, besides the solutions themselves.
#[derive(Debug, Clone)]
pub struct Walked {
    pub ended: Ended,
    /// Solutions handed on.
    pub found: u64,
    pub stats: SolveStats,
    /// The assignment of the first solution (empty without one): what `--strict` blocks to
    /// ask a second engine whether there is another.
    pub first: Vec<bool>,
}

impl Walked {
    /// `sat` with a solution; else `unsat` when the walk was complete, `unknown` when not.
    pub fn status(&self) -> Status {
        match (self.found, self.ended) {
            (1.., _) => Status::Sat,
            (0, Ended::Complete) => Status::Unsat,
            (0, _) => Status::Unknown,
        }
    }
}

/// Where each solution goes: the solution and the engine that found it. `Break` stops the
/// enumeration (it then ends [`Ended::Stopped`]).
pub type OnSolution<'a, S> = dyn FnMut(S, &'static str) -> Result<ControlFlow<()>, RunError> + 'a;

/// The backend's enumeration of a compiled puzzle, every answer checked, up to `limit`
/// solutions. Consecutive answers must differ on the projection (a backend that repeats
/// itself is caught: that is a wrong answer, never a second solution).
pub(super) fn walk<P: Puzzle>(
    p: &P,
    compiled: &P::Compiled,
    b: &mut dyn Backend,
    opts: &SolveOptions,
    limit: Option<u64>,
    on: &mut OnSolution<'_, P::Solution>,
) -> Result<Walked, RunError> {
    let formula = p.formula(compiled);
    let projection = Projection::new(formula, p.primary(compiled));
    let mut evaluator = Evaluator::new(formula);
    let mut found = 0u64;
    let mut failed: Option<RunError> = None;
    let mut previous: Vec<bool> = Vec::new();
    let mut first: Vec<bool> = Vec::new();
    let mut visit = |x: Found<'_>| {
        let wrong = |problem| RunError::Wrong {
            backend: x.engine.to_string(),
            problem,
        };
        let step = finish_with(p, compiled, &mut evaluator, x.assignment)
            .map_err(wrong)
            .and_then(|s| {
                if found > 0 && projection.same(&previous, x.assignment) {
                    return Err(wrong(AnswerProblem::Violates(
                        "another solution: it is the previous answer again".into(),
                    )));
                }
                previous.clear();
                previous.extend_from_slice(x.assignment);
                if found == 0 {
                    first.extend_from_slice(x.assignment);
                }
                found += 1;
                on(s, x.engine)
            });
        match step {
            Ok(ControlFlow::Continue(())) if limit.is_none_or(|l| found < l) => ControlFlow::Continue(()),
            Ok(_) => ControlFlow::Break(()),
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        }
    };
    let e = b.enumerate(formula, &projection, opts, &mut visit)?;
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(Walked {
        ended: e.ended,
        found,
        stats: e.stats,
        first,
    })
}

/// How an enumeration ended, for the summary: the status (`sat` with at least one
/// solution), the count, whether it is complete, why there is none, and the times.
#[derive(Debug, Clone)]
pub struct Enumerated {
    pub status: Status,
    pub found: u64,
    pub ended: Ended,
    /// With no solution: presolve's or the LP's argument, or which backend proved it, or
    /// why it is unknown.
    pub reason: Option<String>,
    /// The engine that enumerated (for `auto`, the one it picked).
    pub backend: &'static str,
    pub stats: SolveStats,
    /// Milliseconds from the start of the command to the end of the enumeration.
    pub total_ms: f64,
    /// The interrupt flag (a signal) ended it, not the time limit (`ended` is `Unknown`).
    pub interrupted: bool,
}

/// Why an enumeration without a solution that an interrupt ended has none.
const INTERRUPTED: &str = "the command was interrupted";

impl Enumerated {
    /// Presolve or the LP answered before any backend ran: no solution, and the walk is
    /// complete only when that answer is `unsat`.
    pub(crate) fn before_search(
        status: Status,
        reason: String,
        backend: &'static str,
        stats: SolveStats,
        started: Instant,
        opts: &SolveOptions,
    ) -> Enumerated {
        let interrupted = status == Status::Unknown && opts.deadline().interrupted();
        Enumerated {
            interrupted,
            reason: Some(if interrupted { INTERRUPTED.into() } else { reason }),
            status,
            found: 0,
            ended: if status == Status::Unsat {
                Ended::Complete
            } else {
                Ended::Unknown
            },
            backend,
            stats,
            total_ms: ms(started),
        }
    }
}

/// What starting an enumeration gives: the compiled puzzle with the options whose clock
/// runs from the start of the command, or the answer presolve or the LP gave first.
// One value per enumeration, moved once and never stored in a collection: boxing the large
// variant would buy nothing.
#[allow(clippy::large_enum_variant)]
pub(super) enum Begun<C> {
    Ready(Ready<C>, SolveOptions, Instant),
    Answered(Enumerated),
}

/// The start every enumeration shares (one thread or many): the clock, compiling, and what
/// may answer before any backend runs.
pub(super) fn begin<P: Puzzle>(p: &P, b: &mut dyn Backend, opts: &RunOptions) -> Result<Begun<P::Compiled>, RunError> {
    let solve_opts = opts.solve.clock_started();
    let started = solve_opts.started.unwrap_or_else(Instant::now);
    Ok(match prepare(p, b, opts, &solve_opts, Instant::now(), false)? {
        Prepared::Answered(status, reason, stats, _) => Begun::Answered(Enumerated::before_search(
            status,
            reason,
            b.name(),
            stats,
            started,
            &solve_opts,
        )),
        Prepared::Ready(r) => Begun::Ready(r, solve_opts, started),
    })
}

/// The end every enumeration shares: the walk's outcome with compiling and the LP in its
/// statistics, named by the engine that enumerated.
pub(super) fn end<C>(
    b: &dyn Backend,
    ready: &Ready<C>,
    walked: Walked,
    opts: &SolveOptions,
    started: Instant,
) -> Enumerated {
    let mut stats = walked.stats.clone();
    stats.build_ms += ready.compile_ms;
    note_lp(&mut stats, ready.lp.as_ref());
    let backend = b.answered_by();
    let interrupted = walked.ended == Ended::Unknown && opts.deadline().interrupted();
    let reason = no_solution_reason(walked.status(), backend);
    Enumerated {
        status: walked.status(),
        found: walked.found,
        ended: walked.ended,
        reason: if interrupted {
            reason.map(|_| INTERRUPTED.into())
        } else {
            reason
        },
        backend,
        stats,
        total_ms: ms(started),
        interrupted,
    }
}

/// Every solution of `p` on `b`, each verified and handed to `on` as it is found, up to
/// `limit`; one time limit covers compiling and the whole enumeration. Presolve or the LP
/// relaxation may prove there is none before any backend runs.
pub fn enumerate<P: Puzzle>(
    p: &P,
    b: &mut dyn Backend,
    opts: &RunOptions,
    limit: Option<u64>,
    on: &mut OnSolution<'_, P::Solution>,
) -> Result<Enumerated, RunError> {
    let (ready, solve_opts, started) = match begin(p, b, opts)? {
        Begun::Answered(e) => return Ok(e),
        Begun::Ready(r, o, s) => (r, o, s),
    };
    let walked = walk(p, &ready.compiled, b, &solve_opts, limit, on)?;
    Ok(end(b, &ready, walked, &solve_opts, started))
}

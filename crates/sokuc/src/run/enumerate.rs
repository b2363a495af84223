//! Every solution (`solve --all`, and `--unique` as the first two): the run path of
//! [`super::solve`] up to the backend, then [`crate::backend::Algorithms::enumerate`] with the puzzle's
//! projection ([`Puzzle::primary`]), and every assignment checked through [`super::finish`] (the IR,
//! the decoder, the independent verifier) and against the solutions already handed on
//! ([`super::seen`]) before it is handed on. Solutions are handed on one by one as they are
//! found and never collected here. The end ("no more solutions") is a claim, weighed by
//! [`super::gate_end`].

use std::ops::ControlFlow;
use std::time::Instant;

use super::assignment::{AnswerProblem, finish_with};
use super::error::RunError;
use super::gate::no_solution_reason;
use super::gate_end::{Claimed, confirm_end, judge_end};
use super::options::RunOptions;
use super::prepare::{Prepared, Ready, compile_within, ms, note_lp, prepare};
use super::seen::{Repeat, Seen};
use crate::backend::algorithms::Algorithms;
use crate::backend::{Backend, Basis, Ended, Found, SolveOptions, SolveStats, Status};
use crate::ir::{Evaluator, Lit, Projection};
use crate::puzzle::evidence::{Evidence, Withheld};
use crate::puzzle::{CompileOptions, Puzzle};

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
    /// When the engine said how it ended: a claim of completeness after the time limit
    /// counts for nothing.
    pub at: Instant,
    /// Under `--strict`, the blocking clause of every solution handed on (`None` without
    /// it, or past [`super::seen::STRICT_MAX`] solutions).
    pub blocks: Option<Vec<Vec<Lit>>>,
    /// The walk stopped because the fingerprints of its solutions would pass their share of
    /// the memory limit.
    pub memory: bool,
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
/// solutions. Every answer must differ on the projection from every one handed on before (a
/// backend that repeats itself is caught: that is a wrong answer, never a second solution).
pub(super) fn walk<P: Puzzle>(
    p: &P,
    compiled: &P::Compiled,
    b: &mut dyn Backend,
    opts: &SolveOptions,
    limit: Option<u64>,
    on: &mut OnSolution<'_, P::Solution>,
) -> Result<Walked, RunError> {
    walk_keeping(p, compiled, b, opts, limit, false, on)
}

/// [`walk`], keeping with `strict` the blocking clause of each solution (for
/// [`confirm_end`]).
pub(super) fn walk_keeping<P: Puzzle>(
    p: &P,
    compiled: &P::Compiled,
    b: &mut dyn Backend,
    opts: &SolveOptions,
    limit: Option<u64>,
    strict: bool,
    on: &mut OnSolution<'_, P::Solution>,
) -> Result<Walked, RunError> {
    let formula = p.formula(compiled);
    let projection = Projection::new(formula, p.primary(compiled));
    let mut evaluator = Evaluator::new(formula);
    let mut seen = Seen::new(&projection, opts.encode.max_memory, strict);
    let mut found = 0u64;
    let mut failed: Option<RunError> = None;
    let mut full = false;
    let mut first: Vec<bool> = Vec::new();
    let mut visit = |x: Found<'_>| {
        let wrong = |problem| RunError::Wrong {
            backend: x.engine.to_string(),
            problem,
        };
        let step = finish_with(p, compiled, &mut evaluator, x.assignment)
            .map_err(wrong)
            .and_then(|s| {
                match seen.note(x.assignment) {
                    Err(Repeat::Again) => {
                        return Err(wrong(AnswerProblem::Violates(
                            "another solution: it is one already handed on".into(),
                        )));
                    }
                    Err(Repeat::Full) => {
                        full = true;
                        return Ok(ControlFlow::Break(()));
                    }
                    Ok(()) => {}
                }
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
    let at = Instant::now();
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(Walked {
        // A walk the memory share stopped is no complete one, whatever the engine says.
        ended: if full { Ended::Unknown } else { e.ended },
        found,
        stats: e.stats,
        first,
        at,
        blocks: seen.into_blocks(),
        memory: full,
    })
}

/// How an enumeration ended, for the summary: the status (`sat` with at least one
/// solution), the count, whether it is complete, why there is none, and the times. Its
/// claims are the gate's ([`judge_end`]): `ended` is `Complete` and `status` `unsat` only
/// when the claim was accepted, and `evidence` says what backs it.
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
    /// The engine said every solution was listed, and the gate withheld that claim: why.
    pub withheld: Option<Withheld>,
    /// The fingerprints that show the solutions distinct reached their share of the memory
    /// limit, and the enumeration stopped there (`ended` is `Unknown`).
    pub memory: bool,
    /// What backs the end's claim (complete, or unsat without a solution), as the gate
    /// accepted or withheld it, with any engine's fault and contradiction.
    pub evidence: Evidence,
}

/// Why an enumeration without a solution that an interrupt ended has none.
const INTERRUPTED: &str = "the command was interrupted";

/// Why an enumeration stopped at the memory limit.
const MEMORY: &str = "the fingerprints that show every solution distinct reached their share of the memory limit (--max-memory)";

impl Enumerated {
    /// Whether engines contradicted each other on the end's claim (exit 1, as `solve`).
    pub fn contradiction(&self) -> bool {
        self.evidence.contradiction.is_some()
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
/// may answer before any backend runs. Presolve's or the LP's refutation is the end's claim
/// then, through the gate; under `--strict` presolve's goes, with the model compiled
/// without presolve, to an engine.
pub(super) fn begin<P: Puzzle>(p: &P, b: &mut dyn Backend, opts: &RunOptions) -> Result<Begun<P::Compiled>, RunError> {
    let solve_opts = opts.solve.clock_started();
    let started = solve_opts.started.unwrap_or_else(Instant::now);
    Ok(match prepare(p, b, opts, &solve_opts, Instant::now(), false)? {
        Prepared::Answered(status, reason, mut stats, by) => {
            let at = Instant::now();
            let by = by.unwrap_or(b.name());
            let mut basis = (*stats.basis).clone();
            if opts.strict && status == Status::Unsat && by == "presolve" {
                let plain = CompileOptions { presolve: false };
                match compile_within(p, plain, &solve_opts.deadline()) {
                    Some(Ok(c)) => confirm_end(p, &c, by, &[], &solve_opts, &mut basis, &mut stats),
                    // Refuted while it is built, or out of time: unconfirmed.
                    Some(Err(_)) | None => {
                        stats.extra.insert(
                            "strict".into(),
                            "the model without presolve could not be built in time".into(),
                        );
                    }
                }
            }
            let interrupted = status == Status::Unknown && solve_opts.deadline().interrupted();
            let judged = judge_end(
                Claimed {
                    found: 0,
                    ended: if status == Status::Unsat {
                        Ended::Complete
                    } else {
                        Ended::Unknown
                    },
                    by: by.to_string(),
                    basis,
                    at,
                    reason: Some(if interrupted { INTERRUPTED.into() } else { reason }),
                    strict: opts.strict,
                },
                &solve_opts,
            );
            Begun::Answered(Enumerated {
                status: judged.status,
                found: 0,
                ended: judged.ended,
                reason: judged.reason,
                backend: b.name(),
                stats,
                total_ms: ms(started),
                interrupted,
                withheld: judged.withheld,
                memory: false,
                evidence: judged.evidence,
            })
        }
        Prepared::Ready(r) => Begun::Ready(r, solve_opts, started),
    })
}

/// The end every enumeration shares: the walk's outcome with compiling and the LP in its
/// statistics, named by the engine that enumerated, its claim put under `--strict` to a
/// second engine and weighed by the gate.
pub(super) fn end<P: Puzzle>(
    p: &P,
    b: &dyn Backend,
    ready: &Ready<P::Compiled>,
    walked: Walked,
    opts: &RunOptions,
    solve_opts: &SolveOptions,
    started: Instant,
) -> Enumerated {
    let mut stats = walked.stats.clone();
    stats.build_ms += ready.compile_ms;
    note_lp(&mut stats, ready.lp.as_ref());
    let backend = b.answered_by();
    let mut basis: Basis = (*stats.basis).clone();
    // The claim is judged by the time the engine made it, not by when a second engine
    // answered.
    if opts.strict && walked.ended == Ended::Complete {
        match &walked.blocks {
            Some(blocks) => confirm_end(p, &ready.compiled, backend, blocks, solve_opts, &mut basis, &mut stats),
            None => {
                stats.extra.insert(
                    "strict".into(),
                    format!(
                        "more than {} solutions: too many to ask a second engine about",
                        super::seen::STRICT_MAX
                    )
                    .into(),
                );
            }
        }
    }
    let interrupted = walked.ended == Ended::Unknown && !walked.memory && solve_opts.deadline().interrupted();
    let reason = match no_solution_reason(walked.status(), backend) {
        Some(_) if walked.memory => Some(MEMORY.into()),
        Some(_) if interrupted => Some(INTERRUPTED.into()),
        r => r,
    };
    let judged = judge_end(
        Claimed {
            found: walked.found,
            ended: walked.ended,
            by: backend.to_string(),
            basis,
            at: walked.at,
            reason,
            strict: opts.strict,
        },
        solve_opts,
    );
    Enumerated {
        status: judged.status,
        found: walked.found,
        ended: judged.ended,
        reason: judged.reason,
        backend,
        stats,
        total_ms: ms(started),
        interrupted,
        withheld: judged.withheld,
        memory: walked.memory,
        evidence: judged.evidence,
    }
}

/// Every solution of `p` on `b`, each verified and handed to `on` as it is found, up to
/// `limit`; one time limit covers compiling and the whole enumeration. Presolve or the LP
/// relaxation may prove there is none before any backend runs. Under `--strict` the claim
/// that these are all is put to a second engine (up to [`super::seen::STRICT_MAX`]
/// solutions; past that it is withheld).
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
    let walked = walk_keeping(p, &ready.compiled, b, &solve_opts, limit, opts.strict, on)?;
    Ok(end(p, b, &ready, walked, opts, &solve_opts, started))
}

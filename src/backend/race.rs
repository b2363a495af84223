//! Two engines on one formula at once, one a core: the first answer that holds wins and the
//! other engine is stopped. `auto` races where no single engine is best on every formula of
//! a kind (pseudo-Boolean files above all: CBC's branch and bound proves what clause
//! learning cannot, and the other way round; encodings/auto.md has the measurements).
//!
//! The second engine starts only when the first has not answered within a head start, so
//! that a formula one engine answers at once never pays for starting the other (CBC is a
//! process of its own).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{BackendError, Outcome, SolveOptions, Status, by_name};
use crate::ir::PbFormula;

/// How often the race looks at the caller's deadline and interrupt flag while it waits.
const POLL: Duration = Duration::from_millis(10);

/// What a race ended with.
#[derive(Debug)]
pub struct Finish {
    /// The engine whose outcome this is.
    pub engine: &'static str,
    pub outcome: Outcome,
    /// What happened, in a few words (for `stats.extra.auto`).
    pub note: String,
}

/// Whether `out` settles the question: a model that satisfies the formula, or a refutation.
/// A model that does not hold is no answer here (the other engine may still give one); the
/// run path's verifier, which shares nothing with this check, still checks the winner.
fn holds(formula: &PbFormula, out: &Outcome) -> bool {
    match (out.status, &out.assignment) {
        (Status::Unsat, _) => true,
        (Status::Sat, Some(a)) => formula.evaluate(a).is_ok(),
        _ => false,
    }
}

/// Runs `first` on `formula`, and after `head_start` without an answer `second` beside it,
/// each with the time limit of `opts` and a stop flag of the race's own (the caller's
/// interrupt flag, or the process's, is watched here and passed on). The first outcome that
/// [`holds`] wins; the other engine is stopped and waited for. With no such outcome, the
/// first engine's outcome (an `unknown`, or a model that does not hold, for the run path to
/// report) or, if both failed, the first engine's error.
pub fn race(
    formula: &PbFormula,
    opts: &SolveOptions,
    first: &'static str,
    second: &'static str,
    head_start: Duration,
) -> Result<Finish, BackendError> {
    let outer = opts.deadline();
    let stop = Arc::new(AtomicBool::new(false));
    let mine = SolveOptions {
        interrupt: Some(stop.clone()),
        ..opts.clone()
    };
    let t0 = Instant::now();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let run = |name: &'static str| {
            let tx = tx.clone();
            let mine = &mine;
            move || {
                let result = match by_name(name) {
                    Some(mut b) => b.solve(formula, mine),
                    None => Err(BackendError::Solver {
                        backend: "auto",
                        message: format!("{name} is not in this build"),
                    }),
                };
                // The receiver is gone only when the race has ended.
                let _ = tx.send((name, result));
            }
        };
        scope.spawn(run(first));
        let mut started = 1;
        let mut results: Vec<(&'static str, Result<Outcome, BackendError>)> = Vec::new();
        loop {
            if started == 1 && (t0.elapsed() >= head_start || !results.is_empty()) && !outer.passed() {
                // The first engine is slow, or it ended without an answer (a refusal, an
                // error, a model that does not hold): the second engine's turn.
                scope.spawn(run(second));
                started = 2;
            }
            if results.len() == started {
                break;
            }
            match rx.recv_timeout(POLL) {
                Ok((name, result)) => {
                    let won = matches!(&result, Ok(out) if holds(formula, out));
                    results.push((name, result));
                    if won {
                        break;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if outer.passed() {
                // The time limit (each engine keeps it too) or the caller's interrupt, which
                // the engines do not see: stop both.
                stop.store(true, Ordering::Relaxed);
            }
        }
        stop.store(true, Ordering::Relaxed);
        // The scope waits for the loser, which looks at `stop` as it looks at the clock.
        drop(tx);
        let took = t0.elapsed().as_secs_f64();
        settle(formula, results, first, second, started, took)
    })
}

/// The race's result from the outcomes that came in (the winner last, if there is one).
fn settle(
    formula: &PbFormula,
    mut results: Vec<(&'static str, Result<Outcome, BackendError>)>,
    first: &'static str,
    second: &'static str,
    started: usize,
    took: f64,
) -> Result<Finish, BackendError> {
    let alone = started == 1;
    if let Some(i) = results.iter().position(|(_, r)| matches!(r, Ok(out) if holds(formula, out))) {
        let (engine, result) = results.swap_remove(i);
        let outcome = result.expect("matched Ok above");
        let other = if engine == first { second } else { first };
        let lost = results.iter().find(|(name, _)| *name == other);
        let note = if alone {
            format!("{engine} answered within its head start")
        } else if let Some((_, Err(e))) = lost {
            let what = if super::auto::refusal(e) {
                "could not take the formula as it is"
            } else {
                "failed"
            };
            format!("{other} {what} ({e}), so {engine}")
        } else {
            format!("{first} and {second} raced: {engine} answered first, after {took:.3} s, and {other} was stopped")
        };
        return Ok(Finish { engine, outcome, note });
    }
    // No answer that holds. Prefer an outcome (unknown, or a model for the run path to
    // reject loudly) to an error, and the first engine's to the second's.
    results.sort_by_key(|(name, r)| (r.is_err(), *name != first));
    match results.into_iter().next() {
        Some((engine, Ok(outcome))) => Ok(Finish {
            engine,
            outcome,
            note: if alone {
                format!("{engine} alone: the time limit passed before {second} could start")
            } else {
                format!("{first} and {second} raced; neither answered")
            },
        }),
        Some((_, Err(e))) => Err(e),
        None => Err(BackendError::Solver {
            backend: "auto",
            message: "the race's engines ended without a word".into(),
        }),
    }
}

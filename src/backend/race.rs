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

/// Runs `engines[0]` on `formula`, and after `head_start` without an answer the others beside
/// it, each with the time limit of `opts` and a stop flag of the race's own (the caller's
/// interrupt flag, or the process's, is watched here and passed on). The first outcome that
/// [`holds`] wins; the other engines are stopped and waited for. With no such outcome, the
/// first engine's outcome (an `unknown`, or a model that does not hold, for the run path to
/// report) or, if every engine failed, the first engine's error.
pub fn race(
    formula: &PbFormula,
    opts: &SolveOptions,
    engines: &[&'static str],
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
        let Some((&first, others)) = engines.split_first() else {
            return Err(BackendError::Solver {
                backend: "auto",
                message: "a race without engines".into(),
            });
        };
        scope.spawn(run(first));
        let mut started = 1;
        let mut results: Vec<(&'static str, Result<Outcome, BackendError>)> = Vec::new();
        loop {
            if started == 1 && (t0.elapsed() >= head_start || !results.is_empty()) && !outer.passed() {
                // The first engine is slow, or it ended without an answer (a refusal, an
                // error, a model that does not hold): the others' turn.
                for &name in others {
                    scope.spawn(run(name));
                }
                started = engines.len();
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
                // the engines do not see: stop them all.
                stop.store(true, Ordering::Relaxed);
            }
        }
        stop.store(true, Ordering::Relaxed);
        // The scope waits for the losers, which look at `stop` as they look at the clock.
        drop(tx);
        let took = t0.elapsed().as_secs_f64();
        settle(formula, results, engines, started, took)
    })
}

/// The race's result from the outcomes that came in (the winner last, if there is one).
fn settle(
    formula: &PbFormula,
    mut results: Vec<(&'static str, Result<Outcome, BackendError>)>,
    engines: &[&'static str],
    started: usize,
    took: f64,
) -> Result<Finish, BackendError> {
    let first = engines[0];
    let all = engines.join(", ");
    if let Some(i) = results
        .iter()
        .position(|(_, r)| matches!(r, Ok(out) if holds(formula, out)))
    {
        let (engine, result) = results.swap_remove(i);
        let outcome = result.expect("matched Ok above");
        let failed: Vec<String> = results
            .iter()
            .filter_map(|(name, r)| {
                let e = r.as_ref().err()?;
                let what = if super::auto::refusal(e) {
                    "could not take the formula as it is"
                } else {
                    "failed"
                };
                Some(format!("{name} {what} ({e})"))
            })
            .collect();
        let note = if started == 1 {
            format!("{engine} answered within its head start")
        } else if !failed.is_empty() {
            format!("{}, so {engine}", failed.join("; "))
        } else {
            format!("{all} raced: {engine} answered first, after {took:.3} s, and the others were stopped")
        };
        return Ok(Finish { engine, outcome, note });
    }
    // No answer that holds. Prefer an outcome (unknown, or a model for the run path to
    // reject loudly) to an error, and the first engine's to the others'.
    results.sort_by_key(|(name, r)| (r.is_err(), *name != first));
    match results.into_iter().next() {
        Some((engine, Ok(outcome))) => Ok(Finish {
            engine,
            outcome,
            note: if started == 1 {
                format!("{engine} alone: the time limit passed before the others could start")
            } else {
                format!("{all} raced; none answered")
            },
        }),
        Some((_, Err(e))) => Err(e),
        None => Err(BackendError::Solver {
            backend: "auto",
            message: "the race's engines ended without a word".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cmp, Constraint, Linear, Lit, Var};

    /// Pigeonhole, `n + 1` pigeons in `n` holes, as cardinality rows: unsat, and hard
    /// enough for clause learning at 9 holes that a race is under way when it is stopped.
    fn pigeons(n: u32) -> PbFormula {
        let mut f = PbFormula {
            num_vars: (n + 1) * n,
            ..Default::default()
        };
        let x = |p: u32, h: u32| Lit::new(Var(p * n + h), true);
        for p in 0..=n {
            let terms = (0..n).map(|h| (1, x(p, h))).collect();
            f.add("pigeon", Constraint::Linear(Linear::new(terms, Cmp::Ge, 1)));
        }
        for h in 0..n {
            let terms = (0..=n).map(|p| (1, x(p, h))).collect();
            f.add("hole", Constraint::Linear(Linear::new(terms, Cmp::Le, 1)));
        }
        f
    }

    #[test]
    fn the_first_engine_answers_alone_within_its_head_start() {
        let f = pigeons(3);
        let done = race(&f, &SolveOptions::default(), &["sat", "cp"], Duration::from_secs(60)).unwrap();
        assert_eq!(done.outcome.status, Status::Unsat);
        assert_eq!(done.engine, "sat");
        assert!(done.note.contains("head start"), "{}", done.note);
    }

    #[test]
    fn a_model_that_holds_wins_the_race() {
        let mut f = pigeons(4);
        // One pigeon fewer: satisfiable.
        f.constraints.remove(0);
        let done = race(&f, &SolveOptions::default(), &["sat", "cp"], Duration::ZERO).unwrap();
        assert_eq!(done.outcome.status, Status::Sat);
        assert!(f.evaluate(done.outcome.assignment.as_ref().unwrap()).is_ok());
        assert!(done.note.contains("raced"), "{}", done.note);
    }

    #[test]
    fn the_callers_interrupt_stops_every_engine() {
        let f = pigeons(11);
        let flag = Arc::new(AtomicBool::new(false));
        let opts = SolveOptions {
            interrupt: Some(flag.clone()),
            ..Default::default()
        };
        let setter = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, Ordering::Relaxed);
        });
        let t0 = Instant::now();
        let done = race(&f, &opts, &["sat", "cp"], Duration::ZERO).unwrap();
        setter.join().unwrap();
        // Pigeonhole at 11 holes takes clause learning far longer than this.
        assert_eq!(done.outcome.status, Status::Unknown);
        assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
        assert!(done.note.contains("none answered"), "{}", done.note);
    }

    #[test]
    fn a_refusal_hands_the_formula_to_the_others() {
        let f = pigeons(3);
        let opts = SolveOptions {
            encode: crate::encode::EncodeOptions {
                max_clauses: 1,
                ..Default::default()
            },
            ..Default::default()
        };
        let done = race(&f, &opts, &["sat", "cp"], Duration::from_secs(60)).unwrap();
        assert_eq!(done.engine, "cp");
        assert_eq!(done.outcome.status, Status::Unsat);
        assert!(done.note.contains("sat could not take the formula"), "{}", done.note);
    }
}

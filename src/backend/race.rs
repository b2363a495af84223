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

use std::ops::ControlFlow;

use super::optimise::{Improved, Optimum};
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

/// The options every engine of a race gets: those of `opts` with the race's own stop flag.
fn with_stop(opts: &SolveOptions) -> (SolveOptions, Arc<AtomicBool>) {
    let stop = Arc::new(AtomicBool::new(false));
    let mine = SolveOptions {
        interrupt: Some(stop.clone()),
        ..opts.clone()
    };
    (mine, stop)
}

/// The engine `name` of this build.
fn engine(name: &str) -> Result<Box<dyn super::Backend>, BackendError> {
    by_name(name).ok_or_else(|| BackendError::Solver {
        backend: "auto",
        message: format!("{name} is not in this build"),
    })
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
    let (mine, stop) = with_stop(opts);
    let t0 = Instant::now();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let run = |name: &'static str| {
            let tx = tx.clone();
            let mine = &mine;
            move || {
                let result = engine(name).and_then(|mut b| b.solve(formula, mine));
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

/// What an engine of [`race_optimise`] sends the coordinator.
enum Sent {
    /// A model the engine found, meant to be better than its last.
    Model(&'static str, Vec<bool>),
    /// The engine ended.
    Done(&'static str, Result<Optimum, BackendError>),
}

/// Optimises `formula` on `engines[0]`, and after `head_start` without a proof on the others
/// beside it, one thread each, with the time limit of `opts` and a stop flag of the race's
/// own. Models come to this thread, which
/// hands each one strictly better than the best so far (and satisfying the formula) to
/// `improved`: the `o` lines stream from whichever engine is ahead. The first engine to
/// prove its optimum, or that there is no solution, wins and the others are stopped. An
/// engine that claims as optimal a value another engine has beaten has claimed wrongly: the
/// claim is dropped, and `stats.extra.contradiction` says so (the run path then exits 1).
pub fn race_optimise(
    formula: &PbFormula,
    opts: &SolveOptions,
    engines: &[&'static str],
    head_start: Duration,
    improved: &mut Improved<'_>,
) -> Result<(&'static str, Optimum, String), BackendError> {
    let outer = opts.deadline();
    let (mine, stop) = with_stop(opts);
    let t0 = Instant::now();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let start = |name: &'static str| {
            let tx = tx.clone();
            let (mine, stop) = (&mine, &stop);
            scope.spawn(move || {
                let mut send = |a: &[bool]| {
                    let _ = tx.send(Sent::Model(name, a.to_vec()));
                    if stop.load(Ordering::Relaxed) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                };
                let result = engine(name).and_then(|mut b| b.optimise(formula, mine, &mut send));
                let _ = tx.send(Sent::Done(name, result));
            });
        };
        let Some((&first, others)) = engines.split_first() else {
            return Err(BackendError::Solver {
                backend: "auto",
                message: "a race without engines".into(),
            });
        };
        start(first);
        let mut started = 1;
        // The best value handed on, and who found it; each engine's own last value.
        let mut best: Option<(i64, &'static str)> = None;
        let mut last: Vec<(&'static str, i64)> = Vec::new();
        let mut ended: Vec<(&'static str, Result<Optimum, BackendError>)> = Vec::new();
        let mut caller_stopped = false;
        let mut contradiction = None;
        let winner = loop {
            if started == 1 && (t0.elapsed() >= head_start || !ended.is_empty()) && !outer.passed() && !caller_stopped {
                // The first engine has not proven anything within its head start (or ended
                // without a proof): the others' turn.
                for &name in others {
                    start(name);
                }
                started = engines.len();
            }
            if ended.len() == started {
                break None;
            }
            match rx.recv_timeout(POLL) {
                Ok(Sent::Model(name, a)) => {
                    let Some(v) = formula.objective_value(&a) else { continue };
                    last.retain(|(n, _)| *n != name);
                    last.push((name, v));
                    let better = best.is_none_or(|(b, _)| v < b);
                    if better && formula.evaluate(&a).is_ok() && !caller_stopped {
                        best = Some((v, name));
                        if improved(&a).is_break() {
                            caller_stopped = true;
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Ok(Sent::Done(name, Ok(o))) => {
                    let own = last.iter().find(|(n, _)| *n == name).map(|&(_, v)| v);
                    let proven = match (o.status, o.optimal, own, best) {
                        (Status::Unsat, _, _, Some((b, by))) => {
                            contradiction = Some(format!(
                                "{name} claimed there is no solution, but {by} found one of value {b}: {name}'s claim is wrong"
                            ));
                            false
                        }
                        (Status::Unsat, ..) => true,
                        (Status::Sat, true, Some(v), Some((b, by))) if b < v => {
                            contradiction = Some(format!(
                                "{name} claimed {v} optimal, but {by} found a solution of value {b}: {name}'s optimality claim is wrong"
                            ));
                            false
                        }
                        (Status::Sat, true, Some(_), _) => true,
                        _ => false,
                    };
                    ended.push((name, Ok(o)));
                    if proven && !caller_stopped {
                        break Some(name);
                    }
                }
                Ok(Sent::Done(name, Err(e))) => ended.push((name, Err(e))),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break None,
            }
            if outer.passed() {
                stop.store(true, Ordering::Relaxed);
            }
        };
        stop.store(true, Ordering::Relaxed);
        let took = t0.elapsed().as_secs_f64();
        let all = engines.join(", ");
        if let Some(name) = winner {
            let i = ended.iter().position(|(n, _)| *n == name).expect("the winner ended");
            let (_, result) = ended.swap_remove(i);
            let mut o = result.expect("the winner ended with an optimum");
            if let Some(c) = contradiction {
                o.stats.extra.insert("contradiction".into(), c.into());
            }
            let by = best.map_or(String::new(), |(_, by)| format!(" (the best solution was {by}'s)"));
            let what = if o.status == Status::Unsat {
                "no solution"
            } else {
                "the optimum"
            };
            let note = if started == 1 {
                format!("{name} proved {what} within its head start")
            } else {
                format!("{all} optimised side by side: {name} proved {what} first, after {took:.3} s{by}")
            };
            return Ok((name, o, note));
        }
        // Nobody proved anything: the best found, unproven, with the stats of the engine
        // that found it (or of the first engine).
        let found_by = best.map(|(_, by)| by).unwrap_or(engines[0]);
        let mut stats = None;
        let mut first_error = None;
        for (name, r) in ended {
            match r {
                Ok(o) if name == found_by || stats.is_none() => stats = Some(o.stats),
                Ok(_) => {}
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        // Every engine failed and nothing was found: the first failure is the answer.
        if let (None, None, Some(e)) = (&stats, best, first_error) {
            return Err(e);
        }
        let mut stats = stats.unwrap_or_default();
        if let Some(c) = contradiction {
            stats.extra.insert("contradiction".into(), c.into());
        }
        Ok((
            found_by,
            Optimum {
                status: if best.is_some() { Status::Sat } else { Status::Unknown },
                optimal: false,
                stats,
            },
            format!("{all} optimised side by side; none proved the optimum within the limit"),
        ))
    })
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

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

    /// Pick at least three of six items of costs 7, 3, 9, 4, 8, 5, minimising the cost: 12.
    fn items() -> PbFormula {
        let mut f = PbFormula {
            num_vars: 6,
            ..Default::default()
        };
        let x = |i| Lit::new(Var(i), true);
        f.add(
            "three items",
            Constraint::Linear(Linear::new((0..6).map(|i| (1, x(i))).collect(), Cmp::Ge, 3)),
        );
        f.objective = Some([7, 3, 9, 4, 8, 5].iter().zip(0..).map(|(&c, i)| (c, x(i))).collect());
        f
    }

    #[test]
    fn optimising_side_by_side_streams_better_models_and_proves_the_optimum() {
        let f = items();
        let mut seen = Vec::new();
        let mut improved = |a: &[bool]| {
            seen.push(f.objective_value(a).unwrap());
            ControlFlow::Continue(())
        };
        let (engine, o, note) = race_optimise(
            &f,
            &SolveOptions::default(),
            &["sat", "cp"],
            Duration::ZERO,
            &mut improved,
        )
        .unwrap();
        assert!(o.optimal, "{note}");
        assert_eq!(o.status, Status::Sat);
        assert!(["sat", "cp"].contains(&engine));
        assert_eq!(seen.last(), Some(&12), "{seen:?}");
        assert!(seen.windows(2).all(|w| w[1] < w[0]), "not strictly better: {seen:?}");
        assert!(note.contains("proved the optimum first"), "{note}");
    }

    #[test]
    fn optimising_side_by_side_proves_that_nothing_satisfies() {
        let mut f = pigeons(3);
        f.objective = Some(vec![(1, Lit::new(Var(0), true))]);
        let mut improved = |_: &[bool]| -> ControlFlow<()> { panic!("no model exists") };
        let (_, o, _) = race_optimise(
            &f,
            &SolveOptions::default(),
            &["sat", "cp"],
            Duration::ZERO,
            &mut improved,
        )
        .unwrap();
        assert_eq!(o.status, Status::Unsat);
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

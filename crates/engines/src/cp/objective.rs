//! pumpkin's own optimisation: the model [`super::build`] makes, plus an integer `obj`
//! equal to the objective's sum, minimised by pumpkin's linear SAT–UNSAT search
//! ([`LinearSatUnsat`]: each bound `obj <= best - 1` is an assumption of one solve, so the
//! nogoods learnt under one bound stay for the next). Every solution pumpkin finds goes from
//! the worker thread to the caller's callback as it is found.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use pumpkin_conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_core::branching::branchers::dynamic_brancher::DynamicBrancher;
use pumpkin_core::optimisation::OptimisationDirection;
use pumpkin_core::optimisation::linear_sat_unsat::LinearSatUnsat;
use pumpkin_core::results::{OptimisationResult, ProblemSolution, SolutionReference};
use pumpkin_core::termination::TerminationCondition;
use pumpkin_core::variables::{AffineView, DomainId, TransformableVariable};
use pumpkin_core::{Solver, predicate};

use super::model::{Built, Cut, POLL, Read, Stop, WIND_DOWN, build_or_send, estimate_bytes};
use super::search::{CpOptions, DEFAULT_SEED};
use crate::algorithms::{self, Normal};
use crate::budget::memory::over_limit;
use crate::budget::{Deadline, Waited};
use crate::contract::{Backend, BackendError, Improved, Method, Optimum, SolveOptions, SolveStats};
use crate::encode::EncodeError;
use crate::ir::{PbFormula, Status};

/// pumpkin's integers are `i32`, and its linear propagators add coefficients times bounds:
/// an objective whose coefficients add up to more than this goes by bound rows instead.
const LARGEST_SUM: u64 = 1 << 30;

/// From the worker: a solution (each better than the last), then how it ended.
enum Msg {
    Model(Vec<bool>),
    Done(Result<(Status, bool, SolveStats), Cut>),
}

/// The search stops at the deadline (and the memory limit, through [`Stop`]) or once the
/// waiting thread has stopped listening.
struct Halting<'s> {
    stop: &'s mut Stop,
    halt: Arc<AtomicBool>,
}

impl TerminationCondition for Halting<'_> {
    fn should_stop(&mut self) -> bool {
        self.halt.load(Ordering::Relaxed) || self.stop.should_stop()
    }
}

/// [`crate::Algorithms::optimise`] of `cp`: natively, when the objective fits pumpkin's integers
/// (else with bound rows, as a backend without its own optimisation).
pub(super) fn optimise<B: Backend>(
    cp: &mut B,
    cp_options: &CpOptions,
    formula: &PbFormula,
    opts: &SolveOptions,
    improved: &mut Improved<'_>,
) -> Result<Optimum, BackendError> {
    let Some(objective) = &formula.objective() else {
        return algorithms::by_sessions(cp, formula, opts, improved);
    };
    let normal = algorithms::normal(objective);
    let fits = normal.as_ref().is_some_and(|n| {
        !n.terms.is_empty()
            && n.terms
                .iter()
                .map(|t| t.0.unsigned_abs())
                .try_fold(0u64, u64::checked_add)
                .is_some_and(|s| s < LARGEST_SUM)
    });
    let Some(normal) = normal.filter(|_| fits) else {
        let n = algorithms::normal(objective);
        return algorithms::by_rhs(cp, formula, n.as_ref(), opts, improved);
    };
    cp.check_options(opts)?;
    let t0 = Instant::now();
    let deadline = opts.deadline();
    let limit = opts.encode.max_memory;
    let too_much = |needed: u64, when: &str| -> BackendError {
        EncodeError::memory(
            format!("the cp backend's model ({when})"),
            needed,
            limit,
            ", or try the search backend",
        )
        .into()
    };
    if let Some(needed) = over_limit(estimate_bytes(formula), limit) {
        return Err(too_much(needed, "estimated before building"));
    }
    let options = cp_options.tuned(&opts.tuning)?;
    let seed = opts.seed.unwrap_or(DEFAULT_SEED);
    let halt = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let worker = {
        let formula = formula.clone();
        let deadline = deadline.clone();
        let halt = halt.clone();
        std::thread::Builder::new()
            .name("sokuc-cp-optimise".into())
            .spawn(move || run(&formula, &normal, deadline, limit, options, seed, t0, halt, &tx))?
    };
    let mut models = 0u64;
    let ended = |status: Status, optimal: bool, mut stats: SolveStats, models: u64| {
        stats.extra.insert("optimise".into(), Method::Native.name().into());
        stats.extra.insert("solves".into(), 1.into());
        stats.extra.insert("loads".into(), 1.into());
        if optimal && models > 0 {
            // pumpkin's SAT-UNSAT search ended with the refutation of a better value.
            stats.basis.bound = Some(crate::Bound::Native { engine: "cp".into() });
        }
        Optimum {
            // An "unsat" after solutions stays, for the run path to refuse.
            status: if models > 0 && status != Status::Unsat {
                Status::Sat
            } else {
                status
            },
            optimal: optimal && models > 0,
            stats,
        }
    };
    let so_far = |t0: Instant| SolveStats {
        build_ms: t0.elapsed().as_secs_f64() * 1e3,
        ..Default::default()
    };
    loop {
        let Ok(waited) = deadline.wait(&rx, POLL, || Ok::<(), std::convert::Infallible>(()));
        match waited {
            Waited::Done(Msg::Model(a)) => {
                models += 1;
                if improved(&a).is_break() {
                    halt.store(true, Ordering::Relaxed);
                    let _ = crate::budget::join_within(worker, WIND_DOWN);
                    return Ok(ended(Status::Sat, false, so_far(t0), models));
                }
            }
            Waited::Done(Msg::Done(Ok((status, optimal, stats)))) => return Ok(ended(status, optimal, stats, models)),
            Waited::Done(Msg::Done(Err(Cut::Memory(rss)))) => {
                return Err(too_much(rss, "while building or solving"));
            }
            Waited::Done(Msg::Done(Err(Cut::Time))) | Waited::Passed => {
                halt.store(true, Ordering::Relaxed);
                // As in `Cp::solve`: the worker stops at its next look; given a moment,
                // it ends before whatever runs next.
                let _ = crate::budget::join_within(worker, WIND_DOWN);
                return Ok(ended(Status::Unknown, false, so_far(t0), models));
            }
            Waited::WorkerGone => {
                let why = match worker.join() {
                    Err(panic) => panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "a panic".into()),
                    Ok(()) => "no answer".into(),
                };
                return Err(BackendError::Solver {
                    backend: "cp",
                    message: format!("pumpkin stopped while optimising: {why}"),
                });
            }
        }
    }
}

/// The objective integer `obj = Σ coef·x` (the objective without its constant), posted as
/// one linear equality over the variables' literals. True when a variable that no
/// constraint had needed a literal of its own (the placements then no longer fix
/// everything).
fn post_objective(b: &mut Built, n: &Normal) -> (DomainId, bool) {
    let tag = b.solver.new_constraint_tag();
    let mut fresh = false;
    let mut terms: Vec<AffineView<DomainId>> = Vec::with_capacity(n.terms.len() + 1);
    for &(c, v) in &n.terms {
        let lit = match b.read[v.index()] {
            Read::Value(p, i) => b.solver.new_literal_for_predicate(predicate![p == i], tag),
            Read::Lit(l) => l,
            Read::Free => {
                fresh = true;
                let l = b.solver.new_literal();
                b.read[v.index()] = Read::Lit(l);
                l
            }
        };
        // LARGEST_SUM bounds every coefficient and sum here.
        terms.push(lit.get_integer_variable().scaled(super::ints::narrow(c)));
    }
    let obj = b.solver.new_bounded_integer(
        super::ints::narrow(n.lo - n.constant),
        super::ints::narrow(n.hi - n.constant),
    );
    terms.push(obj.scaled(-1));
    b.solver
        .add_constraint(pumpkin_constraints::equals(terms, 0, tag))
        .post();
    (obj, fresh)
}

fn values(read: &[Read], sol: &impl ProblemSolution) -> Vec<bool> {
    read.iter()
        .map(|r| match *r {
            Read::Value(p, i) => sol.get_integer_value(p) == i,
            Read::Lit(l) => sol.get_literal_value(l),
            Read::Free => false,
        })
        .collect()
}

/// The worker: builds, optimises (sending each solution), sends how it ended, and only
/// then frees the solver.
#[allow(clippy::too_many_arguments)]
fn run(
    formula: &PbFormula,
    normal: &Normal,
    deadline: Deadline,
    limit: u64,
    options: CpOptions,
    seed: u64,
    t0: Instant,
    halt: Arc<AtomicBool>,
    tx: &mpsc::Sender<Msg>,
) {
    // The receiver is gone when the caller stopped waiting; then nothing more is sent.
    let Some(mut built) = build_or_send(formula, &options, seed, &deadline, limit, tx, |cut| Msg::Done(Err(cut)))
    else {
        return;
    };
    let (obj, fresh) = post_objective(&mut built, normal);
    let build_time = t0.elapsed();
    let t1 = Instant::now();
    let mut stop = Stop::new(deadline, limit);
    let mut resolver = options.resolver();
    let (status, optimal) = if built.constant_false {
        (Status::Unsat, false)
    } else {
        let solver = &mut built.solver;
        let read = &built.read;
        let mut brancher = options.brancher(built.decisions, built.covered && !fresh, || {
            Box::new(solver.default_brancher())
        });
        let callback = |_: &Solver, sol: SolutionReference, _: &DynamicBrancher, _: &ResolutionResolver| match tx
            .send(Msg::Model(values(read, &sol)))
        {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        };
        let mut halting = Halting { stop: &mut stop, halt };
        let procedure = LinearSatUnsat::new(OptimisationDirection::Minimise, obj, callback);
        match solver.optimise(&mut brancher, &mut halting, &mut resolver, procedure) {
            OptimisationResult::Optimal(_) => (Status::Sat, true),
            OptimisationResult::Satisfiable(_) | OptimisationResult::Stopped(..) => (Status::Sat, false),
            OptimisationResult::Unsatisfiable => (Status::Unsat, false),
            OptimisationResult::Unknown => (Status::Unknown, false),
        }
    };
    if stop.over_memory > 0 {
        let _ = tx.send(Msg::Done(Err(Cut::Memory(stop.over_memory))));
        return;
    }
    // The objective's integer and its row count too.
    let stats = stop.stats(
        formula.num_vars() as usize + built.ints + 1,
        built.rows + 1,
        build_time,
        t1,
    );
    let _ = tx.send(Msg::Done(Ok((status, optimal, stats))));
}

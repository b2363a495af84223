//! pumpkin-solver (lazy clause generation) on a CP-shaped view of the IR.
//!
//! The 0/1 rows are not handed over as they are. Exactly-one groups become integer
//! variables (for 3SoKu: one placement variable per face, whose value picks type and
//! rotation); the group's literals are views `[P = i]` of it. In every linear row, the terms
//! of one group become a single integer `W = element(P, coefficients)` ("the weight this face
//! puts at this vertex"), and the row is a linear constraint over those integers. Lazy clause
//! generation then learns nogoods over placements and partial sums, the shape on which
//! Chuffed does well for this puzzle.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

mod counts;
mod groups;
mod ints;
mod model;
mod objective;
mod posting;
mod search;
mod table_element;

use std::sync::mpsc;
use std::time::Instant;

use pumpkin_conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_core::Solver;
use pumpkin_core::results::{ProblemSolution, SatisfactionResult};

use crate::budget::memory::over_limit;
use crate::budget::{Deadline, Waited, join_within};
use crate::contract::{
    Backend, BackendError, Capabilities, Improved, Method, Optimum, Outcome, SolveOptions, SolveStats,
};
use crate::encode::EncodeError;
use crate::ir::{PbFormula, Status};
#[cfg(feature = "testing")]
pub use groups::integer_groups;
use model::{Cut, POLL, Read, Stop, WIND_DOWN, build_or_send, estimate_bytes, refuse_wide_rows};
pub use search::{CpOptions, DEFAULT_SEED};

#[derive(Debug, Clone, Default)]
pub struct Cp {
    pub options: CpOptions,
}

impl Backend for Cp {
    fn name(&self) -> &'static str {
        "cp"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            interrupt: true,
            assumptions: false,
            incremental: false,
            rhs_changes: false,
            proof: false,
            seed: true,
            parallel: false,
        }
    }

    /// Stage sums below 2^30, which pumpkin's 32-bit integers hold ([`crate::limits::CP_ROW_LIMIT`]).
    fn objective_stage_bits(&self) -> u32 {
        29
    }

    fn optimisation(&self) -> Method {
        Method::Native
    }

    /// pumpkin's linear SAT–UNSAT search on an objective integer (`objective`).
    fn optimise_natively(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Option<Result<Optimum, BackendError>> {
        let options = self.options;
        Some(refuse_wide_rows(formula).and_then(|()| objective::optimise(self, &options, formula, opts, improved)))
    }

    /// pumpkin runs on a worker thread that owns its solver from start to end, while this
    /// thread waits until the deadline: posting one large row (root propagation) can take
    /// seconds without a chance to look at the clock, and freeing a large model takes about a
    /// second more (800 MB for bipyramid-2000). Past the deadline this thread answers
    /// `unknown` once the worker has ended or `WIND_DOWN` has passed: the worker sees the
    /// same deadline at its next check (measured on bipyramid-2000: it ends 5-55 ms after
    /// the deadline), and one still posting a row or freeing its solver after the grace is
    /// left to end on its own rather than hold the answer back. (pumpkin's solver cannot
    /// move between threads, so the worker gets its own copy of the formula, small beside
    /// pumpkin's model of it.)
    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.check_options(opts)?;
        refuse_wide_rows(formula)?;
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
        let unknown = |t0: Instant| {
            Outcome::unknown(SolveStats {
                build_ms: t0.elapsed().as_secs_f64() * 1e3,
                ..Default::default()
            })
        };
        if deadline.passed() {
            return Ok(unknown(t0));
        }
        let options = self.options.tuned(&opts.tuning)?;
        let seed = opts.seed.unwrap_or(DEFAULT_SEED);
        let (tx, rx) = mpsc::channel();
        let worker = {
            let formula = formula.clone();
            let deadline = deadline.clone();
            std::thread::Builder::new()
                .name("sokuc-cp".into())
                .spawn(move || run(&formula, deadline, limit, options, seed, t0, &tx))?
        };
        let Ok(waited) = deadline.wait(&rx, POLL, || Ok::<(), std::convert::Infallible>(()));
        let answer = match waited {
            Waited::Done(Ok(outcome)) => Ok(outcome),
            Waited::Done(Err(Cut::Memory(rss))) => Err(too_much(rss, "while building or solving")),
            Waited::Done(Err(Cut::Time)) | Waited::Passed => Ok(unknown(t0)),
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
                    message: format!("pumpkin stopped without an answer: {why}"),
                });
            }
        };
        // The worker has answered, or sees the deadline at its next look (between rows
        // while building, at pumpkin's termination checks while solving), then frees its
        // solver: given the rest of its step, it ends before the next solve starts beside it.
        let _ = join_within(worker, WIND_DOWN);
        answer
    }
}

/// The worker of [`Cp::solve`]: builds, solves, sends the outcome, and only then frees the
/// solver.
fn run(
    formula: &PbFormula,
    deadline: Deadline,
    limit: u64,
    options: CpOptions,
    seed: u64,
    t0: Instant,
    tx: &mpsc::Sender<Result<Outcome, Cut>>,
) {
    // The receiver is gone when the caller stopped waiting; then nothing is sent.
    let Some(mut built) = build_or_send(formula, &options, seed, &deadline, limit, tx, Err) else {
        return;
    };
    let build_time = t0.elapsed();
    let t1 = Instant::now();
    let mut stop = Stop::new(deadline, limit);
    let mut resolver = options.resolver();
    let result = if built.constant_false {
        Some((Status::Unsat, None))
    } else if stop.deadline.passed() {
        None
    } else {
        let solver = &mut built.solver;
        let mut brancher = options.brancher(built.decisions, built.covered, || Box::new(solver.default_brancher()));
        Some(solve_with(solver, &mut brancher, &mut stop, &mut resolver, &built.read))
    };
    if stop.over_memory > 0 {
        let _ = tx.send(Err(Cut::Memory(stop.over_memory)));
        return;
    }
    let (status, assignment) = result.unwrap_or((Status::Unknown, None));
    let stats = stop.stats(formula.num_vars() as usize + built.ints, built.rows, build_time, t1);
    let _ = tx.send(Ok(Outcome {
        status,
        assignment,
        stats,
    }));
}

fn solve_with<B: pumpkin_core::branching::Brancher>(
    solver: &mut Solver,
    brancher: &mut B,
    stop: &mut Stop,
    resolver: &mut ResolutionResolver,
    read: &[Read],
) -> (Status, Option<Vec<bool>>) {
    match solver.satisfy(brancher, stop, resolver) {
        SatisfactionResult::Satisfiable(s) => {
            let sol = s.solution();
            (
                Status::Sat,
                Some(
                    read.iter()
                        .map(|r| match *r {
                            Read::Value(p, i) => sol.get_integer_value(p) == i,
                            Read::Lit(l) => sol.get_literal_value(l),
                            Read::Free => false,
                        })
                        .collect(),
                ),
            )
        }
        SatisfactionResult::Unsatisfiable(..) => (Status::Unsat, None),
        SatisfactionResult::Unknown(..) => (Status::Unknown, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Tuning;
    use crate::ir::{Cmp, Constraint, Linear, Lit, Status, Var};

    /// x1 + x2 >= 1 and not x1: satisfiable.
    fn small() -> PbFormula {
        let mut f = PbFormula::new(2);
        let x = |i| Lit::new(Var(i), true);
        f.add(
            "one",
            Constraint::Linear(Linear::new(vec![(1, x(0)), (1, x(1))], Cmp::Ge, 1)),
        );
        f.add("not x1", Constraint::Clause(vec![!x(0)]));
        f
    }

    fn tuned(cp: &str) -> SolveOptions {
        SolveOptions {
            tuning: Tuning {
                cp: Some(cp.into()),
                cadical: None,
            },
            ..SolveOptions::default()
        }
    }

    /// A tuning list belongs to the solve whose options carry it: a bad one fails that solve
    /// alone, and solves beside it, at the same time in the same process, run untouched (it
    /// was a process-wide setting once, which a program embedding sokuc could not scope).
    #[test]
    fn tuning_belongs_to_the_solve_that_has_it() {
        let f = small();
        std::thread::scope(|s| {
            let bad = s.spawn(|| Cp::default().solve(&f, &tuned("order=sideways")));
            let plain = s.spawn(|| Cp::default().solve(&f, &SolveOptions::default()));
            let good = s.spawn(|| Cp::default().solve(&f, &tuned("order=first-fail,value=min")));
            let e = bad.join().unwrap().unwrap_err().to_string();
            assert!(e.contains("SOKUC_CP_OPTS") && e.contains("sideways"), "{e}");
            assert_eq!(plain.join().unwrap().unwrap().status, Status::Sat);
            assert_eq!(good.join().unwrap().unwrap().status, Status::Sat);
        });
        // The same for an optimisation, which takes its settings through the same call.
        let mut g = small();
        g.set_objective(Some(vec![(1, Lit::new(Var(1), true))]));
        let mut keep = |_: &[bool]| std::ops::ControlFlow::Continue(());
        let e = Cp::default()
            .optimise_natively(&g, &tuned("value=sideways"), &mut keep)
            .expect("cp optimises natively")
            .unwrap_err()
            .to_string();
        assert!(e.contains("SOKUC_CP_OPTS") && e.contains("sideways"), "{e}");
    }
}

//! CBC through good_lp: the IR as a 0/1 integer program (one binary column per variable,
//! one row per constraint, no objective).
//!
//! CBC's own time limit (`sec`) governs only its branch and bound: its preprocessing and the
//! root LP ignore it: on random bipyramids CBC ran 5-7 s past a 1 s limit (bipyramid-500)
//! and 3 minutes past a 10 s limit (bipyramid-2000). CBC's C interface has no way to stop a solve, so the
//! solve runs on a worker thread while the calling thread waits until the deadline. Past it
//! the answer is `unknown` and the worker is left behind, detached: it finishes when CBC
//! reaches its own limit (or its answer), holding CBC's global lock (good_lp allows one CBC
//! solve per process at a time) and one core until then, and dies with the process. A later
//! `mip` solve in the same process waits for that lock within its own time limit, so it may
//! answer `unknown` too; `compare` and `bench` move on regardless.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use good_lp::solvers::coin_cbc::coin_cbc;
use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel, Variable, WithTimeLimit,
    variable,
};

use super::memory::{Guard, over_limit};
use super::{Backend, BackendError, Capabilities, Outcome, SolveOptions, SolveStats, Status, Waited};
use crate::encode::EncodeError;
use crate::ir::{Cmp, Linear, Lit, PbFormula};

#[derive(Default)]
pub struct Mip;

/// Bytes per nonzero and per column of the model: good_lp's and CBC's copies, CBC's
/// preprocessing and its search tree. Measured peaks after 20 s on random bipyramids: 258 MB
/// for bipyramid-200 (these figures say 270), 398 MB for bipyramid-500 (650), 1.2 GB for
/// bipyramid-2000 after 3 minutes (1.7 GB).
const BYTES_PER_NONZERO: u64 = 1200;
const BYTES_PER_COLUMN: u64 = 3000;

/// How often the waiting thread looks at the clock and the resident size.
const POLL: Duration = Duration::from_millis(20);

fn term(cols: &[Variable], coef: i64, l: Lit) -> Expression {
    let x = cols[l.var().index()];
    if l.is_positive() {
        coef as f64 * x
    } else {
        coef as f64 * (1.0 - x)
    }
}

fn linear_rows(cols: &[Variable], lin: &Linear) -> good_lp::Constraint {
    let mut e = Expression::from(0.0);
    for &(c, l) in &lin.terms {
        e += term(cols, c, l);
    }
    let rhs = lin.rhs as f64;
    match lin.cmp {
        Cmp::Le => e.leq(rhs),
        Cmp::Ge => e.geq(rhs),
        Cmp::Eq => e.eq(rhs),
    }
}

/// What the worker hands back: CBC's verdict and, for a solution, the columns.
enum Answer {
    Infeasible,
    Solution { values: Vec<bool>, time_limit: bool },
    Error(String),
}

impl Backend for Mip {
    fn name(&self) -> &'static str {
        "mip"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            interrupt: false,
            assumptions: true,
            incremental: false,
            rhs_changes: false,
            proof: false,
            seed: true,
        }
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.check_options(opts)?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        let limit = opts.encode.max_memory;
        let too_much = |needed: u64, when: &str| -> BackendError {
            EncodeError::memory(
                format!("the mip backend's model ({when})"),
                needed,
                limit,
                ", or try the search or cp backend",
            )
            .into()
        };
        let all = formula.linear_rows();
        let nonzeros: u64 = all.iter().map(|r| r.terms.len() as u64).sum::<u64>() + opts.assumptions.len() as u64;
        let model = nonzeros
            .saturating_mul(BYTES_PER_NONZERO)
            .saturating_add((formula.num_vars as u64).saturating_mul(BYTES_PER_COLUMN));
        if let Some(needed) = over_limit(model, limit) {
            return Err(too_much(needed, "estimated before building"));
        }
        let unknown = |t0: Instant, solve: Duration| {
            Outcome::unknown(SolveStats {
                vars: formula.num_vars as u64,
                clauses: all.len() as u64,
                build_ms: (t0.elapsed() - solve).as_secs_f64() * 1e3,
                solve_ms: solve.as_secs_f64() * 1e3,
                ..Default::default()
            })
        };
        let mut vars = ProblemVariables::new();
        let cols: Vec<Variable> = (0..formula.num_vars).map(|_| vars.add(variable().binary())).collect();
        let mut problem = vars.minimise(Expression::from(0.0)).using(coin_cbc);
        problem.set_parameter("log", "0");
        problem.set_parameter("threads", "1");
        if let Some(seed) = opts.seed {
            problem.set_parameter("randomCbcSeed", &(seed % (i32::MAX as u64)).max(1).to_string());
        }
        // Rows over no columns are decided here rather than handed to CBC as empty rows.
        let mut constant_false = false;
        for (i, r) in all.iter().enumerate() {
            if i % 1024 == 1023 && deadline.passed() {
                return Ok(unknown(t0, Duration::ZERO));
            }
            if r.terms.is_empty() {
                constant_false |= !r.cmp.holds(0, r.rhs);
                continue;
            }
            problem.add_constraint(linear_rows(&cols, r));
        }
        for &l in &opts.assumptions {
            problem.add_constraint(term(&cols, 1, l).eq(1.0));
        }
        if constant_false {
            return Ok(Outcome {
                status: Status::Unsat,
                assignment: None,
                stats: SolveStats {
                    vars: formula.num_vars as u64,
                    clauses: all.len() as u64,
                    build_ms: t0.elapsed().as_secs_f64() * 1e3,
                    ..Default::default()
                },
            });
        }
        // CBC's own limit: the time left (it counts whole seconds and overruns; the wait
        // below is what keeps the deadline).
        let left = deadline.remaining();
        if left.is_some_and(|t| t.is_zero()) || deadline.passed() {
            return Ok(unknown(t0, Duration::ZERO));
        }
        if let Some(t) = left {
            problem = problem.with_time_limit(t.as_secs_f64());
        }
        let build = t0.elapsed();
        let t1 = Instant::now();
        let (tx, rx) = mpsc::channel();
        let worker = std::thread::Builder::new().name("sokuc-cbc".into()).spawn(move || {
            let answer = match problem.solve() {
                Err(ResolutionError::Infeasible) => Answer::Infeasible,
                Err(e) => Answer::Error(e.to_string()),
                Ok(sol) => Answer::Solution {
                    values: cols.iter().map(|&c| sol.value(c) > 0.5).collect(),
                    time_limit: matches!(sol.status(), SolutionStatus::TimeLimit),
                },
            };
            // The receiver is gone when the caller stopped waiting: nothing to do then.
            let _ = tx.send(answer);
        })?;
        let mut guard = Guard::new(limit, 1);
        let waited = deadline.wait(&rx, POLL, || match guard.over() {
            Some(rss) => Err(too_much(rss, "while CBC was solving")),
            None => Ok(()),
        })?;
        let answer = match waited {
            Waited::Done(a) => a,
            // Past the deadline the worker is abandoned (see the module comment).
            Waited::Passed => return Ok(unknown(t0, t1.elapsed())),
            Waited::WorkerGone => {
                // The worker ended without an answer: CBC panicked inside good_lp.
                let _ = worker.join();
                return Err(BackendError::Solver {
                    backend: "mip",
                    message: "the CBC solve ended without an answer".into(),
                });
            }
        };
        let solve = t1.elapsed();
        let (status, assignment) = match answer {
            Answer::Infeasible => (Status::Unsat, None),
            Answer::Error(message) => {
                return Err(BackendError::Solver {
                    backend: "mip",
                    message,
                });
            }
            // On a time limit CBC hands back whatever columns it has: only a feasible point
            // counts as an answer.
            Answer::Solution { values, time_limit } if time_limit && formula.evaluate(&values).is_err() => {
                (Status::Unknown, None)
            }
            Answer::Solution { values, .. } => (Status::Sat, Some(values)),
        };
        let stats = SolveStats {
            vars: formula.num_vars as u64,
            clauses: all.len() as u64,
            build_ms: build.as_secs_f64() * 1e3,
            solve_ms: solve.as_secs_f64() * 1e3,
            extra: Default::default(),
        };
        Ok(Outcome {
            status,
            assignment,
            stats,
        })
    }
}

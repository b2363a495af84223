//! CBC through good_lp: the IR as a 0/1 integer program (one binary column per variable,
//! one row per constraint, no objective).

use std::time::Instant;

use good_lp::solvers::coin_cbc::coin_cbc;
use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel, Variable, WithTimeLimit,
    variable,
};

use super::{Backend, BackendError, Capabilities, Outcome, SolveOptions, SolveStats, Status};
use crate::ir::{Cmp, Linear, Lit, PbFormula};

#[derive(Default)]
pub struct Mip;

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
            proof: false,
            seed: true,
        }
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.check_options(opts)?;
        let t0 = Instant::now();
        let mut vars = ProblemVariables::new();
        let cols: Vec<Variable> = (0..formula.num_vars).map(|_| vars.add(variable().binary())).collect();
        let mut problem = vars.minimise(Expression::from(0.0)).using(coin_cbc);
        problem.set_parameter("log", "0");
        problem.set_parameter("threads", "1");
        if let Some(seed) = opts.seed {
            problem.set_parameter("randomCbcSeed", &(seed % (i32::MAX as u64)).max(1).to_string());
        }
        if let Some(t) = opts.time_limit {
            problem = problem.with_time_limit(t.as_secs_f64());
        }
        let all = formula.linear_rows();
        // Rows over no columns are decided here rather than handed to CBC as empty rows.
        let mut constant_false = false;
        for r in &all {
            if r.terms.is_empty() {
                constant_false |= !r.cmp.holds(0, r.rhs);
                continue;
            }
            problem.add_constraint(linear_rows(&cols, r));
        }
        for &l in &opts.assumptions {
            problem.add_constraint(term(&cols, 1, l).eq(1.0));
        }
        let build = t0.elapsed();
        let t1 = Instant::now();
        // A zero time limit still runs CBC's preprocessing; answer unknown outright instead.
        let result = if constant_false {
            Some(Err(ResolutionError::Infeasible))
        } else if opts.time_limit.is_some_and(|t| t.is_zero()) {
            None
        } else {
            Some(problem.solve())
        };
        let solve = t1.elapsed();
        let read = |s: &dyn Solution| -> Vec<bool> { cols.iter().map(|&c| s.value(c) > 0.5).collect() };
        let (status, assignment) = match result {
            None => (Status::Unknown, None),
            Some(Err(ResolutionError::Infeasible)) => (Status::Unsat, None),
            Some(Err(e)) => {
                return Err(BackendError::Solver {
                    backend: "mip",
                    message: e.to_string(),
                });
            }
            Some(Ok(sol)) => {
                let a = read(&sol);
                // On a time limit CBC hands back whatever columns it has: only a feasible
                // point counts as an answer.
                if matches!(sol.status(), SolutionStatus::TimeLimit) && formula.evaluate(&a).is_err() {
                    (Status::Unknown, None)
                } else {
                    (Status::Sat, Some(a))
                }
            }
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

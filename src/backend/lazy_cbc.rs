//! A good_lp solver backed by CBC opened at run time ([`super::cbc`]): good_lp models the
//! problem (variables, expressions, constraints), this solver hands it to CBC's C interface in
//! a child process that is killed at the deadline.
//!
//! good_lp's own CBC solver (its `coin_cbc` feature) links CBC, which every command of the
//! binary then paid for at start-up; this one opens CBC the first time a model is solved, so
//! good_lp is built without any solver feature and nothing of CBC is linked.
//!
//! Two things good_lp keeps to itself outside its crate, and what this solver does instead:
//! - the contents of an [`UnsolvedProblem`] (its variables and objective): the solver reads
//!   the variables from the [`ProblemVariables`] before they go into the problem
//!   ([`LazyCbc::feasibility`]), and it looks for a feasible point, whatever the objective;
//! - the constructor of [`ConstraintReference`] (see [`reference`]).

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::ffi::CString;
use std::time::{Duration, Instant};

use good_lp::constraint::ConstraintReference;
use good_lp::solvers::SolutionStatus;
use good_lp::variable::UnsolvedProblem;
use good_lp::{Constraint, IntoAffineExpression, ProblemVariables, Solution, Solver, SolverModel, Variable};

use super::cbc::{self, Answer, Problem};
use crate::budget::Deadline;

/// How often the waiting thread looks at the clock, the interrupt flag and the child's
/// resident size.
const POLL: Duration = Duration::from_millis(20);

/// Whether CBC's library can be opened (it is, the first time): `Err` says which library is
/// missing and how to install it.
pub fn available() -> Result<(), CbcError> {
    cbc::api().map(|_| ()).map_err(CbcError::from)
}

/// A column, row or nonzero count or index as CBC's `int`: `solve` refuses a model with 2^31
/// or more of any of them (`CbcError::TooLarge`) before [`LazyCbc::problem`] builds its arrays.
fn cbc_int(i: usize) -> i32 {
    i32::try_from(i).expect("solve refuses models past 2^31 - 1 columns, rows or nonzeros")
}

/// A column or row index as the `u32` the tables keep. Columns are good_lp's variables (the
/// IR's, a `u32`, and the digit columns of wide rows) and rows its constraints: 2^32 of either
/// would take hundreds of GiB before this point, and `solve` refuses 2^31 anyway.
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 columns and rows")
}

/// Each variable's column. `Variable`'s `Hash` writes its index: the crate's one fast hash
/// (`ir::hash`) does for it.
type Columns = crate::ir::FastMap<Variable, u32>;

/// A [`ConstraintReference`] to the `index`-th constraint of a model. good_lp builds these
/// only inside its crate (for its own solvers); [`SolverModel::add_constraint`] must return
/// one.
fn reference(index: usize) -> ConstraintReference {
    // SAFETY: good_lp 1.15.3 (pinned in Cargo.toml) declares
    // `pub struct ConstraintReference { pub(crate) index: usize }`: one field, a `usize`, so
    // its bytes are the index's and every `usize` is a valid value. `transmute` checks the
    // sizes at compile time; `tests::references_hold_their_index` checks the field.
    unsafe { std::mem::transmute::<usize, ConstraintReference>(index) }
}

/// The solver: CBC, opened at run time, for the variables of one problem.
///
/// ```ignore
/// let mut vars = variables!();
/// let x = vars.add(variable().binary());
/// let cbc = LazyCbc::feasibility(&vars).with_deadline(deadline);
/// let solution = vars.minimise(0).using(cbc).with(constraint!(x >= 1)).solve()?;
/// ```
pub struct LazyCbc {
    columns: Columns,
    lower: Vec<f64>,
    upper: Vec<f64>,
    integer: Vec<bool>,
    /// The objective's coefficient of each column (empty: a feasibility problem).
    objective: Vec<f64>,
    deadline: Deadline,
    memory_limit: u64,
}

impl LazyCbc {
    /// A solver for the variables of `vars` (read now: good_lp gives a solver outside its
    /// crate no access to them once they are in the problem) that finds any point meeting the
    /// constraints: the problem's objective is not seen.
    pub fn feasibility(vars: &ProblemVariables) -> LazyCbc {
        let n = vars.len();
        let mut s = LazyCbc {
            columns: Columns::with_capacity_and_hasher(n, Default::default()),
            lower: Vec::with_capacity(n),
            upper: Vec::with_capacity(n),
            integer: Vec::with_capacity(n),
            objective: Vec::new(),
            deadline: Deadline::default(),
            memory_limit: u64::MAX,
        };
        for (j, (v, def)) in vars.iter_variables_with_def().enumerate() {
            s.columns.insert(v, index(j));
            s.lower.push(def.get_min());
            s.upper.push(def.get_max());
            s.integer.push(def.is_integer());
        }
        s
    }

    /// CBC minimises `objective` (its constant aside) instead of looking for any feasible
    /// point: good_lp keeps the problem's objective to itself, so it is given here too. A
    /// variable of another problem is left out (it has no column).
    pub fn minimising(mut self, objective: &good_lp::Expression) -> LazyCbc {
        self.objective = vec![0.0; self.lower.len()];
        for (v, c) in objective.linear_coefficients() {
            if let Some(&j) = self.columns.get(&v) {
                self.objective[j as usize] += c;
            }
        }
        self
    }

    /// The solve is stopped (its child killed) when `deadline` passes or its flag is set; CBC
    /// is also told the time left, which it keeps only roughly.
    pub fn with_deadline(mut self, deadline: Deadline) -> LazyCbc {
        self.deadline = deadline;
        self
    }

    /// The solve is stopped when CBC's process holds more than `bytes` resident.
    pub fn with_memory_limit(mut self, bytes: u64) -> LazyCbc {
        self.memory_limit = bytes;
        self
    }
}

impl Solver for LazyCbc {
    type Model = CbcModel;

    fn create_model(&mut self, _problem: UnsolvedProblem) -> CbcModel {
        let n = self.lower.len();
        CbcModel {
            columns: std::mem::take(&mut self.columns),
            lower: std::mem::take(&mut self.lower),
            upper: std::mem::take(&mut self.upper),
            integer: std::mem::take(&mut self.integer),
            objective: std::mem::take(&mut self.objective),
            deadline: self.deadline.clone(),
            time_limit: None,
            memory_limit: self.memory_limit,
            entries: Vec::new(),
            row_lower: Vec::new(),
            row_upper: Vec::new(),
            constraints: 0,
            infeasible: false,
            parameters: Vec::new(),
            column_counts: vec![0; n],
        }
    }

    fn name() -> &'static str {
        "Coin Cbc (opened at run time)"
    }
}

/// A model for CBC: good_lp's constraints as rows, kept until [`SolverModel::solve`].
pub struct CbcModel {
    columns: Columns,
    lower: Vec<f64>,
    upper: Vec<f64>,
    integer: Vec<bool>,
    objective: Vec<f64>,
    deadline: Deadline,
    /// From [`good_lp::WithTimeLimit`]: a limit of its own, counted from when it was set.
    time_limit: Option<Instant>,
    memory_limit: u64,
    /// The rows' entries in the order added: (column, row, coefficient).
    entries: Vec<(u32, u32, f64)>,
    column_counts: Vec<u32>,
    row_lower: Vec<f64>,
    row_upper: Vec<f64>,
    /// Constraints added, including those decided without CBC.
    constraints: usize,
    /// A constraint over no variable that cannot hold.
    infeasible: bool,
    parameters: Vec<(CString, CString)>,
}

impl CbcModel {
    /// Sets one of CBC's parameters as its command line names them ("threads", "1"). A name or
    /// value with a NUL is dropped.
    pub fn set_parameter(&mut self, name: &str, value: &str) {
        if let (Ok(k), Ok(v)) = (CString::new(name), CString::new(value)) {
            self.parameters.push((k, v));
        }
    }

    /// Time left before the deadline or the model's own time limit (`None`: neither is set).
    fn remaining(&self) -> Option<Duration> {
        let own = self.time_limit.map(|t| t.saturating_duration_since(Instant::now()));
        [self.deadline.remaining(), own].into_iter().flatten().min()
    }

    /// Entries (nonzeros) of the rows added so far.
    pub fn nonzeros(&self) -> usize {
        self.entries.len()
    }

    /// Rows, column-major, as `Cbc_loadProblem` takes them: a counting sort by column keeps
    /// each column's rows increasing.
    fn problem(&self) -> Problem {
        let n = self.lower.len();
        let mut start = vec![0i32; n + 1];
        for j in 0..n {
            start[j + 1] = start[j] + cbc_int(self.column_counts[j] as usize);
        }
        let mut next: Vec<i32> = start[..n].to_vec();
        let mut index = vec![0i32; self.entries.len()];
        let mut value = vec![0.0; self.entries.len()];
        for &(j, r, c) in &self.entries {
            let at = usize::try_from(next[j as usize]).expect("a column's start is non-negative");
            index[at] = cbc_int(r as usize);
            value[at] = c;
            next[j as usize] += 1;
        }
        Problem {
            num_rows: self.row_lower.len(),
            start,
            index,
            value,
            col_lower: self.lower.clone(),
            col_upper: self.upper.clone(),
            integer: self.integer.clone(),
            objective: self.objective.clone(),
            row_lower: self.row_lower.clone(),
            row_upper: self.row_upper.clone(),
            parameters: self.parameters.clone(),
        }
    }
}

/// Why a solve gave no solution.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CbcError {
    /// CBC's library cannot be opened: the message names it and how to install it.
    #[error("{0}")]
    Unavailable(String),
    #[error("the problem is infeasible")]
    Infeasible,
    /// The deadline passed (or the interrupt flag was set): CBC's process was killed.
    #[error("stopped at the deadline")]
    Stopped,
    /// CBC reached its own time limit without a point.
    #[error("CBC reached its time limit without a solution")]
    TimeLimit,
    /// CBC's process held this many bytes, over the memory limit, and was killed.
    #[error("CBC used {0} bytes, over the memory limit")]
    OverMemory(u64),
    /// The model is larger than CBC takes (its counts are C `int`s).
    #[error("{0}")]
    TooLarge(String),
    /// CBC failed, or its process ended without an answer.
    #[error("{0}")]
    Failed(String),
}

impl From<cbc::CbcError> for CbcError {
    fn from(e: cbc::CbcError) -> CbcError {
        match e {
            cbc::CbcError::Unavailable(m) => CbcError::Unavailable(m),
            cbc::CbcError::Failed(m) => CbcError::Failed(m),
        }
    }
}

impl SolverModel for CbcModel {
    type Solution = CbcSolution;
    type Error = CbcError;

    /// A row `sum <= -constant` (or `=`) from good_lp's normal form `sum + constant <= 0`.
    /// Terms with coefficient 0 are left out, and a row left with no term is decided here.
    fn add_constraint(&mut self, c: Constraint) -> ConstraintReference {
        let at = self.constraints;
        self.constraints += 1;
        let e = c.expression();
        let r = index(self.row_lower.len());
        let before = self.entries.len();
        for (v, coef) in e.linear_coefficients() {
            if coef == 0.0 {
                continue;
            }
            match self.columns.get(&v) {
                Some(&j) => {
                    self.entries.push((j, r, coef));
                    self.column_counts[j as usize] += 1;
                }
                // Not a variable of this problem: nothing can satisfy a constraint on it.
                None => self.infeasible = true,
            }
        }
        let rhs = -e.constant();
        if self.entries.len() == before {
            let holds = if c.is_equality() { rhs == 0.0 } else { 0.0 <= rhs };
            self.infeasible |= !holds;
        } else {
            self.row_lower
                .push(if c.is_equality() { rhs } else { f64::NEG_INFINITY });
            self.row_upper.push(rhs);
        }
        reference(at)
    }

    fn solve(self) -> Result<CbcSolution, CbcError> {
        let api = cbc::api()?;
        if self.infeasible || self.lower.iter().zip(&self.upper).any(|(lo, up)| lo > up) {
            return Err(CbcError::Infeasible);
        }
        let n = self.lower.len();
        if n == 0 {
            // Every constraint was decided while it was added, and held.
            return Ok(CbcSolution {
                columns: self.columns,
                values: Vec::new(),
                status: SolutionStatus::Optimal,
            });
        }
        if n > i32::MAX as usize || self.entries.len() > i32::MAX as usize || self.row_lower.len() > i32::MAX as usize {
            return Err(CbcError::TooLarge(format!(
                "the model ({} nonzeros, {n} columns, {} rows) is larger than CBC takes (2^31 - 1 of each)",
                self.entries.len(),
                self.row_lower.len()
            )));
        }
        let stop = |deadline: &Deadline, limit: Option<Instant>| {
            deadline.passed() || limit.is_some_and(|t| Instant::now() >= t)
        };
        if stop(&self.deadline, self.time_limit) {
            return Err(CbcError::Stopped);
        }
        let mut problem = self.problem();
        // CBC's own limit, wall-clock: the time left. Only a courtesy (CBC overruns it in its
        // preprocessing and root LP); the deadline is kept by killing the child.
        if let Some(left) = self.remaining() {
            // When optimising, CBC stops a little before the deadline on its own, so that it
            // hands back its best point instead of being killed with it.
            let left = if self.objective.is_empty() {
                left
            } else {
                left.mul_f64(0.9).saturating_sub(Duration::from_millis(100))
            };
            let sec = CString::new(format!("{:.3}", left.as_secs_f64())).expect("no NUL");
            problem.parameters.push((c"timeMode".into(), c"elapsed".into()));
            problem.parameters.push((c"sec".into(), sec));
        }
        let mut running = cbc::start(api, &problem).map_err(|e| CbcError::Failed(e.to_string()))?;
        drop(problem);
        let answer = loop {
            let wait = self.remaining().map_or(POLL, |t| t.min(POLL));
            match running.wait(wait) {
                Ok(Some(a)) => break a,
                Ok(None) => {}
                Err(e) => return Err(CbcError::Failed(e.to_string())),
            }
            if stop(&self.deadline, self.time_limit) {
                // Killed and reaped here, before the answer goes out.
                drop(running);
                return Err(CbcError::Stopped);
            }
            if let Some(rss) = running.resident_bytes().filter(|&r| r > self.memory_limit) {
                drop(running);
                return Err(CbcError::OverMemory(rss));
            }
        };
        drop(running);
        let (values, status) = match answer {
            Answer::Infeasible => return Err(CbcError::Infeasible),
            Answer::TimeLimit => return Err(CbcError::TimeLimit),
            Answer::Error(message) => return Err(CbcError::Failed(message)),
            Answer::Solution { values, time_limit } => (
                values,
                if time_limit {
                    SolutionStatus::TimeLimit
                } else {
                    SolutionStatus::Optimal
                },
            ),
        };
        if values.len() != n {
            return Err(CbcError::Failed(format!(
                "CBC's process sent {} column values for {n} columns",
                values.len()
            )));
        }
        Ok(CbcSolution {
            columns: self.columns,
            values,
            status,
        })
    }

    fn name() -> &'static str {
        "Coin Cbc (opened at run time)"
    }
}

impl good_lp::WithTimeLimit for CbcModel {
    /// A limit of `seconds` from now, on top of the deadline: CBC is told it, and its process
    /// is killed at it.
    fn with_time_limit<T: Into<f64>>(mut self, seconds: T) -> CbcModel {
        let secs = seconds.into();
        let at = Duration::try_from_secs_f64(secs.max(0.0))
            .ok()
            .and_then(|d| Instant::now().checked_add(d));
        if at.is_some() {
            self.time_limit = at;
        }
        self
    }
}

/// CBC's point.
pub struct CbcSolution {
    columns: Columns,
    values: Vec<f64>,
    status: SolutionStatus,
}

impl Solution for CbcSolution {
    /// `TimeLimit`: CBC stopped at its own limit and the point is whatever it had (it may not
    /// meet the constraints).
    fn status(&self) -> SolutionStatus {
        self.status
    }

    /// The variable's value; NaN for a variable of another problem.
    fn value(&self, v: Variable) -> f64 {
        self.columns.get(&v).map_or(f64::NAN, |&j| self.values[j as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_hold_their_index() {
        for i in [0, 1, 7, usize::MAX] {
            assert_eq!(
                format!("{:?}", reference(i)),
                format!("ConstraintReference {{ index: {i} }}")
            );
        }
    }

    #[test]
    fn variables_map_to_their_columns_in_order() {
        let mut vars = good_lp::variables!();
        let xs: Vec<Variable> = (0..1000).map(|_| vars.add(good_lp::variable().binary())).collect();
        let s = LazyCbc::feasibility(&vars);
        for (j, x) in xs.iter().enumerate() {
            assert_eq!(s.columns[x], u32::try_from(j).unwrap());
        }
        assert!(s.integer.iter().all(|&i| i) && s.upper.iter().all(|&u| u == 1.0));
    }

    #[test]
    fn rows_come_from_the_normal_form() {
        use good_lp::constraint;
        let mut vars = good_lp::variables!();
        let x = vars.add(good_lp::variable().binary());
        let y = vars.add(good_lp::variable().binary());
        let cbc = LazyCbc::feasibility(&vars);
        let mut m = vars.minimise(0).using(cbc);
        let r0 = m.add_constraint(constraint!(2 * x + (1 - y) <= 2));
        let r1 = m.add_constraint(constraint!(x + y >= 1));
        let r2 = m.add_constraint(constraint!(x - x == 0));
        assert_eq!((r0, r1, r2), (reference(0), reference(1), reference(2)));
        // 2x - y <= 1; -x - y <= -1; the third has no term and holds.
        assert_eq!(m.row_upper, vec![1.0, -1.0]);
        assert_eq!(m.row_lower, vec![f64::NEG_INFINITY; 2]);
        assert!(!m.infeasible);
        let p = m.problem();
        assert_eq!(p.start, vec![0, 2, 4]);
        assert_eq!(p.index, vec![0, 1, 0, 1]);
        assert_eq!(p.value, vec![2.0, -1.0, -1.0, -1.0]);
        m.add_constraint(constraint!(y - y >= 1));
        assert!(m.infeasible);
    }
}

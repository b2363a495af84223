//! CBC: the IR as a 0/1 integer program (one binary column per variable, one row per
//! constraint, no objective), handed to CBC's C interface, which is opened at run time and
//! solves in a child process (see [`super::cbc`] for both choices).
//!
//! The child is killed at the deadline (or on an interrupt, or past the memory limit), so
//! the call returns within a poll of the deadline whatever CBC was doing: its own time limit
//! (`sec`, wall-clock here) ignores its preprocessing and root LP, where it ran 5-7 s past a
//! 1 s limit (bipyramid-500) and 3 minutes past a 10 s limit (bipyramid-2000). Nothing of a
//! cut-off solve is left behind: no thread, no core, no memory, no lock for the next solve.

use std::ffi::CString;
use std::time::{Duration, Instant};

use super::cbc::{self, Answer, Problem};
use super::memory::over_limit;
use super::{Backend, BackendError, Capabilities, Outcome, SolveOptions, SolveStats, Status};
use crate::encode::EncodeError;
use crate::ir::{Cmp, Linear, PbFormula};

#[derive(Default)]
pub struct Mip;

/// Bytes per nonzero and per column of the model: our arrays, CBC's copies, its
/// preprocessing and its search tree. Measured peaks after 20 s on random bipyramids (when a
/// good_lp copy came on top; these figures stay on the safe side): 258 MB for bipyramid-200
/// (these figures say 270), 398 MB for bipyramid-500 (650), 1.2 GB for bipyramid-2000 after
/// 3 minutes (1.7 GB).
const BYTES_PER_NONZERO: u64 = 1200;
const BYTES_PER_COLUMN: u64 = 3000;

/// How often the waiting thread looks at the clock and at the child's resident size.
const POLL: Duration = Duration::from_millis(20);

/// How often building the model looks at the clock, in rows.
const ROWS_PER_LOOK: usize = 1024;

/// The model in CBC's form, or what building it found out without CBC.
enum Built {
    Problem(Problem),
    /// A row over no columns that cannot hold, or assumptions that contradict each other.
    Unsat,
    /// The deadline passed while building.
    TimedOut,
}

/// Rows as CBC takes them: a negative literal `c * !x` is `c - c * x`, terms on one column
/// are added up (`x + !x` is the constant 1), and columns with coefficient 0 are left out.
/// Assumptions fix columns through their bounds.
fn build(formula: &PbFormula, all: &[Linear], opts: &SolveOptions, deadline: &super::Deadline) -> Built {
    let n = formula.num_vars as usize;
    let mut col_lower = vec![0.0; n];
    let mut col_upper = vec![1.0; n];
    for &l in &opts.assumptions {
        let j = l.var().index();
        if l.is_positive() {
            col_lower[j] = 1.0;
        } else {
            col_upper[j] = 0.0;
        }
    }
    if col_lower.iter().zip(&col_upper).any(|(lo, up)| lo > up) {
        return Built::Unsat;
    }
    // Row-major entries first (column, row, coefficient), then sorted into columns.
    let mut entries: Vec<(u32, u32, f64)> = Vec::new();
    let (mut row_lower, mut row_upper) = (Vec::new(), Vec::new());
    let mut terms: Vec<(u32, i128)> = Vec::new();
    for (i, row) in all.iter().enumerate() {
        if i % ROWS_PER_LOOK == ROWS_PER_LOOK - 1 && deadline.passed() {
            return Built::TimedOut;
        }
        terms.clear();
        let mut constant: i128 = 0;
        for &(coef, l) in &row.terms {
            let coef = coef as i128;
            if l.is_positive() {
                terms.push((l.var().0, coef));
            } else {
                constant += coef;
                terms.push((l.var().0, -coef));
            }
        }
        terms.sort_unstable_by_key(|t| t.0);
        let mut k = 0;
        for t in 0..terms.len() {
            if k > 0 && terms[k - 1].0 == terms[t].0 {
                terms[k - 1].1 += terms[t].1;
            } else {
                terms[k] = terms[t];
                k += 1;
            }
        }
        terms.truncate(k);
        terms.retain(|t| t.1 != 0);
        let rhs = row.rhs as i128 - constant;
        // Rows over no columns are decided here rather than handed to CBC as empty rows.
        if terms.is_empty() {
            let holds = match row.cmp {
                Cmp::Le => 0 <= rhs,
                Cmp::Ge => 0 >= rhs,
                Cmp::Eq => rhs == 0,
            };
            if !holds {
                return Built::Unsat;
            }
            continue;
        }
        let r = row_lower.len() as u32;
        let rhs = rhs as f64;
        let (lo, up) = match row.cmp {
            Cmp::Le => (f64::NEG_INFINITY, rhs),
            Cmp::Ge => (rhs, f64::INFINITY),
            Cmp::Eq => (rhs, rhs),
        };
        row_lower.push(lo);
        row_upper.push(up);
        entries.extend(terms.iter().map(|&(j, c)| (j, r, c as f64)));
    }
    // Counting sort by column; within a column the rows stay increasing.
    let mut start = vec![0i32; n + 1];
    for &(j, _, _) in &entries {
        start[j as usize + 1] += 1;
    }
    for j in 0..n {
        start[j + 1] += start[j];
    }
    let mut next: Vec<i32> = start[..n].to_vec();
    let mut index = vec![0i32; entries.len()];
    let mut value = vec![0.0; entries.len()];
    for &(j, r, c) in &entries {
        let at = next[j as usize] as usize;
        index[at] = r as i32;
        value[at] = c;
        next[j as usize] += 1;
    }
    Built::Problem(Problem {
        num_rows: row_lower.len(),
        start,
        index,
        value,
        col_lower,
        col_upper,
        row_lower,
        row_upper,
        parameters: Vec::new(),
    })
}

fn parameter(name: &str, value: impl ToString) -> (CString, CString) {
    // Names and values made here hold no NUL.
    (
        CString::new(name).expect("no NUL"),
        CString::new(value.to_string()).expect("no NUL"),
    )
}

impl Backend for Mip {
    fn name(&self) -> &'static str {
        "mip"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            // The child is killed when the flag is set, as at the deadline.
            interrupt: true,
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
        // A missing CBC is reported whatever the model, before anything is built.
        let api = cbc::api().map_err(|e| BackendError::Unavailable {
            backend: "mip",
            message: e.to_string(),
        })?;
        let all = formula.linear_rows();
        let rows = all.len() as u64;
        let nonzeros: u64 = all.iter().map(|r| r.terms.len() as u64).sum::<u64>() + opts.assumptions.len() as u64;
        let model = nonzeros
            .saturating_mul(BYTES_PER_NONZERO)
            .saturating_add((formula.num_vars as u64).saturating_mul(BYTES_PER_COLUMN));
        if let Some(needed) = over_limit(model, limit) {
            return Err(too_much(needed, "estimated before building"));
        }
        // CBC counts entries in an `int` (CoinBigIndex).
        if nonzeros > i32::MAX as u64 || formula.num_vars > i32::MAX as u32 {
            return Err(BackendError::Solver {
                backend: "mip",
                message: format!(
                    "the model ({nonzeros} nonzeros, {} columns) is larger than CBC takes (2^31 - 1 of each)",
                    formula.num_vars
                ),
            });
        }
        let stats = |t0: Instant, solve: Duration| SolveStats {
            vars: formula.num_vars as u64,
            clauses: rows,
            build_ms: (t0.elapsed() - solve).as_secs_f64() * 1e3,
            solve_ms: solve.as_secs_f64() * 1e3,
            ..Default::default()
        };
        let decided = |status, assignment| Outcome {
            status,
            assignment,
            stats: stats(t0, Duration::ZERO),
        };
        let mut problem = match build(formula, &all, opts, &deadline) {
            Built::Problem(p) => p,
            Built::Unsat => return Ok(decided(Status::Unsat, None)),
            Built::TimedOut => return Ok(decided(Status::Unknown, None)),
        };
        if problem.num_cols() == 0 {
            // Every row was decided while building, and held.
            return Ok(decided(Status::Sat, Some(Vec::new())));
        }
        problem.parameters.push(parameter("log", 0));
        problem.parameters.push(parameter("threads", 1));
        if let Some(seed) = opts.seed {
            problem
                .parameters
                .push(parameter("randomCbcSeed", (seed % (i32::MAX as u64)).max(1)));
        }
        // CBC's own limit, wall-clock: the time left. It is only a courtesy (CBC overruns it);
        // the deadline is kept by killing the child.
        if let Some(left) = deadline.remaining() {
            if left.is_zero() || deadline.passed() {
                return Ok(decided(Status::Unknown, None));
            }
            problem.parameters.push(parameter("timeMode", "elapsed"));
            problem
                .parameters
                .push(parameter("sec", format!("{:.3}", left.as_secs_f64())));
        } else if deadline.passed() {
            return Ok(decided(Status::Unknown, None));
        }
        let t1 = Instant::now();
        let mut running = cbc::start(api, &problem)?;
        drop(problem);
        let answer = loop {
            let wait = deadline.remaining().map_or(POLL, |t| t.min(POLL));
            match running.wait(wait) {
                Ok(Some(a)) => break a,
                Ok(None) => {}
                Err(e) => {
                    return Err(BackendError::Solver {
                        backend: "mip",
                        message: e.to_string(),
                    });
                }
            }
            if deadline.passed() {
                // Killed and reaped here, before the answer goes out.
                drop(running);
                return Ok(Outcome::unknown(stats(t0, t1.elapsed())));
            }
            if let Some(rss) = running.resident_bytes().filter(|&r| r > limit) {
                drop(running);
                return Err(too_much(rss, "while CBC was solving"));
            }
        };
        drop(running);
        let solve = t1.elapsed();
        let (status, assignment) = match answer {
            Answer::Infeasible => (Status::Unsat, None),
            Answer::TimeLimit => (Status::Unknown, None),
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
        Ok(Outcome {
            status,
            assignment,
            stats: stats(t0, solve),
        })
    }
}

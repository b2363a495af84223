//! CBC (the `mip` backend) and HiGHS (`highs`, in `super::highs`): the IR as a 0/1 integer
//! program (one binary column per variable, one row per constraint, except that a row too
//! wide for the solvers' tolerances becomes digit columns over auxiliary columns; see
//! `narrow`), sent to `sokuc-cbc` or `sokuc-highs`, a helper process that solves it (see
//! [`super::helper`] for why a process, and why separate programs). What follows says CBC;
//! HiGHS gets the same treatment, with its own names for the settings (`settings.rs`).
//!
//! The helper is killed at the deadline (or on an interrupt, or past the memory limit), so
//! the call returns within a poll of the deadline whatever CBC was doing: its own time limit
//! (`sec`, wall-clock here) ignores its preprocessing and root LP, where it ran 5-7 s past a
//! 1 s limit (bipyramid-500) and 3 minutes past a 10 s limit (bipyramid-2000). Nothing of a
//! cut-off solve is left behind: no thread, no core, no memory, no lock for the next solve.

use std::time::{Duration, Instant};

use super::helper::{self, Answer, HelperError, Problem, Solver};
use super::rows::{column_terms, row};
use super::settings::{Settings, parameters};
use super::wide_objective::{self, DUAL_BOUND};
use crate::algorithms;
use crate::basis::Bound;
use crate::budget::Deadline;
use crate::budget::memory::over_limit;
use crate::contract::{
    Backend, BackendError, Capabilities, Improved, Method, MipSettings, Optimum, Outcome, SolveOptions, SolveStats,
};
use crate::encode::EncodeError;
use crate::ir::digits::{self, Columns};
use crate::ir::{Constraint, Linear, Lit, PbFormula, Status, Var};
use crate::limits::{
    HIGHS_ROW_LIMIT_BITS, MIP_EXACT_ROW_LIMIT, MIP_OBJECTIVE_LIMIT, MIP_ROW_LIMIT, MIP_ROW_LIMIT_BITS, row_at_least,
};

/// Bytes per nonzero and per column of the model: good_lp's expressions, our rows, CBC's
/// copies, its preprocessing and its search tree. Measured peaks after 20 s on random
/// bipyramids: 258 MB for bipyramid-200 (these figures say 270), 398 MB for bipyramid-500
/// (650), 1.2 GB for bipyramid-2000 after 3 minutes (1.7 GB).
const BYTES_PER_NONZERO: u64 = 1200;
const BYTES_PER_COLUMN: u64 = 3000;

/// From which share of CBC's own time limit a helper that exits without an answer is taken
/// as CBC's library ending it at that limit (it ended 0.5 s before a 13.2 s limit on
/// fast0507): an `unknown`, not an internal error.
const QUIET_AT: f64 = 0.8;

/// How often building the model looks at the clock, in rows.
const ROWS_PER_LOOK: usize = 1024;

/// How often the wait for CBC looks at the clock, the interrupt flag and the helper's
/// resident size.
const POLL: Duration = Duration::from_millis(20);

/// What `mip` and `highs` can do.
pub(super) const CAPABILITIES: Capabilities = Capabilities {
    time_limit: true,
    // The child is killed when the flag is set, as at the deadline.
    interrupt: true,
    assumptions: true,
    incremental: false,
    rhs_changes: false,
    proof: false,
    seed: true,
    parallel: false,
};

/// when the solver finished, or the best point it had when it stopped at its time limit,
/// which comes a little before the deadline (see [`Attempt::run`]). An objective too wide
/// for the solver's tolerances and its gap (see `MIP_OBJECTIVE_LIMIT`) is proven by bound
/// rows or HiGHS's dual bound instead (`super::wide_objective`, which gets [`solve`] to call:
/// `mip` uses `wide_objective`, never the other way round). What proved an optimum goes into
/// `stats.basis.bound`.
pub(super) fn optimise_with<B: Backend>(
    b: &mut B,
    solver: Solver,
    formula: &PbFormula,
    opts: &SolveOptions,
    improved: &mut Improved<'_>,
) -> Result<Optimum, BackendError> {
    let Some(objective) = &formula.objective() else {
        return algorithms::by_sessions(b, formula, opts, improved);
    };
    let w = objective
        .iter()
        .map(|&(c, _)| u128::from(c.unsigned_abs()))
        .sum::<u128>();
    if w >= MIP_OBJECTIVE_LIMIT {
        let mut solve = |f: &PbFormula, guide: &[(i64, Lit)]| solve(solver, f, opts, Some(guide));
        return wide_objective::optimise_wide(solver, formula, objective, improved, &mut solve);
    }
    let (out, proven) = solve(solver, formula, opts, Some(objective))?;
    let mut stats = out.stats;
    stats.extra.insert("optimise".into(), Method::Native.name().into());
    stats.extra.insert("solves".into(), 1.into());
    stats.extra.insert("loads".into(), 1.into());
    let status = out.status;
    if let (Status::Sat, Some(a)) = (status, &out.assignment)
        && improved(a).is_break()
    {
        return Ok(Optimum {
            status,
            optimal: false,
            stats,
        });
    }
    // The objective is narrower than `MIP_OBJECTIVE_LIMIT`: the solver's rounding drift and
    // the gap it may stop at add up to less than 1, so its finished search proves the
    // optimum of the rounded model's exact value (see `MIP_OBJECTIVE_LIMIT`).
    let optimal = status == Status::Sat && proven;
    if optimal {
        stats.basis.bound = Some(Bound::Native {
            engine: solver.backend().into(),
        });
    }
    Ok(Optimum { status, optimal, stats })
}

/// The memory limit refused, with what the model needed and when that was found.
fn memory_error(solver: Solver, needed: u64, limit: u64, when: &str) -> BackendError {
    EncodeError::memory(
        format!("the {} backend's model ({when})", solver.backend()),
        needed,
        limit,
        ", or try the search or cp backend",
    )
    .into()
}

/// The width, in bits, up to which `solver` gets rows whole (see `MIP_ROW_LIMIT` and
/// `HIGHS_ROW_LIMIT`).
fn whole_bits(solver: Solver) -> u32 {
    match solver {
        Solver::Cbc => MIP_ROW_LIMIT_BITS,
        Solver::Highs => HIGHS_ROW_LIMIT_BITS,
    }
}

/// The refusal of something the solver cannot take exactly.
fn too_wide(solver: Solver, label: &str, w: u128, bits: u32) -> BackendError {
    BackendError::Unavailable {
        backend: solver.backend(),
        message: format!(
            "{label} has coefficients adding up to {w}, past the 2^{bits} within which {}'s tolerances (10^-6 on integrality) keep it exact; use sat, cadical or search",
            solver.name()
        ),
    }
}

/// The rows CBC gets (see [`narrow`]).
enum Narrowed {
    /// The rows, over `columns` variables: the formula's, then the auxiliaries.
    Rows { rows: Vec<Linear>, columns: u32 },
    /// Splitting a row showed that nothing satisfies it.
    Fails(String),
    /// The deadline passed while splitting.
    TimedOut,
}

/// The widest digits tried, in bits: base 2^12 leaves a column of `n` terms a width of
/// about `3n·2^12`, narrow enough for rows of up to about 20 terms; longer rows get
/// narrower digits.
const WIDEST_DIGIT: u32 = 12;

/// `formula`'s rows for CBC: a row of width `limit` or more, which CBC's tolerances could
/// make inexact, is written as digit columns with carries ([`crate::ir::digits`], exact:
/// the auxiliaries are determined by the formula's variables, so no solution is added or
/// lost), in the widest base whose columns all stay below the limit. A row no base narrows
/// enough (thousands of terms) is refused.
fn narrow(solver: Solver, formula: &PbFormula, deadline: &Deadline, limit: u128) -> Result<Narrowed, BackendError> {
    let width = |r: &Linear| {
        r.terms.iter().map(|&(c, _)| u128::from(c.unsigned_abs())).sum::<u128>() + u128::from(r.rhs.unsigned_abs())
    };
    let mut columns = formula.num_vars();
    let mut out = Vec::new();
    // `linear_rows` gives one row per constraint, in order: the labels line up.
    for ((label, c), row) in formula.constraints().iter().zip(formula.linear_rows()) {
        // Clauses and groups have unit coefficients, which CBC keeps exact at any length
        // (as `row_at_least` measures them).
        let weighted = matches!(c, Constraint::Linear(_) | Constraint::SumOf { .. });
        let w = width(&row);
        if !weighted || w < limit {
            out.push(row);
            continue;
        }
        if deadline.passed() {
            return Ok(Narrowed::TimedOut);
        }
        let mut done = false;
        for k in (1..=WIDEST_DIGIT).rev() {
            let mut next = columns;
            let mut new_var = |_| {
                next += 1;
                Var(next - 1)
            };
            match digits::split_linear(&row, k, &mut new_var) {
                Columns::Holds => {}
                Columns::Fails(why) => return Ok(Narrowed::Fails(format!("constraint \"{label}\": {why}"))),
                Columns::Rows(cols) => {
                    // Columns below CBC's limit whatever the solver: HiGHS gets rows
                    // whole up to 2^32, but digit columns that wide made it fail
                    // ("HiGHS error while solving model", tests/wide_rows.rs).
                    if cols.iter().any(|c| width(c) >= limit.min(MIP_ROW_LIMIT)) {
                        continue;
                    }
                    out.extend(cols);
                }
            }
            columns = next;
            done = true;
            break;
        }
        if !done {
            return Err(too_wide(
                solver,
                &format!("constraint \"{label}\""),
                w,
                whole_bits(solver),
            ));
        }
    }
    Ok(Narrowed::Rows { rows: out, columns })
}

/// Solves `formula` on `solver`, minimising `objective` if given: the outcome, and whether
/// the solver finished its search (rather than stopping at its time limit).
pub(super) fn solve(
    solver: Solver,
    formula: &PbFormula,
    opts: &SolveOptions,
    objective: Option<&[(i64, Lit)]>,
) -> Result<(Outcome, bool), BackendError> {
    crate::contract::check_caps(CAPABILITIES, solver.backend(), opts, true)?;
    let t0 = Instant::now();
    let deadline = opts.deadline();
    // A missing helper is reported whatever the model, before anything is built.
    let explicit = match solver {
        Solver::Cbc => opts.mip_helper.as_deref(),
        Solver::Highs => opts.highs_helper.as_deref(),
    };
    let helper = helper::helper_path(solver, explicit).map_err(|e| BackendError::Unavailable {
        backend: solver.backend(),
        message: e.to_string(),
    })?;
    let whole = 1u128 << whole_bits(solver);
    let first = match solve_narrowed(solver, formula, opts, objective, &helper, &deadline, t0, whole) {
        // HiGHS failing on rows it got whole past CBC's limit: once more with them split,
        // the model CBC gets.
        Err(BackendError::Solver { .. }) if whole > MIP_ROW_LIMIT && row_at_least(formula, MIP_ROW_LIMIT).is_some() => {
            solve_narrowed(solver, formula, opts, objective, &helper, &deadline, t0, MIP_ROW_LIMIT)?
        }
        other => other?,
    };
    // Rows between the exact limit and the solver's whole-row limit went whole: its model,
    // rounded, may break one (see `MIP_ROW_LIMIT`). CBC's "infeasible" and its bound stand as they are:
    // its tolerances only let in more points, never fewer.
    let broken = match (&first.0.status, &first.0.assignment) {
        (Status::Sat, Some(a)) if row_at_least(formula, MIP_EXACT_ROW_LIMIT).is_some() => formula
            .evaluate(&a[..formula.num_vars() as usize])
            .err()
            .map(|v| v.label),
        _ => None,
    };
    let Some(broken) = broken else {
        return Ok(first);
    };
    let (mut again, finished) = solve_narrowed(
        solver,
        formula,
        opts,
        objective,
        &helper,
        &deadline,
        Instant::now(),
        MIP_EXACT_ROW_LIMIT,
    )?;
    again.stats.build_ms += first.0.stats.build_ms;
    again.stats.solve_ms += first.0.stats.solve_ms;
    again.stats.extra.insert(
        format!("{}_first_run", solver.backend()),
        format!("its model, rounded, broke constraint \"{broken}\"; solved again with rows of width 2^18 or more as digit columns").into(),
    );
    Ok((again, finished))
}

/// [`solve`] with the rows of width `row_limit` or more as digit columns.
#[allow(clippy::too_many_arguments)]
fn solve_narrowed(
    solver: Solver,
    formula: &PbFormula,
    opts: &SolveOptions,
    objective: Option<&[(i64, Lit)]>,
    helper: &std::path::Path,
    deadline: &Deadline,
    t0: Instant,
    row_limit: u128,
) -> Result<(Outcome, bool), BackendError> {
    let limit = opts.encode.max_memory;
    let (all, columns) = match narrow(solver, formula, deadline, row_limit)? {
        Narrowed::Rows { rows, columns } => (rows, columns),
        Narrowed::TimedOut => {
            let stats = SolveStats {
                vars: formula.num_vars() as u64,
                build_ms: t0.elapsed().as_secs_f64() * 1e3,
                ..Default::default()
            };
            return Ok((Outcome::unknown(stats), false));
        }
        Narrowed::Fails(why) => {
            let mut out = Outcome::unknown(SolveStats {
                vars: formula.num_vars() as u64,
                build_ms: t0.elapsed().as_secs_f64() * 1e3,
                ..Default::default()
            });
            out.status = Status::Unsat;
            out.stats.extra.insert("refuted".into(), why.into());
            return Ok((out, true));
        }
    };
    let nonzeros: u64 = all.iter().map(|r| r.terms.len() as u64).sum::<u64>() + opts.assumptions.len() as u64;
    let model = nonzeros
        .saturating_mul(BYTES_PER_NONZERO)
        .saturating_add(u64::from(columns).saturating_mul(BYTES_PER_COLUMN));
    if let Some(needed) = over_limit(model, limit) {
        return Err(memory_error(solver, needed, limit, "estimated before building"));
    }
    let at = Attempt {
        solver,
        formula,
        opts,
        objective,
        helper,
        rows: &all,
        columns,
        limit,
    };
    // The light settings are CBC's: HiGHS gets its defaults.
    let first = if solver == Solver::Highs {
        match at.run(deadline, Settings::Full, t0) {
            // HiGHS's presolve has failed on digit columns with carries ("HiGHS error while
            // solving model", tests/wide_rows.rs); without presolve and scaling it solved
            // them.
            Err(BackendError::Solver { .. }) => at.run(deadline, Settings::Unscaled, Instant::now())?,
            other => other?,
        }
    } else if objective.is_some() {
        at.run(deadline, Settings::Full, t0)?
    } else {
        match opts.mip {
            MipSettings::Staged => staged(&at, deadline, t0)?,
            MipSettings::Light => at.run(deadline, Settings::Light, t0)?,
            MipSettings::Full => at.run(deadline, Settings::Full, t0)?,
        }
    };
    confirmed(&at, deadline, first)
}

/// A feasibility problem first gets CBC without strong branching, heuristics and cuts for a
/// short slice, then, if that did not settle it, CBC's defaults for the rest.
fn staged(at: &Attempt<'_>, deadline: &Deadline, t0: Instant) -> Result<(Outcome, bool), BackendError> {
    let (light, finished) = at.run(&deadline.sooner(LIGHT_SLICE), Settings::Light, t0)?;
    if light.status != Status::Unknown || deadline.passed() {
        return Ok((light, finished));
    }
    let (mut full, finished) = at.run(deadline, Settings::Full, Instant::now())?;
    full.stats.build_ms += light.stats.build_ms;
    full.stats.solve_ms += light.stats.solve_ms;
    Ok((full, finished))
}

/// CBC's "infeasible" stands only when a second run, with CLP's scaling and presolve off,
/// says it too. CBC's first LP solve, scaled, has called feasible 0/1 programs infeasible: a
/// chain of digit-column rows with carries (`tests/pb_bigint.rs` found it; HiGHS and every
/// other backend solve it, and so does CBC with scaling off). A solution from the second run
/// is an answer like any other (the run path verifies it); a second "infeasible" is CBC's
/// claim, noted in `stats.extra.confirmed`; no verdict in time is `unknown`, not an
/// unconfirmed unsat.
fn confirmed(at: &Attempt<'_>, deadline: &Deadline, first: (Outcome, bool)) -> Result<(Outcome, bool), BackendError> {
    let (out, finished) = first;
    let key = at.solver.backend();
    let name = at.solver.name();
    if out.status != Status::Unsat || out.stats.extra.get(key) != Some(&serde_json::Value::from("infeasible")) {
        return Ok((out, finished));
    }
    let (mut again, finished) = at.run(deadline, Settings::Unscaled, Instant::now())?;
    again.stats.build_ms += out.stats.build_ms;
    again.stats.solve_ms += out.stats.solve_ms;
    match again.status {
        Status::Unsat => {
            again.stats.extra.insert(
                "confirmed".into(),
                format!("{name} said infeasible twice: with its defaults, then with scaling and presolve off").into(),
            );
        }
        Status::Sat => {
            again.stats.extra.insert(
                format!("{key}_first_run"),
                "infeasible (wrong: the run with scaling and presolve off found this solution)".into(),
            );
        }
        Status::Unknown => {}
    }
    again.stats.extra.remove(key);
    Ok((again, finished))
}

/// How long the light settings get before a feasibility problem is handed to CBC's
/// defaults: past icosoku100's slowest light solve (168 ms) with room for a slow machine.
const LIGHT_SLICE: Duration = Duration::from_millis(1000);

/// What every attempt on one formula shares.
struct Attempt<'a> {
    solver: Solver,
    formula: &'a PbFormula,
    opts: &'a SolveOptions,
    objective: Option<&'a [(i64, Lit)]>,
    /// The helper program.
    helper: &'a std::path::Path,
    rows: &'a [Linear],
    /// The formula's variables, then the digit columns' auxiliaries.
    columns: u32,
    limit: u64,
}

impl Attempt<'_> {
    fn stats(&self, build: Duration, solve: Duration) -> SolveStats {
        SolveStats {
            vars: u64::from(self.columns),
            clauses: self.rows.len() as u64,
            build_ms: build.as_secs_f64() * 1e3,
            solve_ms: solve.as_secs_f64() * 1e3,
            ..Default::default()
        }
    }

    /// One CBC solve with `settings` until `deadline`; `t0` starts its build time.
    fn run(&self, deadline: &Deadline, settings: Settings, t0: Instant) -> Result<(Outcome, bool), BackendError> {
        let Attempt {
            solver,
            formula,
            opts,
            objective,
            helper,
            rows: all,
            columns,
            limit,
        } = *self;
        let stats = |build, solve| self.stats(build, solve);
        let too_much = |needed: u64, when: &str| -> BackendError { memory_error(solver, needed, limit, when) };
        let unknown = || Outcome::unknown(stats(t0.elapsed(), Duration::ZERO));
        // Decided exactly before CBC runs (an empty row that cannot hold, assumptions of both
        // signs on one variable): not CBC's claim, so `confirmed` leaves it alone.
        let refuted = || Outcome {
            status: Status::Unsat,
            assignment: None,
            stats: stats(t0.elapsed(), Duration::ZERO),
        };
        // One binary column per variable; assumptions fix columns through their bounds.
        let n = columns as usize;
        let mut p = Problem {
            col_lower: vec![0.0; n],
            col_upper: vec![1.0; n],
            integer: vec![true; n],
            ..Default::default()
        };
        for &l in &opts.assumptions {
            let j = l.var().index();
            if l.is_positive() {
                p.col_lower[j] = 1.0;
            } else {
                p.col_upper[j] = 0.0;
            }
        }
        if let Some(terms) = objective {
            p.objective = vec![0.0; n];
            for (j, c) in column_terms(terms).0 {
                p.objective[j as usize] = c;
            }
        }
        for (i, r) in all.iter().enumerate() {
            if i % ROWS_PER_LOOK == ROWS_PER_LOOK - 1 && deadline.passed() {
                return Ok((unknown(), false));
            }
            let (terms, lo, up) = row(r);
            if terms.is_empty() {
                // Decided here: CBC takes no empty row.
                if lo > 0.0 || up < 0.0 {
                    return Ok((refuted(), true));
                }
                continue;
            }
            p.rows.push((terms, lo, up));
        }
        if p.col_lower.iter().zip(&p.col_upper).any(|(lo, up)| lo > up) {
            // Assumptions of both signs on one variable.
            return Ok((refuted(), true));
        }
        // The cardinality rows knapsack rows imply (`rows.rs`), on 0/1 columns.
        let cards = if columns == formula.num_vars() {
            super::rows::implied(&p.rows, n)
        } else {
            vec![]
        };
        let added = cards.len();
        p.rows.extend(cards);
        if p.rows.is_empty() {
            // No row left (all were empty and hold): every column is free within its
            // bounds and takes the one its objective coefficient prefers, which is optimal.
            // Decided here: HiGHS refuses a model without rows ("ModelEmpty").
            let values = (0..formula.num_vars() as usize)
                .map(|j| {
                    let c = p.objective.get(j).copied().unwrap_or(0.0);
                    if c < 0.0 {
                        p.col_upper[j] > 0.5
                    } else {
                        p.col_lower[j] > 0.5
                    }
                })
                .collect();
            let out = Outcome {
                status: Status::Sat,
                assignment: Some(values),
                stats: stats(t0.elapsed(), Duration::ZERO),
            };
            return Ok((out, true));
        }
        if deadline.passed() {
            return Ok((unknown(), false));
        }
        // CBC's own limit, wall-clock: the time left. Only a courtesy (CBC overruns it in its
        // preprocessing and root LP); the deadline is kept by killing the helper. When
        // optimising, CBC stops a little before the deadline on its own, so that it hands
        // back its best point instead of being killed with it.
        let own_limit = deadline.remaining().map(|left| {
            if objective.is_some() {
                left.mul_f64(0.9).saturating_sub(Duration::from_millis(100))
            } else {
                left
            }
        });
        p.parameters = parameters(solver, settings, objective.is_some(), opts.seed, own_limit);
        // HiGHS on a feasibility problem: steered by the row that looks like an objective
        // bound, if there is one (see `guide.rs`). Not where rows became digit columns:
        // a digit column steered nowhere and held HiGHS for minutes on formulas of five
        // variables (tests/wide_rows.rs).
        let guide = (solver == Solver::Highs && objective.is_none() && columns == formula.num_vars())
            .then(|| super::guide::guide(&p.rows, formula.num_vars() as usize))
            .flatten();
        if let Some(g) = &guide {
            p.objective = vec![0.0; n];
            for &(j, c) in &g.objective {
                p.objective[j as usize] = c;
            }
            // A point is all a feasibility problem asks for: HiGHS stops at its first.
            p.parameters
                .push(("objective_bound".into(), format!("{:.3}", g.cutoff)));
            p.parameters.push(("mip_max_improving_sols".into(), "1".into()));
        }
        let build = t0.elapsed();
        let t1 = Instant::now();
        let backend = solver.backend();
        let failed = |e: HelperError| match e {
            HelperError::Unavailable(message) => BackendError::Unavailable { backend, message },
            HelperError::Failed(message) => BackendError::Solver { backend, message },
            e @ HelperError::Quiet => BackendError::Solver {
                backend,
                message: e.to_string(),
            },
        };
        let mut running = helper::start(solver, helper, &p).map_err(failed)?;
        drop(p);
        let answer = loop {
            let wait = deadline.remaining().map_or(POLL, |t| t.min(POLL));
            match running.wait(wait) {
                Ok(Some(a)) => break a,
                Ok(None) => {}
                // A helper killed by a signal meant for the whole process group (a terminal's
                // Ctrl-C, a job control's SIGTERM) while the interrupt stops this solve.
                Err(_) if deadline.passed() => {
                    drop(running);
                    return Ok((Outcome::unknown(stats(build, t1.elapsed())), false));
                }
                // CBC's library ended the helper near CBC's own time limit: no answer in
                // time, not a failure.
                Err(HelperError::Quiet) if own_limit.is_some_and(|l| t1.elapsed() >= l.mul_f64(QUIET_AT)) => {
                    let mut out = Outcome::unknown(stats(build, t1.elapsed()));
                    out.stats.extra.insert(
                        backend.into(),
                        "its process ended at its own time limit without an answer".into(),
                    );
                    return Ok((out, false));
                }
                Err(e) => return Err(failed(e)),
            }
            if deadline.passed() {
                // Killed and reaped here, before the answer goes out.
                drop(running);
                return Ok((Outcome::unknown(stats(build, t1.elapsed())), false));
            }
            if let Some(rss) = running.resident_bytes().filter(|&r| r > limit) {
                drop(running);
                return Err(too_much(rss, &format!("while {} was solving", solver.name())));
            }
        };
        drop(running);
        let stats = stats(build, t1.elapsed());
        let claimed_infeasible = answer == Answer::Infeasible;
        let mut dual_bound = None;
        let (status, assignment, finished) = match answer {
            Answer::Infeasible => (Status::Unsat, None, true),
            Answer::TimeLimit => (Status::Unknown, None, false),
            Answer::Error(message) => return Err(BackendError::Solver { backend, message }),
            Answer::Solution {
                values,
                time_limit,
                bound,
            } => {
                dual_bound = bound;
                if values.len() != n {
                    return Err(BackendError::Solver {
                        backend,
                        message: format!(
                            "{}'s process sent {} column values for {n} columns",
                            solver.name(),
                            values.len()
                        ),
                    });
                }
                // The formula's own variables: the auxiliaries of digit columns are its
                // rows' business only.
                let values: Vec<bool> = values[..formula.num_vars() as usize].iter().map(|&v| v > 0.5).collect();
                // On its own time limit CBC hands back whatever columns it has: only a
                // feasible point counts as an answer.
                if time_limit && formula.evaluate(&values).is_err() {
                    (Status::Unknown, None, false)
                } else {
                    (Status::Sat, Some(values), !time_limit)
                }
            }
        };
        let mut out = Outcome {
            status,
            assignment,
            stats,
        };
        if let Some(g) = &guide {
            out.stats.extra.insert(
                format!("{backend}_guide"),
                format!("minimised the row of {} terms, its bound as a cutoff", g.terms).into(),
            );
        }
        if added > 0 {
            out.stats
                .extra
                .insert(format!("{backend}_cardinality_rows"), added.into());
        }
        if let Some(b) = dual_bound.filter(|_| objective.is_some()) {
            // The solver's word, which only `wide_objective.rs` weighs, on exact numbers: a
            // bound on the objective's column terms, without the constant its negated
            // literals leave (`column_terms`).
            out.stats.extra.insert(DUAL_BOUND.into(), b.into());
        }
        if claimed_infeasible {
            // The solver's claim, which `confirmed` asks again about.
            out.stats.extra.insert(backend.into(), "infeasible".into());
        }
        Ok((out, finished))
    }
}

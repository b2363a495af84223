//! `sokuc-highs`: the `highs` backend's helper. It reads one model from standard input (the
//! format of `sokuc_mip_wire::Problem`), solves it with HiGHS (the `highs`
//! crate that good_lp's HiGHS solver wraps), writes HiGHS's verdict to standard output and
//! exits. Not meant to be run by hand; `sokuc` starts it, and kills it at the deadline (see
//! `crates/engines/src/mip/helper.rs`).
//!
//! Only this program holds HiGHS, so no other command pays for loading it.

use highs::{Col, HighsModelStatus, HighsSolutionStatus, RowProblem, Sense};
use sokuc_mip_wire::{self as helper, Problem};

/// The HiGHS that highs-sys builds (its `Version.txt`); the crates give no version.
const HIGHS_VERSION: &str = "1.16.0";

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--version") {
        println!("sokuc-highs {} (HiGHS {HIGHS_VERSION})", env!("CARGO_PKG_VERSION"));
        return;
    }
    helper::serve("sokuc-highs", solve);
}

/// Sets one option, typed as HiGHS types it: the wire carries text, and HiGHS refuses a
/// value of the wrong type. A number with a point is a float (`"5.000"`, `"0.0"`), one without
/// an integer.
fn set(model: &mut highs::Model, k: &str, v: &str) -> Result<(), highs::TrySetOptionError> {
    if let Ok(b) = v.parse::<bool>() {
        model.try_set_option(k, b)
    } else if let (false, Ok(i)) = (v.contains('.'), v.parse::<i32>()) {
        model.try_set_option(k, i)
    } else if let Ok(f) = v.parse::<f64>() {
        model.try_set_option(k, f)
    } else {
        model.try_set_option(k, v)
    }
}

fn solve(p: &Problem) -> Vec<u8> {
    // Built for HiGHS directly, not through good_lp: good_lp's solution keeps HiGHS's dual
    // bound to itself, and the parent needs it to judge an optimum on its exact numbers
    // (`wide_objective.rs`).
    let mut problem = RowProblem::default();
    let cols: Vec<Col> = (0..p.num_cols())
        .map(|j| {
            let cost = p.objective.get(j).copied().unwrap_or(0.0);
            problem.add_column_with_integrality(cost, p.col_lower[j]..=p.col_upper[j], p.integer[j])
        })
        .collect();
    let mut terms: Vec<(u32, f64)> = Vec::new();
    for (row, lo, up) in &p.rows {
        // One entry per column, as HiGHS wants its matrix: repeated columns add up.
        terms.clear();
        terms.extend(row.iter().copied());
        terms.sort_unstable_by_key(|t| t.0);
        terms.dedup_by(|next, kept| {
            let same = next.0 == kept.0;
            if same {
                kept.1 += next.1;
            }
            same
        });
        let Some(entries) = terms
            .iter()
            .filter(|t| t.1 != 0.0)
            .map(|&(j, c)| cols.get(j as usize).map(|&col| (col, c)))
            .collect::<Option<Vec<_>>>()
        else {
            return helper::message(helper::ERROR, b"a row names a column the model does not have");
        };
        problem.add_row(*lo..=*up, entries);
    }
    let mut model = match problem.try_optimise(Sense::Minimise) {
        Ok(m) => m,
        Err(e) => return helper::message(helper::ERROR, format!("HiGHS refused the model: {e:?}").as_bytes()),
    };
    // HiGHS logs to standard output, which carries the answer: its log is off before
    // anything else.
    for (k, v) in [("output_flag", "false"), ("log_to_console", "false")]
        .into_iter()
        .chain(p.parameters.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    {
        if set(&mut model, k, v).is_err() {
            return helper::message(helper::ERROR, format!("HiGHS refused its option {k} = {v}").as_bytes());
        }
    }
    let solved = match model.try_solve() {
        Ok(s) => s,
        Err(e) => {
            return helper::message(
                helper::ERROR,
                format!("HiGHS error while solving model: {e:?}").as_bytes(),
            );
        }
    };
    let status = solved.status();
    let values = || -> Vec<f64> {
        let solution = solved.get_solution();
        cols.iter()
            .map(|c| solution.columns().get(c.index()).copied().unwrap_or(f64::NAN))
            .collect()
    };
    let has_point = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    match status {
        HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible => {
            helper::message(helper::INFEASIBLE, &[])
        }
        // A finished search, and with an objective the dual bound with it: on the columns'
        // costs as the parent sent them, which leave out the constant of the objective's
        // negated literals (the parent adds it before it judges the bound).
        HighsModelStatus::Optimal | HighsModelStatus::ObjectiveBound | HighsModelStatus::ObjectiveTarget
            if has_point =>
        {
            let bound = solved
                .double_info_value(c"mip_dual_bound")
                .ok()
                .filter(|b| b.is_finite());
            match bound {
                Some(b) if p.objective.iter().any(|&c| c != 0.0) => {
                    helper::message(helper::SOLUTION_BOUNDED, &helper::bounded_payload(b, &values()))
                }
                _ => helper::message(helper::SOLUTION, &helper::values_payload(&values())),
            }
        }
        // Stopped at a limit with a point: the parent keeps it only if it holds.
        HighsModelStatus::ReachedTimeLimit
        | HighsModelStatus::ReachedSolutionLimit
        | HighsModelStatus::ReachedInterrupt
        | HighsModelStatus::ReachedIterationLimit
        | HighsModelStatus::ReachedMemoryLimit
            if has_point =>
        {
            helper::message(helper::SOLUTION_AT_LIMIT, &helper::values_payload(&values()))
        }
        // A limit reached with no point, or a finished search that kept none: no answer
        // either way, never a verdict.
        HighsModelStatus::ReachedTimeLimit
        | HighsModelStatus::ReachedSolutionLimit
        | HighsModelStatus::ReachedInterrupt
        | HighsModelStatus::ReachedIterationLimit
        | HighsModelStatus::ReachedMemoryLimit
        | HighsModelStatus::Optimal
        | HighsModelStatus::ObjectiveBound
        | HighsModelStatus::ObjectiveTarget
        | HighsModelStatus::Unknown => helper::message(helper::TIME_LIMIT, &[]),
        other => helper::message(helper::ERROR, format!("HiGHS: model status {other:?}").as_bytes()),
    }
}

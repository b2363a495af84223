//! `sokuc-cbc`: the `mip` backend's helper. It reads one model from standard input (the
//! format of `sokuc_mip_wire::Problem`), models it with good_lp, solves it with
//! good_lp's CBC solver, writes CBC's verdict to standard output and exits. Not meant to be
//! run by hand; `sokuc` starts it, and kills it at the deadline (see
//! `crates/engines/src/mip/helper.rs`).
//!
//! Only this program links CBC, so no other command pays for loading it.

use good_lp::solvers::coin_cbc::{CoinCbcSolution, coin_cbc};
use good_lp::{ResolutionError, Solution, SolutionStatus, SolverModel, Variable};
use sokuc_mip_wire::{self as helper, Problem};

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--version") {
        println!("sokuc-cbc {} (CBC {})", env!("CARGO_PKG_VERSION"), coin_cbc_version());
        return;
    }
    helper::serve("sokuc-cbc", solve);
}

fn coin_cbc_version() -> String {
    // good_lp gives no version; the library's own is a function of the raw model.
    coin_cbc::raw::Model::version().to_string()
}

fn solve(p: &Problem) -> Vec<u8> {
    let (vars, cols, objective, rows) = good_lp_model(p);
    let mut model = vars.minimise(objective).using(coin_cbc);
    model.set_parameter("log", "0");
    model.set_log_level(0);
    for (k, v) in &p.parameters {
        model.set_parameter(k, v);
    }
    for row in rows {
        model.add_constraint(row);
    }
    // CBC writes some messages whatever its log level; the parent reads only the answer on
    // standard output, and CBC's go to standard error.
    match model.solve() {
        Ok(sol) => answer(&sol, &cols),
        Err(ResolutionError::Infeasible) => helper::message(helper::INFEASIBLE, &[]),
        Err(e) => helper::message(helper::ERROR, format!("CBC: {e}").as_bytes()),
    }
}

/// CBC's verdict for a solve that good_lp reports as a solution: good_lp calls a finished
/// search a solution even when CBC found none, so the raw statuses decide.
fn answer(sol: &CoinCbcSolution, cols: &[Variable]) -> Vec<u8> {
    use coin_cbc::raw::SecondaryStatus;
    let raw = sol.model();
    let values: Vec<f64> = cols.iter().map(|&c| sol.value(c)).collect();
    let at_limit = matches!(sol.status(), SolutionStatus::TimeLimit);
    match raw.secondary_status() {
        // The linear relaxation is infeasible, so the integer program is too (no cutoff is
        // ever set, which would also give this status).
        SecondaryStatus::LinearRelaxationInfeasible => helper::message(helper::INFEASIBLE, &[]),
        SecondaryStatus::HasSolution | SecondaryStatus::Unlaunched if !at_limit => {
            helper::message(helper::SOLUTION, &helper::values_payload(&values))
        }
        // Within the absolute gap the parent allows: on the objectives whose optimum it takes
        // from CBC, gap plus rounding drift is below 1, so nothing better exists
        // (`MIP_OBJECTIVE_LIMIT`).
        SecondaryStatus::StoppedOnGap if !at_limit => {
            helper::message(helper::SOLUTION, &helper::values_payload(&values))
        }
        // Whatever point CBC had at its time limit; the parent keeps it only if it is
        // feasible.
        SecondaryStatus::StoppedOnTime => helper::message(helper::SOLUTION_AT_LIMIT, &helper::values_payload(&values)),
        other => helper::message(
            helper::ERROR,
            format!(
                "CBC stopped with status {:?}, secondary status {}",
                raw.status(),
                other as i32
            )
            .as_bytes(),
        ),
    }
}

/// The model `sokuc-cbc` gives good_lp: the columns with their bounds and integrality, the
/// objective (zero for a feasibility problem), and each row as one or two constraints.
fn good_lp_model(
    p: &Problem,
) -> (
    good_lp::ProblemVariables,
    Vec<Variable>,
    good_lp::Expression,
    Vec<good_lp::Constraint>,
) {
    use good_lp::{Expression, Variable, constraint, variable, variables};
    let expression = |cols: &[Variable], terms: &mut dyn Iterator<Item = (usize, f64)>| {
        let mut e = Expression::default();
        for (j, c) in terms {
            e.add_mul(c, cols[j]);
        }
        e
    };
    let mut vars = variables!();
    let cols: Vec<Variable> = (0..p.num_cols())
        .map(|j| {
            let mut def = variable().min(p.col_lower[j]).max(p.col_upper[j]);
            if p.integer[j] {
                def = def.integer();
            }
            vars.add(def)
        })
        .collect();
    let objective = expression(
        &cols,
        &mut p.objective.iter().copied().enumerate().filter(|&(_, c)| c != 0.0),
    );
    let mut rows = Vec::with_capacity(p.rows.len().min(helper::RESERVE_AT_MOST));
    for (terms, lo, up) in &p.rows {
        let e = expression(&cols, &mut terms.iter().map(|&(j, c)| (j as usize, c)));
        if lo == up {
            rows.push(constraint!(e == *up));
            continue;
        }
        if up.is_finite() {
            rows.push(constraint!(e.clone() <= *up));
        }
        if lo.is_finite() {
            rows.push(constraint!(e >= *lo));
        }
    }
    (vars, cols, objective, rows)
}

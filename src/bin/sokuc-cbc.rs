//! `sokuc-cbc`: the `mip` backend's helper. It reads one model from standard input (the
//! format of `sokuc::backend::cbc::Problem`), models it with good_lp, solves it with good_lp's
//! CBC solver, writes CBC's verdict to standard output and exits. Not meant to be run by
//! hand; `sokuc` starts it, and kills it at the deadline (see `src/backend/cbc.rs`).
//!
//! Only this program links CBC, so no other command pays for loading it.

use std::io::Write;

use good_lp::solvers::coin_cbc::{CoinCbcSolution, coin_cbc};
use good_lp::{
    Expression, ResolutionError, Solution, SolutionStatus, SolverModel, Variable, constraint, variable, variables,
};
use sokuc::backend::cbc::{self, Problem};

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--version") {
        println!("sokuc-cbc {} (CBC {})", env!("CARGO_PKG_VERSION"), coin_cbc_version());
        return;
    }
    // Ctrl-C in a terminal reaches the whole process group, this helper too: sokuc decides
    // what an interrupt means (it writes what it found and kills this process), so the
    // signal itself is caught here and ignored.
    let ignored = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, ignored);
    let mut stdin = std::io::stdin().lock();
    let answer = match Problem::decode(&mut stdin) {
        Ok(p) => {
            drop(stdin);
            // The parent keeps our standard input open while it waits: its end (the parent
            // ended, or gave the solve up) means nobody wants the answer any more.
            std::thread::spawn(|| {
                let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
                std::process::exit(3);
            });
            solve(&p)
        }
        Err(e) => cbc::message(cbc::ERROR, format!("sokuc-cbc: {e}").as_bytes()),
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&answer).and_then(|()| out.flush());
}

fn coin_cbc_version() -> String {
    // good_lp gives no version; the library's own is a function of the raw model.
    coin_cbc::raw::Model::version().to_string()
}

/// `Σ c·x` over the columns.
fn expression(cols: &[Variable], terms: &[(u32, f64)]) -> Expression {
    let mut e = Expression::with_capacity(terms.len());
    for &(j, c) in terms {
        e.add_mul(c, cols[j as usize]);
    }
    e
}

fn solve(p: &Problem) -> Vec<u8> {
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
    let objective = if p.objective.is_empty() {
        Expression::default()
    } else {
        let terms: Vec<(u32, f64)> = p
            .objective
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0.0)
            .map(|(j, &c)| (j as u32, c))
            .collect();
        expression(&cols, &terms)
    };
    let mut model = vars.minimise(objective).using(coin_cbc);
    model.set_parameter("log", "0");
    model.set_log_level(0);
    for (k, v) in &p.parameters {
        model.set_parameter(k, v);
    }
    for (terms, lo, up) in &p.rows {
        let e = expression(&cols, terms);
        if lo == up {
            model.add_constraint(constraint!(e == *up));
            continue;
        }
        if up.is_finite() {
            model.add_constraint(constraint!(e.clone() <= *up));
        }
        if lo.is_finite() {
            model.add_constraint(constraint!(e >= *lo));
        }
    }
    // CBC writes some messages whatever its log level; the parent reads only the answer on
    // standard output, and CBC's go to standard error.
    match model.solve() {
        Ok(sol) => answer(&sol, &cols),
        Err(ResolutionError::Infeasible) => cbc::message(cbc::INFEASIBLE, &[]),
        Err(e) => cbc::message(cbc::ERROR, format!("CBC: {e}").as_bytes()),
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
        SecondaryStatus::LinearRelaxationInfeasible => cbc::message(cbc::INFEASIBLE, &[]),
        SecondaryStatus::HasSolution | SecondaryStatus::Unlaunched if !at_limit => {
            cbc::message(cbc::SOLUTION, &cbc::values_payload(&values))
        }
        // An absolute gap below 1/2 on an integer objective: nothing better exists.
        SecondaryStatus::StoppedOnGap if !at_limit => cbc::message(cbc::SOLUTION, &cbc::values_payload(&values)),
        // Whatever point CBC had at its time limit; the parent keeps it only if it is
        // feasible.
        SecondaryStatus::StoppedOnTime => cbc::message(cbc::SOLUTION_AT_LIMIT, &cbc::values_payload(&values)),
        other => cbc::message(
            cbc::ERROR,
            format!(
                "CBC stopped with status {:?}, secondary status {}",
                raw.status(),
                other as i32
            )
            .as_bytes(),
        ),
    }
}

//! `sokuc-highs`: the `highs` backend's helper. It reads one model from standard input (the
//! format of `sokuc::backend::helper::Problem`), models it with good_lp, solves it with
//! good_lp's HiGHS solver, writes HiGHS's verdict to standard output and exits. Not meant to
//! be run by hand; `sokuc` starts it, and kills it at the deadline (see
//! `src/backend/helper.rs`).
//!
//! Only this program holds HiGHS, so no other command pays for loading it.

use good_lp::solvers::highs::{HighsOptionValue, highs};
use good_lp::{ResolutionError, Solution, SolutionStatus, SolverModel};
use sokuc::backend::helper::{self, Problem};

/// The HiGHS that highs-sys builds (its `Version.txt`); good_lp gives no version.
const HIGHS_VERSION: &str = "1.16.0";

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--version") {
        println!("sokuc-highs {} (HiGHS {HIGHS_VERSION})", env!("CARGO_PKG_VERSION"));
        return;
    }
    helper::serve("sokuc-highs", solve);
}

/// An option's value as HiGHS types it: the wire carries text, and HiGHS refuses a value of
/// the wrong type. A number with a point is a float (`"5.000"`, `"0.0"`), one without an
/// integer.
fn typed(v: &str) -> HighsOptionValue {
    if let Ok(b) = v.parse::<bool>() {
        HighsOptionValue::Bool(b)
    } else if let (false, Ok(i)) = (v.contains('.'), v.parse::<i32>()) {
        HighsOptionValue::Int(i)
    } else if let Ok(f) = v.parse::<f64>() {
        HighsOptionValue::Float(f)
    } else {
        HighsOptionValue::String(v.to_string())
    }
}

fn solve(p: &Problem) -> Vec<u8> {
    let (vars, cols, objective, rows) = helper::good_lp_model(p);
    // HiGHS logs to standard output, which carries the answer: its log is off before
    // anything else.
    let mut model = vars
        .minimise(objective)
        .using(highs)
        .set_option("output_flag", false)
        .set_option("log_to_console", false);
    for (k, v) in &p.parameters {
        model = model.set_option(k.as_str(), typed(v));
    }
    for row in rows {
        model.add_constraint(row);
    }
    match model.solve() {
        Ok(sol) => {
            let values: Vec<f64> = cols.iter().map(|&c| sol.value(c)).collect();
            match sol.status() {
                // A finished search; with an objective, a gap the parent's options make
                // final (an absolute gap below 1/2 on an integer objective).
                SolutionStatus::Optimal | SolutionStatus::GapLimit => {
                    helper::message(helper::SOLUTION, &helper::values_payload(&values))
                }
                // Stopped at a limit with a point: the parent keeps it only if it holds.
                SolutionStatus::TimeLimit => {
                    helper::message(helper::SOLUTION_AT_LIMIT, &helper::values_payload(&values))
                }
            }
        }
        Err(ResolutionError::Infeasible) => helper::message(helper::INFEASIBLE, &[]),
        // good_lp's words for a limit reached with no point, and for a status it does not
        // know: no answer either way, never a verdict.
        Err(ResolutionError::Other("NoSolutionFound" | "Unknown")) => helper::message(helper::TIME_LIMIT, &[]),
        Err(e) => helper::message(helper::ERROR, format!("HiGHS: {e}").as_bytes()),
    }
}

//! `decode`: an external solver's answer for an exported model, turned into the same
//! outcome `solve` prints. The answer goes through the same [`super::finish`] as an
//! in-process backend's, but here a failed check is the file's fault (exit 2), not sokuc's.

use crate::input::{InputError, answer};
use crate::ir::{Status, Var};
use crate::puzzle::{Answer, CompileOptions, Puzzle};

/// Reads the answer in `text` (SAT-competition `s`/`v` lines, a CBC or a HiGHS solution
/// file) for `p` compiled with `opts`, and checks it.
pub fn decode<P: Puzzle>(
    p: &P,
    opts: &CompileOptions,
    file: &str,
    text: &str,
) -> Result<Answer<P::Solution>, InputError> {
    let compiled = p.compile(opts);
    let names = || compiled.as_ref().map(|c| p.names(c)).unwrap_or_default();
    let ans = if answer::looks_like_highs(text) {
        answer::parse_highs_solution(file, text, &names())?
    } else if answer::looks_like_cbc(text) {
        answer::parse_cbc_solution(file, text, &names())?
    } else {
        answer::parse_sat_answer(file, text)?
    };
    let none = |status, reason: String, by: Option<&str>| {
        let mut e = super::gate::Ending::new(status, by.unwrap_or("external"), "external");
        e.reason = Some(reason);
        super::gate::judge(e)
    };
    let c = match (ans, compiled) {
        (answer::Answer::Unknown, _) => {
            return Ok(none(Status::Unknown, "the external solver gave no answer".into(), None));
        }
        (answer::Answer::Unsat, Ok(_)) => {
            return Ok(none(
                Status::Unsat,
                "proven by the external solver".into(),
                Some("external"),
            ));
        }
        (answer::Answer::Unsat, Err(refutation)) => {
            return Ok(none(Status::Unsat, format!("presolve: {refutation}"), Some("presolve")));
        }
        (answer::Answer::Sat(_), Err(refutation)) => {
            return Err(InputError::new(
                file,
                None,
                format!("the answer says SATISFIABLE, but presolve proves the instance unsatisfiable: {refutation}"),
            ));
        }
        (answer::Answer::Sat(vals), Ok(c)) => (vals, c),
    };
    let (vals, c) = c;
    let n = p.formula(&c).num_vars() as usize;
    if vals.len() < n {
        return Err(InputError::new(
            file,
            None,
            format!(
                "the answer gives {} variable{} but the model has {n} primary variables (was it emitted with the same options?)",
                vals.len(),
                if vals.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    if let Some(i) = (0..n).find(|&i| vals[i].is_none()) {
        let name = p
            .names(&c)
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("{:?}", Var(i as u32)));
        return Err(InputError::new(
            file,
            None,
            format!("the answer has no value for variable {} ({name})", i + 1),
        ));
    }
    let assignment: Vec<bool> = vals.iter().take(n).map(|v| v.unwrap_or(false)).collect();
    let solution = super::assignment::finish(p, &c, &assignment).map_err(|why| {
        InputError::new(
            file,
            None,
            format!(
                "the answer is not a solution of this model (was the model emitted from this instance with the same options?): {why}"
            ),
        )
    })?;
    let mut e = super::gate::Ending::new(Status::Sat, "external", "external");
    e.solution = Some(solution);
    Ok(super::gate::judge(e))
}

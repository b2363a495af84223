//! `POST /api/check {solution}`: `sokuc check` on a solution the page holds.

use serde_json::{Value, json};

use crate::serve::reply::{Reply, error};
use crate::serve::request::Body;
use crate::serve::state::State;
use sokuc::Checked;

/// A solution as text: a string as it is, JSON as `sokuc solve --format json` printed it.
pub(super) fn solution_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(super) fn post(body: &Body, _: &State) -> Result<Reply, Reply> {
    let instance = body.instance()?;
    let solution = body
        .solution
        .as_ref()
        .ok_or_else(|| error(400, "request: missing field `solution`"))?;
    let reply = match instance
        .check("solution", &solution_text(solution))
        .map_err(|e| error(400, e.to_string()))?
    {
        Checked::Valid(what) => json!({"valid": true, "message": what}),
        Checked::Invalid(why) => json!({"valid": false, "message": why}),
    };
    Ok(Reply::json(&reply))
}

//! `POST /api/progress {job}`: how far a running request has got, for the page's progress
//! line while it counts: the faces placed of all, and the states of the layer last built.

use serde_json::json;

use crate::serve::reply::{Reply, error};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let job = body
        .job
        .as_deref()
        .ok_or_else(|| error(400, "request: missing field `job`"))?;
    Ok(Reply::json(&match state.jobs.progress(job) {
        Some(p) => json!({"running": true, "done": p.done, "total": p.total, "figure": p.figure}),
        None => json!({"running": false}),
    }))
}

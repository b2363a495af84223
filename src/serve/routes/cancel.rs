//! `POST /api/cancel {job}`: stops a running request, which then answers `unknown`.

use serde_json::json;

use crate::serve::reply::{Reply, error};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let job = body
        .job
        .as_deref()
        .ok_or_else(|| error(400, "request: missing field `job`"))?;
    Ok(Reply::json(&json!({ "cancelled": state.jobs.cancel(job) })))
}

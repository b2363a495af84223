//! `POST /api/solve`: one solve, through the library's `Instance::solve` (the run path of
//! `sokuc solve`), answering the JSON `sokuc solve --format json` prints, plus its time.

use std::time::Instant;

use crate::serve::reply::{Reply, failed};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = Instant::now();
    let instance = body.instance()?;
    let (ticket, _turn) = state.begin(body.job.as_deref(), started, body.timeout(state))?;
    // The time limit counts from the request's arrival: waiting for a turn uses it up too.
    let mut options = body
        .options(state, &ticket.flag, started)
        .backend(body.backend()?)
        .unique(body.unique.unwrap_or(false));
    if let Some(seed) = body.seed {
        options = options.seed(seed);
    }
    let outcome = instance.solve(&options).map_err(failed)?;
    let mut json = outcome.json().clone();
    json["elapsed_ms"] = ((started.elapsed().as_secs_f64() * 1e6).round() / 1e3).into();
    Ok(Reply::json(&json))
}

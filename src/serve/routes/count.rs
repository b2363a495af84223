//! `POST /api/count`: the exact count, as `sokuc count --format json` answers it; while it
//! runs, `/api/progress` with the same `job` reads how far it has got.

use serde_json::json;

use crate::serve::reply::{Reply, error, failed};
use crate::serve::request::Body;
use crate::serve::state::State;
use sokuc::{Count, Error};

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = std::time::Instant::now();
    let instance = body.instance()?;
    let (ticket, _turn) = state.begin(body.job.as_deref(), started, body.timeout(state))?;
    // The time limit counts from the request's arrival, as the other routes' do: what is
    // left of it once the request has its turn.
    let limits = Count::new()
        .timeout(body.timeout(state).saturating_sub(started.elapsed()))
        .max_memory(state.config.max_memory)
        .interrupt(ticket.flag.clone())
        .progress(ticket.progress.clone());
    match instance.count_detailed(&limits) {
        Ok(Some(c)) => Ok(Reply::json(&c.json())),
        Ok(None) => Ok(Reply::json(&json!({
            "status": "unknown",
            "puzzle": instance.kind(),
            "reason": "the time limit was reached (or the request was stopped) before the count was complete",
        }))),
        // The page has no memory setting: the server's is named instead.
        Err(Error::Unsupported { option, message }) if option == "--max-memory" => Err(error(
            400,
            format!(
                "{option}: {}",
                message.replace(
                    "raise --max-memory",
                    "start `sokuc serve` with a larger --max-memory, or count with `sokuc count`",
                )
            ),
        )),
        Err(e) => Err(failed(e)),
    }
}

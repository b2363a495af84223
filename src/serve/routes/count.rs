//! `POST /api/count`: the exact count, as `sokuc count --format json` answers it; while it
//! runs, `/api/progress` with the same `job` reads how far it has got.

use serde_json::json;

use crate::budget::Deadline;
use crate::count::{CountError, CountOptions};
use crate::serve::reply::{Reply, error, failed};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = std::time::Instant::now();
    let puzzle = body.puzzle()?;
    let (ticket, _turn) = state.begin(body.job.as_deref())?;
    let opts = CountOptions {
        max_memory: state.config.max_memory,
        deadline: Deadline::counted_from(started, Some(body.timeout(state)), Some(ticket.flag.clone())),
        progress: ticket.progress.clone(),
    };
    match crate::count::count(puzzle.as_ref(), &opts) {
        Ok(c) => Ok(Reply::json(&c.json(puzzle.kind()))),
        Err(CountError::TimedOut) => Ok(Reply::json(&json!({
            "status": "unknown",
            "puzzle": puzzle.kind(),
            "reason": "the time limit was reached (or the request was stopped) before the count was complete",
        }))),
        // The page has no memory setting: the server's is named instead.
        Err(CountError::OverMemory(e)) => Err(error(
            400,
            e.to_string().replace(
                "raise --max-memory",
                "start `sokuc serve` with a larger --max-memory, or count with `sokuc count`",
            ),
        )),
        Err(CountError::Refused(e)) => Err(failed(e)),
    }
}

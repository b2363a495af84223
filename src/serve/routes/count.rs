//! `POST /api/count`: the exact count, as `sokuc count --format json` answers it.

use serde_json::json;

use crate::budget::{Deadline, Progress};
use crate::count::{CountError, CountOptions};
use crate::serve::reply::{Reply, failed};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = std::time::Instant::now();
    let puzzle = body.puzzle()?;
    let (ticket, _turn) = state.begin(body.job.as_deref())?;
    let opts = CountOptions {
        max_memory: state.config.max_memory,
        deadline: Deadline::counted_from(started, Some(body.timeout(state)), Some(ticket.flag.clone())),
        progress: Progress::default(),
    };
    match crate::count::count(puzzle.as_ref(), &opts) {
        Ok(c) => Ok(Reply::json(&c.json(puzzle.kind()))),
        Err(CountError::TimedOut) => Ok(Reply::json(&json!({
            "status": "unknown",
            "puzzle": puzzle.kind(),
            "reason": "the time limit was reached (or the request was stopped) before the count was complete",
        }))),
        Err(CountError::Refused(e) | CountError::OverMemory(e)) => Err(failed(e)),
    }
}

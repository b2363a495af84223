//! `POST /api/solutions {offset, limit}`: a page of the solutions `sokuc solve --all` writes,
//! in its order (one thread, so the order is the same on every request).

use serde_json::{Value, json};

use crate::Enumerate;
use crate::serve::reply::{Reply, failed};
use crate::serve::request::{Body, MAX_REACH};
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    // Both in range, checked when the body was read.
    let offset = body.offset.unwrap_or(0);
    let limit = body.limit.unwrap_or(10);
    let instance = body.instance()?;
    let backend = body.backend()?;
    let (ticket, _turn) = state.begin(body.job.as_deref())?;
    // The whole enumeration is within the time limit, as `solve --all` keeps it; uniqueness
    // and the seed are not the enumeration's.
    let options = body.options(state, &ticket.flag).backend(backend);
    // One more than the page, to know whether there are more.
    let reach = (offset + limit + 1).min(MAX_REACH + 1);
    let mut out = Vec::new();
    instance
        .enumerate(&options, &Enumerate::new().limit(reach).json(true), &mut out)
        .map_err(failed)?;
    let lines: Vec<Value> = String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    // Every line but the last is a solution; the last sums the enumeration up.
    let (summary, found) = match lines.split_last() {
        Some((s, f)) => (s.clone(), f),
        None => (Value::Null, &[][..]),
    };
    let page: Vec<&Value> = found
        .iter()
        .skip(usize::try_from(offset).unwrap_or(usize::MAX))
        .take(limit as usize)
        .collect();
    let more = found.len() as u64 > offset + limit;
    Ok(Reply::json(&json!({
        "solutions": page,
        "offset": offset,
        "more": more,
        "summary": summary,
    })))
}

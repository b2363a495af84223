//! `POST /api/solutions {offset, limit}`: a page of the solutions `sokuc solve --all` writes,
//! in its order (one thread, so the order is the same on every request).

use serde_json::{Value, json};

use crate::run::{RunOptions, Stream};
use crate::serve::reply::{Reply, error, failed};
use crate::serve::request::{Body, MAX_REACH};
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    // Both in range, checked when the body was read.
    let offset = body.offset.unwrap_or(0);
    let limit = body.limit.unwrap_or(10);
    let puzzle = body.puzzle()?;
    let mut backend = crate::backend::lookup(body.backend.as_deref().unwrap_or("auto"))
        .map_err(|e| error(400, format!("backend: {e}")))?;
    let (ticket, _turn) = state.begin(body.job.as_deref())?;
    // The enumeration goes through the run path, so its options are the run path's, built
    // as the facade builds them of `Body::options`. The whole enumeration is within the
    // limit, as `solve --all` keeps it.
    let mut opts = RunOptions::default();
    opts.solve.time_limit = Some(body.timeout(state));
    opts.solve.started = Some(std::time::Instant::now());
    opts.solve.interrupt = Some(ticket.flag.clone());
    opts.solve.encode.max_memory = state.config.max_memory;
    opts.solve.tuning = crate::backend::Tuning {
        cp: state.config.cp_tuning.clone(),
        cadical: state.config.cadical_tuning.clone(),
    };
    // One more than the page, to know whether there are more.
    let reach = (offset + limit + 1).min(MAX_REACH + 1);
    let mut out = Vec::new();
    puzzle
        .enumerate(backend.as_mut(), &opts, Some(reach), Stream::Json, &mut out)
        .map_err(|e| failed(e.into()))?;
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

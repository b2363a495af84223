//! `POST /api/compare`: every general backend of this build (`backend::general`) on the instance, one after another, as
//! `sokuc compare --format json` answers it.

use crate::serve::reply::{Reply, failed};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let puzzle = body.puzzle()?;
    let (ticket, _turn) = state.begin(body.job.as_deref())?;
    let names: Vec<String> = crate::backend::general().iter().map(|s| s.to_string()).collect();
    let opts = body.run_options(state, &ticket.flag);
    let c = crate::compare::compare(puzzle.as_ref(), &names, &opts, 1).map_err(failed)?;
    Ok(Reply::json(&c.json()))
}

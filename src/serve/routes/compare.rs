//! `POST /api/compare`: every general backend of this build ([`Backend::general`]) on the
//! instance, one after another, as `sokuc compare --format json` answers it.

use crate::serve::reply::{Reply, failed};
use crate::serve::request::Body;
use crate::serve::state::State;
use sokuc::Backend;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = std::time::Instant::now();
    let instance = body.instance()?;
    let (ticket, _turn) = state.begin(body.job.as_deref(), started, body.timeout(state))?;
    let options = body.options(state, &ticket.flag, started);
    let c = instance.compare(&Backend::general(), &options, 1).map_err(failed)?;
    Ok(Reply::json(&c.json()))
}

//! `POST /api/compare`: every general backend of this build ([`Backend::general`]) on the
//! instance, one after another, as `sokuc compare --format json` answers it.

use crate::Backend;
use crate::serve::reply::{Reply, failed};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let instance = body.instance()?;
    let (ticket, _turn) = state.begin(body.job.as_deref())?;
    let options = body.options(state, &ticket.flag);
    let c = instance.compare(&Backend::general(), &options, 1).map_err(failed)?;
    Ok(Reply::json(&c.json()))
}

//! `POST /api/assist {placed}`: `sokuc check --partial` on the tiles the player has put on
//! the page's puzzle: whether they can all stay, the fewest to take off, a completion and a
//! next tile, as `check --partial --format json` answers.

use crate::serve::reply::{Reply, error, failed};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = std::time::Instant::now();
    let instance = body.instance()?;
    // Refused before the request waits for a turn, in the words the page has always had.
    if instance.kind() != "3soku" {
        return Err(error(
            400,
            format!(
                "placed tiles are for 3SoKu instances (a tile per face), not {}",
                instance.kind()
            ),
        ));
    }
    let placed = body
        .placed
        .as_deref()
        .ok_or_else(|| error(400, "request: missing field `placed` (the tiles placed, one per line)"))?;
    let backend = body.backend()?;
    let (ticket, _turn) = state.begin(body.job.as_deref(), started, body.timeout(state))?;
    let options = body.options(state, &ticket.flag, started).backend(backend);
    let help = instance.assist("placed tiles", placed, &options).map_err(failed)?;
    Ok(Reply::json(&help.json()))
}

//! `POST /api/assist {placed}`: `sokuc check --partial` on the tiles the player has put on
//! the page's puzzle: whether they can all stay, the fewest to take off, a completion and a
//! next tile, as `check --partial --format json` answers.

use crate::assist::{self, Partial};
use crate::model::Instance;
use crate::serve::reply::{Reply, error, failed};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let puzzle = body.puzzle()?;
    let inst = puzzle.as_any().downcast_ref::<Instance>().ok_or_else(|| {
        error(
            400,
            format!(
                "placed tiles are for 3SoKu instances (a tile per face), not {}",
                puzzle.kind()
            ),
        )
    })?;
    let text = body
        .placed
        .as_deref()
        .ok_or_else(|| error(400, "request: missing field `placed` (the tiles placed, one per line)"))?;
    let placed =
        crate::input::placed::read_placed("placed tiles", text, inst).map_err(|e| error(400, e.to_string()))?;
    let partial = Partial {
        inst: inst.clone(),
        placed,
    };
    let mut backend = crate::backend::lookup(body.backend.as_deref().unwrap_or("auto"))
        .map_err(|e| error(400, format!("backend: {e}")))?;
    let (ticket, _turn) = state.begin(body.job.as_deref())?;
    let opts = body.run_options(state, &ticket.flag);
    let found = assist::assist(&partial, backend.as_mut(), &opts).map_err(failed)?;
    Ok(Reply::json(&assist::json(&partial, &found)))
}

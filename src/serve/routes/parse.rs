//! `POST /api/parse`: reads the instance as `sokuc solve` would and says what is wrong with
//! it, in the command line's words, without solving: the page checks the pegs as they are
//! typed.

use serde_json::json;

use crate::serve::reply::Reply;
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, _: &State) -> Result<Reply, Reply> {
    let instance = body.instance()?;
    Ok(Reply::json(&json!({ "status": "ok", "puzzle": instance.kind() })))
}

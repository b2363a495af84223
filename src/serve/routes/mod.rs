//! One file per route, each a few library calls; this table sends a request to its route.

mod assets;
mod assist;
mod cancel;
mod check;
mod compare;
mod count;
mod export;
mod info;
mod instructions;
mod parse;
mod progress;
mod size;
mod solutions;
mod solve;
mod variant;

use super::reply::{Reply, error};
use super::request::Body;
use super::state::State;

pub(crate) fn route(method: &str, path: &str, body: &[u8], state: &State) -> Reply {
    if !path.starts_with("/api/") {
        return match method {
            "GET" | "HEAD" => assets::get(path),
            _ => error(405, format!("{method} {path}: the page is fetched with GET")),
        };
    }
    let handler: fn(&Body, &State) -> Result<Reply, Reply> = match path {
        "/api/info" => info::get,
        "/api/variant" => variant::post,
        "/api/solve" => solve::post,
        "/api/solutions" => solutions::post,
        "/api/count" => count::post,
        "/api/compare" => compare::post,
        "/api/export" => export::post,
        "/api/instructions" => instructions::post,
        "/api/check" => check::post,
        "/api/parse" => parse::post,
        "/api/cancel" => cancel::post,
        "/api/progress" => progress::post,
        "/api/assist" => assist::post,
        _ => return error(404, format!("no such API route: {path}")),
    };
    let wanted = if path == "/api/info" { "GET" } else { "POST" };
    if method != wanted {
        return error(405, format!("{path} takes {wanted}"));
    }
    match Body::parse(body, &state.config).and_then(|b| handler(&b, state)) {
        Ok(r) | Err(r) => r,
    }
}

//! `GET /api/info`: what this build has.

use serde_json::json;

use crate::serve::reply::Reply;
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn get(_: &Body, state: &State) -> Result<Reply, Reply> {
    let mut backends = vec!["auto"];
    backends.extend(sokuc::Backend::general().into_iter().map(sokuc::Backend::name));
    // The named solids, then the bipyramids (any `bipyramid-N` is built in; these are the
    // ones a picker can show).
    let mut variants: Vec<String> = sokuc::Variant::builtin_names()
        .into_iter()
        .map(str::to_string)
        .collect();
    variants.extend((3..=12).map(|n| format!("bipyramid-{n}")));
    Ok(Reply::json(&json!({
        "version": env!("CARGO_PKG_VERSION"),
        "backends": backends,
        "kinds": sokuc::kinds(),
        "variants": variants,
        // The page's limits: a count may take the longest time limit.
        "default_timeout_s": state.config.default_timeout.as_secs_f64(),
        "max_timeout_s": state.config.max_timeout.as_secs_f64(),
        "max_memory": state.config.max_memory,
    })))
}

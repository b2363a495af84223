//! `GET /api/info`: what this build has.

use serde_json::json;

use crate::serve::request::Body;
use crate::serve::{Reply, State};

pub(super) fn get(_: &Body, _: &State) -> Result<Reply, Reply> {
    let mut backends = vec!["auto"];
    backends.extend(crate::backend::available());
    let variants: Vec<&str> = crate::model::builtin::VARIANTS.iter().map(|(n, _)| *n).collect();
    Ok(Reply::json(&json!({
        "version": env!("CARGO_PKG_VERSION"),
        "backends": backends,
        "kinds": crate::registry::KINDS.iter().map(|k| k.name).collect::<Vec<_>>(),
        "variants": variants,
    })))
}

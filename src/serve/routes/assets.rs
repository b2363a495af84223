//! The page and its assets, compiled into the binary: the server reads no file from disk.

use crate::serve::reply::{Reply, error};

const INDEX: &str = include_str!("../../../web/index.html");
const SCRIPT: &str = include_str!("../../../web/app.js");
const STYLE: &str = include_str!("../../../web/style.css");

pub(super) fn get(path: &str) -> Reply {
    match path {
        "/" | "/index.html" => Reply::text("text/html; charset=utf-8", INDEX),
        "/app.js" => Reply::text("text/javascript; charset=utf-8", SCRIPT),
        "/style.css" => Reply::text("text/css; charset=utf-8", STYLE),
        "/favicon.ico" => Reply::text("image/svg+xml", ""),
        _ => error(404, format!("no such page: {path}")),
    }
}

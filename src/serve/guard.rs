//! Only the local user's own page gets in. The server binds to 127.0.0.1, but a web page the
//! user visits could still reach it: through DNS rebinding (a name that resolves to
//! 127.0.0.1, sent as `Host`), or by a cross-origin request (`Origin`). So a request must
//! name this server as its `Host`, and any `Origin` it carries must be this server.

use super::http::Request;
use super::reply::{Reply, error};
use super::state::State;

pub(crate) fn check(request: &Request, state: &State) -> Result<(), Reply> {
    let header = |name: &str| request.header(name).map(str::to_string);
    match header("Host") {
        Some(h) if state.hosts.iter().any(|ours| ours.eq_ignore_ascii_case(&h)) => {}
        Some(h) => {
            return Err(error(
                403,
                format!(
                    "refused: the request is addressed to {h:?}, not to this server (only 127.0.0.1 and localhost are served)"
                ),
            ));
        }
        None => return Err(error(403, "refused: the request has no Host header")),
    }
    if let Some(origin) = header("Origin") {
        let own = state
            .hosts
            .iter()
            .any(|h| origin.eq_ignore_ascii_case(&format!("http://{h}")));
        if !own {
            return Err(error(
                403,
                format!(
                    "refused: a cross-origin request from {origin:?} (only this server's own page may use the API)"
                ),
            ));
        }
    }
    if header("Sec-Fetch-Site").is_some_and(|s| s.eq_ignore_ascii_case("cross-site")) {
        return Err(error(403, "refused: a cross-site request"));
    }
    // A POST must be JSON: a cross-site form can only send the "simple" content types, so
    // this also stops a browser that sends no Origin.
    if request.method == "POST" {
        let json = header("Content-Type").is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Err(error(415, "the API takes JSON bodies (Content-Type: application/json)"));
        }
    }
    Ok(())
}

//! What a route answers ([`Reply`]), and the command line's error document as an answer.

use serde_json::{Value, json};

/// An answer: the status, its content type and body.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn json(v: &Value) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json; charset=utf-8",
            body: v.to_string().into_bytes(),
        }
    }

    pub(crate) fn text(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.into(),
        }
    }
}

/// The command line's error document (`{"status": "error", "message", "exit_code"}`, the
/// schema's `error`) with HTTP `status`: exit code 1 for the server's own fault (500), 2
/// for the rest, as a refused command line.
pub(crate) fn error(status: u16, message: impl Into<String>) -> Reply {
    let exit_code = if status >= 500 && status != 503 { 1 } else { 2 };
    Reply {
        status,
        ..Reply::json(&json!({ "status": "error", "message": message.into(), "exit_code": exit_code }))
    }
}

/// A library error as an answer: the user's (bad input, a refused option) is 400 with the
/// command line's message, the rest 500.
pub(crate) fn failed(e: sokuc::Error) -> Reply {
    match e.exit_code() {
        sokuc::exit::USAGE => error(400, e.to_string()),
        _ => error(500, e.to_string()),
    }
}

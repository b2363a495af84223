//! `POST /api/export {format}`: the compiled model as `sokuc solve --emit FORMAT` writes it,
//! or the SVG net as `sokuc render` draws it (with `solution`, that solution on it).
//!
//! An export is a job like a solve: it has the request's time limit, `/api/cancel` stops it
//! (by its `job`), and the text it holds counts against the server's memory limit. The
//! facade's emit looks at the time limit and the interrupt as it compiles, encodes and
//! writes, and at the server's resident size as it writes, so an export past its deadline
//! ends within moments, on this thread: no worker is left behind.

use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::serve::reply::{Reply, error, failed};
use crate::serve::request::Body;
use crate::serve::state::State;
use sokuc::{EncodeError, Error, Format, Options, format_size};

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = Instant::now();
    let instance = body.instance()?;
    let format = match body.format.as_deref() {
        Some("dimacs") => Some(Format::Dimacs),
        Some("opb") => Some(Format::Opb),
        Some("lp") => Some(Format::Lp),
        Some("mps") => Some(Format::Mps),
        Some("mzn") => Some(Format::Mzn),
        Some("svg") => None,
        Some(other) => {
            return Err(error(
                400,
                format!("format: {other:?} is not one of dimacs, opb, lp, mps, mzn, svg"),
            ));
        }
        None => return Err(error(400, "request: missing field `format`")),
    };
    // Compiling a large model takes a core too.
    let (ticket, _turn) = state
        .begin(body.job.as_deref(), started, body.timeout(state))
        // Busy (503, which says so), or cancelled while waiting.
        .map_err(|r| if r.status == 503 { r } else { stopped(false, None) })?;
    let Some(format) = format else {
        let solution = body.solution.as_ref().map(super::check::solution_text);
        let picture = instance
            .picture(solution.as_ref().map(|t| ("solution", t.as_str())), false)
            .map_err(|e| error(400, e.to_string()))?
            .ok_or_else(|| error(400, format!("a {} puzzle has no net to draw", instance.kind())))?;
        return Ok(Reply::text("image/svg+xml; charset=utf-8", picture.svg().to_string()));
    };
    // The facade's emit compiles with presolve and encodes within the server's memory
    // limit, and stops at the request's deadline, counted from its arrival.
    let limit = body.timeout(state);
    let options = Options::new()
        .max_memory(state.config.max_memory)
        .timeout(limit)
        .interrupt(ticket.flag.clone())
        .clock_started(started);
    let mut out = Bounded::new(state.config.max_memory);
    let emitted = instance.emit(format, &options, &mut out);
    // Past the deadline, whatever came back is unusable: a compile that stopped returns a
    // partial model, and an encoder or the writer that stopped an error.
    let cancelled = ticket.flag.load(Ordering::Relaxed);
    if cancelled || started.elapsed() >= limit {
        return Err(stopped(cancelled, Some(limit)));
    }
    // The text alone over the limit; else the server's resident size, which the facade's
    // writer looks at once some text is out (the encoder's memory refusals come before any
    // text, and are answered below with their own words).
    let held = match &emitted {
        _ if out.over => Some(None),
        Err(Error::Limit(EncodeError::Memory { needed, .. })) if !out.buf.is_empty() => Some(Some(*needed)),
        _ => None,
    };
    if let Some(held) = held {
        return Err(error(
            413,
            format!(
                "the {} export is larger than the server's memory limit of {} for one request \
                 ({} of text so far, {}); export it from the command line instead \
                 (sokuc solve FILE --emit {})",
                format.name(),
                format_size(state.config.max_memory),
                format_size(out.buf.len() as u64),
                match held {
                    Some(rss) => format!("with {} held by the server in all", format_size(rss)),
                    None => "the text alone".into(),
                },
                format.name()
            ),
        ));
    }
    match emitted {
        Ok(()) => Ok(Reply::text("text/plain; charset=utf-8", out.buf)),
        // The model (or its CNF) over the memory limit or the clause budget: too large here.
        Err(e @ Error::Limit(_)) => Err(error(413, e.to_string())),
        Err(e) => Err(failed(e)),
    }
}

/// The answer to an export stopped before it was complete: by `/api/cancel` or the server
/// stopping (`cancelled`), or by its time limit. An error status, not the `unknown` document
/// the solving routes answer with: the page saves a 200 answer as the exported file.
fn stopped(cancelled: bool, limit: Option<Duration>) -> Reply {
    match (cancelled, limit) {
        (false, Some(limit)) => error(
            503,
            format!(
                "the export did not finish within its time limit of {} s; give it a longer \
                 `timeout`, or export from the command line (sokuc solve FILE --emit FORMAT)",
                limit.as_secs_f64()
            ),
        ),
        _ => error(503, "the export was stopped before it was complete"),
    }
}

/// The export's text, held for the answer, refused past the memory limit: a write then
/// fails, which ends the export, and `over` says so.
struct Bounded {
    buf: Vec<u8>,
    limit: u64,
    over: bool,
}

impl Bounded {
    fn new(limit: u64) -> Bounded {
        Bounded {
            buf: Vec::new(),
            limit,
            over: false,
        }
    }
}

impl Write for Bounded {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if (self.buf.len() + bytes.len()) as u64 > self.limit {
            self.over = true;
            return Err(std::io::Error::other("the export is over the memory limit"));
        }
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

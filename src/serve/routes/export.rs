//! `POST /api/export {format}`: the compiled model as `sokuc solve --emit FORMAT` writes it,
//! or the SVG net as `sokuc render` draws it (with `solution`, that solution on it).
//!
//! An export is a job like a solve: it has the request's time limit, `/api/cancel` stops it
//! (by its `job`), and the text it holds counts against the server's memory limit. Compiling,
//! encoding and writing each look at the deadline as they go (compiling and encoding through
//! the thread's compile stop, `budget::compiling_within`; writing in [`Bounded`]), so an
//! export past its deadline ends within moments, on this thread: no worker is left behind.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::Format;
use crate::budget::memory::{Guard, format_size};
use crate::budget::{Deadline, compiling_within};
use crate::serve::reply::{Reply, error, failed};
use crate::serve::request::Body;
use crate::serve::state::State;

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = Instant::now();
    let puzzle = body.puzzle()?;
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
    let (ticket, _turn) = state.begin(body.job.as_deref()).map_err(|_| stopped(false, None))?;
    let Some(format) = format else {
        let solution = body.solution.as_ref().map(super::check::solution_text);
        let picture = puzzle
            .picture(solution.as_ref().map(|t| ("solution", t.as_str())), false, false)
            .map_err(|e| error(400, e.to_string()))?
            .ok_or_else(|| error(400, format!("a {} puzzle has no net to draw", puzzle.kind())))?;
        return Ok(Reply::text("image/svg+xml; charset=utf-8", picture.svg));
    };
    let instance = crate::Instance::from_puzzle(puzzle);
    // The facade's emit compiles with presolve and encodes within the server's memory
    // limit; its time limit is the deadline below, which the compile and the writer watch.
    let options = crate::Options::new().max_memory(state.config.max_memory);
    let limit = body.timeout(state);
    let deadline = Deadline::counted_from(started, Some(limit), Some(ticket.flag.clone()));
    let mut out = Bounded::new(deadline.clone(), state.config.max_memory);
    let emitted = compiling_within(&deadline, || instance.emit(format, &options, &mut out));
    // Past the deadline, whatever came back is unusable: a compile that stopped returns a
    // partial model, and an encoder or the writer that stopped an error.
    if deadline.passed() {
        return Err(stopped(deadline.interrupted(), Some(limit)));
    }
    if let Some(held) = out.over {
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
        Err(e @ crate::Error::Limit(_)) => Err(error(413, e.to_string())),
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

/// How often (in bytes written) [`Bounded`] looks at the clock and the resident size: a
/// look costs tens of nanoseconds, and the formats write a few bytes at a time.
const LOOK_EVERY: usize = 64 << 10;

/// The export's text, held for the answer, refused past the memory limit or the deadline:
/// a write then fails, which ends the export. `over` says why it was refused for memory:
/// `Some(None)` the text alone passed the limit, `Some(Some(rss))` the server's resident
/// size did (the model and its CNF are held beside the text until it is written).
struct Bounded {
    buf: Vec<u8>,
    deadline: Deadline,
    limit: u64,
    guard: Guard,
    next_look: usize,
    over: Option<Option<u64>>,
}

impl Bounded {
    fn new(deadline: Deadline, limit: u64) -> Bounded {
        Bounded {
            buf: Vec::new(),
            deadline,
            limit,
            guard: Guard::new(limit, 1),
            next_look: 0,
            over: None,
        }
    }
}

impl Write for Bounded {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let held = (self.buf.len() + bytes.len()) as u64;
        if held > self.limit {
            self.over = Some(None);
            return Err(std::io::Error::other("the export is over the memory limit"));
        }
        if self.buf.len() >= self.next_look {
            self.next_look = self.buf.len() + LOOK_EVERY;
            if self.deadline.passed() {
                return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "time limit"));
            }
            if let Some(rss) = self.guard.over() {
                self.over = Some(Some(rss));
                return Err(std::io::Error::other("the export is over the memory limit"));
            }
        }
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

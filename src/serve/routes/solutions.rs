//! `POST /api/solutions {offset, limit}`: a page of the solutions `sokuc solve --all` writes,
//! in its order (one thread, so the order is the same on every request).
//!
//! The enumeration streams its lines into [`Page`], which keeps only the page's lines and
//! the last one (the summary), within the server's memory limit: the solutions before the
//! page are counted and dropped. An answer that would not fit is refused (413) before it is
//! held: at once when one solution alone is estimated past the limit, else as soon as the
//! lines held pass it.

use std::io::Write;

use serde_json::json;

use crate::serve::reply::{Reply, error, failed};
use crate::serve::request::{Body, MAX_REACH};
use crate::serve::state::State;
use sokuc::{Enumerate, Error, format_size};

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = std::time::Instant::now();
    // Both in range, checked when the body was read.
    let offset = body.offset.unwrap_or(0);
    let limit = body.limit.unwrap_or(10);
    let instance = body.instance()?;
    let backend = body.backend()?;
    // The page's text is held twice (its lines, then the answer), beside the engine.
    let budget = state.config.max_memory / 4;
    // One more than the page, to know whether there are more.
    let reach = (offset + limit + 1).min(MAX_REACH + 1);
    if let Some(each) = super::size::solution_bytes(&instance)
        && each.saturating_mul(limit + 1) > budget
    {
        return Err(too_large(state, Some(each)));
    }
    let (ticket, _turn) = state.begin(body.job.as_deref(), started, body.timeout(state))?;
    // The whole enumeration is within the time limit, as `solve --all` keeps it; uniqueness
    // and the seed are not the enumeration's.
    let options = body.options(state, &ticket.flag, started).backend(backend);
    let mut page = Page::new(offset, limit, budget);
    let enumerated = instance.enumerate(&options, &Enumerate::new().limit(reach).json(true), &mut page);
    if page.over {
        return Err(too_large(state, None));
    }
    enumerated.map_err(|e| match e {
        // The model over the memory limit: too large here, as an export.
        e @ Error::Limit(_) => error(413, e.to_string()),
        e => failed(e),
    })?;
    Ok(page.reply(offset, limit))
}

/// The refusal of a page too large for the server's memory limit (`each`: one solution's
/// estimated size, when that alone decided it).
fn too_large(state: &State, each: Option<u64>) -> Reply {
    error(
        413,
        format!(
            "the solutions are larger than the server's memory limit of {} for one request{}; \
             ask for a smaller page (`limit`), or enumerate from the command line (sokuc solve FILE --all)",
            format_size(state.config.max_memory),
            match each {
                Some(b) => format!(" (about {} each)", format_size(b)),
                None => String::new(),
            }
        ),
    )
}

/// The enumeration's lines as they are written: those of the page kept, those before it
/// counted, and the last one kept (the summary, once the enumeration has ended), all within
/// `budget` bytes. A write past it fails, which ends the enumeration, and `over` says so.
struct Page {
    offset: u64,
    limit: u64,
    budget: u64,
    /// Complete lines so far.
    lines: u64,
    /// The page's solutions.
    kept: Vec<Vec<u8>>,
    /// The last complete line, not yet known to be a solution or the summary.
    last: Option<Vec<u8>>,
    /// The line being written.
    line: Vec<u8>,
    held: u64,
    over: bool,
}

impl Page {
    fn new(offset: u64, limit: u64, budget: u64) -> Page {
        Page {
            offset,
            limit,
            budget,
            lines: 0,
            kept: Vec::new(),
            last: None,
            line: Vec::new(),
            held: 0,
            over: false,
        }
    }

    /// A line is complete: the one before it was a solution, kept if it is on the page.
    fn end_line(&mut self) {
        let line = std::mem::take(&mut self.line);
        if let Some(previous) = self.last.replace(line) {
            let index = self.lines - 1;
            if (self.offset..self.offset + self.limit).contains(&index) {
                self.kept.push(previous);
            } else {
                self.held -= previous.len() as u64;
            }
        }
        self.lines += 1;
    }

    /// The answer: the page's solutions, whether there are more, and the summary. The
    /// lines are JSON documents the enumeration wrote, put in as they are (parsed, each
    /// number of a large model would take tens of bytes).
    fn reply(mut self, offset: u64, limit: u64) -> Reply {
        if !self.line.is_empty() {
            self.end_line();
        }
        // Every line but the last is a solution; the last sums the enumeration up.
        let found = self.lines.saturating_sub(1);
        let valid = |l: &Vec<u8>| serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok();
        let summary = self.last.take().filter(valid).unwrap_or_else(|| b"null".to_vec());
        let more = found > offset + limit;
        let mut text = b"{\"solutions\":[".to_vec();
        for (i, l) in self.kept.iter().filter(|l| valid(l)).enumerate() {
            if i > 0 {
                text.push(b',');
            }
            text.extend_from_slice(l);
        }
        text.extend_from_slice(
            format!("],\"offset\":{},\"more\":{},\"summary\":", json!(offset), json!(more)).as_bytes(),
        );
        text.extend_from_slice(&summary);
        text.push(b'}');
        Reply::text("application/json; charset=utf-8", text)
    }
}

impl Write for Page {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.held + bytes.len() as u64 > self.budget {
            self.over = true;
            return Err(std::io::Error::other("the solutions are over the memory limit"));
        }
        self.held += bytes.len() as u64;
        let mut rest = bytes;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            self.line.extend_from_slice(&rest[..at]);
            // The newline itself is not held.
            self.held -= 1;
            self.end_line();
            rest = &rest[at + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_of(offset: u64, limit: u64, lines: &[&str], budget: u64) -> (Page, bool) {
        let mut p = Page::new(offset, limit, budget);
        let mut ok = true;
        for l in lines {
            // In two pieces, as a writer may send them.
            let text = format!("{l}\n");
            let (a, b) = text.split_at(text.len() / 2);
            ok &= p.write_all(a.as_bytes()).is_ok() && p.write_all(b.as_bytes()).is_ok();
        }
        (p, ok)
    }

    #[test]
    fn a_page_keeps_its_lines_and_the_summary_only() {
        let lines = ["{\"a\":0}", "{\"a\":1}", "{\"a\":2}", "{\"a\":3}", "{\"end\":true}"];
        let (p, ok) = page_of(1, 2, &lines, 1000);
        assert!(ok);
        let r = p.reply(1, 2);
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(v["solutions"], json!([{"a": 1}, {"a": 2}]));
        assert_eq!(
            (v["more"].clone(), v["summary"].clone()),
            (json!(true), json!({"end": true}))
        );
        // The page reaching past the solutions: the summary is not one of them.
        let (p, _) = page_of(2, 5, &lines, 1000);
        let v: serde_json::Value = serde_json::from_slice(&p.reply(2, 5).body).unwrap();
        assert_eq!(v["solutions"], json!([{"a": 2}, {"a": 3}]));
        assert_eq!(v["more"], false);
        // Held: the page, the last line and the one being written, never the lines before.
        let (p, ok) = page_of(3, 1, &lines, 30);
        assert!(ok, "{}", p.held);
        let (p, ok) = page_of(0, 5, &lines, 30);
        assert!(!ok && p.over);
    }
}

//! How `solve --all` writes its solutions, on one thread or many ([`super::parallel`]): each
//! solution's text and separator, or its JSON line, written field by field with the
//! front-end's [`SolutionWriter`], then the end of the output.

use std::io::Write;
use std::time::Instant;

use serde_json::{Value, json};

use super::enumerate::Enumerated;
use super::error::RunError;
use super::prepare::ms;
use crate::backend::{Ended, Status};
use crate::puzzle::writer::push_json;
use crate::puzzle::{Answer, Puzzle, SolutionWriter};
use crate::report;

/// How `solve --all` writes its solutions: as MiniZinc does (each solution's text, then
/// `----------`; `==========` once the enumeration is complete), or JSON lines (one outcome
/// per solution, then a summary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Text,
    Json,
}

/// The line after the last solution when every solution was written (MiniZinc's).
pub const COMPLETE: &str = "==========";
/// The line after each solution.
pub const SEPARATOR: &str = "----------";

/// `verified` in the JSON: true or false with a solution, null without one.
pub(super) fn verified_json<S>(a: &Answer<S>) -> Option<bool> {
    a.solution.is_some().then_some(a.verified)
}

/// One solution's line of `solve --all --format json`: `outcome_json` (in `any`) of a verified
/// "sat" answer without stats, then its number and the milliseconds since the start,
/// written member by member (the same bytes; `tests` compare the two).
/// Appends one solution of an enumeration as `solve --all` writes it: its text and the
/// separator, or its JSON line (`k`: its number, from 1).
#[allow(clippy::too_many_arguments)]
pub(super) fn write_solution<P: Puzzle>(
    p: &P,
    writer: &mut dyn SolutionWriter<P::Solution>,
    stream: Stream,
    s: P::Solution,
    engine: &'static str,
    k: u64,
    started: Instant,
    buf: &mut Vec<u8>,
) {
    let mut ending = super::gate::Ending::new(Status::Sat, engine, engine);
    ending.solution = Some(s);
    let answer = super::gate::judge(ending);
    match stream {
        Stream::Text => {
            writer.text(&answer, buf);
            buf.extend_from_slice(SEPARATOR.as_bytes());
            buf.push(b'\n');
        }
        Stream::Json => json_line(buf, p.kind(), &answer, writer, k, started),
    }
}

/// What ends an enumeration's output, as the gate judged its end ([`super::gate_end`]):
/// with no solution the usual text (its evidence included) and MiniZinc's
/// `=====UNSATISFIABLE=====` for an accepted refutation, else `=====UNKNOWN=====`; after
/// solutions, the evidence as comment lines and `==========` when the claim that they are
/// all was accepted (nothing more when there was none to make, as MiniZinc ends an
/// incomplete enumeration); or the JSON summary line. The end marker is always last.
pub(super) fn write_end<P: Puzzle>(
    p: &P,
    stream: Stream,
    limit: Option<u64>,
    e: &Enumerated,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    match stream {
        Stream::Text if e.found == 0 => {
            let mut answer = Answer::<P::Solution>::without_solution(e.status, e.reason.clone(), e.backend);
            answer.evidence = e.evidence.clone();
            out.write_all(p.text(&answer).as_bytes())?;
            let end = match (e.status, e.ended) {
                (Status::Unsat, Ended::Complete) => "=====UNSATISFIABLE=====",
                _ => "=====UNKNOWN=====",
            };
            writeln!(out, "{end}")?;
        }
        Stream::Text => {
            let mut lines = String::new();
            e.evidence.push_lines(&mut lines, &format!("{} ", p.comment()));
            out.write_all(lines.as_bytes())?;
            if e.ended == Ended::Complete {
                writeln!(out, "{COMPLETE}")?;
            }
        }
        Stream::Json => writeln!(out, "{}", summary_json(p.kind(), limit, e))?,
    }
    out.flush()?;
    Ok(())
}

fn json_line<S>(
    out: &mut Vec<u8>,
    kind: &str,
    a: &Answer<S>,
    writer: &mut dyn SolutionWriter<S>,
    k: u64,
    started: Instant,
) {
    out.extend_from_slice(b"{\"status\":");
    push_json(out, a.status.as_str());
    out.extend_from_slice(b",\"puzzle\":");
    push_json(out, kind);
    out.extend_from_slice(b",\"backend\":");
    push_json(out, &a.backend);
    out.extend_from_slice(b",\"verified\":");
    push_json(out, &verified_json(a));
    out.extend_from_slice(b",\"verdict_by\":");
    push_json(out, &a.verdict_by);
    let before = out.len();
    out.push(b',');
    writer.json_fields(a.solution.as_ref(), out);
    if out.len() == before + 1 {
        out.pop();
    }
    out.extend_from_slice(b",\"unique\":");
    push_json(out, &a.unique);
    out.extend_from_slice(b",\"evidence\":");
    push_json(out, &a.evidence);
    out.extend_from_slice(b",\"solution\":");
    push_json(out, &k);
    out.extend_from_slice(b",\"ms\":");
    push_json(out, &json!(report::round_ms(ms(started))));
    out.extend_from_slice(b"}\n");
}

/// The last line of `solve --all --format json`: how many solutions, whether that is all of
/// them (an accepted claim), why it stopped, what backs the claim, and the times.
pub fn summary_json(kind: &str, limit: Option<u64>, e: &Enumerated) -> Value {
    let mut v = json!({
        "status": e.status.as_str(),
        "puzzle": kind,
        "backend": e.backend,
        "solutions": e.found,
        "complete": e.ended == Ended::Complete,
        "stopped": match e.ended {
            Ended::Complete => Value::Null,
            Ended::Stopped => json!("limit"),
            _ if e.withheld.is_some() => json!("withheld"),
            _ if e.memory => json!("memory limit"),
            _ if e.interrupted => json!("interrupted"),
            _ => json!("time limit"),
        },
        "limit": limit,
        "evidence": e.evidence,
    });
    let obj = v.as_object_mut().expect("an object");
    obj.insert("stats".into(), report::stats_json(&e.stats));
    obj.insert("total_ms".into(), json!(report::round_ms(e.total_ms)));
    if let Some(reason) = &e.reason {
        obj.insert("reason".into(), json!(reason));
    }
    v
}

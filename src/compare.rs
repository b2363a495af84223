//! `compare`: several backends on one puzzle through the one run path; their statuses must
//! agree (a disagreement is a bug somewhere, reported loudly).

use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::{Value, json};

use crate::backend::{self, Status};
use crate::error::{Error, exit};
use crate::input::InputError;
use crate::report::round_ms;
use crate::run::{AnyPuzzle, Report, RunOptions};

/// One backend's run.
pub struct Row {
    pub backend: String,
    pub report: Report,
    /// Wall time of the whole run, compiling included.
    pub total_ms: f64,
}

pub struct Comparison {
    pub source: String,
    pub rows: Vec<Row>,
    /// The decided statuses (sat/unsat) are all the same.
    pub agree: bool,
    /// How many backends ran at once.
    pub jobs: usize,
}

/// Runs each backend of `names` on `p` with `opts`, `jobs` at a time (each run is
/// independent, and a 2-core machine otherwise leaves a core idle: `mip` solves in a child
/// process of its own anyway). Rows keep the order of `names`; the first error, in that
/// order, is the result.
///
/// A time limit bounds the whole comparison: a backend starting with `k` backends (itself
/// included) not yet started gets `left / ceil(k / jobs)` of what is left, so every worker's
/// queue ends by the deadline, and time a fast backend does not use goes to those after it.
pub fn compare(p: &dyn AnyPuzzle, names: &[String], opts: &RunOptions, jobs: usize) -> Result<Comparison, Error> {
    let started = opts.solve.started.unwrap_or_else(Instant::now);
    let jobs = jobs.clamp(1, names.len().max(1));
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Result<Row, Error>>>> = Mutex::new((0..names.len()).map(|_| None).collect());
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            let Some(n) = names.get(i) else { break };
            let row = run_one(p, n, opts, started, (names.len() - i).div_ceil(jobs));
            let failed = row.is_err();
            lock(&done)[i] = Some(row);
            if failed {
                // Nothing after an error is reported: stop handing out work.
                next.store(names.len(), Ordering::SeqCst);
            }
        }
    };
    if jobs == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(work);
            }
        });
    }
    let mut rows = Vec::new();
    for r in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
        match r {
            Some(Ok(row)) => rows.push(row),
            Some(Err(e)) => return Err(e),
            // Never started: only after a failed run, whose error returned above.
            None => {}
        }
    }
    let decided: Vec<Status> = rows
        .iter()
        .map(|r| r.report.status)
        .filter(|s| *s != Status::Unknown)
        .collect();
    Ok(Comparison {
        source: p.source().to_string(),
        agree: decided.windows(2).all(|w| w[0] == w[1]),
        rows,
        jobs,
    })
}

/// One backend's run, with its share of the time left (see [`compare`]).
fn run_one(p: &dyn AnyPuzzle, n: &str, opts: &RunOptions, started: Instant, turns_left: usize) -> Result<Row, Error> {
    let mut b = backend::lookup(n).map_err(|e| InputError::new("--backend", None, e.to_string()))?;
    let t = Instant::now();
    let mut mine = opts.clone();
    if let Some(limit) = opts.solve.time_limit {
        let left = limit.saturating_sub(started.elapsed());
        mine.solve.time_limit = Some(left / turns_left.max(1) as u32);
        mine.solve.started = Some(t);
    }
    let report = p.solve(b.as_mut(), &mine, false)?;
    Ok(Row {
        backend: n.to_string(),
        report,
        total_ms: t.elapsed().as_secs_f64() * 1e3,
    })
}

/// A poisoned lock only means another run panicked; its slot stays empty.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Comparison {
    /// 0/20/30 by the agreed status; 1 when the backends disagree.
    pub fn exit_code(&self) -> u8 {
        if !self.agree {
            return exit::INTERNAL;
        }
        let decided = self
            .rows
            .iter()
            .map(|r| r.report.status)
            .find(|s| *s != Status::Unknown);
        crate::error::status_code(decided.unwrap_or(Status::Unknown))
    }

    /// "BACKENDS DISAGREE on FILE: sat=sat, search=unsat", when they do.
    pub fn disagreement(&self) -> Option<String> {
        (!self.agree).then(|| {
            let summary: Vec<String> = self
                .rows
                .iter()
                .map(|r| format!("{}={}", r.backend, r.report.status.as_str()))
                .collect();
            format!("BACKENDS DISAGREE on {}: {}", self.source, summary.join(", "))
        })
    }

    /// Each result is the outcome JSON `solve` prints, plus the run's wall time.
    pub fn json(&self) -> Value {
        let results: Vec<Value> = self
            .rows
            .iter()
            .map(|r| {
                let mut v = r.report.json.clone();
                v["total_ms"] = json!(round_ms(r.total_ms));
                v
            })
            .collect();
        json!({"instance": self.source, "agree": self.agree, "results": results})
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<8} {:<8} {:>10} {:>10} {:>10} {:>8} {:>8}  verified",
            "backend", "status", "build ms", "solve ms", "total ms", "vars", "rows"
        );
        for r in &self.rows {
            let s = &r.report.stats;
            let _ = writeln!(
                out,
                "{:<8} {:<8} {:>10.3} {:>10.3} {:>10.3} {:>8} {:>8}  {}",
                r.backend,
                r.report.status.as_str(),
                s.build_ms,
                s.solve_ms,
                r.total_ms,
                s.vars,
                s.clauses,
                if r.report.verified { "yes" } else { "-" }
            );
        }
        out
    }
}

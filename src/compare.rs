//! `compare`: several backends on one puzzle through the one run path; their statuses must
//! agree (a disagreement is a bug somewhere, reported loudly).

use std::fmt::Write;
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
}

/// Runs each backend of `names` on `p` with `opts`. A time limit bounds the whole
/// comparison: each backend gets an equal share of what is left when it starts, so time a
/// fast backend does not use goes to the ones after it.
pub fn compare(p: &dyn AnyPuzzle, names: &[String], opts: &RunOptions) -> Result<Comparison, Error> {
    let mut rows = Vec::new();
    let started = opts.solve.started.unwrap_or_else(Instant::now);
    for (i, n) in names.iter().enumerate() {
        let mut b = backend::lookup(n).map_err(|e| InputError::new("--backend", None, e.to_string()))?;
        let t = Instant::now();
        let mut mine = opts.clone();
        if let Some(limit) = opts.solve.time_limit {
            let left = limit.saturating_sub(started.elapsed());
            mine.solve.time_limit = Some(left / (names.len() - i) as u32);
            mine.solve.started = Some(t);
        }
        let report = p.solve(b.as_mut(), &mine, false)?;
        rows.push(Row {
            backend: n.clone(),
            report,
            total_ms: t.elapsed().as_secs_f64() * 1e3,
        });
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
    })
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

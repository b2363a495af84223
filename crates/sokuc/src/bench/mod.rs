//! The benchmark command: solve a batch and report per-instance figures and a summary.
//! Times are wall-clock for the whole in-process pipeline (compile, encode, solve, decode,
//! verify), the same work `sokuc solve` does after parsing.

pub mod external;
pub mod files;
pub mod scaling;

use std::io::Write;
use std::time::Instant;

use crate::backend::{self, Status};
use crate::input::batch::BatchItem;
use crate::run::{self, RunError, RunOptions};

#[derive(Debug, Clone)]
pub struct Row {
    pub line: usize,
    pub status: Status,
    pub verified: bool,
    pub ms: f64,
    pub vars: u64,
    pub clauses: u64,
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Summary {
    pub backend: String,
    pub instances: usize,
    pub sat: usize,
    pub unsat: usize,
    pub unknown: usize,
    #[serde(serialize_with = "crate::report::rounded")]
    pub median_ms: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub p90_ms: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub max_ms: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub total_ms: f64,
}

/// Nearest-rank percentile of sorted data.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub fn summarize(backend: &str, rows: &[Row]) -> Summary {
    let mut t: Vec<f64> = rows.iter().map(|r| r.ms).collect();
    t.sort_by(|a, b| a.total_cmp(b));
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    Summary {
        backend: backend.to_string(),
        instances: rows.len(),
        sat: count(Status::Sat),
        unsat: count(Status::Unsat),
        unknown: count(Status::Unknown),
        median_ms: percentile(&t, 50.0),
        p90_ms: percentile(&t, 90.0),
        max_ms: t.last().copied().unwrap_or(0.0),
        // Folded from +0.0: an empty sum of floats is -0.0, which prints as "-0.0".
        total_ms: t.iter().fold(0.0, |a, b| a + b),
    }
}

/// Runs one backend over the batch, printing a line per instance to `out`.
pub fn run(
    items: &[BatchItem],
    backend_name: &str,
    opts: &RunOptions,
    out: &mut dyn Write,
) -> Result<Vec<Row>, RunError> {
    let mut rows = Vec::with_capacity(items.len());
    for item in items {
        // After an interrupt every instance left would answer `unknown` at once: the rows
        // so far are the benchmark.
        if interrupted(Some(&opts.solve)) {
            break;
        }
        let mut b = backend::by_name(backend_name).expect("backend names are checked by the caller");
        let t = Instant::now();
        let r = run::solve(&item.instance, b.as_mut(), opts)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let row = Row {
            line: item.line,
            status: r.answer.status,
            verified: r.answer.verified,
            ms,
            vars: r.stats.vars,
            clauses: r.stats.clauses,
        };
        let _ = writeln!(
            out,
            "{:>5}  {:<7} {:>9.3} ms  {:>6} vars {:>7} clauses{}",
            row.line,
            row.status.as_str(),
            row.ms,
            row.vars,
            row.clauses,
            if row.verified { "  verified" } else { "" }
        );
        rows.push(row);
    }
    Ok(rows)
}

/// Whether the command was interrupted: the options' flag, or the process's (a signal;
/// [`crate::budget::interrupt_process_on`]).
pub(crate) fn interrupted(opts: Option<&backend::SolveOptions>) -> bool {
    opts.and_then(|o| o.interrupt.as_ref())
        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        || crate::budget::process_interrupted()
}

/// Like `run`, but each instance is solved by a fresh `sokuc solve` process (written to a
/// temporary instance file first), so times include process start, parsing and output.
pub fn run_spawned(
    items: &[BatchItem],
    exe: &std::path::Path,
    backend_name: &str,
    extra: &[String],
    out: &mut dyn Write,
) -> std::io::Result<Vec<Row>> {
    // A folder of this call's own, removed when dropped: benchmarks at once (threads of one
    // process) never overwrite each other's instance files.
    let temporary = tempfile::Builder::new().prefix("sokuc-bench-").tempdir()?;
    let dir = temporary.path();
    let mut rows = Vec::with_capacity(items.len());
    for item in items {
        // After an interrupt every instance left would answer `unknown` at once: the rows
        // so far are the benchmark.
        if interrupted(None) {
            break;
        }
        let path = dir.join(format!("line{}.toml", item.line));
        std::fs::write(&path, item.instance.to_toml(&item.instance.variant.name))?;
        let t = Instant::now();
        let o = std::process::Command::new(exe)
            .arg("solve")
            .arg(&path)
            .arg("--backend")
            .arg(backend_name)
            .args(extra)
            .output()?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let status = match o.status.code() {
            Some(0) => Status::Sat,
            Some(20) => Status::Unsat,
            Some(30) => Status::Unknown,
            other => {
                return Err(std::io::Error::other(format!(
                    "line {}: sokuc solve exited with {other:?}: {}",
                    item.line,
                    String::from_utf8_lossy(&o.stderr).trim()
                )));
            }
        };
        let verified = String::from_utf8_lossy(&o.stdout).contains("verified: every vertex sum");
        let row = Row {
            line: item.line,
            status,
            verified,
            ms,
            vars: 0,
            clauses: 0,
        };
        let _ = writeln!(
            out,
            "{:>5}  {:<7} {:>9.3} ms  (whole process){}",
            row.line,
            row.status.as_str(),
            row.ms,
            if verified { "  verified" } else { "" }
        );
        rows.push(row);
    }
    Ok(rows)
}

pub fn print_summary(s: &Summary, out: &mut dyn Write) {
    let _ = writeln!(
        out,
        "backend {}: {}, {} sat, {} unsat, {} unknown; median {:.3} ms, p90 {:.3} ms, max {:.3} ms, total {:.1} ms",
        s.backend,
        crate::words::count_s(s.instances, "instance"),
        s.sat,
        s.unsat,
        s.unknown,
        s.median_ms,
        s.p90_ms,
        s.max_ms,
        s.total_ms
    );
}

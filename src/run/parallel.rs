//! `solve --all --jobs N`: [`super::enumerate`] on several threads. The search backend
//! splits its tree into cubes ([`crate::backend::search::jobs`]); each worker thread walks
//! its own copy of the engine and does on its own everything a solution goes through on one
//! thread (evaluated against the IR, decoded, verified, formatted), then writes whole
//! solutions in chunks under one lock. Solutions are numbered by a shared counter claimed
//! before a solution is written, so `--limit N` writes exactly N; nothing is collected
//! beyond one chunk per worker.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::any::write_solution;
use super::enumerate::{Begun, Enumerated, Walked, begin, end, walk};
use super::{AnswerProblem, RunError, RunOptions, Stream, finish_with};
use crate::backend::search::jobs::{self, Split, Splitting, Worked};
use crate::backend::{Backend, BackendError, Ended, Found, Parallel, SolveOptions, SolveStats};
use crate::ir::{Evaluator, Projection};
use crate::puzzle::Puzzle;

/// The most worker threads: more than any machine this runs on has cores; a larger `--jobs`
/// is refused by the CLI and clamped here, so no number reserves memory or threads.
pub const MAX_JOBS: usize = 64;

/// A worker writes its chunk once it holds this many bytes...
const CHUNK_BYTES: usize = 64 * 1024;
/// ...or once its oldest unwritten solution is this old, so that a slow enumeration still
/// streams.
const CHUNK_AGE: Duration = Duration::from_millis(50);

/// Where the workers write: the command's output, one chunk at a time.
pub type Shared<'a> = Mutex<&'a mut (dyn Write + Send)>;

/// Every solution of `p` on `jobs` threads, written to `out` as [`super::any::AnyPuzzle`]'s
/// enumeration writes them (the end is the caller's). Backends without
/// [`crate::backend::Capabilities::parallel`] are refused before anything runs; `auto` splits
/// where it enumerates on search, and otherwise walks on one thread.
pub(super) fn enumerate_jobs<P: Puzzle>(
    p: &P,
    b: &mut dyn Backend,
    opts: &RunOptions,
    limit: Option<u64>,
    jobs: usize,
    stream: Stream,
    out: &Shared<'_>,
) -> Result<Enumerated, RunError> {
    // Refused before anything runs, whatever the instance.
    if !b.capabilities().parallel {
        return Err(BackendError::Unsupported {
            backend: b.name(),
            feature: crate::backend::feature::PARALLEL,
        }
        .into());
    }
    let jobs = jobs.clamp(1, MAX_JOBS);
    let (ready, solve_opts, started) = match begin(p, b, opts)? {
        Begun::Answered(e) => return Ok(e),
        Begun::Ready(r, o, s) => (r, o, s),
    };
    let solve_opts = &solve_opts;
    let compiled = &ready.compiled;
    let formula = p.formula(compiled);
    let projection = Projection::new(formula, p.primary(compiled));
    // `auto` decides here which engine enumerates; one that does not split walks on one
    // thread, as without --jobs.
    let (decided, splitting) = match b.parallel(formula, solve_opts)? {
        Parallel::Split { note, probe_ms } => (
            Some((note, probe_ms)),
            Split::make(formula, &projection, solve_opts, jobs)?,
        ),
        Parallel::OneThread => (None, Splitting::Mixed),
    };
    // What deciding cost, and why, goes with the split's own statistics (a walk on one
    // thread is the backend's `enumerate`, which reports its own).
    let decided = |mut stats: SolveStats| {
        if let Some((note, probe_ms)) = &decided {
            stats.build_ms += probe_ms;
            if let Some(note) = note {
                stats.extra.insert("auto".into(), note.clone().into());
            }
        }
        stats
    };
    let (found, ended, stats) = match splitting {
        Splitting::Unknown(stats) => (0, Ended::Unknown, decided(stats)),
        Splitting::Mixed => {
            // One thread, as without --jobs: a formula the engine does not split, or a
            // backend that enumerates on another engine.
            let mut writer = p.writer();
            let mut buf = Vec::new();
            let mut k = 0u64;
            let mut on = |s: P::Solution, engine: &'static str| -> Result<ControlFlow<()>, RunError> {
                k += 1;
                buf.clear();
                write_solution(p, writer.as_mut(), stream, s, engine, k, started, &mut buf);
                write_chunk(out, &buf)?;
                Ok(ControlFlow::Continue(()))
            };
            let w = walk(p, compiled, b, solve_opts, limit, &mut on)?;
            (w.found, w.ended, w.stats)
        }
        Splitting::Ready(split) => {
            let claimed = AtomicU64::new(0);
            let failed: Mutex<Option<RunError>> = Mutex::new(None);
            let job = Job {
                p,
                compiled,
                projection: &projection,
                split: &split,
                opts: solve_opts,
                limit,
                stream,
                started,
                claimed: &claimed,
                out,
                failed: &failed,
            };
            let worked: Vec<Worked> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..jobs).map(|_| scope.spawn(|| job.work())).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                    .collect()
            });
            if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
                return Err(e);
            }
            let n = claimed.load(Ordering::Relaxed);
            let found = limit.map_or(n, |l| n.min(l));
            (found, jobs::ended(&worked), decided(split.stats(jobs, &worked)))
        }
    };
    Ok(end(b, &ready, Walked { ended, found, stats }, started))
}

/// Writes whole solutions to the shared output.
fn write_chunk(out: &Shared<'_>, bytes: &[u8]) -> Result<(), RunError> {
    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
    o.write_all(bytes)?;
    o.flush()?;
    Ok(())
}

/// What every worker shares.
struct Job<'a, 'o, P: Puzzle> {
    p: &'a P,
    compiled: &'a P::Compiled,
    projection: &'a Projection,
    split: &'a Split,
    opts: &'a SolveOptions,
    limit: Option<u64>,
    stream: Stream,
    started: Instant,
    /// Solutions claimed so far (each claim is one solution written, up to the limit).
    claimed: &'a AtomicU64,
    out: &'a Shared<'o>,
    /// The first worker's error; it stops the others.
    failed: &'a Mutex<Option<RunError>>,
}

impl<P: Puzzle> Job<'_, '_, P> {
    /// One worker thread: the walk over its cubes, and every solution checked and written.
    fn work(&self) -> Worked {
        let p = self.p;
        let formula = p.formula(self.compiled);
        let mut evaluator = Evaluator::new(formula);
        let mut writer = p.writer();
        let mut buf: Vec<u8> = Vec::new();
        let mut since = Instant::now();
        let mut previous: Vec<bool> = Vec::new();
        let mut mine = 0u64;
        let mut error: Option<RunError> = None;
        let mut visit = |x: Found<'_>| {
            let step = (|| {
                let wrong = |problem| RunError::Wrong {
                    backend: x.engine.to_string(),
                    problem,
                };
                let s = finish_with(p, self.compiled, &mut evaluator, x.assignment).map_err(wrong)?;
                // Cubes are disjoint, so this worker's answers differ too.
                if mine > 0 && self.projection.same(&previous, x.assignment) {
                    return Err(wrong(AnswerProblem::Violates(
                        "another solution: it is the previous answer again".into(),
                    )));
                }
                previous.clear();
                previous.extend_from_slice(x.assignment);
                mine += 1;
                let k = self.claimed.fetch_add(1, Ordering::Relaxed) + 1;
                if self.limit.is_some_and(|l| k > l) {
                    return Ok(ControlFlow::Break(()));
                }
                if buf.is_empty() {
                    since = Instant::now();
                }
                write_solution(p, writer.as_mut(), self.stream, s, x.engine, k, self.started, &mut buf);
                if buf.len() >= CHUNK_BYTES || since.elapsed() >= CHUNK_AGE {
                    write_chunk(self.out, &buf)?;
                    buf.clear();
                }
                Ok(if self.limit == Some(k) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            })();
            match step {
                Ok(ControlFlow::Continue(())) => ControlFlow::Continue(()),
                Ok(ControlFlow::Break(())) => {
                    self.split.stop();
                    ControlFlow::Break(())
                }
                Err(e) => {
                    error = Some(e);
                    self.split.stop();
                    ControlFlow::Break(())
                }
            }
        };
        let worked = self.split.work(self.opts, &mut visit);
        if error.is_none()
            && !buf.is_empty()
            && let Err(e) = write_chunk(self.out, &buf)
        {
            error = Some(e);
            self.split.stop();
        }
        if let Some(e) = error {
            self.failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
        }
        worked
    }
}

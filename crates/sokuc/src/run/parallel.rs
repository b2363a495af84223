//! `solve --all --jobs N`: [`super::enumerate`] on several threads. The search backend
//! splits its tree into cubes ([`crate::backend::search::jobs`]); each worker thread walks
//! its own copy of the engine and does on its own everything a solution goes through on one
//! thread (evaluated against the IR, decoded, verified, formatted), then writes whole
//! solutions in chunks under one lock. Solutions are numbered by a shared counter claimed
//! before a solution is written, so `--limit N` writes exactly N; nothing is collected
//! beyond one chunk per worker.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use super::assignment::{AnswerProblem, finish_with};
use super::enumerate::{Begun, Enumerated, Walked, begin, end, walk_keeping};
use super::error::RunError;
use super::options::RunOptions;
use super::seen::{Repeat, STRICT_MAX, Seen};
use super::stream::{Stream, write_solution};
use crate::backend::search::jobs::{self, Split, Splitting, Worked};
use crate::backend::{Backend, BackendError, Ended, Found, Parallel, SolveOptions, SolveStats};
use crate::ir::{Evaluator, Lit, Projection};
use crate::puzzle::Puzzle;

/// The most worker threads: more than any machine this runs on has cores; a larger `--jobs`
/// is refused by the CLI and clamped here, so no number reserves memory or threads.
pub const MAX_JOBS: usize = 64;

/// A worker writes its chunk once it holds this many bytes...
const CHUNK_BYTES: usize = 64 * 1024;
/// ...or the waiting thread writes it once its oldest unwritten solution is this old, so
/// that a slow enumeration still streams.
const CHUNK_AGE: Duration = Duration::from_millis(50);
/// How often the waiting thread looks at the chunks' ages.
const FLUSH_TICK: Duration = Duration::from_millis(10);

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
    let (found, ended, stats, at, blocks, memory) = match splitting {
        Splitting::Unknown(stats) => (0, Ended::Unknown, decided(stats), Instant::now(), None, false),
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
            let w = walk_keeping(p, compiled, b, solve_opts, limit, opts.strict, &mut on)?;
            (w.found, w.ended, w.stats, w.at, w.blocks, w.memory)
        }
        #[allow(unused_mut)] // mutated by a test's fault only
        Splitting::Ready(mut split) => {
            #[cfg(test)]
            let fault = FAULT.get();
            #[cfg(test)]
            if fault == Fault::LooseCubes {
                split.loosen();
            }
            let claimed = AtomicU64::new(0);
            let failed: Mutex<Option<RunError>> = Mutex::new(None);
            // Under --strict, every worker's blocking clauses; `None` once there are too many.
            let blocks: Mutex<Option<Vec<Vec<Lit>>>> = Mutex::new(opts.strict.then(Vec::new));
            let full = std::sync::atomic::AtomicBool::new(false);
            let chunks: Vec<Mutex<Chunk>> = (0..jobs).map(|_| Mutex::default()).collect();
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
                blocks: &blocks,
                full: &full,
                strict: opts.strict,
                jobs: jobs as u64,
                #[cfg(test)]
                fault,
            };
            let joined = run_workers(&job, &chunks);
            let at = Instant::now();
            // What the workers left unwritten (a worker that panicked included: every
            // solution in a chunk was checked), unless the output itself failed.
            let output_failed = matches!(*lock(&failed), Some(RunError::Output(_)));
            if !output_failed {
                for c in chunks.iter().filter(|c| !c.is_poisoned()) {
                    if let Err(e) = drain(out, &mut lock(c)) {
                        lock(&failed).get_or_insert(e);
                        break;
                    }
                }
            }
            let worked = joined?;
            if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
                return Err(e);
            }
            let n = claimed.load(Ordering::Relaxed);
            let found = limit.map_or(n, |l| n.min(l));
            let memory = full.load(Ordering::Relaxed);
            // A walk the memory share stopped is no complete one, whatever the workers say.
            let ended = if memory { Ended::Unknown } else { jobs::ended(&worked) };
            let blocks = blocks.into_inner().unwrap_or_else(|e| e.into_inner());
            (found, ended, decided(split.stats(jobs, &worked)), at, blocks, memory)
        }
    };
    Ok(end(
        p,
        b,
        &ready,
        Walked {
            ended,
            found,
            stats,
            first: Vec::new(),
            at,
            blocks,
            memory,
        },
        opts,
        solve_opts,
        started,
    ))
}

/// The workers, one thread per chunk, while this thread writes every chunk whose oldest
/// solution has waited [`CHUNK_AGE`] (a worker writes its own chunk only when it is full,
/// and a worker deep in a barren part of the tree may find nothing for seconds). A worker
/// that panics stops the others at once ([`StopOnPanic`]); its panic becomes an internal
/// error once every worker has ended.
fn run_workers<P: Puzzle>(job: &Job<'_, '_, P>, chunks: &[Mutex<Chunk>]) -> Result<Vec<Worked>, RunError> {
    let (alive, ended) = mpsc::channel::<()>();
    let joined: Vec<std::thread::Result<Worked>> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .enumerate()
            .map(|(i, chunk)| {
                let alive = alive.clone();
                scope.spawn(move || {
                    // Dropped when this worker ends, however it ends: the flushing loop
                    // below waits for every sender to go.
                    let _alive = alive;
                    let _stop = StopOnPanic(job.split);
                    job.work(i, chunk)
                })
            })
            .collect();
        drop(alive);
        loop {
            match ended.recv_timeout(FLUSH_TICK) {
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Ok(()) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            // A chunk whose worker panicked while adding to it may end in part of a
            // solution: it is never written (the run is an error then anyway).
            for c in chunks.iter().filter(|c| !c.is_poisoned()) {
                let mut c = lock(c);
                if c.since.is_some_and(|t| t.elapsed() + FLUSH_TICK >= CHUNK_AGE)
                    && let Err(e) = drain(job.out, &mut c)
                {
                    lock(job.failed).get_or_insert(e);
                    job.split.stop();
                }
            }
        }
        handles.into_iter().map(|h| h.join()).collect()
    });
    joined
        .into_iter()
        .map(|r| {
            r.map_err(|panic| {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic".into());
                RunError::Backend(BackendError::Solver {
                    backend: "search",
                    message: format!("an enumeration worker panicked: {why}"),
                })
            })
        })
        .collect()
}

/// Stops every worker when the worker holding it unwinds from a panic: without it the
/// others would walk every cube they can still take before the panic could be reported.
struct StopOnPanic<'a>(&'a Split);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// One worker's solutions not yet written: whole solutions only, the oldest found at
/// `since`.
#[derive(Default)]
struct Chunk {
    bytes: Vec<u8>,
    since: Option<Instant>,
}

/// A lock whose holder may have panicked where what it guards stays whole (the first
/// error stays the first error; a worker adds to its own chunk while it holds it, and a
/// chunk poisoned that way is left out by the callers).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes a chunk to the shared output and empties it.
fn drain(out: &Shared<'_>, chunk: &mut Chunk) -> Result<(), RunError> {
    if !chunk.bytes.is_empty() {
        write_chunk(out, &chunk.bytes)?;
        chunk.bytes.clear();
    }
    chunk.since = None;
    Ok(())
}

/// Writes whole solutions to the shared output.
fn write_chunk(out: &Shared<'_>, bytes: &[u8]) -> Result<(), RunError> {
    let mut o = lock(out);
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
    /// Under `--strict`, the blocking clauses of the solutions written (see
    /// [`super::seen`]); `None` past [`STRICT_MAX`].
    blocks: &'a Mutex<Option<Vec<Vec<Lit>>>>,
    /// A worker's fingerprints reached its share of the memory limit.
    full: &'a std::sync::atomic::AtomicBool,
    strict: bool,
    jobs: u64,
    #[cfg(test)]
    fault: Fault,
}

impl<P: Puzzle> Job<'_, '_, P> {
    /// Worker `i`: the walk over its cubes, and every solution checked and added to its
    /// chunk, which it writes when full.
    fn work(&self, #[allow(unused_variables)] i: usize, chunk: &Mutex<Chunk>) -> Worked {
        let p = self.p;
        let formula = p.formula(self.compiled);
        let mut evaluator = Evaluator::new(formula);
        let mut writer = p.writer();
        // Each worker remembers its own solutions: the cubes are disjoint and every solution
        // is checked to lie in its own, so no two workers can hand on the same one.
        let projection = self.projection;
        let mut seen = Seen::new(projection, self.opts.encode.max_memory / self.jobs.max(1), false);
        let mut mine = 0u64;
        let mut error: Option<RunError> = None;
        let mut visit = |x: Found<'_>, cube: &[Lit]| {
            let step = (|| {
                let wrong = |problem| RunError::Wrong {
                    backend: x.engine.to_string(),
                    problem,
                };
                #[cfg(test)]
                if self.fault == Fault::Panic && i == 0 && mine == 10 {
                    panic!("a test's fault");
                }
                // The cubes partition the tree, so a solution lies in the cube it was found
                // under; one that does not could be another worker's too (a split or a walk
                // that strays), and would be written twice. Checked, not assumed: a few
                // literals per solution.
                if let Some(l) = cube.iter().find(|l| !l.eval(x.assignment)) {
                    return Err(wrong(AnswerProblem::Violates(format!(
                        "the cube it was found under (variable {} must be {})",
                        l.var().dimacs(),
                        l.is_positive()
                    ))));
                }
                let s = finish_with(p, self.compiled, &mut evaluator, x.assignment).map_err(wrong)?;
                match seen.note(x.assignment) {
                    Err(Repeat::Again) => {
                        return Err(wrong(AnswerProblem::Violates(
                            "another solution: it is one already handed on".into(),
                        )));
                    }
                    Err(Repeat::Full) => {
                        self.full.store(true, Ordering::Relaxed);
                        return Ok(ControlFlow::Break(()));
                    }
                    Ok(()) => {}
                }
                mine += 1;
                let k = self.claimed.fetch_add(1, Ordering::Relaxed) + 1;
                if self.limit.is_some_and(|l| k > l) {
                    return Ok(ControlFlow::Break(()));
                }
                if self.strict {
                    let mut kept = lock(self.blocks);
                    let room = kept.as_ref().is_some_and(|b| (b.len() as u64) < STRICT_MAX);
                    match kept.as_mut() {
                        Some(b) if room => b.push(projection.block(x.assignment)),
                        _ => *kept = None,
                    }
                }
                let mut c = lock(chunk);
                if c.since.is_none() {
                    c.since = Some(Instant::now());
                }
                #[cfg(test)]
                if self.fault == Fault::PanicInChunk && i == 0 && mine == 10 {
                    c.bytes.extend_from_slice(b"{\"partial");
                    panic!("a test's fault");
                }
                write_solution(
                    p,
                    writer.as_mut(),
                    self.stream,
                    s,
                    x.engine,
                    k,
                    self.started,
                    &mut c.bytes,
                );
                if c.bytes.len() >= CHUNK_BYTES {
                    drain(self.out, &mut c)?;
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
        if let Some(e) = error {
            lock(self.failed).get_or_insert(e);
        }
        worked
    }
}

/// A fault a test injects into a parallel enumeration, set on the thread that calls
/// [`enumerate_jobs`].
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    /// Worker 0 panics at its eleventh solution.
    Panic,
    /// Worker 0 panics at its tenth solution, holding its chunk, into which it has
    /// written part of a solution.
    PanicInChunk,
    /// The cubes overlap ([`Split::loosen`]).
    LooseCubes,
}

#[cfg(test)]
thread_local! {
    static FAULT: std::cell::Cell<Fault> = const { std::cell::Cell::new(Fault::None) };
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::run::Enumerated;

    /// `solve FILE --all --jobs 2 --format json` on the search backend with `fault`
    /// injected: the result, what was written, and how long it took.
    fn run(file: &str, fault: Fault) -> (Result<Enumerated, RunError>, String, Duration) {
        let p = crate::registry::load(&Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(file), None).unwrap();
        let mut b = crate::backend::lookup("search").unwrap();
        let mut opts = RunOptions::default();
        opts.solve.time_limit = Some(Duration::from_secs(300));
        let mut out: Vec<u8> = Vec::new();
        FAULT.set(fault);
        let t = Instant::now();
        let r = p.enumerate_jobs(b.as_mut(), &opts, None, 2, Stream::Json, &mut out);
        let took = t.elapsed();
        FAULT.set(Fault::None);
        (r, String::from_utf8(out).unwrap(), took)
    }

    #[test]
    fn a_panicking_worker_stops_the_others_and_is_an_error() {
        for fault in [Fault::Panic, Fault::PanicInChunk] {
            panics(fault);
        }
    }

    fn panics(fault: Fault) {
        // Millions of solutions: walking them all takes minutes on two threads.
        let (r, out, took) = run("instances/icosoku-seed.toml", fault);
        let e = r.expect_err("a worker panicked");
        assert!(matches!(e, RunError::Backend(BackendError::Solver { .. })), "{e:?}");
        assert!(e.to_string().contains("panicked: a test's fault"), "{e}");
        assert_eq!(crate::Error::from(e).exit_code(), crate::error::exit::INTERNAL);
        assert!(took < Duration::from_secs(20), "the other worker went on: {took:?}");
        // What was written are whole, checked solutions (of the other worker, and of the
        // one that panicked unless it held its chunk then).
        assert!(out.is_empty() || out.ends_with('\n'));
        for line in out.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            assert_eq!(v["verified"], true);
        }
    }

    #[test]
    fn a_solution_outside_its_cube_is_an_error() {
        // Overlapping cubes write solutions twice unless each is checked against its cube.
        let (r, _, _) = run("instances/octasoku.toml", Fault::LooseCubes);
        let e = r.expect_err("the cubes overlap");
        assert!(matches!(e, RunError::Wrong { .. }), "{e:?}");
        assert!(e.to_string().contains("the cube it was found under"), "{e}");
        // Without the fault: every one of the 524 solutions, once.
        let (r, out, _) = run("instances/octasoku.toml", Fault::None);
        assert_eq!(r.unwrap().found, 524);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 525, "524 solutions and the summary");
        let distinct: std::collections::HashSet<String> = lines[..524]
            .iter()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["placements"].to_string())
            .collect();
        assert_eq!(distinct.len(), 524);
    }
}

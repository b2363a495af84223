//! Running a sweep: workers solve chunks of canonical instances, the main thread writes the
//! records in order, so the results file is always a valid prefix plus at most one torn line.
//!
//! `--resume` re-reads the results file and checks every record (checksum, position,
//! capacities, the arrangement re-verified), cuts the file at the first bad or torn record and
//! goes on from there. The final file is byte-identical to that of a run never interrupted
//! (`tests/sweep.rs`). The summary counts are over all records; its timing figures cover only
//! the instances this process solved, because records carry no times (so that reruns give
//! identical files).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::error::SweepError;
use super::orbits;
use super::records::Record;
use super::spec::{Shard, Spec};
use super::worker::Worker;
use crate::backend::{self, Status};
use crate::input::Problem;
use crate::puzzle::evidence::Evidence;
use crate::soku::Placement;

#[derive(Debug, Clone)]
pub struct Options {
    pub threads: usize,
    pub backend: String,
    pub shard: Shard,
    /// Block size (see [`DEFAULT_BLOCK`](super::spec::DEFAULT_BLOCK)).
    pub block: u64,
    pub out: Option<PathBuf>,
    pub resume: bool,
    pub limit: Option<usize>,
    pub timeout: Option<Duration>,
    /// How far the sweep has got: instances of this shard done, of all (for the caller to
    /// draw).
    pub progress: crate::budget::Progress,
    /// Tuning experiments for every solve (none by default).
    pub tuning: backend::Tuning,
}

/// What a sweep found.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Summary {
    pub instances: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Records taken from the results file by --resume (not solved again).
    pub resumed: u64,
    pub solved_now: u64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub wall_s: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub per_second: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub p50_ms: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub p99_ms: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub max_ms: f64,
    /// (index, capacities, ms) of the slowest instances solved in this run.
    #[serde(serialize_with = "crate::report::rounded_slowest")]
    pub slowest: Vec<(u64, Vec<u64>, f64)>,
    /// Records that are not sat: (index, capacities, status, and for an unsat one what
    /// backs it: `None` only for a record of format 2, which carries no evidence).
    pub not_sat: Vec<(u64, Vec<u64>, String, Option<Evidence>)>,
}

impl Summary {
    pub(crate) fn count(&mut self, r: &Record) {
        self.instances += 1;
        match r.status {
            Status::Sat => self.sat += 1,
            Status::Unsat => self.unsat += 1,
            Status::Unknown => self.unknown += 1,
        }
        if r.status != Status::Sat {
            self.not_sat.push((
                r.index,
                r.caps.clone(),
                r.status.as_str().to_string(),
                r.refuted.as_ref().map(|x| x.evidence()),
            ));
        }
    }
}

/// The canonical instances of this shard: (global index, capacities).
pub fn shard_instances(
    spec: &Spec,
    group: &[super::symmetry::Perm],
    shard: Shard,
    block: u64,
    limit: Option<usize>,
) -> (u64, Vec<(u64, Vec<u64>)>) {
    let n = spec.variant.num_vertices();
    let mut total = 0u64;
    let mut mine = Vec::new();
    orbits::for_each_canonical(n, &spec.multiset, group, &mut |caps| {
        if shard.owns(total, block) && limit.is_none_or(|l| mine.len() < l) {
            mine.push((total, caps.to_vec()));
        }
        total += 1;
        true
    });
    (total, mine)
}

/// Checks a record read back from a file against the instance it claims to be.
pub fn check_record(spec: &Spec, r: &Record, want_index: u64, want_caps: &[u64]) -> Result<(), Problem> {
    if r.index != want_index {
        return Err(format!("record for instance {} where {want_index} was expected", r.index).into());
    }
    if r.caps != want_caps {
        return Err(format!("instance {want_index} has the wrong capacities").into());
    }
    if let (Some(a), true) = (&r.arrangement, spec.pool) {
        let inst = spec.pool_instance(&r.caps);
        let faces = a
            .iter()
            .map(|&(ty, rot)| {
                let t = *spec
                    .tiles
                    .get(ty)
                    .ok_or_else(|| format!("pool type {} does not exist", ty + 1))?;
                Ok((ty, rot, crate::model::rotate(t, rot)))
            })
            .collect::<Result<Vec<_>, Problem>>()?;
        let s = crate::pool::PoolSolution {
            faces,
            pegs: r.caps.clone(),
        };
        return crate::pool::verify::verify(&inst, &s).map_err(|e| Problem(format!("the arrangement is wrong: {e}")));
    }
    if let Some(a) = &r.arrangement {
        let inst = spec.instance(&r.caps);
        if a.len() != inst.variant.num_faces() {
            return Err("the arrangement has the wrong number of faces".into());
        }
        let mut placements = Vec::with_capacity(a.len());
        for (face, &(tile, rotation)) in a.iter().enumerate() {
            let Some(&w) = inst.tiles.get(tile) else {
                return Err(format!("tile {} does not exist", tile + 1).into());
            };
            placements.push(Placement {
                face,
                tile,
                rotation,
                corners: crate::model::rotate(w, rotation),
            });
        }
        crate::soku::verify::verify(&inst, &placements)
            .map_err(|e| Problem(format!("the arrangement is wrong: {e}")))?;
    }
    Ok(())
}

/// Reads the valid prefix of an existing results file: the records, and the byte length
/// to keep. Stops at the first record that is torn, corrupt or out of place.
fn read_prefix(
    path: &Path,
    header: &str,
    spec: &Spec,
    mine: &[(u64, Vec<u64>)],
) -> Result<(Vec<Record>, u64), SweepError> {
    let file = path.display().to_string();
    let mut rd = BufReader::new(File::open(path)?);
    let mut line = String::new();
    let mut keep = rd.read_line(&mut line)? as u64;
    if line.trim_end() != header {
        if !line.ends_with('\n') && header.starts_with(line.as_str()) {
            // Killed while writing the header: start over.
            return Ok((Vec::new(), 0));
        }
        if line.starts_with(super::records::MAGIC_2) {
            return Err(SweepError::File {
                file,
                line: 1,
                message: "this results file is of an older format (2: its unsat records carry no evidence); finish it with the sokuc that began it, or use another --out".into(),
            });
        }
        return Err(SweepError::File {
            file,
            line: 1,
            message: "this results file belongs to a different sweep (its header differs); use another --out".into(),
        });
    }
    let mut records = Vec::new();
    loop {
        line.clear();
        let n = rd.read_line(&mut line)?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        let Some((want, caps)) = mine.get(records.len()) else {
            break;
        };
        let ok = Record::parse(line.trim_end()).and_then(|r| check_record(spec, &r, *want, caps).map(|_| r));
        match ok {
            Ok(r) => {
                records.push(r);
                keep += n as u64;
            }
            Err(_) => break,
        }
    }
    Ok((records, keep))
}

/// A chunk's index, its records, and whether it is whole (`false`: an interrupt cut it
/// short, and nothing after it is written).
type Chunk = (usize, Vec<(Record, f64)>, bool);

/// Runs the sweep. Records go to `opts.out` (if any) in instance order.
pub fn run(spec: &Spec, opts: &Options) -> Result<Summary, SweepError> {
    let t0 = Instant::now();
    let group = spec.group();
    if opts.block == 0 {
        return Err(SweepError::Usage("--block must be at least 1".into()));
    }
    let (total, mine) = shard_instances(spec, &group, opts.shard, opts.block, opts.limit);
    let header = spec.header(group.len(), opts.shard, opts.block, total, opts.limit);
    let mut summary = Summary::default();
    let mut out: Option<File> = None;
    let mut start = 0usize;
    if let Some(path) = &opts.out {
        // The results file is a journal that --resume continues, so it is written in place
        // (not through a temporary file), but it may never be one of the inputs.
        crate::output::check(path)?;
        let cannot = |e: std::io::Error| SweepError::File {
            file: path.display().to_string(),
            line: 0,
            message: format!("cannot write: {e}"),
        };
        if path.exists() && !opts.resume {
            return Err(SweepError::Usage(format!(
                "{} exists: pass --resume to continue it, or remove it",
                path.display()
            )));
        }
        if path.exists() {
            let (done, keep) = read_prefix(path, &header, spec, &mine)?;
            let mut f = OpenOptions::new().write(true).open(path).map_err(cannot)?;
            f.set_len(keep)?;
            f.seek(SeekFrom::End(0))?;
            if keep == 0 {
                writeln!(f, "{header}")?;
            }
            for r in &done {
                summary.count(r);
            }
            summary.resumed = done.len() as u64;
            start = done.len();
            out = Some(f);
        } else {
            let mut f = File::create(path).map_err(cannot)?;
            writeln!(f, "{header}").map_err(cannot)?;
            out = Some(f);
        }
    }
    let todo = &mine[start..];
    let block_of = |i: usize| todo[i].0 / opts.block;
    // A run resumed in the middle of a block first re-solves the block's earlier instances
    // (answers discarded), so that the engine carries the same guesses as an unbroken run.
    let warm_from = mine[..start]
        .iter()
        .rposition(|(i, _)| todo.first().is_none_or(|t| i / opts.block != t.0 / opts.block))
        .map_or(0, |p| p + 1);
    let warm = &mine[warm_from..start];
    let threads = opts.threads.max(1).min(todo.len().max(1));
    // Chunks small enough to spread the work and to lose little on a kill, large enough
    // that writing is cheap; they end only where a block ends.
    let target = (todo.len() / (threads * 64)).clamp(1, 512);
    let mut bounds = vec![0usize];
    for i in 1..todo.len() {
        if i - bounds[bounds.len() - 1] >= target && block_of(i) != block_of(i - 1) {
            bounds.push(i);
        }
    }
    bounds.push(todo.len());
    let chunks = bounds.len() - 1;
    let bounds = &bounds;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    opts.progress.set_total(u64::try_from(mine.len()).unwrap_or(u64::MAX));
    let mut times: Vec<(f64, u64, Vec<u64>)> = Vec::with_capacity(todo.len());
    let (tx, rx) = mpsc::channel::<Result<Chunk, SweepError>>();
    // What every solve starts from: the time limit and the tuning.
    let base = backend::SolveOptions {
        time_limit: opts.timeout,
        tuning: opts.tuning.clone(),
        ..backend::SolveOptions::default()
    };
    let base = &base;
    let result: Result<(), SweepError> = std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let first = todo.first().map(|(_, c)| c.as_slice()).unwrap_or(&spec.multiset);
                let mut backend = backend::by_name(&opts.backend);
                let worker = match backend.as_deref_mut() {
                    Some(b) => Worker::new(spec, b, first, base),
                    None => Err(SweepError::Usage(format!("unknown backend {:?}", opts.backend))),
                };
                let mut worker = match worker {
                    Ok(w) => w,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                let mut block = u64::MAX;
                loop {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c >= chunks || stop.load(Ordering::Relaxed) || crate::budget::process_interrupted() {
                        return;
                    }
                    let part = &todo[bounds[c]..bounds[c + 1]];
                    let mut recs = Vec::with_capacity(part.len());
                    let warm_up = if c == 0 { warm } else { &[] };
                    for (index, caps) in warm_up {
                        if index / opts.block != block {
                            block = index / opts.block;
                            worker.new_block();
                        }
                        if let Err(e) = worker.solve(spec, *index, caps, base) {
                            stop.store(true, Ordering::Relaxed);
                            let _ = tx.send(Err(e));
                            return;
                        }
                    }
                    let mut whole = true;
                    for (index, caps) in part {
                        if index / opts.block != block {
                            block = index / opts.block;
                            worker.new_block();
                        }
                        let t = Instant::now();
                        match worker.solve(spec, *index, caps, base) {
                            // An answer that comes after a signal may be the interrupt's
                            // `unknown`, not the instance's: it and the rest of the chunk
                            // are left for `--resume`, not written as unknown.
                            Ok(_) if crate::budget::process_interrupted() => {
                                whole = false;
                                break;
                            }
                            Ok(r) => recs.push((r, t.elapsed().as_secs_f64() * 1e3)),
                            Err(e) => {
                                stop.store(true, Ordering::Relaxed);
                                let _ = tx.send(Err(e));
                                return;
                            }
                        }
                    }
                    if tx.send(Ok((c, recs, whole))).is_err() || !whole {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: std::collections::BTreeMap<usize, (Vec<(Record, f64)>, bool)> = Default::default();
        let mut written = 0usize;
        let mut done = 0usize;
        let mut cut = false;
        let mut buf = String::new();
        loop {
            match rx.recv_timeout(Duration::from_millis(250)) {
                Ok(Ok((c, recs, whole))) => {
                    done += recs.len();
                    pending.insert(c, (recs, whole));
                    // Write every chunk that is next in order, each in one write call; the
                    // file stays a prefix of the instances, so nothing after a chunk cut
                    // short by an interrupt is written.
                    while !cut && let Some((recs, whole)) = pending.remove(&written) {
                        cut = !whole;
                        buf.clear();
                        for (r, ms) in recs {
                            buf.push_str(&r.line());
                            summary.count(&r);
                            times.push((ms, r.index, r.caps));
                        }
                        if let Some(f) = out.as_mut() {
                            f.write_all(buf.as_bytes())?;
                        }
                        written += 1;
                    }
                }
                Ok(Err(e)) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            opts.progress.set_done(u64::try_from(start + done).unwrap_or(u64::MAX));
        }
        // After an interrupt the file ends where the instances solved in order end
        // (`--resume` goes on from there), and the summary counts what it holds.
        if written != chunks && !crate::budget::process_interrupted() {
            return Err(SweepError::Usage("a worker stopped before finishing its chunks".into()));
        }
        Ok(())
    });
    result?;
    if let Some(f) = out.as_mut() {
        f.sync_all()?;
    }
    summary.solved_now = times.len() as u64;
    summary.wall_s = t0.elapsed().as_secs_f64();
    summary.per_second = summary.solved_now as f64 / summary.wall_s.max(1e-9);
    let mut ms: Vec<f64> = times.iter().map(|t| t.0).collect();
    ms.sort_by(f64::total_cmp);
    let pct = |p: f64| -> f64 {
        if ms.is_empty() {
            0.0
        } else {
            ms[((p * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1]
        }
    };
    summary.p50_ms = pct(0.5);
    summary.p99_ms = pct(0.99);
    summary.max_ms = ms.last().copied().unwrap_or(0.0);
    times.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    summary.slowest = times.into_iter().take(5).map(|(ms, i, c)| (i, c, ms)).collect();
    Ok(summary)
}

/// The number of canonical instances, without solving.
pub fn count_only(spec: &Spec) -> (usize, u64) {
    let g = spec.group();
    let n = orbits::count(spec.variant.num_vertices(), &spec.multiset, &g);
    (g.len(), n)
}

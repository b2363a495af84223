//! Every capacity arrangement of a variant, up to symmetry, solved and verified: what
//! `sokuc sweep` and `sokuc sweep-merge` run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::options::Options;
use crate::budget::Progress;
use crate::error::{Error, exit};
use crate::input::InputError;
use crate::sweep::run::Summary;
use crate::sweep::spec::{Shard, Spec};
use crate::words::count_s;

/// A sweep over the canonical instances of a variant: each capacity arrangement of a
/// multiset up to the variant's symmetries, solved and verified. Resumable (a results file
/// that [`Sweep::resume`] continues), shardable ([`Sweep::shard`]) and mergeable
/// ([`Sweep::merge`]). Build it with [`Sweep::new`] and its setters, then [`Sweep::run`]:
///
/// ```
/// use sokuc::{Backend, Options, Sweep};
///
/// let sweep = Sweep::new("tetrahedron", Some("0,0,1;0,0,2;0,0,3;1,1,2"), None, None)?;
/// assert_eq!(sweep.variant(), "tetrahedron");
/// let summary = sweep.threads(1).options(&Options::new().backend(Backend::Search)).run()?;
/// assert_eq!(summary.instances(), summary.sat() + summary.unsat() + summary.unknown());
/// assert!(summary.text().starts_with("sweep tetrahedron: "));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Sweep {
    spec: Spec,
    threads: Option<usize>,
    shard: Shard,
    block: u64,
    output: Option<PathBuf>,
    resume: bool,
    limit: Option<usize>,
    options: Options,
    progress: Progress,
}

impl Sweep {
    /// How many consecutive canonical instances form a block by default ([`Sweep::block`]).
    pub const DEFAULT_BLOCK: u64 = crate::sweep::spec::DEFAULT_BLOCK;

    /// The sweep of `what`: a variant (a built-in name or a `.toml` variant file), or a 3SoKu
    /// instance file whose variant, tiles and capacity multiset are swept. `tiles` is a
    /// built-in set (`icosoku`) or a list like `"0,0,1;0,1,2;..."` (by default the
    /// instance's, or icosoku's on the icosahedron); `caps` the capacity multiset, like
    /// `"1,2,3,4"` (by default the instance's, or 1 to the number of vertices); `pool`, in
    /// place of tiles, the types of Liu's all-different triangular solutions that faces take
    /// at most once each (`all24`: every corner triple over 0..3 up to rotation).
    ///
    /// The search backend, one engine per thread, every core, all the instances and no time
    /// limit, until the setters say otherwise.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when `what` cannot be read, the lists do not parse, or their lengths
    /// do not fit the variant (an instance with fixed tiles is refused too).
    pub fn new(what: &str, tiles: Option<&str>, caps: Option<&str>, pool: Option<&str>) -> Result<Sweep, Error> {
        Ok(Sweep {
            spec: crate::sweep::request::spec(what, tiles, caps, pool)?,
            threads: None,
            shard: Shard::ALL,
            block: Self::DEFAULT_BLOCK,
            output: None,
            resume: false,
            limit: None,
            options: Options::new().backend(super::backend::Backend::Search),
            progress: Progress::default(),
        })
    }

    /// The name of the variant swept.
    pub fn variant(&self) -> &str {
        &self.spec.variant.name
    }

    /// The symmetries the instances are taken up to: the rotations, and the reflections too
    /// when the tiles are their own mirror image.
    pub fn symmetries(&self) -> usize {
        self.spec.group().len()
    }

    /// The number of canonical instances of the whole sweep (every shard), counted without
    /// solving.
    pub fn instances(&self) -> u64 {
        crate::sweep::run::count_only(&self.spec).1
    }

    /// Worker threads (by default the machine's cores).
    pub fn threads(mut self, threads: usize) -> Sweep {
        self.threads = Some(threads);
        self
    }

    /// The backend, the time limit per instance (past it the record says unknown) and the
    /// tuning experiments of `options`; the sweep takes none of its other settings but
    /// [`Options::strict`], which [`Sweep::run`] refuses (a sweep asks no second engine).
    /// Without it: the search backend, one engine per worker, re-solved with each new
    /// capacities.
    pub fn options(mut self, options: &Options) -> Sweep {
        self.options = options.clone();
        self
    }

    /// Only the blocks of instances whose block number (index / block size) is `k` modulo
    /// `n`, given as `"K/N"`; [`Sweep::merge`] puts the shards' results files together.
    ///
    /// # Errors
    ///
    /// [`Error::Input`], under the name `--shard`, unless `shard` is `K/N` with `0 <= K < N`.
    pub fn shard(mut self, shard: &str) -> Result<Sweep, Error> {
        self.shard = Shard::parse(shard).map_err(|m| InputError::new("--shard", None, m))?;
        Ok(self)
    }

    /// Consecutive canonical instances that go to the same shard and share the search
    /// engine's carried solution ([`Sweep::DEFAULT_BLOCK`] by default; at least 1, or the
    /// run fails): answers depend only on the block size, never on threads or shards.
    pub fn block(mut self, block: u64) -> Sweep {
        self.block = block;
        self
    }

    /// The results file: a header and one record per instance, in order, written as the
    /// sweep goes (never onto one of the program's inputs).
    pub fn output(mut self, path: impl Into<PathBuf>) -> Sweep {
        self.output = Some(path.into());
        self
    }

    /// Continue the results file of [`Sweep::output`] where it stopped (its records are
    /// checked, and a torn last one is solved again); without it an existing file is an
    /// error.
    pub fn resume(mut self, yes: bool) -> Sweep {
        self.resume = yes;
        self
    }

    /// Only the first `n` instances (of this shard).
    pub fn limit(mut self, n: usize) -> Sweep {
        self.limit = Some(n);
        self
    }

    /// Counters the sweep keeps up to date: instances of this shard done, of all.
    pub fn progress(mut self, progress: &Progress) -> Sweep {
        self.progress = progress.clone();
        self
    }

    /// Runs the sweep. After an interrupt ([`crate::interrupt_process_on`]) the results file
    /// ends where the instances solved in order end, and the summary counts what it holds.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when the results file exists without [`Sweep::resume`], belongs to
    /// another sweep or cannot be written, or the block size is 0; [`Error::Output`] when
    /// the results file is one of the inputs; [`Error::Internal`] when a verified answer is
    /// wrong, a worker fails or the results file fails in the middle;
    /// [`Error::Unsupported`] with [`Options::strict`].
    pub fn run(&self) -> Result<SweepSummary, Error> {
        if self.options.strict {
            // Each unsat record names what backs it; none is put to a second engine, so a
            // strict sweep is refused rather than run on one engine's word.
            return Err(Error::unsupported(
                "--strict",
                "--strict does not go with sweep: its unsat records rest on one engine's word (each names it), and no second engine is asked",
            ));
        }
        let opts = crate::sweep::run::Options {
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            backend: self.options.backend.name().to_string(),
            shard: self.shard,
            block: self.block,
            out: self.output.clone(),
            resume: self.resume,
            limit: self.limit,
            timeout: self.options.timeout,
            progress: self.progress.clone(),
            tuning: super::run::tuning(&self.options),
        };
        Ok(SweepSummary {
            name: self.spec.variant.name.clone(),
            inner: crate::sweep::run::run(&self.spec, &opts)?,
        })
    }

    /// Merges the results files of the shards of one sweep (every K of one K/N split),
    /// writing the combined file, identical to a single run's, to `output` if given (never
    /// onto one of the shards; a failed merge leaves nothing there).
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when no file is given, a file cannot be read, or the files are not
    /// the complete shards of one sweep; [`Error::Output`] when `output` cannot be written.
    pub fn merge(files: &[PathBuf], output: Option<&Path>) -> Result<SweepSummary, Error> {
        Ok(SweepSummary {
            name: "merged".to_string(),
            inner: crate::sweep::merge::merge(files, output)?,
        })
    }
}

/// What a sweep ([`Sweep::run`]) or a merge ([`Sweep::merge`]) found: counts over every
/// record, and timings over the instances this run solved (records carry no times).
#[derive(Debug, Clone)]
pub struct SweepSummary {
    name: String,
    inner: Summary,
}

impl SweepSummary {
    /// The instances in the results (those taken from the results file included).
    pub fn instances(&self) -> u64 {
        self.inner.instances
    }

    /// The instances that have a verified arrangement.
    pub fn sat(&self) -> u64 {
        self.inner.sat
    }

    /// The instances that have none.
    pub fn unsat(&self) -> u64 {
        self.inner.unsat
    }

    /// The instances left undecided (a time limit).
    pub fn unknown(&self) -> u64 {
        self.inner.unknown
    }

    /// The summary `sokuc sweep` prints: the counts, the timings, the slowest instances and
    /// the first 20 that are not sat, a line each.
    pub fn text(&self) -> String {
        let s = &self.inner;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "sweep {}: {}: {} sat, {} unsat, {} unknown ({} from the results file, {} solved now)",
            self.name,
            count_s(s.instances, "instance"),
            s.sat,
            s.unsat,
            s.unknown,
            s.resumed,
            s.solved_now
        );
        if s.solved_now > 0 {
            let _ = writeln!(
                out,
                "wall {:.1} s, {:.0} instances/s; per instance p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
                s.wall_s, s.per_second, s.p50_ms, s.p99_ms, s.max_ms
            );
            let slow: Vec<String> = s
                .slowest
                .iter()
                .map(|(i, c, ms)| format!("#{i} ({}) {ms:.3} ms", Spec::join(c, ",")))
                .collect();
            let _ = writeln!(out, "slowest: {}", slow.join("; "));
        }
        for (i, c, st, evidence) in s.not_sat.iter().take(20) {
            let by = match evidence.as_ref().and_then(|e| e.claims.first()) {
                Some(claim) => format!("; evidence: {}", claim.line()),
                None => String::new(),
            };
            let _ = writeln!(out, "{st}: #{i} ({}){by}", Spec::join(c, ","));
        }
        if s.not_sat.len() > 20 {
            let _ = writeln!(out, "... and {} more that are not sat", s.not_sat.len() - 20);
        }
        out
    }

    /// The same figures as JSON, by name (times rounded to the microsecond).
    pub fn json(&self) -> serde_json::Value {
        // Plain numbers and lists: serializing into a value cannot fail.
        serde_json::to_value(&self.inner).unwrap_or_default()
    }

    /// The exit code of `sokuc sweep`: 30 when an instance is unknown, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.inner.unknown > 0 {
            exit::UNKNOWN
        } else {
            exit::SAT
        }
    }
}

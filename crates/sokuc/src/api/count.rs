//! How to count: the options of [`crate::Instance::count`] and [`crate::Model::count`], and
//! the count with the figures of how it was found ([`Counted`]).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::budget::{Deadline, Progress};
use crate::count::{CountError, CountOptions};
use crate::error::Error;

/// The limits of an exact count. Build it with [`Count::new`] and its setters.
///
/// ```
/// use std::time::Duration;
/// let limits = sokuc::Count::new().timeout(Duration::from_secs(60)).max_memory(1 << 30);
/// # let _ = limits;
/// ```
#[derive(Debug, Clone)]
pub struct Count {
    timeout: Option<Duration>,
    max_memory: u64,
    interrupt: Option<Arc<AtomicBool>>,
    progress: Progress,
    strict: bool,
}

impl Default for Count {
    fn default() -> Count {
        Count {
            timeout: None,
            max_memory: CountOptions::default().max_memory,
            interrupt: None,
            progress: Progress::default(),
            strict: false,
        }
    }
}

/// Why a count under [`Count::strict`] is refused.
const STRICT: &str = "--strict does not go with count: a count rests on one counter's word (see its evidence), and no counter of another kind is there to confirm it";

impl Count {
    /// No time limit, and the command line's memory limit (8 GiB).
    pub fn new() -> Count {
        Count::default()
    }

    /// A time limit for the count; past it there is no count (`Ok(None)`).
    pub fn timeout(mut self, limit: Duration) -> Count {
        self.timeout = Some(limit);
        self
    }

    /// The most memory the counter's tables may take, in bytes; a count that needs more is
    /// refused with an error that says how much it needs.
    pub fn max_memory(mut self, bytes: u64) -> Count {
        self.max_memory = bytes;
        self
    }

    /// A flag that stops the count when another thread sets it (`Ok(None)`).
    pub fn interrupt(mut self, flag: Arc<AtomicBool>) -> Count {
        self.interrupt = Some(flag);
        self
    }

    /// Where the count reports how far it has got, for another thread to show while it
    /// runs, and for the caller to say after a time limit. The 3SoKu counter reports the
    /// faces placed ([`Snapshot::done`](crate::Snapshot::done) of
    /// [`total`](crate::Snapshot::total)) and the states in its last layer
    /// ([`figure`](crate::Snapshot::figure)); the other counters report nothing (the total
    /// stays 0).
    ///
    /// ```
    /// use sokuc::{Count, Instance, Progress};
    ///
    /// let progress = Progress::default();
    /// # std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap(); // the repository
    /// let octa = Instance::read("instances/octasoku.toml")?;
    /// octa.count(&Count::new().progress(progress.clone()))?;
    /// // The octahedron's 8 faces, and how many were placed when the count last reported.
    /// let got = progress.get();
    /// assert_eq!(got.total, 8);
    /// assert!(got.done <= got.total);
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    pub fn progress(mut self, progress: Progress) -> Count {
        self.progress = progress;
        self
    }

    /// Hold the count to `--strict`: accept it only when more than one counter's word backs
    /// it. No second counter exists yet, so a strict count is refused
    /// ([`Error::Unsupported`], as `sokuc count --strict` exits 2) rather than given on one
    /// counter's word.
    ///
    /// ```
    /// use sokuc::{Count, Instance};
    ///
    /// # std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap(); // the repository
    /// let octa = Instance::read("instances/octasoku.toml")?;
    /// let refused = octa.count(&Count::new().strict(true)).unwrap_err();
    /// assert_eq!(refused.exit_code(), sokuc::exit::USAGE);
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    pub fn strict(mut self, yes: bool) -> Count {
        self.strict = yes;
        self
    }

    /// The library's options, the time limit counted from now.
    pub(crate) fn options(&self) -> CountOptions {
        CountOptions {
            max_memory: self.max_memory,
            deadline: Deadline::counted_from(Instant::now(), self.timeout, self.interrupt.clone()),
            progress: self.progress.clone(),
        }
    }

    /// Counts `puzzle`: `None` when the time limit (or the interrupt) came first.
    pub(crate) fn counted(&self, puzzle: &dyn crate::run::AnyPuzzle) -> Result<Option<Counted>, Error> {
        if self.strict {
            return Err(Error::unsupported("--strict", STRICT));
        }
        match crate::count::count(puzzle, &self.options()) {
            Ok(inner) => Ok(Some(Counted {
                inner,
                kind: puzzle.kind(),
            })),
            Err(CountError::TimedOut) => Ok(None),
            Err(CountError::Refused(e) | CountError::OverMemory(e)) => Err(e),
        }
    }

    pub(crate) fn run(&self, puzzle: &dyn crate::run::AnyPuzzle) -> Result<Option<BigUint>, Error> {
        Ok(self.counted(puzzle)?.map(|c| c.inner.count))
    }
}

/// An exact count and how it was found, as `sokuc count` prints it
/// ([`Instance::count_detailed`](crate::Instance::count_detailed)).
///
/// A *solution* is what a person sees: identical tiles are interchangeable, and a tile that
/// looks the same turned counts once per distinct look. [`Counted::placements`] counts the
/// tiles as distinguishable instead.
#[derive(Debug, Clone)]
pub struct Counted {
    inner: crate::count::Counted,
    kind: &'static str,
}

impl Counted {
    /// The number of distinct solutions.
    pub fn count(&self) -> &BigUint {
        &self.inner.count
    }

    /// The number of placements of distinguishable tiles: the count times the product of
    /// the factorials of how often each tile type is used (the count itself for kinds
    /// without tiles).
    pub fn placements(&self) -> &BigUint {
        &self.inner.placements
    }

    /// How the count was found, in words ("frontier dynamic programming over 20 faces
    /// (...)", or the model counter's method).
    pub fn method(&self) -> &str {
        &self.inner.method
    }

    /// How long counting took.
    pub fn time(&self) -> Duration {
        self.inner.time
    }

    /// What backs the count: the claim [`ClaimKind::Complete`](crate::ClaimKind::Complete)
    /// ("every solution was counted"), by the counter that counted (`frontier`,
    /// `pool-frontier`, `sharp`, or `presolve` for none by an argument), on its word.
    pub fn evidence(&self) -> super::Evidence<'_> {
        super::Evidence::of(&self.inner.evidence)
    }

    /// The count as `sokuc count --format json` prints it: `status` `counted`, `puzzle`,
    /// `count` and `placements` as decimal strings (they may pass 2^64), `method`,
    /// `time_ms`, its `evidence`, and the counter's figures in `stats`.
    pub fn json(&self) -> serde_json::Value {
        self.inner.json(self.kind)
    }
}

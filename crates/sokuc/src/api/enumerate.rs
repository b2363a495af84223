//! Every solution of an instance, written as it is found (`sokuc solve --all`).

use std::time::Duration;

use crate::backend::Ended;
use crate::ir::Status;

/// How [`Instance::enumerate`](crate::Instance::enumerate) writes the solutions: as text (each
/// solution as [`Instance::solve`](crate::Instance::solve) prints it, then
/// [`Enumerate::SEPARATOR`]; `==========` once that is all of them, as MiniZinc does), or as
/// JSON lines (one outcome per solution, then a summary); how many; on how many threads.
///
/// ```
/// use sokuc::{Enumerate, Instance, Options};
///
/// let cnf = Instance::parse("cnf", "or.cnf", "p cnf 2 1\n1 2 0\n")?;
/// let mut out = Vec::new();
/// let e = cnf.enumerate(&Options::new(), &Enumerate::new(), &mut out)?;
/// assert_eq!(e.found(), 3);
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text.lines().filter(|l| *l == Enumerate::SEPARATOR).count(), 3);
/// assert!(text.ends_with("==========\n"));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Enumerate {
    pub(crate) limit: Option<u64>,
    pub(crate) jobs: usize,
    pub(crate) json: bool,
}

impl Default for Enumerate {
    fn default() -> Self {
        Enumerate {
            limit: None,
            jobs: 1,
            json: false,
        }
    }
}

impl Enumerate {
    /// The line written after each solution of the text.
    pub const SEPARATOR: &'static str = crate::run::stream::SEPARATOR;

    /// The most threads an enumeration runs on.
    pub const MAX_JOBS: usize = crate::run::parallel::MAX_JOBS;

    /// Every solution, as text, on one thread.
    pub fn new() -> Enumerate {
        Enumerate::default()
    }

    /// Stop after `n` solutions (the enumeration then ends [`Ended::Stopped`] if there may
    /// be more).
    pub fn limit(mut self, n: u64) -> Enumerate {
        self.limit = Some(n);
        self
    }

    /// Enumerate on `n` threads (1 to [`Enumerate::MAX_JOBS`]; outside that, the nearest):
    /// the same solutions, in an order that depends on timing, each written whole. More than
    /// one is for the backends that enumerate in parallel (`search`, and `auto` where it
    /// picks it); the others refuse it.
    pub fn jobs(mut self, n: usize) -> Enumerate {
        self.jobs = n;
        self
    }

    /// JSON lines instead of text.
    pub fn json(mut self, yes: bool) -> Enumerate {
        self.json = yes;
        self
    }
}

/// How an enumeration ended: how many solutions, whether that is all of them, what backs
/// that claim, on which backend, and in what time. "That is all of them" (and "there is
/// none") is a claim no verifier checks: the run path's gate weighs it as it weighs
/// `solve`'s unsat, and [`Enumerated::complete`] is true only when it accepted it.
#[derive(Debug, Clone)]
pub struct Enumerated {
    pub(crate) inner: crate::run::Enumerated,
}

impl Enumerated {
    /// [`Status::Sat`] with at least one solution; else whether there is none
    /// ([`Status::Unsat`]) or none was found in time ([`Status::Unknown`]).
    pub fn status(&self) -> Status {
        self.inner.status
    }

    /// How many solutions were written.
    pub fn found(&self) -> u64 {
        self.inner.found
    }

    /// Whether that is all of them ([`Ended::Complete`]: the claim was made and accepted),
    /// the limit stopped it, or the time limit or an interrupt came first, or the claim was
    /// withheld ([`Ended::Unknown`] both; [`Enumerated::evidence`] says which).
    pub fn ended(&self) -> Ended {
        self.inner.ended
    }

    /// Whether every solution was listed: the engine (or presolve, or the LP) claimed it and
    /// the gate accepted the claim. Under [`Options::strict`](crate::Options::strict) that
    /// takes a second engine of another kind, which is asked only about enumerations of at
    /// most 2,000 solutions.
    pub fn complete(&self) -> bool {
        self.inner.ended == Ended::Complete
    }

    /// What backs the end's claim ([`ClaimKind::Complete`](crate::ClaimKind::Complete), or
    /// [`ClaimKind::Unsat`](crate::ClaimKind::Unsat) without a solution), accepted or
    /// withheld, with the faults of engines that answered wrongly: the summary's `evidence`.
    pub fn evidence(&self) -> super::Evidence<'_> {
        super::Evidence::of(&self.inner.evidence)
    }

    /// Whether the interrupt flag ([`crate::Options::interrupt`]) ended it, rather than the
    /// time limit (then [`Enumerated::ended`] is [`Ended::Unknown`]).
    pub fn interrupted(&self) -> bool {
        self.inner.interrupted
    }

    /// With no solution: why (presolve's or the LP's argument, the backend that proved it,
    /// or why it is unknown).
    pub fn reason(&self) -> Option<&str> {
        self.inner.reason.as_deref()
    }

    /// The backend that enumerated (for `auto`, the one it picked).
    pub fn backend(&self) -> &'static str {
        self.inner.backend
    }

    /// The time from the start of the clock (see
    /// [`Options::clock_started`](crate::Options::clock_started)) to the end.
    pub fn elapsed(&self) -> Duration {
        Duration::from_secs_f64(self.inner.total_ms.max(0.0) / 1e3)
    }

    /// The exit code `sokuc solve --all` ends with: 0 with a solution, 20 when there is
    /// none, 30 when none was found in time; 1 when a second engine's checked solution
    /// contradicts the claim that there is no other.
    pub fn exit_code(&self) -> u8 {
        if self.inner.contradiction() {
            return crate::error::exit::INTERNAL;
        }
        crate::error::status_code(self.inner.status)
    }
}

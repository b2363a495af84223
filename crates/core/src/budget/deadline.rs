//! The command's time limit and interrupt, as every stage sees them.
//!
//! `--timeout` is one clock for the whole command, started before the instance is read, so
//! reading, presolve, compiling, encoding and solving all count, on every backend. Past it the
//! answer is `unknown` (exit 30) within about a second more: the time to free what was built
//! (measured at most 0.4 s, on the scaling families at `--timeout 2` and on bipyramid-2000 at
//! `--timeout 1`).
//!
//! Who looks at the clock: the encoders every 1,024 clauses (`encode::sink`), the search
//! engine at a pace that adapts to how long its nodes take, varisat between decisions (the
//! stop check patched into `vendor/varisat`), CaDiCaL through its terminator. Work that cannot
//! look at the clock runs on a worker thread whose caller answers at the deadline through
//! `Deadline::wait`: compiling and presolve (when a limit is set; `stop` lets the front-ends'
//! loops notice), pumpkin always (posting a large row can take seconds). CBC and HiGHS cannot
//! be stopped from outside at all and overrun their own limits (CBC by 3 minutes past 10 s on
//! bipyramid-2000), so they run in helper processes that are killed at the deadline, and the
//! next solve (`compare`, `bench`, `scaling`) starts at once. A worker left behind is joined
//! within `GRACE` (`join_within`); `tests/workers.rs` and `tests/engine_threads.rs` check that
//! none outlives its solve.
//!
//! `bench`, `scaling` and `sweep` give each instance its own limit; `compare` shares one limit
//! between its backends (see `crate::compare`). A signal (`interrupt_process_on`, set by the
//! binary on SIGINT and SIGTERM) ends a command as its time limit would, and nothing found
//! before it is lost. `tests/limits.rs` runs every backend at `--timeout 1` on an instance that
//! takes it 18 s to minutes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The process's interrupt flag, when a program has one (the `sokuc` binary sets it on
/// SIGINT and SIGTERM): see [`interrupt_process_on`].
static PROCESS_FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Makes `flag` the interrupt flag of every solve, count and encoding started from now on
/// in this process without one of its own (`crate::Options::interrupt`): setting it
/// stops them as a time limit would, with what was found kept. Options are built in many
/// places (every command, every worker's copy, every library call with the defaults); with
/// this, a program that turns a signal into a flag (as the `sokuc` command does on SIGINT
/// and SIGTERM) leaves no stage deaf to it. The first call wins; `false` when a flag was
/// already set.
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::AtomicBool;
///
/// let flag = Arc::new(AtomicBool::new(false));
/// assert!(sokuc_core::budget::interrupt_process_on(flag.clone()));
/// assert!(!sokuc_core::budget::interrupt_process_on(flag)); // already set
/// ```
pub fn interrupt_process_on(flag: Arc<AtomicBool>) -> bool {
    PROCESS_FLAG.set(flag).is_ok()
}

/// Whether the process's interrupt flag ([`interrupt_process_on`]) is set.
pub fn process_interrupted() -> bool {
    PROCESS_FLAG.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// A point in time and/or an interrupt flag, checked by long-running searches and encoders.
#[derive(Debug, Clone, Default)]
pub struct Deadline {
    at: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
}

impl Deadline {
    /// `limit` from now (the tests' deadlines; the library counts from a command's start,
    /// [`Deadline::counted_from`]).
    #[cfg(any(test, feature = "testing"))]
    pub fn new(limit: Option<Duration>, flag: Option<Arc<AtomicBool>>) -> Deadline {
        Deadline::counted_from(Instant::now(), limit, flag)
    }

    /// `limit` from `start`: a limit that began counting before this call (at the start of
    /// a command, before parsing, presolve and encoding) keeps counting from there. Without
    /// a `flag`, the process's ([`interrupt_process_on`]), if it has one.
    pub fn counted_from(start: Instant, limit: Option<Duration>, flag: Option<Arc<AtomicBool>>) -> Deadline {
        Deadline {
            // An absurd limit (beyond what `Instant` can represent) is no limit.
            at: limit.and_then(|d| start.checked_add(d)),
            flag: flag.or_else(|| PROCESS_FLAG.get().cloned()),
        }
    }

    /// This deadline, or `limit` from now if that comes first, with the same interrupt flag:
    /// a slice of the time left, for a first attempt that may hand over to a second (CBC's
    /// light settings before its full ones).
    pub fn sooner(&self, limit: Duration) -> Deadline {
        let slice = Instant::now().checked_add(limit);
        Deadline {
            at: match (self.at, slice) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            flag: self.flag.clone(),
        }
    }

    pub fn is_set(&self) -> bool {
        self.at.is_some() || self.flag.is_some()
    }

    pub fn passed(&self) -> bool {
        self.at.is_some_and(|t| Instant::now() >= t) || self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether the interrupt flag is set: an ending that [`Deadline::passed`] caused was an
    /// interrupt (a signal), not the time limit.
    pub fn interrupted(&self) -> bool {
        self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether something done at `at` (a claim made, an answer sent) came after the time
    /// limit and its grace ([`GRACE`]): too late to count. This is the one definition of
    /// "late" that the portfolio's race and the run path's gate both apply, each to the
    /// instant the claim was made, never to when its caller got to look at it. An interrupt
    /// is no deadline here: what came before it counts.
    pub fn late(&self, at: Instant) -> bool {
        self.at.and_then(|t| t.checked_add(GRACE)).is_some_and(|end| at > end)
    }

    /// Time left before the deadline (`None`: no time limit).
    pub fn remaining(&self) -> Option<Duration> {
        self.at.map(|t| t.saturating_duration_since(Instant::now()))
    }

    /// Waits on `rx` for what a worker thread sends, looking at the deadline (and so at the
    /// interrupt flag, which has no time of its own) every `poll`; `tick` runs at each look
    /// and may stop the wait with an error (a memory guard). Work that cannot look at the
    /// clock itself (compiling, pumpkin posting a row, CBC) runs on a worker, and its caller
    /// answers at the deadline through this one loop.
    pub fn wait<T, E>(
        &self,
        rx: &Receiver<T>,
        poll: Duration,
        mut tick: impl FnMut() -> Result<(), E>,
    ) -> Result<Waited<T>, E> {
        loop {
            let wait = self.remaining().map_or(poll, |t| t.min(poll));
            match rx.recv_timeout(wait) {
                Ok(v) => return Ok(Waited::Done(v)),
                Err(RecvTimeoutError::Disconnected) => return Ok(Waited::WorkerGone),
                Err(RecvTimeoutError::Timeout) if self.passed() => return Ok(Waited::Passed),
                Err(RecvTimeoutError::Timeout) => tick()?,
            }
        }
    }
}

/// How long a caller that answered at the deadline waits for its worker to end (see
/// [`join_within`]).
pub const GRACE: Duration = Duration::from_millis(200);

/// Waits up to `grace` for a worker that looks at the same deadline (or was told to stop)
/// to end, and joins it; `None` when it is still running then, and is left to end on its
/// own. A worker left running takes a core from whatever the process does next (the next
/// instance of a `bench` or `sweep`, skewing its time), so a caller that answered at the
/// deadline gives it this long; what cannot stop within it (a solver posting one row of a
/// huge model, or freeing hundreds of megabytes) would hold the answer back for seconds.
pub fn join_within<T>(worker: std::thread::JoinHandle<T>, grace: Duration) -> Option<std::thread::Result<T>> {
    let until = Instant::now() + grace;
    while !worker.is_finished() {
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Some(worker.join())
}

/// What [`Deadline::wait`] saw first.
#[derive(Debug)]
pub enum Waited<T> {
    Done(T),
    /// The deadline passed (or the interrupt flag was set); the worker is the caller's to
    /// stop, or to wait for ([`join_within`]).
    Passed,
    /// The worker ended without sending: it panicked.
    WorkerGone,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_is_past_the_limit_and_its_grace_whenever_it_is_asked() {
        let start = Instant::now();
        let d = Deadline::counted_from(start, Some(Duration::from_millis(100)), None);
        let at = |ms| start + Duration::from_millis(ms);
        assert!(!d.late(at(50)));
        // Within the grace: on time.
        assert!(!d.late(at(100) + GRACE));
        assert!(d.late(at(101) + GRACE));
        // No limit, nothing is late; an interrupt is no limit.
        let flag = Arc::new(AtomicBool::new(true));
        assert!(!Deadline::counted_from(start, None, Some(flag)).late(at(1_000_000)));
    }

    #[test]
    fn a_slice_ends_at_the_earlier_time_and_keeps_the_flag() {
        let none = Deadline::default();
        let r = none.sooner(Duration::from_secs(5)).remaining().unwrap();
        assert!(r <= Duration::from_secs(5) && r > Duration::from_secs(4));
        let near = Deadline::new(Some(Duration::from_millis(10)), None);
        assert!(near.sooner(Duration::from_secs(60)).remaining().unwrap() <= Duration::from_millis(10));
        let far = Deadline::new(Some(Duration::from_secs(60)), None);
        assert!(far.sooner(Duration::from_secs(1)).remaining().unwrap() <= Duration::from_secs(1));
        // An interrupt ends the slice too.
        let flag = Arc::new(AtomicBool::new(false));
        let slice = Deadline::new(None, Some(flag.clone())).sooner(Duration::from_secs(60));
        assert!(!slice.passed());
        flag.store(true, Ordering::Relaxed);
        assert!(slice.passed());
        // A slice too long for `Instant` leaves the deadline as it was.
        assert!(none.sooner(Duration::MAX).remaining().is_none());
    }
}

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A point in time and/or an interrupt flag, checked by long-running searches and encoders.
#[derive(Debug, Clone, Default)]
pub struct Deadline {
    at: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
}

impl Deadline {
    /// `limit` from now.
    pub fn new(limit: Option<Duration>, flag: Option<Arc<AtomicBool>>) -> Deadline {
        Deadline::counted_from(Instant::now(), limit, flag)
    }

    /// `limit` from `start`: a limit that began counting before this call (at the start of
    /// a command, before parsing, presolve and encoding) keeps counting from there.
    pub fn counted_from(start: Instant, limit: Option<Duration>, flag: Option<Arc<AtomicBool>>) -> Deadline {
        Deadline {
            // An absurd limit (beyond what `Instant` can represent) is no limit.
            at: limit.and_then(|d| start.checked_add(d)),
            flag,
        }
    }

    pub fn is_set(&self) -> bool {
        self.at.is_some() || self.flag.is_some()
    }

    pub fn passed(&self) -> bool {
        self.at.is_some_and(|t| Instant::now() >= t) || self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Time left before the deadline (`None`: no time limit).
    pub fn remaining(&self) -> Option<Duration> {
        self.at.map(|t| t.saturating_duration_since(Instant::now()))
    }
}

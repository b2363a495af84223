use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A point in time and/or an interrupt flag, checked by long-running searches.
#[derive(Debug, Clone, Default)]
pub struct Deadline {
    at: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
}

impl Deadline {
    pub fn new(limit: Option<Duration>, flag: Option<Arc<AtomicBool>>) -> Deadline {
        Deadline {
            at: limit.map(|d| Instant::now() + d),
            flag,
        }
    }

    pub fn is_set(&self) -> bool {
        self.at.is_some() || self.flag.is_some()
    }

    pub fn passed(&self) -> bool {
        self.at.is_some_and(|t| Instant::now() >= t) || self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

//! How to count: the options of [`crate::Instance::count`] and [`crate::Model::count`].

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::budget::Deadline;
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
}

impl Default for Count {
    fn default() -> Count {
        Count {
            timeout: None,
            max_memory: CountOptions::default().max_memory,
            interrupt: None,
        }
    }
}

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

    pub(crate) fn run(&self, puzzle: &dyn crate::run::AnyPuzzle) -> Result<Option<BigUint>, Error> {
        let opts = CountOptions {
            max_memory: self.max_memory,
            deadline: Deadline::counted_from(Instant::now(), self.timeout, self.interrupt.clone()),
            ..CountOptions::default()
        };
        match crate::count::count(puzzle, &opts) {
            Ok(c) => Ok(Some(c.count)),
            Err(CountError::TimedOut) => Ok(None),
            Err(CountError::Refused(e) | CountError::OverMemory(e)) => Err(e),
        }
    }
}

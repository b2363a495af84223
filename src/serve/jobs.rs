//! Running requests by the name the page gave them, so that "Stop" (or leaving the page) can
//! cancel one: each has its own interrupt flag, which the run path polls as it would a Ctrl-C,
//! and its own progress counters, which `/api/progress` reads while it runs.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use sokuc::{Progress, Snapshot};

/// What the table holds of a running request.
#[derive(Debug)]
struct Running {
    flag: Arc<AtomicBool>,
    progress: Progress,
}

/// The cancellable requests now running.
#[derive(Debug, Default)]
pub struct Jobs {
    running: Mutex<HashMap<String, Running>>,
    /// Names the requests that gave none, so that stopping the server reaches them too.
    unnamed: AtomicU64,
}

/// A request's flag and progress, named while it runs and forgotten when dropped.
pub(crate) struct Ticket<'a> {
    jobs: &'a Jobs,
    name: String,
    pub(crate) flag: Arc<AtomicBool>,
    /// What a long request (a count) has done so far.
    pub(crate) progress: Progress,
}

impl Jobs {
    /// A flag for a request; `name` (the page's job id) lets [`Jobs::cancel`] find it.
    pub(crate) fn start(&self, name: Option<&str>) -> Ticket<'_> {
        let flag = Arc::new(AtomicBool::new(false));
        let name = match name {
            Some(n) => n.to_string(),
            // Not a name the page can send: it has a NUL.
            None => format!("\0{}", self.unnamed.fetch_add(1, Ordering::Relaxed)),
        };
        let progress = Progress::default();
        let entry = Running {
            flag: flag.clone(),
            progress: progress.clone(),
        };
        self.lock().insert(name.clone(), entry);
        Ticket {
            jobs: self,
            name,
            flag,
            progress,
        }
    }

    /// How far the request named `name` has got, while it runs.
    pub fn progress(&self, name: &str) -> Option<Snapshot> {
        self.lock().get(name).map(|r| r.progress.get())
    }

    /// Stops the request named `name`; whether one was running.
    pub fn cancel(&self, name: &str) -> bool {
        match self.lock().get(name) {
            Some(r) => {
                r.flag.store(true, Ordering::SeqCst);
                true
            }
            None => false,
        }
    }

    /// Stops every request (the server is stopping).
    pub fn cancel_all(&self) {
        for r in self.lock().values() {
            r.flag.store(true, Ordering::SeqCst);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Running>> {
        // A panicking request cannot leave the map half-changed: insert and remove are whole.
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        let mut map = self.jobs.lock();
        if map.get(&self.name).is_some_and(|r| Arc::ptr_eq(&r.flag, &self.flag)) {
            map.remove(&self.name);
        }
    }
}

/// Turns at the solvers: at most so many requests compile or solve at once, so that a burst
/// of requests shares the cores (and memory) instead of all starting together.
pub(crate) struct Turns {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A request's turn, given back when dropped.
pub(crate) struct Turn<'a>(&'a Turns);

impl Turns {
    pub(crate) fn new(n: usize) -> Turns {
        Turns {
            free: Mutex::new(n.max(1)),
            freed: Condvar::new(),
        }
    }

    /// Waits for a turn, until `cancelled` is set or `deadline` (if any) passes.
    pub(crate) fn take(&self, cancelled: &AtomicBool, deadline: Option<Instant>) -> Taken<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if cancelled.load(Ordering::SeqCst) {
                return Taken::Cancelled;
            }
            if *free > 0 {
                *free -= 1;
                return Taken::Turn(Turn(self));
            }
            let left = deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(Instant::now()));
            if left.is_zero() {
                return Taken::TimedOut;
            }
            // Woken when a turn is given back; at least every 50 ms, to see a cancel.
            free = self
                .freed
                .wait_timeout(free, left.min(Duration::from_millis(50)))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// How waiting for a turn ended.
pub(crate) enum Taken<'a> {
    Turn(Turn<'a>),
    /// The request was cancelled while it waited.
    Cancelled,
    /// Its deadline passed first.
    TimedOut,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.freed.notify_one();
    }
}

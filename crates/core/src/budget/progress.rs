//! How far a long command has got, for a progress display the library does not draw: the
//! counter, the sweep and the enumeration update a [`Progress`] as they go, and the command
//! line shows it on standard error when that is a terminal (`src/cli/progress.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Shared counters: steps done of a total (faces placed, instances swept), and a figure that
/// grows beside them (states in a layer, solutions found). Cloning shares them; updating
/// them costs an atomic store, and nothing watches them unless a caller does.
#[derive(Debug, Clone, Default)]
pub struct Progress(Arc<Counters>);

#[derive(Debug, Default)]
struct Counters {
    done: AtomicU64,
    total: AtomicU64,
    figure: AtomicU64,
}

/// What [`Progress::get`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Snapshot {
    /// Steps done.
    pub done: u64,
    /// Steps in all (0 while unknown).
    pub total: u64,
    /// The figure beside the steps.
    pub figure: u64,
}

impl Progress {
    /// The number of steps in all.
    pub fn set_total(&self, total: u64) {
        self.0.total.store(total, Ordering::Relaxed);
    }

    /// Steps done so far.
    pub fn set_done(&self, done: u64) {
        self.0.done.store(done, Ordering::Relaxed);
    }

    /// The figure beside the steps.
    pub fn set_figure(&self, figure: u64) {
        self.0.figure.store(figure, Ordering::Relaxed);
    }

    /// Adds to the figure.
    pub fn add_figure(&self, by: u64) {
        self.0.figure.fetch_add(by, Ordering::Relaxed);
    }

    /// The counters now.
    pub fn get(&self) -> Snapshot {
        Snapshot {
            done: self.0.done.load(Ordering::Relaxed),
            total: self.0.total.load(Ordering::Relaxed),
            figure: self.0.figure.load(Ordering::Relaxed),
        }
    }
}

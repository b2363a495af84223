//! What a race is for, and what an engine's thread tells the race's coordinator.

use std::time::Instant;

use crate::contract::{BackendError, SolveStats};
use crate::ir::Status;

/// What an engine's thread sends the coordinator.
pub(super) enum Event {
    /// A model the engine found (for an optimisation, meant to be better than its last).
    Model {
        who: usize,
        assignment: Vec<bool>,
        at: Instant,
    },
    /// The engine ended.
    Done {
        who: usize,
        // Boxed: the stats are large, and a model (sent far more often) is small.
        result: Result<Box<Said>, BackendError>,
        at: Instant,
    },
}

/// How an engine ended, for a decision and an optimisation alike.
pub(super) struct Said {
    pub(super) status: Status,
    pub(super) optimal: bool,
    pub(super) stats: SolveStats,
}

/// What a race is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// A model, or a refutation (`Backend::solve`).
    Decide,
    /// The best model by the objective (`crate::Algorithms::optimise`).
    Optimise,
}

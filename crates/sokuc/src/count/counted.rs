//! What a count is given (its limits) and what it gives back: the count and the figures of
//! the counter's work, or why there is none.

use std::time::Duration;

use num_bigint::BigUint;

use crate::budget::Deadline;
use crate::error::Error;
use crate::puzzle::evidence::Evidence;

/// The limits of one count.
#[derive(Debug, Clone)]
pub struct CountOptions {
    /// Memory for the states (`--max-memory`), in bytes.
    pub max_memory: u64,
    pub deadline: Deadline,
    /// How far the count has got (3SoKu's frontier counter: faces placed, states in the
    /// last layer).
    pub progress: crate::budget::Progress,
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            max_memory: crate::budget::memory::DEFAULT_MAX_MEMORY,
            deadline: Deadline::default(),
            progress: Default::default(),
        }
    }
}

/// An exact count and how it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Counted {
    /// Distinct solutions (configurations).
    pub count: BigUint,
    /// Placements of distinguishable tiles: `count` times the product of the multiplicities'
    /// factorials.
    pub placements: BigUint,
    /// The method, in words ("frontier dynamic programming over 20 faces, ...").
    pub method: String,
    pub stats: CountStats,
    pub time: Duration,
    /// The claim that every solution was counted, with who counted them and what backs it
    /// (the `evidence` field of the JSON, and the `evidence:` line of the text).
    pub evidence: Evidence,
}

/// Who counted: the name a count's claim is made by.
pub mod by {
    /// 3SoKu's frontier dynamic programme.
    pub const FRONTIER: &str = "frontier";
    /// The pool counter (tile pools and free pegs).
    pub const POOL: &str = "pool-frontier";
    /// The projected model counter over the CNF.
    pub const SHARP: &str = "sharp";
    /// A count of none by an argument (presolve, the counters' necessary conditions).
    pub const PRESOLVE: &str = "presolve";
}

impl Counted {
    /// The count as `sokuc count --format json` prints it (and `sokuc serve` answers it).
    pub fn json(&self, kind: &str) -> serde_json::Value {
        let ms = (self.time.as_secs_f64() * 1e6).round() / 1e3;
        serde_json::json!({
            "status": "counted",
            "puzzle": kind,
            "count": self.count.to_string(),
            "placements": self.placements.to_string(),
            "method": self.method,
            "time_ms": ms,
            "evidence": self.evidence,
            "stats": {
                "faces": self.stats.faces,
                "frontier": self.stats.frontier,
                "peak_states": self.stats.peak_states,
                "total_states": self.stats.total_states,
                "decisions": self.stats.decisions,
                "components": self.stats.components,
                "cache_hits": self.stats.cache_hits,
                "peak_cache_bytes": self.stats.peak_cache_bytes,
            },
        })
    }
}

/// The figures that describe the counter's work (those of the method used; the others 0).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CountStats {
    pub faces: usize,
    /// Most open vertices at once.
    pub frontier: usize,
    /// Most states held in one layer.
    pub peak_states: usize,
    /// States created over all layers.
    pub total_states: u64,
    /// The model counter's decisions, components, cache hits and peak cache size.
    pub decisions: u64,
    pub components: u64,
    pub cache_hits: u64,
    pub peak_cache_bytes: u64,
}

/// Why there is no count.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    /// The time limit (or an interrupt) came first: no answer.
    #[error("the time limit was reached while counting")]
    TimedOut,
    /// A request the counter cannot honour, a limit, or bad input: the message says which.
    #[error(transparent)]
    Refused(#[from] Error),
    /// The count needs more memory than `--max-memory` allows. Kept apart from `Refused`
    /// because a run over many arrangements skips such an arrangement and goes on.
    #[error(transparent)]
    OverMemory(Error),
}

//! Output shared by every puzzle kind: the statistics block of the JSON envelope. The
//! envelope itself is built in `run::any`, each kind's fields and text in its own folder.

use serde_json::{Value, json};

use crate::backend::SolveStats;

/// Milliseconds to the microsecond: `0.05`, not `0.049999999999999996`.
pub fn round_ms(ms: f64) -> f64 {
    (ms * 1e3).round() / 1e3
}

/// `stats` of the JSON envelope: model size as the solver saw it, times, solver counters.
pub fn stats_json(s: &SolveStats) -> Value {
    json!({
        "vars": s.vars,
        "clauses": s.clauses,
        "build_ms": round_ms(s.build_ms),
        "solve_ms": round_ms(s.solve_ms),
        "extra": s.extra,
    })
}

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

/// `#[serde(serialize_with = "report::rounded")]`: a time or rate to three decimals, so
/// that JSON says `0.05`, not `0.049999999999999996`.
pub fn rounded<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round_ms(*v))
}

/// The same for a list of (index, capacities, milliseconds).
pub fn rounded_slowest<S: serde::Serializer>(v: &[(u64, Vec<u64>, f64)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for (i, caps, ms) in v {
        seq.serialize_element(&(i, caps, round_ms(*ms)))?;
    }
    seq.end()
}

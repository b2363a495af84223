//! What is known about a formula after solving it.

/// Sat: an assignment was found; unsat: none exists; unknown: no answer (time limit or
/// interrupt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Sat,
    Unsat,
    Unknown,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }
}

//! What is known about a formula after solving it.

/// Sat: an assignment was found; unsat: none exists; unknown: no answer (time limit or
/// interrupt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A solution was found, and it passed the verifier.
    Sat,
    /// Proven to have no solution.
    Unsat,
    /// No answer: the time limit passed, or the run was interrupted.
    Unknown,
}

impl Status {
    /// The status as the JSON output writes it: `sat`, `unsat` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }
}

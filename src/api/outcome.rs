//! What a solve or a decode ended with.

use crate::ir::Status;
use crate::run::Report;

/// The answer of [`crate::Instance::solve`] or [`crate::Instance::decode`]: its status, the
/// solution as `sokuc solve` prints it, and the same as JSON (the schema in `schema/`).
///
/// A [`Status::Sat`] outcome's solution has been checked against the compiled model and
/// then by the puzzle's own verifier, which shares no code with the compiler.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub(crate) report: Report,
}

impl Outcome {
    /// Solved, proven to have no solution, or no answer in time.
    pub fn status(&self) -> Status {
        self.report.status
    }

    /// Whether the solution passed the independent verifier (always, for [`Status::Sat`]).
    pub fn verified(&self) -> bool {
        self.report.verified
    }

    /// The backend that answered (`auto` names the engine it picked).
    pub fn backend(&self) -> &str {
        &self.report.backend
    }

    /// The answer as `sokuc solve` prints it: the placed tiles or the filled grid for a
    /// puzzle, `s`/`v` lines for OPB and CNF.
    pub fn text(&self) -> &str {
        &self.report.text
    }

    /// The answer as `sokuc solve --format json` prints it.
    pub fn json(&self) -> &serde_json::Value {
        &self.report.json
    }

    /// Why there is no solution, or no answer, when sokuc knows (presolve's argument, the
    /// time limit).
    pub fn reason(&self) -> Option<&str> {
        self.report.reason.as_deref()
    }

    /// With [`crate::Options::unique`]: whether the solution is the only one.
    pub fn unique(&self) -> Option<bool> {
        self.report.unique
    }

    /// With an objective: the solution's value as minimised, which is the file's value for
    /// OPB's `min:` and its negation for `max:`. `None` also when the value does not fit in
    /// an `i64` (an objective past 62 bits); the JSON's `objective` ([`Outcome::json`])
    /// holds the file's value exactly, as a decimal string.
    pub fn objective(&self) -> Option<i64> {
        self.report.objective.as_ref().and_then(num_traits::ToPrimitive::to_i64)
    }

    /// With an objective: whether the value is proven optimal.
    pub fn optimal(&self) -> Option<bool> {
        self.report.optimal
    }

    /// The exit code `sokuc solve` would end with: 0 solved, 20 no solution, 30 no answer,
    /// 1 when two engines contradicted each other.
    pub fn exit_code(&self) -> u8 {
        self.report.exit_code()
    }
}

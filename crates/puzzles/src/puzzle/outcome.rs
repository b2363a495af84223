//! What a front-end is given to print: the answer of one run, in the puzzle's own terms.

use crate::ir::Status;

/// The answer of one run (solve, decode of an external answer): the status, the verified
/// solution when there is one, and, when `--unique` was asked, whether it is the only one.
/// Timings and sizes travel beside it (`crate::run::Outcome`); front-ends never print them.
#[derive(Debug, Clone)]
pub struct Answer<S> {
    pub status: Status,
    pub solution: Option<S>,
    /// The solution passed the front-end's independent verifier (always true with a solution:
    /// the run path never hands out an unverified one).
    pub verified: bool,
    /// Why there is no solution, or why the answer is unknown, in words.
    pub reason: Option<String>,
    /// How the verdict (sat or unsat) was established: `presolve`, `lp` (the LP relaxation,
    /// with a checked certificate), `backend:NAME` (the engine that answered), `external`
    /// (an answer file, checked); `None` when the answer is unknown.
    pub verdict_by: Option<String>,
    /// `--unique` was asked.
    pub asked_unique: bool,
    /// Some(true): proven unique; Some(false): `second` is another solution; None: not asked
    /// or not decided in time.
    pub unique: Option<bool>,
    pub second: Option<S>,
    /// The backend's name, or "external" for an answer file.
    pub backend: String,
    /// With an objective: whether the solution is proven optimal (`None`: no objective).
    pub optimal: Option<bool>,
    /// With an objective: its value (minimised, as in the IR) for each improving solution
    /// found, in order; the last is the solution's.
    pub improvements: Vec<num_bigint::BigInt>,
    /// The improvements' lines ([`super::Puzzle::improvement_line`]) went out as they were
    /// found, so the text of the answer leaves them out.
    pub improvements_streamed: bool,
    /// With a proven optimum: the engines that proved it (the one that answered, then any
    /// that confirmed it, such as `auto`'s second opinion).
    pub optimal_by: Vec<String>,
    /// Two engines contradicted each other (one found a solution strictly better than the
    /// optimum another claimed): what each said. The better solution is the answer, and the
    /// command exits 1.
    pub contradiction: Option<String>,
    /// Every claim of the answer with what backs it: filled in by the run path's gate
    /// alone (`run::gate::judge`).
    pub evidence: super::evidence::Evidence,
}

impl<S> Answer<S> {
    /// Why `--unique` was asked and is not answered: the time limit, or the reason the gate
    /// withheld an engine's claim that the solution is unique (`--strict` and its word
    /// alone, or the claim came after the time limit).
    pub fn uniqueness_unknown(&self) -> &'static str {
        use super::evidence::{ClaimKind, Withheld};
        match self.evidence.claim(ClaimKind::Unique).and_then(|c| c.withheld) {
            Some(Withheld::Strict) => "uniqueness not confirmed (--strict)",
            Some(Withheld::Late) => "uniqueness withheld (claimed after the time limit)",
            Some(Withheld::Contradicted) => "uniqueness withheld (a checked solution contradicts it)",
            None => "uniqueness unknown (time limit)",
        }
    }

    pub fn without_solution(status: Status, reason: Option<String>, backend: &str) -> Answer<S> {
        Answer {
            status,
            solution: None,
            verified: false,
            reason,
            verdict_by: None,
            asked_unique: false,
            unique: None,
            second: None,
            backend: backend.to_string(),
            optimal: None,
            improvements: Vec::new(),
            improvements_streamed: false,
            optimal_by: Vec::new(),
            contradiction: None,
            evidence: super::evidence::Evidence::default(),
        }
    }
}

//! The verdict of `certify`, and the message for its one internal contradiction.

/// What `certify` concludes from presolve's verdict and from the run on the model it then
/// solved (the plain model when presolve refuted the instance, else the presolved one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Verdict {
    /// A verified solution, and presolve did not object.
    Sat,
    /// Unsatisfiable, with a proof the checker accepted.
    Unsat,
    /// The backend claimed unsat, but there is no proof the checker accepted.
    ProofRejected,
    /// No answer within the time limit.
    Unknown,
    /// A "sat" that did not pass verification (the pipeline never returns one; kept so
    /// that a satisfiable status alone is never taken as a certificate).
    Unverified,
    /// Presolve refuted the instance, yet the model without presolve has a verified
    /// solution: presolve is unsound on this instance, a bug in sokuc.
    PresolveContradiction,
}

impl Verdict {
    /// Whether the outcome is an internal failure of sokuc (exit 1), not an answer.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Verdict::ProofRejected | Verdict::Unverified | Verdict::PresolveContradiction
        )
    }
}

/// The verdict of `certify`. `presolve_refuted`: presolve claimed unsat, so `status` is the
/// plain model's; `answer_verified`: a sat answer passed the verifier; `proof_verified`:
/// what the checker said about the proof of an unsat claim (`None`: not checked).
pub fn verdict(
    presolve_refuted: bool,
    status: crate::backend::Status,
    answer_verified: bool,
    proof_verified: Option<bool>,
) -> Verdict {
    use crate::backend::Status;
    match status {
        Status::Sat if !answer_verified => Verdict::Unverified,
        // A verified solution refutes presolve's argument: it is never a "sat" to report
        // quietly, since the same presolve decides every `solve`.
        Status::Sat if presolve_refuted => Verdict::PresolveContradiction,
        Status::Sat => Verdict::Sat,
        Status::Unsat if proof_verified == Some(true) => Verdict::Unsat,
        Status::Unsat => Verdict::ProofRejected,
        Status::Unknown => Verdict::Unknown,
    }
}

/// The stderr text for [`Verdict::PresolveContradiction`], with presolve's argument.
pub fn contradiction_message(presolve_reason: &str) -> String {
    format!(
        "CONTRADICTION: presolve refuted the instance, but the plain model (presolve off) has a verified solution. This is a bug in sokuc; please report it with this instance. Presolve's wrong argument: {presolve_reason}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Status;

    #[test]
    fn presolve_refuting_a_verified_solution_is_a_contradiction() {
        // Constructed, since presolve itself is fixed: presolve says unsat, the plain model
        // has a verified solution.
        let v = verdict(true, Status::Sat, true, None);
        assert_eq!(v, Verdict::PresolveContradiction);
        assert!(v.is_failure());
        let m = contradiction_message("no tile fits face ABC");
        assert!(m.contains("bug in sokuc") && m.contains("no tile fits face ABC"), "{m}");
        // Presolve refuting with the plain model refuted by a checked proof agrees.
        assert_eq!(verdict(true, Status::Unsat, false, Some(true)), Verdict::Unsat);
        assert_eq!(verdict(true, Status::Unsat, false, Some(false)), Verdict::ProofRejected);
        assert_eq!(verdict(true, Status::Unknown, false, None), Verdict::Unknown);
    }

    #[test]
    fn verdicts_without_a_presolve_refutation() {
        assert_eq!(verdict(false, Status::Sat, true, None), Verdict::Sat);
        assert!(!Verdict::Sat.is_failure() && !Verdict::Unsat.is_failure() && !Verdict::Unknown.is_failure());
        // An unsat claim needs a proof the checker accepted.
        assert_eq!(verdict(false, Status::Unsat, false, Some(true)), Verdict::Unsat);
        assert_eq!(
            verdict(false, Status::Unsat, false, Some(false)),
            Verdict::ProofRejected
        );
        assert_eq!(verdict(false, Status::Unsat, false, None), Verdict::ProofRejected);
        // A sat status alone certifies nothing.
        assert_eq!(verdict(false, Status::Sat, false, None), Verdict::Unverified);
        assert_eq!(verdict(true, Status::Sat, false, None), Verdict::Unverified);
        assert!(Verdict::ProofRejected.is_failure() && Verdict::Unverified.is_failure());
    }
}

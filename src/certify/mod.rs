//! Certified answers: a DRAT proof of unsatisfiability checked by an external checker
//! (drat-trim), for the CNF that `--emit dimacs` writes.
//!
//! sokuc does not trust its own "unsat": the proof comes from the SAT backend, the CNF from
//! the exporter, and the verdict from a program that shares no code with either. drat-trim
//! is one C file; the pumpkin-solver crate ships it, and `scripts/install-tools.sh` builds it
//! into `target/tools/drat-trim`.
//!
//! What `certify` prints: `UNSAT (proof checked: N lemmas, K in the core)`, or `UNSAT CLAIM
//! REJECTED` with exit 1. When presolve refutes the puzzle, its argument is printed and the
//! model without presolve is refuted with a checked proof as well; if that model has a
//! verified solution instead, presolve was wrong: `CONTRADICTION` on stderr with presolve's
//! argument, called a bug in sokuc, exit 1 (JSON `"verdict": "presolve-contradiction"`).
//!
//! An optimum is certified the same way, by hand: bound the objective one below it and certify
//! that the decision problem is unsatisfiable (on an OPB file, replace the `min:` line with
//! the row `-c1 x1 -c2 x2 ... >= -(optimum - 1) ;`). The proofs come from `sat` or `cadical`,
//! the only backends that write DRAT. `tests/certify.rs` checks a proof for each
//! unsatisfiable example and for every 10th line of the 4-unsat batch (the first on all three
//! order encodings), and that damaged proofs (empty, deletions only, cut in half) of
//! pigeonhole(7) are rejected.

mod certificate;

pub use certificate::{Certificate, Request, certify};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    #[error(
        "no DRAT checker found: pass --checker PATH, set SOKUC_DRAT_TRIM, put drat-trim on PATH, or run scripts/install-tools.sh (it builds target/tools/drat-trim)"
    )]
    NoChecker,
    #[error("running {checker}: {message}")]
    Run { checker: String, message: String },
}

/// What the checker said.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    pub verified: bool,
    /// Lemmas in the proof, and those the refutation needed, as drat-trim counts them.
    pub lemmas: Option<u64>,
    pub core_lemmas: Option<u64>,
    pub seconds: f64,
    /// The checker's last lines, for a rejected proof.
    pub tail: Vec<String>,
}

/// The checker to use: `explicit`, else `tools/drat-trim` beside the directory of this
/// executable (`target/release/../tools`, where `scripts/build-drat-trim.sh` builds it). The
/// CLI passes `--checker`, `$SOKUC_DRAT_TRIM` or `drat-trim` on `PATH` as `explicit`.
pub fn find_checker(explicit: Option<&Path>) -> Result<PathBuf, CertifyError> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    let exe = std::env::current_exe().ok();
    let candidates = exe
        .iter()
        .filter_map(|e| e.parent())
        .flat_map(|d| [d.join("../tools/drat-trim"), d.join("../../tools/drat-trim")]);
    for p in candidates {
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(CertifyError::NoChecker)
}

/// Runs drat-trim on `cnf` and `proof` (text or binary DRAT; drat-trim detects which).
pub fn check(checker: &Path, cnf: &Path, proof: &Path, limit: Option<Duration>) -> Result<CheckReport, CertifyError> {
    let t = std::time::Instant::now();
    let mut cmd = Command::new(checker);
    cmd.arg(cnf).arg(proof);
    if let Some(l) = limit {
        // drat-trim's own limit is in whole seconds (default 20,000).
        cmd.arg("-t").arg(l.as_secs().max(1).to_string());
    }
    let out = cmd.output().map_err(|e| CertifyError::Run {
        checker: checker.display().to_string(),
        message: e.to_string(),
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(parse_report(&text, t.elapsed().as_secs_f64()))
}

/// What `certify` concludes from presolve's verdict and from the run on the model it then
/// solved (the plain model when presolve refuted the instance, else the presolved one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
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

/// Reads drat-trim's output: `s VERIFIED` and `c N of M lemmas in core ...`.
pub fn parse_report(text: &str, seconds: f64) -> CheckReport {
    let verified = text.lines().any(|l| l.trim() == "s VERIFIED");
    let mut lemmas = None;
    let mut core_lemmas = None;
    for l in text.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        // "c 1 of 88 lemmas in core using 21 resolution steps"
        if w.len() >= 5 && w[0] == "c" && w[2] == "of" && w[4] == "lemmas" {
            core_lemmas = w[1].parse().ok();
            lemmas = w[3].parse().ok();
        }
    }
    let tail = text.lines().rev().take(5).map(str::to_string).collect::<Vec<_>>();
    CheckReport {
        verified,
        lemmas,
        core_lemmas,
        seconds,
        tail: tail.into_iter().rev().collect(),
    }
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

    #[test]
    fn reads_drat_trim_reports() {
        let ok = "c parsing input formula\nc 21 of 898 clauses in core\nc 1 of 88 lemmas in core using 21 resolution steps\ns VERIFIED\nc verification time: 0.1 seconds\n";
        let r = parse_report(ok, 0.1);
        assert!(r.verified);
        assert_eq!((r.lemmas, r.core_lemmas), (Some(88), Some(1)));
        let bad = "c ERROR: no conflict\ns NOT VERIFIED\n";
        let r = parse_report(bad, 0.1);
        assert!(!r.verified);
        assert_eq!(r.lemmas, None);
        assert!(r.tail.iter().any(|l| l.contains("NOT VERIFIED")));
    }
}

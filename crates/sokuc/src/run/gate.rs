//! The run path's gate: the one place where what an engine says becomes a claim that sokuc
//! prints. A model is a claim only after [`super::finish`] checked it; "unsat", "optimum",
//! "unique" and "not unique" are claims that no verifier checks, so each goes out with its
//! evidence ([`Evidence`], in `puzzle::evidence`): what backs it, who made it, and for an optimum what proved the
//! bound. Under `--strict` ([`super::RunOptions::strict`]) a claim with nothing but one
//! engine's word behind it is withheld: the best checked answer is printed with an unknown
//! status, and the record says what was withheld and why.
//!
//! Engines and the portfolio describe their claims in [`crate::backend::Basis`]; this module
//! alone weighs that description, with the status, into the answer's words. Nothing else in
//! the crate turns a backend's status into a printed verdict.

use crate::backend::{Basis, Bound, Disputed, Status, engines};
use crate::puzzle::Answer;
use crate::puzzle::evidence::{
    Backing, BoundEvidence, Claim, ClaimKind, ContradictionRecord, Evidence, FaultRecord, Withheld,
};

/// What the run path knows when it ends, for the gate to judge.
pub(super) struct Ending<S> {
    /// The status the engine (or the run path's own stage) reported.
    pub status: Status,
    /// The checked solution, if any, and a second one for `--unique`.
    pub solution: Option<S>,
    pub second: Option<S>,
    /// Who gave the status: an engine, `presolve`, `lp`.
    pub by: String,
    /// The backend the user asked for (its name in the answer).
    pub backend: String,
    /// What backs the claims: a confirmation, a contradiction, the faults.
    pub basis: Basis,
    /// With an objective and a solution: whether the engine claims it optimal, and the
    /// improving values.
    pub optimal: Option<bool>,
    pub improvements: Vec<num_bigint::BigInt>,
    /// With `--unique`: Some(true) when the engine says the enumeration of two ended
    /// complete after one; Some(false) with two checked solutions.
    pub asked_unique: bool,
    pub unique: Option<bool>,
    pub reason: Option<String>,
    pub strict: bool,
    /// The engine's claims were made after the time limit and its grace, as
    /// [`crate::budget::Deadline::late`] judges the instant they were made: they count for
    /// nothing, as a late claim in a race does, and the record holds it against `by`.
    pub late: bool,
}

impl<S> Ending<S> {
    /// An ending with nothing but a status and who gave it.
    pub fn new(status: Status, by: &str, backend: &str) -> Ending<S> {
        Ending {
            status,
            solution: None,
            second: None,
            by: by.to_string(),
            backend: backend.to_string(),
            basis: Basis::default(),
            optimal: None,
            improvements: Vec::new(),
            asked_unique: false,
            unique: None,
            reason: None,
            strict: false,
            late: false,
        }
    }
}

/// How a claim that the verifier cannot check is backed: a second engine's confirmation
/// when there is one, of another kind than the claimer ([`engines::kind`]: two engines of
/// one kind share their blind spots), else the engine's word (presolve and the LP have
/// their own kinds).
fn backing_of(by: &str, basis: &Basis) -> (Backing, Option<&'static str>, Option<String>) {
    match by {
        "presolve" => match &basis.confirmed_by {
            Some(other) => (Backing::SecondEngine, None, Some(other.clone())),
            None => (Backing::Presolve, None, None),
        },
        "lp" => (Backing::Certificate, Some("farkas"), None),
        "external" => (Backing::External, None, None),
        _ => match &basis.confirmed_by {
            Some(other) if engines::kind(other) != engines::kind(by) => {
                (Backing::SecondEngine, None, Some(other.clone()))
            }
            _ => (Backing::EngineWord, None, None),
        },
    }
}

/// The answer's reason when its unsat claim is withheld for `why`.
fn withheld_reason(why: Withheld) -> &'static str {
    match why {
        Withheld::Strict => "--strict: the claim rests on one engine's word alone, so it is not printed as a verdict",
        Withheld::Late => "the engine answered after the time limit, so its claim is not printed as a verdict",
        Withheld::Contradicted => "a checked solution contradicts the claim, so it is not printed as a verdict",
    }
}

/// The claim of the answer a contradiction disputes.
fn disputed_kind(d: Disputed) -> ClaimKind {
    match d {
        Disputed::Unsat => ClaimKind::Unsat,
        Disputed::Optimum => ClaimKind::Optimum,
        Disputed::Unique => ClaimKind::Unique,
    }
}

/// Judges `e` into the answer a front-end prints: the status, the solution, the optimum and
/// uniqueness, each claim with its evidence. This is the only function that turns an
/// engine's status into a printed claim.
pub(super) fn judge<S>(e: Ending<S>) -> Answer<S> {
    let mut evidence = Evidence {
        faults: e
            .basis
            .faults
            .iter()
            .map(|f| FaultRecord {
                engine: f.engine.clone(),
                what: f.what.clone(),
            })
            .collect(),
        ..Evidence::default()
    };
    // The claim a checked model contradicts, if any: recorded as withheld for it, whoever
    // made it, and never made by the answer.
    let mut disputed = None;
    if let Some(c) = &e.basis.contradiction {
        evidence.contradiction = Some(ContradictionRecord {
            claimed_by: c.claimed_by.clone(),
            claim: c.claim.clone(),
            refuted_by: c.refuted_by.clone(),
            message: c.message.clone(),
        });
        disputed = c.disputed.map(|d| (disputed_kind(d), c.claimed_by.clone()));
    }
    let mut answer = Answer::without_solution(e.status, e.reason.clone(), &e.backend);
    answer.asked_unique = e.asked_unique;
    answer.contradiction = e.basis.contradiction.as_ref().map(|c| c.message.clone());
    let (backing, certificate, confirmed_by) = backing_of(&e.by, &e.basis);
    // A claim stands when no checked model contradicts it, it is on time and, under
    // --strict, it is backed by more than one word.
    let withheld = |k: ClaimKind| {
        if disputed.as_ref().is_some_and(|(d, by)| *d == k && *by == e.by) {
            Some(Withheld::Contradicted)
        } else if e.late {
            Some(Withheld::Late)
        } else if e.strict && !backing.strict_enough() {
            Some(Withheld::Strict)
        } else {
            None
        }
    };
    // The claim of kind `k` that the answer would make, judged.
    let claim = |k: ClaimKind| {
        let mut c = Claim::new(k, e.by.clone(), backing);
        c.confirmed_by = confirmed_by.clone();
        if let Some(why) = withheld(k) {
            c.withhold(why);
        }
        c
    };
    match (e.status, e.solution) {
        (Status::Sat, Some(s)) => {
            answer.solution = Some(s);
            answer.verified = true;
            answer.verdict_by = Some(verdict_by(&e.by));
            evidence
                .claims
                .push(Claim::new(ClaimKind::Sat, e.by.clone(), Backing::CheckedModel));
            if let Some(optimal) = e.optimal {
                answer.improvements = e.improvements;
                let mut claimed = false;
                if optimal {
                    let mut c = claim(ClaimKind::Optimum);
                    c.bound = e.basis.bound.as_ref().map(bound_evidence);
                    claimed = c.accepted;
                    if claimed {
                        answer.optimal_by.push(e.by.clone());
                        if let Some(other) = &confirmed_by {
                            answer.optimal_by.push(other.clone());
                        }
                    }
                    evidence.claims.push(c);
                }
                answer.optimal = Some(claimed);
            }
            match (e.unique, e.second) {
                (Some(false), Some(second)) => {
                    answer.unique = Some(false);
                    answer.second = Some(second);
                    evidence
                        .claims
                        .push(Claim::new(ClaimKind::NotUnique, e.by.clone(), Backing::CheckedModel));
                }
                (Some(true), _) => {
                    let c = claim(ClaimKind::Unique);
                    answer.unique = c.accepted.then_some(true);
                    evidence.claims.push(c);
                }
                _ => {}
            }
        }
        (Status::Sat, None) => {
            // A "sat" without a checked solution is no claim: the run path rejects it before
            // it comes here, so this is unknown by construction.
            answer.status = Status::Unknown;
        }
        (Status::Unsat, _) => {
            let mut c = claim(ClaimKind::Unsat);
            c.certificate = certificate;
            if let Some(why) = c.withheld {
                let text = withheld_reason(why);
                answer.status = Status::Unknown;
                answer.reason = Some(match &e.reason {
                    Some(r) => format!("{text} ({r})"),
                    None => text.to_string(),
                });
            } else {
                answer.verdict_by = Some(verdict_by(&e.by));
            }
            evidence.claims.push(c);
        }
        (Status::Unknown, _) => {}
    }
    // The disputed claim, when the answer did not make it itself (another engine made it,
    // or the answer no longer claims it): in the record, withheld.
    if let Some((k, by)) = disputed
        && !evidence.claims.iter().any(|c| c.claim == k && c.by == by)
    {
        let mut c = Claim::new(k, by.clone(), backing_of(&by, &Basis::default()).0);
        c.withhold(Withheld::Contradicted);
        evidence.claims.push(c);
    }
    // A late claim is its engine's fault, and nobody else's.
    if evidence.claims.iter().any(|c| c.withheld == Some(Withheld::Late)) {
        evidence.faults.push(FaultRecord {
            engine: e.by.clone(),
            what: "claimed after the time limit".into(),
        });
    }
    answer.evidence = evidence;
    answer
}

/// The record of how an engine says it proved an optimum's bound.
fn bound_evidence(b: &Bound) -> BoundEvidence {
    match b {
        Bound::Refuted { engine } => BoundEvidence {
            method: "refuted",
            by: engine.clone(),
            margin: None,
        },
        Bound::DualBound { engine, margin } => BoundEvidence {
            method: "dual-bound",
            by: engine.clone(),
            margin: Some(*margin),
        },
        Bound::Native { engine } => BoundEvidence {
            method: "native",
            by: engine.clone(),
            margin: None,
        },
    }
}

/// The JSON's `verdict_by` for a verdict given by `by`: `presolve`, `lp` and `external` as
/// they are, an engine as `backend:NAME`.
fn verdict_by(by: &str) -> String {
    match by {
        "presolve" | "lp" | "external" => by.to_string(),
        engine => format!("backend:{engine}"),
    }
}

/// Why there is no solution, when the backend ran.
pub(super) fn no_solution_reason(status: Status, backend: &str) -> Option<String> {
    match status {
        Status::Sat => None,
        Status::Unsat => Some(format!("proven by the {backend} backend")),
        Status::Unknown => Some("the time limit was reached or the search was interrupted".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Contradiction;

    fn ending(status: Status, by: &str) -> Ending<u8> {
        Ending::new(status, by, "auto")
    }

    #[test]
    fn an_engines_unsat_is_its_word_and_strict_withholds_it() {
        let a = judge(ending(Status::Unsat, "sat"));
        assert_eq!(a.status, Status::Unsat);
        let c = a.evidence.claim(ClaimKind::Unsat).unwrap();
        assert_eq!(
            (c.backing, c.by.as_str(), c.accepted),
            (Backing::EngineWord, "sat", true)
        );
        assert_eq!(a.verdict_by.as_deref(), Some("backend:sat"));

        let mut e = ending(Status::Unsat, "sat");
        e.strict = true;
        let a = judge(e);
        assert_eq!(a.status, Status::Unknown);
        assert!(a.reason.unwrap().contains("--strict"));
        assert!(!a.evidence.claim(ClaimKind::Unsat).unwrap().accepted);
        assert_eq!(a.verdict_by, None);
    }

    #[test]
    fn a_confirmed_unsat_and_a_certificate_pass_strict() {
        let mut e = ending(Status::Unsat, "sat");
        e.strict = true;
        e.basis.confirmed_by = Some("cp".into());
        let a = judge(e);
        assert_eq!(a.status, Status::Unsat);
        let c = a.evidence.claim(ClaimKind::Unsat).unwrap();
        assert_eq!(
            (c.backing, c.confirmed_by.as_deref()),
            (Backing::SecondEngine, Some("cp"))
        );

        let mut e = ending(Status::Unsat, "lp");
        e.strict = true;
        let a = judge(e);
        assert_eq!(a.status, Status::Unsat);
        let c = a.evidence.claim(ClaimKind::Unsat).unwrap();
        assert_eq!((c.backing, c.certificate), (Backing::Certificate, Some("farkas")));
    }

    #[test]
    fn an_engine_confirming_itself_is_no_second_engine() {
        let mut e = ending(Status::Unsat, "cp");
        e.basis.confirmed_by = Some("cp".into());
        let a = judge(e);
        assert_eq!(a.evidence.claim(ClaimKind::Unsat).unwrap().backing, Backing::EngineWord);
    }

    #[test]
    fn an_optimum_names_its_bound_and_strict_keeps_the_solution_but_not_the_claim() {
        let mut e = ending(Status::Sat, "highs");
        e.solution = Some(7);
        e.optimal = Some(true);
        e.basis.bound = Some(Bound::DualBound {
            engine: "highs".into(),
            margin: 0.25,
        });
        e.strict = true;
        let a = judge(e);
        assert_eq!((a.status, a.solution, a.optimal), (Status::Sat, Some(7), Some(false)));
        let c = a.evidence.claim(ClaimKind::Optimum).unwrap();
        assert!(!c.accepted);
        assert_eq!(c.bound.as_ref().unwrap().method, "dual-bound");
        assert!(a.optimal_by.is_empty());
        assert!(a.evidence.lines().iter().any(|l| l.contains("withheld by --strict")));
    }

    fn contradiction(claimed_by: &str, disputed: Disputed, refuted_by: &str) -> Contradiction {
        Contradiction {
            claimed_by: claimed_by.into(),
            claim: "a claim".into(),
            disputed: Some(disputed),
            refuted_by: refuted_by.into(),
            message: format!("{claimed_by} claimed it, but {refuted_by} found a checked solution"),
        }
    }

    /// The claims of `a` of kind `k`: who made each, and why it was withheld.
    fn claims_of<S>(a: &Answer<S>, k: ClaimKind) -> Vec<(&str, Option<Withheld>)> {
        a.evidence
            .claims
            .iter()
            .filter(|c| c.claim == k)
            .map(|c| (c.by.as_str(), c.withheld))
            .collect()
    }

    #[test]
    fn a_contradicted_optimum_is_in_the_record_withheld_for_it() {
        // The second opinion: highs claimed 5 optimal, cp found 3, and the answer (by highs)
        // no longer claims an optimum.
        let mut e = ending(Status::Sat, "highs");
        e.solution = Some(3);
        e.optimal = Some(false);
        e.basis.contradiction = Some(contradiction("highs", Disputed::Optimum, "cp"));
        let a = judge(e);
        assert_eq!((a.solution, a.optimal), (Some(3), Some(false)));
        assert!(a.contradiction.is_some());
        assert_eq!(
            claims_of(&a, ClaimKind::Optimum),
            [("highs", Some(Withheld::Contradicted))]
        );
        assert!(a.evidence.lines().iter().any(|l| l.contains("a checked solution contradicts it")));
        assert_eq!(a.evidence.contradiction.as_ref().unwrap().claimed_by, "highs");

        // A race: highs's claim was refuted by cp's model, then cp proved its own optimum,
        // which nothing contradicts: it is judged as any claim is.
        let mut e = ending(Status::Sat, "cp");
        e.solution = Some(3);
        e.optimal = Some(true);
        e.basis.contradiction = Some(contradiction("highs", Disputed::Optimum, "cp"));
        let a = judge(e);
        assert_eq!(a.optimal, Some(true));
        assert_eq!(
            claims_of(&a, ClaimKind::Optimum),
            [("cp", None), ("highs", Some(Withheld::Contradicted))]
        );
    }

    #[test]
    fn a_contradicted_unsat_or_unique_is_in_the_record_withheld_for_it() {
        // --strict's second engine found a checked solution where sat claimed none.
        let mut e = ending(Status::Sat, "cp");
        e.solution = Some(1);
        e.strict = true;
        e.basis.contradiction = Some(contradiction("sat", Disputed::Unsat, "cp"));
        let a = judge(e);
        assert_eq!(a.status, Status::Sat);
        assert_eq!(claims_of(&a, ClaimKind::Sat), [("cp", None)]);
        assert_eq!(claims_of(&a, ClaimKind::Unsat), [("sat", Some(Withheld::Contradicted))]);

        let mut e = ending(Status::Sat, "search");
        e.solution = Some(1);
        e.second = Some(2);
        e.unique = Some(false);
        e.asked_unique = true;
        e.basis.contradiction = Some(contradiction("search", Disputed::Unique, "sat"));
        let a = judge(e);
        assert_eq!((a.unique, a.second), (Some(false), Some(2)));
        assert_eq!(
            claims_of(&a, ClaimKind::Unique),
            [("search", Some(Withheld::Contradicted))]
        );
    }

    #[test]
    fn a_confirmation_by_an_engine_of_the_same_kind_is_the_engines_word() {
        for (by, other) in [("sat", "cadical"), ("cadical", "sat"), ("mip", "highs"), ("highs", "mip")] {
            let mut e = ending(Status::Unsat, by);
            e.basis.confirmed_by = Some(other.into());
            e.strict = true;
            let a = judge(e);
            let c = a.evidence.claim(ClaimKind::Unsat).unwrap();
            assert_eq!((c.backing, c.withheld), (Backing::EngineWord, Some(Withheld::Strict)), "{by} by {other}");
            assert_eq!(a.status, Status::Unknown);
        }
        // Another kind confirms.
        let mut e = ending(Status::Unsat, "highs");
        e.basis.confirmed_by = Some("sat".into());
        e.strict = true;
        assert_eq!(judge(e).status, Status::Unsat);
    }

    #[test]
    fn uniqueness_is_a_claim_and_two_solutions_are_checked_models() {
        let mut e = ending(Status::Sat, "search");
        e.solution = Some(1);
        e.asked_unique = true;
        e.unique = Some(true);
        let a = judge(e);
        assert_eq!(a.unique, Some(true));
        assert_eq!(
            a.evidence.claim(ClaimKind::Unique).unwrap().backing,
            Backing::EngineWord
        );

        let mut e = ending(Status::Sat, "search");
        e.solution = Some(1);
        e.second = Some(2);
        e.unique = Some(false);
        e.strict = true;
        let a = judge(e);
        assert_eq!((a.unique, a.second), (Some(false), Some(2)));
        assert_eq!(
            a.evidence.claim(ClaimKind::NotUnique).unwrap().backing,
            Backing::CheckedModel
        );

        let mut e = ending(Status::Sat, "search");
        e.solution = Some(1);
        e.unique = Some(true);
        e.strict = true;
        assert_eq!(judge(e).unique, None);
    }

    #[test]
    fn a_late_claim_is_withheld_but_a_late_checked_model_stands() {
        let mut e = ending(Status::Unsat, "sat");
        e.late = true;
        // Late, even confirmed and under --strict: withheld as late, and said so.
        e.strict = true;
        e.basis.confirmed_by = Some("cp".into());
        let a = judge(e);
        assert_eq!(a.status, Status::Unknown);
        let reason = a.reason.clone().unwrap();
        assert!(reason.contains("after the time limit") && !reason.contains("--strict"), "{reason}");
        assert_eq!(claims_of(&a, ClaimKind::Unsat), [("sat", Some(Withheld::Late))]);
        let lines = a.evidence.lines().join("\n");
        assert!(lines.contains("made after the time limit") && !lines.contains("--strict"), "{lines}");
        // The fault is the late engine's.
        assert_eq!(a.evidence.faults.len(), 1);
        assert_eq!(a.evidence.faults[0].engine, "sat");
        let mut e = ending(Status::Sat, "sat");
        e.solution = Some(4);
        e.optimal = Some(true);
        e.late = true;
        let a = judge(e);
        assert_eq!((a.status, a.solution, a.optimal), (Status::Sat, Some(4), Some(false)));
    }

    #[test]
    fn a_late_uniqueness_is_said_to_be_late_not_strict() {
        let mut e = ending(Status::Sat, "search");
        e.solution = Some(1);
        e.asked_unique = true;
        e.unique = Some(true);
        e.late = true;
        e.strict = true;
        let a = judge(e);
        assert_eq!(a.unique, None);
        assert_eq!(claims_of(&a, ClaimKind::Unique), [("search", Some(Withheld::Late))]);
        assert_eq!(
            a.uniqueness_unknown(),
            "uniqueness withheld (claimed after the time limit)"
        );
        let mut e = ending(Status::Sat, "search");
        e.solution = Some(1);
        e.asked_unique = true;
        e.unique = Some(true);
        e.strict = true;
        assert_eq!(judge(e).uniqueness_unknown(), "uniqueness not confirmed (--strict)");
    }

    #[test]
    fn a_sat_status_without_a_checked_solution_claims_nothing() {
        let a = judge(ending(Status::Sat, "sat"));
        assert_eq!(a.status, Status::Unknown);
        assert!(a.evidence.claims.is_empty());
    }

    #[test]
    fn presolve_is_its_own_backing_until_an_engine_confirms_it() {
        let a = judge(ending(Status::Unsat, "presolve"));
        assert_eq!(a.evidence.claim(ClaimKind::Unsat).unwrap().backing, Backing::Presolve);
        assert_eq!(a.verdict_by.as_deref(), Some("presolve"));
        let mut e = ending(Status::Unsat, "presolve");
        e.basis.confirmed_by = Some("search".into());
        e.strict = true;
        let a = judge(e);
        assert_eq!(a.status, Status::Unsat);
        assert_eq!(
            a.evidence.claim(ClaimKind::Unsat).unwrap().backing,
            Backing::SecondEngine
        );
    }
}

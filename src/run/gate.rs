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

use crate::backend::{Basis, Bound, Status};
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
    pub basis: Basis,
    /// With an objective and a solution: whether the engine claims it optimal, and the
    /// improving values.
    pub optimal: Option<bool>,
    pub improvements: Vec<num_bigint::BigInt>,
    /// With `--unique`: Some(true) when the engine says the enumeration of two ended
    /// complete after one; Some(false) with two checked solutions.
    pub asked_unique: bool,
    pub unique: Option<bool>,
    /// A contradiction found by the run path itself (a stage of a wide objective refuted
    /// although the best solution satisfies it), in words.
    pub contradiction: Option<String>,
    pub reason: Option<String>,
    pub strict: bool,
    /// The engine answered after the time limit (and its grace): its claims count for
    /// nothing, as a late claim in a race does.
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
            contradiction: None,
            reason: None,
            strict: false,
            late: false,
        }
    }
}

/// How a claim that the verifier cannot check is backed: a second engine's confirmation
/// when there is one, else the engine's word (presolve and the LP have their own kinds).
fn backing_of(by: &str, basis: &Basis) -> (Backing, Option<&'static str>, Option<String>) {
    match by {
        "presolve" => match &basis.confirmed_by {
            Some(other) => (Backing::SecondEngine, None, Some(other.clone())),
            None => (Backing::Presolve, None, None),
        },
        "lp" => (Backing::Certificate, Some("farkas"), None),
        "external" => (Backing::External, None, None),
        _ => match &basis.confirmed_by {
            Some(other) if other != by => (Backing::SecondEngine, None, Some(other.clone())),
            _ => (Backing::EngineWord, None, None),
        },
    }
}

/// Why an answer under `--strict` is unknown although an engine claimed more.
const WITHHELD: &str = "--strict: the claim rests on one engine's word alone, so it is not printed as a verdict";
/// Why an answer is unknown although an engine claimed more, after the time limit.
const LATE: &str = "the engine answered after the time limit, so its claim is not printed as a verdict";

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
    let contradiction = match (&e.basis.contradiction, &e.contradiction) {
        (Some(c), _) => {
            evidence.contradiction = Some(ContradictionRecord {
                claimed_by: c.claimed_by.clone(),
                claim: c.claim.clone(),
                refuted_by: c.refuted_by.clone(),
                message: c.message.clone(),
            });
            Some(c.message.clone())
        }
        (None, Some(m)) => {
            evidence.contradiction = Some(ContradictionRecord {
                claimed_by: e.by.clone(),
                claim: "an optimum or a refutation".into(),
                refuted_by: "a checked solution".into(),
                message: m.clone(),
            });
            Some(m.clone())
        }
        (None, None) => None,
    };
    let mut answer = Answer::without_solution(e.status, e.reason.clone(), &e.backend);
    answer.asked_unique = e.asked_unique;
    answer.contradiction = contradiction;
    let (backing, certificate, confirmed_by) = backing_of(&e.by, &e.basis);
    // A claim stands when it is on time and, under --strict, backed by more than one word.
    let withheld = if e.late {
        Some(Withheld::Late)
    } else if e.strict && !backing.strict_enough() {
        Some(Withheld::Strict)
    } else {
        None
    };
    let stands = withheld.is_none();
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
                let mut claimed = optimal && answer.contradiction.is_none();
                if claimed {
                    let mut c = Claim::new(ClaimKind::Optimum, e.by.clone(), backing);
                    c.confirmed_by = confirmed_by.clone();
                    c.bound = e.basis.bound.as_ref().map(bound_evidence);
                    if let Some(why) = withheld {
                        c.withhold(why);
                        claimed = false;
                    }
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
                    let mut c = Claim::new(ClaimKind::Unique, e.by.clone(), backing);
                    c.confirmed_by = confirmed_by;
                    if let Some(why) = withheld {
                        c.withhold(why);
                    }
                    answer.unique = stands.then_some(true);
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
            let mut c = Claim::new(ClaimKind::Unsat, e.by.clone(), backing);
            c.certificate = certificate;
            c.confirmed_by = confirmed_by;
            if let Some(w) = withheld {
                let why = if w == Withheld::Late { LATE } else { WITHHELD };
                c.withhold(w);
                answer.status = Status::Unknown;
                answer.reason = Some(match &e.reason {
                    Some(r) => format!("{why} ({r})"),
                    None => why.to_string(),
                });
            } else {
                answer.verdict_by = Some(verdict_by(&e.by));
            }
            evidence.claims.push(c);
        }
        (Status::Unknown, _) => {}
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

    #[test]
    fn a_contradiction_keeps_the_checked_model_and_claims_no_optimum() {
        let mut e = ending(Status::Sat, "cp");
        e.solution = Some(3);
        e.optimal = Some(true);
        e.basis.contradiction = Some(Contradiction {
            claimed_by: "highs".into(),
            claim: "optimum 5".into(),
            refuted_by: "cp".into(),
            message: "highs claimed 5 optimal, but cp found 3".into(),
        });
        let a = judge(e);
        assert_eq!((a.solution, a.optimal), (Some(3), Some(false)));
        assert!(a.contradiction.is_some());
        assert!(a.evidence.claim(ClaimKind::Optimum).is_none());
        assert_eq!(a.evidence.contradiction.as_ref().unwrap().claimed_by, "highs");
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
        let a = judge(e);
        assert_eq!(a.status, Status::Unknown);
        assert!(a.reason.unwrap().contains("after the time limit"));
        let mut e = ending(Status::Sat, "sat");
        e.solution = Some(4);
        e.optimal = Some(true);
        e.late = true;
        let a = judge(e);
        assert_eq!((a.status, a.solution, a.optimal), (Status::Sat, Some(4), Some(false)));
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

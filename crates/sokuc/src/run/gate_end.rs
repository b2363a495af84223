//! The end of an enumeration through the gate. An engine that says "no more solutions"
//! claims that the formula, with every solution it handed on blocked, has no solution: an
//! unsat claim about that question, and no verifier checks it. So it goes to
//! [`super::gate::judge`] as any unsat does (its backing, `--strict`, lateness), and comes
//! back as the claim [`ClaimKind::Complete`] (or [`ClaimKind::Unsat`] when nothing was
//! found). Only an accepted claim ends the output with MiniZinc's `==========` or
//! `=====UNSATISFIABLE=====`, sets the summary's `complete` or its `unsat`, or makes the
//! library's [`super::Enumerated`] complete.
//!
//! Under `--strict` the claim is put to an engine of another kind ([`super::confirm::ask`]):
//! the formula plus the blocking clause of every solution found, which it must refute. That
//! question grows with the solutions, so only enumerations of at most
//! [`super::seen::STRICT_MAX`] solutions are asked; past that the claim is withheld.

use std::time::Instant;

use super::assignment::{AnswerProblem, finish};
use super::confirm;
use super::gate::{Ending, judge};
use crate::backend::{Basis, Contradiction, Ended, Fault, SolveOptions, SolveStats, Status};
use crate::ir::{Constraint, Lit};
use crate::puzzle::Puzzle;
use crate::puzzle::evidence::{Claim, ClaimKind, Evidence, Withheld};

/// What an enumeration's end claims, before the gate weighs it.
pub(super) struct Claimed {
    /// Solutions handed on.
    pub found: u64,
    /// How the engine (or presolve, or the LP) says it ended.
    pub ended: Ended,
    /// Who says so: an engine, `presolve`, `lp`.
    pub by: String,
    pub basis: Basis,
    /// When the claim was made: a claim after the time limit and its grace counts for
    /// nothing.
    pub at: Instant,
    /// With no solution: why (presolve's argument, the LP's, the backend that proved it).
    pub reason: Option<String>,
    pub strict: bool,
}

/// What the gate lets the end say.
#[derive(Debug, Clone)]
pub(super) struct Judged {
    /// `sat` with a solution; `unsat` only for an accepted claim; else `unknown`.
    pub status: Status,
    /// `Complete` only for an accepted claim; a withheld one is `Unknown`.
    pub ended: Ended,
    /// Why a claim of completeness was withheld.
    pub withheld: Option<Withheld>,
    pub reason: Option<String>,
    pub evidence: Evidence,
}

/// Whether a claim made at `at` came after the time limit of `opts` and the grace an engine
/// gets to end ([`crate::budget::GRACE`]).
pub(super) fn late(opts: &SolveOptions, at: Instant) -> bool {
    opts.deadline().late(at)
}

/// Weighs the end of an enumeration (see the module's documentation).
pub(super) fn judge_end(c: Claimed, opts: &SolveOptions) -> Judged {
    let found = c.found;
    let basis = c.basis;
    if c.ended != Ended::Complete {
        // Nothing is claimed but the checked solutions themselves; the record keeps the
        // faults of any engine that answered wrongly on the way.
        let mut ending: Ending<()> = Ending::new(Status::Unknown, &c.by, &c.by);
        ending.basis = basis;
        ending.reason = c.reason;
        let a = judge(ending);
        return Judged {
            status: if found > 0 { Status::Sat } else { Status::Unknown },
            ended: c.ended,
            withheld: None,
            reason: if found > 0 { None } else { a.reason },
            evidence: a.evidence,
        };
    }
    // The gate records a late claim's fault and withholds a contradicted one (the
    // contradiction disputes this unsat claim), as for any other claim.
    let mut ending: Ending<()> = Ending::new(Status::Unsat, &c.by, &c.by);
    ending.basis = basis;
    ending.strict = c.strict;
    ending.late = late(opts, c.at);
    ending.reason = c.reason;
    let a = judge(ending);
    let mut evidence = a.evidence;
    let mut withheld = None;
    let reason = a.reason;
    if let Some(claim) = evidence.claims.iter_mut().find(|k| k.claim == ClaimKind::Unsat) {
        if found > 0 {
            claim.claim = ClaimKind::Complete;
        }
        if !claim.accepted {
            withheld = Some(claim.withheld.unwrap_or(Withheld::Strict));
        }
    }
    let accepted = withheld.is_none() && evidence.claims.iter().any(|k| k.accepted);
    Judged {
        status: match (found, accepted) {
            (1.., _) => Status::Sat,
            (0, true) => Status::Unsat,
            (0, false) => Status::Unknown,
        },
        ended: if accepted { Ended::Complete } else { Ended::Unknown },
        withheld,
        reason: if found > 0 { None } else { reason },
        evidence,
    }
}

/// The evidence of an exact count made by `by` (a counter, or `presolve` for a count of
/// none by an argument): the claim [`ClaimKind::Complete`] ("every solution was counted"),
/// weighed by the gate as the end of an enumeration is. No counter of another kind checks a
/// count yet, so it rests on the counter's word (or presolve's argument), and `--strict` is
/// refused before a count starts rather than applied here.
pub(crate) fn count_evidence(by: &str) -> Evidence {
    let mut ending: Ending<()> = Ending::new(Status::Unsat, by, by);
    ending.reason = Some(String::new());
    let mut evidence = judge(ending).evidence;
    for c in &mut evidence.claims {
        c.claim = ClaimKind::Complete;
    }
    evidence
}

/// An engine's "no solution" outside the run path's own solve (a sweep's session), made at
/// `at` under the time limit of `opts`, weighed by the gate: the claim [`ClaimKind::Unsat`]
/// with its backing, withheld when it came late. The caller records the instance as
/// undecided unless the claim is accepted.
pub(crate) fn judge_refutation(by: &str, basis: Basis, opts: &SolveOptions, at: Instant) -> Claim {
    let late = late(opts, at);
    let mut ending: Ending<()> = Ending::new(Status::Unsat, by, by);
    ending.basis = basis;
    ending.late = late;
    let evidence = judge(ending).evidence;
    match evidence.claims.into_iter().find(|c| c.claim == ClaimKind::Unsat) {
        Some(c) => c,
        // The gate makes an unsat claim of every unsat status; should it ever not, the
        // refutation stands on nothing.
        None => {
            let mut c = Claim::new(ClaimKind::Unsat, by, crate::puzzle::evidence::Backing::EngineWord);
            c.withhold(Withheld::Strict);
            c
        }
    }
}

/// Under `--strict`: asks an engine of another kind than `by` to refute `p`'s compiled
/// formula with each of `blocks` added ("is there a solution other than those found?").
/// A refutation confirms the end's claim (`basis.confirmed_by`); a model of the question
/// that passes [`finish`] contradicts it; a model that does not is the second engine's
/// fault. Without a verdict the claim stays unconfirmed (why, in `stats.extra["strict"]`),
/// and the gate withholds it.
pub(super) fn confirm_end<P: Puzzle>(
    p: &P,
    compiled: &P::Compiled,
    by: &str,
    blocks: &[Vec<Lit>],
    opts: &SolveOptions,
    basis: &mut Basis,
    stats: &mut SolveStats,
) {
    if basis.confirmed_by.is_some() {
        return;
    }
    let mut question = p.formula(compiled).clone();
    question.take_objective();
    for (i, b) in blocks.iter().enumerate() {
        question.add(format!("not solution {}", i + 1), Constraint::Clause(b.clone()));
    }
    let claim = match blocks.len() {
        0 => "that there is no solution".to_string(),
        1 => "that the one solution it listed is the only one".to_string(),
        n => format!("that the {n} solutions it listed are all"),
    };
    match confirm::ask(&question, by, opts) {
        confirm::Said::Refuted(other) => basis.confirmed_by = Some(other.to_string()),
        confirm::Said::Late(other) => basis.faults.push(confirm::late_confirmation(other)),
        confirm::Said::Nothing(why) => {
            stats.extra.insert("strict".into(), why.into());
        }
        confirm::Said::Model(other, a) => {
            let checked = finish(p, compiled, &a).map(|_| ()).and_then(|()| {
                question
                    .evaluate(&a)
                    .map_err(|v| AnswerProblem::Violates(v.to_string()))
            });
            match checked {
                Ok(()) => {
                    basis.contradiction = Some(Contradiction {
                        claimed_by: by.to_string(),
                        message: format!("{by} claimed {claim}, but {other} found another, checked solution"),
                        claim,
                        disputed: Some(crate::backend::Disputed::Unsat),
                        refuted_by: other.to_string(),
                    })
                }
                Err(why) => basis.faults.push(Fault {
                    engine: other.to_string(),
                    what: format!("offered a model that is not a solution ({why})"),
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::puzzle::evidence::Backing;

    fn claimed(found: u64, ended: Ended, by: &str) -> Claimed {
        Claimed {
            found,
            ended,
            by: by.into(),
            basis: Basis::default(),
            at: Instant::now(),
            reason: None,
            strict: false,
        }
    }

    #[test]
    fn a_complete_enumeration_is_a_claim_with_its_backing() {
        let j = judge_end(claimed(3, Ended::Complete, "search"), &SolveOptions::default());
        assert_eq!((j.status, j.ended, j.withheld), (Status::Sat, Ended::Complete, None));
        let c = j.evidence.claim(ClaimKind::Complete).unwrap();
        assert_eq!((c.backing, c.by.as_str(), c.accepted), (Backing::EngineWord, "search", true));
        assert!(j.evidence.claim(ClaimKind::Unsat).is_none());

        let j = judge_end(claimed(0, Ended::Complete, "lp"), &SolveOptions::default());
        assert_eq!((j.status, j.ended), (Status::Unsat, Ended::Complete));
        assert_eq!(j.evidence.claim(ClaimKind::Unsat).unwrap().backing, Backing::Certificate);
    }

    #[test]
    fn strict_withholds_one_engines_word_and_takes_a_confirmation() {
        let mut c = claimed(2, Ended::Complete, "sat");
        c.strict = true;
        let j = judge_end(c, &SolveOptions::default());
        assert_eq!((j.status, j.ended, j.withheld), (Status::Sat, Ended::Unknown, Some(Withheld::Strict)));
        assert!(!j.evidence.claim(ClaimKind::Complete).unwrap().accepted);

        let mut c = claimed(2, Ended::Complete, "sat");
        c.strict = true;
        c.basis.confirmed_by = Some("cp".into());
        let j = judge_end(c, &SolveOptions::default());
        assert_eq!(j.ended, Ended::Complete);
        let k = j.evidence.claim(ClaimKind::Complete).unwrap();
        assert_eq!((k.backing, k.confirmed_by.as_deref()), (Backing::SecondEngine, Some("cp")));
    }

    #[test]
    fn a_late_or_contradicted_claim_is_withheld_and_says_why() {
        let opts = SolveOptions {
            time_limit: Some(Duration::from_millis(1)),
            started: Some(Instant::now() - Duration::from_secs(5)),
            ..SolveOptions::default()
        };
        let j = judge_end(claimed(0, Ended::Complete, "sat"), &opts);
        assert_eq!((j.status, j.withheld), (Status::Unknown, Some(Withheld::Late)));
        assert!(j.evidence.faults.iter().any(|f| f.engine == "sat"));
        // Recorded once, by the gate, as for any late claim.
        assert_eq!(j.evidence.faults.len(), 1, "{:?}", j.evidence.faults);

        let mut c = claimed(4, Ended::Complete, "sat");
        c.basis.contradiction = Some(Contradiction {
            claimed_by: "sat".into(),
            claim: "that the 4 solutions it listed are all".into(),
            disputed: Some(crate::backend::Disputed::Unsat),
            refuted_by: "cp".into(),
            message: "sat claimed ..., but cp found another".into(),
        });
        let j = judge_end(c, &SolveOptions::default());
        assert_eq!((j.ended, j.withheld), (Ended::Unknown, Some(Withheld::Contradicted)));
        assert!(j.evidence.contradiction.is_some());
    }

    #[test]
    fn a_count_is_a_complete_claim_on_the_counters_word() {
        let e = count_evidence("frontier");
        let c = e.claim(ClaimKind::Complete).unwrap();
        assert_eq!((c.backing, c.by.as_str(), c.accepted), (Backing::EngineWord, "frontier", true));
        assert_eq!(e.claims.len(), 1);
        assert_eq!(count_evidence("presolve").claims[0].backing, Backing::Presolve);
    }

    #[test]
    fn an_unfinished_enumeration_claims_nothing() {
        let j = judge_end(claimed(5, Ended::Stopped, "search"), &SolveOptions::default());
        assert_eq!((j.status, j.ended), (Status::Sat, Ended::Stopped));
        assert!(j.evidence.claims.is_empty());
        let j = judge_end(claimed(0, Ended::Unknown, "search"), &SolveOptions::default());
        assert_eq!(j.status, Status::Unknown);
    }
}

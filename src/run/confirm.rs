//! `--strict`'s second engine: an unsat, optimum or uniqueness claim that rests on one
//! engine's word is put, as a question of refutation, to an engine of another kind. Each
//! claim is a refutation in disguise: "unsat" refutes the formula, "optimum v" refutes the
//! formula with "objective <= v - 1", "unique" refutes the formula with the blocking clause
//! of the solution. A refutation from the second engine confirms the claim; a model of the
//! question is checked like any other and, if it holds, contradicts the claim; anything else
//! leaves the claim unconfirmed, and the gate withholds it.

use crate::backend::{BackendError, SolveOptions, Status, by_name};
use crate::ir::PbFormula;

/// The engines of another kind than `first`, in the order they are asked: clause learning
/// is checked by constraint programming (or by search, where pumpkin's 32-bit numbers do
/// not reach), everything else by clause learning. Two engines of one kind could share a
/// bug of that kind (CaDiCaL and varisat both learn clauses from the same CNF encoding), so
/// the second is never of the first's kind.
fn others(first: &str) -> &'static [&'static str] {
    match first {
        "sat" | "cadical" => &["cp", "search"],
        "cp" | "search" | "mitm" => &["sat"],
        "mip" | "highs" => &["sat", "cp"],
        // Presolve's derivation is checked on the model without presolve, by clause
        // learning (the question it gets is that model).
        _ => &["sat", "cp"],
    }
}

/// What the second engine said.
pub(super) enum Said {
    /// It refuted the question: the claim is confirmed by this engine.
    Refuted(&'static str),
    /// It found a model of the question (to be checked by the caller: if it holds, the
    /// claim is wrong).
    Model(&'static str, Vec<bool>),
    /// No verdict: no engine of another kind takes the question, or none answered in time.
    Nothing(String),
}

/// Asks the engines of another kind than `first` to refute `question`, within the deadline
/// of `opts`, one after the other until one answers.
pub(super) fn ask(question: &PbFormula, first: &str, opts: &SolveOptions) -> Said {
    let mut why = String::from("no engine of another kind is in this build");
    for &name in others(first) {
        let Some(mut b) = by_name(name) else { continue };
        if b.check_options(opts).is_err() {
            continue;
        }
        if opts.deadline().passed() {
            return Said::Nothing("the time limit passed before a second engine could answer".into());
        }
        match b.solve(question, opts) {
            Ok(out) => match (out.status, out.assignment) {
                (Status::Unsat, _) => return Said::Refuted(name),
                (Status::Sat, Some(a)) => return Said::Model(name, a),
                _ => why = format!("{name} gave no verdict in time"),
            },
            // A refusal (the question is too large for it, or past its numbers) hands the
            // question to the next engine.
            Err(e @ (BackendError::Encode(_) | BackendError::Unsupported { .. })) => {
                why = format!("{name} could not take the question ({e})");
            }
            Err(e) => why = format!("{name} failed ({e})"),
        }
    }
    Said::Nothing(why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Constraint, Lit, Var};

    #[test]
    fn no_engine_confirms_its_own_kind() {
        for first in ["sat", "cadical", "cp", "search", "mitm", "mip", "highs", "presolve"] {
            let kind = |e: &'static str| match e {
                "sat" | "cadical" => "cdcl",
                "mip" | "highs" => "mip",
                e => e,
            };
            for o in others(first) {
                assert_ne!(kind(o), kind(first), "{first} is checked by {o}");
                assert_ne!(*o, first);
            }
        }
    }

    #[test]
    fn a_refutable_question_is_refuted_and_a_satisfiable_one_gives_a_model() {
        let mut f = PbFormula::new(1);
        f.add("x", Constraint::Clause(vec![Lit::new(Var(0), true)]));
        match ask(&f, "sat", &SolveOptions::default()) {
            Said::Model(by, a) => {
                assert_eq!(by, "cp");
                assert!(f.evaluate(&a).is_ok());
            }
            _ => panic!("a satisfiable question must give a model"),
        }
        f.add("not x", Constraint::Clause(vec![Lit::new(Var(0), false)]));
        assert!(matches!(ask(&f, "cp", &SolveOptions::default()), Said::Refuted("sat")));
    }
}

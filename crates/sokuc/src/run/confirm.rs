//! `--strict`'s second engine: an unsat, optimum or uniqueness claim that rests on one
//! engine's word is put, as a question of refutation, to an engine of another kind. Each
//! claim is a refutation in disguise: "unsat" refutes the formula, "optimum v" refutes the
//! formula with "objective <= v - 1", "unique" refutes the formula with the blocking clause
//! of the solution. A refutation from the second engine confirms the claim; a model of the
//! question is checked like any other and, if it holds, contradicts the claim; anything else
//! leaves the claim unconfirmed, and the gate withholds it.

use std::time::Instant;

use crate::backend::{Backend, BackendError, SolveOptions, Status, by_name, engines};
use crate::ir::PbFormula;

/// The engines of another kind than `first` ([`engines::kind`], the one table of kinds), in
/// the order they are asked: clause learning is checked by constraint programming (or by
/// search, where pumpkin's 32-bit numbers do not reach), everything else by clause learning
/// (or by constraint programming). Two engines of one kind could share a bug of that kind
/// (CaDiCaL and varisat both learn clauses from the same CNF encoding), so the second is
/// never of the first's kind. Presolve's derivation is checked on the model without
/// presolve, and is a kind of its own.
fn others(first: &str) -> impl Iterator<Item = &'static str> + '_ {
    let order: [&'static str; 2] = if engines::kind(first) == engines::kind("sat") {
        ["cp", "search"]
    } else {
        ["sat", "cp"]
    };
    order
        .into_iter()
        .filter(move |&o| engines::kind(o) != engines::kind(first))
}

/// What the second engine said.
pub(super) enum Said {
    /// It refuted the question: the claim is confirmed by this engine.
    Refuted(&'static str),
    /// It found a model of the question (to be checked by the caller: if it holds, the
    /// claim is wrong).
    Model(&'static str, Vec<bool>),
    /// It refuted the question after the time limit and its grace: too late to confirm
    /// anything, and its fault, not the first engine's.
    Late(&'static str),
    /// No verdict: no engine of another kind takes the question, or none answered in time.
    Nothing(String),
}

/// A test's second engine: its name, and how to make it.
#[cfg(test)]
pub(super) type TestEngine = (&'static str, fn() -> Box<dyn Backend>);

#[cfg(test)]
thread_local! {
    /// A test's second engine, asked instead of the build's on this thread.
    pub(super) static SECOND: std::cell::RefCell<Option<TestEngine>> = const { std::cell::RefCell::new(None) };
}

/// The engines asked about `first`'s claim, by name, as they are made.
fn candidates(first: &str) -> Vec<(&'static str, Option<Box<dyn Backend>>)> {
    #[cfg(test)]
    if let Some((name, make)) = SECOND.with(|s| *s.borrow()) {
        return vec![(name, Some(make()))];
    }
    others(first).map(|name| (name, by_name(name))).collect()
}

/// Asks the engines of another kind than `first` to refute `question`, within the deadline
/// of `opts`, one after the other until one answers.
pub(super) fn ask(question: &PbFormula, first: &str, opts: &SolveOptions) -> Said {
    let mut why = String::from("no engine of another kind is in this build");
    let deadline = opts.deadline();
    for (name, b) in candidates(first) {
        let Some(mut b) = b else { continue };
        if b.check_options(opts).is_err() {
            continue;
        }
        if deadline.passed() {
            return Said::Nothing("the time limit passed before a second engine could answer".into());
        }
        let out = b.solve(question, opts);
        let at = Instant::now();
        match out {
            Ok(out) => match (out.status, out.assignment) {
                (Status::Unsat, _) if deadline.late(at) => return Said::Late(name),
                (Status::Unsat, _) => return Said::Refuted(name),
                // A model is checked by the caller whenever it comes: if it holds, it is
                // true whatever the time.
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

/// The fault of a second engine that refuted the question only after the time limit: its
/// refutation confirms nothing, and the first engine's claim is judged without it.
pub(super) fn late_confirmation(by: &str) -> crate::backend::Fault {
    crate::backend::Fault {
        engine: by.to_string(),
        what: "refuted the question after the time limit, so it confirms nothing".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Constraint, Lit, Var};

    #[test]
    fn no_engine_confirms_its_own_kind() {
        for first in ["sat", "cadical", "cp", "search", "mitm", "mip", "highs", "presolve"] {
            let asked: Vec<_> = others(first).collect();
            assert!(!asked.is_empty(), "nobody checks {first}");
            for o in asked {
                assert_ne!(engines::kind(o), engines::kind(first), "{first} is checked by {o}");
            }
        }
        // Clause learning is checked by constraint programming first, everything else by
        // clause learning.
        assert_eq!(others("cadical").collect::<Vec<_>>(), ["cp", "search"]);
        assert_eq!(others("highs").collect::<Vec<_>>(), ["sat", "cp"]);
        assert_eq!(others("cp").collect::<Vec<_>>(), ["sat"]);
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

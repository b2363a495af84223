//! The race against a lying engine ([`crate::liar`]): each lie, raced against each
//! engine of the build, for decisions and optimisation, in both orders. No lie may come out
//! as a claim: each ends as a contradiction, a fault in the record, or no answer.
//!
//! The window a claim waits for the others is generous here (60 s), so that the outcome
//! does not hang on timing: a claim stands early only when every other engine has ended,
//! and the honest engine always ends (these formulas take it milliseconds).

use std::ops::ControlFlow;
use std::time::Duration;

use super::race::{Entrant, Finish, Setup, Task, race};
use crate::available;
use crate::contract::{Backend, SolveOptions};
use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Status, Var};
use crate::liar::{Liar, Lie, two_of_four_items as items};

/// What a race with a liar came to, for the matrix in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Came {
    /// The liar's claim met another engine's checked model.
    Contradiction,
    /// The liar's word was recorded as a fault and counted for nothing.
    Fault,
    /// The liar was still running (deaf to its stop flag) when the race ended and was left
    /// behind: whatever it says is heard by no one.
    LeftRunning,
    /// The lie does not apply to this task (the liar answered honestly).
    Honest,
}

/// Races `lie` against `engine` on [`items`] for `task`, the liar first or second, and
/// checks that no lie came out as a claim.
fn against(lie: Lie, engine: &'static str, task: Task, liar_first: bool) -> Came {
    let mut f = items();
    if task == Task::Decide {
        f.take_objective();
    }
    // The late liar sleeps past this limit and its grace, so a short one keeps its four runs
    // per engine short (1 s made each engine's test 5 s of waiting). The honest engine answers
    // these four items in milliseconds; if it did not, its "unknown" would be no lie either.
    let limit = if lie == Lie::Late {
        Duration::from_millis(200)
    } else {
        Duration::from_secs(30)
    };
    let opts = SolveOptions {
        time_limit: Some(limit),
        ..SolveOptions::default()
    }
    .clock_started();
    let liar = Entrant::new("liar", move || Box::new(Liar { lie }) as Box<dyn Backend>);
    let honest = Entrant::engine(engine);
    let field = if liar_first {
        vec![liar, honest]
    } else {
        vec![honest, liar]
    };
    let setup = Setup {
        head_start: Duration::ZERO,
        window: |_| Duration::from_secs(60),
    };
    let mut handed = Vec::new();
    let mut improved = |a: &[bool]| {
        handed.push(a.to_vec());
        ControlFlow::Continue(())
    };
    let improved: Option<&mut crate::contract::Improved<'_>> = match task {
        Task::Optimise => Some(&mut improved),
        Task::Decide => None,
    };
    let done: Finish = race(&f, &opts, field, &setup, task, improved).unwrap();
    let at = format!("{lie:?} against {engine} ({task:?}, liar first: {liar_first}): {done:?}");
    // No lie as a claim: there is a solution, and the optimum is 7.
    assert_ne!(done.status, Status::Unsat, "{at}");
    if let Some(a) = &done.assignment {
        assert!(f.evaluate(a).is_ok(), "{at}");
    }
    for a in &handed {
        assert!(f.evaluate(a).is_ok(), "a model that breaks a row was handed on: {at}");
    }
    if done.optimal {
        assert_eq!(handed.last().and_then(|a| f.objective_value(a)), Some(7), "{at}");
    }
    let basis = &done.stats.basis;
    let contradicted = basis.contradiction.as_ref().is_some_and(|c| c.claimed_by == "liar");
    let faulted = basis.faults.iter().any(|x| x.engine == "liar");
    let left = done.left_running.contains(&"liar");
    // The honest engine is never blamed.
    assert!(basis.faults.iter().all(|x| x.engine == "liar"), "{at}");
    let lies_here = match task {
        Task::Decide => matches!(lie, Lie::UnsatOnSat | Lie::BrokenModel | Lie::Late),
        Task::Optimise => lie != Lie::FalseUnique,
    };
    if lies_here {
        assert!(contradicted || faulted || left, "the lie went unrecorded: {at}");
    }
    if contradicted {
        Came::Contradiction
    } else if faulted {
        Came::Fault
    } else if left {
        Came::LeftRunning
    } else {
        Came::Honest
    }
}

/// Every lie against `engine`, both tasks and both orders; prints the matrix's rows.
fn matrix(engine: &'static str) {
    if !available().contains(&engine) {
        return;
    }
    for task in [Task::Decide, Task::Optimise] {
        for lie in Liar::ALL {
            let came = [true, false].map(|first| against(lie, engine, task, first));
            println!(
                "{engine:8} {task:?} {lie:?}: liar first {:?}, second {:?}",
                came[0], came[1]
            );
        }
    }
}

#[test]
fn no_lie_comes_out_of_a_race_with_sat() {
    matrix("sat");
}

#[test]
fn no_lie_comes_out_of_a_race_with_cp() {
    matrix("cp");
}

#[test]
fn no_lie_comes_out_of_a_race_with_search() {
    matrix("search");
}

#[test]
fn no_lie_comes_out_of_a_race_with_mitm() {
    matrix("mitm");
}

#[test]
#[cfg_attr(not(feature = "cadical"), ignore = "needs the cadical backend (--features cadical)")]
fn no_lie_comes_out_of_a_race_with_cadical() {
    matrix("cadical");
}

#[test]
#[cfg_attr(not(feature = "mip"), ignore = "needs the mip backend (--features mip)")]
fn no_lie_comes_out_of_a_race_with_mip() {
    matrix("mip");
}

#[test]
#[cfg_attr(not(feature = "highs"), ignore = "needs the highs backend (--features highs)")]
fn no_lie_comes_out_of_a_race_with_highs() {
    matrix("highs");
}

/// Two engines of other kinds that refute the same formula: the second confirms the first.
#[test]
fn a_refutation_from_another_kind_of_engine_confirms_the_claim() {
    let mut f = PbFormula::new(2);
    let x = |i| Lit::new(Var(i), true);
    f.add(
        "both",
        Constraint::Linear(Linear::new(vec![(1, x(0)), (1, x(1))], Cmp::Ge, 2)),
    );
    f.add(
        "not both",
        Constraint::Linear(Linear::new(vec![(1, x(0)), (1, x(1))], Cmp::Le, 1)),
    );
    let setup = Setup {
        head_start: Duration::ZERO,
        window: |_| Duration::from_secs(60),
    };
    let done = race(
        &f,
        &SolveOptions::default(),
        super::race::entrants(&["sat", "cp"]),
        &setup,
        Task::Decide,
        None,
    )
    .unwrap();
    assert_eq!(done.status, Status::Unsat);
    let by = done.stats.basis.confirmed_by.as_deref();
    assert!(by.is_some_and(|b| b != done.engine), "{done:?}");
}

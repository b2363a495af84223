//! Fault injection through the whole run path: the lying engine ([`crate::backend::liar`])
//! solo, and raced beside every real engine of the build through the portfolio's
//! coordinator, for decisions, optimisation and `--unique`, with and without `--strict`.
//! What may come of a lie: an internal error (a wrong model, exit 1), a contradiction (exit
//! 1, the checked model kept), a claim withheld (unknown, or the optimum or uniqueness left
//! open), a fault in the record with the honest answer, or, solo and without `--strict`
//! only, a claim the record shows to rest on the liar's word alone. Never a claim that
//! stands on a lie with nothing to say so.

use std::time::Duration;

use super::{RunError, RunOptions, solve};
use crate::backend::liar::{Liar, Lie};
use crate::backend::portfolio::race::{Entrant, Setup, Task, race};
use crate::backend::{
    Backend, BackendError, Capabilities, Improved, Optimum, Outcome, SolveOptions, Status, available,
};
use crate::ir::PbFormula;
use crate::pb::PbFile;
use crate::puzzle::evidence::{Backing, ClaimKind};

/// Two of four items; with `min`, at the least cost (3, 5, 4, 6: the optimum is 7). Six
/// solutions, so "unique" is a lie too.
fn items(min: bool) -> PbFile {
    let objective = if min { "min: +3 x1 +5 x2 +4 x3 +6 x4 ;\n" } else { "" };
    let text = format!("* #variable= 4 #constraint= 1\n{objective}+1 x1 +1 x2 +1 x3 +1 x4 = 2 ;\n");
    crate::pb::read_opb("items.opb", &text).unwrap()
}

/// The liar and an honest engine raced by the portfolio's coordinator, as `auto` races.
struct Pair {
    lie: Lie,
    engine: &'static str,
    answered: &'static str,
}

impl Pair {
    fn field(&self) -> Vec<Entrant> {
        let lie = self.lie;
        vec![
            Entrant::new("liar", move || Box::new(Liar { lie }) as Box<dyn Backend>),
            Entrant::engine(self.engine),
        ]
    }
}

const SETUP: Setup = Setup {
    head_start: Duration::ZERO,
    // Generous: a claim stands early only when the other engine has ended, so the outcome
    // does not hang on timing (these formulas take an honest engine milliseconds).
    window: |_| Duration::from_secs(60),
};

impl Backend for Pair {
    fn name(&self) -> &'static str {
        "pair"
    }
    fn answered_by(&self) -> &'static str {
        self.answered
    }
    fn capabilities(&self) -> Capabilities {
        crate::backend::sat::varisat::Varisat.capabilities()
    }
    fn solve(&mut self, f: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        let done = race(f, opts, self.field(), &SETUP, Task::Decide, None)?;
        self.answered = done.engine;
        Ok(Outcome {
            status: done.status,
            assignment: done.assignment,
            stats: done.stats,
        })
    }
    fn optimise_natively(
        &mut self,
        f: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Option<Result<Optimum, BackendError>> {
        Some(
            race(f, opts, self.field(), &SETUP, Task::Optimise, Some(improved)).map(|done| {
                self.answered = done.engine;
                Optimum {
                    status: done.status,
                    optimal: done.optimal,
                    stats: done.stats,
                }
            }),
        )
    }
}

/// What became of a lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Came {
    /// The run path refused a wrong model: an internal error, exit 1.
    Internal,
    /// A checked model refuted the claim: exit 1, the model printed.
    Contradiction,
    /// The claim was withheld (`--strict`, or made after the time limit).
    Withheld,
    /// The honest answer, with the liar's fault in the record.
    Fault,
    /// The honest answer, no fault: the lie does not apply here.
    Honest,
    /// Solo without `--strict`: the false claim is printed, and its evidence says it is one
    /// engine's word (`engine-word`, by the liar).
    WordAlone,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Decide,
    Optimise,
    Unique,
}

/// Runs `lie` in `mode` on the run path, solo or raced beside `engine`, and says what came
/// of it, after checking that no lie stands unmarked.
fn run(lie: Lie, mode: Mode, engine: Option<&'static str>, strict: bool) -> Came {
    let p = items(mode == Mode::Optimise);
    // The late liar sleeps past the limit and its grace: a short limit keeps its 34 runs
    // short. The honest engine beside it answers these four variables in milliseconds, and
    // if it did not, its "unknown" would be no lie either.
    let limit = if lie == Lie::Late {
        Duration::from_millis(200)
    } else {
        Duration::from_secs(30)
    };
    let opts = RunOptions {
        solve: SolveOptions {
            time_limit: Some(limit),
            ..SolveOptions::default()
        },
        lp: super::LpMode::Off,
        unique: mode == Mode::Unique,
        strict,
        ..RunOptions::default()
    };
    let mut b: Box<dyn Backend> = match engine {
        Some(engine) => Box::new(Pair {
            lie,
            engine,
            answered: "pair",
        }),
        None => Box::new(Liar { lie }),
    };
    let at = format!("{lie:?} {mode:?} beside {engine:?} strict {strict}");
    let o = match solve(&p, b.as_mut(), &opts) {
        Err(RunError::Wrong { .. }) => return Came::Internal,
        Err(e) => panic!("{at}: {e}"),
        Ok(o) => o,
    };
    let a = o.answer;
    if a.contradiction.is_some() {
        assert!(a.solution.is_some(), "{at}: a contradiction keeps the checked model");
        return Came::Contradiction;
    }
    let liar_word = |k: ClaimKind| {
        a.evidence
            .claim(k)
            .is_some_and(|c| c.accepted && c.by == "liar" && c.backing == Backing::EngineWord)
    };
    // The truth: there is a solution, the optimum is 7, and there are six solutions.
    let false_claim = a.status == Status::Unsat
        || (a.optimal == Some(true) && a.improvements.last() != Some(&7.into()))
        || a.unique == Some(true);
    if false_claim {
        let k = if a.status == Status::Unsat {
            ClaimKind::Unsat
        } else if a.unique == Some(true) {
            ClaimKind::Unique
        } else {
            ClaimKind::Optimum
        };
        assert!(engine.is_none() && !strict && liar_word(k), "{at}: a lie stood: {a:?}");
        return Came::WordAlone;
    }
    if a.evidence.claims.iter().any(|c| !c.accepted) {
        return Came::Withheld;
    }
    if a.evidence.faults.iter().any(|f| f.engine == "liar") {
        return Came::Fault;
    }
    Came::Honest
}

/// The engines raced beside the liar: every engine of the build.
fn engines() -> Vec<&'static str> {
    available().into_iter().filter(|&e| e != "auto").collect()
}

#[test]
fn no_lie_stands_unmarked_solo_or_raced() {
    let mut table = Vec::new();
    for lie in Liar::ALL {
        for mode in [Mode::Decide, Mode::Optimise, Mode::Unique] {
            for strict in [false, true] {
                table.push((lie, mode, "solo", strict, run(lie, mode, None, strict)));
                // auto races decisions and optimisation, not enumerations.
                if mode != Mode::Unique {
                    for e in engines() {
                        table.push((lie, mode, e, strict, run(lie, mode, Some(e), strict)));
                    }
                }
            }
        }
    }
    // The lies a lone engine can tell that nobody can check are caught by --strict.
    for &(lie, mode, with, strict, came) in &table {
        if with == "solo" && strict {
            assert_ne!(came, Came::WordAlone, "{lie:?} {mode:?}");
        }
    }
    // A broken model is never an answer, whoever offers it.
    for &(lie, _, with, _, came) in &table {
        if lie == Lie::BrokenModel && with == "solo" {
            assert!(matches!(came, Came::Internal | Came::Honest), "{came:?}");
        }
    }
    eprintln!("{table:#?}");
}

#[test]
fn a_lone_false_unsat_is_a_contradiction_under_strict() {
    assert_eq!(run(Lie::UnsatOnSat, Mode::Decide, None, false), Came::WordAlone);
    assert_eq!(run(Lie::UnsatOnSat, Mode::Decide, None, true), Came::Contradiction);
    assert_eq!(run(Lie::FalseUnique, Mode::Unique, None, true), Came::Contradiction);
    assert_eq!(run(Lie::NotOptimal, Mode::Optimise, None, true), Came::Contradiction);
}

#[test]
fn a_late_claim_counts_for_nothing() {
    assert_eq!(run(Lie::Late, Mode::Decide, None, false), Came::Withheld);
}

#[test]
fn the_race_keeps_every_lie_from_standing() {
    for e in engines() {
        assert_eq!(
            run(Lie::UnsatOnSat, Mode::Decide, Some(e), false),
            Came::Contradiction,
            "{e}"
        );
    }
}

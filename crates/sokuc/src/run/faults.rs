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
use crate::puzzle::evidence::{Backing, ClaimKind, Withheld};

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
    let opts = RunOptions {
        unique: mode == Mode::Unique,
        ..liar_options(liar_limit(lie, Duration::from_millis(200)), strict)
    };
    let mut b = liar_beside(lie, engine);
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

/// The time limit of a run of `lie`: `late` for the late liar, which sleeps past the limit
/// and its grace (a short limit keeps its runs short); else one no honest engine reaches on
/// these small formulas, so that its "unknown" would be no lie either.
pub(super) fn liar_limit(lie: Lie, late: Duration) -> Duration {
    if lie == Lie::Late { late } else { Duration::from_secs(30) }
}

/// The run options of a liar's run: `limit`, no LP (so that the engine answers), `strict`.
pub(super) fn liar_options(limit: Duration, strict: bool) -> RunOptions {
    RunOptions {
        solve: SolveOptions {
            time_limit: Some(limit),
            ..SolveOptions::default()
        },
        lp: super::LpMode::Off,
        strict,
        ..RunOptions::default()
    }
}

/// The lying engine alone, or raced beside the honest `engine`.
fn liar_beside(lie: Lie, engine: Option<&'static str>) -> Box<dyn Backend> {
    match engine {
        Some(engine) => Box::new(Pair {
            lie,
            engine,
            answered: "pair",
        }),
        None => Box::new(Liar { lie }),
    }
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

/// `--strict`'s second engine, set for one test on this thread ([`super::confirm::SECOND`]).
struct Second;

impl Second {
    fn set(name: &'static str, make: fn() -> Box<dyn Backend>) -> Second {
        super::confirm::SECOND.with(|s| *s.borrow_mut() = Some((name, make)));
        Second
    }
}

impl Drop for Second {
    fn drop(&mut self) {
        super::confirm::SECOND.with(|s| *s.borrow_mut() = None);
    }
}

/// An engine that answers at once that it does not know.
struct Mute;

impl Backend for Mute {
    fn name(&self) -> &'static str {
        "mute"
    }
    fn capabilities(&self) -> Capabilities {
        crate::backend::sat::varisat::Varisat.capabilities()
    }
    fn solve(&mut self, _: &PbFormula, _: &SolveOptions) -> Result<Outcome, BackendError> {
        Ok(Outcome::unknown(crate::backend::SolveStats::default()))
    }
}

/// The first engine claims on time; `--strict`'s second engine (the late liar) refutes the
/// question only after the time limit and its grace. The claim is judged on the first
/// engine's time: on time, and unconfirmed (withheld by --strict, not as late), and the
/// fault is the second engine's, never the first's.
#[test]
fn a_second_engine_that_overruns_cannot_make_the_first_engines_claim_late() {
    // Three pigeons in two holes, as rows: unsat; without presolve, so that an engine
    // refutes it.
    let text = "+1 x1 +1 x2 >= 1 ;\n+1 x3 +1 x4 >= 1 ;\n+1 x5 +1 x6 >= 1 ;\n\
                +1 x1 +1 x3 +1 x5 <= 1 ;\n+1 x2 +1 x4 +1 x6 <= 1 ;\n";
    let p = crate::pb::read_opb("pigeons.opb", text).unwrap();
    let _second = Second::set("liar", || Box::new(Liar::late()));
    let opts = RunOptions {
        solve: SolveOptions {
            time_limit: Some(Duration::from_millis(300)),
            ..SolveOptions::default()
        },
        compile: crate::puzzle::CompileOptions { presolve: false },
        lp: super::LpMode::Off,
        strict: true,
        ..RunOptions::default()
    };
    let o = solve(&p, &mut crate::backend::sat::varisat::Varisat, &opts).unwrap();
    let a = o.answer;
    let c = a.evidence.claim(ClaimKind::Unsat).expect("sat's claim");
    assert_eq!(
        (a.status, c.by.as_str(), c.withheld),
        (Status::Unknown, "sat", Some(Withheld::Strict)),
        "{a:?}"
    );
    assert!(a.reason.as_deref().is_some_and(|r| r.contains("--strict")), "{a:?}");
    assert!(a.evidence.faults.iter().all(|f| f.engine != "sat"), "{a:?}");
    assert!(a.evidence.faults.iter().any(|f| f.engine == "liar"), "{a:?}");
}

/// The puzzle in progress the assistant's rows lie about: TetraSoKu's seed game with two
/// tiles placed. (0,0,3) with its 3 at A (whose peg is 1) must come off; (0,0,1) with its 1
/// at D stays in one completion and not in another. The fewest to take off is 1, and a
/// completion that takes off both exists, for the liar's "not optimal".
fn partial() -> crate::assist::Partial {
    let inst = crate::input::instance_file::parse_instance(
        "seed.toml",
        "variant = \"tetrahedron\"\ntiles = [[0, 0, 1], [0, 0, 2], [0, 0, 3], [1, 1, 2]]\n\
         capacities = { A = 1, B = 2, C = 3, D = 4 }\n",
        None,
    )
    .unwrap();
    let placed =
        crate::input::placed::read_placed("placed", "ABC: (0,0,3), 3 touches A\nADB: (0,0,1), 1 touches D\n", &inst)
            .unwrap();
    crate::assist::Partial { inst, placed }
}

/// What the assistant made of `lie`, solo or raced beside `engine`, after checking that no
/// lie reached its words as a claim that nothing marks.
fn assisted(lie: Lie, engine: Option<&'static str>, strict: bool) -> Came {
    let p = partial();
    let opts = liar_options(liar_limit(lie, Duration::from_millis(200)), strict);
    let mut b = liar_beside(lie, engine);
    let at = format!("the assistant, {lie:?} beside {engine:?} strict {strict}");
    let found = match crate::assist::assist(&p, b.as_mut(), &opts) {
        // A wrong completion, from the run path or from the assistant's own check of it.
        Err(e) if e.exit_code() == crate::error::exit::INTERNAL => return Came::Internal,
        Err(e) => panic!("{at}: {e}"),
        Ok(found) => found,
    };
    let text = crate::assist::text(&p, &found);
    let verdict = crate::assist::verdict(&found);
    let a = &found.answer;
    // What the output says: a completion is checked; "the fewest" (take-off) and "no
    // solution" are claims. The truth: one tile must come off, and the puzzle has solutions.
    if let Some(s) = &a.solution {
        assert!(crate::soku::verify::verify(&p.inst, s).is_ok(), "{at}");
    }
    let false_claim = match verdict {
        "take-off" => found.removed.len() != 1,
        "no-solution" | "completable" => true,
        _ => false,
    };
    if false_claim {
        // Only a lone engine without --strict, and its word says so.
        let k = if verdict == "no-solution" {
            ClaimKind::Unsat
        } else {
            ClaimKind::Optimum
        };
        let word = a
            .evidence
            .claim(k)
            .is_some_and(|c| c.accepted && c.by == "liar" && c.backing == Backing::EngineWord);
        assert!(engine.is_none() && !strict && word, "{at}: a lie stood:\n{text}");
        assert!(text.contains("by liar: the engine's word"), "{at}:\n{text}");
        return Came::WordAlone;
    }
    if a.contradiction.is_some() {
        assert!(text.contains("contradiction:"), "{at}:\n{text}");
        return Came::Contradiction;
    }
    // The honest engine is never blamed, for lateness or anything else.
    assert!(a.evidence.faults.iter().all(|f| f.engine == "liar"), "{at}:\n{text}");
    if let Some(c) = a.evidence.claims.iter().find(|c| !c.accepted) {
        // The words say why, as the record does: the evidence line, and the assistant's
        // own line on "the fewest".
        let why = c.withheld.expect("a withheld claim says why");
        assert!(text.contains(why.words()), "{at}:\n{text}");
        let said = match why {
            Withheld::Strict => "unknown: --strict withheld the claim that these are the fewest",
            Withheld::Late => "unknown: the claim that these are the fewest came after the time limit",
            _ => "unknown: a checked completion contradicts",
        };
        assert!(verdict != "take-off-enough" || text.contains(said), "{at}:\n{text}");
        return Came::Withheld;
    }
    if a.evidence.faults.iter().any(|f| f.engine == "liar") {
        return Came::Fault;
    }
    Came::Honest
}

/// The assistant's rows of the liar matrix: a false "fewest", a false "no solution", a
/// completion that breaks a row and a late claim, solo and raced, with and without
/// --strict. No lie reaches the assistant's words as a claim that nothing marks.
#[test]
fn no_lie_reaches_the_assistants_words() {
    let mut table = Vec::new();
    for lie in [
        Lie::NotOptimal,
        Lie::WrongValue,
        Lie::BrokenModel,
        Lie::UnsatOnSat,
        Lie::Late,
    ] {
        for strict in [false, true] {
            table.push((lie, "solo", strict, assisted(lie, None, strict)));
            for e in ["sat", "cp"] {
                table.push((lie, e, strict, assisted(lie, Some(e), strict)));
            }
        }
    }
    eprintln!("{table:#?}");
    for &(lie, with, strict, came) in &table {
        // Solo, a lie nobody can check is marked as one engine's word; --strict catches it.
        if with == "solo" && strict {
            assert_ne!(came, Came::WordAlone, "{lie:?}");
        }
        // A completion that breaks a row is never an answer.
        if lie == Lie::BrokenModel && with == "solo" {
            assert_eq!(came, Came::Internal, "{lie:?} strict {strict}");
        }
    }
    // The false "fewest", solo under --strict: a checked completion that keeps more tiles.
    assert_eq!(assisted(Lie::NotOptimal, None, true), Came::Contradiction);
    // The late claim: withheld as late, and said so.
    assert_eq!(assisted(Lie::Late, None, false), Came::Withheld);
}

/// `--strict` withholds the assistant's "fewest" when no engine of another kind confirms
/// it: the words say --strict did, not that the time ran out.
#[test]
fn the_assistant_says_that_strict_withheld_the_fewest() {
    let p = partial();
    let _second = Second::set("mute", || Box::new(Mute));
    let opts = RunOptions {
        lp: super::LpMode::Off,
        strict: true,
        ..RunOptions::default()
    };
    let found = crate::assist::assist(&p, &mut crate::backend::sat::varisat::Varisat, &opts).unwrap();
    let text = crate::assist::text(&p, &found);
    assert_eq!(crate::assist::verdict(&found), "take-off-enough", "{text}");
    assert_eq!(found.removed.len(), 1, "{text}");
    assert!(text.contains("--strict withheld the claim that these are the fewest"), "{text}");
    assert!(!text.contains("time limit"), "{text}");
    let c = found.answer.evidence.claim(ClaimKind::Optimum).unwrap();
    assert_eq!(c.withheld, Some(Withheld::Strict));
}

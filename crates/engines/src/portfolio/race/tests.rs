//! The coordinator's own tests: races of real engines on small formulas.

use std::ops::ControlFlow;

use super::*;
use crate::ir::{Cmp, Constraint, Linear, Lit, Var};

/// A race of the engines `names` of this build, `head_start` for the first.
fn race_of(
    f: &PbFormula,
    opts: &SolveOptions,
    names: &[&'static str],
    head_start: Duration,
    task: Task,
    improved: Option<&mut Improved<'_>>,
) -> Finish {
    let setup = Setup { head_start, window };
    race(f, opts, entrants(names), &setup, task, improved).unwrap()
}

/// Pigeonhole, `n + 1` pigeons in `n` holes, as cardinality rows: unsat, and hard
/// enough for clause learning at 9 holes that a race is under way when it is stopped.
fn pigeons(n: u32) -> PbFormula {
    let mut f = PbFormula::new((n + 1) * n);
    let x = |p: u32, h: u32| Lit::new(Var(p * n + h), true);
    for p in 0..=n {
        let terms = (0..n).map(|h| (1, x(p, h))).collect();
        f.add("pigeon", Constraint::Linear(Linear::new(terms, Cmp::Ge, 1)));
    }
    for h in 0..n {
        let terms = (0..=n).map(|p| (1, x(p, h))).collect();
        f.add("hole", Constraint::Linear(Linear::new(terms, Cmp::Le, 1)));
    }
    f
}

#[test]
fn the_first_engine_answers_alone_within_its_head_start() {
    let f = pigeons(3);
    let done = race_of(
        &f,
        &SolveOptions::default(),
        &["sat", "cp"],
        Duration::from_secs(60),
        Task::Decide,
        None,
    );
    assert_eq!(done.status, Status::Unsat);
    assert_eq!(done.engine, "sat");
    assert!(done.note.contains("head start"), "{}", done.note);
}

#[test]
fn a_model_that_holds_wins_the_race() {
    let mut f = pigeons(4);
    // One pigeon fewer: satisfiable.
    for (label, c) in f.take_constraints().into_iter().skip(1) {
        f.add(label, c);
    }
    let done = race_of(
        &f,
        &SolveOptions::default(),
        &["sat", "cp"],
        Duration::ZERO,
        Task::Decide,
        None,
    );
    assert_eq!(done.status, Status::Sat);
    assert!(f.evaluate(done.assignment.as_ref().unwrap()).is_ok());
    assert!(done.note.contains("raced"), "{}", done.note);
}

#[test]
fn the_callers_interrupt_stops_every_engine() {
    let f = pigeons(11);
    let flag = Arc::new(AtomicBool::new(false));
    let opts = SolveOptions {
        interrupt: Some(flag.clone()),
        ..Default::default()
    };
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    let t0 = Instant::now();
    let done = race_of(&f, &opts, &["sat", "cp"], Duration::ZERO, Task::Decide, None);
    setter.join().unwrap();
    // Pigeonhole at 11 holes takes clause learning far longer than this.
    assert_eq!(done.status, Status::Unknown);
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    assert!(done.note.contains("none answered"), "{}", done.note);
}

/// Pick at least three of six items of costs 7, 3, 9, 4, 8, 5, minimising the cost: 12.
fn items() -> PbFormula {
    let mut f = PbFormula::new(6);
    let x = |i| Lit::new(Var(i), true);
    f.add(
        "three items",
        Constraint::Linear(Linear::new((0..6).map(|i| (1, x(i))).collect(), Cmp::Ge, 3)),
    );
    f.set_objective(Some(
        [7, 3, 9, 4, 8, 5].iter().zip(0..).map(|(&c, i)| (c, x(i))).collect(),
    ));
    f
}

#[test]
fn optimising_side_by_side_streams_better_models_and_proves_the_optimum() {
    let f = items();
    let mut seen = Vec::new();
    let mut improved = |a: &[bool]| {
        seen.push(f.objective_value(a).unwrap());
        ControlFlow::Continue(())
    };
    let o = race_of(
        &f,
        &SolveOptions::default(),
        &["sat", "cp"],
        Duration::ZERO,
        Task::Optimise,
        Some(&mut improved),
    );
    let (engine, note) = (o.engine, o.note.clone());
    assert!(o.optimal, "{note}");
    assert_eq!(o.status, Status::Sat);
    assert!(["sat", "cp"].contains(&engine));
    assert_eq!(seen.last(), Some(&12), "{seen:?}");
    assert!(seen.windows(2).all(|w| w[1] < w[0]), "not strictly better: {seen:?}");
    assert!(note.contains("proved the optimum first"), "{note}");
}

#[test]
fn optimising_side_by_side_proves_that_nothing_satisfies() {
    let mut f = pigeons(3);
    f.set_objective(Some(vec![(1, Lit::new(Var(0), true))]));
    let mut improved = |_: &[bool]| -> ControlFlow<()> { panic!("no model exists") };
    let o = race_of(
        &f,
        &SolveOptions::default(),
        &["sat", "cp"],
        Duration::ZERO,
        Task::Optimise,
        Some(&mut improved),
    );
    assert_eq!(o.status, Status::Unsat);
}

#[test]
fn a_refusal_hands_the_formula_to_the_others() {
    let f = pigeons(3);
    let opts = SolveOptions {
        encode: crate::encode::EncodeOptions {
            max_clauses: 1,
            ..Default::default()
        },
        ..Default::default()
    };
    let done = race_of(&f, &opts, &["sat", "cp"], Duration::from_secs(60), Task::Decide, None);
    assert_eq!(done.engine, "cp");
    assert_eq!(done.status, Status::Unsat);
    assert!(done.note.contains("sat could not take the formula"), "{}", done.note);
}

/// An engine that sleeps `secs` seconds looking at nothing, as a stuck engine would, and
/// then says it does not know.
struct Deaf {
    secs: u64,
}

impl crate::contract::Backend for Deaf {
    fn name(&self) -> &'static str {
        "deaf"
    }
    fn capabilities(&self) -> crate::contract::Capabilities {
        crate::sat::varisat::Varisat.capabilities()
    }
    fn solve(&mut self, _: &PbFormula, _: &SolveOptions) -> Result<crate::contract::Outcome, BackendError> {
        std::thread::sleep(Duration::from_secs(self.secs));
        Ok(crate::contract::Outcome::unknown(SolveStats::default()))
    }
}

fn deaf(secs: u64) -> Entrant {
    Entrant::new("deaf", move || {
        Box::new(Deaf { secs }) as Box<dyn crate::contract::Backend>
    })
}

#[test]
fn an_engine_that_ignores_its_stop_flag_does_not_hold_the_race() {
    let f = pigeons(3);
    let setup = Setup {
        head_start: Duration::ZERO,
        window,
    };
    // Alone, past a 100 ms limit: the race answers at the limit and its grace.
    let opts = SolveOptions {
        time_limit: Some(Duration::from_millis(100)),
        ..SolveOptions::default()
    }
    .clock_started();
    let t0 = Instant::now();
    let done = race(&f, &opts, vec![deaf(3)], &setup, Task::Decide, None).unwrap();
    let took = t0.elapsed();
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert_eq!(done.status, Status::Unknown);
    assert_eq!(done.left_running, ["deaf"]);
    assert!(done.note.contains("deaf did not end"), "{}", done.note);
    // Beside an engine that answers: the answer does not wait for it either.
    let t0 = Instant::now();
    let done = race(
        &f,
        &SolveOptions::default(),
        vec![Entrant::engine("sat"), deaf(3)],
        &Setup {
            head_start: Duration::ZERO,
            window: |_| Duration::ZERO,
        },
        Task::Decide,
        None,
    )
    .unwrap();
    let took = t0.elapsed();
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert_eq!((done.status, done.engine), (Status::Unsat, "sat"));
    assert_eq!(done.left_running, ["deaf"]);
}

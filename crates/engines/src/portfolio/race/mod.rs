//! The coordinator: several engines on one formula at once, one thread each, for a decision
//! or an optimisation alike. `auto` races where no single engine is best on every formula
//! of a kind (pseudo-Boolean files above all: CBC's branch and bound proves what clause
//! learning cannot, and the other way round; encodings/auto.md has the measurements).
//!
//! The engines after the first start only when it has not answered within a head start, so
//! that a formula one engine answers at once never pays for starting the others (CBC and
//! HiGHS are processes of their own).
//!
//! Every engine reports on one channel: each model it finds (`Event::Model`) and how it
//! ended (`Event::Done`), stamped by the thread that runs it. One loop weighs them, and
//! takes no engine's word for what it can check:
//!
//! - Every model is checked against every row (and its objective value computed) before it
//!   counts; a model that breaks a row is a fault of its engine, which counts for nothing
//!   after it.
//! - A claim (no solution; an optimum) counts only from an engine whose own last model was
//!   checked and is the best checked so far (an optimum), and only when it came before the
//!   time limit. A claim that a checked model of another engine refutes is a contradiction
//!   (the checked model is kept); one its own models refute is a fault.
//! - A claim does not end the race at once while other engines run: they get a short
//!   window ([`Setup::window`]) to refute it with a checked model or confirm it with a
//!   claim of their own. Another kind of engine that makes the same claim confirms it
//!   (`basis.confirmed_by`).
//! - Whatever the engines sent before they were stopped is weighed too, so a claim that
//!   came in as the race ended is still held against the models.
//! - An engine that does not end within [`GRACE`] of being stopped is left to end on its
//!   own (its thread owns what it needs): the race never waits on an engine that ignores
//!   its stop flag, and the note says which was left.
//!
//! What came of it goes to the run path's gate in `stats.basis` (faults, contradiction,
//! confirmation, and when the standing claim was made, from which the gate judges lateness
//! with the same [`Deadline::late`] as here).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use crate::basis::{Contradiction, Disputed, Fault};
use crate::budget::{Deadline, GRACE, join_within};
use crate::contract::{BackendError, Improved, SolveOptions, SolveStats};
use crate::ir::{PbFormula, Status};
use crate::{engines, searching};

mod entrant;
mod events;
mod thread;
pub use entrant::{Entrant, entrants};
pub use events::Task;
use events::{Event, Said};

/// How often the waiting coordinator looks at the caller's deadline and interrupt flag.
const POLL: Duration = Duration::from_millis(10);

/// How a race runs.
#[derive(Debug, Clone)]
pub struct Setup {
    /// How long the first engine runs alone.
    pub head_start: Duration,
    /// How long the other engines running may take to refute or confirm a claim, given
    /// how long the claim took (counted from the start of the race): [`window`] in `auto`.
    pub window: fn(Duration) -> Duration,
}

/// The least a claim waits for the other engines running to refute or confirm it.
const WINDOW_MIN: Duration = Duration::from_millis(100);
/// The most a claim waits.
const WINDOW_MAX: Duration = Duration::from_secs(1);

/// How long a claim that took `took` waits for the others: a tenth of that, within
/// `WINDOW_MIN` and `WINDOW_MAX`. An engine that is about to find a model the claim
/// denies gets the chance to say so, and a true claim (almost all of them) costs at most a
/// tenth more time, and never more than a second.
pub fn window(took: Duration) -> Duration {
    (took / 10).clamp(WINDOW_MIN, WINDOW_MAX)
}

/// What a race ended with.
#[derive(Debug)]
pub struct Finish {
    /// The engine whose answer this is: the one whose model is kept, or whose claim stands.
    pub engine: &'static str,
    pub status: Status,
    /// A decision's model (checked).
    pub assignment: Option<Vec<bool>>,
    /// An optimisation's last model (handed to the caller) is proven optimal.
    pub optimal: bool,
    /// The answering engine's stats, with the race's basis (faults, contradiction,
    /// confirmation) in `basis`.
    pub stats: SolveStats,
    /// What happened, in a few words (for `stats.extra.auto`).
    pub note: String,
    /// The engines that had not ended [`GRACE`] after the race stopped them, left to end on
    /// their own: whatever they say after that is heard by no one.
    pub left_running: Vec<&'static str>,
}

/// A claim no model can show: there is no solution, or this value is the optimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claimed {
    NoSolution,
    Optimum(i64),
}

impl Claimed {
    fn words(self) -> String {
        match self {
            Claimed::NoSolution => "there is no solution".into(),
            Claimed::Optimum(v) => format!("{v} optimal"),
        }
    }

    fn disputed(self) -> Disputed {
        match self {
            Claimed::NoSolution => Disputed::Unsat,
            Claimed::Optimum(_) => Disputed::Optimum,
        }
    }
}

/// A claim being weighed, or standing.
#[derive(Debug, Clone, Copy)]
struct Claim {
    who: usize,
    what: Claimed,
    /// When it was made (the engine's `Done`).
    made: Instant,
    /// When it stands if nothing refutes or confirms it first.
    settles: Instant,
    /// It stands (the race ended on it); a model may still refute it.
    stands: bool,
}

/// The last model an engine offered, as checked here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    None,
    Checked(i64),
    Broken,
}

/// One engine of the race, as the coordinator sees it.
struct Runner {
    name: &'static str,
    make: Option<Entrant>,
    started: bool,
    ended: bool,
    last: Last,
    /// It broke the rules (a model that breaks a row, a refuted claim): its word counts for
    /// nothing from then on.
    faulty: bool,
    stats: Option<SolveStats>,
    error: Option<BackendError>,
    mark: Option<searching::Mark>,
}

/// The best checked model so far.
struct Best {
    value: i64,
    who: usize,
    assignment: Vec<bool>,
}

/// The coordinator's state: everything the events have said so far.
struct Judge<'f> {
    formula: &'f PbFormula,
    task: Task,
    /// The time limit as an instant (an interrupt is no deadline: what came before it
    /// counts), and as the deadline whose [`Deadline::late`] says what came too late.
    limit: Option<Instant>,
    deadline: Deadline,
    window: fn(Duration) -> Duration,
    t0: Instant,
    runners: Vec<Runner>,
    best: Option<Best>,
    claim: Option<Claim>,
    confirmed_by: Option<String>,
    contradiction: Option<Contradiction>,
    faults: Vec<Fault>,
    /// The caller's callback asked for no more models.
    caller_stopped: bool,
}

/// The objective's value under `a`, `None` if a partial sum leaves 64 bits (such a model
/// cannot be weighed, so it counts as broken).
fn value_of(formula: &PbFormula, a: &[bool]) -> Option<i64> {
    match formula.objective() {
        None => Some(0),
        Some(terms) => terms
            .iter()
            .filter(|(_, l)| l.eval(a))
            .try_fold(0i64, |s, &(c, _)| s.checked_add(c)),
    }
}

impl Judge<'_> {
    fn late(&self, at: Instant) -> bool {
        self.deadline.late(at)
    }

    fn fault(&mut self, who: usize, what: String) {
        self.runners[who].faulty = true;
        self.faults.push(Fault {
            engine: self.runners[who].name.to_string(),
            what,
        });
    }

    /// `who`'s claim `what` is refuted by the checked model of `by` of value `value`.
    fn contradicted(&mut self, who: usize, what: Claimed, by: usize, value: i64) {
        let (claimer, refuter) = (self.runners[who].name, self.runners[by].name);
        let found = match self.task {
            Task::Decide => "found one".to_string(),
            Task::Optimise => format!("found a solution of value {value}"),
        };
        let message = format!(
            "{claimer} claimed {}, but {refuter} {found} that satisfies every row: {claimer}'s claim is wrong",
            what.words()
        );
        self.fault(
            who,
            format!("claimed {}, which {refuter}'s checked model refutes", what.words()),
        );
        if self.contradiction.is_none() {
            self.contradiction = Some(Contradiction {
                claimed_by: claimer.to_string(),
                claim: what.words(),
                disputed: Some(what.disputed()),
                refuted_by: refuter.to_string(),
                message,
            });
        }
    }

    fn model(&mut self, who: usize, a: Vec<bool>, at: Instant, improved: &mut Option<&mut Improved<'_>>) {
        if self.runners[who].faulty || self.late(at) {
            return;
        }
        let checked = match self.formula.evaluate(&a) {
            Ok(()) => value_of(self.formula, &a).ok_or_else(|| "an objective value past 64 bits".to_string()),
            Err(v) => Err(v.to_string()),
        };
        let value = match checked {
            Ok(v) => v,
            Err(why) => {
                self.runners[who].last = Last::Broken;
                return self.fault(who, format!("offered a model that breaks a row: {why}"));
            }
        };
        self.runners[who].last = Last::Checked(value);
        // A claim this model refutes, whoever made it.
        if let Some(c) = self.claim {
            let refuted = match c.what {
                Claimed::NoSolution => true,
                Claimed::Optimum(v) => value < v,
            };
            if refuted {
                self.claim = None;
                if c.who == who {
                    self.fault(
                        who,
                        format!("claimed {}, then offered a model of value {value}", c.what.words()),
                    );
                } else {
                    self.contradicted(c.who, c.what, who, value);
                }
            }
        }
        if self.best.as_ref().is_none_or(|b| value < b.value) {
            if self.task == Task::Optimise
                && !self.caller_stopped
                && let Some(improved) = improved.as_mut()
                && improved(&a).is_break()
            {
                self.caller_stopped = true;
            }
            self.best = Some(Best {
                value,
                who,
                assignment: a,
            });
        }
    }

    fn done(&mut self, who: usize, result: Result<Box<Said>, BackendError>, at: Instant) {
        let r = &mut self.runners[who];
        r.ended = true;
        r.mark = None;
        let said = match result {
            Ok(said) => *said,
            Err(e) => {
                r.error = Some(e);
                return;
            }
        };
        r.stats = Some(said.stats);
        if r.faulty {
            return;
        }
        let last = r.last;
        let what = match (said.status, self.task, said.optimal) {
            (Status::Unsat, ..) => Claimed::NoSolution,
            (Status::Sat, Task::Optimise, true) => match last {
                Last::Checked(v) => Claimed::Optimum(v),
                _ => return self.fault(who, "claimed an optimum without a checked model".into()),
            },
            (Status::Sat, Task::Decide, _) if last == Last::None && !self.late(at) => {
                return self.fault(who, "said satisfiable without a model".into());
            }
            _ => return,
        };
        if self.late(at) {
            return self.fault(who, format!("claimed {} after the time limit", what.words()));
        }
        if let Some(b) = &self.best {
            let (by, value) = (b.who, b.value);
            let refuted = match what {
                Claimed::NoSolution => true,
                Claimed::Optimum(v) => value < v,
            };
            if refuted && by == who {
                return self.fault(
                    who,
                    format!("claimed {} after offering a model of value {value}", what.words()),
                );
            }
            if refuted {
                return self.contradicted(who, what, by, value);
            }
        }
        match self.claim {
            // The same claim again: from another kind of engine, a confirmation.
            Some(c) if c.what == what => {
                let (first, second) = (self.runners[c.who].name, self.runners[who].name);
                if engines::kind(first) != engines::kind(second) && self.confirmed_by.is_none() {
                    self.confirmed_by = Some(second.to_string());
                }
                if let Some(c) = self.claim.as_mut() {
                    c.settles = at;
                }
            }
            // Two claims that differ are not both true, but a model must show which is
            // wrong (a claimed optimum stands on a checked model, so it beat the other):
            // the first stays, and the second is weighed when the first goes.
            Some(_) => {}
            None => {
                let took = at.saturating_duration_since(self.t0);
                let settles = at + (self.window)(took);
                let settles = self.limit.map_or(settles, |t| settles.min(t.max(at)));
                self.claim = Some(Claim {
                    who,
                    what,
                    made: at,
                    settles,
                    stands: false,
                });
            }
        }
    }

    fn handle(&mut self, e: Event, improved: &mut Option<&mut Improved<'_>>) {
        match e {
            Event::Model { who, assignment, at } => self.model(who, assignment, at, improved),
            Event::Done { who, result, at } => self.done(who, result, at),
        }
    }
}

/// Whether no engine of `runners` other than `but` runs now.
fn alone(runners: &[Runner], but: usize) -> bool {
    runners
        .iter()
        .enumerate()
        .all(|(i, r)| i == but || r.ended || !r.started)
}

/// Runs `entrants[0]` on `formula` for `task`, and after the head start of `setup` without
/// an answer the others beside it, one thread each, each with the time limit of `opts` and
/// a stop flag of the race's own (the caller's interrupt flag, or the process's, is watched
/// here and passed on). In an optimisation, each checked model strictly better than the best
/// so far goes to `improved` (the `o` lines stream from whichever engine is ahead), and
/// `Break` from it stops the race.
///
/// The race ends on a decision's first checked model, or on a claim that stood through its
/// window (see the module's documentation); every engine is then stopped and waited for,
/// up to [`GRACE`], and what each sent is weighed; an engine still running then is left to
/// end on its own ([`Finish::left_running`]). With no answer, an `unknown` (the best model
/// found, for an optimisation) with the stats of the engine that found it or of the first
/// engine; if every engine failed and nothing was found, the first engine's error.
pub fn race(
    formula: &PbFormula,
    opts: &SolveOptions,
    entrants: Vec<Entrant>,
    setup: &Setup,
    task: Task,
    improved: Option<&mut Improved<'_>>,
) -> Result<Finish, BackendError> {
    if entrants.is_empty() {
        return Err(BackendError::Solver {
            backend: "auto",
            message: "a race without engines".into(),
        });
    }
    let outer = opts.deadline();
    let stop = Arc::new(AtomicBool::new(false));
    let mine = SolveOptions {
        interrupt: Some(stop.clone()),
        ..opts.clone()
    };
    let t0 = Instant::now();
    let started = opts.started.unwrap_or(t0);
    let limit = opts.time_limit.and_then(|d| started.checked_add(d));
    let names: Vec<&'static str> = entrants.iter().map(|e| e.name).collect();
    let board = opts.searching.as_ref();
    let mut improved = improved;
    let mut judge = Judge {
        formula,
        task,
        limit,
        deadline: Deadline::counted_from(started, opts.time_limit, None),
        window: setup.window,
        t0,
        runners: entrants
            .into_iter()
            .map(|e| Runner {
                name: e.name,
                make: Some(e),
                started: false,
                ended: false,
                last: Last::None,
                faulty: false,
                stats: None,
                error: None,
                mark: None,
            })
            .collect(),
        best: None,
        claim: None,
        confirmed_by: None,
        contradiction: None,
        faults: Vec::new(),
        caller_stopped: false,
    };
    // The engines' threads own what they use, so that one that ignores its stop flag can be
    // left behind (a scoped thread would hold the race until it ended): the formula is
    // shared by them all.
    let shared = Arc::new(formula.clone());
    let (tx, rx) = mpsc::channel::<Event>();
    let mut handles: Vec<(usize, std::thread::JoinHandle<()>)> = Vec::new();
    let mut start = |judge: &mut Judge<'_>, who: usize| {
        let r = &mut judge.runners[who];
        let Some(entrant) = r.make.take() else { return };
        r.started = true;
        r.mark = searching::mark(board, r.name);
        let (tx, mine, stop, name, formula) = (tx.clone(), mine.clone(), stop.clone(), r.name, shared.clone());
        let spawned = std::thread::Builder::new()
            .name("sokuc-race".into())
            .spawn(move || thread::run(entrant, &formula, &mine, &stop, task, who, &tx));
        match spawned {
            Ok(h) => handles.push((who, h)),
            Err(e) => {
                r.ended = true;
                r.mark = None;
                r.error = Some(BackendError::Solver {
                    backend: "auto",
                    message: format!("{name} could not be started: {e}"),
                });
            }
        }
    };
    start(&mut judge, 0);
    let mut all_started = judge.runners.len() == 1;
    // When the time limit or the caller's interrupt stopped the engines: what they send
    // within the grace after it is weighed as it comes, and then the race ends.
    let mut stopped: Option<Instant> = None;
    loop {
        if stopped.is_some_and(|t| t.elapsed() >= GRACE) {
            break;
        }
        let first_spoke = judge.runners[0].ended || judge.claim.is_some();
        if !all_started
            && judge.claim.is_none()
            && (t0.elapsed() >= setup.head_start || first_spoke)
            && !outer.passed()
            && !judge.caller_stopped
        {
            // The first engine is slow, or it ended without a claim (a refusal, an
            // error, a model that does not hold): the others' turn.
            for who in 1..judge.runners.len() {
                start(&mut judge, who);
            }
            all_started = true;
        }
        if (task == Task::Decide && judge.best.is_some()) || judge.caller_stopped {
            break;
        }
        if let Some(c) = judge.claim.as_mut()
            && (Instant::now() >= c.settles || alone(&judge.runners, c.who))
        {
            c.stands = true;
            break;
        }
        if !judge.runners.iter().any(|r| r.started && !r.ended) {
            break;
        }
        let wait = judge
            .claim
            .map_or(POLL, |c| c.settles.saturating_duration_since(Instant::now()).min(POLL));
        match rx.recv_timeout(wait) {
            Ok(e) => judge.handle(e, &mut improved),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if outer.passed() {
            // The time limit (each engine keeps it too) or the caller's interrupt, which
            // the engines do not see: stop them all.
            stop.store(true, Ordering::Relaxed);
            stopped.get_or_insert_with(Instant::now);
        }
    }
    stop.store(true, Ordering::Relaxed);
    drop(tx);
    // The losers look at `stop` as they look at the clock. Whatever they sent before they
    // ended is weighed like the rest (a late claim against the kept model), for as long as
    // the grace lasts; an engine that has not ended by then is not waited for.
    let until = stopped.unwrap_or_else(Instant::now) + GRACE;
    while judge.runners.iter().any(|r| r.started && !r.ended) {
        match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(e) => judge.handle(e, &mut improved),
            Err(_) => break,
        }
    }
    let mut left_running = Vec::new();
    for (who, h) in handles {
        // An engine that said it ended is on its last lines: its thread is joined. One that
        // did not is left to end on its own.
        let wait = if judge.runners[who].ended {
            GRACE
        } else {
            until.saturating_duration_since(Instant::now())
        };
        if join_within(h, wait).is_none() && !judge.runners[who].ended {
            left_running.push(judge.runners[who].name);
        }
    }
    for e in rx.try_iter() {
        judge.handle(e, &mut improved);
    }
    let took = t0.elapsed().as_secs_f64();
    let mut finish = settle(judge, &names, took)?;
    if !left_running.is_empty() {
        finish.note.push_str(&format!(
            "; {} did not end within {:.1} s of being stopped, and was left to end on its own",
            left_running.join(" and "),
            GRACE.as_secs_f64()
        ));
    }
    finish.left_running = left_running;
    Ok(finish)
}

/// The race's answer from what the judge weighed.
fn settle(judge: Judge<'_>, names: &[&'static str], took: f64) -> Result<Finish, BackendError> {
    let Judge {
        task,
        mut runners,
        best,
        claim,
        confirmed_by,
        contradiction,
        faults,
        ..
    } = judge;
    let all = names.join(", ");
    let started = runners.iter().filter(|r| r.started).count();
    let standing = claim.filter(|c| c.stands);
    // Whose answer this is: the standing claim's engine, else the finder of the kept model.
    let who = standing.map(|c| c.who).or(best.as_ref().map(|b| b.who));
    let failed: Vec<String> = runners
        .iter()
        .filter_map(|r| {
            let e = r.error.as_ref()?;
            let what = if e.is_refusal() {
                "could not take the formula as it is"
            } else {
                "failed"
            };
            Some(format!("{} {what} ({e})", r.name))
        })
        .collect();
    let (engine, status, optimal, note) = match (who, standing) {
        (Some(who), Some(c)) => {
            let name = runners[who].name;
            let (status, what) = match c.what {
                Claimed::NoSolution => (Status::Unsat, "no solution"),
                Claimed::Optimum(_) => (Status::Sat, "the optimum"),
            };
            let note = match task {
                _ if started == 1 => format!("{name} proved {what} within its head start"),
                Task::Decide if !failed.is_empty() => format!("{}, so {name}", failed.join("; ")),
                Task::Decide => {
                    format!("{all} raced: {name} answered first, after {took:.3} s, and the others were stopped")
                }
                Task::Optimise => {
                    let by = best.as_ref().map_or(String::new(), |b| {
                        format!(" (the best solution was {}'s)", runners[b.who].name)
                    });
                    format!("{all} optimised side by side: {name} proved {what} first, after {took:.3} s{by}")
                }
            };
            (name, status, c.what != Claimed::NoSolution, note)
        }
        (Some(who), None) if task == Task::Decide => {
            let name = runners[who].name;
            let note = if started == 1 {
                format!("{name} answered within its head start")
            } else if !failed.is_empty() {
                format!("{}, so {name}", failed.join("; "))
            } else {
                format!("{all} raced: {name} answered first, after {took:.3} s, and the others were stopped")
            };
            (name, Status::Sat, false, note)
        }
        (found, _) => {
            let name = found.map_or(names[0], |w| runners[w].name);
            let status = if best.is_some() { Status::Sat } else { Status::Unknown };
            let note = match task {
                Task::Decide if started == 1 => {
                    format!("{name} alone: the time limit passed before the others could start")
                }
                Task::Decide => format!("{all} raced; none answered"),
                Task::Optimise => format!("{all} optimised side by side; none proved the optimum within the limit"),
            };
            (name, status, false, note)
        }
    };
    // The stats of the answering engine, else of the first that has any; with none at all
    // and nothing found, the first engine's error is the answer.
    let at = runners.iter().position(|r| r.name == engine && r.stats.is_some());
    let mut stats = match at.or_else(|| runners.iter().position(|r| r.stats.is_some())) {
        Some(i) => runners[i].stats.take().unwrap_or_default(),
        None if best.is_none() && standing.is_none() => {
            if let Some(e) = runners.iter_mut().find_map(|r| r.error.take()) {
                return Err(e);
            }
            SolveStats::default()
        }
        None => SolveStats::default(),
    };
    let basis = &mut stats.basis;
    if basis.confirmed_by.is_none() && standing.is_some() {
        basis.confirmed_by = confirmed_by;
    }
    if let Some(c) = standing {
        basis.claimed_at = Some(c.made);
    }
    if basis.contradiction.is_none() {
        basis.contradiction = contradiction;
    }
    basis.faults.extend(faults);
    Ok(Finish {
        engine,
        status,
        assignment: match task {
            Task::Decide if status == Status::Sat => best.map(|b| b.assignment),
            _ => None,
        },
        optimal,
        stats,
        note,
        left_running: Vec::new(),
    })
}

#[cfg(test)]
mod tests;

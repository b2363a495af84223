//! `--backend auto`, the default of `solve` and `bench`: one fixed, documented rule picks the
//! engine for each formula from what the formula looks like and what was asked
//! (encodings/auto.md has the rule and the measurements behind it):
//!
//! 1. A DRAT proof asked for: the first CDCL engine that writes one (`sat`).
//! 2. A clause-heavy formula (more clauses than variables, such as Tricky Triple's
//!    "no three in a row"): a CDCL engine straight away. Learning is what such formulas
//!    need, and the learning-free `search` gets lost in them.
//! 3. Anything else (exactly-one groups tied by linear rows: 3SoKu, pools, Kakuro): `search`,
//!    with a budget of [`SEARCH_FAILURES`] failures and [`SEARCH_SLICE`] of time; when either
//!    runs out, the CDCL engine solves the formula from scratch within what is left of the
//!    time limit.
//!
//! The CDCL engine is `sat` (varisat), or with `--seed` the first engine of this build that
//! takes a seed (`cadical`, else `cp`), so a seed is never silently dropped. A formula with
//! a knapsack-like row (over half of the variables, coefficients of more than one size)
//! goes to `mip` (CBC) instead, where the build has it and no seed is asked for: CBC sees
//! such a row whole. The budget counts failures, and the slice of time is far past what
//! search needs where it is the right engine, so where search answers, the same engine
//! answers on any machine.
//!
//! When the CDCL engine has not answered within [`HEAD_START`], `highs` (HiGHS, where the
//! build has it; else `mip`, CBC, where the build has that, and `cp`) races it (`race/`,
//! the coordinator), sharing the cores: the first answer that holds wins and the others are
//! stopped. Every model is checked before it counts, and a claim another engine's checked
//! model refutes is a contradiction (`stats.basis`), never the answer. No single
//! engine is best on pseudo-Boolean files (encodings/auto.md has the measurements): a MIP
//! solver proves what clause learning cannot, and the other way round. An objective is
//! optimised by `highs` with `mip` beside it after the same head start (or by whichever of
//! the two the build has, with `cp` beside it), and `cp` as a third only where there is a
//! core for each. With `--seed` or a DRAT proof there is no race, so that a seeded run repeats
//! exactly and the proof is the picked engine's.
//!
//! Before the CDCL engine (after search gave up, where search goes first), a formula of at
//! most [`mitm::AUTO_VARS`] variables with an equality row, and no seed or proof asked for,
//! goes to `mitm`, with a cap of [`mitm::AUTO_CHECKS`] candidate checks; it hands the
//! formula on when more than 44 variables are free or the cap runs out. An objective goes
//! to `mitm` first on the same terms (an objective instead of an equality row will do).
//!
//! With `--lp auto`, the run path first calls [`Backend::try_quickly`]: search with a budget
//! of [`QUICK_FAILURES`]. Only when that gives up does the LP relaxation run, and then the
//! rule above; the LP costs about a millisecond, which most instances never pay.
//!
//! Enumeration (`--all`, `--unique`) follows the same rule: where search would go first, it
//! gets the same budget to find a first solution (or prove there is none); when it does,
//! search walks the whole tree natively (hundreds of thousands of solutions per second on
//! IcoSoKu); when it gives up, the CDCL engine enumerates in one session with a blocking
//! clause per solution, slower per solution but not lost where search is.
//!
//! The answer names the engine that answered ([`Backend::answered_by`]), and
//! `stats.extra.auto` says why it was picked.

use super::field::{OPTIMISERS, field_for, fits};
use super::race::{self, Setup, Task};
use super::second_opinion::second_opinion;
use crate::algorithms::Algorithms;
use crate::contract::{
    Backend, BackendError, Capabilities, Ended, Enumeration, Improved, Optimum, Outcome, Parallel, Session,
    SolveOptions, SolveStats, Visit, check_caps,
};
use crate::ir::{Constraint, PbFormula, Projection, Status};
use crate::limits::too_wide_for;
use crate::{engines, mitm, search, searching};
use std::time::{Duration, Instant};

/// Why `mitm` answered (see [`mitm::first_try`]).
const MITM_WHY: &str =
    "few free variables and an equality row or an objective: mitm, which enumerates two halves and meets in the middle";

/// Failures `search` may meet before the formula goes to the CDCL engine. On icosoku100 the
/// most any instance needed was 1,112 (median 14); at this budget search gives up on a
/// hard instance after roughly 50 ms on an IcoSoKu-sized model.
pub const SEARCH_FAILURES: u64 = 2_000;

/// Failures of the quick first attempt ([`Backend::try_quickly`]): 90% of icosoku100 needs
/// at most 55, so the LP relaxation (about 1 ms) runs only on the rest, where the hard
/// unsatisfiable instances are.
pub const QUICK_FAILURES: u64 = 100;

/// Whether a search outcome is search giving up on its budget (not the time limit).
fn gave_up(out: &Outcome) -> bool {
    out.status == Status::Unknown && out.stats.extra.get("gave_up") == Some(&serde_json::Value::Bool(true))
}

/// The most time search goes first for, whatever its failure budget: where one node takes
/// milliseconds (rows over tens of thousands of variables, MIPLIB's nw04 and fast0507),
/// 2,000 failures never come, and search kept the whole time limit from the engines that
/// answer such formulas. Every IcoSoKu instance of icosoku100 is answered within 50 ms, so
/// the failure budget still decides wherever search is the right engine.
pub const SEARCH_SLICE: Duration = Duration::from_secs(1);

/// Search first on `formula`, within `failures` failures and [`SEARCH_SLICE`] (or what is
/// left of the time limit, if less). Running out of the slice with time left is giving up,
/// like running out of failures.
fn search_first(formula: &PbFormula, opts: &SolveOptions, failures: u64) -> Result<Outcome, BackendError> {
    let outer = opts.deadline();
    let mut sliced = opts.clone();
    sliced.started = Some(Instant::now());
    sliced.time_limit = Some(outer.remaining().map_or(SEARCH_SLICE, |left| left.min(SEARCH_SLICE)));
    let searching = searching::mark(opts.searching.as_ref(), "search");
    let mut out = search::solve_within(formula, &sliced, Some(failures))?;
    drop(searching);
    if out.status == Status::Unknown && !gave_up(&out) && !outer.passed() {
        out.stats.extra.insert("gave_up".into(), true.into());
        out.stats.extra.insert(OUT_OF_TIME.into(), true.into());
    }
    Ok(out)
}

/// `stats.extra` key: search gave up on its [`SEARCH_SLICE`], not its failures. A bigger
/// failure budget would give up the same way, so the quick attempt that ran out of time is
/// not followed by the full one ([`Auto::gave_up`]).
const OUT_OF_TIME: &str = "search_out_of_time";

/// What `auto` runs on one formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// `search` first, with the failure budget.
    pub search_first: bool,
    /// The engine that answers when search is not tried or gives up.
    pub engine: &'static str,
    /// Why, in a few words (goes to `stats.extra.auto`).
    pub why: String,
}

/// The engines `auto` may hand a formula to, in order of preference.
const CDCL: [&str; 5] = ["sat", "cadical", "cp", "mip", "highs"];

/// The first engine in [`CDCL`] order that this build has, that honours `opts`, and (with
/// a formula) whose numbers hold its widest row: `cp` and `mip` would refuse a wider one.
fn cdcl_for(opts: &SolveOptions, f: Option<&PbFormula>) -> Result<&'static str, BackendError> {
    let mut first_refusal = None;
    for name in CDCL {
        let Some(b) = engines::engine(name) else { continue };
        let wide = f.and_then(|f| too_wide_for(name, f));
        if let Some((what, w)) = wide {
            first_refusal.get_or_insert(BackendError::Unavailable {
                backend: name,
                message: format!("{what} adds up to {w}, wider than {name}'s numbers hold exactly"),
            });
            continue;
        }
        match b.check_options(opts) {
            Ok(()) => return Ok(name),
            Err(e) => {
                first_refusal.get_or_insert(e);
            }
        }
    }
    Err(first_refusal.unwrap_or(BackendError::Solver {
        backend: "auto",
        message: "no engine in this build".into(),
    }))
}

/// After the engines in `tried` refused the formula: the engines that take rows as they are (no CNF, so
/// no clause budget), in order, skipping those whose numbers cannot hold a row; the first
/// answer with the engine that gave it and the refusal in words, or the first refusal if
/// every engine refuses.
fn fallback(
    formula: &PbFormula,
    opts: &SolveOptions,
    tried: &[&str],
    refused: BackendError,
) -> Result<(&'static str, Outcome, String), BackendError> {
    for name in ["highs", "mip", "cp", "search"] {
        if tried.contains(&name) {
            continue;
        }
        let Some(mut b) = engines::engine(name) else { continue };
        let fits = too_wide_for(name, formula).is_none();
        if !fits || b.check_options(opts).is_err() {
            continue;
        }
        match b.solve(formula, opts) {
            Ok(out) => return Ok((name, out, refused.to_string())),
            Err(e) if e.is_refusal() => continue,
            Err(e) => return Err(e),
        }
    }
    Err(refused)
}

/// How long the engine `auto` picked runs alone before a second engine races it
/// (`race.rs`): a formula answered within it never pays for starting another engine.
pub const HEAD_START: Duration = Duration::from_millis(100);

/// `auto`'s race: [`HEAD_START`], and the coordinator's window for a claim.
fn race_setup() -> Setup {
    Setup {
        head_start: HEAD_START,
        window: race::window,
    }
}

/// Clauses of the formula (constraints stated as clauses, not counting groups or rows).
fn clause_count(f: &PbFormula) -> usize {
    f.constraints()
        .iter()
        .filter(|(_, c)| matches!(c, Constraint::Clause(_)))
        .count()
}

/// The terms of the longest knapsack-like row of `f`: a linear row over at least half of the
/// variables (and at least [`KNAPSACK_TERMS`]) whose coefficients are not all of one size.
/// Market splits, knapsacks and MIPLIB's objective-bound rows look like this; clause
/// learning sees such a row only through its encoding, where CBC's LP and heuristics see it
/// whole (encodings/auto.md, "The engine beside HiGHS"). 3SoKu's vertex rows (a quarter of
/// the variables), cardinality rows (one coefficient) and short random rows do not.
fn knapsack_row(f: &PbFormula) -> Option<usize> {
    let least = KNAPSACK_TERMS.max(f.num_vars().div_ceil(2) as usize);
    f.constraints()
        .iter()
        .filter_map(|(_, c)| match c {
            Constraint::Linear(l) if l.terms.len() >= least => {
                let size = l.terms.first()?.0.unsigned_abs();
                l.terms
                    .iter()
                    .any(|t| t.0.unsigned_abs() != size)
                    .then_some(l.terms.len())
            }
            _ => None,
        })
        .max()
}

/// The fewest terms of a knapsack-like row ([`knapsack_row`]).
const KNAPSACK_TERMS: usize = 16;

/// The rule (see the module's documentation).
pub fn plan(f: &PbFormula, opts: &SolveOptions) -> Result<Plan, BackendError> {
    let engine = match cdcl_for(opts, Some(f)) {
        Ok(engine) => engine,
        // No CDCL engine of this build takes this formula with these options (a default
        // build asked for a seed on a row wider than cp's numbers): search alone, without a
        // budget, where it honours them. `auto` refuses only what no engine can do.
        Err(e) if opts.proof.is_none() && search::Search.check_options(opts).is_ok() => {
            return Ok(Plan {
                search_first: true,
                engine: "search",
                why: format!("search alone: no CDCL engine of this build takes the formula ({e})"),
            });
        }
        Err(e) => return Err(e),
    };
    if opts.proof.is_some() {
        return Ok(Plan {
            search_first: false,
            engine,
            why: format!("a DRAT proof was asked for: {engine} writes one"),
        });
    }
    let clauses = clause_count(f);
    if clauses > f.num_vars() as usize {
        return Ok(Plan {
            search_first: false,
            engine,
            why: format!(
                "{clauses} clauses over {} variables: clause-heavy, so {engine} (CDCL)",
                f.num_vars()
            ),
        });
    }
    // A knapsack-like row (see `knapsack_row`) is where CBC beats clause learning.
    let (engine, knapsack) = match knapsack_row(f) {
        Some(terms) if opts.seed.is_none() && fits("mip", f, opts) => ("mip", Some(terms)),
        _ => (engine, None),
    };
    let engine_why = match knapsack {
        Some(terms) => format!("{engine} (a row of {terms} terms with uneven coefficients)"),
        None => engine.to_string(),
    };
    // Search honours every option a formula without a proof can ask for; if that ever
    // changes, the CDCL engine takes the formula.
    let search_first = search::Search.check_options(opts).is_ok();
    Ok(Plan {
        search_first,
        engine,
        why: if search_first {
            format!("groups and rows: search, handing over to {engine_why} after {SEARCH_FAILURES} failures")
        } else {
            format!("search cannot honour the options: {engine_why}")
        },
    })
}

/// `--backend auto`. Holds the engine of the last solve for [`Backend::answered_by`].
#[derive(Debug)]
pub struct Auto {
    answered: &'static str,
    /// The engine of the last session (a session borrows its backend).
    inner: Option<Box<dyn Backend>>,
    /// Search already gave up on this formula (its address and size): [`Backend::parallel`]'s
    /// probe, or the quick attempt ([`Backend::try_quickly`]) on its time slice. The `enumerate`
    /// or `solve` that follows on the same formula goes straight to the CDCL engine instead of
    /// searching again. Taken by the next `enumerate` or `solve`, whatever its formula.
    gave_up: Option<(Seen, SolveStats)>,
}

/// A formula told apart from others for [`Auto::gave_up`]: by address within one run path's
/// call chain, and by size in case an address is reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen(usize, u32, usize);

impl Seen {
    fn of(f: &PbFormula) -> Seen {
        Seen(std::ptr::from_ref(f) as usize, f.num_vars(), f.constraints().len())
    }
}

impl Default for Auto {
    fn default() -> Auto {
        Auto {
            answered: "auto",
            inner: None,
            gave_up: None,
        }
    }
}

impl Auto {
    /// What search left when it already gave up on `formula` ([`Auto::gave_up`]), taken;
    /// the memo goes whatever the formula.
    fn gave_up_on(&mut self, formula: &PbFormula) -> Option<SolveStats> {
        self.gave_up
            .take()
            .filter(|(seen, _)| *seen == Seen::of(formula))
            .map(|(_, s)| s)
    }

    /// `field` (`mip` first) optimising side by side (`race::race_optimise`); when `mip`
    /// proved the optimum first, the second opinion as after `mip` alone.
    fn race_optimise(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
        field: &[&'static str],
    ) -> Result<Optimum, BackendError> {
        let t0 = Instant::now();
        let mut best = None;
        let (engine, mut o, note) = {
            let mut watch = |a: &[bool]| {
                let flow = improved(a);
                if flow.is_continue() {
                    best = formula.objective_value(a);
                }
                flow
            };
            let f = race::race(
                formula,
                opts,
                race::entrants(field),
                &race_setup(),
                Task::Optimise,
                Some(&mut watch),
            )?;
            let o = Optimum {
                status: f.status,
                optimal: f.optimal,
                stats: f.stats,
            };
            (f.engine, o, f.note)
        };
        self.answered = engine;
        o.stats.extra.insert("auto".into(), note.into());
        // An optimum another kind of engine confirmed in the race needs no second opinion.
        let confirmed = o.stats.basis.confirmed_by.is_some();
        if let (true, "mip" | "highs", Some(v), false) = (o.optimal, engine, best, confirmed) {
            second_opinion(formula, opts, improved, engine, v, t0.elapsed(), &mut o);
        }
        Ok(o)
    }

    /// `auto`'s optimisation ([`Backend::optimise_natively`]).
    fn optimise_here(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Result<Optimum, BackendError> {
        let searching = searching::mark(opts.searching.as_ref(), "mitm");
        let first = mitm::first_optimum(formula, opts, improved)?;
        drop(searching);
        if let Some(mut o) = first {
            self.answered = "mitm";
            o.stats.extra.insert("auto".into(), MITM_WHY.into());
            return Ok(o);
        }
        // With HiGHS or CBC in the build, an objective goes to `highs` or `mip`: one branch
        // and bound proves the optimum where the others tighten bound after bound
        // (measured: `knapsack-opt` with 40 items, proven by mip in 0.4-1.2 s, by
        // search/sat/cp not within 60 s; encodings/optimise.md). Unless an option asks for
        // what they do not give, or a row is past their numbers.
        let first = OPTIMISERS.into_iter().find_map(|name| {
            engines::engine(name)
                .filter(|m| too_wide_for(name, formula).is_none() && m.check_options(opts).is_ok())
                .map(|m| (name, m))
        });
        if let Some((name, mip)) = first {
            let field = field_for(formula, opts, name);
            if field.len() > 1 {
                return self.race_optimise(formula, opts, improved, &field);
            }
            let mut mip = mip;
            self.answered = name;
            let t0 = Instant::now();
            // The value of the last model the run path accepted: what a second opinion must
            // beat.
            let mut best = None;
            let mut o = {
                let mut watch = |a: &[bool]| {
                    let flow = improved(a);
                    if flow.is_continue() {
                        best = formula.objective_value(a);
                    }
                    flow
                };
                let _searching = searching::mark(opts.searching.as_ref(), name);
                mip.optimise(formula, opts, &mut watch)?
            };
            self.inner = Some(mip);
            o.stats.extra.insert(
                "auto".into(),
                format!("an objective, and {name} is in this build: optimised by {name}").into(),
            );
            if let (true, Some(v)) = (o.optimal, best) {
                second_opinion(formula, opts, improved, name, v, t0.elapsed(), &mut o);
            }
            return Ok(o);
        }
        // A stage of an objective past 62 bits goes to `cp` when its numbers hold the stage,
        // whose bound `cp` propagated better than the CNF engines and `search` on every
        // wide-objective file of the PB benchmark (encodings/pb-bigint.md).
        let cp = engines::engine("cp").filter(|cp| {
            formula.staged().is_some() && too_wide_for("cp", formula).is_none() && cp.check_options(opts).is_ok()
        });
        let (name, why) = match cp {
            Some(_) => ("cp", "a stage of an objective past 62 bits".to_string()),
            None => {
                let plan = plan(formula, opts)?;
                let name = if plan.search_first { "search" } else { plan.engine };
                (name, plan.why)
            }
        };
        self.answered = name;
        let b = self
            .inner
            .insert(engines::engine(name).expect("an engine of this build"));
        let searching = searching::mark(opts.searching.as_ref(), name);
        let mut o = b.optimise(formula, opts, improved)?;
        drop(searching);
        o.stats
            .extra
            .insert("auto".into(), format!("{why}; optimised by {name}").into());
        Ok(o)
    }

    /// `auto`'s enumeration ([`Backend::enumerate_natively`]).
    fn enumerate_here(
        &mut self,
        formula: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, BackendError> {
        self.answered = "auto";
        let plan = plan(formula, opts)?;
        // The probe `parallel` just made on this formula, if it gave up.
        let mut probe = self.gave_up_on(formula);
        if plan.search_first && probe.is_none() {
            let out = search_first(formula, opts, SEARCH_FAILURES)?;
            if !gave_up(&out) {
                self.answered = "search";
                let why =
                    format!("groups and rows: search answered within {SEARCH_FAILURES} failures, so it enumerates");
                let mut e = match out.status {
                    Status::Sat => search::Search.enumerate(formula, projection, opts, visit)?,
                    status => Enumeration {
                        ended: if status == Status::Unsat {
                            Ended::Complete
                        } else {
                            Ended::Unknown
                        },
                        stats: out.stats.clone(),
                    },
                };
                if out.status == Status::Sat {
                    e.stats.build_ms += out.stats.build_ms + out.stats.solve_ms;
                }
                e.stats.extra.insert("auto".into(), why.into());
                return Ok(e);
            }
            probe = Some(out.stats);
        }
        let mut b = engines::engine(plan.engine).expect("cdcl_for names an engine of this build");
        let searching = searching::mark(opts.searching.as_ref(), plan.engine);
        let mut e = b.enumerate(formula, projection, opts, visit)?;
        drop(searching);
        self.answered = plan.engine;
        let why = match &probe {
            Some(s) => {
                e.stats.build_ms += s.build_ms + s.solve_ms;
                format!(
                    "search gave up within its budget ({SEARCH_FAILURES} failures, {} s) after {:.3} ms, so {} with blocking clauses",
                    SEARCH_SLICE.as_secs(),
                    s.build_ms + s.solve_ms,
                    plan.engine
                )
            }
            None => format!("{}; with blocking clauses", plan.why),
        };
        e.stats.extra.insert("auto".into(), why.into());
        Ok(e)
    }
}

impl Backend for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn answered_by(&self) -> &'static str {
        self.answered
    }

    /// As wide as `highs` and `mip` take, when the build has one of them (they optimise
    /// objectives here); else as narrow as `cp` and the CNF engines want.
    fn objective_stage_bits(&self) -> u32 {
        if OPTIMISERS.into_iter().any(|n| engines::engine(n).is_some()) {
            61
        } else {
            29
        }
    }

    /// What at least one of the engines `auto` may pick can do; [`Backend::check_options`]
    /// refuses a request no engine of this build honours.
    fn capabilities(&self) -> Capabilities {
        let mut caps = search::Search.capabilities();
        for name in CDCL {
            if let Some(b) = engines::engine(name) {
                let c = b.capabilities();
                caps.proof |= c.proof;
                caps.seed |= c.seed;
            }
        }
        caps
    }

    fn check_options(&self, opts: &SolveOptions) -> Result<(), BackendError> {
        check_caps(self.capabilities(), self.name(), opts, true)?;
        cdcl_for(opts, None).map(|_| ())
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.answered = "auto";
        let plan = plan(formula, opts)?;
        // The quick attempt on this formula, if it ran out of time.
        let mut tried = self.gave_up_on(formula);
        if plan.search_first && tried.is_none() {
            let out = search_first(formula, opts, SEARCH_FAILURES)?;
            if !gave_up(&out) {
                self.answered = "search";
                let mut out = out;
                out.stats.extra.insert("auto".into(), plan.why.into());
                return Ok(out);
            }
            tried = Some(out.stats);
        }
        let searching = searching::mark(opts.searching.as_ref(), "mitm");
        let first = mitm::first_try(formula, opts)?;
        drop(searching);
        if let Some(mut out) = first {
            self.answered = "mitm";
            if let Some(s) = &tried {
                out.stats.build_ms += s.build_ms + s.solve_ms;
            }
            out.stats.extra.insert("auto".into(), MITM_WHY.into());
            return Ok(out);
        }
        let field = field_for(formula, opts, plan.engine);
        let attempt = if field.len() > 1 {
            let entrants = race::entrants(&field);
            race::race(formula, opts, entrants, &race_setup(), Task::Decide, None).map(|f| {
                let out = Outcome {
                    status: f.status,
                    assignment: f.assignment,
                    stats: f.stats,
                };
                (f.engine, out, Some(f.note))
            })
        } else {
            let _searching = searching::mark(opts.searching.as_ref(), plan.engine);
            engines::engine(plan.engine)
                .expect("cdcl_for names an engine of this build")
                .solve(formula, opts)
                .map(|out| (plan.engine, out, None))
        };
        let tried_already = field;
        let (engine, mut out, raced, refused) = match attempt {
            Ok((engine, out, raced)) => (engine, out, raced, None),
            Err(e) if e.is_refusal() => {
                let (engine, out, why) = fallback(formula, opts, &tried_already, e)?;
                (engine, out, None, Some((plan.engine, why)))
            }
            Err(e) => return Err(e),
        };
        self.answered = engine;
        let chosen = match &raced {
            Some(note) => note.clone(),
            None => plan.engine.to_string(),
        };
        let why = match (&tried, refused) {
            (_, Some((first, why))) => format!(
                "{first} could not take the formula as it is ({why}), so {engine}, which takes rows as they are"
            ),
            (tried, None) => match tried {
                Some(s) => format!(
                    "search gave up within its budget ({SEARCH_FAILURES} failures, {} s) after {:.3} ms, so {chosen}",
                    SEARCH_SLICE.as_secs(),
                    s.build_ms + s.solve_ms,
                ),
                None if raced.is_some() => format!("{}; {chosen}", plan.why),
                None => plan.why,
            },
        };
        if let Some(s) = tried {
            // The time search spent is part of this answer's time.
            out.stats.build_ms += s.build_ms;
            out.stats.solve_ms += s.solve_ms;
        }
        out.stats.extra.insert("auto".into(), why.into());
        Ok(out)
    }

    /// Search with [`QUICK_FAILURES`], where the rule would try search first.
    fn try_quickly(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Option<Outcome>, BackendError> {
        self.answered = "auto";
        let plan = plan(formula, opts)?;
        if !plan.search_first {
            return Ok(None);
        }
        let mut out = search_first(formula, opts, QUICK_FAILURES)?;
        if gave_up(&out) {
            if out.stats.extra.contains_key(OUT_OF_TIME) {
                self.gave_up = Some((Seen::of(formula), out.stats));
            }
            return Ok(None);
        }
        self.answered = "search";
        let why = format!("groups and rows: search, within its first {QUICK_FAILURES} failures");
        out.stats.extra.insert("auto".into(), why.into());
        Ok(Some(out))
    }

    /// Search natively where it finds a first answer within [`SEARCH_FAILURES`], else the
    /// CDCL engine by blocking clauses (see the module's documentation).
    fn enumerate_natively(
        &mut self,
        formula: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        visit: &mut Visit<'_>,
    ) -> Option<Result<Enumeration, BackendError>> {
        Some(self.enumerate_here(formula, projection, opts, visit))
    }

    /// Splits over threads where enumerating would go to search (the same probe decides),
    /// else one thread: only the search engine splits its walk.
    fn parallel(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Parallel, BackendError> {
        self.answered = "auto";
        let plan = plan(formula, opts)?;
        if plan.search_first {
            let out = search_first(formula, opts, SEARCH_FAILURES)?;
            if !gave_up(&out) {
                self.answered = "search";
                return Ok(Parallel::Split {
                    note: Some(format!(
                        "groups and rows: search answered within {SEARCH_FAILURES} failures, so it enumerates, split over the jobs"
                    )),
                    probe_ms: out.stats.build_ms + out.stats.solve_ms,
                });
            }
            self.gave_up = Some((Seen::of(formula), out.stats));
        }
        Ok(Parallel::OneThread)
    }

    /// On the engine a session would use (search, or the CDCL engine), by that engine's own
    /// optimisation.
    fn optimise_natively(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Option<Result<Optimum, BackendError>> {
        Some(self.optimise_here(formula, opts, improved))
    }

    fn has_native_session(&self) -> bool {
        true
    }

    /// A session runs on one engine for all its solves (it cannot hand a formula over half
    /// way): `search` where the rule would try it first, else the CDCL engine.
    fn session_natively(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
    ) -> Result<Box<dyn Session + '_>, BackendError> {
        let plan = plan(formula, opts)?;
        let name = if plan.search_first { "search" } else { plan.engine };
        self.answered = name;
        let b = self
            .inner
            .insert(engines::engine(name).expect("an engine of this build"));
        b.session(formula, opts)
    }
}

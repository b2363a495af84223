//! `--backend search`: sokuc's own propagation search (see [`engine`]). It reads the IR like
//! every backend; exactly-one groups become domains and all other rows linear constraints.
//! Its engine can be kept and re-solved with new right-hand sides, which is what
//! `sokuc sweep` does for millions of instances that differ only in their capacities.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

pub mod engine;
pub mod jobs;

use std::time::Instant;

use crate::budget::Deadline;
use crate::contract::{
    self, Backend, BackendError, Capabilities, Ended, Enumeration, Outcome, Parallel, Session, SolveOptions,
    SolveStats, Visit,
};
use crate::encode::EncodeError;
use crate::ir::{Constraint, Lit, PbFormula, Projection, Status};
pub use engine::{Engine, Refused};

#[derive(Debug, Default)]
pub struct Search;

impl Backend for Search {
    fn name(&self) -> &'static str {
        "search"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            interrupt: true,
            assumptions: true,
            incremental: true,
            rhs_changes: true,
            proof: false,
            seed: true,
            parallel: true,
        }
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        solve_within(formula, opts, None)
    }

    fn parallel(&mut self, _formula: &PbFormula, _opts: &SolveOptions) -> Result<Parallel, BackendError> {
        Ok(Parallel::Split {
            note: None,
            probe_ms: 0.0,
        })
    }

    /// Natively: one complete walk of the search tree that reports every leaf
    /// ([`Engine::enumerate`]), with nothing added to the formula between solutions. A
    /// projection that splits an exactly-one group (no front-end makes one) goes by blocking
    /// clauses instead.
    fn enumerate_natively(
        &mut self,
        formula: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        visit: &mut Visit<'_>,
    ) -> Option<Result<Enumeration, BackendError>> {
        Some(self.enumerate_here(formula, projection, opts, visit))
    }

    fn has_native_session(&self) -> bool {
        true
    }

    /// The engine itself, kept between solves: right-hand sides change in place, and with
    /// [`Engine::reuse_phase`] each solve first tries the previous solution.
    fn session_natively(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
    ) -> Result<Box<dyn Session + '_>, BackendError> {
        contract::check_open_options(self.capabilities(), self.name(), opts)?;
        let t0 = Instant::now();
        // Built past the deadline of opening: the first solve builds it (and answers unknown
        // if its own deadline passes first).
        let engine = build(formula, opts.encode.max_memory, &opts.deadline(), t0)?
            .ok()
            .map(|mut e| {
                e.reuse_phase = true;
                e
            });
        Ok(Box::new(SearchSession {
            formula: formula.clone(),
            engine,
            max_memory: opts.encode.max_memory,
            merged: Vec::new(),
        }))
    }
}

impl Search {
    /// The native way of [`Backend::enumerate_natively`], which always answers.
    fn enumerate_here(
        &mut self,
        formula: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, BackendError> {
        self.check_options(opts)?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        let mut engine = match build(formula, opts.encode.max_memory, &deadline, t0)? {
            Ok(e) => e,
            Err(unknown) => {
                return Ok(Enumeration {
                    ended: Ended::Unknown,
                    stats: unknown.stats,
                });
            }
        };
        let Some(primary) = engine.primary_groups(projection.flags()) else {
            return crate::algorithms::by_blocking(self, formula, projection, opts, visit);
        };
        let build_ms = t0.elapsed().as_secs_f64() * 1e3;
        let t1 = Instant::now();
        let walk = engine.enumerate(
            &opts.assumptions,
            &primary,
            opts.seed.is_some(),
            opts.seed.unwrap_or(0),
            &deadline,
            &mut |a| {
                visit(contract::Found {
                    assignment: a,
                    engine: "search",
                })
            },
        );
        let c = engine.counters;
        let mut extra = std::collections::BTreeMap::new();
        extra.insert("nodes".into(), c.nodes.into());
        extra.insert("failures".into(), c.failures.into());
        Ok(Enumeration {
            ended: match walk {
                engine::walk::Walk::Complete => Ended::Complete,
                engine::walk::Walk::Stopped => Ended::Stopped,
                engine::walk::Walk::Unknown => Ended::Unknown,
            },
            stats: SolveStats {
                vars: formula.num_vars() as u64,
                clauses: formula.constraints().len() as u64,
                build_ms,
                solve_ms: t1.elapsed().as_secs_f64() * 1e3,
                extra,
                basis: Default::default(),
            },
        })
    }
}

/// One solve that gives up after `max_failures` failures (see [`Engine::max_failures`]):
/// the answer is then `unknown` with `extra.gave_up = true`. `None`: no budget.
pub fn solve_within(
    formula: &PbFormula,
    opts: &SolveOptions,
    max_failures: Option<u64>,
) -> Result<Outcome, BackendError> {
    Search.check_options(opts)?;
    let t0 = Instant::now();
    let deadline = opts.deadline();
    let mut engine = match build(formula, opts.encode.max_memory, &deadline, t0)? {
        Ok(e) => e,
        Err(unknown) => return Ok(unknown),
    };
    engine.max_failures = max_failures;
    let build = t0.elapsed();
    Ok(run(&mut engine, formula, &opts.assumptions, opts, &deadline, build))
}

/// The engine for `formula`, or the `unknown` answer when the deadline passed while building.
fn build(
    formula: &PbFormula,
    limit: u64,
    deadline: &Deadline,
    t0: Instant,
) -> Result<Result<Engine, Outcome>, BackendError> {
    match Engine::within(formula, limit, deadline) {
        Ok(e) => Ok(Ok(e)),
        Err(Refused::Time) => Ok(Err(Outcome::unknown(SolveStats {
            build_ms: t0.elapsed().as_secs_f64() * 1e3,
            ..Default::default()
        }))),
        Err(Refused::Memory(needed)) => {
            Err(EncodeError::memory("the search backend's tables", needed, limit, ", or try the cp backend").into())
        }
    }
}

/// One solve of a built engine.
fn run(
    engine: &mut Engine,
    formula: &PbFormula,
    assumptions: &[Lit],
    opts: &SolveOptions,
    deadline: &Deadline,
    build: std::time::Duration,
) -> Outcome {
    let t1 = Instant::now();
    let (answer, assignment) = if deadline.passed() {
        (engine::Answer::Unknown, None)
    } else {
        engine.solve(assumptions, opts.seed.unwrap_or(0), deadline)
    };
    let solve = t1.elapsed();
    let status = match answer {
        engine::Answer::Sat => Status::Sat,
        engine::Answer::Unsat => Status::Unsat,
        engine::Answer::Unknown | engine::Answer::GaveUp => Status::Unknown,
    };
    let c = engine.counters;
    let mut extra = std::collections::BTreeMap::new();
    if answer == engine::Answer::GaveUp {
        extra.insert("gave_up".into(), true.into());
    }
    extra.insert("nodes".into(), c.nodes.into());
    extra.insert("failures".into(), c.failures.into());
    extra.insert("restarts".into(), c.restarts.into());
    Outcome {
        status,
        assignment,
        stats: SolveStats {
            vars: formula.num_vars() as u64,
            clauses: formula.constraints().len() as u64,
            build_ms: build.as_secs_f64() * 1e3,
            solve_ms: solve.as_secs_f64() * 1e3,
            extra,
            basis: Default::default(),
        },
    }
}

/// The search backend's session (what `sokuc sweep` runs on): one engine, right-hand sides
/// changed in place. The engine's tables are built once per formula, so an added clause
/// re-builds them from the session's copy of the formula at the next solve (the carried
/// solution is forgotten then).
struct SearchSession {
    formula: PbFormula,
    /// `None`: to be built at the next solve (after an added clause, or when opening ran
    /// out of time).
    engine: Option<Engine>,
    max_memory: u64,
    /// Scratch for the assumptions of a solve that has them in both places.
    merged: Vec<Lit>,
}

impl Session for SearchSession {
    fn set_rhs(&mut self, row: usize, rhs: i64) -> Result<(), BackendError> {
        if !contract::set_formula_rhs(&mut self.formula, row, rhs, "search")? {
            return Ok(());
        }
        if let Some(e) = &mut self.engine {
            // Every linear row of the formula is a row of the engine (only exactly-one
            // constraints become its domains).
            let row_of_engine = e.set_rhs(row, rhs);
            debug_assert!(row_of_engine, "a linear constraint that is no row of the engine");
        }
        Ok(())
    }

    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), BackendError> {
        contract::check_lits(&self.formula, lits, "search")?;
        self.formula.add(contract::ADDED, Constraint::Clause(lits.to_vec()));
        self.engine = None;
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit], opts: &SolveOptions) -> Result<Outcome, BackendError> {
        contract::check_session_options(Search.capabilities(), "search", opts)?;
        contract::check_lits(&self.formula, assumptions, "search")?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        let assumptions = if opts.assumptions.is_empty() {
            assumptions
        } else {
            contract::check_lits(&self.formula, &opts.assumptions, "search")?;
            self.merged.clear();
            self.merged.extend_from_slice(assumptions);
            self.merged.extend_from_slice(&opts.assumptions);
            &self.merged
        };
        if self.engine.is_none() {
            match build(&self.formula, self.max_memory, &deadline, t0)? {
                Ok(mut e) => {
                    e.reuse_phase = true;
                    self.engine = Some(e);
                }
                Err(unknown) => return Ok(unknown),
            }
        }
        let engine = self.engine.as_mut().expect("built above");
        Ok(run(engine, &self.formula, assumptions, opts, &deadline, t0.elapsed()))
    }

    fn forget_phases(&mut self) {
        if let Some(e) = &mut self.engine {
            e.clear_phase();
        }
    }
}

//! CaDiCaL through rustsat-cadical: the fast SAT backend (feature `cadical`).
//!
//! It reads the same CNF as varisat, produced by the same encoders through [`ClauseSink`],
//! so a difference in answers between the two can only come from the solvers.
//!
//! The engine turns off CaDiCaL's light preprocessing (`preprocesslight=0`, most of the solve
//! time on IcoSoKu), takes a seed and assumptions, writes DRAT proofs, and stops through
//! CaDiCaL's terminator callback. For experiments, `SOKUC_CADICAL_OPTS=name=value,...` sets
//! further options: the CLI reads it and passes it in as [`crate::Tuning`].

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rustsat::solvers::{ControlSignal, GetInternalStats, Solve, SolveIncremental, SolverResult, Terminate};
use rustsat::types::{Cl, TernaryVal};
use rustsat_cadical::CaDiCaL;

use crate::budget::Deadline;
use crate::budget::memory::Guard;
use crate::contract::{self, Backend, BackendError, Capabilities, Outcome, Session, SolveOptions, SolveStats};
use crate::encode::{self, ClauseSink, Cost, EncodeError, EncodeOptions};
use crate::ir::{Lit, PbFormula, Status, Var};

#[derive(Debug, Default)]
pub struct Cadical;

const NAME: &str = "cadical";

fn to_rustsat(l: Lit) -> rustsat::types::Lit {
    rustsat::types::Lit::new(l.var().0, !l.is_positive())
}

fn solver_error(e: impl std::fmt::Display) -> BackendError {
    BackendError::Solver {
        backend: NAME,
        message: e.to_string(),
    }
}

/// What CaDiCaL keeps per clause, literal and variable. Measured like varisat's: random
/// bipyramid-100 (335k variables, 5.7M clauses) peaked at 82 bytes per clause, wide
/// Partition on 24 faces (13M clauses) at 61; these figures give 91 and 84.
const COST: Cost = Cost {
    clause: 56,
    lit: 8,
    var: 200,
};

/// Feeds encoder output straight into CaDiCaL. The sink cannot fail, so the first error
/// from the solver is kept and reported after encoding.
struct SolverSink<'s, 'a, 'b> {
    solver: &'s mut CaDiCaL<'a, 'b>,
    num_vars: u32,
    clauses: u64,
    buf: Vec<rustsat::types::Lit>,
    error: Option<anyhow::Error>,
}

impl ClauseSink for SolverSink<'_, '_, '_> {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var(self.num_vars - 1)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        self.buf.clear();
        self.buf.extend(lits.iter().map(|&l| to_rustsat(l)));
        if let Err(e) = self.solver.add_clause_ref(Cl::new(&self.buf)) {
            self.error = Some(e);
        }
        self.clauses += 1;
    }
    fn reserve_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }
    fn num_vars(&self) -> u32 {
        self.num_vars
    }
    fn cost(&self) -> Cost {
        COST
    }
}

/// A tuning list CaDiCaL cannot take.
fn tuning_error(message: String) -> BackendError {
    BackendError::Tuning {
        list: "SOKUC_CADICAL_OPTS",
        message,
    }
}

/// Extra CaDiCaL options from the solve's tuning (the `cadical` list of
/// [`crate::contract::Tuning`], `name=value,...`), for tuning experiments without a
/// rebuild.
fn tuned_options(spec: Option<&str>) -> Result<Vec<(String, i32)>, BackendError> {
    let Some(spec) = spec else {
        return Ok(Vec::new());
    };
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|kv| {
            let parsed = kv
                .split_once('=')
                .and_then(|(k, v)| Some((k.trim().to_string(), v.trim().parse().ok()?)));
            parsed.ok_or_else(|| tuning_error(format!("expected name=integer, found `{kv}`")))
        })
        .collect()
}

/// Sets the solve's tuning (see [`tuned_options`]) on `solver`: one place for the plain solve
/// and a session's loads.
fn tune(solver: &mut CaDiCaL<'_, '_>, spec: Option<&str>) -> Result<(), BackendError> {
    for (name, value) in tuned_options(spec)? {
        solver
            .set_option(&name, value)
            .map_err(|e| tuning_error(format!("CaDiCaL refuses {name}={value}: {e}")))?;
    }
    Ok(())
}

impl Backend for Cadical {
    fn name(&self) -> &'static str {
        NAME
    }

    /// Narrow stages keep the objective bound's encoding small: on the wide-objective
    /// knapsacks of the PB benchmark, 29-bit stages proved an optimum in 10 s where 61-bit
    /// ones proved none (encodings/pb-bigint.md).
    fn objective_stage_bits(&self) -> u32 {
        29
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            interrupt: true,
            assumptions: true,
            incremental: true,
            rhs_changes: false,
            proof: true,
            seed: true,
            parallel: false,
        }
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.check_options(opts)?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        let timed_out = |t0: Instant| {
            Outcome::unknown(SolveStats {
                build_ms: t0.elapsed().as_secs_f64() * 1e3,
                ..Default::default()
            })
        };
        // Counted first: a CNF over the clause budget or the memory limit is refused before
        // CaDiCaL holds any of it.
        match encode::estimate(formula, opts.encode, COST, &deadline, "the CNF for the cadical backend") {
            Err(EncodeError::TimedOut) => return Ok(timed_out(t0)),
            Err(e) => return Err(e.into()),
            Ok(_) => {}
        }
        let mut solver = CaDiCaL::default();
        if let Some(seed) = opts.seed {
            // CaDiCaL's seed option is a non-negative C int.
            let seed = i32::try_from(seed % u64::from(i32::MAX.unsigned_abs())).expect("below i32::MAX");
            solver.set_option("seed", seed).map_err(solver_error)?;
        }
        // CaDiCaL 2.x runs a light preprocessing pass before search. On IcoSoKu's CNF (2.6k
        // variables, 17k clauses, a few dozen conflicts) it costs about 10 ms of a 16 ms solve
        // (icosoku100 median 17-19 ms with it, 6-9 ms without), so it is off by default.
        solver.set_option("preprocesslight", 0).map_err(solver_error)?;
        tune(&mut solver, opts.tuning.cadical.as_deref())?;
        if let Some(path) = &opts.proof {
            // Fail early (and in Rust) if the file cannot be created; CaDiCaL would only warn.
            std::fs::File::create(path)?;
            solver
                .trace_proof(path, rustsat_cadical::ProofFormat::Drat { binary: false })
                .map_err(solver_error)?;
        }
        // CaDiCaL polls this callback during search; it is the one mechanism for the time
        // limit, the interrupt flag, and the memory limit (its learnt clauses live in C++,
        // out of the encoder's sight, so the resident size is read now and then).
        let over_memory = Arc::new(AtomicU64::new(0));
        {
            let d = deadline.clone();
            let mut guard = Guard::new(opts.encode.max_memory, 1 << 10);
            let seen = over_memory.clone();
            solver.attach_terminator(move || {
                if d.passed() {
                    return ControlSignal::Terminate;
                }
                match guard.over() {
                    Some(rss) => {
                        seen.store(rss, Ordering::Relaxed);
                        ControlSignal::Terminate
                    }
                    None => ControlSignal::Continue,
                }
            });
        }
        let mut sink = SolverSink {
            solver: &mut solver,
            num_vars: 0,
            clauses: 0,
            buf: Vec::new(),
            error: None,
        };
        match encode::encode_until(formula, opts.encode, &mut sink, &deadline) {
            Err(EncodeError::TimedOut) => return Ok(timed_out(t0)),
            Err(e) => return Err(e.into()),
            Ok(_) => {}
        }
        let (vars, clauses) = (sink.num_vars, sink.clauses);
        if let Some(e) = sink.error.take() {
            return Err(solver_error(e));
        }
        let build = t0.elapsed();
        let t1 = Instant::now();
        let result = if deadline.passed() {
            SolverResult::Interrupted
        } else if opts.assumptions.is_empty() {
            solver.solve().map_err(solver_error)?
        } else {
            let assumps: Vec<_> = opts.assumptions.iter().map(|&l| to_rustsat(l)).collect();
            solver.solve_assumps(&assumps).map_err(solver_error)?
        };
        let solve = t1.elapsed();
        let rss = over_memory.load(Ordering::Relaxed);
        if result == SolverResult::Interrupted && rss > 0 {
            return Err(EncodeError::memory("CaDiCaL (while solving)", rss, opts.encode.max_memory, "").into());
        }
        let status = match result {
            SolverResult::Sat => Status::Sat,
            SolverResult::Unsat => Status::Unsat,
            SolverResult::Interrupted => Status::Unknown,
        };
        let assignment = if status == Status::Sat {
            let mut a = vec![false; formula.num_vars() as usize];
            for (i, v) in a.iter_mut().enumerate() {
                let lit = rustsat::types::Lit::positive(u32::try_from(i).expect("below num_vars, a u32"));
                *v = solver.lit_val(lit).map_err(solver_error)? == TernaryVal::True;
            }
            Some(a)
        } else {
            None
        };
        let mut extra = std::collections::BTreeMap::new();
        extra.insert("conflicts".into(), (solver.conflicts() as u64).into());
        extra.insert("decisions".into(), (solver.decisions() as u64).into());
        extra.insert("propagations".into(), (solver.propagations() as u64).into());
        // Dropping the solver flushes and closes the proof file.
        drop(solver);
        let stats = SolveStats {
            vars: vars as u64,
            clauses,
            build_ms: build.as_secs_f64() * 1e3,
            solve_ms: solve.as_secs_f64() * 1e3,
            extra,
            basis: Default::default(),
        };
        Ok(Outcome {
            status,
            assignment,
            stats,
        })
    }

    fn has_native_session(&self) -> bool {
        true
    }

    /// One CaDiCaL for all solves: clauses are added to it, assumptions go through
    /// `solve_assumps`, and what it learnt stays. A new right-hand side re-encodes into a
    /// fresh solver (a row's clauses depend on it), and so does a new seed (CaDiCaL takes
    /// its options before the clauses).
    fn session_natively(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
    ) -> Result<Box<dyn Session + '_>, BackendError> {
        contract::check_open_options(self.capabilities(), self.name(), opts)?;
        let mut s = CadicalSession {
            formula: formula.clone(),
            added: Vec::new(),
            encode: opts.encode,
            tuning: opts.tuning.cadical.clone(),
            loaded: None,
            buf: Vec::new(),
        };
        s.loaded = s.load(opts.seed, &opts.deadline())?;
        Ok(Box::new(s))
    }
}

/// The solver of a session with the seed it was given.
struct Loaded {
    solver: CaDiCaL<'static, 'static>,
    seed: Option<u64>,
    vars: u32,
    clauses: u64,
}

struct CadicalSession {
    /// The formula with the right-hand sides set so far (added clauses are in `added`).
    formula: PbFormula,
    added: Vec<Vec<Lit>>,
    encode: EncodeOptions,
    /// The session's `cadical` tuning, for every load.
    tuning: Option<String>,
    /// `None`: to be loaded at the next solve.
    loaded: Option<Loaded>,
    buf: Vec<rustsat::types::Lit>,
}

impl CadicalSession {
    /// A solver holding the formula and the added clauses; `None` if the deadline passed.
    fn load(&self, seed: Option<u64>, deadline: &Deadline) -> Result<Option<Loaded>, BackendError> {
        match encode::estimate(
            &self.formula,
            self.encode,
            COST,
            deadline,
            "the CNF for the cadical backend",
        ) {
            Err(EncodeError::TimedOut) => return Ok(None),
            Err(e) => return Err(e.into()),
            Ok(_) => {}
        }
        let mut solver = CaDiCaL::default();
        if let Some(seed) = seed {
            solver
                .set_option(
                    "seed",
                    i32::try_from(seed % u64::from(i32::MAX.unsigned_abs())).expect("below i32::MAX"),
                )
                .map_err(solver_error)?;
        }
        // As in a plain solve (see there).
        solver.set_option("preprocesslight", 0).map_err(solver_error)?;
        tune(&mut solver, self.tuning.as_deref())?;
        let mut sink = SolverSink {
            solver: &mut solver,
            num_vars: 0,
            clauses: 0,
            buf: Vec::new(),
            error: None,
        };
        match encode::encode_until(&self.formula, self.encode, &mut sink, deadline) {
            Err(EncodeError::TimedOut) => return Ok(None),
            Err(e) => return Err(e.into()),
            Ok(_) => {}
        }
        for c in &self.added {
            sink.add_clause(c);
        }
        let (vars, clauses) = (sink.num_vars, sink.clauses);
        if let Some(e) = sink.error.take() {
            return Err(solver_error(e));
        }
        Ok(Some(Loaded {
            solver,
            seed,
            vars,
            clauses,
        }))
    }
}

impl Session for CadicalSession {
    fn set_rhs(&mut self, row: usize, rhs: i64) -> Result<(), BackendError> {
        if contract::set_formula_rhs(&mut self.formula, row, rhs, NAME)? {
            self.loaded = None;
        }
        Ok(())
    }

    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), BackendError> {
        contract::check_lits(&self.formula, lits, NAME)?;
        if let Some(l) = &mut self.loaded {
            self.buf.clear();
            self.buf.extend(lits.iter().map(|&l| to_rustsat(l)));
            l.solver.add_clause_ref(Cl::new(&self.buf)).map_err(solver_error)?;
            l.clauses += 1;
        }
        self.added.push(lits.to_vec());
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit], opts: &SolveOptions) -> Result<Outcome, BackendError> {
        contract::check_session_options(Cadical.capabilities(), NAME, opts)?;
        contract::check_lits(&self.formula, assumptions, NAME)?;
        contract::check_lits(&self.formula, &opts.assumptions, NAME)?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        if self.loaded.as_ref().is_none_or(|l| l.seed != opts.seed) {
            self.loaded = None;
            match self.load(opts.seed, &deadline)? {
                Some(l) => self.loaded = Some(l),
                None => {
                    return Ok(Outcome::unknown(SolveStats {
                        build_ms: t0.elapsed().as_secs_f64() * 1e3,
                        ..Default::default()
                    }));
                }
            }
        }
        let build = t0.elapsed();
        let l = self.loaded.as_mut().expect("loaded above");
        // This solve's deadline and a fresh memory guard (see the plain solve).
        let over_memory = Arc::new(AtomicU64::new(0));
        {
            let d = deadline.clone();
            let mut guard = Guard::new(self.encode.max_memory, 1 << 10);
            let seen = over_memory.clone();
            l.solver.attach_terminator(move || {
                if d.passed() {
                    return ControlSignal::Terminate;
                }
                match guard.over() {
                    Some(rss) => {
                        seen.store(rss, Ordering::Relaxed);
                        ControlSignal::Terminate
                    }
                    None => ControlSignal::Continue,
                }
            });
        }
        self.buf.clear();
        self.buf
            .extend(assumptions.iter().chain(&opts.assumptions).map(|&l| to_rustsat(l)));
        let t1 = Instant::now();
        let result = if deadline.passed() {
            SolverResult::Interrupted
        } else {
            l.solver.solve_assumps(&self.buf).map_err(solver_error)?
        };
        let solve = t1.elapsed();
        let rss = over_memory.load(Ordering::Relaxed);
        if result == SolverResult::Interrupted && rss > 0 {
            return Err(EncodeError::memory("CaDiCaL (while solving)", rss, self.encode.max_memory, "").into());
        }
        let status = match result {
            SolverResult::Sat => Status::Sat,
            SolverResult::Unsat => Status::Unsat,
            SolverResult::Interrupted => Status::Unknown,
        };
        let assignment = if status == Status::Sat {
            let mut a = vec![false; self.formula.num_vars() as usize];
            for (i, v) in a.iter_mut().enumerate() {
                let lit = rustsat::types::Lit::positive(u32::try_from(i).expect("below num_vars, a u32"));
                *v = l.solver.lit_val(lit).map_err(solver_error)? == TernaryVal::True;
            }
            Some(a)
        } else {
            None
        };
        let mut extra = std::collections::BTreeMap::new();
        extra.insert("conflicts".into(), (l.solver.conflicts() as u64).into());
        extra.insert("decisions".into(), (l.solver.decisions() as u64).into());
        extra.insert("propagations".into(), (l.solver.propagations() as u64).into());
        Ok(Outcome {
            status,
            assignment,
            stats: SolveStats {
                vars: l.vars as u64,
                clauses: l.clauses,
                build_ms: build.as_secs_f64() * 1e3,
                solve_ms: solve.as_secs_f64() * 1e3,
                extra,
                basis: Default::default(),
            },
        })
    }
}

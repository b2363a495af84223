//! varisat, the embedded pure-Rust CDCL solver (the default backend).
//!
//! sokuc builds it from `vendor/varisat`, patched with a stop check between decisions
//! (`vendor/varisat/SOKUC-PATCH.md`), so it solves on the caller's thread and no solver
//! thread outlives its answer.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::fs::File;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use varisat::{ExtendFormula, ProofFormat, Solver};

use crate::budget::Deadline;
use crate::budget::memory::Guard;
use crate::contract::{self, Backend, BackendError, Capabilities, Outcome, Session, SolveOptions, SolveStats};
use crate::encode::{self, ClauseSink, Cost, EncodeError, EncodeOptions};
use crate::ir::{Lit, PbFormula, Status, Var};

#[derive(Debug, Default)]
pub struct Varisat;

/// What varisat keeps per clause, literal and variable: the clause arena with its headers,
/// watch lists, per-variable arrays. Measured: random bipyramid-100 (335k variables, 5.7M
/// clauses, 2.85 literals each) peaked at 70 bytes per clause; these figures give 77.
const COST: Cost = Cost {
    clause: 48,
    lit: 8,
    var: 100,
};

/// Feeds encoder output straight into the solver.
struct SolverSink<'s, 'a> {
    solver: &'s mut Solver<'a>,
    num_vars: u32,
    clauses: u64,
    buf: Vec<varisat::Lit>,
}

fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.var().index(), l.is_positive())
}

impl ClauseSink for SolverSink<'_, '_> {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var(self.num_vars - 1)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.buf.clear();
        self.buf.extend(lits.iter().map(|&l| to_varisat(l)));
        self.solver.add_clause(&self.buf);
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

/// One solve, on this thread (see [`Varisat::solve`]).
fn solve_here(formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
    let t0 = Instant::now();
    let deadline = opts.deadline();
    let timed_out = |t0: Instant| {
        Outcome::unknown(SolveStats {
            build_ms: t0.elapsed().as_secs_f64() * 1e3,
            ..Default::default()
        })
    };
    if opts.proof.is_some() && !opts.assumptions.is_empty() {
        // varisat's DRAT writer cannot express assumptions (it would panic).
        return Err(BackendError::Unsupported {
            backend: "sat",
            feature: "DRAT proofs together with assumptions",
        });
    }
    // Counted first, so that a CNF over the clause budget or the memory limit is refused
    // before varisat holds any of it (filling the solver is most of the encoding time).
    match encode::estimate(formula, opts.encode, COST, &deadline, "the CNF for the sat backend") {
        Err(EncodeError::TimedOut) => return Ok(timed_out(t0)),
        Err(e) => return Err(e.into()),
        Ok(_) => {}
    }
    let mut solver = Solver::new();
    let file = match &opts.proof {
        Some(p) => Some(io::BufWriter::new(File::create(p)?)),
        None => None,
    };
    let watch = deadline.is_set() || file.is_some();
    let over_memory = Arc::new(AtomicU64::new(0));
    let writer = DeadlineWriter {
        deadline: Arc::new(Mutex::new(deadline.clone())),
        // Proof steps come thousands of times a second while varisat learns clauses.
        guard: Guard::new(opts.encode.max_memory, 1 << 12),
        over_memory: over_memory.clone(),
        inner: file,
    };
    if watch {
        // Only the deadline hook needs proof output when no proof was asked for; varisat's
        // own format is the one that also accepts assumptions. varisat buffers 8 kB before
        // it writes, so the more bytes a step makes, the more often the clock is read:
        // with binary DRAT a 3 s limit on bigint-subsetsum-20-unsat (665k clauses, slow
        // conflicts) ended after 4.3-4.5 s, with text DRAT after 3.15 s, at no measured
        // cost (tt 30x30 and 50x50, icosoku100 with --timeout: within run-to-run noise).
        let format = if opts.proof.is_some() || opts.assumptions.is_empty() {
            ProofFormat::Drat
        } else {
            ProofFormat::Varisat
        };
        solver.write_proof(writer, format);
    }
    if deadline.is_set() {
        // Between decisions (vendor/varisat: sokuc's patch), where varisat may go for
        // seconds without a proof step.
        let d = deadline.clone();
        solver.set_stop(Some(Box::new(move || d.passed())));
    }
    let mut sink = SolverSink {
        solver: &mut solver,
        num_vars: 0,
        clauses: 0,
        buf: Vec::new(),
    };
    match encode::encode_until(formula, opts.encode, &mut sink, &deadline) {
        Err(EncodeError::TimedOut) => return Ok(timed_out(t0)),
        Err(e) => return Err(e.into()),
        Ok(_) => {}
    }
    let (vars, clauses) = (sink.num_vars, sink.clauses);
    let build = t0.elapsed();
    if !opts.assumptions.is_empty() {
        solver.assume(&opts.assumptions.iter().map(|&l| to_varisat(l)).collect::<Vec<_>>());
    }
    let t1 = Instant::now();
    let result = if deadline.passed() { None } else { solver.solve().ok() };
    let solve = t1.elapsed();
    let status = match result {
        Some(true) => Status::Sat,
        Some(false) => Status::Unsat,
        None => stopped(over_memory.load(Ordering::Relaxed), opts.encode.max_memory, &deadline)?,
    };
    if status != Status::Unknown && opts.proof.is_some() {
        solver.close_proof().map_err(|e| BackendError::Solver {
            backend: "sat",
            message: format!("writing the proof: {e}"),
        })?;
    }
    let assignment = if status == Status::Sat {
        let mut a = vec![false; formula.num_vars() as usize];
        for l in solver.model().unwrap_or_default() {
            if l.index() < a.len() {
                a[l.index()] = l.is_positive();
            }
        }
        Some(a)
    } else {
        None
    };
    let stats = SolveStats {
        vars: vars as u64,
        clauses,
        build_ms: build.as_secs_f64() * 1e3,
        solve_ms: solve.as_secs_f64() * 1e3,
        extra: Default::default(),
        basis: Default::default(),
    };
    Ok(Outcome {
        status,
        assignment,
        stats,
    })
}

/// What varisat stopping without an answer means: the memory limit, if its proof writer saw
/// `rss` past it; else the deadline (`unknown`); else its proof output failed.
fn stopped(rss: u64, max_memory: u64, deadline: &Deadline) -> Result<Status, BackendError> {
    if rss > 0 {
        return Err(EncodeError::memory(
            "varisat's clause database (while solving)",
            rss,
            max_memory,
            ", or try the cadical backend",
        )
        .into());
    }
    if !deadline.passed() {
        return Err(BackendError::Solver {
            backend: "sat",
            message: "the solver stopped without an answer (proof output failed)".into(),
        });
    }
    Ok(Status::Unknown)
}

/// varisat has no time limit of its own, but it stops with an error when writing its proof
/// fails. This writer fails once the deadline passes, which turns proof output into a
/// time limit and an interrupt, and (polling the resident size now and then) a memory
/// limit: `over_memory` then holds the size seen. Bytes go to the real proof file, if any.
/// The deadline is shared so that a session can give each solve its own.
struct DeadlineWriter {
    deadline: Arc<Mutex<Deadline>>,
    guard: Guard,
    over_memory: Arc<AtomicU64>,
    inner: Option<io::BufWriter<File>>,
}

impl Write for DeadlineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.deadline.lock().is_ok_and(|d| d.passed()) {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "time limit"));
        }
        if let Some(rss) = self.guard.over() {
            self.over_memory.store(rss, Ordering::Relaxed);
            return Err(io::Error::other("memory limit"));
        }
        match &mut self.inner {
            Some(w) => w.write(buf),
            None => Ok(buf.len()),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Backend for Varisat {
    fn name(&self) -> &'static str {
        "sat"
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
            seed: false,
            parallel: false,
        }
    }

    /// On the caller's thread, always: the deadline stops varisat between two decisions
    /// (`Solver::set_stop`, vendor/varisat) and at its proof steps (`DeadlineWriter`). It
    /// used to solve with a time limit on a thread of its own that the caller stopped
    /// waiting for at the deadline, since varisat looked at the clock only at proof steps;
    /// before its first conflict on MIPLIB's nw04 (a 9-million-clause CNF) that thread ran
    /// on for 5-8 s after the answer, beside a race's winner, the next row of a bench or a
    /// sweep, or the page's next job.
    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.check_options(opts)?;
        solve_here(formula, opts)
    }

    fn has_native_session(&self) -> bool {
        true
    }

    /// One varisat solver for all solves: clauses are added to it, assumptions go through
    /// `Solver::assume`, and what it learnt stays. A new right-hand side re-encodes: the
    /// clauses of a row depend on its right-hand side (a totalizer or adder compared with a
    /// constant), so the formula copy is encoded into a fresh solver at the next solve.
    fn session_natively(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
    ) -> Result<Box<dyn Session + '_>, BackendError> {
        contract::check_open_options(self.capabilities(), self.name(), opts)?;
        let mut s = VarisatSession {
            formula: formula.clone(),
            added: Vec::new(),
            encode: opts.encode,
            loaded: None,
            buf: Vec::new(),
        };
        // Loaded now, so that an oversized model is refused when the session opens; past the
        // deadline of opening, the first solve loads it.
        let deadline = opts.deadline();
        s.loaded = s.load(&deadline, deadline.is_set())?;
        Ok(Box::new(s))
    }
}

/// Watches a loaded solver through its proof output (see [`DeadlineWriter`]).
struct Watch {
    deadline: Arc<Mutex<Deadline>>,
    over_memory: Arc<AtomicU64>,
}

struct Loaded {
    solver: Solver<'static>,
    /// `None`: loaded without a time limit, interrupt or memory watch.
    watch: Option<Watch>,
    vars: u32,
    clauses: u64,
}

struct VarisatSession {
    /// The formula with the right-hand sides set so far (added clauses are in `added`).
    formula: PbFormula,
    added: Vec<Vec<Lit>>,
    encode: EncodeOptions,
    /// `None`: to be loaded at the next solve (a right-hand side changed, the last solve
    /// ran out of time, which leaves varisat unusable, or opening did).
    loaded: Option<Loaded>,
    buf: Vec<varisat::Lit>,
}

impl VarisatSession {
    /// A solver holding the formula and the added clauses; `None` if the deadline passed
    /// first. With `watch`, a time limit, interrupt or memory limit can stop its solves.
    fn load(&self, deadline: &Deadline, watch: bool) -> Result<Option<Loaded>, BackendError> {
        match encode::estimate(
            &self.formula,
            self.encode,
            COST,
            deadline,
            "the CNF for the sat backend",
        ) {
            Err(EncodeError::TimedOut) => return Ok(None),
            Err(e) => return Err(e.into()),
            Ok(_) => {}
        }
        let mut solver = Solver::new();
        let watch = watch.then(|| {
            let w = Watch {
                deadline: Arc::new(Mutex::new(deadline.clone())),
                over_memory: Arc::new(AtomicU64::new(0)),
            };
            let writer = DeadlineWriter {
                deadline: w.deadline.clone(),
                guard: Guard::new(self.encode.max_memory, 1 << 12),
                over_memory: w.over_memory.clone(),
                inner: None,
            };
            // varisat's own format, the one that accepts assumptions.
            solver.write_proof(writer, ProofFormat::Varisat);
            // Between decisions too (vendor/varisat: sokuc's patch), with each solve's own
            // deadline.
            let d = w.deadline.clone();
            solver.set_stop(Some(Box::new(move || d.lock().is_ok_and(|d| d.passed()))));
            w
        });
        let mut sink = SolverSink {
            solver: &mut solver,
            num_vars: 0,
            clauses: 0,
            buf: Vec::new(),
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
        Ok(Some(Loaded {
            solver,
            watch,
            vars,
            clauses,
        }))
    }
}

impl Session for VarisatSession {
    fn set_rhs(&mut self, row: usize, rhs: i64) -> Result<(), BackendError> {
        if contract::set_formula_rhs(&mut self.formula, row, rhs, "sat")? {
            self.loaded = None;
        }
        Ok(())
    }

    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), BackendError> {
        contract::check_lits(&self.formula, lits, "sat")?;
        if let Some(l) = &mut self.loaded {
            self.buf.clear();
            self.buf.extend(lits.iter().map(|&l| to_varisat(l)));
            l.solver.add_clause(&self.buf);
            l.clauses += 1;
        }
        self.added.push(lits.to_vec());
        Ok(())
    }

    fn solve(&mut self, assumptions: &[Lit], opts: &SolveOptions) -> Result<Outcome, BackendError> {
        contract::check_session_options(Varisat.capabilities(), "sat", opts)?;
        contract::check_lits(&self.formula, assumptions, "sat")?;
        contract::check_lits(&self.formula, &opts.assumptions, "sat")?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        // A solver loaded without a watch cannot be stopped: one with a deadline re-loads.
        let stale = self
            .loaded
            .as_ref()
            .is_none_or(|l| l.watch.is_none() && deadline.is_set());
        if stale {
            self.loaded = None;
            match self.load(&deadline, deadline.is_set())? {
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
        if let Some(w) = &l.watch
            && let Ok(mut d) = w.deadline.lock()
        {
            *d = deadline.clone();
        }
        self.buf.clear();
        self.buf
            .extend(assumptions.iter().chain(&opts.assumptions).map(|&l| to_varisat(l)));
        l.solver.assume(&self.buf);
        let t1 = Instant::now();
        let result = if deadline.passed() {
            None
        } else {
            Some(l.solver.solve())
        };
        let solve = t1.elapsed();
        let status = match result {
            None => Status::Unknown,
            Some(Ok(true)) => Status::Sat,
            Some(Ok(false)) => Status::Unsat,
            Some(Err(_)) => {
                // The proof writer stopped varisat, which cannot go on from there.
                let rss = l.watch.as_ref().map_or(0, |w| w.over_memory.load(Ordering::Relaxed));
                self.loaded = None;
                stopped(rss, self.encode.max_memory, &deadline)?
            }
        };
        let (vars, clauses) = self.loaded.as_ref().map_or((0, 0), |l| (l.vars, l.clauses));
        let assignment = match (status, &self.loaded) {
            (Status::Sat, Some(l)) => {
                let mut a = vec![false; self.formula.num_vars() as usize];
                for x in l.solver.model().unwrap_or_default() {
                    if x.index() < a.len() {
                        a[x.index()] = x.is_positive();
                    }
                }
                Some(a)
            }
            _ => None,
        };
        Ok(Outcome {
            status,
            assignment,
            stats: SolveStats {
                vars: vars as u64,
                clauses,
                build_ms: build.as_secs_f64() * 1e3,
                solve_ms: solve.as_secs_f64() * 1e3,
                extra: Default::default(),
                basis: Default::default(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Constraint;
    use std::sync::atomic::{AtomicBool, AtomicU32};

    /// `pigeons + 1` pigeons in `pigeons` holes, as clauses: unsatisfiable, and no proof of
    /// it comes without many decisions.
    fn pigeonhole(pigeons: u32) -> Vec<Vec<varisat::Lit>> {
        let x = |p: u32, h: u32| varisat::Lit::from_index((p * pigeons + h) as usize, true);
        let mut clauses: Vec<Vec<varisat::Lit>> =
            (0..=pigeons).map(|p| (0..pigeons).map(|h| x(p, h)).collect()).collect();
        for h in 0..pigeons {
            for p in 0..=pigeons {
                for q in p + 1..=pigeons {
                    clauses.push(vec![!x(p, h), !x(q, h)]);
                }
            }
        }
        clauses
    }

    /// The stop check patched into varisat (vendor/varisat) ends a solve between two
    /// decisions, as an interrupt varisat can recover from: the same solver then carries on
    /// to the answer.
    #[test]
    fn the_stop_check_ends_a_solve_between_decisions_and_varisat_carries_on() {
        let mut solver = Solver::new();
        for c in pigeonhole(6) {
            solver.add_clause(&c);
        }
        let asked = Arc::new(AtomicU32::new(0));
        let counted = asked.clone();
        solver.set_stop(Some(Box::new(move || counted.fetch_add(1, Ordering::Relaxed) >= 3)));
        assert!(matches!(solver.solve(), Err(varisat::solver::SolverError::Interrupted)));
        // Asked at its first decision and then every few: stopped at its fourth look.
        assert_eq!(asked.load(Ordering::Relaxed), 4);
        solver.set_stop(None);
        assert!(!solver.solve().unwrap());
    }

    /// An interrupt during a solve: the backend answers `unknown` on this thread, and starts
    /// no thread of its own (none is left to run on after it answers).
    #[test]
    fn an_interrupted_solve_answers_unknown() {
        let mut f = PbFormula::new(12 * 11);
        for c in pigeonhole(11) {
            let lits = c
                .iter()
                .map(|l| Lit::new(Var(u32::try_from(l.index()).unwrap()), l.is_positive()))
                .collect();
            f.add("pigeonhole", Constraint::Clause(lits));
        }
        let flag = Arc::new(AtomicBool::new(false));
        let opts = SolveOptions {
            interrupt: Some(flag.clone()),
            ..Default::default()
        };
        let setter = std::thread::spawn(move || {
            // Pigeonhole at 11 holes takes clause learning far longer than this.
            std::thread::sleep(std::time::Duration::from_millis(200));
            flag.store(true, Ordering::Relaxed);
        });
        let out = Varisat.solve(&f, &opts).unwrap();
        setter.join().unwrap();
        assert_eq!(out.status, Status::Unknown);
    }
}

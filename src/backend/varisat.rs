//! varisat, the embedded pure-Rust CDCL solver (the default backend).

use std::fs::File;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use varisat::{ExtendFormula, ProofFormat, Solver};

use super::memory::Guard;
use super::{Backend, BackendError, Capabilities, Deadline, Outcome, SolveOptions, SolveStats, Status};
use crate::encode::{self, ClauseSink, Cost, EncodeError};
use crate::ir::{Lit, PbFormula, Var};

#[derive(Default)]
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

/// varisat has no time limit of its own, but it stops with an error when writing its proof
/// fails. This writer fails once the deadline passes, which turns proof output into a
/// time limit and an interrupt, and (polling the resident size now and then) a memory
/// limit: `over_memory` then holds the size seen. Bytes go to the real proof file, if any.
struct DeadlineWriter {
    deadline: Deadline,
    guard: Guard,
    over_memory: Arc<AtomicU64>,
    inner: Option<io::BufWriter<File>>,
}

impl Write for DeadlineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.deadline.passed() {
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

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            interrupt: true,
            assumptions: true,
            incremental: true,
            proof: true,
            seed: false,
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
            deadline: deadline.clone(),
            // Proof steps come thousands of times a second while varisat learns clauses.
            guard: Guard::new(opts.encode.max_memory, 1 << 12),
            over_memory: over_memory.clone(),
            inner: file,
        };
        if watch {
            // Only the deadline hook needs proof output when no proof was asked for; varisat's
            // own format is the one that also accepts assumptions.
            let format = match (&opts.proof, opts.assumptions.is_empty()) {
                (Some(_), _) => ProofFormat::Drat,
                (None, true) => ProofFormat::BinaryDrat,
                (None, false) => ProofFormat::Varisat,
            };
            solver.write_proof(writer, format);
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
            None => {
                let rss = over_memory.load(Ordering::Relaxed);
                if rss > 0 {
                    return Err(EncodeError::memory(
                        "varisat's clause database (while solving)",
                        rss,
                        opts.encode.max_memory,
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
                Status::Unknown
            }
        };
        if status != Status::Unknown && opts.proof.is_some() {
            solver.close_proof().map_err(|e| BackendError::Solver {
                backend: "sat",
                message: format!("writing the proof: {e}"),
            })?;
        }
        let assignment = if status == Status::Sat {
            let mut a = vec![false; formula.num_vars as usize];
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
        };
        Ok(Outcome {
            status,
            assignment,
            stats,
        })
    }
}

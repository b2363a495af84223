//! varisat, the embedded pure-Rust CDCL solver (the default backend).

use std::fs::File;
use std::io::{self, Write};
use std::time::Instant;

use varisat::{ExtendFormula, ProofFormat, Solver};

use super::{Backend, BackendError, Capabilities, Deadline, Outcome, SolveOptions, SolveStats, Status};
use crate::encode::{self, ClauseSink};
use crate::ir::{Lit, PbFormula, Var};

#[derive(Default)]
pub struct Varisat;

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
}

/// varisat has no time limit of its own, but it stops with an error when writing its proof
/// fails. This writer fails once the deadline passes, which turns proof output into a
/// time limit and an interrupt. Bytes go to the real proof file, if any.
struct DeadlineWriter {
    deadline: Deadline,
    inner: Option<io::BufWriter<File>>,
}

impl Write for DeadlineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.deadline.passed() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "time limit"));
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
        let mut solver = Solver::new();
        let deadline = Deadline::new(opts.time_limit, opts.interrupt.clone());
        let file = match &opts.proof {
            Some(p) => Some(io::BufWriter::new(File::create(p)?)),
            None => None,
        };
        let watch = deadline.is_set() || file.is_some();
        let writer = DeadlineWriter {
            deadline: deadline.clone(),
            inner: file,
        };
        if opts.proof.is_some() && !opts.assumptions.is_empty() {
            // varisat's DRAT writer cannot express assumptions (it would panic).
            return Err(BackendError::Unsupported {
                backend: "sat",
                feature: "DRAT proofs together with assumptions",
            });
        }
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
        encode::encode(formula, opts.encode, &mut sink)?;
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

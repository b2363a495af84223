//! The whole 3SoKu pipeline in one place: compile -> solve -> check the IR -> decode ->
//! verify. Every answer that leaves here has been verified.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::backend::memory::over_limit;
use crate::backend::{Backend, BackendError, Deadline, SolveOptions, SolveStats, Status, Waited};
use crate::encode::{self, Cnf, EncodeError};
use crate::model::Instance;
use crate::soku::{self, Compiled, Placement};
use crate::verify;

/// Whether presolve may conclude `unsat` and shrink domains before the solver runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PresolveMode {
    #[default]
    On,
    /// Only fixed placements restrict faces; everything else is left to the solver. The
    /// emitted model is then the plain model (useful to benchmark external solvers).
    Off,
}

#[derive(Debug, Clone)]
pub struct SokuResult {
    pub status: Status,
    pub placements: Option<Vec<Placement>>,
    /// Why the instance is unsatisfiable or unknown, in words.
    pub reason: Option<String>,
    pub verified: bool,
    pub stats: SolveStats,
    pub backend: String,
}

#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error("internal error: the {backend} answer violates the model: {detail}")]
    ModelViolated { backend: String, detail: String },
    #[error("internal error: the {backend} answer could not be decoded: {detail}")]
    Decode { backend: String, detail: String },
    #[error("internal error: the {backend} answer failed verification: {detail}")]
    Verification { backend: String, detail: String },
}

/// Compiles with or without presolve; `Err` is presolve's unsatisfiability argument.
pub fn compile(inst: &Instance, mode: PresolveMode) -> Result<Compiled, String> {
    match mode {
        PresolveMode::On => soku::compile(inst),
        PresolveMode::Off => Ok(soku::compile_plain(inst)),
    }
}

/// Bytes of the compiled model per placement variable (its name, its place in the variable
/// pool, its terms in the face, tile and vertex rows). Measured: 330 on a random
/// bipyramid-2000 (246k variables), 280 on a Partition instance with 400 distinct sizes and
/// presolve off (961k variables).
const MODEL_BYTES_PER_VAR: u64 = 400;

/// Refuses an instance whose compiled model would not fit in `limit` bytes, before it is
/// compiled: every face may take every type in each of its distinct turns (presolve only
/// removes some), so a Partition instance with thousands of distinct sizes has millions of
/// placement variables per face ring.
pub fn check_model_size(inst: &Instance, limit: u64) -> Result<(), EncodeError> {
    let per_face: u64 = inst.types().iter().map(|t| t.rotations.len() as u64).sum();
    let vars = per_face.saturating_mul(inst.variant.num_faces() as u64);
    if let Some(needed) = over_limit(vars.saturating_mul(MODEL_BYTES_PER_VAR), limit) {
        return Err(EncodeError::memory(
            format!("the compiled model (up to {vars} placement variables, before any backend)"),
            needed,
            limit,
            "",
        ));
    }
    Ok(())
}

/// How often a thread waiting for a worker looks at the deadline and the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// [`compile`] within a deadline: `None` once it passes. Presolve and compiling cannot look
/// at the clock, and on instances with many distinct tiles they take seconds, so with a time
/// limit they run on a worker thread while this one waits. Past the deadline the worker is
/// left to finish on its own (its model is then dropped); the process may exit first.
fn compile_within(inst: &Instance, mode: PresolveMode, deadline: &Deadline) -> Option<Result<Compiled, String>> {
    if !deadline.is_set() {
        return Some(compile(inst, mode));
    }
    let (tx, rx) = mpsc::channel();
    let owned = inst.clone();
    let worker = std::thread::Builder::new().name("sokuc-compile".into()).spawn(move || {
        // The receiver is gone when the caller stopped waiting.
        let _ = tx.send(compile(&owned, mode));
    });
    let Ok(worker) = worker else {
        return Some(compile(inst, mode));
    };
    let Ok(waited) = deadline.wait(&rx, POLL, || Ok::<(), std::convert::Infallible>(()));
    match waited {
        Waited::Done(c) => Some(c),
        Waited::Passed => None,
        // Compiling panicked: the same panic as without a worker.
        Waited::WorkerGone => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the worker sends before it ends"),
        },
    }
}

pub fn solve(
    inst: &Instance,
    backend: &mut dyn Backend,
    opts: &SolveOptions,
    mode: PresolveMode,
) -> Result<SokuResult, PipelineError> {
    // Presolve and compiling count against the time limit (unless the caller's clock
    // started even earlier, at the start of its command).
    let opts = &opts.clock_started();
    let t0 = Instant::now();
    // Options the backend cannot honour are refused before anything is compiled (an
    // interrupt flag already set must not turn into an `unknown` from the compile stage).
    backend.check_options(opts)?;
    check_model_size(inst, opts.encode.max_memory).map_err(BackendError::from)?;
    let compiled = match compile_within(inst, mode, &opts.deadline()) {
        None => {
            return Ok(SokuResult {
                status: Status::Unknown,
                placements: None,
                reason: Some("the time limit was reached while compiling the model".into()),
                verified: false,
                stats: SolveStats {
                    build_ms: t0.elapsed().as_secs_f64() * 1e3,
                    ..Default::default()
                },
                backend: backend.name().to_string(),
            });
        }
        Some(Ok(c)) => c,
        Some(Err(reason)) => {
            let stats = SolveStats {
                build_ms: t0.elapsed().as_secs_f64() * 1e3,
                ..Default::default()
            };
            return Ok(SokuResult {
                status: Status::Unsat,
                placements: None,
                reason: Some(format!("presolve: {reason}")),
                verified: false,
                stats,
                backend: backend.name().to_string(),
            });
        }
    };
    let compile_ms = t0.elapsed().as_secs_f64() * 1e3;
    let outcome = backend.solve(&compiled.model.formula, opts)?;
    let mut stats = outcome.stats;
    stats.build_ms += compile_ms;
    let name = backend.name().to_string();
    let (placements, verified, reason) = match outcome.status {
        Status::Sat => {
            let a = outcome.assignment.unwrap_or_default();
            let p = finish(inst, &compiled, &a, &name)?;
            (Some(p), true, None)
        }
        Status::Unsat => (None, false, Some(format!("proven by the {name} backend"))),
        Status::Unknown => (
            None,
            false,
            Some("the time limit was reached or the search was interrupted".to_string()),
        ),
    };
    Ok(SokuResult {
        status: outcome.status,
        placements,
        reason,
        verified,
        stats,
        backend: name,
    })
}

/// Checks a full assignment against the IR, decodes it and verifies the placements.
pub fn finish(
    inst: &Instance,
    compiled: &Compiled,
    assignment: &[bool],
    backend: &str,
) -> Result<Vec<Placement>, PipelineError> {
    let n = compiled.model.formula.num_vars as usize;
    if assignment.len() < n {
        return Err(PipelineError::Decode {
            backend: backend.into(),
            detail: format!("{} values for {n} variables", assignment.len()),
        });
    }
    compiled
        .model
        .formula
        .evaluate(&assignment[..n])
        .map_err(|v| PipelineError::ModelViolated {
            backend: backend.into(),
            detail: v.to_string(),
        })?;
    let placements = soku::decode(inst, compiled, assignment).map_err(|e| PipelineError::Decode {
        backend: backend.into(),
        detail: e.to_string(),
    })?;
    verify::soku::verify(inst, &placements).map_err(|e| PipelineError::Verification {
        backend: backend.into(),
        detail: e.to_string(),
    })?;
    Ok(placements)
}

/// The compiled model as CNF, plus the comment header describing it.
pub struct EmittedCnf {
    pub cnf: Cnf,
    pub header: Vec<String>,
    pub names: Vec<String>,
    pub aux: Vec<encode::AuxRange>,
}

/// Comment lines describing an emitted model (every export starts with them).
fn model_header(inst: &Instance, mode: PresolveMode, encoding: Option<encode::PbEncoding>) -> Vec<String> {
    let caps: Vec<String> = inst.capacities.iter().map(|c| c.to_string()).collect();
    let v = &inst.variant;
    let mut h = vec![
        format!("sokuc {} 3SoKu model", env!("CARGO_PKG_VERSION")),
        format!("instance {}", inst.source),
        format!(
            "variant {} ({} vertices, {} faces)",
            v.name,
            v.num_vertices(),
            v.num_faces()
        ),
        format!("capacities {}", caps.join(",")),
    ];
    if let Some(e) = encoding {
        h.push(format!("pb-encoding {}", e.name()));
    }
    h.push(format!(
        "presolve {}",
        if mode == PresolveMode::On { "on" } else { "off" }
    ));
    h
}

/// The compiled model for the LP/MPS/OPB/MiniZinc exports. When presolve proves the
/// instance unsatisfiable, the model is one variable and one impossible row, with the reason
/// in the header.
pub fn to_formula(inst: &Instance, mode: PresolveMode) -> (crate::ir::PbFormula, Vec<String>, Vec<String>) {
    let mut header = model_header(inst, mode, None);
    match compile(inst, mode) {
        Ok(c) => {
            let names = c.model.names();
            (c.model.formula, names, header)
        }
        Err(reason) => {
            header.push(format!("UNSAT by presolve: {reason}"));
            let mut f = crate::ir::PbFormula {
                num_vars: 1,
                ..Default::default()
            };
            f.add("presolve: unsatisfiable", crate::ir::Constraint::Clause(vec![]));
            (f, vec!["unsat".to_string()], header)
        }
    }
}

pub fn to_cnf(
    inst: &Instance,
    opts: encode::EncodeOptions,
    mode: PresolveMode,
) -> Result<EmittedCnf, encode::EncodeError> {
    let mut header = model_header(inst, mode, Some(opts.pb));
    let mut cnf = Cnf::new();
    check_model_size(inst, opts.max_memory)?;
    match compile(inst, mode) {
        Ok(c) => {
            let stats = encode::encode(&c.model.formula, opts, &mut cnf)?;
            Ok(EmittedCnf {
                cnf,
                header,
                names: c.model.names(),
                aux: stats.aux,
            })
        }
        Err(reason) => {
            // Presolve proved unsatisfiability: the model is the empty clause, with the reason.
            header.push(format!("UNSAT by presolve: {reason}"));
            cnf.add_clause_public(&[]);
            Ok(EmittedCnf {
                cnf,
                header,
                names: Vec::new(),
                aux: Vec::new(),
            })
        }
    }
}

//! The whole 3SoKu pipeline in one place: compile -> solve -> check the IR -> decode ->
//! verify. Every answer that leaves here has been verified.

use std::time::Instant;

use crate::backend::{Backend, BackendError, SolveOptions, SolveStats, Status};
use crate::encode::{self, Cnf};
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

pub fn solve(
    inst: &Instance,
    backend: &mut dyn Backend,
    opts: &SolveOptions,
    mode: PresolveMode,
) -> Result<SokuResult, PipelineError> {
    let t0 = Instant::now();
    let compiled = match compile(inst, mode) {
        Ok(c) => c,
        Err(reason) => {
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

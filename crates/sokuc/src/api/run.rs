//! The facade's options as the run path's.

use std::time::Instant;

use super::options::Options;
use crate::backend::SolveOptions;
use crate::encode::EncodeOptions;
use crate::error::Error;
use crate::input::InputError;
use crate::puzzle::CompileOptions;
use crate::run::RunOptions;

/// The options' backend, or why this build has none of that name.
pub(crate) fn backend_of(options: &Options) -> Result<Box<dyn crate::backend::Backend>, Error> {
    crate::backend::lookup(options.backend.name()).map_err(|e| InputError::new("backend", None, e.to_string()).into())
}

/// The run path's options for the facade's options, the clock started at `started` unless
/// the options say when it started.
pub(crate) fn run_options(options: &Options, started: Instant) -> RunOptions {
    RunOptions {
        solve: SolveOptions {
            time_limit: options.timeout,
            started: Some(options.started.unwrap_or(started)),
            proof: options.proof.clone(),
            seed: options.seed,
            mip: options.mip,
            searching: options.searching.as_ref().map(|s| s.board.clone()),
            interrupt: options.interrupt.clone(),
            mip_helper: options.mip_helper.clone(),
            highs_helper: options.highs_helper.clone(),
            encode: encode_options(options),
            tuning: tuning(options),
            ..SolveOptions::default()
        },
        compile: compile_options(options),
        lp: options.lp,
        unique: options.unique,
        strict: options.strict,
    }
}

/// The options' tuning experiments.
pub(crate) fn tuning(options: &Options) -> crate::backend::Tuning {
    crate::backend::Tuning {
        cp: options.cp_tuning.clone(),
        cadical: options.cadical_tuning.clone(),
    }
}

pub(crate) fn encode_options(options: &Options) -> EncodeOptions {
    EncodeOptions {
        pb: options.encoding,
        max_memory: options.max_memory.unwrap_or(EncodeOptions::default().max_memory),
        max_clauses: options.max_clauses.unwrap_or(EncodeOptions::default().max_clauses),
    }
}

pub(crate) fn compile_options(options: &Options) -> CompileOptions {
    CompileOptions {
        presolve: options.presolve,
    }
}

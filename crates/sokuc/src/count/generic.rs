//! Counting any puzzle kind through the IR: the compiled formula, encoded to CNF as
//! `--emit dimacs` writes it, counted by `sharp` projected on the variables that
//! identify a solution (`Puzzle::primary`), so that auxiliary variables (the encoder's, and
//! a front-end's own) never count twice.

use std::time::Instant;

use num_bigint::BigUint;

use super::counted::{CountError, CountOptions, CountStats, Counted, by as counted_by};
use crate::encode::{Cnf, EncodeOptions, encode_until};
use crate::error::Error;
use crate::puzzle::CompileOptions;
use crate::run::AnyPuzzle;
use crate::sharp;

/// Counts `p`'s distinct solutions with the projected model counter.
pub fn count(p: &dyn AnyPuzzle, opts: &CountOptions) -> Result<Counted, CountError> {
    let started = Instant::now();
    let (formula, primary) = match p.primary_model(&CompileOptions::default()) {
        Ok(m) => m,
        Err(refutation) => {
            return Ok(Counted {
                count: BigUint::from(0u32),
                placements: BigUint::from(0u32),
                method: format!("presolve: {refutation}"),
                stats: CountStats::default(),
                time: started.elapsed(),
                evidence: crate::run::count_evidence(counted_by::PRESOLVE),
            });
        }
    };
    let enc = EncodeOptions {
        max_memory: opts.max_memory,
        ..EncodeOptions::default()
    };
    let mut cnf = Cnf::new();
    encode_until(&formula, enc, &mut cnf, &opts.deadline).map_err(|e| CountError::Refused(Error::Limit(e)))?;
    let counted = sharp::count(&cnf, &primary, opts.max_memory, &opts.deadline).map_err(|stop| match stop {
        sharp::Stopped::Time => CountError::TimedOut,
        sharp::Stopped::Memory { .. } => CountError::OverMemory(Error::unsupported(
            "--max-memory",
            format!("{stop}; raise --max-memory"),
        )),
        sharp::Stopped::TooLarge { .. } => CountError::OverMemory(Error::unsupported("count", stop.to_string())),
    })?;
    let s = &counted.stats;
    Ok(Counted {
        placements: counted.value.clone(),
        method: format!(
            "projected model counting of the CNF ({} variables, {} clauses) on its {} primary variables: DPLL with components and a cache",
            cnf.num_vars,
            cnf.num_clauses(),
            primary.len()
        ),
        count: counted.value,
        stats: CountStats {
            decisions: s.decisions,
            components: s.components,
            cache_hits: s.cache_hits,
            peak_cache_bytes: s.peak_cache_bytes,
            ..CountStats::default()
        },
        time: started.elapsed(),
        evidence: crate::run::count_evidence(counted_by::SHARP),
    })
}

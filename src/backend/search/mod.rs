//! `--backend search`: sokuc's own propagation search (see [`engine`]). It reads the IR like
//! every backend; exactly-one groups become domains and all other rows linear constraints.
//! Its engine can be kept and re-solved with new right-hand sides, which is what
//! `sokuc sweep` does for millions of instances that differ only in their capacities.

pub mod engine;

use std::time::Instant;

use super::{Backend, BackendError, Capabilities, Outcome, SolveOptions, SolveStats, Status};
use crate::encode::EncodeError;
use crate::ir::PbFormula;
pub use engine::{Engine, Refused};

#[derive(Default)]
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
            proof: false,
            seed: true,
        }
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.check_options(opts)?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        let limit = opts.encode.max_memory;
        let mut engine = match Engine::within(formula, limit, &deadline) {
            Ok(e) => e,
            Err(engine::Refused::Time) => {
                return Ok(Outcome::unknown(SolveStats {
                    build_ms: t0.elapsed().as_secs_f64() * 1e3,
                    ..Default::default()
                }));
            }
            Err(engine::Refused::Memory(needed)) => {
                return Err(EncodeError::memory(
                    "the search backend's tables",
                    needed,
                    limit,
                    ", or try the cp backend",
                )
                .into());
            }
        };
        let build = t0.elapsed();
        let t1 = Instant::now();
        let (answer, assignment) = if deadline.passed() {
            (engine::Answer::Unknown, None)
        } else {
            engine.solve(&opts.assumptions, opts.seed.unwrap_or(0), &deadline)
        };
        let solve = t1.elapsed();
        let status = match answer {
            engine::Answer::Sat => Status::Sat,
            engine::Answer::Unsat => Status::Unsat,
            engine::Answer::Unknown => Status::Unknown,
        };
        let c = engine.counters;
        let mut extra = std::collections::BTreeMap::new();
        extra.insert("nodes".into(), c.nodes.into());
        extra.insert("failures".into(), c.failures.into());
        extra.insert("restarts".into(), c.restarts.into());
        Ok(Outcome {
            status,
            assignment,
            stats: SolveStats {
                vars: formula.num_vars as u64,
                clauses: formula.constraints.len() as u64,
                build_ms: build.as_secs_f64() * 1e3,
                solve_ms: solve.as_secs_f64() * 1e3,
                extra,
            },
        })
    }
}

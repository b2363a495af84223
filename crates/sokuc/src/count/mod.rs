//! Exact solution counts (`sokuc count`, issue 16 item 2).
//!
//! A *solution* here is a configuration: what a person sees, face by face (the tile type on
//! each face and how it is turned). Identical tiles are interchangeable, and a tile that
//! looks the same turned counts once per distinct orientation. The number of placements of
//! distinguishable tiles is the count times the product of the types' multiplicities'
//! factorials.
//!
//! 3SoKu is counted by [`frontier`], a dynamic programme over the faces that exploits the
//! puzzle's structure (its tile-count rows tie every face together, which defeats a model
//! counter's decomposition into components); every other kind by [`generic`], the projected
//! model counter of the `sharp` module over the compiled formula.
//!
//! Counts go out as decimal strings in the JSON (they may pass 2^64). `--max-memory` (default
//! 8G) bounds the counter's states (past it, exit 2), and `--timeout` ends without a count
//! (exit 30). `--emit dimacs` names the projection in a `c p show ... 0` line, as Ganak and
//! other model counters read it.
//!
//! **What the counts were checked against.** `tests/count.rs`, `tests/count_pool.rs` and
//! `tests/count_agree.rs`: the frontier programme, the generic counter, `solve --all` and Ganak
//! agree on small instances of every kind, zeros included. On the icosahedron itself, with 10
//! of the 20 IcoSoKu tiles pre-placed, the programme's counts (1,068, 74,653 and 133,423 for
//! seeds 3, 1, 2) equal the enumeration's; with 8 pre-placed, 1,979,161 and 2,660,131 agreed
//! too (enumerated in 40 and 56 s; measured once, not in the tests). Ganak itself did not
//! finish the seed instance's CNF (2,644 variables, projected on 580) in 30 minutes.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

pub mod by_caps;
mod counted;
pub mod frontier;
pub mod generic;
pub mod pool;

use std::time::Instant;

use num_bigint::BigUint;

use crate::budget::memory::format_size;
use crate::error::Error;
use crate::model::Instance;
use crate::model::pool::PoolInstance;
use crate::run::AnyPuzzle;

pub use counted::{CountError, CountOptions, CountStats, Counted, by};

/// Counts the distinct solutions of any puzzle: 3SoKu by its own dynamic programme, every
/// other kind by the projected model counter over its compiled formula ([`generic`]).
pub fn count(p: &dyn AnyPuzzle, opts: &CountOptions) -> Result<Counted, CountError> {
    if let Some(pi) = p.as_any().downcast_ref::<PoolInstance>() {
        return count_pool(pi, opts);
    }
    match p.as_any().downcast_ref::<Instance>() {
        Some(inst) => count_instance(inst, opts),
        None => generic::count(p, opts),
    }
}

fn refusal(stop: frontier::Stop, opts: &CountOptions) -> CountError {
    match stop {
        frontier::Stop::TimedOut => CountError::TimedOut,
        frontier::Stop::States {
            states,
            limit,
            per_state,
        } => CountError::OverMemory(Error::unsupported(
            "--max-memory",
            format!(
                "counting needs more than {states} states at once, more than the limit of {} allows ({limit} states of about {per_state} bytes); raise --max-memory",
                format_size(opts.max_memory),
            ),
        )),
        frontier::Stop::Wide { bits: 129 } => Error::unsupported(
            "count",
            "this instance's counts may pass 2^128, more than the pool counter holds".to_string(),
        )
        .into(),
        frontier::Stop::Wide { bits } => Error::unsupported(
            "count",
            format!(
                "this instance's counting state needs {bits} bits (tile types, peg values and open vertex sums), more than the 128 the counter packs"
            ),
        )
        .into(),
    }
}

/// Counts the configurations of a pool instance (tile types with bounds, pegs given or
/// free) exactly: the tile type and turn per face; free pegs follow from the sums.
pub fn count_pool(inst: &PoolInstance, opts: &CountOptions) -> Result<Counted, CountError> {
    let started = Instant::now();
    let max_states = usize::try_from(opts.max_memory / pool::BYTES_PER_STATE).unwrap_or(usize::MAX);
    let found = pool::count(inst, max_states, &opts.deadline).map_err(|s| refusal(s, opts))?;
    let faces = inst.variant.num_faces();
    let count = BigUint::from(found.count);
    // A tile list (every type used exactly as often as listed) has distinguishable copies.
    let mut factor = BigUint::from(1u32);
    if inst.pool.iter().all(|t| t.min == t.max) {
        for t in &inst.pool {
            for k in 2..=u64::from(t.min) {
                factor *= k;
            }
        }
    }
    let by = if found.ran { by::POOL } else { by::PRESOLVE };
    Ok(Counted {
        evidence: crate::run::count_evidence(by),
        placements: &count * factor,
        method: if !found.ran {
            "necessary conditions: the pegs and the vertices differ in number, the pool's bounds cannot fill the faces, or a face has no type that fits".to_string()
        } else {
            format!(
                "frontier dynamic programming over {faces} faces with tile-type counts{} in the state (at most {} open vertices, {} states at most)",
                if matches!(inst.pegs, crate::model::pool::Pegs::Free(_)) {
                    " and used peg values"
                } else {
                    ""
                },
                found.frontier,
                found.peak_states
            )
        },
        count,
        stats: CountStats {
            faces,
            frontier: found.frontier,
            peak_states: found.peak_states,
            total_states: found.total_states,
            ..CountStats::default()
        },
        time: started.elapsed(),
    })
}

/// What a count of `p` will go through, in words, before it starts (3SoKu instances; `None`
/// for the other kinds).
pub fn estimate(p: &dyn AnyPuzzle) -> Option<String> {
    let inst = p.as_any().downcast_ref::<Instance>()?;
    let (faces, open, log2) = frontier::estimate(inst);
    Some(format!(
        "counting {faces} faces layer by layer, with at most {open} vertices open at once, over about 10^{:.0} placements",
        log2 * std::f64::consts::LOG10_2
    ))
}

/// Counts the configurations of a 3SoKu instance exactly.
pub fn count_instance(inst: &Instance, opts: &CountOptions) -> Result<Counted, CountError> {
    let started = Instant::now();
    let found = frontier::count(inst, opts.max_memory, &opts.deadline, &opts.progress).map_err(|stop| match stop {
        frontier::Stop::Wide { bits } => Error::unsupported(
            "count",
            format!(
                "this instance's counting state needs {bits} bits (tile types and open vertex sums), more than the 128 the counter packs"
            ),
        )
        .into(),
        other => refusal(other, opts),
    })?;
    let mut factor = BigUint::from(1u32);
    for ty in inst.types() {
        for k in 2..=ty.multiplicity() as u64 {
            factor *= k;
        }
    }
    let faces = inst.variant.num_faces();
    let by = if found.order.is_empty() { by::PRESOLVE } else { by::FRONTIER };
    Ok(Counted {
        evidence: crate::run::count_evidence(by),
        placements: &found.count * factor,
        method: if found.order.is_empty() {
            "necessary conditions: the tiles' weights and the capacities differ in total, the tiles and the faces in number, or a face has no tile that fits".to_string()
        } else {
            format!(
                "frontier dynamic programming over {faces} faces (at most {} open vertices, {} states at most)",
                found.frontier, found.peak_states
            )
        },
        count: found.count,
        stats: CountStats {
            faces,
            frontier: found.frontier,
            peak_states: found.peak_states,
            total_states: found.total_states,
            ..CountStats::default()
        },
        time: started.elapsed(),
    })
}

//! An exact projected model counter for CNF (#SAT), the generic counter of issue 16.
//!
//! [`count`] gives the number of distinct assignments of the projection variables that
//! extend to a model of the CNF; the other variables are existentially quantified. That is
//! the number of distinct solutions of a puzzle when the projection set is the IR's
//! variables and the CNF is their encoding: encoders only add auxiliaries, each determined
//! (or at least allowed) by the primary ones, so auxiliaries never multiply the count.
//!
//! The method is that of sharpSAT and Ganak (DPLL with component decomposition and caching,
//! branching on projection variables only), written here from the papers' descriptions;
//! `counter.rs` says how. Counts are [`BigUint`]s: they exceed 2^128 on formulas with a few
//! hundred free variables.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

mod cache;
mod counter;

use num_bigint::BigUint;

use crate::budget::Deadline;
use crate::encode::Cnf;
use crate::ir::Var;

pub use counter::{Stats, Stopped};

/// An exact count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    pub value: BigUint,
    pub stats: Stats,
}

/// Stack bytes per decision level: the search recurses once per component and once per
/// residual, and a path holds at most one level per variable.
const STACK_PER_VAR: usize = 1024;

/// The number of distinct assignments of `projection` that extend to a model of `cnf`.
///
/// A projection variable that no clause names counts twice (free); one beyond
/// `cnf.num_vars` too. Repeated projection variables count once. `max_bytes` bounds the
/// memory of the counter (its copy of the formula, the components on its stack and the
/// cache, which drops entries to stay within it); `deadline` stops it.
pub fn count(cnf: &Cnf, projection: &[Var], max_bytes: u64, deadline: &Deadline) -> Result<Count, Stopped> {
    let num_vars = projection
        .iter()
        .map(|v| v.index() + 1)
        .chain(cnf.clauses().flatten().map(|l| l.var().index() + 1))
        .chain([cnf.num_vars as usize])
        .max()
        .unwrap_or(0);
    // The search recurses as deep as it branches; a thread of its own gets a stack sized
    // for the worst case instead of the caller's (2 MiB on test threads).
    let stack = (16 << 20) + num_vars.saturating_mul(STACK_PER_VAR);
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("sokuc-sharp".into())
            .stack_size(stack)
            .spawn_scoped(s, || {
                let mut engine =
                    counter::Engine::new(cnf.num_vars, &mut cnf.clauses(), projection, max_bytes, deadline)?;
                let value = engine.count()?;
                Ok(Count {
                    value,
                    stats: engine.stats,
                })
            })
            .expect("spawning the counting thread");
        worker.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

#[cfg(test)]
mod tests;

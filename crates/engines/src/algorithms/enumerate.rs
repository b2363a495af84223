//! Enumerating every solution ([`crate::Algorithms::enumerate`]): a backend's native way
//! ([`Backend::enumerate_natively`]) where it has one, else the generic way: solve, hand the answer to
//! the visitor, add its blocking clause ([`Projection::block`]) and solve again, until the
//! formula is unsatisfiable (complete), the visitor stops, or the deadline passes.
//!
//! On a backend with [`crate::Capabilities::incremental`] that is one session, so each solve
//! starts from what the previous ones learnt; otherwise (and with a DRAT proof, which cannot
//! span a session) every solve starts afresh from the formula and the no-goods so far.
//!
//! Per engine: `search` enumerates natively, in one complete walk of its tree that reports
//! every leaf (`encodings/search.md`); `sat` and `cadical` block in one incremental session;
//! `cp`, `mip` and `highs`, which have no native sessions, solve afresh each time. That is
//! fine for uniqueness and small counts and slow for large ones (`mip` starts a helper
//! process per solution), and it is kept because it is correct on every engine. `auto`
//! enumerates with `search` natively where search finds a first answer within its failure
//! budget, else with the CDCL engine and blocking clauses (`encodings/auto.md`). `--unique`
//! is the first two solutions of this enumeration.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::time::Instant;

use super::session;
use crate::contract::{
    ADDED, Backend, BackendError, Ended, Enumeration, Found, Outcome, SolveOptions, SolveStats, Visit,
};
use crate::ir::{Constraint, PbFormula, Projection, Status};

/// Every solution of `formula` on `b`: natively where `b` has a way of its own, else
/// [`by_blocking`].
pub fn enumerate<B: Backend + ?Sized>(
    b: &mut B,
    formula: &PbFormula,
    projection: &Projection,
    opts: &SolveOptions,
    visit: &mut Visit<'_>,
) -> Result<Enumeration, BackendError> {
    match b.enumerate_natively(formula, projection, opts, visit) {
        Some(done) => done,
        None => by_blocking(b, formula, projection, opts, visit),
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

/// Adds one solve's statistics to the enumeration's: the size from the first, times summed,
/// the solver's counters from the first and the number of solves.
fn add(total: &mut SolveStats, out: &SolveStats, solves: u64) {
    if solves == 1 {
        total.vars = out.vars;
        total.clauses = out.clauses;
        total.extra = out.extra.clone();
    }
    total.build_ms += out.build_ms;
    total.solve_ms += out.solve_ms;
    total.extra.insert("solves".into(), solves.into());
}

/// The generic enumeration: blocking clauses over the projection.
pub fn by_blocking<B: Backend + ?Sized>(
    b: &mut B,
    formula: &PbFormula,
    projection: &Projection,
    opts: &SolveOptions,
    visit: &mut Visit<'_>,
) -> Result<Enumeration, BackendError> {
    let t0 = Instant::now();
    let engine = b.name();
    let mut stats = SolveStats::default();
    let mut solves = 0u64;
    // What to do with one solve's outcome: `Some` when the enumeration ends here.
    let mut step = |out: Outcome, stats: &mut SolveStats| -> (Option<Ended>, Option<Vec<bool>>) {
        solves += 1;
        add(stats, &out.stats, solves);
        match out.status {
            Status::Unsat => (Some(Ended::Complete), None),
            Status::Unknown => (Some(Ended::Unknown), None),
            // A "sat" without an assignment goes to the visitor as an empty one, which the
            // run path refuses as a wrong answer.
            Status::Sat => {
                let a = out.assignment.unwrap_or_default();
                if visit(Found { assignment: &a, engine }).is_break() {
                    (Some(Ended::Stopped), None)
                } else {
                    (None, Some(a))
                }
            }
        }
    };
    if b.capabilities().incremental && opts.proof.is_none() {
        let open = SolveOptions {
            assumptions: Vec::new(),
            ..opts.clone()
        };
        let mut session = session::open(b, formula, &open)?;
        let open_ms = ms(t0);
        loop {
            let out = session.solve(&[], opts)?;
            match step(out, &mut stats) {
                (Some(ended), _) => {
                    stats.build_ms += open_ms;
                    return Ok(Enumeration { ended, stats });
                }
                (None, a) => session.add_clause(&projection.block(&a.unwrap_or_default()))?,
            }
        }
    }
    let mut f = formula.clone();
    loop {
        let out = b.solve(&f, opts)?;
        match step(out, &mut stats) {
            (Some(ended), _) => return Ok(Enumeration { ended, stats }),
            (None, a) => {
                let clause = projection.block(&a.unwrap_or_default());
                f.add(ADDED, Constraint::Clause(clause));
            }
        }
    }
}

//! `--backend mitm`: exhaustive search by meeting in the middle, for formulas with few
//! variables left once the forced ones are fixed (at most [`MAX_FREE`]).
//!
//! Subset sum, market split and small knapsacks have a handful of rows over 20 to 44
//! variables and almost no propagation: clause learning, lazy clause generation and branch
//! and bound all walk an exponential tree on them, and cutting planes need exact rational
//! reasoning. Splitting the variables into two halves and enumerating each half alone
//! (`2^22` assignments at most, about a second) decides them exactly:
//!
//! - every equality row becomes part of a hash key: the right half's assignments are sorted
//!   by `Σ r_e·R_e(b) mod p` (`r_e` fixed random multipliers, `p = 2^61 − 1`), and a left
//!   assignment `a` can only be completed by a `b` whose key is `Σ r_e·(rhs_e − L_e(a))`:
//!   reduction mod `p` keeps equal sums equal, so no completion is ever skipped (unequal ones
//!   that collide are caught by the exact check below);
//! - one inequality row (the widest) sorts each key's group by its right-half value, so the
//!   `b` that satisfy it for a given `a` are a prefix found by binary search, and a running
//!   minimum of the objective over the prefix gives the best of them;
//! - every candidate pair is checked against all of the formula's rows, as written, before
//!   it counts: a model is only ever a model, and "no model" or "optimal" holds because the
//!   two filters above only drop pairs that break a row.
//!
//! Other inequality rows (clauses, more capacities) are checked pair by pair, which is
//! exponential again: [`Mitm::checks`] caps that work where `auto` calls this engine.

mod halves;
mod reduce;

use std::ops::ControlFlow;
use std::time::Instant;

use crate::algorithms::Algorithms;
use crate::budget::memory::over_limit;
use crate::contract::{
    Backend, BackendError, Capabilities, Improved, Method, Optimum, Outcome, SolveOptions, SolveStats, check_caps,
};
use crate::encode::EncodeError;
use crate::ir::{Cmp, PbFormula, Status};
use halves::{End, Entry, Split};
use reduce::{Reduction, aux_bits, reduce};

/// The most variables left free (not fixed by units, assumptions or propagation) that the
/// engine enumerates: two halves of 2^22.
pub const MAX_FREE: usize = 44;

/// `--backend mitm` (see the module's documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct Mitm {
    /// At most this many candidate pairs are checked against the rows before the engine
    /// gives up with `unknown` (`None`: no cap, only the time limit). `auto` sets one, so
    /// that a formula this engine is wrong for costs it little.
    pub checks: Option<u64>,
}

/// What [`search`] answers: each model goes to `found` with its objective (0 without one).
struct Searched {
    end: End,
    stats: SolveStats,
    /// The objective minimised was a staged objective whole.
    whole: bool,
}

fn search(
    formula: &PbFormula,
    opts: &SolveOptions,
    cap: Option<u64>,
    with_objective: bool,
    found: &mut dyn FnMut(Vec<bool>, i128) -> ControlFlow<()>,
    bound: &mut dyn FnMut() -> Option<i128>,
) -> Result<Searched, BackendError> {
    let t0 = Instant::now();
    let deadline = opts.deadline();
    let n = formula.num_vars() as usize;
    if let Some(l) = opts.assumptions.iter().find(|l| l.var().index() >= n) {
        return Err(BackendError::Solver {
            backend: "mitm",
            message: format!("assumption {} names no variable of the formula", l.dimacs()),
        });
    }
    let mut stats = SolveStats::default();
    if deadline.passed() {
        return Ok(Searched {
            end: End::Stopped,
            stats,
            whole: false,
        });
    }
    let r = match reduce(formula, with_objective, &opts.assumptions) {
        Reduction::Impossible => {
            stats.build_ms = t0.elapsed().as_secs_f64() * 1e3;
            stats.extra.insert(
                "mitm".into(),
                "a row cannot hold once the forced variables are fixed".into(),
            );
            return Ok(Searched {
                end: End::Complete,
                stats,
                whole: false,
            });
        }
        Reduction::TooWide => {
            return Err(BackendError::Unavailable {
                backend: "mitm",
                message: "the objective's sums need more than 126 bits; use another backend".into(),
            });
        }
        Reduction::Reduced(r) => r,
    };
    let f = r.free.len();
    if f > MAX_FREE {
        return Err(BackendError::Unavailable {
            backend: "mitm",
            message: format!(
                "{f} variables are free once the forced ones are fixed, past the {MAX_FREE} that meeting in the middle enumerates (2^{} per half); use another backend",
                MAX_FREE / 2
            ),
        });
    }
    let right_len = f.div_ceil(2);
    let bytes = (size_of::<Entry>() as u64 + 4) << right_len;
    if let Some(needed) = over_limit(bytes, opts.encode.max_memory) {
        return Err(EncodeError::memory(
            "the mitm backend's table of half assignments",
            needed,
            opts.encode.max_memory,
            "",
        )
        .into());
    }
    let mut ge = r.ge.clone();
    // Sorting on the widest inequality row filters the most.
    let widest = (0..ge.len()).max_by_key(|&i| ge[i].width());
    let sorted = widest.map(|i| ge.swap_remove(i));
    let mut split = Split {
        r: &r,
        left: f - right_len,
        sorted,
        others: !ge.is_empty() || r.unsorted > 0,
        checks: 0,
        cap,
    };
    let table = split.table(&deadline);
    stats.build_ms = t0.elapsed().as_secs_f64() * 1e3;
    let t1 = Instant::now();
    let end = match table {
        None => End::Stopped,
        Some(table) => split.run(&table, &deadline, bound, found),
    };
    stats.solve_ms = t1.elapsed().as_secs_f64() * 1e3;
    stats.vars = f as u64;
    stats.clauses = (r.narrow.len() + r.whole.len()) as u64;
    stats.extra.insert(
        "mitm_halves".into(),
        format!("{} + {right_len} free variables, {} fixed", f - right_len, r.fixed).into(),
    );
    stats.extra.insert("mitm_checks".into(), split.checks.into());
    if matches!(end, End::OutOfChecks) {
        stats.extra.insert(
            "mitm".into(),
            format!("gave up after {} candidate pairs", split.checks).into(),
        );
    }
    Ok(Searched {
        end,
        stats,
        whole: r.whole_objective,
    })
}

/// `x` with the auxiliary bits `aux` of the whole rows filled in: the digit columns fix them
/// once every other variable has its value, so `sat`, with those values as assumptions, finds
/// them by propagation. A model of the rows as written always extends (`ir/digits.rs`); one
/// that does not is an internal error, never an answer.
fn fill_aux(
    formula: &PbFormula,
    aux: &[bool],
    mut x: Vec<bool>,
    opts: &SolveOptions,
) -> Result<Vec<bool>, BackendError> {
    if !aux.contains(&true) {
        return Ok(x);
    }
    let assumptions = (0..x.len())
        .filter(|&v| !aux[v])
        .map(|v| crate::ir::Lit::new(crate::ir::Var(u32::try_from(v).unwrap_or(u32::MAX)), x[v]))
        .collect();
    let o = SolveOptions {
        assumptions,
        time_limit: None,
        proof: None,
        seed: None,
        ..opts.clone()
    };
    let out = crate::sat::varisat::Varisat.solve(formula, &o)?;
    match (out.status, out.assignment) {
        (Status::Sat, Some(full)) => {
            for (v, value) in full.into_iter().enumerate() {
                if aux[v] {
                    x[v] = value;
                }
            }
            Ok(x)
        }
        (status, _) => Err(BackendError::Solver {
            backend: "mitm",
            message: format!("a model of the rows as written did not extend to their digit columns ({status:?})"),
        }),
    }
}

impl Backend for Mitm {
    fn name(&self) -> &'static str {
        "mitm"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            interrupt: true,
            assumptions: true,
            incremental: false,
            rhs_changes: false,
            proof: false,
            seed: false,
            parallel: false,
        }
    }

    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        check_caps(self.capabilities(), self.name(), opts, true)?;
        let mut model = None;
        let s = search(
            formula,
            opts,
            self.checks,
            false,
            &mut |x, _| {
                model = Some(x);
                ControlFlow::Break(())
            },
            &mut || None,
        )?;
        let status = match (&model, s.end) {
            (Some(_), _) => Status::Sat,
            (None, End::Complete) => Status::Unsat,
            (None, _) => Status::Unknown,
        };
        let model = match model {
            Some(x) => Some(fill_aux(
                formula,
                &aux_bits(formula, false, &opts.assumptions),
                x,
                opts,
            )?),
            None => None,
        };
        Ok(Outcome {
            status,
            assignment: model,
            stats: s.stats,
        })
    }

    fn optimisation(&self) -> Method {
        Method::Native
    }

    /// One pass, which keeps the best model it meets: that one goes to `improved` when the
    /// pass ends (covering every pair: then it is optimal; or stopped by the time limit or
    /// the cap). The pass takes seconds at most, and each model reported costs a `sat` solve
    /// for the auxiliary bits of wide rows (a tenth of a second on a 34-item knapsack with
    /// 100-bit weights), so the ones on the way are not reported. For a staged objective
    /// the ones on the way would not even improve the first stage's value each time.
    fn optimise_natively(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Option<Result<Optimum, BackendError>> {
        Some(self.optimise_here(formula, opts, improved))
    }
}

impl Mitm {
    /// The native way of [`Backend::optimise_natively`], which always answers.
    fn optimise_here(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Result<Optimum, BackendError> {
        check_caps(self.capabilities(), self.name(), opts, true)?;
        let best = std::cell::Cell::new(None::<i128>);
        let mut any = false;
        let with_objective = formula.objective().is_some();
        let mut kept = None;
        let mut s = search(
            formula,
            opts,
            self.checks,
            with_objective,
            &mut |x, v| {
                any = true;
                best.set(Some(v));
                kept = Some(x);
                ControlFlow::Continue(())
            },
            &mut || best.get(),
        )?;
        let complete = matches!(s.end, End::Complete);
        let mut broke = false;
        if let Some(x) = kept {
            broke = improved(&fill_aux(
                formula,
                &aux_bits(formula, with_objective, &opts.assumptions),
                x,
                opts,
            )?)
            .is_break();
        }
        s.stats.extra.insert("optimise".into(), Method::Native.name().into());
        s.stats.extra.insert("solves".into(), 1.into());
        s.stats.extra.insert("loads".into(), 1.into());
        if s.whole && complete && !broke {
            // The run path's stages are all settled by this one pass.
            s.stats.extra.insert(WHOLE_OBJECTIVE.into(), true.into());
        }
        let (status, optimal) = match (any, complete) {
            (true, true) => (Status::Sat, !broke),
            (true, false) => (Status::Sat, false),
            (false, true) => (Status::Unsat, false),
            (false, false) => (Status::Unknown, false),
        };
        if optimal {
            // Every pairing of the two halves was looked at: the enumeration is the proof.
            s.stats.basis.bound = Some(crate::Bound::Native { engine: "mitm".into() });
        }
        Ok(Optimum {
            status,
            optimal,
            stats: s.stats,
        })
    }
}

/// The key of `stats.extra` that says an optimum is proven for a staged objective as a
/// whole, not only for its first stage (`run::optimise` then runs no later stage).
pub const WHOLE_OBJECTIVE: &str = "objective_whole";

/// The candidate checks `auto` allows this engine before it hands the formula on: about a
/// third of a second on a 36-variable set cover with 40 clauses (a check evaluates every
/// row). Formulas this engine is meant for need a handful (key collisions only).
pub const AUTO_CHECKS: u64 = 1 << 16;

/// The most variables of a formula `auto` offers this engine (forced ones included, the
/// auxiliary bits of wide rows not): past this, fixing the forced variables would rarely
/// leave 44.
pub const AUTO_VARS: u32 = 400;

/// Whether `auto` offers `f` to this engine first: few variables, no seed or proof asked for
/// (this engine takes neither), and an equality row to key on, or an objective (a knapsack's
/// capacity row is sorted on, and the best of each prefix comes without a check).
fn offered(f: &PbFormula, opts: &SolveOptions, objective: bool) -> bool {
    let keyed = || {
        f.constraints()
            .iter()
            .any(|(_, c)| matches!(c, crate::ir::Constraint::Linear(l) if l.cmp == Cmp::Eq))
    };
    // The auxiliary bits of wide rows are never enumerated: they do not count.
    let aux: u32 = f.wide_rows().iter().map(|w| w.aux.end - w.aux.start).sum();
    f.num_vars().saturating_sub(aux) <= AUTO_VARS
        && opts.seed.is_none()
        && opts.proof.is_none()
        && ((objective && f.objective().is_some()) || keyed())
}

/// `auto`'s first attempt at a decision: this engine's answer when it decided (or the time
/// limit passed), `None` when it was not offered the formula, refused it or gave up.
pub fn first_try(f: &PbFormula, opts: &SolveOptions) -> Result<Option<Outcome>, BackendError> {
    if !offered(f, opts, false) {
        return Ok(None);
    }
    match (Mitm {
        checks: Some(AUTO_CHECKS),
    })
    .solve(f, opts)
    {
        Ok(out) if out.status != Status::Unknown || opts.deadline().passed() => Ok(Some(out)),
        Ok(_) => Ok(None),
        Err(e) if e.is_refusal() => Ok(None),
        Err(e) => Err(e),
    }
}

/// `auto`'s first attempt at an optimum: when this engine covers every pair, its optimum
/// goes to `improved` (the one model it reports) and is proven; `None` when it was not
/// offered the formula, refused it or did not finish, and then nothing went to `improved`.
pub fn first_optimum(
    f: &PbFormula,
    opts: &SolveOptions,
    improved: &mut Improved<'_>,
) -> Result<Option<Optimum>, BackendError> {
    if !offered(f, opts, true) {
        return Ok(None);
    }
    let mut best = None;
    let o = match (Mitm {
        checks: Some(AUTO_CHECKS),
    })
    .optimise(f, opts, &mut |a: &[bool]| {
        best = Some(a.to_vec());
        ControlFlow::Continue(())
    }) {
        Ok(o) => o,
        Err(e) if e.is_refusal() => return Ok(None),
        Err(e) => return Err(e),
    };
    match (o.status, best) {
        (Status::Sat, Some(a)) if o.optimal => {
            let optimal = improved(&a).is_continue();
            Ok(Some(Optimum { optimal, ..o }))
        }
        (Status::Unsat, _) => Ok(Some(o)),
        _ => Ok(None),
    }
}

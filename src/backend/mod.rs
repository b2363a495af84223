//! Solver backends. Each reads the pseudo-Boolean IR ([`PbFormula`]) and nothing else;
//! every backend declares what it can do in [`Capabilities`].

// Every narrowing of a number is a checked conversion here (Cargo.toml's [lints] says why).
#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

pub mod basis;
#[cfg(feature = "cadical")]
pub mod cadical;
pub mod cp;
pub mod engines;
pub mod enumerate;
#[cfg(any(feature = "mip", feature = "highs"))]
pub mod helper;
#[cfg(feature = "highs")]
pub mod highs;
#[cfg(test)]
pub(crate) mod liar;
#[cfg(any(feature = "mip", feature = "highs"))]
pub mod mip;
#[cfg(any(feature = "mip", feature = "highs"))]
mod mip_cardinality;
#[cfg(any(feature = "mip", feature = "highs"))]
mod mip_guide;
#[cfg(any(feature = "mip", feature = "highs"))]
mod mip_rows;
#[cfg(any(feature = "mip", feature = "highs"))]
mod mip_settings;
pub mod mitm;
pub mod optimise;
pub mod portfolio;
mod registry;
pub mod search;
pub mod searching;
mod session;
pub mod varisat;
#[cfg(any(feature = "mip", feature = "highs"))]
mod wide_objective;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::encode::EncodeOptions;
use crate::ir::{PbFormula, Projection};

pub use crate::budget::{Deadline, Waited, memory};
pub use crate::ir::Status;
pub use basis::{Basis, Bound, Contradiction, Fault};
pub use enumerate::{Ended, Enumeration, Found, Visit};
pub use optimise::{Improved, Method, Optimum};
pub use portfolio::auto;
pub use registry::{SPECIALISED, UnknownBackend, available, by_name, general, lookup, supporting};
pub use session::{Resolving, Session};

/// What a backend supports. Asking for an unsupported feature is an error, never silently
/// ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Capabilities {
    pub time_limit: bool,
    pub interrupt: bool,
    /// A plain solve honours [`SolveOptions::assumptions`]. (Every [`Session`] takes
    /// assumptions; without this flag they go in as unit clauses for one solve.)
    pub assumptions: bool,
    /// [`Backend::session`] is native: the solver is loaded once and keeps what it learnt
    /// (learnt clauses, saved phases) from one solve to the next. Without it a session
    /// re-solves a copy of the formula from scratch each time ([`Resolving`]). A change a
    /// native session cannot make in place re-loads its solver, which is correct but forgets
    /// what was learnt: a right-hand side without `rhs_changes`, and for `search` an added
    /// clause (its tables are built once per formula).
    pub incremental: bool,
    /// A session changes right-hand sides ([`Session::set_rhs`]) in the loaded solver.
    /// Without it a new right-hand side means loading the formula again (for a CNF backend,
    /// re-encoding it: a row's clauses depend on its right-hand side).
    pub rhs_changes: bool,
    pub proof: bool,
    pub seed: bool,
    /// `solve --all --jobs N` above 1 splits the enumeration over threads (see
    /// [`Backend::parallel`]).
    pub parallel: bool,
}

#[derive(Debug, Clone, Default)]
pub struct SolveOptions {
    /// Past this the answer is `unknown`. It counts from `started`, so that everything a
    /// command does (reading, presolve, building the solver's model) counts against it.
    pub time_limit: Option<Duration>,
    /// When the time limit began counting; `None`: when the backend starts.
    /// [`SolveOptions::clock_started`] sets it where a pipeline begins.
    pub started: Option<Instant>,
    /// Set to true (from another thread or a signal handler) to stop the search.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Literals assumed true for this call only.
    pub assumptions: Vec<crate::ir::Lit>,
    /// Write a DRAT proof of unsatisfiability here.
    pub proof: Option<PathBuf>,
    pub seed: Option<u64>,
    pub encode: EncodeOptions,
    /// Which of CBC's settings the `mip` backend uses on a feasibility problem (other
    /// backends ignore it).
    pub mip: MipSettings,
    /// The `mip` backend's helper program, `sokuc-cbc` (`None`: beside the running
    /// executable, where `cargo install` puts it).
    pub mip_helper: Option<PathBuf>,
    /// The `highs` backend's helper program, `sokuc-highs` (`None`: beside the running
    /// executable).
    pub highs_helper: Option<PathBuf>,
    /// Where `auto` marks the engines it runs, for a caller that says which engine is
    /// searching on a long run (see [`searching`]); `None`: nobody asks.
    pub searching: Option<searching::Searching>,
}

/// Settings for tuning experiments, as `name=value,...` lists: `cp` takes
/// `order=smallest-domain|first-fail|activity`, `value=random|min`,
/// `restarts=luby|pumpkin|never`, `restart-base=N`, `minimise=iterative|recursive|both|none`,
/// `counts=labels|rows`, `hall=on|off`; `cadical` takes CaDiCaL's own options
/// (`name=integer`). They change how an engine searches, never what its answers mean. The
/// CLI sets them from `SOKUC_CP_OPTS` and `SOKUC_CADICAL_OPTS`, and says so on stderr.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tuning {
    pub cp: Option<String>,
    pub cadical: Option<String>,
}

static TUNING: std::sync::RwLock<Option<Tuning>> = std::sync::RwLock::new(None);

/// Sets the tuning for every solve from now on, in this process.
pub fn set_tuning(t: Tuning) {
    *TUNING.write().unwrap_or_else(|e| e.into_inner()) = Some(t);
}

/// The tuning [`set_tuning`] set (none by default).
pub fn tuning() -> Tuning {
    TUNING
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_default()
}

/// CBC's settings for a feasibility problem on the `mip` backend (an objective always gets
/// CBC's defaults). Every setting is one the differential suite on MIPLIB's 0/1 problems
/// runs (`tests/miplib.rs`), so that a tuning change cannot bring back a wrong verdict
/// unseen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MipSettings {
    /// The light settings for about a second, then CBC's defaults for the time left.
    #[default]
    Staged,
    /// No strong branching, primal heuristics or cuts, until the deadline.
    Light,
    /// CBC's defaults, until the deadline.
    Full,
}

impl SolveOptions {
    /// The deadline of `time_limit`, counted from `started` (or from now), with the
    /// interrupt flag.
    pub fn deadline(&self) -> Deadline {
        Deadline::counted_from(
            self.started.unwrap_or_else(Instant::now),
            self.time_limit,
            self.interrupt.clone(),
        )
    }

    /// These options with the clock running from now, unless it already runs: pipelines
    /// call this first, so presolve and model building count against the time limit.
    pub fn clock_started(&self) -> SolveOptions {
        let mut o = self.clone();
        o.started.get_or_insert_with(Instant::now);
        o
    }
}

/// A backend's answer. `assignment` covers the formula's variables (primary ones only).
#[derive(Debug, Clone)]
pub struct Outcome {
    pub status: Status,
    pub assignment: Option<Vec<bool>>,
    pub stats: SolveStats,
}

impl Outcome {
    /// No answer: the time limit passed (or an interrupt came) before the solver could
    /// answer, possibly while its model was still being built.
    pub fn unknown(stats: SolveStats) -> Outcome {
        Outcome {
            status: Status::Unknown,
            assignment: None,
            stats,
        }
    }
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct SolveStats {
    /// Size of the model the solver saw (CNF variables/clauses, or rows/columns).
    pub vars: u64,
    pub clauses: u64,
    pub build_ms: f64,
    pub solve_ms: f64,
    /// Solver-specific counters.
    pub extra: BTreeMap<String, serde_json::Value>,
    /// What backs the outcome's claims, as the engines say it: for the run path's gate,
    /// never printed as it stands (see [`basis`]). Boxed: statistics travel inside the
    /// messages of every engine's worker, and most outcomes carry nothing here.
    #[serde(skip)]
    pub basis: Box<Basis>,
}

#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    #[error("backend {backend} does not support {feature}")]
    Unsupported {
        backend: &'static str,
        feature: &'static str,
    },
    #[error("{backend}: {message}")]
    Solver { backend: &'static str, message: String },
    /// The backend's solver library is missing or cannot be loaded (the user's to fix: the
    /// message says how).
    #[error("{backend}: {message}")]
    Unavailable { backend: &'static str, message: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The model is too large for this backend's encoding or for the memory limit (a
    /// resource limit, not a bug).
    #[error(transparent)]
    Encode(#[from] crate::encode::EncodeError),
}

impl BackendError {
    /// A refusal of this formula by one engine (its encoding past the clause budget or the
    /// memory limit, a row past its numbers), which another engine may not share: `auto`
    /// refuses only what no engine of this build can do, and `mitm`'s first try hands such a
    /// formula on.
    pub fn is_refusal(&self) -> bool {
        matches!(self, BackendError::Encode(_) | BackendError::Unavailable { .. })
    }
}

/// See [`Backend::parallel`].
#[derive(Debug, Clone, PartialEq)]
pub enum Parallel {
    /// `probe_ms`: what deciding took (`auto`'s probe), counted as building.
    Split {
        note: Option<String>,
        probe_ms: f64,
    },
    OneThread,
}

pub trait Backend {
    fn name(&self) -> &'static str;
    /// The engine that gave the last answer: the backend itself, except for `auto`, which
    /// hands each formula to one of the others.
    fn answered_by(&self) -> &'static str {
        self.name()
    }
    fn capabilities(&self) -> Capabilities;
    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError>;

    /// A cheap first attempt, made before the run path spends anything on arguments that
    /// only pay on hard instances (the LP relaxation, `--lp auto`): `Some` answer when it
    /// answered (or the time limit passed), `None` when it gave up or has no such attempt
    /// (the default). `auto` runs `search` with a small failure budget here.
    fn try_quickly(&mut self, _formula: &PbFormula, _opts: &SolveOptions) -> Result<Option<Outcome>, BackendError> {
        Ok(None)
    }

    /// Rejects options this backend cannot honour.
    fn check_options(&self, opts: &SolveOptions) -> Result<(), BackendError> {
        check_caps(self.capabilities(), self.name(), opts, true)
    }

    /// Every solution of `formula`, told apart by `projection` (answers that agree on the
    /// primary variables are one solution): each goes to `visit` as it is found, until the
    /// solutions run out ([`Ended::Complete`]), `visit` returns `Break`, or the deadline of
    /// `opts` passes. The default solves, blocks the answer's projection and solves again
    /// ([`enumerate::by_blocking`]: in one session on incremental backends); `search`
    /// walks its tree natively.
    fn enumerate(
        &mut self,
        formula: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, BackendError> {
        enumerate::by_blocking(self, formula, projection, opts, visit)
    }

    /// How many bits of an objective too wide for 64 bits this backend minimises at a time
    /// (the width of a stage, see [`crate::ir::Staged`]): 61 by default, the most an
    /// objective sum holds; narrower where the engine's numbers or encodings want it.
    fn objective_stage_bits(&self) -> u32 {
        61
    }

    /// How [`Backend::optimise`] works on this backend (see [`Method`]): by default with the
    /// objective bound under assumptions on backends whose sessions keep their solver loaded
    /// but re-load for a new right-hand side (the CNF backends), else with a bound row.
    fn optimisation(&self) -> Method {
        let caps = self.capabilities();
        if caps.incremental && !caps.rhs_changes {
            Method::Assumptions
        } else {
            Method::Rhs
        }
    }

    /// The best solution of `formula` by its objective (a plain solve without one): each
    /// improving model goes to `improved` as it is found, and `Break` from it stops the
    /// search. The default goes by [`Backend::optimisation`] ([`optimise::by_sessions`]);
    /// backends that optimise natively override it.
    fn optimise(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Result<Optimum, BackendError> {
        optimise::by_sessions(self, formula, opts, improved)
    }

    /// How `solve --all --jobs N` (N above 1) enumerates `formula`, for a backend with
    /// [`Capabilities::parallel`]: split over threads by the search engine, with a note for
    /// the answer's `stats.extra.auto`, or on one thread by [`Backend::enumerate`]. The
    /// default refuses; `search` always splits; `auto` splits where it would enumerate on
    /// search and decides this (and [`Backend::answered_by`]) as its `enumerate` would.
    fn parallel(&mut self, _formula: &PbFormula, _opts: &SolveOptions) -> Result<Parallel, BackendError> {
        Err(BackendError::Unsupported {
            backend: self.name(),
            feature: feature::PARALLEL,
        })
    }

    /// Loads `formula` for many solves (see [`Session`]). `opts` are those of loading: the
    /// time limit, interrupt and memory limit of building the solver's model, and the
    /// encoding; each solve brings its own. The default re-solves a copy with
    /// [`Backend::solve`] every time ([`Resolving`]), which is right for every backend;
    /// backends with [`Capabilities::incremental`] keep their solver loaded instead.
    fn session(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Box<dyn Session + '_>, BackendError> {
        session::check_open_options(self.capabilities(), self.name(), opts)?;
        Ok(Box::new(Resolving::new(self, formula)))
    }
}

/// Rejects options a backend with `caps` cannot honour (assumptions only if
/// `with_assumptions`: sessions take them from every backend).
pub(crate) fn check_caps(
    caps: Capabilities,
    backend: &'static str,
    opts: &SolveOptions,
    with_assumptions: bool,
) -> Result<(), BackendError> {
    let missing = [
        (opts.time_limit.is_some() && !caps.time_limit, feature::TIME_LIMIT),
        (opts.interrupt.is_some() && !caps.interrupt, feature::INTERRUPT),
        (
            with_assumptions && !opts.assumptions.is_empty() && !caps.assumptions,
            feature::ASSUMPTIONS,
        ),
        (opts.proof.is_some() && !caps.proof, feature::PROOF),
        // A seed the backend cannot use would make a run look reproducible when it is not.
        (opts.seed.is_some() && !caps.seed, feature::SEED),
    ];
    match missing.iter().find(|(m, _)| *m) {
        Some(&(_, feature)) => Err(BackendError::Unsupported { backend, feature }),
        None => Ok(()),
    }
}

/// The features a backend may lack, as [`BackendError::Unsupported`] names them.
pub mod feature {
    pub const TIME_LIMIT: &str = "time limits";
    pub const INTERRUPT: &str = "interrupts";
    pub const ASSUMPTIONS: &str = "assumptions";
    pub const PROOF: &str = "DRAT proofs";
    pub const SEED: &str = "a random seed";
    /// `solve --all --jobs N` above 1: `search` splits its walk ([`super::search::jobs`]), and
    /// `auto` where it would enumerate on search.
    pub const PARALLEL: &str = "parallel enumeration";
}

impl Capabilities {
    /// Whether these capabilities include `feature` (one of [`feature`]'s names).
    pub fn has(&self, name: &str) -> bool {
        match name {
            feature::TIME_LIMIT => self.time_limit,
            feature::INTERRUPT => self.interrupt,
            feature::ASSUMPTIONS => self.assumptions,
            feature::PROOF => self.proof,
            feature::SEED => self.seed,
            feature::PARALLEL => self.parallel,
            _ => false,
        }
    }
}

/// The width (sum of |coefficient| plus |rhs|) from which `cp` refuses a row:
/// pumpkin's integers are `i32`, and half of 2^31 keeps partial sums off the edge.
pub const CP_ROW_LIMIT: u128 = 1 << 30;

/// The width from which `mip` always writes a row as digit columns (and `auto` keeps the
/// formula off `mip`, on which such columns are slow).
///
/// CBC computes in `f64` with tolerances: a binary within 10^-6 of 0 or 1 counts as
/// integral, and a row may be off by about 10^-6 of its scale. Rounding such a point to 0/1
/// moves a row of width `w` by up to about `w * 10^-6`; rows are integral, so below a drift
/// of 1 the rounded model is exact. tests/wide_rows.rs found CBC models breaking rows by a
/// whole unit from widths of 4 * 10^6, and a one-term row `(2^20 - 2) x = 1` that CBC
/// "satisfied" with `x` within 10^-6 of 0. Tolerances only let more points in, so CBC's
/// "infeasible" (asked twice, see `mip.rs`) and its bound hold whatever the width; only its
/// model may break a wide row. So rows between [`MIP_EXACT_ROW_LIMIT`] and this limit go to
/// CBC whole (they are common: MIPLIB's mod008 has five, and splitting them makes CBC 90
/// times slower there), and the model CBC returns is checked against them exactly; if one
/// breaks, CBC solves again with those rows as digit columns too. Wider rows do not go to
/// CBC whole: with a row of width 2^28 (two variables), CBC's library ended its process
/// without an answer (tests/wide_rows.rs).
pub const MIP_ROW_LIMIT_BITS: u32 = 20;
/// `2^MIP_ROW_LIMIT_BITS`.
pub const MIP_ROW_LIMIT: u128 = 1 << MIP_ROW_LIMIT_BITS;

/// [`MIP_ROW_LIMIT`] for `highs`: HiGHS gets rows whole up to 2^32, with the same exact
/// check of its model and the same second solve if the model breaks one. Whole rows are
/// what a MIP solver's relaxation is good at: as decision problems (`objective <= v`),
/// MIPLIB's air03 and mitre have one row past 2^22, with which HiGHS settles them in
/// 1.5-4 s whole and not within 5 s as digit columns. Past 2^32 the drift reaches
/// thousands of units, so such rows start as digit columns.
pub const HIGHS_ROW_LIMIT_BITS: u32 = 32;
/// `2^HIGHS_ROW_LIMIT_BITS`.
pub const HIGHS_ROW_LIMIT: u128 = 1 << HIGHS_ROW_LIMIT_BITS;
/// The width below which a row the solver gets whole is exact: its drift is at most 0.27.
pub const MIP_EXACT_ROW_LIMIT: u128 = 1 << 18;

/// The width from which `mip` and `highs` no longer take the solver's word for an optimum.
///
/// Below it the model is exact (checked, see [`MIP_ROW_LIMIT`]), and sokuc reads the
/// objective off the rounded model. Rounding moves the objective by at most `w * 10^-6`
/// (the integrality tolerance), and the solver may stop with its incumbent up to an
/// absolute gap of 1/2 above its bound (CBC's `allowableGap`; HiGHS's pruning at
/// `floor(ub - 1/2)`, see `mip_settings.rs`): the optimum it found is exact only while gap
/// plus drift is below the 1 that separates integral objectives. At 2^18 that is
/// 0.5 + 0.27 = 0.77; at 2^19, the limit before, 0.5 + 0.53 left room for an optimum 1 too
/// high from a width of 5 * 10^5. From here on the solver's objective only guides it to good
/// solutions, and each optimum is proven by HiGHS's dual bound judged on the exact value, or
/// by refuting "objective <= value - 1" as a row, which `mip` writes in digit columns like
/// any wide row (`wide_objective.rs`).
pub const MIP_OBJECTIVE_LIMIT_BITS: u32 = 18;
/// `2^MIP_OBJECTIVE_LIMIT_BITS`.
pub const MIP_OBJECTIVE_LIMIT: u128 = 1 << MIP_OBJECTIVE_LIMIT_BITS;

/// The first row (by label) whose coefficients and right-hand side add up to `limit` or more,
/// an implied `SumOf` counting the rows it adds: backends whose numbers are narrower than the
/// IR's `i64` (pumpkin's `i32`, CBC's `f64`) refuse such a formula rather than let a row
/// wrap or round into a wrong answer.
pub fn row_at_least(f: &PbFormula, limit: u128) -> Option<(&str, u128)> {
    let width = |c: &crate::ir::Constraint| -> u128 {
        match c {
            crate::ir::Constraint::Linear(l) => {
                l.terms.iter().map(|&(c, _)| c.unsigned_abs() as u128).sum::<u128>() + l.rhs.unsigned_abs() as u128
            }
            _ => 0,
        }
    };
    f.constraints.iter().find_map(|(label, c)| {
        let w = match c {
            crate::ir::Constraint::SumOf { parts, rhs, .. } => {
                parts
                    .iter()
                    .map(|&p| f.constraints.get(p).map_or(0, |(_, c)| width(c)))
                    .sum::<u128>()
                    + rhs.unsigned_abs() as u128
            }
            other => width(other),
        };
        (w >= limit).then_some((label.as_str(), w))
    })
}

/// What `mip` cannot take as it is: the first row (which it splits into digit columns, slow
/// on CBC) whose width reaches [`MIP_ROW_LIMIT`]. (A wide objective it takes: see
/// [`MIP_OBJECTIVE_LIMIT`].)
pub fn too_wide_for_mip(f: &PbFormula) -> Option<(String, u128)> {
    row_at_least(f, MIP_ROW_LIMIT).map(|(label, w)| (format!("constraint \"{label}\""), w))
}

/// What backend `name` cannot take as it is: `mip` a row past [`MIP_ROW_LIMIT`] (see
/// [`too_wide_for_mip`]), `highs` one past [`HIGHS_ROW_LIMIT`], `cp` a row or an objective
/// past [`CP_ROW_LIMIT`] (it bounds the objective with a row); the others take any width.
/// (`mip` and `highs` take an objective of any 64-bit width: see `wide_objective.rs`.)
pub(crate) fn too_wide_for(name: &str, f: &PbFormula) -> Option<(String, u128)> {
    let row = |limit| row_at_least(f, limit).map(|(label, w)| (format!("constraint \"{label}\""), w));
    match name {
        "mip" => too_wide_for_mip(f),
        "highs" => row(HIGHS_ROW_LIMIT),
        "cp" => row(CP_ROW_LIMIT).or_else(|| {
            let w = f
                .objective()?
                .iter()
                .map(|t| u128::from(t.0.unsigned_abs()))
                .sum::<u128>();
            (w >= CP_ROW_LIMIT).then(|| ("the objective".to_string(), w))
        }),
        _ => None,
    }
}

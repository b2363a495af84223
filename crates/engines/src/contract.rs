//! What every backend speaks: the [`Backend`] trait, its options ([`SolveOptions`]) and
//! answers ([`Outcome`], [`Enumeration`], [`Optimum`], [`Session`]), and what it declares it
//! can do ([`Capabilities`]). Each backend reads the pseudo-Boolean IR (`PbFormula`) and
//! nothing else. Nothing here knows an engine or an algorithm: engines implement the trait,
//! and `backend::algorithms` builds enumeration, optimisation and sessions on it.

// Every narrowing of a number is a checked conversion here (Cargo.toml's [lints] says why).
#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::encode::EncodeOptions;
use crate::ir::{Lit, PbFormula, Projection, Status};

use crate::basis::Basis;
use crate::budget::Deadline;
use crate::searching;

/// What a backend supports. Asking for an unsupported feature is an error, never silently
/// ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Capabilities {
    pub time_limit: bool,
    pub interrupt: bool,
    /// A plain solve honours [`SolveOptions::assumptions`]. (Every [`Session`] takes
    /// assumptions; without this flag they go in as unit clauses for one solve.)
    pub assumptions: bool,
    /// [`Backend::session_natively`] works: the solver is loaded once and keeps what it learnt
    /// (learnt clauses, saved phases) from one solve to the next. Without it a session
    /// re-solves a copy of the formula from scratch each time (`backend::algorithms`). A change a
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
    pub assumptions: Vec<Lit>,
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
    /// Tuning experiments for the engines that take them (none by default). They travel with
    /// the options, so every solve of a command gets the caller's and no other.
    pub tuning: Tuning,
}

/// Settings for tuning experiments, as `name=value,...` lists: `cp` takes
/// `order=smallest-domain|first-fail|activity`, `value=random|min`,
/// `restarts=luby|pumpkin|never`, `restart-base=N`, `minimise=iterative|recursive|both|none`,
/// `counts=labels|rows`, `hall=on|off`; `cadical` takes CaDiCaL's own options
/// (`name=integer`). They change how an engine searches, never what its answers mean. They
/// are part of [`SolveOptions`] (no process-wide setting): the CLI reads them from
/// `SOKUC_CP_OPTS` and `SOKUC_CADICAL_OPTS` into the options of each solve it starts, and
/// says so on stderr.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tuning {
    pub cp: Option<String>,
    pub cadical: Option<String>,
}

/// CBC's settings for a feasibility problem on the `mip` backend (an objective always gets
/// CBC's defaults). Every setting is one the differential suite on MIPLIB's 0/1 problems
/// runs (`tests/miplib.rs`), so that a tuning change cannot bring back a wrong verdict
/// unseen.
#[non_exhaustive]
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
    /// never printed as it stands (see [`crate::basis`]). Boxed: statistics travel inside the
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
    /// A tuning list ([`Tuning`]) the engine cannot read: the user's to fix, named by the
    /// list (`SOKUC_CP_OPTS`, `SOKUC_CADICAL_OPTS`, the variables the CLI reads them from).
    #[error("{list}: {message}")]
    Tuning { list: &'static str, message: String },
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

    /// This backend's own way to enumerate every solution of `formula`, told apart by
    /// `projection` (answers that agree on the primary variables are one solution): each goes
    /// to `visit` as it is found, until the solutions run out ([`Ended::Complete`]), `visit`
    /// returns `Break`, or the deadline of `opts` passes. `None` (the default): the backend
    /// has none, and enumerating goes the generic way, by blocking each answer and solving
    /// again (`backend::algorithms`); `search` walks its tree natively.
    fn enumerate_natively(
        &mut self,
        _formula: &PbFormula,
        _projection: &Projection,
        _opts: &SolveOptions,
        _visit: &mut Visit<'_>,
    ) -> Option<Result<Enumeration, BackendError>> {
        None
    }

    /// How many bits of an objective too wide for 64 bits this backend minimises at a time
    /// (the width of a stage, see `crate::ir::Staged`): 61 by default, the most an
    /// objective sum holds; narrower where the engine's numbers or encodings want it.
    fn objective_stage_bits(&self) -> u32 {
        61
    }

    /// How `crate::Algorithms::optimise` works on this backend (see [`Method`]): by default with the
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

    /// This backend's own way to the best solution of `formula` by its objective: each
    /// improving model goes to `improved` as it is found, and `Break` from it stops the
    /// search. `None` (the default): optimising goes by [`Backend::optimisation`], the
    /// generic way (`backend::algorithms`); backends that optimise natively answer here.
    fn optimise_natively(
        &mut self,
        _formula: &PbFormula,
        _opts: &SolveOptions,
        _improved: &mut Improved<'_>,
    ) -> Option<Result<Optimum, BackendError>> {
        None
    }

    /// How `solve --all --jobs N` (N above 1) enumerates `formula`, for a backend with
    /// [`Capabilities::parallel`]: split over threads by the search engine, with a note for
    /// the answer's `stats.extra.auto`, or on one thread by `crate::Algorithms::enumerate`. The
    /// default refuses; `search` always splits; `auto` splits where it would enumerate on
    /// search and decides this (and [`Backend::answered_by`]) as its `enumerate` would.
    fn parallel(&mut self, _formula: &PbFormula, _opts: &SolveOptions) -> Result<Parallel, BackendError> {
        Err(BackendError::Unsupported {
            backend: self.name(),
            feature: feature::PARALLEL,
        })
    }

    /// Whether this backend has sessions of its own ([`Backend::session_natively`]). Without
    /// (the default), a session re-solves a copy of the formula each time
    /// (`backend::algorithms`), which is right for every backend, whatever it declares in
    /// [`Capabilities`]. A question of its own, not an `Option` from
    /// [`Backend::session_natively`] as the other native hooks answer: the session borrows
    /// `self`, and the borrow checker would hold that borrow over the fallback too.
    fn has_native_session(&self) -> bool {
        false
    }

    /// Loads `formula` for many solves (see [`Session`]) into this backend's solver, on a
    /// backend that [`Backend::has_native_session`]. `opts` are those of loading: the time limit,
    /// interrupt and memory limit of building the solver's model, and the encoding; each
    /// solve brings its own. The default refuses: it is called only where
    /// [`Backend::has_native_session`] says there is one.
    fn session_natively(
        &mut self,
        _formula: &PbFormula,
        _opts: &SolveOptions,
    ) -> Result<Box<dyn Session + '_>, BackendError> {
        Err(BackendError::Unsupported {
            backend: self.name(),
            feature: "sessions of its own",
        })
    }
}

// A backend shows as its name: the portfolio's values hold engines as `Box<dyn Backend>`, and
// an engine's own state (a solver's clause database) is nothing to print.
impl std::fmt::Debug for dyn Backend + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Rejects options a backend with `caps` cannot honour (assumptions only if
/// `with_assumptions`: sessions take them from every backend).
pub fn check_caps(
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
    /// `solve --all --jobs N` above 1: `search` splits its walk ([`crate::search::jobs`]), and
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

/// How an enumeration ended.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every solution was reported (the formula with them all blocked is unsatisfiable).
    Complete,
    /// The visitor asked to stop (`--limit`, or a closed output).
    Stopped,
    /// The time limit passed, or an interrupt came, first.
    Unknown,
}

/// What an enumeration reports besides the solutions handed to the visitor.
#[derive(Debug, Clone)]
pub struct Enumeration {
    pub ended: Ended,
    /// The model's size as the solver saw it, and the time of loading it (`build_ms`) and of
    /// the whole walk (`solve_ms`, including the visitor's time).
    pub stats: SolveStats,
}

/// One solution as the visitor is given it.
#[derive(Debug, Clone, Copy)]
pub struct Found<'a> {
    /// A full assignment of the formula's variables.
    pub assignment: &'a [bool],
    /// The engine that found it (for `auto`, the one it picked).
    pub engine: &'static str,
}

/// What is called with each solution; it returns `Break` to stop.
pub type Visit<'a> = dyn FnMut(Found<'_>) -> ControlFlow<()> + 'a;

/// How a backend optimises (what [`Backend::optimisation`] declares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// One run of the solver's own optimisation proves the optimum.
    Native,
    /// A session holds the formula and the objective bound `objective - lo <= B` with `B`
    /// a binary number of fresh variables, encoded once; each bound is a set of assumptions
    /// fixing `B`'s bits, so what the solver learnt stays from one bound to the next.
    Assumptions,
    /// A session holds the formula and a bound row `objective <= v`, whose right-hand side
    /// is tightened after each solution ([`crate::Session::set_rhs`]).
    Rhs,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Native => "native",
            Method::Assumptions => "assumptions",
            Method::Rhs => "rhs",
        }
    }
}

/// Called with each model a backend finds (an assignment of the formula's variables), each
/// meant to be strictly better than the one before. `Break` stops the search (the caller
/// found the model wrong, or wants no more).
pub type Improved<'a> = dyn FnMut(&[bool]) -> ControlFlow<()> + 'a;

/// How an optimisation ended.
#[derive(Debug, Clone)]
pub struct Optimum {
    /// `Sat`: at least one model went to the callback (the last is the best); `Unsat`: there
    /// is no solution; `Unknown`: none was found in time.
    pub status: Status,
    /// The last model is proven optimal.
    pub optimal: bool,
    /// Every solve's sizes and times added up; `extra.optimise` names the [`Method`] used
    /// and `extra.solves` counts the solver calls, `extra.loads` the models built.
    pub stats: SolveStats,
}

/// A formula loaded into a solver once and solved many times.
pub trait Session {
    /// New right-hand side for linear row `row` (index into the formula's constraints; a
    /// `Constraint::Linear` or `Constraint::SumOf`); it holds for every later solve.
    fn set_rhs(&mut self, row: usize, rhs: i64) -> Result<(), BackendError>;
    /// A clause that holds for every later solve (e.g. a no-good excluding an answer).
    fn add_clause(&mut self, lits: &[Lit]) -> Result<(), BackendError>;
    /// Solves under `assumptions` (true for this call only, together with
    /// `opts.assumptions`); `opts` give the time limit, interrupt and seed. The assignment
    /// covers the formula's variables.
    fn solve(&mut self, assumptions: &[Lit], opts: &SolveOptions) -> Result<Outcome, BackendError>;
    /// Forgets guesses carried from earlier solves (the sweep does this at each block start,
    /// so that an answer depends only on its block).
    fn forget_phases(&mut self) {}
}

/// The options a session's solve cannot honour. Assumptions are not among them: every
/// session takes them. A proof would have to cover every solve of the session, which no
/// backend's proof format can (varisat's DRAT writer cannot even express assumptions).
pub fn check_session_options(
    caps: Capabilities,
    backend: &'static str,
    opts: &SolveOptions,
) -> Result<(), BackendError> {
    if opts.proof.is_some() {
        return Err(BackendError::Unsupported {
            backend,
            feature: "proofs in a session",
        });
    }
    check_caps(caps, backend, opts, false)
}

/// The options of opening a session (`crate::Algorithms::session`): those of a solve, and no
/// assumptions (they belong to each solve).
pub fn check_open_options(caps: Capabilities, backend: &'static str, opts: &SolveOptions) -> Result<(), BackendError> {
    if !opts.assumptions.is_empty() {
        return Err(BackendError::Unsupported {
            backend,
            feature: "assumptions when opening a session (each solve takes its own)",
        });
    }
    check_session_options(caps, backend, opts)
}

/// Refuses literals of variables the formula does not have: a solver would either ignore
/// them (the search engine) or grow new variables (SAT solvers), and neither is what the
/// caller meant.
pub fn check_lits(formula: &PbFormula, lits: &[Lit], backend: &'static str) -> Result<(), BackendError> {
    match lits.iter().find(|l| l.var().0 >= formula.num_vars()) {
        Some(l) => Err(BackendError::Solver {
            backend,
            message: format!(
                "literal {} of a variable the formula does not have ({} variables)",
                l.dimacs(),
                formula.num_vars()
            ),
        }),
        None => Ok(()),
    }
}

/// Sets the right-hand side of constraint `row` in `formula` (a linear row or a `SumOf`);
/// true if it changed.
pub fn set_formula_rhs(
    formula: &mut PbFormula,
    row: usize,
    rhs: i64,
    backend: &'static str,
) -> Result<bool, BackendError> {
    let Some(old) = formula.rhs(row) else {
        return Err(BackendError::Solver {
            backend,
            message: match formula.constraints().get(row) {
                None => format!("constraint {row} does not exist"),
                Some((_, c)) => format!("constraint {row} is a {}, which has no right-hand side", c.kind()),
            },
        });
    };
    formula.set_rhs(row, rhs);
    Ok(old != rhs)
}

/// The label of clauses added through [`Session::add_clause`].
pub const ADDED: &str = "added in a session";

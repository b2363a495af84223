//! How to run: the one options struct of the facade.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::searching::Searching;
use crate::backend::MipSettings;

/// How to solve, emit or decode. Build it with [`Options::new`] and its setters:
///
/// ```
/// use std::time::Duration;
/// use sokuc::{Backend, Options};
/// let opts = Options::new().backend(Backend::Sat).timeout(Duration::from_secs(10)).unique(true);
/// assert_eq!(opts.chosen_backend(), Backend::Sat);
/// ```
#[derive(Debug, Clone)]
pub struct Options {
    pub(crate) backend: super::backend::Backend,
    pub(crate) timeout: Option<Duration>,
    pub(crate) seed: Option<u64>,
    pub(crate) unique: bool,
    pub(crate) strict: bool,
    pub(crate) presolve: bool,
    pub(crate) interrupt: Option<Arc<AtomicBool>>,
    pub(crate) mip_helper: Option<PathBuf>,
    pub(crate) highs_helper: Option<PathBuf>,
    pub(crate) max_memory: Option<u64>,
    pub(crate) encoding: super::cnf::Encoding,
    pub(crate) lp: crate::run::LpMode,
    pub(crate) max_clauses: Option<u64>,
    pub(crate) cp_tuning: Option<String>,
    pub(crate) cadical_tuning: Option<String>,
    pub(crate) started: Option<Instant>,
    pub(crate) proof: Option<PathBuf>,
    pub(crate) svg: bool,
    pub(crate) mip: MipSettings,
    pub(crate) searching: Option<Searching>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            backend: super::backend::Backend::Auto,
            timeout: None,
            seed: None,
            unique: false,
            strict: false,
            presolve: true,
            interrupt: None,
            mip_helper: None,
            highs_helper: None,
            max_memory: None,
            encoding: super::cnf::Encoding::Auto,
            lp: crate::run::LpMode::Auto,
            max_clauses: None,
            cp_tuning: None,
            cadical_tuning: None,
            started: None,
            proof: None,
            svg: false,
            mip: MipSettings::default(),
            searching: None,
        }
    }
}

impl Options {
    /// The defaults: backend `auto`, no time limit, presolve on.
    pub fn new() -> Options {
        Options::default()
    }

    /// The backend to solve on ([`Backend::Auto`](crate::Backend::Auto) by default, which
    /// picks one from the model's shape). One this build lacks
    /// ([`Backend::is_available`](crate::Backend::is_available)) makes a solve fail with an
    /// error that names the feature to build with.
    pub fn backend(mut self, backend: super::backend::Backend) -> Options {
        self.backend = backend;
        self
    }

    /// The backend as set.
    pub fn chosen_backend(&self) -> super::backend::Backend {
        self.backend
    }

    /// A time limit for the whole call, compiling included; past it the outcome is
    /// [`crate::Status::Unknown`].
    pub fn timeout(mut self, limit: Duration) -> Options {
        self.timeout = Some(limit);
        self
    }

    /// A random seed, for backends that take one (the others refuse the options).
    pub fn seed(mut self, seed: u64) -> Options {
        self.seed = Some(seed);
        self
    }

    /// After the first solution, prove it unique or find a second one
    /// ([`crate::Outcome::unique`]).
    pub fn unique(mut self, yes: bool) -> Options {
        self.unique = yes;
        self
    }

    /// Accept an unsat, optimum or uniqueness verdict only with checked evidence or a
    /// second engine's agreement (`sokuc solve --strict`): otherwise the outcome keeps the
    /// best checked solution and its status is [`crate::Status::Unknown`] (or the optimum
    /// and uniqueness are left undecided). An enumeration's end ("that is all of them") is
    /// held to it too ([`crate::Instance::enumerate`], [`crate::Model::enumerate`]); a sweep,
    /// which has no second engine to ask, refuses it ([`crate::Sweep::run`]).
    pub fn strict(mut self, yes: bool) -> Options {
        self.strict = yes;
        self
    }

    /// Whether to presolve while compiling (on by default). Off gives the plain model, which
    /// is what an external solver should be benchmarked on.
    pub fn presolve(mut self, yes: bool) -> Options {
        self.presolve = yes;
        self
    }

    /// A flag that stops the solve when another thread sets it; the outcome is then
    /// [`crate::Status::Unknown`].
    pub fn interrupt(mut self, flag: Arc<AtomicBool>) -> Options {
        self.interrupt = Some(flag);
        self
    }

    /// Where the `mip` backend's helper program `sokuc-cbc` is (by default: beside the
    /// running executable, where `cargo install` puts it).
    pub fn mip_helper(mut self, path: impl Into<PathBuf>) -> Options {
        self.mip_helper = Some(path.into());
        self
    }

    /// Where the `highs` backend's helper program `sokuc-highs` is (by default: beside the
    /// running executable, where `cargo install` puts it).
    pub fn highs_helper(mut self, path: impl Into<PathBuf>) -> Options {
        self.highs_helper = Some(path.into());
        self
    }

    /// The most memory the compiled model and the solver's tables may take, in bytes (as
    /// `--max-memory`; by default 8 GiB). Past it the solve is refused with
    /// [`crate::Error::Limit`], before the memory is taken.
    ///
    /// ```
    /// use sokuc::{Error, Instance, Options};
    ///
    /// let icosoku = Instance::icosoku("1,5,11,10,7,12,9,2,6,8,4,3")?;
    /// let refused = icosoku.solve(&Options::new().backend(sokuc::Backend::Sat).max_memory(1024));
    /// assert!(matches!(refused, Err(Error::Limit(_))));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    pub fn max_memory(mut self, bytes: u64) -> Options {
        self.max_memory = Some(bytes);
        self
    }

    /// How linear rows become clauses, for the CNF backends (`sat`, `cadical`) and the
    /// DIMACS export ([`Encoding::Auto`](crate::Encoding::Auto) by default: chosen per row
    /// from its size).
    pub fn encoding(mut self, encoding: super::cnf::Encoding) -> Options {
        self.encoding = encoding;
        self
    }

    /// Whether the model's LP relaxation is tried before the backend (as `--lp`;
    /// [`LpMode::Auto`](crate::LpMode::Auto) by default). A relaxation with no solution,
    /// checked exactly with Farkas multipliers, answers unsat with no backend run, and the
    /// claim says so.
    pub fn lp(mut self, mode: crate::run::LpMode) -> Options {
        self.lp = mode;
        self
    }

    /// The most clauses the CNF encoding may have (as `--max-clauses`;
    /// [`DEFAULT_MAX_CLAUSES`](crate::DEFAULT_MAX_CLAUSES) by default). A larger model is
    /// refused with [`crate::Error::Limit`] instead of being built.
    pub fn max_clauses(mut self, clauses: u64) -> Options {
        self.max_clauses = Some(clauses);
        self
    }

    /// A tuning experiment for the `cp` engine (pumpkin): `name=value` settings, comma
    /// separated, as the command takes them from `SOKUC_CP_OPTS` (such as
    /// `order=first-fail,restarts=luby`). Tuning changes how the engine searches, never what
    /// its answers mean; a setting the engine does not know fails the solve.
    pub fn cp_tuning(mut self, settings: impl Into<String>) -> Options {
        self.cp_tuning = Some(settings.into());
        self
    }

    /// A tuning experiment for CaDiCaL: `name=integer` options, comma separated, as the
    /// command takes them from `SOKUC_CADICAL_OPTS`; one CaDiCaL does not know fails the
    /// solve.
    pub fn cadical_tuning(mut self, settings: impl Into<String>) -> Options {
        self.cadical_tuning = Some(settings.into());
        self
    }

    /// When the time limit starts counting (by default: when the call starts). A program
    /// whose time limit covers reading the instance too gives the instant it started.
    pub fn clock_started(mut self, at: Instant) -> Options {
        self.started = Some(at);
        self
    }

    /// Write a DRAT proof of unsatisfiability to `path`, for the CNF that
    /// [`Format::Dimacs`](crate::Format::Dimacs) writes with the same options (on the `sat`
    /// and `cadical` backends; the others refuse it). The solver writes it as it searches: no
    /// file is written when the instance is refuted before any solver runs (the outcome's
    /// [`reason`](crate::Outcome::reason) says why).
    pub fn proof(mut self, path: impl Into<PathBuf>) -> Options {
        self.proof = Some(path.into());
        self
    }

    /// Also draw the answer as an SVG net of the polyhedron, the empty puzzle when there is
    /// no solution ([`Outcome::svg`](crate::Outcome::svg)); for the kinds that have a picture
    /// ([`Instance::has_picture`](crate::Instance::has_picture)), others draw nothing.
    pub fn svg(mut self, yes: bool) -> Options {
        self.svg = yes;
        self
    }

    /// CBC's settings for a feasibility problem on the `mip` backend
    /// ([`MipSettings::Staged`] by default); other backends, and problems with an objective,
    /// ignore them.
    pub fn mip_settings(mut self, settings: MipSettings) -> Options {
        self.mip = settings;
        self
    }

    /// A board the solve marks each engine on while it searches, for a caller that says
    /// which engine is searching on a long run ([`Searching`]).
    pub fn searching(mut self, board: Searching) -> Options {
        self.searching = Some(board);
        self
    }
}

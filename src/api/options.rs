//! How to run: the one options struct of the facade.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
    /// and uniqueness are left undecided).
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
}

//! The backends by type: which engine solves, and whether this build has it.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::input::InputError;

/// The engine that solves an instance or a [`crate::Model`].
///
/// Every variant exists in every build, so that a program names the backend it wants
/// whatever the features it was built with; [`Backend::is_available`] says whether this build
/// has it, and solving on one it lacks is an [`Error::Input`] that names the cargo feature
/// to build with.
///
/// ```
/// use sokuc::Backend;
///
/// assert!(Backend::Sat.is_available());
/// assert_eq!("cp".parse::<Backend>()?, Backend::Cp);
/// assert_eq!(Backend::Cadical.name(), "cadical");
/// assert!(Backend::available().contains(&Backend::Search));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Backend {
    /// Picks an engine from the model's shape, races engines where that pays, and has a
    /// second engine confirm an optimum.
    #[default]
    Auto,
    /// varisat, a CDCL SAT solver in pure Rust, on the CNF encoding.
    Sat,
    /// CaDiCaL, in-process, on the CNF encoding (feature `cadical`).
    Cadical,
    /// CBC, the MIP solver, on the linear model (feature `mip`; runs in the helper program
    /// `sokuc-cbc`).
    Mip,
    /// HiGHS, the MIP solver, on the linear model (feature `highs`; runs in the helper
    /// program `sokuc-highs`).
    Highs,
    /// pumpkin, a lazy-clause-generation constraint solver, on the model's rows as written.
    Cp,
    /// Meet in the middle: enumerates two halves of the variables; for small models only.
    Mitm,
    /// sokuc's own depth-first search with propagation on the rows.
    Search,
}

impl Backend {
    /// Every backend, available in this build or not, `Auto` first.
    pub const ALL: [Backend; 8] = [
        Backend::Auto,
        Backend::Sat,
        Backend::Cadical,
        Backend::Mip,
        Backend::Highs,
        Backend::Cp,
        Backend::Mitm,
        Backend::Search,
    ];

    /// The name the command line's `--backend` takes.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Sat => "sat",
            Backend::Cadical => "cadical",
            Backend::Mip => "mip",
            Backend::Highs => "highs",
            Backend::Cp => "cp",
            Backend::Mitm => "mitm",
            Backend::Search => "search",
        }
    }

    /// Whether this build has the backend (`Auto` always).
    pub fn is_available(self) -> bool {
        self == Backend::Auto || crate::backend::available().contains(&self.name())
    }

    /// The backend, if this build has it.
    ///
    /// ```
    /// use sokuc::Backend;
    /// assert_eq!(Backend::Search.check()?, Backend::Search);
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when it is not in this build; the message names the cargo feature to
    /// build with.
    pub fn check(self) -> Result<Backend, Error> {
        match self {
            Backend::Auto => Ok(self),
            _ => match crate::backend::lookup(self.name()) {
                Ok(_) => Ok(self),
                Err(e) => Err(Error::Input(InputError::new("backend", None, e.to_string()))),
            },
        }
    }

    /// Whether this backend can write a DRAT proof of unsatisfiability (what
    /// [`crate::Instance::certify`] checks), in this build. `Auto` writes none of its own.
    ///
    /// ```
    /// use sokuc::Backend;
    /// assert!(Backend::Sat.writes_proofs());
    /// assert!(!Backend::Cp.writes_proofs());
    /// ```
    pub fn writes_proofs(self) -> bool {
        crate::backend::supporting(crate::backend::feature::PROOF).contains(&self.name())
    }

    /// The backends that take any model, in the order `sokuc compare` runs them by default:
    /// those of this build but `Auto` and [`Backend::Mitm`] (which only takes small ones).
    pub fn general() -> Vec<Backend> {
        crate::backend::general()
            .into_iter()
            .filter_map(|n| n.parse().ok())
            .collect()
    }

    /// The backends of this build, `Auto` first, then in the order `sokuc compare` runs
    /// them.
    pub fn available() -> Vec<Backend> {
        std::iter::once(Backend::Auto)
            .chain(crate::backend::available().into_iter().filter_map(|n| n.parse().ok()))
            .collect()
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = Error;

    /// A backend by its command-line name (`cbc` is another name for `mip`).
    ///
    /// # Errors
    ///
    /// [`Error::Input`] for a name that is no backend's, listing this build's.
    /// A backend this build lacks is parsed; solving on it fails.
    fn from_str(name: &str) -> Result<Backend, Error> {
        if name == "cbc" {
            return Ok(Backend::Mip);
        }
        if let Some(b) = Backend::ALL.into_iter().find(|b| b.name() == name) {
            return Ok(b);
        }
        // The registry's own words for a name it does not know (the build's list).
        let why = match crate::backend::lookup(name) {
            Err(e) => e.to_string(),
            Ok(_) => format!("unknown backend {name:?}"),
        };
        Err(Error::Input(InputError::new("backend", None, why)))
    }
}

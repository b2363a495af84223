//! Several backends on one instance: what `sokuc compare` prints.

use crate::Status;

/// Each backend's run on one instance ([`crate::Instance::compare`]), and whether the
/// backends agree. A backend that failed (a limit, an option it cannot honour) has an error
/// row; the others' answers stand.
///
/// ```
/// use sokuc::{Backend, Instance, Options};
///
/// let puzzle = Instance::icosoku("1,2,3,4,5,6,7,8,9,10,11,12")?;
/// let c = puzzle.compare(&[Backend::Sat, Backend::Cp], &Options::new(), 1)?;
/// assert_eq!(c.backends(), ["sat", "cp"]);
/// assert_eq!(c.status(), sokuc::Status::Sat);
/// assert!(c.disagreement().is_none());
/// assert!(c.text().contains("cp"));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug)]
pub struct Comparison {
    pub(crate) inner: crate::compare::Comparison,
}

impl Comparison {
    /// The backends compared, in the order asked for.
    pub fn backends(&self) -> Vec<&str> {
        self.inner.rows.iter().map(|r| r.backend.as_str()).collect()
    }

    /// The status the backends that decided agree on (every one verified, as
    /// [`crate::Instance::solve`] checks its answers); [`Status::Unknown`] when none decided,
    /// or when they disagree.
    pub fn status(&self) -> Status {
        if !self.inner.agree {
            return Status::Unknown;
        }
        self.inner
            .rows
            .iter()
            .filter_map(|r| r.outcome.as_ref().ok())
            .map(|r| r.status)
            .find(|s| *s != Status::Unknown)
            .unwrap_or(Status::Unknown)
    }

    /// The table `sokuc compare` prints: a row per backend with its status and times.
    pub fn text(&self) -> String {
        self.inner.text()
    }

    /// The same as JSON (the schema's `compare` object).
    pub fn json(&self) -> serde_json::Value {
        self.inner.json()
    }

    /// When two backends' decided statuses differ, a line that names each one's: a bug in
    /// one of them, never hidden.
    pub fn disagreement(&self) -> Option<String> {
        self.inner.disagreement()
    }

    /// With an objective: whether a backend proved its answer optimal.
    pub fn proven_optimal(&self) -> bool {
        self.inner.proven_optimal()
    }

    /// The exit code of `sokuc compare`: 0, 20 or 30 by the agreed status; 1 when the
    /// backends disagree or one had an internal error.
    pub fn exit_code(&self) -> u8 {
        self.inner.exit_code()
    }
}

//! Certified answers: an unsat claim with a DRAT proof an external checker accepted.

use std::path::{Path, PathBuf};

pub use crate::certify::Verdict;

/// Where `certify` finds its DRAT checker and keeps its files
/// ([`crate::Instance::certify`]).
///
/// ```
/// let how = sokuc::Certify::new().checker("/usr/local/bin/drat-trim").keep("proofs");
/// # let _ = how;
/// ```
#[derive(Debug, Clone, Default)]
pub struct Certify {
    pub(crate) checker: Option<PathBuf>,
    pub(crate) keep: Option<PathBuf>,
}

impl Certify {
    /// The checker `tools/drat-trim` beside the directory of the running program (where
    /// `scripts/build-drat-trim.sh` builds it), and the CNF and proof in a temporary
    /// directory, removed afterwards.
    pub fn new() -> Certify {
        Certify::default()
    }

    /// The DRAT checker to run (drat-trim, or one that reads and reports as it does).
    pub fn checker(mut self, path: impl Into<PathBuf>) -> Certify {
        self.checker = Some(path.into());
        self
    }

    /// Keep the CNF and the proof in this directory.
    pub fn keep(mut self, dir: impl Into<PathBuf>) -> Certify {
        self.keep = Some(dir.into());
        self
    }

    pub(crate) fn checker_path(&self) -> Option<&Path> {
        self.checker.as_deref()
    }

    pub(crate) fn keep_dir(&self) -> Option<&Path> {
        self.keep.as_deref()
    }
}

/// What `certify` concluded ([`crate::Instance::certify`]): a verified solution, or an
/// unsat claim whose proof the checker accepted, or why neither.
#[derive(Debug)]
pub struct Certificate {
    pub(crate) inner: crate::certify::Certificate,
}

impl Certificate {
    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        self.inner.verdict
    }

    /// Whether the verdict is an answer with its evidence checked (a verified solution, or
    /// a proof the checker accepted).
    pub fn certified(&self) -> bool {
        matches!(self.inner.verdict, Verdict::Sat | Verdict::Unsat)
    }

    /// What `sokuc certify` prints: the verdict, presolve's argument if it refuted the
    /// instance, and the checker's report.
    pub fn text(&self) -> String {
        self.inner.text()
    }

    /// The same as JSON (the schema's `certify` object).
    pub fn json(&self) -> serde_json::Value {
        self.inner.json()
    }

    /// When presolve refuted the instance but the model without presolve has a verified
    /// solution: the message that says so, a bug in sokuc.
    pub fn contradiction(&self) -> Option<String> {
        self.inner.contradiction()
    }

    /// The exit code of `sokuc certify`: 0 or 20 for a certified answer, 30 for none in time,
    /// 1 for a rejected proof or a contradiction.
    pub fn exit_code(&self) -> u8 {
        self.inner.exit_code()
    }
}

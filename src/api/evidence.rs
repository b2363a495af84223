//! What each claim of an outcome rests on: the public view of the run path's evidence.

use std::fmt;

use crate::puzzle::evidence;

pub use crate::puzzle::evidence::{Backing, ClaimKind};

/// One claim of an [`crate::Outcome`] and its evidence ([`crate::Outcome::claims`]).
#[derive(Debug, Clone, Copy)]
pub struct Claim<'a> {
    inner: &'a evidence::Claim,
}

impl<'a> Claim<'a> {
    pub(crate) fn of(inner: &'a evidence::Claim) -> Claim<'a> {
        Claim { inner }
    }

    /// What is claimed.
    pub fn kind(&self) -> ClaimKind {
        self.inner.claim
    }

    /// The engine (or presolve, or the LP) that made the claim.
    pub fn by(&self) -> &str {
        &self.inner.by
    }

    /// What backs it.
    pub fn backing(&self) -> Backing {
        self.inner.backing
    }

    /// With [`Backing::SecondEngine`]: the engine that confirmed it.
    pub fn confirmed_by(&self) -> Option<&str> {
        self.inner.confirmed_by.as_deref()
    }

    /// With [`Backing::Certificate`]: the kind of certificate that was checked.
    pub fn certificate(&self) -> Option<&str> {
        self.inner.certificate
    }

    /// Whether the outcome stands on the claim; `false` when
    /// [`crate::Options::strict`] withheld it for resting on one engine's word alone.
    pub fn accepted(&self) -> bool {
        self.inner.accepted
    }
}

impl fmt::Display for Claim<'_> {
    /// The claim as `sokuc solve` prints it on its `evidence:` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.line())
    }
}

//! What each claim of an outcome rests on: the public view of the run path's evidence.

use std::fmt;

use crate::puzzle::evidence;

pub use crate::puzzle::evidence::{Backing, ClaimKind, Withheld};

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

    /// Whether the outcome stands on the claim; `false` when it was withheld
    /// ([`Claim::withheld`] says why).
    pub fn accepted(&self) -> bool {
        self.inner.accepted
    }

    /// Why the claim was withheld, when it was: [`crate::Options::strict`] and one engine's
    /// word alone ([`Withheld::Strict`]), made after the time limit ([`Withheld::Late`]), or
    /// contradicted by a checked solution ([`Withheld::Contradicted`]). `None` when it is
    /// accepted.
    ///
    /// ```
    /// use sokuc::{Backend, ClaimKind, Instance, Options};
    ///
    /// // Two of four items at the least cost: `search` proves the optimum, 7.
    /// let text = "min: +3 x1 +5 x2 +4 x3 +6 x4 ;\n+1 x1 +1 x2 +1 x3 +1 x4 = 2 ;\n";
    /// let items = Instance::parse("opb", "items.opb", text)?;
    /// let outcome = items.solve(&Options::new().backend(Backend::Search))?;
    /// let claims = outcome.claims();
    /// let optimum = claims.iter().find(|c| c.kind() == ClaimKind::Optimum).expect("an optimum");
    /// assert_eq!((optimum.accepted(), optimum.withheld()), (true, None));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    pub fn withheld(&self) -> Option<Withheld> {
        self.inner.withheld
    }
}

impl fmt::Display for Claim<'_> {
    /// The claim as `sokuc solve` prints it on its `evidence:` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.line())
    }
}

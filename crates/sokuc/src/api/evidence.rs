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

/// Every claim of a result with what backs it, and the engines whose answers counted for
/// nothing: the `evidence` field of the JSON sokuc prints, for an enumeration's end
/// ([`crate::Enumerated::evidence`]) and a count ([`crate::Counted::evidence`]).
///
/// ```
/// use sokuc::{ClaimKind, Enumerate, Instance, Options};
///
/// let cnf = Instance::parse("cnf", "or.cnf", "p cnf 2 1\n1 2 0\n")?;
/// let e = cnf.enumerate(&Options::new(), &Enumerate::new(), &mut Vec::new())?;
/// let complete = e.evidence().claim(ClaimKind::Complete).expect("a claim");
/// assert!(complete.accepted() && e.complete());
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Evidence<'a> {
    inner: &'a evidence::Evidence,
}

impl<'a> Evidence<'a> {
    pub(crate) fn of(inner: &'a evidence::Evidence) -> Evidence<'a> {
        Evidence { inner }
    }

    /// Every claim, accepted or withheld.
    pub fn claims(&self) -> Vec<Claim<'a>> {
        self.inner.claims.iter().map(Claim::of).collect()
    }

    /// The claim of kind `kind`, if one was made.
    pub fn claim(&self, kind: ClaimKind) -> Option<Claim<'a>> {
        self.inner.claim(kind).map(Claim::of)
    }

    /// Engines whose answers counted for nothing, each with what it did ("liar offered a
    /// model that is not a solution").
    pub fn faults(&self) -> Vec<String> {
        self.inner
            .faults
            .iter()
            .map(|f| format!("{} {}", f.engine, f.what))
            .collect()
    }

    /// A claim that a checked model refutes, in one sentence.
    pub fn contradiction(&self) -> Option<&'a str> {
        self.inner.contradiction.as_ref().map(|c| c.message.as_str())
    }

    /// The lines sokuc prints for it (`evidence: ...`, `fault: ...`, `contradiction: ...`).
    pub fn lines(&self) -> Vec<String> {
        self.inner.lines()
    }

    /// The same as the JSON's `evidence` field.
    pub fn json(&self) -> serde_json::Value {
        // Plain strings, booleans and numbers: serializing into a value cannot fail.
        serde_json::to_value(self.inner).unwrap_or_default()
    }
}

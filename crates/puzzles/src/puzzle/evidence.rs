//! The evidence of an answer's claims: what each claim is, who made it and what backs it.
//! Only the run path's gate (`run::gate`) fills it in; front-ends print it as it is
//! ([`Evidence::lines`]) and the JSON carries it whole (the `evidence` field).

use serde::Serialize;

/// What is claimed.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    /// A solution exists: the printed one, checked.
    Sat,
    /// No solution exists.
    Unsat,
    /// No solution is better than the printed one.
    Optimum,
    /// The printed solution is the only one.
    Unique,
    /// There is more than one solution (two checked ones are printed).
    NotUnique,
    /// Every solution was listed or counted: an enumeration that ended with no more to
    /// find, or an exact count. The solutions themselves are checked models; that there is
    /// no other is the claim.
    Complete,
}

impl ClaimKind {
    fn word(self) -> &'static str {
        match self {
            ClaimKind::Sat => "sat",
            ClaimKind::Unsat => "unsat",
            ClaimKind::Optimum => "optimum",
            ClaimKind::Unique => "unique",
            ClaimKind::NotUnique => "not unique",
            ClaimKind::Complete => "complete",
        }
    }
}

/// What backs a claim, from the strongest to the weakest.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Backing {
    /// Models checked by the IR evaluation, the decoder and the puzzle's own verifier.
    CheckedModel,
    /// A certificate sokuc checked itself: the LP relaxation's Farkas multipliers, re-added
    /// in exact arithmetic.
    Certificate,
    /// Presolve's derivation, given in words and numbers in the reason.
    Presolve,
    /// The engine's word, and a second engine of another kind refuted the same question.
    SecondEngine,
    /// One engine's word and nothing else.
    EngineWord,
    /// Another solver's answer file (`decode`): its word.
    External,
}

impl Backing {
    /// Whether the claim rests on more than one engine's word: what `--strict` accepts.
    pub fn strict_enough(self) -> bool {
        matches!(
            self,
            Backing::CheckedModel | Backing::Certificate | Backing::SecondEngine
        )
    }
}

/// Why the gate withheld a claim: the answer then says less than the engine did (the status
/// `unknown`, the optimum or uniqueness undecided, the enumeration or count not complete).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Withheld {
    /// `--strict`: nothing but one engine's word backs the claim, and no engine of another
    /// kind confirmed it.
    Strict,
    /// The claim was made after the time limit (and its grace period).
    Late,
    /// A checked model contradicts the claim.
    Contradicted,
}

impl Withheld {
    /// Why, in words, for an answer's text and its reason.
    pub fn words(self) -> &'static str {
        match self {
            Withheld::Strict => "withheld by --strict: nothing but one engine's word backs it",
            Withheld::Late => "withheld: it was made after the time limit",
            Withheld::Contradicted => "withheld: a checked solution contradicts it",
        }
    }
}

/// How an optimum's bound was proven, as the record shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoundEvidence {
    /// `refuted` ("objective <= optimum - 1" refuted), `dual-bound` (a MIP solver's dual
    /// bound, with `margin`) or `native` (the engine's own optimality proof).
    pub method: &'static str,
    /// The engine that proved it.
    pub by: String,
    /// With `dual-bound`: by how much the bound exceeds `optimum - 1`, in objective units.
    pub margin: Option<f64>,
}

impl BoundEvidence {
    fn words(&self) -> String {
        match (self.method, self.margin) {
            ("refuted", _) => format!("{} refuted \"objective <= optimum - 1\"", self.by),
            ("dual-bound", Some(m)) => format!("{}'s dual bound, with a margin of {m:.3}", self.by),
            _ => format!("{}'s own optimality proof", self.by),
        }
    }
}

/// One claim and what backs it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Claim {
    pub claim: ClaimKind,
    /// Who made it: an engine, `presolve`, `lp`, `external`.
    pub by: String,
    pub backing: Backing,
    /// With [`Backing::Certificate`]: which (`farkas`).
    pub certificate: Option<&'static str>,
    /// With [`Backing::SecondEngine`]: the engine that confirmed it.
    pub confirmed_by: Option<String>,
    /// With an optimum: what proved its bound.
    pub bound: Option<BoundEvidence>,
    /// False when the gate withheld the claim (the status printed is `unknown`, or the
    /// optimum or uniqueness is left undecided); `withheld` says why.
    pub accepted: bool,
    /// Why the claim was withheld, when it was.
    pub withheld: Option<Withheld>,
}

impl Claim {
    pub fn new(claim: ClaimKind, by: impl Into<String>, backing: Backing) -> Claim {
        Claim {
            claim,
            by: by.into(),
            backing,
            certificate: None,
            confirmed_by: None,
            bound: None,
            accepted: true,
            withheld: None,
        }
    }

    /// Withholds the claim for `why`: it stays in the record, and the answer does not
    /// make it.
    pub fn withhold(&mut self, why: Withheld) {
        self.accepted = false;
        self.withheld = Some(why);
    }

    /// The claim in one line, for the text of an answer.
    pub fn line(&self) -> String {
        let what = self.claim.word();
        let mut s = match self.backing {
            Backing::CheckedModel => format!("{what}: checked solutions (found by {})", self.by),
            Backing::Certificate => format!(
                "{what} by {}: a {} certificate, checked in exact arithmetic",
                self.by,
                self.certificate.unwrap_or("checked")
            ),
            Backing::Presolve => format!("{what} by presolve: its derivation is the reason above"),
            Backing::SecondEngine => format!(
                "{what} by {}, confirmed by {}",
                self.by,
                self.confirmed_by.as_deref().unwrap_or("another engine")
            ),
            Backing::EngineWord => format!("{what} by {}: the engine's word", self.by),
            Backing::External => format!("{what} by the external solver: its word"),
        };
        if let Some(b) = &self.bound {
            s.push_str(&format!("; bound: {}", b.words()));
        }
        if !self.accepted {
            let why = self.withheld.unwrap_or(Withheld::Strict);
            s.push_str(&format!(" ({})", why.words()));
        }
        s
    }
}

/// An engine's answer that counted for nothing, as the record shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FaultRecord {
    pub engine: String,
    pub what: String,
}

/// Two engines disagree, and a checked model decides between them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContradictionRecord {
    pub claimed_by: String,
    pub claim: String,
    pub refuted_by: String,
    pub message: String,
}

/// Every claim of one answer with its evidence: the `evidence` field of every JSON document
/// that carries a verdict, and `evidence:` lines in the text.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Evidence {
    pub claims: Vec<Claim>,
    pub faults: Vec<FaultRecord>,
    pub contradiction: Option<ContradictionRecord>,
}

impl Evidence {
    /// The lines an answer's text carries (without a comment prefix): every claim except a
    /// plain "sat", which the verifier's own line already backs, then faults and any
    /// contradiction.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .claims
            .iter()
            .filter(|c| c.claim != ClaimKind::Sat)
            .map(|c| format!("evidence: {}", c.line()))
            .collect();
        for f in &self.faults {
            out.push(format!("fault: {} {}; it counted for nothing", f.engine, f.what));
        }
        if let Some(c) = &self.contradiction {
            out.push(format!("contradiction: {}", c.message));
        }
        out
    }

    /// Appends [`Evidence::lines`] to `out`, each after `prefix` (a front-end's comment
    /// mark: `c ` for OPB and CNF answers, `# ` for grids, none for 3SoKu and pools).
    pub fn push_lines(&self, out: &mut String, prefix: &str) {
        for line in self.lines() {
            out.push_str(prefix);
            out.push_str(&line);
            out.push('\n');
        }
    }

    /// The claim of kind `k`, if any.
    pub fn claim(&self, k: ClaimKind) -> Option<&Claim> {
        self.claims.iter().find(|c| c.claim == k)
    }
}

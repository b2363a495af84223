//! What an engine says backs its claims, beside the claims themselves. Engines and the
//! portfolio fill it in; only the run path's gate (`run::gate`) turns it, with the status,
//! into the evidence a report prints. Nothing here is a verdict: an engine's word stays an
//! engine's word until the gate has weighed it.

/// The basis of the claims in one outcome (a plain solve, an optimisation, an enumeration).
/// The default is "the answering engine's word, and nothing else".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Basis {
    /// How the bound of a claimed optimum was proven (`None` where none is claimed, or
    /// where the engine did not say).
    pub bound: Option<Bound>,
    /// Another engine, of another kind than the one that answered, that confirmed the claim
    /// by a refutation of its own: the same formula refuted, or "objective <= optimum - 1"
    /// refuted (the second opinion).
    pub confirmed_by: Option<String>,
    /// A claim that a checked model contradicts: who claimed what, and whose checked model
    /// says otherwise. The run path keeps the checked model and exits 1.
    pub contradiction: Option<Contradiction>,
    /// Engines that lost a race by a fault (a model that broke a row, a claim another
    /// engine's checked model refutes, an answer after the deadline): each with what it did.
    /// Their answers counted for nothing, and the record shows it.
    pub faults: Vec<Fault>,
    /// When the claim was made, where that is earlier than the engine's return (a race's
    /// claim waits for the others to refute or confirm it, then for them to stop). The run
    /// path judges lateness from this instant, else from the return.
    pub claimed_at: Option<std::time::Instant>,
}

/// How an optimum's bound was proven.
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    /// The formula with "objective <= v - 1" was refuted by `engine` (the CNF backends'
    /// bound under assumptions or in a row, a bound row given to CBC or HiGHS).
    Refuted { engine: String },
    /// A MIP solver's dual bound, with its margin: the bound exceeds `optimum - 1` by
    /// `margin` (in objective units), more than the solver's rounding drift.
    DualBound { engine: String, margin: f64 },
    /// The engine's own optimisation ended with a proof of its own (CBC's or HiGHS's
    /// branch and bound, pumpkin's SAT-UNSAT search, `mitm`'s exhaustive pairing).
    Native { engine: String },
}

/// Two engines disagree, and one of them has a checked model on its side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction {
    /// The engine whose claim the model refutes, and what it claimed: in words, and as the
    /// kind of claim the answer would have made on it (`None` for a claim the answer never
    /// makes, such as one stage of a wide objective refuted).
    pub claimed_by: String,
    pub claim: String,
    pub disputed: Option<Disputed>,
    /// The engine whose checked model refutes it.
    pub refuted_by: String,
    /// The whole story in one sentence.
    pub message: String,
}

/// The kind of claim a checked model refutes: the gate records that claim as withheld, for
/// the contradiction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disputed {
    /// There is no solution.
    Unsat,
    /// This value is the optimum.
    Optimum,
    /// The solution is the only one.
    Unique,
}

/// An engine that lost a race by a fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub engine: String,
    /// What it did, in a few words ("a model that breaks constraint #3 (...)").
    pub what: String,
}

impl Basis {
    /// Adds what `other` knows to this basis: a bound, a confirmation or a contradiction
    /// this one lacks, and every fault. Used where one run is made of several engine calls
    /// (the stages of a wide objective, a race's winner and losers).
    pub fn absorb(&mut self, other: Basis) {
        if self.bound.is_none() {
            self.bound = other.bound;
        }
        if self.confirmed_by.is_none() {
            self.confirmed_by = other.confirmed_by;
        }
        if self.contradiction.is_none() {
            self.contradiction = other.contradiction;
        }
        self.faults.extend(other.faults);
        // The later claim is the one that stands (the last stage's).
        self.claimed_at = self.claimed_at.max(other.claimed_at);
    }
}

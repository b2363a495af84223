//! Counts per peg arrangement (`sokuc count --by-capacities`): for an instance whose pegs
//! are free, the exact count of each arrangement of its pegs on the vertices.

use std::time::{Duration, Instant};

use num_bigint::BigUint;
use serde_json::json;

use super::count::Count;
use crate::count::CountError;
use crate::count::by_caps::{ArrangementCount, Summary, Which, by_capacities};
use crate::error::Error;
use crate::model::pool::{Pegs, PoolInstance};

/// The peg arrangements of an instance with free pegs, to count one by one
/// ([`Instance::by_capacities`](crate::Instance::by_capacities)): one per symmetry orbit
/// (the variant's rotations, and its reflections when the pool is its own mirror image), or
/// a random [`sample`](ByCapacities::sample).
///
/// ```
/// use sokuc::{Count, Instance};
///
/// let text = r#"
/// variant = "tetrahedron"
/// pool = [{ tile = [0, 0, 1], min = 2, max = 2 }, { tile = [1, 1, 2], min = 2, max = 2 }]
/// capacities = { permutation_of = [1, 2, 3, 4] }
/// "#;
/// let free = Instance::parse("pool", "free.toml", text)?;
/// let mut lines = Vec::new();
/// let summary = free.by_capacities()?.count(&Count::new(), |a| {
///     lines.push(format!("{:?} {:?} {}", a.capacities(), a.count(), a.orbit()));
///     Ok(())
/// })?;
/// assert!(summary.complete());
/// assert_eq!(summary.arrangements(), lines.len() as u64);
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ByCapacities<'a> {
    inst: &'a PoolInstance,
    which: Which,
}

impl<'a> ByCapacities<'a> {
    /// The arrangements of `puzzle`, refused unless its pegs are free.
    pub(crate) fn of(puzzle: &'a dyn crate::run::AnyPuzzle) -> Result<ByCapacities<'a>, Error> {
        let Some(inst) = puzzle.as_any().downcast_ref::<PoolInstance>() else {
            return Err(Error::unsupported(
                "--by-capacities",
                "needs an instance with free pegs (capacities = { permutation_of = [...] })".to_string(),
            ));
        };
        if !matches!(inst.pegs, Pegs::Free(_)) {
            return Err(Error::unsupported(
                "--by-capacities",
                "needs free pegs (capacities = { permutation_of = [...] }); this instance's pegs are given".to_string(),
            ));
        }
        Ok(ByCapacities {
            inst,
            which: Which::Orbits,
        })
    }

    /// `n` random arrangements (with repetition) drawn from `seed`, instead of one per
    /// orbit; each counts once (its orbit size is 1).
    pub fn sample(mut self, n: u64, seed: u64) -> ByCapacities<'a> {
        self.which = Which::Sample { n, seed };
        self
    }

    /// Counts each arrangement exactly within `limits` and hands it to `each` as soon as it
    /// is counted, then sums up. At the time limit (or the interrupt) the run stops with the
    /// summary of what it counted, not [`complete`](CapacitySummary::complete). An
    /// arrangement whose count needs more than the memory limit is handed over
    /// [skipped](Arrangement::count) and left out of the figures; the run goes on.
    ///
    /// # Errors
    ///
    /// The first error of `each`, which ends the run; [`Error::Unsupported`] when the pegs
    /// and the vertices differ in number, an arrangement's count cannot be held, or the
    /// counts kept for the median pass half the memory limit (take a sample).
    pub fn count(
        &self,
        limits: &Count,
        mut each: impl FnMut(&Arrangement<'_>) -> Result<(), Error>,
    ) -> Result<CapacitySummary, Error> {
        let started = Instant::now();
        let found = by_capacities(self.inst, self.which, &limits.options(), &mut |a| {
            each(&Arrangement { inner: a })
        });
        let inner = match found {
            Ok(s) => s,
            Err(CountError::Refused(e) | CountError::OverMemory(e)) => return Err(e),
            // A time limit ends the run with the summary of what was counted; a bare
            // TimedOut would have lost those figures.
            Err(CountError::TimedOut) => {
                return Err(Error::internal("counting by capacities stopped without its summary"));
            }
        };
        // Each count is a claim that every solution was counted, by the counter that made
        // it: one claim per counter the arrangements used, weighed by the gate as `count`'s.
        let mut evidence = crate::puzzle::evidence::Evidence::default();
        for by in &inner.counted_by {
            evidence.claims.extend(crate::run::count_evidence(by).claims);
        }
        Ok(CapacitySummary {
            inner,
            sampled: matches!(self.which, Which::Sample { .. }),
            time: started.elapsed(),
            evidence,
        })
    }
}

/// One arrangement's count ([`ByCapacities::count`]).
#[derive(Debug, Clone, Copy)]
pub struct Arrangement<'a> {
    inner: &'a ArrangementCount,
}

impl Arrangement<'_> {
    /// The pegs on the vertices, in the variant's vertex order.
    pub fn capacities(&self) -> &[u64] {
        &self.inner.caps
    }

    /// Its number of distinct solutions; `None` when it was skipped because counting it
    /// needs more than the memory limit.
    pub fn count(&self) -> Option<u128> {
        self.inner.count
    }

    /// The arrangements in its symmetry orbit, which all have its count (1 in a sample).
    pub fn orbit(&self) -> u64 {
        self.inner.orbit
    }

    /// The arrangement as `sokuc count --by-capacities --format json` lists it:
    /// `capacities`, `count` (a decimal string) or `"skipped": "over --max-memory"`, and
    /// `orbit`.
    pub fn json(&self) -> serde_json::Value {
        let a = self.inner;
        match a.count {
            Some(c) => json!({"capacities": a.caps, "count": c.to_string(), "orbit": a.orbit}),
            None => json!({"capacities": a.caps, "skipped": "over --max-memory", "orbit": a.orbit}),
        }
    }
}

/// What a run over arrangements found ([`ByCapacities::count`]). The figures cover the
/// arrangements counted, skipped ones left out.
#[derive(Debug, Clone)]
pub struct CapacitySummary {
    inner: Summary,
    sampled: bool,
    time: Duration,
    evidence: crate::puzzle::evidence::Evidence,
}

impl CapacitySummary {
    /// The arrangements counted (skipped ones not included).
    pub fn arrangements(&self) -> u64 {
        self.inner.arrangements
    }

    /// The symmetries the orbits were taken under (1 for a sample).
    pub fn symmetries(&self) -> usize {
        self.inner.symmetries
    }

    /// Whether the arrangements were a random sample.
    pub fn sampled(&self) -> bool {
        self.sampled
    }

    /// False when the time limit (or the interrupt) ended the run early.
    pub fn complete(&self) -> bool {
        self.inner.complete
    }

    /// The arrangements skipped because counting them needs more than the memory limit.
    pub fn skipped(&self) -> u64 {
        self.inner.skipped
    }

    /// The first of the skipped arrangements (at most 20), to count alone with more memory.
    pub fn skipped_capacities(&self) -> &[Vec<u64>] {
        &self.inner.skipped_caps
    }

    /// Of the arrangements counted, how many have no solution.
    pub fn zero(&self) -> u64 {
        self.inner.zero
    }

    /// The fewest solutions of an arrangement with at least one.
    pub fn min(&self) -> Option<u128> {
        self.inner.min
    }

    /// The median count over the arrangements with at least one solution.
    pub fn median(&self) -> Option<u128> {
        self.inner.median
    }

    /// The most solutions of an arrangement.
    pub fn max(&self) -> Option<u128> {
        self.inner.max
    }

    /// The first arrangement found with [`min`](CapacitySummary::min) solutions.
    pub fn hardest(&self) -> Option<&[u64]> {
        self.inner.hardest.as_deref()
    }

    /// The sum over the arrangements of count times orbit size: over all orbits, complete
    /// and none skipped, the number of solutions with free pegs.
    pub fn total(&self) -> &BigUint {
        &self.inner.total
    }

    /// How long the run took.
    pub fn time(&self) -> Duration {
        self.time
    }

    /// What backs the counts: for each counter that counted an arrangement, its claim that
    /// every solution was counted (an arrangement of no solution included).
    pub fn evidence(&self) -> super::Evidence<'_> {
        super::Evidence::of(&self.evidence)
    }

    /// The summary as `sokuc count --by-capacities --format json` ends with it: the figures
    /// above by name (`skipped_capacities`; counts as decimal strings), `time_ms` and
    /// `evidence`.
    pub fn json(&self) -> serde_json::Value {
        let s = &self.inner;
        json!({
            "arrangements": s.arrangements,
            "symmetries": s.symmetries,
            "sampled": self.sampled,
            "complete": s.complete,
            "skipped": s.skipped,
            "skipped_capacities": s.skipped_caps,
            "zero": s.zero,
            "min": s.min.map(|v| v.to_string()),
            "median": s.median.map(|v| v.to_string()),
            "max": s.max.map(|v| v.to_string()),
            "hardest": s.hardest,
            "total": s.total.to_string(),
            "time_ms": (self.time.as_secs_f64() * 1e6).round() / 1e3,
            "evidence": self.evidence,
        })
    }
}

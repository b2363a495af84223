//! Counts per peg arrangement (`sokuc count --by-capacities`): for a free-peg instance, the
//! number of configurations for each arrangement of the peg multiset on the vertices.
//!
//! Arrangements are taken one per symmetry orbit (the variant's rotations, and its
//! reflections when the pool is its own mirror image: a reflected solution uses mirrored
//! tiles), generated as `sokuc sweep` does, or as a random sample of arrangements. Each is
//! counted exactly with its pegs fixed, and handed to the caller at once (streamed); only one
//! `u128` per arrangement is kept, for the median, within `--max-memory`. The total over all
//! arrangements is the sum of each orbit representative's count times its orbit's size, so
//! a full run re-derives the free-peg count.
//!
//! A tile list goes to the 3SoKu frontier counter per arrangement, any other pool to the pool
//! counter. Pool instances have no fixed tiles (the format allows them only with a tile list
//! and given pegs, which is 3SoKu).
//!
//! **Output.** Each arrangement with a solution is printed as soon as it is counted (`pegs
//! count orbit-size`; JSON: an `arrangements` array streamed element by element, then
//! `summary`). The summary gives the arrangements counted, how many have no solution, the
//! min, median and max over those with at least one, the hardest (fewest solutions, at least
//! one), and the total over all arrangements. Past half of `--max-memory` for the kept counts,
//! exit 2 (take a `--sample`). On `--timeout` the summary of what was counted is printed,
//! marked as stopped, exit 30. An arrangement whose own count needs more than `--max-memory`
//! does not end the run: it is printed as `pegs skipped orbit-size` (JSON `"skipped": "over
//! --max-memory"`), left out of the figures and listed in the summary (`skipped`, and the
//! first 20 in `skipped_capacities`, to rerun alone with more memory); the exit is then 30,
//! because the figures are incomplete.

use num_bigint::BigUint;

use super::counted::{CountError, CountOptions};
use crate::error::Error;
use crate::model::Instance;
use crate::model::pool::{Pegs, PoolInstance};
use crate::model::tiles::{canonical, mirror};
use crate::sweep::orbits::for_each_canonical;
use crate::sweep::symmetry::{Perm, automorphisms};

/// Which arrangements to count.
#[derive(Debug, Clone, Copy)]
pub enum Which {
    /// One per symmetry orbit, all of them.
    Orbits,
    /// `n` random arrangements (with repetition) from this seed.
    Sample { n: u64, seed: u64 },
}

/// One arrangement's count.
#[derive(Debug, Clone)]
pub struct ArrangementCount {
    pub caps: Vec<u64>,
    /// `None` when the arrangement was skipped: its count needs more than `--max-memory`.
    pub count: Option<u128>,
    /// Arrangements in its orbit (1 for samples).
    pub orbit: u64,
}

/// What a run over arrangements found.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Arrangements counted.
    pub arrangements: u64,
    /// Of them, how many have no solution.
    pub zero: u64,
    /// Over arrangements with at least one solution.
    pub min: Option<u128>,
    pub median: Option<u128>,
    pub max: Option<u128>,
    /// An arrangement with the fewest solutions (at least one), the first found.
    pub hardest: Option<Vec<u64>>,
    /// Sum over arrangements of count times orbit size (the free-peg total when complete).
    pub total: BigUint,
    /// The symmetries used (1 for samples).
    pub symmetries: usize,
    /// False when the time limit ended the run early (the figures cover what was counted).
    pub complete: bool,
    /// Arrangements skipped because counting them needs more than `--max-memory`; the
    /// figures cover the others, so the total is then a lower bound.
    pub skipped: u64,
    /// The first few skipped arrangements (at most [`SKIPPED_KEPT`]), to rerun them alone.
    pub skipped_caps: Vec<Vec<u64>>,
    /// Who counted the arrangements (each count is exact by one of them: the 3SoKu frontier
    /// counter, the pool counter, or presolve's argument for none), in the order first used.
    pub counted_by: Vec<&'static str>,
}

/// How many skipped arrangements the summary lists (the rest are only counted).
pub const SKIPPED_KEPT: usize = 20;

/// Whether the pool maps onto itself under mirroring (each type's mirror image is in it with
/// the same bounds).
fn mirror_closed(inst: &PoolInstance) -> bool {
    inst.pool.iter().all(|t| {
        let m = canonical(mirror(t.tile));
        inst.pool
            .iter()
            .any(|u| canonical(u.tile) == m && u.min == t.min && u.max == t.max)
    })
}

/// Counts one arrangement exactly: a tile list goes to the meet-in-the-middle 3SoKu counter,
/// any other pool to the pool counter.
fn count_one(inst: &PoolInstance, caps: &[u64], opts: &CountOptions) -> Result<(u128, &'static str), CountError> {
    if inst.pool.iter().all(|t| t.min == t.max) {
        let tiles = inst
            .pool
            .iter()
            .flat_map(|t| std::iter::repeat_n(t.tile, t.min as usize))
            .collect();
        let classic = Instance {
            source: inst.source.clone(),
            variant: inst.variant.clone(),
            capacities: caps.to_vec(),
            tiles,
            fixed: Vec::new(),
        };
        let c = super::count_instance(&classic, opts)?;
        let n = u128::try_from(&c.count)
            .map_err(|_| Error::unsupported("count", "an arrangement's count passes 2^128".to_string()))?;
        return Ok((n, counter_of(&c)));
    }
    let fixed = PoolInstance {
        pegs: Pegs::Fixed(caps.to_vec()),
        ..inst.clone()
    };
    let c = super::count_pool(&fixed, opts)?;
    Ok((u128::try_from(&c.count).unwrap_or(u128::MAX), counter_of(&c)))
}

/// The counter whose claim backs a count, as its evidence names it.
fn counter_of(c: &super::Counted) -> &'static str {
    use super::by;
    let named = c.evidence.claims.first().map(|claim| claim.by.as_str());
    [by::FRONTIER, by::POOL, by::SHARP, by::PRESOLVE]
        .into_iter()
        .find(|b| Some(*b) == named)
        .unwrap_or(by::FRONTIER)
}

/// Counts every arrangement asked for, handing each to `each` as it is done.
pub fn by_capacities(
    inst: &PoolInstance,
    which: Which,
    opts: &CountOptions,
    each: &mut dyn FnMut(&ArrangementCount) -> Result<(), Error>,
) -> Result<Summary, CountError> {
    let Pegs::Free(multiset) = &inst.pegs else {
        return Err(Error::unsupported(
            "--by-capacities",
            "needs free pegs (capacities = { permutation_of = [...] }); this instance's pegs are given".to_string(),
        )
        .into());
    };
    let n = inst.variant.num_vertices();
    if multiset.len() != n {
        return Err(Error::unsupported("--by-capacities", format!("{} pegs for {n} vertices", multiset.len())).into());
    }
    let group: Vec<Perm> = match which {
        Which::Orbits => automorphisms(&inst.variant, mirror_closed(inst)),
        Which::Sample { .. } => vec![(0..n).collect()],
    };
    // One u128 per arrangement is kept for the median.
    let keep_limit = opts.max_memory / 2 / 16;
    let mut counts: Vec<u128> = Vec::new();
    let mut s = Summary {
        arrangements: 0,
        zero: 0,
        min: None,
        median: None,
        max: None,
        hardest: None,
        total: BigUint::default(),
        symmetries: group.len(),
        complete: true,
        skipped: 0,
        skipped_caps: Vec::new(),
        counted_by: Vec::new(),
    };
    let mut failure: Option<CountError> = None;
    let mut visit = |caps: &[u64], s: &mut Summary| -> bool {
        let stab = group.iter().filter(|g| (0..n).all(|v| caps[g[v]] == caps[v])).count();
        let orbit = (group.len() / stab) as u64;
        let c = match count_one(inst, caps, opts) {
            Ok((c, by)) => {
                if !s.counted_by.contains(&by) {
                    s.counted_by.push(by);
                }
                c
            }
            Err(CountError::TimedOut) => {
                s.complete = false;
                return false;
            }
            // One arrangement too big for the memory limit must not throw away hours of
            // counting the others: it is reported and skipped (issue 16's distribution run
            // stopped at one arrangement that needed more than 89 million states).
            Err(CountError::OverMemory(_)) => {
                s.skipped += 1;
                if s.skipped_caps.len() < SKIPPED_KEPT {
                    s.skipped_caps.push(caps.to_vec());
                }
                if let Err(e) = each(&ArrangementCount {
                    caps: caps.to_vec(),
                    count: None,
                    orbit,
                }) {
                    failure = Some(e.into());
                    return false;
                }
                return true;
            }
            Err(e) => {
                failure = Some(e);
                return false;
            }
        };
        let a = ArrangementCount {
            caps: caps.to_vec(),
            count: Some(c),
            orbit,
        };
        if let Err(e) = each(&a) {
            failure = Some(e.into());
            return false;
        }
        s.arrangements += 1;
        s.total += BigUint::from(c) * orbit;
        if c == 0 {
            s.zero += 1;
        } else {
            if s.min.is_none_or(|m| c < m) {
                s.min = Some(c);
                s.hardest = Some(caps.to_vec());
            }
            s.max = s.max.max(Some(c));
            if (counts.len() as u64) >= keep_limit {
                failure = Some(
                    Error::unsupported(
                        "--max-memory",
                        "too many arrangements to keep their counts for the median; raise --max-memory or take a --sample".to_string(),
                    )
                    .into(),
                );
                return false;
            }
            counts.push(c);
        }
        true
    };
    match which {
        Which::Orbits => for_each_canonical(n, multiset, &group, &mut |caps| visit(caps, &mut s)),
        Which::Sample { n: k, seed } => {
            let mut rng = crate::rng::Rng::new(seed);
            let mut caps = multiset.clone();
            for _ in 0..k {
                rng.shuffle(&mut caps);
                if !visit(&caps, &mut s) {
                    break;
                }
            }
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if !counts.is_empty() {
        let mid = (counts.len() - 1) / 2;
        let (_, m, _) = counts.select_nth_unstable(mid);
        s.median = Some(*m);
    }
    Ok(s)
}

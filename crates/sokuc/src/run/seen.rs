//! What an enumeration remembers of the solutions it has handed on, and nothing more: a
//! fingerprint of each one's projection, so that an engine that offers a solution again
//! (however many answers later) is caught before the repeat is written; and under
//! `--strict`, up to [`STRICT_MAX`] blocking clauses, the question a second engine is asked
//! at the end ("is there any other?").
//!
//! The solutions themselves are never kept. A fingerprint is 128 bits of two independent
//! hashes of the projected values, so two distinct solutions share one with a probability
//! far below any hardware fault's; the set is bounded by a share of `--max-memory`
//! ([`Seen::new`]), past which the enumeration stops as a limit would, since what it wrote
//! could then no longer be shown to be distinct.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::ir::{Lit, Projection};

/// The most solutions whose blocking clauses `--strict` keeps to put to a second engine:
/// past it the question would be too large to settle quickly, and the claim that the
/// enumeration is complete is withheld.
pub(super) const STRICT_MAX: u64 = 2_000;

/// What one fingerprint costs in the set, with the table's slack (a `u128` key, its control
/// byte, a load factor of 7/8, and the doubling when it grows).
const BYTES_PER_FINGERPRINT: u64 = 40;

/// The share of `--max-memory` the fingerprints may take.
const MEMORY_SHARE: u64 = 4;

/// A fingerprint is already a hash: its low bits index the table.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

/// Why a solution cannot be handed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Repeat {
    /// Its projection is one already handed on: the engine repeated itself.
    Again,
    /// The fingerprints would pass their share of the memory limit.
    Full,
}

/// The fingerprints of the solutions handed on, and the blocking clauses `--strict` keeps.
pub(super) struct Seen {
    primary: Vec<usize>,
    fingerprints: HashSet<u128, BuildHasherDefault<Identity>>,
    most: u64,
    /// Under `--strict`: the blocking clause of each solution, until there are more than
    /// [`STRICT_MAX`] (then `None`: too many to ask about).
    blocks: Option<Vec<Vec<Lit>>>,
    projection: Projection,
}

impl Seen {
    /// For solutions over `projection`, the fingerprints within a share of `max_memory`
    /// bytes; `strict` keeps the blocking clauses too.
    pub(super) fn new(projection: &Projection, max_memory: u64, strict: bool) -> Seen {
        Seen {
            primary: projection
                .flags()
                .iter()
                .enumerate()
                .filter_map(|(i, &p)| p.then_some(i))
                .collect(),
            fingerprints: HashSet::default(),
            most: (max_memory / MEMORY_SHARE / BYTES_PER_FINGERPRINT).max(1),
            blocks: strict.then(Vec::new),
            projection: projection.clone(),
        }
    }

    /// The 128-bit fingerprint of `a`'s projection.
    fn fingerprint(&self, a: &[bool]) -> u128 {
        let mut low = std::collections::hash_map::DefaultHasher::new();
        let mut high = std::collections::hash_map::DefaultHasher::new();
        high.write_u64(0x9e37_79b9_7f4a_7c15);
        let mut word = 0u64;
        for (k, &i) in self.primary.iter().enumerate() {
            if a.get(i).copied().unwrap_or(false) {
                word |= 1 << (k % 64);
            }
            if k % 64 == 63 {
                word.hash(&mut low);
                word.hash(&mut high);
                word = 0;
            }
        }
        word.hash(&mut low);
        word.hash(&mut high);
        (u128::from(high.finish()) << 64) | u128::from(low.finish())
    }

    /// Remembers `a` as handed on, or says why it cannot be.
    pub(super) fn note(&mut self, a: &[bool]) -> Result<(), Repeat> {
        let f = self.fingerprint(a);
        if self.fingerprints.contains(&f) {
            return Err(Repeat::Again);
        }
        if self.fingerprints.len() as u64 >= self.most {
            return Err(Repeat::Full);
        }
        self.fingerprints.insert(f);
        if let Some(blocks) = &mut self.blocks {
            if blocks.len() as u64 >= STRICT_MAX {
                self.blocks = None;
            } else {
                blocks.push(self.projection.block(a));
            }
        }
        Ok(())
    }

    /// Under `--strict`, the blocking clauses of every solution handed on; `None` without
    /// `--strict` or past [`STRICT_MAX`].
    pub(super) fn into_blocks(self) -> Option<Vec<Vec<Lit>>> {
        self.blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Constraint, PbFormula, Var};

    fn three() -> (PbFormula, Projection) {
        let mut f = PbFormula::new(4);
        f.add("x", Constraint::Clause(vec![Lit::new(Var(0), true)]));
        // Variable 3 is auxiliary: two answers that differ only there are one solution.
        let p = Projection::new(&f, [Var(0), Var(1), Var(2)]);
        (f, p)
    }

    #[test]
    fn a_repeat_is_caught_however_late_and_auxiliaries_do_not_count() {
        let (_, p) = three();
        let mut s = Seen::new(&p, 1 << 20, false);
        assert_eq!(s.note(&[true, false, false, false]), Ok(()));
        assert_eq!(s.note(&[true, true, false, false]), Ok(()));
        assert_eq!(s.note(&[true, true, true, true]), Ok(()));
        assert_eq!(s.note(&[true, false, false, true]), Err(Repeat::Again));
        assert_eq!(s.note(&[true, true, false, true]), Err(Repeat::Again));
        assert!(s.into_blocks().is_none());
    }

    #[test]
    fn the_memory_share_bounds_the_fingerprints_and_strict_keeps_the_blocks() {
        let (_, p) = three();
        let mut s = Seen::new(&p, 2 * MEMORY_SHARE * BYTES_PER_FINGERPRINT, true);
        assert_eq!(s.note(&[true, false, false]), Ok(()));
        assert_eq!(s.note(&[true, true, false]), Ok(()));
        assert_eq!(s.note(&[true, true, true]), Err(Repeat::Full));
        let blocks = s.into_blocks().unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0], p.block(&[true, false, false]));
    }

    #[test]
    fn wide_projections_fingerprint_every_word() {
        let f = PbFormula::new(200);
        let p = Projection::all(&f);
        let mut s = Seen::new(&p, 1 << 20, false);
        let mut a = vec![false; 200];
        assert_eq!(s.note(&a), Ok(()));
        for i in [63, 64, 127, 128, 199] {
            a[i] = true;
            assert_eq!(s.note(&a), Ok(()), "bit {i}");
        }
    }
}

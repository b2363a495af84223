//! The hash of the crate's hot tables: the IR's own keys (variables, literals, front-end
//! objects), the model counter's component cache and the 3SoKu counter's layers of packed
//! states (`count::frontier`). All of them use `rustc_hash`'s Fx hash, so there is one hash to
//! trust and to measure, not one per module.
//!
//! The standard library's SipHash resists collision attacks, which these tables do not face:
//! their keys come from the compiler, not from an adversary choosing hash inputs (a file
//! only chooses numbers that the compiler turns into keys). Hashing was a tenth of a default
//! `sokuc solve` (callgrind); the Fx hash does the same job in a few instructions per word.

use std::collections::HashMap;

pub use rustc_hash::FxBuildHasher as FastBuildHasher;

/// A `HashMap` with the Fx hash (`rustc_hash::FxHasher`).
pub type FastMap<K, V> = HashMap<K, V, FastBuildHasher>;

#[cfg(test)]
mod tests {
    use std::hash::Hasher;

    use super::*;

    #[test]
    fn a_map_keyed_by_small_integers_and_strings_works_like_any_other() {
        let mut m: FastMap<(u32, String), usize> = FastMap::default();
        for i in 0..5000u32 {
            m.insert((i % 97, format!("k{i}")), i as usize);
        }
        assert_eq!(m.len(), 5000);
        for i in 0..5000u32 {
            assert_eq!(m.get(&(i % 97, format!("k{i}"))), Some(&(i as usize)));
        }
        assert_eq!(m.get(&(1, "nope".to_string())), None);
    }

    #[test]
    fn byte_strings_of_different_lengths_hash_apart() {
        let h = |b: &[u8]| {
            let mut s = rustc_hash::FxHasher::default();
            s.write(b);
            s.finish()
        };
        assert_ne!(h(b"a"), h(b"a\0"));
        assert_ne!(h(b""), h(b"\0"));
        assert_ne!(h(b"abcdefgh"), h(b"abcdefgh\0"));
    }
}

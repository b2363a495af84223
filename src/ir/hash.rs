//! A fast hasher for the IR's own keys (variables, literals, front-end objects).
//!
//! The standard library's SipHash resists collision attacks, which these tables do not face:
//! their keys come from the compiler, not from an adversary choosing hash inputs (a file
//! only chooses numbers that the compiler turns into keys). Hashing was a tenth of a default
//! `sokuc solve` (callgrind, issue 15's start-up work); this multiply-and-rotate hash does the
//! same job in a few instructions per word.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing of each word written (the scheme of Firefox's and rustc's
/// "Fx" hash, written here from its description).
#[derive(Default, Clone, Copy)]
pub struct FastHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 56));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
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
            let mut s = FastHasher::default();
            s.write(b);
            s.finish()
        };
        assert_ne!(h(b"a"), h(b"a\0"));
        assert_ne!(h(b""), h(b"\0"));
        assert_ne!(h(b"abcdefgh"), h(b"abcdefgh\0"));
    }
}

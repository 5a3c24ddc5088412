//! The chain bound's caches as hash maps with a fast hasher: their keys are
//! small integers (and short lists of them) that the bound itself makes,
//! so the standard hasher's defence against chosen collisions buys
//! nothing there and costs a good part of each lookup. The caches are only
//! read and written by key, never walked, so the hasher changes no result.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map keyed by the bound's own small values.
pub(super) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// Mixes each word into the state by a rotation, an xor and a multiply
/// (the scheme of the Firefox and rustc hashers).
#[derive(Default, Clone, Copy)]
pub(super) struct WordHasher {
    hash: u64,
}

/// An odd constant whose bits are well spread.
const MIX: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(MIX);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that differ in one small part land in different buckets of
    /// the hash, and equal keys hash alike.
    #[test]
    fn small_keys_hash_apart() {
        let hash = |k: &(usize, [u32; 2], bool)| {
            let mut h = WordHasher::default();
            std::hash::Hash::hash(k, &mut h);
            h.finish()
        };
        let mut seen = std::collections::HashSet::new();
        for a in 0..50 {
            for x in 0..20 {
                for f in [false, true] {
                    assert!(seen.insert(hash(&(a, [x, u32::MAX], f))));
                }
            }
        }
        assert_eq!(hash(&(3, [1, 2], true)), hash(&(3, [1, 2], true)));
    }

    /// A map with the hasher finds what was put in it.
    #[test]
    fn a_fast_map_is_a_map() {
        let mut m: FastMap<(usize, Vec<usize>, usize), u32> = FastMap::default();
        for i in 0..200 {
            m.insert((i, vec![i, i + 1], i % 7), i as u32);
        }
        assert_eq!(m.len(), 200);
        assert!((0..200).all(|i| m.get(&(i, vec![i, i + 1], i % 7)) == Some(&(i as u32))));
        assert_eq!(m.get(&(1, vec![1], 1)), None);
    }
}

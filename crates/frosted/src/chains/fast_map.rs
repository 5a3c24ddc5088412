//! The chain bound's caches as hash maps with a fast hasher (`rustc-hash`,
//! already in the build through `rustsat`): their keys are small integers
//! (and short lists of them) that the bound itself makes, so the standard
//! hasher's defence against chosen collisions buys nothing there and costs
//! a good part of each lookup. The caches are only read and written by
//! key, never walked, so the hasher changes no result.

/// A hash map keyed by the bound's own small values.
pub(super) type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Keys that differ in one small part hash apart, and equal keys hash
    /// alike.
    #[test]
    fn small_keys_hash_apart() {
        let map: FastMap<(usize, [u32; 2], bool), ()> = FastMap::default();
        let hash = |k: &(usize, [u32; 2], bool)| map.hasher().hash_one(k);
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

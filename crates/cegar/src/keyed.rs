//! Vectors indexed by typed keys (in the style of Pumpkin's `KeyedVec`): a
//! `KeyedVec<K, V>` holds one `V` per key `K`, and only a `K` indexes it, so
//! two index spaces of the same size (say, nodes and edges of a graph) cannot
//! be mixed up. Keys are small `Copy` newtypes made with [`keyed_index!`].

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A key of a [`KeyedVec`]: a position, and back.
pub trait StorageKey: Copy {
    /// The position this key stands for.
    fn index(&self) -> usize;
    /// The key of position `index`.
    fn create_from_index(index: usize) -> Self;
}

impl StorageKey for usize {
    fn index(&self) -> usize {
        *self
    }

    fn create_from_index(index: usize) -> Self {
        index
    }
}

/// Defines a key type for [`KeyedVec`]: a `Copy` newtype around `u32` that
/// implements [`StorageKey`] and prints as its number.
///
/// ```
/// cegar::keyed_index!(
///     /// A thing's number.
///     pub struct ThingId;
/// );
/// let mut things = cegar::keyed::KeyedVec::<ThingId, &str>::new();
/// let a: ThingId = things.push("a");
/// assert_eq!(things[a], "a");
/// ```
#[macro_export]
macro_rules! keyed_index {
    ($(#[$meta:meta])* $vis:vis struct $name:ident;) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis struct $name(u32);

        impl $crate::keyed::StorageKey for $name {
            fn index(&self) -> usize {
                self.0 as usize
            }

            fn create_from_index(index: usize) -> Self {
                $name(u32::try_from(index).expect("index fits in u32"))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

/// A vector of `V` indexed by keys `K`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct KeyedVec<K, V> {
    key: PhantomData<K>,
    elements: Vec<V>,
}

impl<K, V: std::fmt::Debug> std::fmt::Debug for KeyedVec<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.elements.fmt(f)
    }
}

impl<K, V> Default for KeyedVec<K, V> {
    fn default() -> Self {
        KeyedVec {
            key: PhantomData,
            elements: Vec::new(),
        }
    }
}

impl<K: StorageKey, V> KeyedVec<K, V> {
    /// An empty vector.
    pub fn new() -> Self {
        Self::default()
    }

    /// `len` copies of `value`.
    pub fn filled(len: usize, value: V) -> Self
    where
        V: Clone,
    {
        Self::from(vec![value; len])
    }

    /// The number of elements (one past the last key).
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Appends `value` and returns its key.
    pub fn push(&mut self, value: V) -> K {
        self.elements.push(value);
        K::create_from_index(self.elements.len() - 1)
    }

    /// The element of `key`, if there is one.
    pub fn get(&self, key: K) -> Option<&V> {
        self.elements.get(key.index())
    }

    /// Every key, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator + Clone {
        (0..self.elements.len()).map(K::create_from_index)
    }

    /// Every element, in the order of the keys.
    pub fn iter(&self) -> std::slice::Iter<'_, V> {
        self.elements.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, V> {
        self.elements.iter_mut()
    }

    /// Every key with its element, in order.
    pub fn enumerate(&self) -> impl DoubleEndedIterator<Item = (K, &V)> + ExactSizeIterator {
        self.elements
            .iter()
            .enumerate()
            .map(|(i, v)| (K::create_from_index(i), v))
    }

    /// Grows or shrinks to `len` elements, filling with `value`.
    pub fn resize(&mut self, len: usize, value: V)
    where
        V: Clone,
    {
        self.elements.resize(len, value);
    }

    /// The elements as a plain slice (for code that knows no keys).
    pub fn as_slice(&self) -> &[V] {
        &self.elements
    }

    /// The key of the first element that satisfies `pred`.
    pub fn position(&self, pred: impl FnMut(&V) -> bool) -> Option<K> {
        self.elements
            .iter()
            .position(pred)
            .map(K::create_from_index)
    }
}

impl<K, V> From<Vec<V>> for KeyedVec<K, V> {
    fn from(elements: Vec<V>) -> Self {
        KeyedVec {
            key: PhantomData,
            elements,
        }
    }
}

impl<K, V> FromIterator<V> for KeyedVec<K, V> {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        Self::from(iter.into_iter().collect::<Vec<V>>())
    }
}

impl<'a, K, V> IntoIterator for &'a KeyedVec<K, V> {
    type Item = &'a V;
    type IntoIter = std::slice::Iter<'a, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.elements.iter()
    }
}

impl<K, V> IntoIterator for KeyedVec<K, V> {
    type Item = V;
    type IntoIter = std::vec::IntoIter<V>;

    fn into_iter(self) -> Self::IntoIter {
        self.elements.into_iter()
    }
}

impl<K: StorageKey, V> Index<K> for KeyedVec<K, V> {
    type Output = V;

    fn index(&self, key: K) -> &V {
        &self.elements[key.index()]
    }
}

impl<K: StorageKey, V> IndexMut<K> for KeyedVec<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.elements[key.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    keyed_index!(
        /// A test key.
        struct Apple;
    );
    keyed_index!(
        struct Pear;
    );

    #[test]
    fn push_returns_the_key_that_indexes_the_element() {
        let mut v: KeyedVec<Apple, &str> = KeyedVec::new();
        let a = v.push("a");
        let b = v.push("b");
        assert_eq!((a.index(), b.index()), (0, 1));
        assert_eq!((v[a], v[b]), ("a", "b"));
        v[b] = "c";
        assert_eq!(v.get(b), Some(&"c"));
        assert_eq!(v.get(Apple::create_from_index(2)), None);
        assert_eq!(v.keys().collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(v.iter().copied().collect::<Vec<_>>(), vec!["a", "c"]);
        assert_eq!(
            v.enumerate().collect::<Vec<_>>(),
            vec![(a, &"a"), (b, &"c")]
        );
        assert_eq!(v.position(|&s| s == "c"), Some(b));
        assert_eq!(format!("{a} {b} {v:?}"), "0 1 [\"a\", \"c\"]");
    }

    #[test]
    fn nested_vectors_take_their_own_keys() {
        // `table[pear][apple]`: each level only takes its own key type.
        let mut table: KeyedVec<Pear, KeyedVec<Apple, u8>> =
            (0..2).map(|p| KeyedVec::filled(3, p)).collect();
        let (p, a) = (Pear::create_from_index(1), Apple::create_from_index(2));
        table[p][a] = 7;
        assert_eq!(table[p].as_slice(), &[1, 1, 7]);
        assert_eq!(table.len(), 2);
        let mut grown: KeyedVec<usize, u8> = KeyedVec::default();
        grown.resize(2, 5);
        assert_eq!(grown.into_iter().collect::<Vec<_>>(), vec![5, 5]);
    }
}

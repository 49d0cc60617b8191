//! The table behind `dict`, in CPython's compact layout: the entries (hash, key, value) in
//! insertion order in one dense `Vec`, and beside them an open-addressed index of 4-byte
//! slots, each an entry's position. Growing copies the entries in one block (a `realloc`)
//! and rebuilds the small index by walking them in order; `IndexMap`'s 40-byte entries,
//! reserved up to its index's capacity, and its 8-byte index rehashed bucket by bucket, made
//! building a 500,000-key dict spend 20 of its 35 ms growing (a Rust loop of the same
//! inserts: 24 ms in `IndexMap`, 4 ms here).
//!
//! Positions are dense (no holes), so a key's index is its place in iteration order, as
//! `IndexMap`'s is; removing from the middle shifts the later entries down (O(n), as
//! `IndexMap::shift_remove`), removing the last entry (`popitem`) is O(1).
use super::value::{key_hash, Key, KeyBuildHasher, Value};

/// A slot no entry has used.
const EMPTY: u32 = 0;
/// A slot whose entry was removed: probes go on past it.
const DUMMY: u32 = u32::MAX;
/// The smallest index (CPython's `PyDict_MINSIZE`).
const MIN_SLOTS: usize = 8;

/// An entry (public only as the item of the owning iterator's type).
#[derive(Clone)]
pub struct Bucket {
    hash: u64,
    key: Key,
    value: Value,
}

#[derive(Clone, Default)]
pub struct DictMap {
    /// Empty, or a power of two long; each slot is `EMPTY`, `DUMMY` or an entry's position + 1.
    slots: Box<[u32]>,
    entries: Vec<Bucket>,
    /// Slots that are not `EMPTY` (entries and `DUMMY`s): what the load factor counts.
    filled: usize,
    flags: KeyBuildHasher,
}

/// Where a probe for a key ended: at its entry, or at the empty slot it would take.
enum Probe {
    Found { pos: usize },
    Vacant { slot: usize },
}

impl DictMap {
    pub fn new() -> DictMap {
        DictMap::default()
    }

    pub fn with_capacity(n: usize) -> DictMap {
        let mut m = DictMap::default();
        m.reserve(n);
        m
    }

    /// Whether the table has held a key compared by a user `__eq__` (see `KeyBuildHasher`).
    pub fn flags(&self) -> &KeyBuildHasher {
        &self.flags
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Room for `n` more keys without growing.
    pub fn reserve(&mut self, n: usize) {
        let want = self.entries.len() + n;
        self.entries.reserve(n);
        if want * 3 > self.slots.len() * 2 {
            self.rebuild(want);
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.slots.fill(EMPTY);
        self.filled = 0;
    }

    /// Probes for `key` (whose hash is `hash`) in CPython's order (`Probes`). The probe key
    /// is compared first (`key == stored`), as the user-`__eq__` candidate search
    /// (`key_candidates`) expects.
    #[inline(always)]
    fn probe(&self, hash: u64, key: &Key) -> Probe {
        let mut p = Probes::new(hash, self.slots.len().wrapping_sub(1));
        loop {
            let s = self.slots[p.i];
            if s == EMPTY {
                return Probe::Vacant { slot: p.i };
            }
            if s != DUMMY {
                let pos = (s - 1) as usize;
                let e = &self.entries[pos];
                if e.hash == hash && *key == e.key {
                    return Probe::Found { pos };
                }
            }
            p.advance();
        }
    }

    /// The position of `key`'s entry.
    #[inline]
    pub fn get_index_of(&self, key: &Key) -> Option<usize> {
        if self.entries.is_empty() {
            return None;
        }
        match self.probe(key_hash(&key.0), key) {
            Probe::Found { pos, .. } => Some(pos),
            Probe::Vacant { .. } => None,
        }
    }

    #[inline]
    pub fn get(&self, key: &Key) -> Option<&Value> {
        self.get_index_of(key).map(|p| &self.entries[p].value)
    }

    pub fn get_mut(&mut self, key: &Key) -> Option<&mut Value> {
        self.get_index_of(key).map(|p| &mut self.entries[p].value)
    }

    pub fn get_full(&self, key: &Key) -> Option<(usize, &Key, &Value)> {
        self.get_index_of(key).map(|p| {
            let e = &self.entries[p];
            (p, &e.key, &e.value)
        })
    }

    pub fn contains_key(&self, key: &Key) -> bool {
        self.get_index_of(key).is_some()
    }

    /// Sets `key`'s value, keeping the key object already there (as Python does: `{1: 'a',
    /// 1.0: 'b'}` is `{1: 'b'}`). Gives the old value back.
    #[inline]
    pub fn insert(&mut self, key: Key, value: Value) -> Option<Value> {
        self.insert_full(key, value).1
    }

    /// `insert`, with the entry's position.
    pub fn insert_full(&mut self, key: Key, value: Value) -> (usize, Option<Value>) {
        let hash = key_hash(&key.0);
        if (self.filled + 1) * 3 > self.slots.len() * 2 {
            // (Growing before the probe: the key may be there, but a table this full grows
            // at the next new key anyway.)
            self.rebuild(self.entries.len() + 1);
        }
        match self.probe(hash, &key) {
            Probe::Found { pos, .. } => {
                let old = std::mem::replace(&mut self.entries[pos].value, value);
                (pos, Some(old))
            }
            Probe::Vacant { slot } => {
                let pos = self.entries.len();
                self.slots[slot] = slot_of(pos);
                self.filled += 1;
                self.entries.push(Bucket { hash, key, value });
                (pos, None)
            }
        }
    }

    /// `key`'s value, first set to `make()` if `key` is not there (`dict.setdefault`).
    pub fn get_or_insert_with(&mut self, key: Key, make: impl FnOnce() -> Value) -> &mut Value {
        let pos = match self.get_index_of(&key) {
            Some(pos) => pos,
            None => self.insert_full(key, make()).0,
        };
        &mut self.entries[pos].value
    }

    /// Makes the index fit `n` entries at most two thirds full (CPython grows a dict to
    /// three times its size in use) and fills it from the entries, in order.
    #[cold]
    fn rebuild(&mut self, n: usize) {
        let size = (n * 3).max(MIN_SLOTS).next_power_of_two();
        if size != self.slots.len() {
            self.slots = vec![EMPTY; size].into_boxed_slice();
        } else {
            self.slots.fill(EMPTY);
        }
        let mask = size - 1;
        for (pos, e) in self.entries.iter().enumerate() {
            let mut p = Probes::new(e.hash, mask);
            while self.slots[p.i] != EMPTY {
                p.advance();
            }
            self.slots[p.i] = slot_of(pos);
        }
        self.filled = self.entries.len();
    }

    /// The slot that holds entry `pos`.
    fn slot_holding(&self, pos: usize) -> usize {
        let mut p = Probes::new(self.entries[pos].hash, self.slots.len() - 1);
        while self.slots[p.i] != slot_of(pos) {
            p.advance();
        }
        p.i
    }

    /// Removes the entry at `pos`, shifting the later ones down.
    pub fn shift_remove_index(&mut self, pos: usize) -> Option<(Key, Value)> {
        if pos >= self.entries.len() {
            return None;
        }
        let slot = self.slot_holding(pos);
        self.slots[slot] = DUMMY;
        let b = self.entries.remove(pos);
        if pos < self.entries.len() {
            // Later entries moved down one place: so do their slots.
            let after = slot_of(pos);
            for s in self.slots.iter_mut() {
                if *s > after && *s != DUMMY {
                    *s -= 1;
                }
            }
        }
        Some((b.key, b.value))
    }

    pub fn shift_remove(&mut self, key: &Key) -> Option<Value> {
        let pos = self.get_index_of(key)?;
        self.shift_remove_index(pos).map(|(_, v)| v)
    }

    /// Removes `key`'s entry, moving the last entry into its place.
    pub fn swap_remove(&mut self, key: &Key) -> Option<Value> {
        let pos = self.get_index_of(key)?;
        let slot = self.slot_holding(pos);
        self.slots[slot] = DUMMY;
        let last = self.entries.len() - 1;
        if pos != last {
            let moved = self.slot_holding(last);
            self.slots[moved] = slot_of(pos);
        }
        Some(self.entries.swap_remove(pos).value)
    }

    /// Removes the last entry.
    pub fn pop(&mut self) -> Option<(Key, Value)> {
        let last = self.entries.len().checked_sub(1)?;
        let slot = self.slot_holding(last);
        self.slots[slot] = DUMMY;
        self.entries.pop().map(|b| (b.key, b.value))
    }

    pub fn get_index(&self, pos: usize) -> Option<(&Key, &Value)> {
        self.entries.get(pos).map(|e| (&e.key, &e.value))
    }

    pub fn get_index_mut(&mut self, pos: usize) -> Option<(&Key, &mut Value)> {
        self.entries.get_mut(pos).map(|e| (&e.key, &mut e.value))
    }

    pub fn first(&self) -> Option<(&Key, &Value)> {
        self.get_index(0)
    }

    pub fn last(&self) -> Option<(&Key, &Value)> {
        self.entries.last().map(|e| (&e.key, &e.value))
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&Key, &mut Value)> {
        self.entries.iter_mut().map(|e| (&e.key, &mut e.value))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + ExactSizeIterator + Clone {
        self.entries.iter().map(|e| &e.key)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator + Clone {
        self.entries.iter().map(|e| &e.value)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Value> {
        self.entries.iter_mut().map(|e| &mut e.value)
    }

    /// Keeps the entries `keep` approves of, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &mut Value) -> bool) {
        let before = self.entries.len();
        self.entries.retain_mut(|e| keep(&e.key, &mut e.value));
        if self.entries.len() != before {
            self.rebuild(self.entries.len());
        }
    }

    /// Reorders the entries (`sorted` by `cmp`).
    pub fn sort_by(
        &mut self,
        mut cmp: impl FnMut(&Key, &Value, &Key, &Value) -> std::cmp::Ordering,
    ) {
        self.entries
            .sort_by(|a, b| cmp(&a.key, &a.value, &b.key, &b.value));
        self.rebuild(self.entries.len());
    }

    pub fn reverse(&mut self) {
        self.entries.reverse();
        self.rebuild(self.entries.len());
    }
}

/// The slots a hash visits, in CPython's order: the next is `5 i + 1 + perturb`, with the
/// hash's higher bits shifted into `perturb`, so weak low bits do not cluster.
struct Probes {
    i: usize,
    perturb: u64,
    mask: usize,
}

impl Probes {
    #[inline(always)]
    fn new(hash: u64, mask: usize) -> Probes {
        Probes {
            i: hash as usize & mask,
            perturb: hash,
            mask,
        }
    }

    #[inline(always)]
    fn advance(&mut self) {
        self.perturb >>= 5;
        let next = self.i.wrapping_mul(5).wrapping_add(1);
        self.i = next.wrapping_add(self.perturb as usize) & self.mask;
    }
}

#[inline(always)]
fn slot_of(pos: usize) -> u32 {
    // (A table of 2^32 - 2 entries would need 150 GB: positions fit.)
    pos as u32 + 1
}

/// The entries in order, as `(key, value)`.
#[derive(Clone)]
pub struct Iter<'a>(std::slice::Iter<'a, Bucket>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Key, &'a Value);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|e| (&e.key, &e.value))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|e| (&e.key, &e.value))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a DictMap {
    type Item = (&'a Key, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl IntoIterator for DictMap {
    type Item = (Key, Value);
    type IntoIter = std::iter::Map<std::vec::IntoIter<Bucket>, fn(Bucket) -> (Key, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter().map(|b| (b.key, b.value))
    }
}

impl Extend<(Key, Value)> for DictMap {
    fn extend<I: IntoIterator<Item = (Key, Value)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k, v);
        }
    }
}

impl FromIterator<(Key, Value)> for DictMap {
    fn from_iter<I: IntoIterator<Item = (Key, Value)>>(items: I) -> DictMap {
        let mut m = DictMap::new();
        m.extend(items);
        m
    }
}

impl std::fmt::Debug for DictMap {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(i: i64) -> Key {
        Key(Value::Int(i))
    }

    fn ints(m: &DictMap) -> Vec<(i64, i64)> {
        m.iter()
            .map(|(k, v)| match (&k.0, v) {
                (Value::Int(a), Value::Int(b)) => (*a, *b),
                _ => panic!("not ints"),
            })
            .collect()
    }

    #[test]
    fn keeps_insertion_order_through_growth_and_removal() {
        let mut m = DictMap::new();
        for i in 0..1000 {
            assert_eq!(
                m.insert_full(k(i * 7919 % 1009), Value::Int(i))
                    .1
                    .map(|_| ()),
                None
            );
        }
        assert_eq!(m.len(), 1000);
        for i in 0..1000 {
            assert!(matches!(m.get(&k(i * 7919 % 1009)), Some(Value::Int(v)) if *v == i));
        }
        // Replacing keeps the place; removing from the middle shifts; popping takes the last.
        assert!(matches!(
            m.insert(k(0), Value::Int(-1)),
            Some(Value::Int(0))
        ));
        assert_eq!(m.get_index_of(&k(0)), Some(0));
        let second = ints(&m)[1].0;
        assert!(m.shift_remove(&k(second)).is_some());
        assert_eq!(m.get(&k(second)).map(|_| ()), None);
        assert_eq!(m.get_index_of(&k(ints(&m)[1].0)), Some(1));
        let last = ints(&m)[998].0;
        assert_eq!(
            m.pop()
                .map(|(k, _)| k.0.dup())
                .map(|v| matches!(v, Value::Int(x) if x == last)),
            Some(true)
        );
        assert_eq!(m.len(), 998);
        for (pos, (key, _)) in ints(&m).into_iter().enumerate() {
            assert_eq!(m.get_index_of(&k(key)), Some(pos));
        }
    }

    #[test]
    fn removals_leave_probes_working() {
        // Keys that share their low bits collide; removing some must not hide the others.
        let mut m = DictMap::new();
        for i in 0..64 {
            m.insert(k(i << 20), Value::Int(i));
        }
        for i in (0..64).step_by(2) {
            assert!(m.swap_remove(&k(i << 20)).is_some());
        }
        for i in 0..64 {
            assert_eq!(m.contains_key(&k(i << 20)), i % 2 == 1, "{i}");
        }
        for i in 0..1000 {
            m.insert(k(i), Value::None);
            m.shift_remove(&k(i));
        }
        assert_eq!(m.len(), 32);
        m.retain(|key, _| matches!(key.0, Value::Int(x) if x != 1 << 20));
        assert_eq!(m.len(), 31);
        assert!(m.contains_key(&k(3 << 20)) && !m.contains_key(&k(1 << 20)));
        m.clear();
        assert!(m.is_empty() && m.get(&k(1 << 20)).is_none());
    }
}

//! Dict keys and set elements of user classes: `__hash__` decides the bucket and `__eq__`
//! which stored key a probe means. `Key`'s own `Hash`/`Eq` cannot run Python code, so a key
//! that compares by a user `__eq__` is first replaced by the equal key the map already holds
//! (found among the keys with the same hash); str, int and other builtin keys skip all this.
use super::Interp;
use crate::lang::error::{type_error, PyResult};
use crate::lang::symbol::dunder;
use crate::lang::value::*;
use std::cell::RefCell;
use std::hash::BuildHasher;

/// A map whose keys `Interp::key_in` can search.
pub trait KeyedMap {
    /// Whether `k` itself (compared without user code) is a key.
    fn has_key(&self, k: &Key) -> bool;
    fn hash_of(&self, k: &Key) -> u64;
    fn flags(&self) -> &KeyBuildHasher;
    /// The stored keys of user classes whose `__hash__` gave `h`.
    fn user_keys_hashing(&self, h: i64) -> Vec<Key>;
}

impl KeyedMap for DictMap {
    fn has_key(&self, k: &Key) -> bool {
        self.contains_key(k)
    }
    fn hash_of(&self, k: &Key) -> u64 {
        key_hash(&k.0)
    }
    fn flags(&self) -> &KeyBuildHasher {
        DictMap::flags(self)
    }
    fn user_keys_hashing(&self, h: i64) -> Vec<Key> {
        self.keys().filter(|k| hashes_as(k, h)).cloned().collect()
    }
}

impl KeyedMap for SetMap {
    fn has_key(&self, k: &Key) -> bool {
        self.contains(k)
    }
    fn hash_of(&self, k: &Key) -> u64 {
        self.hasher().hash_one(k)
    }
    fn flags(&self) -> &KeyBuildHasher {
        self.hasher()
    }
    fn user_keys_hashing(&self, h: i64) -> Vec<Key> {
        self.iter().filter(|k| hashes_as(k, h)).cloned().collect()
    }
}

fn hashes_as(k: &Key, h: i64) -> bool {
    matches!(&k.0, Value::Instance(i) if i.hash.get() == Some(h))
}

impl Interp {
    /// `v` as a key: instances of classes with a `__hash__` (also inside tuples) get its value
    /// computed; unhashable values raise CPython's TypeError.
    #[inline]
    pub fn new_key(&mut self, v: Value) -> PyResult<Key> {
        if matches!(v, Value::Instance(_) | Value::Tuple(_)) {
            self.fill_hashes(&v)?;
        }
        Key::new(v)
    }

    fn fill_hashes(&mut self, v: &Value) -> PyResult<()> {
        match v {
            Value::Instance(i) => {
                // A tuple (str, ...) subclass keeping the type's hash hashes as its value.
                if let Some(b) = i.plain_base() {
                    return self.fill_hashes(b);
                }
                let Some(h) = i.class.lookup(dunder::HASH) else {
                    return Ok(());
                };
                if matches!(h, Value::None) {
                    return Err(type_error(format!("unhashable type: '{}'", v.type_name())));
                }
                let r = self.call_bound(&h, v.clone(), Args::default())?;
                let n = match r {
                    Value::Int(n) => n,
                    Value::Bool(b) => b as i64,
                    _ => {
                        return Err(type_error("__hash__ method should return an integer"));
                    }
                };
                i.hash.set(Some(n));
            }
            Value::Tuple(items) => {
                for x in items.iter() {
                    if matches!(x, Value::Instance(_) | Value::Tuple(_)) {
                        self.fill_hashes(x)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `d[v]` if present: a plain key is looked up as it is (no key made, no reference count).
    pub fn dict_lookup(&mut self, d: &RefCell<DictMap>, v: &Value) -> PyResult<Option<Value>> {
        if lookup_as_is(v, d) {
            return Ok(d.borrow().get(Key::of_ref(v)).map(Value::dup));
        }
        let k = self.key_in(v.dup(), d)?;
        Ok(d.borrow().get(&k).map(Value::dup))
    }

    /// `v in map` for a dict or set table, a plain key looked up as it is.
    pub fn key_present<M: KeyedMap>(&mut self, map: &RefCell<M>, v: &Value) -> PyResult<bool> {
        if lookup_as_is(v, map) {
            return Ok(map.borrow().has_key(Key::of_ref(v)));
        }
        let k = self.key_in(v.dup(), map)?;
        Ok(map.borrow().has_key(&k))
    }

    /// `v` as a key of `map`: the equal key already there when `v` compares by a user
    /// `__eq__`, else `v` itself.
    #[inline]
    pub fn key_in<M: KeyedMap>(&mut self, v: Value, map: &RefCell<M>) -> PyResult<Key> {
        if lookup_as_is(&v, map) {
            return Ok(Key(v));
        }
        self.key_in_slow(v, map)
    }

    #[inline(never)]
    fn key_in_slow<M: KeyedMap>(&mut self, v: Value, map: &RefCell<M>) -> PyResult<Key> {
        if plain_key(&v) {
            return self.rekey_plain(Key(v), map);
        }
        let k = self.new_key(v)?;
        self.rekey_in(k, map)
    }

    /// `key_in` for a map being built (not yet shared).
    #[inline]
    pub fn key_in_local<M: KeyedMap>(&mut self, v: Value, map: &M) -> PyResult<Key> {
        if plain_key(&v) {
            if !map.flags().has_user_eq_keys() {
                return Ok(Key(v));
            }
            let cands = plain_candidates(map, &Key(v.clone()));
            return self.canonical(Key(v), cands);
        }
        let k = self.new_key(v)?;
        self.rekey_in_local(k, map)
    }

    /// `d.update(m)` for a dict `m`: a key equal by a user `__eq__` to one already in `d`
    /// replaces that entry's value.
    pub fn merge_dict(&mut self, d: &RefCell<DictMap>, m: &RefCell<DictMap>) -> PyResult<()> {
        let items: Vec<(Key, Value)> = m
            .borrow()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (k, v) in items {
            let k = self.rekey_in(k, d)?;
            super::expr::dict_insert(&mut d.borrow_mut(), k, v);
        }
        Ok(())
    }

    /// `key_in` for a key already made (taken from another dict or set: not hashed again).
    pub fn rekey_in<M: KeyedMap>(&mut self, k: Key, map: &RefCell<M>) -> PyResult<Key> {
        if !needs_user_eq(&k.0) {
            if plain_key(&k.0) && map.try_borrow().is_ok_and(|m| m.flags().has_user_eq_keys()) {
                return self.rekey_plain(k, map);
            }
            return Ok(k);
        }
        let cands = match map.try_borrow() {
            Ok(m) => {
                m.flags().mark_user_eq_keys();
                candidates(&*m, &k)
            }
            Err(_) => Vec::new(),
        };
        self.canonical(k, cands)
    }

    /// A plain key (`2`) in a map that holds keys with a user `__eq__`: the stored key with
    /// the same hash that equals it (`Num(2)`), else the key itself.
    #[inline(never)]
    fn rekey_plain<M: KeyedMap>(&mut self, k: Key, map: &RefCell<M>) -> PyResult<Key> {
        let cands = match map.try_borrow() {
            Ok(m) => plain_candidates(&*m, &k),
            Err(_) => Vec::new(),
        };
        self.canonical(k, cands)
    }

    /// `rekey_in` for a map being built (not yet shared).
    pub fn rekey_in_local<M: KeyedMap>(&mut self, k: Key, map: &M) -> PyResult<Key> {
        if !needs_user_eq(&k.0) {
            if plain_key(&k.0) && map.flags().has_user_eq_keys() {
                let cands = plain_candidates(map, &k);
                return self.canonical(k, cands);
            }
            return Ok(k);
        }
        map.flags().mark_user_eq_keys();
        let cands = candidates(map, &k);
        self.canonical(k, cands)
    }

    /// `y`'s elements, with those equal by a user `__eq__` to an element of `x` replaced by
    /// it, so that set algebra on the two compares them; `None` when none needs it.
    pub fn align_set(
        &mut self,
        y: &RefCell<SetMap>,
        x: &RefCell<SetMap>,
    ) -> PyResult<Option<SetMap>> {
        if !y.borrow().iter().any(|k| needs_user_eq(&k.0)) {
            return Ok(None);
        }
        let ys: Vec<Key> = y.borrow().iter().cloned().collect();
        let mut out = SetMap::default();
        for k in ys {
            let k = self.key_in(k.0, x)?;
            out.insert(k);
        }
        Ok(Some(out))
    }

    fn canonical(&mut self, k: Key, cands: Vec<Key>) -> PyResult<Key> {
        for c in cands {
            if self.eq(&k.0, &c.0)? {
                return Ok(c);
            }
        }
        Ok(k)
    }
}

/// The stored keys with `k`'s hash that are not `k` itself (none when `k` is there).
fn candidates<M: KeyedMap>(m: &M, k: &Key) -> Vec<Key> {
    let Some(got) = key_candidates(k, |k| m.has_key(k)) else {
        return Vec::new();
    };
    let h = m.hash_of(k);
    got.into_iter().filter(|c| m.hash_of(c) == h).collect()
}

/// The stored user keys a plain key may equal. An int's table hash is an instance's whose
/// `__hash__` gives that int, so those share its bucket; a str (or other) key hashes apart
/// from them, so the instances whose `__hash__` equals its `hash()` are found by a walk (only
/// in tables holding such keys, and only when the key itself is not there).
fn plain_candidates<M: KeyedMap>(m: &M, k: &Key) -> Vec<Key> {
    let near = candidates(m, k);
    let int_like = match &k.0 {
        Value::Int(_) | Value::Bool(_) => true,
        Value::Float(f) => f.get().fract() == 0.0 && f.get().abs() < 9.2e18,
        _ => false,
    };
    if !near.is_empty() || int_like || m.has_key(k) {
        return near;
    }
    m.user_keys_hashing(py_hash(&k.0))
}

/// Whether `map` has held a key compared by a user `__eq__` (see `KeyBuildHasher`).
#[inline(always)]
fn user_eq_keys<M: KeyedMap>(map: &RefCell<M>) -> bool {
    // SAFETY: the reference is used at once to read a flag and not kept, so no mutable
    // borrow can begin while it lives (this skips `try_borrow`'s count update on every key).
    match unsafe { map.try_borrow_unguarded() } {
        Ok(m) => m.flags().has_user_eq_keys(),
        Err(_) => false,
    }
}

/// Whether `v` can be looked up in `map` as it is (`Key::of_ref`): a plain key in a table
/// without user-`__eq__` keys, the case `key_in` passes through unchanged.
#[inline]
fn lookup_as_is<M: KeyedMap>(v: &Value, map: &RefCell<M>) -> bool {
    plain_key(v) && !user_eq_keys(map)
}

/// Keys that are always hashable and equal only by value (no user `__hash__`/`__eq__`):
/// the common dict keys skip `new_key`'s checks.
#[inline]
fn plain_key(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_) | Value::Str(_) | Value::Float(_) | Value::Bool(_) | Value::None
    )
}

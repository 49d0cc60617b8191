//! The values of the language. Containers are shared (`Rc`) and mutable (`RefCell`) as Python
//! objects are; `is` compares those pointers.
use super::ast::FuncDef;
use super::error::{type_error, Exc, ExcKind, PyResult, Source};
use super::interp::Interp;
pub use super::native_rc::NativeRc;
pub use super::pystr::PyStr;
use super::symbol::Sym;
use indexmap::{IndexMap, IndexSet};
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::any::Any;
use std::cell::RefCell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

pub type Cell = Rc<RefCell<Option<Value>>>;
pub type AttrMap = IndexMap<Sym, Value, FxBuildHasher>;
pub use super::dict_map::DictMap;
pub type SetMap = IndexSet<Key, KeyBuildHasher>;

/// The hasher of dict and set tables. `Key::hash` writes one finished hash (`key_hash`),
/// which this passes through unchanged. It also records whether the table has held a key
/// that compares by a user `__eq__`, which an equal plain key (`2` for a stored `Num(2)`)
/// must then be matched against (`Interp::key_in`); other tables skip that search.
#[derive(Clone, Default)]
pub struct KeyBuildHasher {
    user_eq: std::cell::Cell<bool>,
}

impl KeyBuildHasher {
    #[inline(always)]
    pub fn has_user_eq_keys(&self) -> bool {
        self.user_eq.get()
    }
    pub fn mark_user_eq_keys(&self) {
        self.user_eq.set(true);
    }
}

impl std::hash::BuildHasher for KeyBuildHasher {
    type Hasher = KeyHasher;
    #[inline(always)]
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline(always)]
    fn write_u64(&mut self, x: u64) {
        // (One write per key: the hash itself. More writes still mix.)
        self.0 = self.0.rotate_left(26) ^ x;
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = rustc_hash::FxHasher::default();
        h.write(bytes);
        self.write_u64(h.finish());
    }
}

/// The table hash of an int key (and of the equal bool and float keys, and of an instance
/// whose `__hash__` gave it). As CPython's `hash(i) == i`, consecutive ints land in
/// neighbouring buckets (a dict of `range(n)` keys is walked in memory order, not at random);
/// higher bits are folded into the low ones so that strides of a power of two still spread,
/// and the top 7 bits, which the table keeps as each bucket's tag, are mixed.
#[inline(always)]
pub fn int_key_hash(i: i64) -> u64 {
    let u = i as u64;
    let low = u ^ (u >> 10) ^ (u >> 20) ^ (u >> 40);
    let tag = u.wrapping_mul(0x9E37_79B9_7F4A_7C15) & (0x7F << 57);
    (low & !(0x7F << 57)) ^ tag
}

/// A Python value: two words, a word-sized tag (`repr(u64)`) and a one-word payload (an int
/// or a pointer), which rustc lays out as a scalar pair: a value is returned in two registers
/// and moved as two words. A wider `Value` was copied through memory, and its 16-byte loads,
/// straddling the separate stores that had just written tag and payload, stalled on store
/// forwarding at nearly every move (perf put 15-60% of hot evaluator functions' samples on
/// those copies). Hence `PyBool`, `PyFloat` and the thin `PyStr` and `NativeRc`.
#[derive(Clone)]
#[repr(u64)]
pub enum Value {
    None,
    Bool(PyBool),
    Int(i64),
    Float(PyFloat),
    Str(PyStr),
    List(Rc<RefCell<Vec<Value>>>),
    Tuple(Rc<Vec<Value>>),
    Dict(Rc<RefCell<DictMap>>),
    Set(Rc<RefCell<SetMap>>),
    /// A `frozenset`: a set's table, never changed after it is made (the set code reads both).
    FrozenSet(Rc<RefCell<SetMap>>),
    Range(Rc<Range>),
    Slice(Rc<[Value; 3]>),
    Ellipsis,
    NotImplemented,
    Func(Rc<Function>),
    Builtin(Rc<Builtin>),
    /// A bound method: the function with its `self`.
    Method(Rc<(Value, Value)>),
    Class(Rc<Class>),
    Instance(Rc<Instance>),
    Module(Rc<Module>),
    Iter(Rc<RefCell<Iter>>),
    /// Objects implemented in Rust (torch values, context managers, ...).
    Native(NativeRc),
    /// A captured variable's box; lives only in frame slots, never seen by programs.
    Cell(Cell),
    /// A string being built by `s += t` in a local slot: appended in place (as CPython
    /// resizes in place), read back as a `Str`. Lives only in frame slots.
    StrBuf(Box<String>),
}

// The tag's unused values give `Option<Value>` (a frame slot) and `PyResult<Value>` their
// niche, so both stay two words as well.
const _: () = assert!(std::mem::size_of::<Value>() == 16);
const _: () = assert!(std::mem::size_of::<Option<Value>>() == 16);
const _: () = assert!(std::mem::size_of::<PyResult<Value>>() == 16);

/// A `bool` as a whole word, so that `Value`'s payloads are all one-word scalars.
#[repr(u64)]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum PyBool {
    False = 0,
    True = 1,
}

impl PyBool {
    #[inline(always)]
    pub fn get(self) -> bool {
        self == PyBool::True
    }
}

impl From<bool> for PyBool {
    #[inline(always)]
    fn from(b: bool) -> PyBool {
        if b {
            PyBool::True
        } else {
            PyBool::False
        }
    }
}

/// An `f64` kept as its bits, so that `Value`'s payloads are all one-word integers (a
/// float field would stop the scalar-pair layout). `get` reads it.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct PyFloat(u64);

impl PyFloat {
    #[inline(always)]
    pub const fn new(x: f64) -> PyFloat {
        PyFloat(x.to_bits())
    }
    #[inline(always)]
    pub const fn get(self) -> f64 {
        f64::from_bits(self.0)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "<{}>", self.type_name())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        // (`PyStr` copies the text out of a `String` either way.)
        Value::str(&s)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::str(s)
    }
}
impl From<char> for Value {
    fn from(c: char) -> Value {
        match ONE_CHAR.with(|t| t.get(c as usize).cloned()) {
            Some(r) => Value::Str(r),
            None => Value::Str(PyStr::from(c.encode_utf8(&mut [0; 4]) as &str)),
        }
    }
}

thread_local! {
    /// The strings of one character below U+0100, made once and shared, as CPython keeps
    /// its Latin-1 singletons: `s[i]`, `for c in s` and `"a b".split()` give them without
    /// an allocation (and `"a" is "a"[0]` holds, as it does there).
    static ONE_CHAR: Vec<PyStr> = (0..256u32)
        .map(|c| PyStr::from(char::from_u32(c).unwrap_or('?').to_string()))
        .collect();
}

/// The shared string for `s` when it is one character below U+0100.
#[inline]
fn one_char(s: &str) -> Option<Value> {
    // (Below U+0100 a character is at most 2 bytes of UTF-8.)
    if s.is_empty() || s.len() > 2 {
        return None;
    }
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) if (c as u32) < 256 => Some(Value::from(c)),
        _ => None,
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}
impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::float(x)
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::bool(b)
    }
}

impl Value {
    /// Drops the value with the test for the kinds that own nothing (None, bools, ints,
    /// floats) inlined, so that dropping one is a compare rather than a call of the drop glue
    /// (~11 instructions): an expression statement's result, a builtin call's arguments.
    /// (Not an operator's operands: with fewer instructions, that made the float benchmarks
    /// 12-25% slower.)
    #[inline(always)]
    pub fn release(self) {
        if self.owns_nothing() {
            std::mem::forget(self);
        } else {
            drop(self);
        }
    }

    /// None, a bool, an int or a float: nothing to drop (read from the tag alone).
    #[inline(always)]
    pub fn owns_nothing(&self) -> bool {
        matches!(
            self,
            Value::None | Value::Bool(_) | Value::Int(_) | Value::Float(_)
        )
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(items)))
    }
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(items))
    }
    #[inline(always)]
    pub const fn float(x: f64) -> Value {
        Value::Float(PyFloat::new(x))
    }

    #[inline(always)]
    pub fn bool(b: bool) -> Value {
        Value::Bool(PyBool::from(b))
    }

    pub fn str(s: &str) -> Value {
        match one_char(s) {
            Some(v) => v,
            None => Value::Str(PyStr::from(s)),
        }
    }

    /// The type name used in error messages (`'int'`, `'list'`, `'Net'`).
    pub fn type_name(&self) -> PyStr {
        let s: &str = match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Dict(_) => "dict",
            Value::Set(_) => "set",
            Value::FrozenSet(_) => "frozenset",
            Value::Range(_) => "range",
            Value::Slice(_) => "slice",
            Value::Ellipsis => "ellipsis",
            Value::NotImplemented => "NotImplementedType",
            Value::Func(_) => "function",
            Value::Builtin(_) => "builtin_function_or_method",
            Value::Method(_) => "method",
            Value::Class(_) => "type",
            Value::Instance(i) => return i.class.name.clone(),
            Value::Module(_) => "module",
            Value::Iter(it) => it.borrow().type_name(),
            Value::Native(n) => return PyStr::from(n.type_name()),
            Value::Cell(_) => "cell",
            Value::StrBuf(_) => "str",
        };
        PyStr::from(s)
    }

    /// The type name in the messages of errors about the value (CPython's `tp_name`): a
    /// native type's full name (`torch.device`), else `type_name`.
    pub fn tp_name(&self) -> PyStr {
        match self {
            Value::Native(n) => PyStr::from(n.tp_name()),
            _ => self.type_name(),
        }
    }

    pub fn ptr_id(&self) -> usize {
        match self {
            Value::Str(s) => s.as_ptr() as usize,
            Value::List(x) => Rc::as_ptr(x) as usize,
            Value::Tuple(x) => Rc::as_ptr(x) as usize,
            Value::Dict(x) => Rc::as_ptr(x) as usize,
            Value::Set(x) | Value::FrozenSet(x) => Rc::as_ptr(x) as usize,
            Value::Range(x) => Rc::as_ptr(x) as usize,
            Value::Slice(x) => Rc::as_ptr(x) as *const u8 as usize,
            Value::Func(x) => Rc::as_ptr(x) as usize,
            Value::Builtin(x) => Rc::as_ptr(x) as usize,
            Value::Method(x) => Rc::as_ptr(x) as usize,
            Value::Class(x) => Rc::as_ptr(x) as usize,
            Value::Instance(x) => Rc::as_ptr(x) as usize,
            Value::Module(x) => Rc::as_ptr(x) as usize,
            Value::Iter(x) => Rc::as_ptr(x) as usize,
            Value::Native(x) => x.identity().unwrap_or(x.as_ptr() as usize),
            Value::Cell(x) => Rc::as_ptr(x) as usize,
            Value::StrBuf(b) => b.as_ptr() as usize,
            // Immutable singletons and small values: identity follows the value.
            Value::None => 1,
            Value::Ellipsis => 2,
            Value::NotImplemented => 3,
            Value::Bool(b) => 4 + *b as usize,
            Value::Int(i) => 0x1000_0000 ^ (*i as usize),
            Value::Float(f) => 0x2000_0000 ^ (f.get().to_bits() as usize),
        }
    }

    /// `is`: the same object.
    #[inline]
    pub fn is(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::None, Value::None)
            | (Value::Ellipsis, Value::Ellipsis)
            | (Value::NotImplemented, Value::NotImplemented) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            // CPython caches small ints; larger equal ints are usually distinct objects
            // but programs that rely on that are wrong anyway.
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.get().to_bits() == b.get().to_bits(),
            (Value::Str(a), Value::Str(b)) => PyStr::ptr_eq(a, b) || (a.len() <= 1 && a == b),
            (Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::None, _) => false,
            _ => {
                std::mem::discriminant(self) == std::mem::discriminant(other)
                    && self.ptr_id() == other.ptr_id()
            }
        }
    }

    /// The builtin exception kind of an exception instance or class.
    pub fn exc_kind(&self) -> Option<ExcKind> {
        match self {
            Value::Instance(i) => i.class.exc_kind(),
            Value::Class(c) => c.exc_kind(),
            _ => None,
        }
    }

    /// `clone` with the scalar variants copied inline (no call), for the hot paths.
    #[inline(always)]
    pub fn dup(&self) -> Value {
        match self {
            Value::Int(i) => Value::Int(*i),
            Value::Float(x) => Value::Float(*x),
            Value::Bool(b) => Value::Bool(*b),
            Value::None => Value::None,
            // The common shared objects: a reference count, inline.
            Value::Instance(r) => Value::Instance(r.clone()),
            Value::Str(r) => Value::Str(r.clone()),
            Value::List(r) => Value::List(r.clone()),
            Value::Native(r) => Value::Native(r.clone()),
            _ => self.clone(),
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(*b as i64),
            // An int subclass's value (CPython's `__index__`).
            Value::Instance(i) => match i.base {
                Some(Value::Int(n)) => Some(n),
                _ => None,
            },
            _ => None,
        }
    }
}

/// A new dict of a namespace's names and values: the snapshots `__dict__`, `vars()` and
/// `locals()` give of instances, classes, modules and class bodies.
pub fn names_dict<'a>(items: impl IntoIterator<Item = (&'a Sym, &'a Value)>) -> Value {
    let map: DictMap = items
        .into_iter()
        .map(|(k, v)| (Key(Value::Str(k.as_str())), v.clone()))
        .collect();
    Value::Dict(Rc::new(RefCell::new(map)))
}

/// A hashable value used as a dict key or set element: equal keys (`1`, `1.0`, `True`) hash
/// alike, as in Python.
#[derive(Clone, Debug)]
#[repr(transparent)]
pub struct Key(pub Value);

impl Key {
    pub fn new(v: Value) -> PyResult<Key> {
        check_hashable(&v)?;
        Ok(Key(v))
    }

    /// A value seen as a key in place, for a lookup that needs no key of its own.
    #[inline(always)]
    pub fn of_ref(v: &Value) -> &Key {
        // SAFETY: `Key` is `repr(transparent)` over `Value`, so both have one layout.
        unsafe { &*(v as *const Value as *const Key) }
    }
}

fn check_hashable(v: &Value) -> PyResult<()> {
    match v {
        Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::Slice(_) => {
            Err(type_error(format!("unhashable type: '{}'", v.type_name())))
        }
        Value::Tuple(items) => items.iter().try_for_each(check_hashable),
        Value::Native(n) if !n.hashable() => {
            Err(type_error(format!("unhashable type: '{}'", v.type_name())))
        }
        // `__hash__ = None`, which a class that defines `__eq__` alone gets.
        Value::Instance(i) if !instance_hashable(&i.class) => {
            Err(type_error(format!("unhashable type: '{}'", v.type_name())))
        }
        _ => Ok(()),
    }
}

/// Whether instances of `class` can be keys: its `__hash__` is not `None`.
pub fn instance_hashable(class: &Class) -> bool {
    !matches!(
        class.lookup(crate::lang::symbol::dunder::HASH),
        Some(Value::None)
    )
}

/// Whether a key compares by a user `__eq__` (an instance of a class that defines one, or a
/// tuple holding such): maps find such keys by `Interp::key_in`, which runs `__eq__` on the
/// candidates with the same hash.
pub fn needs_user_eq(v: &Value) -> bool {
    match v {
        Value::Instance(i) => {
            i.class.builtin.is_none()
                && i.class.lookup(crate::lang::symbol::dunder::EQ).is_some()
                && i.plain_base().is_none()
        }
        Value::Tuple(items) => items.iter().any(needs_user_eq),
        _ => false,
    }
}

thread_local! {
    /// While `Some`, failed comparisons of a user-`__eq__` probe key record the stored key
    /// they met (the candidates `Interp::key_in` then asks `__eq__` about).
    static KEY_CANDIDATES: RefCell<Option<Vec<Key>>> = const { RefCell::new(None) };
}

/// The keys a probe for `k` meets in a map (`probe` runs the lookup; `Some` = `k` itself is
/// there). No user code runs meanwhile.
pub fn key_candidates(k: &Key, probe: impl FnOnce(&Key) -> bool) -> Option<Vec<Key>> {
    KEY_CANDIDATES.with(|c| *c.borrow_mut() = Some(Vec::new()));
    let hit = probe(k);
    let got = KEY_CANDIDATES
        .with(|c| c.borrow_mut().take())
        .unwrap_or_default();
    if hit {
        None
    } else {
        Some(got)
    }
}

fn hash_value<H: Hasher>(v: &Value, h: &mut H) {
    match v {
        Value::None => 0u64.hash(h),
        Value::Bool(b) => (*b as i64).hash(h),
        Value::Int(i) => i.hash(h),
        Value::Float(f) => {
            if f.get().fract() == 0.0 && f.get().abs() < 9.2e18 {
                (f.get() as i64).hash(h)
            } else {
                f.get().to_bits().hash(h)
            }
        }
        Value::Str(s) => s.hash(h),
        Value::Tuple(items) => {
            items.len().hash(h);
            items.iter().for_each(|i| hash_value(i, h));
        }
        Value::FrozenSet(_) => py_hash(v).hash(h),
        Value::Native(n) => match n.hash_key() {
            Some(k) => (n.type_name(), k).hash(h),
            None => v.ptr_id().hash(h),
        },
        Value::Instance(i) => match (i.hash.get(), i.plain_base()) {
            (Some(k), _) => k.hash(h),
            (None, Some(b)) => hash_value(b, h),
            (None, None) => v.ptr_id().hash(h),
        },
        other => other.ptr_id().hash(h),
    }
}

impl Hash for Key {
    #[inline]
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(key_hash(&self.0))
    }
}

/// A key's table hash: equal keys (`1`, `1.0`, `True`, an instance whose `__hash__` is 1)
/// get the same one.
/// (Ints and strings, the common keys, hash inline in the table's probe; the rest out of line.)
#[inline(always)]
pub fn key_hash(v: &Value) -> u64 {
    match v {
        Value::Int(i) => int_key_hash(*i),
        Value::Str(s) => s.cached_hash(text_hash),
        v => other_key_hash(v),
    }
}

#[inline(never)]
fn other_key_hash(v: &Value) -> u64 {
    match v {
        Value::Bool(b) => int_key_hash(*b as i64),
        Value::Float(f) if f.get().fract() == 0.0 && f.get().abs() < 9.2e18 => {
            int_key_hash(f.get() as i64)
        }
        Value::Instance(i) if i.hash.get().is_some() => int_key_hash(i.hash.get().unwrap_or(0)),
        Value::Instance(i) if i.base.is_some() => base_key_hash(i, v),
        v => {
            let mut h = rustc_hash::FxHasher::default();
            hash_value(v, &mut h);
            h.finish()
        }
    }
}

/// A tuple (str, int, ...) subclass keeping the type's hash hashes as its value. (Out of
/// line, so that `key_hash` is not recursive and inlines into the table's hashing.)
#[inline(never)]
fn base_key_hash(i: &Instance, v: &Value) -> u64 {
    match i.plain_base() {
        Some(b) => key_hash(b),
        None => {
            let mut h = rustc_hash::FxHasher::default();
            hash_value(v, &mut h);
            h.finish()
        }
    }
}

/// Equality of hashable values without running user code (keys of user classes compare by
/// identity, as objects without `__eq__` do).
pub fn simple_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| simple_eq(p, q))
        }
        (Value::FrozenSet(x), Value::FrozenSet(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len() && x.iter().all(|k| y.contains(k))
        }
        (Value::Native(x), Value::Native(y)) => match (x.hash_key(), y.hash_key()) {
            (Some(p), Some(q)) => p == q && x.type_name() == y.type_name(),
            _ => a.is(b),
        },
        (Value::Instance(x), _) if x.base.is_some() => match x.plain_base() {
            Some(p) => simple_eq(p, b),
            None => a.is(b),
        },
        (_, Value::Instance(y)) if y.base.is_some() => match y.plain_base() {
            Some(q) => simple_eq(a, q),
            None => a.is(b),
        },
        _ => match (num_of(a), num_of(b)) {
            (Some(x), Some(y)) => x.eq_num(y),
            (None, None) => a.is(b),
            _ => false,
        },
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Key) -> bool {
        match (&self.0, &other.0) {
            (Value::Int(a), Value::Int(b)) => return a == b,
            // (The same string object, as a loop over a list of keys meets them: no compare.)
            (Value::Str(a), Value::Str(b)) => return a == b,
            _ => {}
        }
        self.eq_slow(other)
    }
}

impl Key {
    #[inline(never)]
    fn eq_slow(&self, other: &Key) -> bool {
        if simple_eq(&self.0, &other.0) {
            return true;
        }
        if matches!(self.0, Value::Instance(_) | Value::Tuple(_))
            || matches!(other.0, Value::Instance(_) | Value::Tuple(_))
        {
            KEY_CANDIDATES.with(|c| {
                if let Ok(mut c) = c.try_borrow_mut() {
                    if let Some(c) = c.as_mut() {
                        c.push(other.clone());
                    }
                }
            });
        }
        false
    }
}
impl Eq for Key {}

/// A number for mixed int/float arithmetic and comparison.
#[derive(Clone, Copy, Debug)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    pub fn eq_num(self, other: Num) -> bool {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a == b,
            (Num::Float(a), Num::Float(b)) => a == b,
            (Num::Int(i), Num::Float(f)) | (Num::Float(f), Num::Int(i)) => int_float_eq(i, f),
        }
    }
    pub fn to_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// Exact comparison of an int with a float (no rounding of large ints).
pub fn int_float_eq(i: i64, f: f64) -> bool {
    f.fract() == 0.0 && (-9.223372036854776e18..9.223372036854776e18).contains(&f) && f as i64 == i
}

pub fn num_of(v: &Value) -> Option<Num> {
    match v {
        Value::Int(i) => Some(Num::Int(*i)),
        Value::Bool(b) => Some(Num::Int(*b as i64)),
        Value::Float(f) => Some(Num::Float(f.get())),
        _ => None,
    }
}

#[derive(Debug)]
pub struct Range {
    pub start: i64,
    pub stop: i64,
    pub step: i64,
}

impl Range {
    /// How many items: up to 2^64 - 1, so more than `i64::MAX` (`range(-2**63, 2**62)`),
    /// which `len()` refuses but iteration and indexing take.
    pub fn len(&self) -> u64 {
        let (lo, hi, st) = (self.start as i128, self.stop as i128, self.step as i128);
        let n = if st > 0 && lo < hi {
            (hi - lo - 1) / st + 1
        } else if st < 0 && lo > hi {
            (lo - hi - 1) / (-st) + 1
        } else {
            0
        };
        n as u64
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// `len()` as Python sees it: more than `i64::MAX` items is CPython's OverflowError.
    pub fn ssize_len(&self) -> PyResult<usize> {
        match self.len() {
            n if n <= i64::MAX as u64 => Ok(n as usize),
            _ => Err(super::error::ssize_overflow()),
        }
    }
    /// `start + i * step`, held to the i64 range (a slice's bound past the last item).
    pub fn get(&self, i: i64) -> i64 {
        let v = self.start as i128 + i as i128 * self.step as i128;
        v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }
    /// Item `i` (negative: from the end), if there is one.
    pub fn item(&self, i: i64) -> Option<i64> {
        let n = self.len() as i128;
        let k = if i < 0 { i as i128 + n } else { i as i128 };
        (0..n)
            .contains(&k)
            .then(|| (self.start as i128 + k * self.step as i128) as i64)
    }
    /// The index of `x` among the items, if it is one.
    pub fn position(&self, x: i64) -> Option<u64> {
        let off = x as i128 - self.start as i128;
        let step = self.step as i128;
        let k = off / step;
        (off % step == 0 && (0..self.len() as i128).contains(&k)).then_some(k as u64)
    }
}

/// Positional and keyword arguments of a call.
#[derive(Default, Debug)]
pub struct Args {
    pub pos: ArgVec,
    pub kw: Vec<(Sym, Value)>,
}

/// Positional arguments: up to three held inline, so a call of a builtin with few arguments
/// allocates nothing for them.
pub type ArgVec = smallvec::SmallVec<[Value; 3]>;

impl Args {
    pub fn new(pos: ArgVec) -> Args {
        Args {
            pos,
            kw: Vec::new(),
        }
    }
    /// Positional arguments given as values: `Args::of([x, y])`.
    pub fn of<const N: usize>(pos: [Value; N]) -> Args {
        Args::new(pos.into_iter().collect())
    }
}

pub type NativeFn = fn(&mut Interp, &Value, Args) -> PyResult<Value>;

/// A function implemented in Rust, possibly bound to `this` (a method of a builtin type).
pub struct Builtin {
    pub name: &'static str,
    pub f: NativeFn,
    /// The bound object for methods; `Value::None` for plain functions.
    pub this: Option<Value>,
}

pub struct Function {
    pub def: Rc<FuncDef>,
    pub qualname: PyStr,
    /// The short name, for the frames of its calls (kept here: interning it per call costs).
    pub name: PyStr,
    /// Every parameter is a plain positional one: calls with positional arguments only bind
    /// them straight into the frame's slots.
    pub simple: bool,
    /// Default values of the parameters that have one, by parameter index.
    pub defaults: Vec<Option<Value>>,
    pub closure: Vec<Cell>,
    pub src: Rc<Source>,
    /// The class whose body defined this function, for zero-argument `super()`.
    pub class: RefCell<Option<std::rc::Weak<Class>>>,
    pub attrs: RefCell<AttrMap>,
    /// The global namespace of the module that defined it (the program's, or an embedded
    /// module's such as `torch.nn`).
    pub globals: Globals,
}

/// A module's global namespace. The running module's values live in `Interp::globals`;
/// the others wait here until a call switches to them.
pub type Globals = Rc<RefCell<GlobalsData>>;

#[derive(Default)]
pub struct GlobalsData {
    pub values: Vec<Option<Value>>,
    /// Names in definition order.
    pub order: Vec<Sym>,
}

pub struct Class {
    pub name: PyStr,
    pub module: PyStr,
    pub bases: Vec<Rc<Class>>,
    /// Method resolution order, this class first (C3 linearisation).
    pub mro: RefCell<Vec<Rc<Class>>>,
    pub dict: RefCell<AttrMap>,
    /// For the classes of builtin exceptions and types.
    pub builtin: Option<BuiltinClass>,
    /// `lookup` results (found or not) along the MRO, valid while `class_epoch()` is the
    /// epoch stored with them. Writers of a class dict call `class_changed()`.
    pub cache: RefCell<(u64, FxHashMap<Sym, Option<Value>>)>,
    /// Whether the class has a `__setattr__`, and the epoch it was found in.
    pub setattr: std::cell::Cell<(u64, bool)>,
    /// The builtin type (dict, list, tuple, ...) this class extends, if any: its instances
    /// carry a value of that type (`Instance::base`). Fixed at creation, from the MRO.
    pub base_type: Option<TypeTag>,
}

/// Bumped whenever any class's namespace changes, which empties every lookup cache (a
/// change to a base class changes what its subclasses find).
static CLASS_EPOCH: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

pub fn class_changed() {
    CLASS_EPOCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

#[inline(always)]
pub(crate) fn class_epoch() -> u64 {
    CLASS_EPOCH.load(std::sync::atomic::Ordering::Relaxed)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinClass {
    Exception(ExcKind),
    Object,
    /// `int`, `str`, ... : calling them converts, `isinstance` checks the value's variant.
    Type(TypeTag),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeTag {
    Int,
    Float,
    Bool,
    Str,
    List,
    Tuple,
    Dict,
    Set,
    FrozenSet,
    NoneType,
    Range,
    Type,
    Function,
    Slice,
}

impl Class {
    pub fn exc_kind(&self) -> Option<ExcKind> {
        self.mro.borrow().iter().find_map(|c| match c.builtin {
            Some(BuiltinClass::Exception(k)) => Some(k),
            _ => None,
        })
    }

    pub fn lookup(&self, name: Sym) -> Option<Value> {
        let epoch = class_epoch();
        if let Ok(c) = self.cache.try_borrow() {
            if c.0 == epoch {
                if let Some(v) = c.1.get(&name) {
                    return v.clone();
                }
            }
        }
        let v = self.lookup_uncached(name);
        if let Ok(mut c) = self.cache.try_borrow_mut() {
            if c.0 != epoch {
                c.1.clear();
                c.0 = epoch;
            }
            c.1.insert(name, v.clone());
        }
        v
    }

    /// Whether instances' attribute stores go through a `__setattr__`, a property or
    /// `__slots__`'s check (cached per epoch: every `obj.x = v` asks).
    #[inline(always)]
    pub fn has_setattr(&self) -> bool {
        let (e, has) = self.setattr.get();
        if e == class_epoch() {
            return has;
        }
        self.has_setattr_slow()
    }

    #[cold]
    #[inline(never)]
    fn has_setattr_slow(&self) -> bool {
        let epoch = class_epoch();
        let has = self.lookup(crate::lang::symbol::dunder::SETATTR).is_some()
            || self
                .lookup(crate::lang::symbol::Sym::new("__slots__"))
                .is_some()
            || self
                .mro
                .borrow()
                .iter()
                .any(|c| crate::lang::interp::has_property(&c.dict.borrow()));
        self.setattr.set((epoch, has));
        has
    }

    fn lookup_uncached(&self, name: Sym) -> Option<Value> {
        if let Some(v) = self.dict.borrow().get(&name) {
            return Some(v.clone());
        }
        let mro = self.mro.borrow();
        mro.iter()
            .skip(1)
            .find_map(|c| c.dict.borrow().get(&name).cloned())
    }

    pub fn is_subclass(&self, other: &Rc<Class>) -> bool {
        self.mro.borrow().iter().any(|c| Rc::ptr_eq(c, other))
    }

    /// Whether `name` resolves to a builtin type's own slot (`dict.__eq__`), not one a Python
    /// class along the MRO defines.
    pub fn builtin_slot(&self, name: Sym) -> bool {
        self.mro
            .borrow()
            .iter()
            .find(|c| c.dict.borrow().contains_key(&name))
            .is_some_and(|c| c.builtin.is_some())
    }
}

impl Instance {
    /// The builtin value an instance of a builtin type's subclass stands for in hashing and
    /// equality without user code: only when its class keeps the type's `__eq__`/`__hash__`.
    pub fn plain_base(&self) -> Option<&Value> {
        let b = self.base.as_ref()?;
        (self.class.builtin_slot(crate::lang::symbol::dunder::EQ)
            && self.class.builtin_slot(crate::lang::symbol::dunder::HASH))
        .then_some(b)
    }
}

pub struct Instance {
    pub class: Rc<Class>,
    pub dict: RefCell<AttrMap>,
    /// What its class's `__hash__` returned when it was last made a dict key or set element
    /// (`Interp::new_key`); keys hash by it. `None`: hashed by identity.
    pub hash: std::cell::Cell<Option<i64>>,
    /// For an instance of a subclass of a builtin type (`class D(dict)`): the builtin value
    /// holding its contents, which dict/list/... operations act on (`interp::builtin_subclass`).
    pub base: Option<Value>,
}

pub struct Module {
    pub name: PyStr,
    pub attrs: RefCell<AttrMap>,
}

/// Which of a dict's parts a view or iterator gives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DictPart {
    Keys,
    Values,
    Items,
}

/// Iterators over builtin containers (and eagerly built generator expressions).
pub enum Iter {
    Seq {
        items: Rc<Vec<Value>>,
        pos: usize,
    },
    List {
        list: Rc<RefCell<Vec<Value>>>,
        pos: usize,
    },
    Range {
        next: i64,
        left: u64,
        step: i64,
    },
    Str {
        s: PyStr,
        pos: usize,
    },
    /// A live walk over a dict's keys, values or items. `len` is the size it started at;
    /// once the dict is seen at another size, `len` is `usize::MAX` and every step raises,
    /// as CPython's iterator stays broken.
    Dict {
        dict: Rc<RefCell<DictMap>>,
        pos: usize,
        len: usize,
        part: DictPart,
    },
    Enumerate {
        inner: Value,
        count: i64,
    },
    /// Shared, so each step holds its inner iterators without copying the list of them.
    Zip {
        inners: Rc<[Value]>,
    },
    /// `reversed()` of a tuple, str or dict: its items, last first, under the type's name.
    Reversed {
        items: Rc<Vec<Value>>,
        pos: usize,
        name: &'static str,
    },
    /// `reversed(list)`: reads the live list from the end (`left` items before the next
    /// one), and stops for good once the list has shrunk below it, as CPython's does.
    ListReversed {
        list: Rc<RefCell<Vec<Value>>>,
        left: usize,
    },
    Native(Box<dyn NativeIter>),
    /// A generator (of a generator function or a generator expression).
    Gen(Rc<super::interp::generator::Generator>),
}

pub trait NativeIter {
    fn next(&mut self, interp: &mut Interp) -> PyResult<Option<Value>>;
    fn type_name(&self) -> &'static str {
        "iterator"
    }
}

impl Iter {
    /// A walk over `dict`'s keys, values or items from its start.
    pub fn over_dict(dict: &Rc<RefCell<DictMap>>, part: DictPart) -> Iter {
        Iter::Dict {
            dict: dict.clone(),
            pos: 0,
            len: dict.borrow().len(),
            part,
        }
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Iter::Seq { .. } => "tuple_iterator",
            Iter::List { .. } => "list_iterator",
            Iter::Range { .. } => "range_iterator",
            Iter::Str { .. } => "str_ascii_iterator",
            Iter::Dict { part, .. } => match part {
                DictPart::Keys => "dict_keyiterator",
                DictPart::Values => "dict_valueiterator",
                DictPart::Items => "dict_itemiterator",
            },
            Iter::Enumerate { .. } => "enumerate",
            Iter::Zip { .. } => "zip",
            Iter::Reversed { name, .. } => name,
            Iter::ListReversed { .. } => "list_reverseiterator",
            Iter::Native(n) => n.type_name(),
            Iter::Gen(_) => "generator",
        }
    }
}

/// Rust-implemented objects. Every method has a default that gives Python's error for a type
/// that lacks the protocol, so an implementation states only what it supports.
pub trait Native: Any {
    fn type_name(&self) -> &str;
    /// The type's name in error messages, as CPython's `tp_name` gives it: a type written in
    /// C names its module too (`'torch.device' object is not iterable`), while `type_name`
    /// stays `type(x).__name__`.
    fn tp_name(&self) -> String {
        self.type_name().to_string()
    }
    fn as_any(&self) -> &dyn Any;
    /// The object's identity for `is` and `id()` when several wrappers stand for one object
    /// (a tensor handed out twice); `None` = this wrapper is the object.
    fn identity(&self) -> Option<usize> {
        None
    }
    /// Whether, as a class attribute, it binds to the instance like a function does (a
    /// function wrapped by a native decorator such as `@torch.no_grad()`).
    fn binds_as_method(&self) -> bool {
        false
    }
    /// Whether it is an instance of a tuple subclass (`torch.return_types.max`, a structseq).
    fn is_tuple(&self) -> bool {
        false
    }
    fn repr(&self, _interp: &mut Interp) -> PyResult<String> {
        Ok(format!("<{} object>", self.type_name()))
    }
    fn str(&self, interp: &mut Interp) -> PyResult<String> {
        self.repr(interp)
    }
    /// The method `name` of this type, for a call `obj.name(...)` that passes the object as
    /// the method's `this` instead of building a bound method through `get_attr`. A type that
    /// gives one must give the same for every object of the type, and `get_attr` must give
    /// that method bound for the same name.
    fn method(&self, _name: Sym) -> Option<(NativeFn, &'static str)> {
        None
    }
    /// Attribute lookup; `Ok(None)` means no such attribute.
    fn get_attr(&self, _this: &Value, _name: Sym, _interp: &mut Interp) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// Attribute assignment; `Ok(false)` means not supported.
    fn set_attr(&self, _name: Sym, _value: Value, _interp: &mut Interp) -> PyResult<bool> {
        Ok(false)
    }
    /// Names for completion and `dir()`.
    fn attr_names(&self) -> Vec<PyStr> {
        Vec::new()
    }
    /// Whether `call` does something (`callable()`, and Tab completion's `(`): true for every
    /// native that implements `call`.
    fn callable(&self) -> bool {
        false
    }
    fn call(&self, _this: &Value, _args: Args, _interp: &mut Interp) -> PyResult<Value> {
        Err(type_error(format!(
            "'{}' object is not callable",
            self.tp_name()
        )))
    }
    fn hashable(&self) -> bool {
        true
    }
    /// The module its class lives in (`torch` for `torch.device`).
    fn module(&self) -> &str {
        "builtins"
    }
    /// For values compared by value as dict keys (devices, dtypes): a key that is equal
    /// exactly when the objects are. `None` keys objects by identity.
    fn hash_key(&self) -> Option<u64> {
        None
    }
    fn truthy(&self, _interp: &mut Interp) -> PyResult<bool> {
        Ok(true)
    }
    /// `this == other`; `None` = not handled (identity is used).
    fn eq(&self, _this: &Value, _other: &Value, _interp: &mut Interp) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// `with` support: `Some` when the object is a context manager.
    fn enter(&self, _this: &Value, _interp: &mut Interp) -> PyResult<Option<Value>> {
        Ok(None)
    }
    fn exit(
        &self,
        _this: &Value,
        _interp: &mut Interp,
        _err: Option<&super::error::PyErr>,
    ) -> PyResult<bool> {
        Ok(false)
    }
    /// Binary operators, `reflected` when this object is the right operand.
    fn binary(
        &self,
        _this: &Value,
        _op: super::ast::BinOp,
        _other: &Value,
        _reflected: bool,
        _interp: &mut Interp,
    ) -> PyResult<Option<Value>> {
        Ok(None)
    }
    fn get_item(&self, _this: &Value, _index: &Value, _interp: &mut Interp) -> PyResult<Value> {
        Err(type_error(format!(
            "'{}' object is not subscriptable",
            self.tp_name()
        )))
    }
    fn set_item(&self, _index: &Value, _value: Value, _interp: &mut Interp) -> PyResult<()> {
        Err(type_error(format!(
            "'{}' object does not support item assignment",
            self.tp_name()
        )))
    }
    fn len(&self, _interp: &mut Interp) -> PyResult<Option<usize>> {
        Ok(None)
    }
    fn iter(&self, _this: &Value, _interp: &mut Interp) -> PyResult<Option<Value>> {
        Ok(None)
    }
}

/// The args of an exception object (`e.args`).
pub fn exc_args(exc: &Exc) -> Vec<Value> {
    match exc {
        Exc::Builtin(_, args) => args.clone(),
        Exc::Object(Value::Instance(i)) => {
            match i.dict.borrow().get(&crate::lang::symbol::dunder::ARGS) {
                Some(Value::Tuple(t)) => t.as_ref().clone(),
                _ => Vec::new(),
            }
        }
        Exc::Object(_) => Vec::new(),
    }
}

const HASH_BITS: u32 = 61;
const HASH_MODULUS: u64 = (1 << HASH_BITS) - 1;

/// CPython's hash of a number or tuple (strings and objects get a stable stand-in; CPython
/// randomises those per process anyway).
/// A string's hash: its table hash (`key_hash`) and, halved, `hash(s)`. Computed once per
/// `PyStr` and kept in it (`PyStr::cached_hash`), as CPython keeps a str's hash.
fn text_hash(s: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

/// CPython's `frozenset_hash`: the elements' hashes shuffled and xor-ed (so order does not
/// matter), the size folded in, then dispersed.
fn frozenset_hash(s: &SetMap) -> i64 {
    fn shuffle(h: u64) -> u64 {
        ((h ^ 89869747) ^ (h << 16)).wrapping_mul(3644798167)
    }
    let mut h = s
        .iter()
        .fold(0u64, |acc, k| acc ^ shuffle(py_hash(&k.0) as u64));
    h ^= (s.len() as u64 + 1).wrapping_mul(1927868237);
    h ^= (h >> 11) ^ (h >> 25);
    h = h.wrapping_mul(69069).wrapping_add(907133923);
    if h == u64::MAX {
        590923713
    } else {
        h as i64
    }
}

pub fn py_hash(v: &Value) -> i64 {
    fn fix(h: i64) -> i64 {
        if h == -1 {
            -2
        } else {
            h
        }
    }
    match v {
        Value::Int(i) => {
            let m = (i.unsigned_abs() % HASH_MODULUS) as i64;
            fix(if *i < 0 { -m } else { m })
        }
        Value::Instance(i) if i.hash.get().is_some() => i.hash.get().unwrap_or(0),
        Value::Instance(i) if i.plain_base().is_some() => py_hash(i.plain_base().unwrap_or(v)),
        Value::Bool(b) => *b as i64,
        // (Halved: never negative, so never CPython's reserved -1.)
        Value::Str(s) => (s.cached_hash(text_hash) >> 1) as i64,
        Value::Float(f) => fix(float_hash(f.get())),
        Value::FrozenSet(s) => frozenset_hash(&s.borrow()),
        Value::Tuple(items) => {
            const P1: u64 = 11400714785074694791;
            const P2: u64 = 14029467366897019727;
            const P5: u64 = 2870177450012600261;
            let mut acc = P5;
            for it in items.iter() {
                let lane = py_hash(it) as u64;
                acc = acc.wrapping_add(lane.wrapping_mul(P2));
                acc = acc.rotate_left(31);
                acc = acc.wrapping_mul(P1);
            }
            acc = acc.wrapping_add((items.len() as u64) ^ (P5 ^ 3527539));
            if acc == u64::MAX {
                1546275796
            } else {
                acc as i64
            }
        }
        other => {
            let mut h = rustc_hash::FxHasher::default();
            hash_value(other, &mut h);
            fix((h.finish() >> 1) as i64)
        }
    }
}

fn float_hash(v: f64) -> i64 {
    if v.is_infinite() {
        return if v > 0.0 { 314159 } else { -314159 };
    }
    if v.is_nan() {
        return 0;
    }
    let (mut m, mut e) = frexp(v);
    let sign: i64 = if m < 0.0 {
        m = -m;
        -1
    } else {
        1
    };
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & HASH_MODULUS) | (x >> (HASH_BITS - 28));
        m *= 268435456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= HASH_MODULUS {
            x -= HASH_MODULUS;
        }
    }
    let e = if e >= 0 {
        e as u32 % HASH_BITS
    } else {
        HASH_BITS - 1 - ((-1 - e) as u32 % HASH_BITS)
    };
    x = ((x << e) & HASH_MODULUS) | (x >> (HASH_BITS - e));
    (x as i64).wrapping_mul(sign)
}

fn frexp(v: f64) -> (f64, i32) {
    if v == 0.0 || !v.is_finite() {
        return (v, 0);
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        let (m, e) = frexp(v * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// The order CPython iterates a set built by inserting these keys in this order: its
/// open-addressing table (linear probes, then perturbation), replayed.
pub fn set_order(set: &SetMap) -> Vec<Value> {
    let n = set.len();
    if n == 0 {
        return Vec::new();
    }
    let mut table: Vec<Option<(u64, usize)>> = vec![None; 8];
    let mut fill = 0usize;
    fn insert(table: &mut [Option<(u64, usize)>], hash: u64, item: usize) {
        let mask = table.len() - 1;
        let mut i = (hash as usize) & mask;
        let mut perturb = hash;
        loop {
            let probes = if i + 9 <= mask { 9 } else { 0 };
            if let Some(slot) = table[i..=i + probes].iter_mut().find(|s| s.is_none()) {
                *slot = Some((hash, item));
                return;
            }
            perturb >>= 5;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }
    for (k, key) in set.iter().enumerate() {
        let h = py_hash(&key.0) as u64;
        insert(&mut table, h, k);
        fill += 1;
        let mask = table.len() - 1;
        if fill * 5 >= mask * 3 {
            let minused = if fill > 50000 { fill * 2 } else { fill * 4 };
            let mut size = 8;
            while size <= minused {
                size <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; size]);
            for (h, item) in old.into_iter().flatten() {
                insert(&mut table, h, item);
            }
        }
    }
    let items: Vec<&Key> = set.iter().collect();
    table
        .into_iter()
        .flatten()
        .map(|(_, k)| items[k].0.clone())
        .collect()
}

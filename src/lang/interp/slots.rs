//! `__slots__`, as far as its rules show: a class whose every Python-level class in the MRO
//! names its attributes in `__slots__` (and none names `__dict__`) gives instances no
//! `__dict__`, so storing any other name is CPython's AttributeError; a slot that is also a
//! class variable is refused when the class is made. (Slots are still stored in the instance's
//! own table, and the class holds no member descriptors for them.)
use crate::lang::error::{attr_error, type_error, value_error, PyErr, PyResult};
use crate::lang::symbol::Sym;
use crate::lang::value::*;

fn slots_sym() -> Sym {
    Sym::new("__slots__")
}

/// The names a `__slots__` value lists (a string is one name).
fn names(v: &Value) -> PyResult<Vec<PyStr>> {
    let items: Vec<Value> = match v {
        Value::Str(s) => return Ok(vec![s.clone()]),
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.borrow().clone(),
        Value::Dict(d) => d.borrow().keys().map(|k| k.0.clone()).collect(),
        other => {
            return Err(type_error(format!(
                "'{}' object is not iterable",
                other.type_name()
            )))
        }
    };
    items
        .into_iter()
        .map(|it| match it {
            Value::Str(s) => Ok(s),
            other => Err(type_error(format!(
                "__slots__ items must be strings, not '{}'",
                other.type_name()
            ))),
        })
        .collect()
}

fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c == '_' || c.is_alphabetic())
        && cs.all(|c| c == '_' || c.is_alphanumeric())
}

/// CPython's `type_new` checks of a new class's `__slots__` against its namespace.
pub(crate) fn check_new_class(ns: &AttrMap) -> PyResult<()> {
    let Some(v) = ns.get(&slots_sym()) else {
        return Ok(());
    };
    let mut has_dict = false;
    for n in names(v)? {
        if !is_identifier(&n) {
            return Err(type_error("__slots__ must be identifiers"));
        }
        if &*n == "__dict__" {
            if has_dict {
                return Err(type_error("__dict__ slot disallowed: we already got one"));
            }
            has_dict = true;
            continue;
        }
        if ns.contains_key(&Sym::new(&n)) {
            return Err(value_error(format!(
                "'{n}' in __slots__ conflicts with class variable"
            )));
        }
    }
    Ok(())
}

/// Whether a class's instances store only their slots: `None` when they have a `__dict__`
/// (a class in the MRO without `__slots__`, or one naming `__dict__`), else the slots.
pub(crate) fn only_slots(c: &Class) -> Option<Vec<Sym>> {
    let mut all = Vec::new();
    for k in c.mro.borrow().iter() {
        // (BaseException's instances have a `__dict__`; `object`'s do not.)
        if k.builtin.is_some() && k.exc_kind().is_some() {
            return None;
        }
        if k.builtin.is_some() {
            continue;
        }
        let d = k.dict.borrow();
        let listed = names(d.get(&slots_sym())?).ok()?;
        for n in listed {
            if &*n == "__dict__" {
                return None;
            }
            all.push(Sym::new(&n));
        }
    }
    Some(all)
}

/// Storing `name` on an instance of `c`: CPython's error when it has no `__dict__` and no such
/// slot.
pub(crate) fn check_store(c: &Class, name: Sym) -> PyResult<()> {
    match only_slots(c) {
        Some(slots) if !slots.contains(&name) => Err(missing(c, name)),
        _ => Ok(()),
    }
}

/// Every slot the classes of `c`'s MRO declare (kept out of an instance's `__dict__`).
pub(crate) fn declared(c: &Class) -> Vec<Sym> {
    let mut all = Vec::new();
    for k in c.mro.borrow().iter() {
        if let Some(v) = k.dict.borrow().get(&slots_sym()) {
            let listed = names(v).unwrap_or_default();
            all.extend(listed.iter().map(|n| Sym::new(n)));
        }
    }
    all
}

/// Whether `c` lists `name` among the slots of its instances.
pub(crate) fn is_slot(c: &Class, name: Sym) -> bool {
    only_slots(c).is_some_and(|s| s.contains(&name))
}

fn missing(c: &Class, name: Sym) -> PyErr {
    attr_error(format!("'{}' object has no attribute '{name}'", c.name))
}

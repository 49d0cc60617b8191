//! Iteration: iterators over values, `next`, and collecting an iterable or a mapping.
use super::ops::MAX_ITEMS;
use super::Interp;
use crate::lang::error::{type_error, ExcKind, PyErr, PyResult};
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

impl Interp {
    pub fn get_iter(&mut self, v: &Value) -> PyResult<Value> {
        let it = match v {
            Value::List(l) => Iter::List {
                list: l.clone(),
                pos: 0,
            },
            Value::Tuple(t) => Iter::Seq {
                items: t.clone(),
                pos: 0,
            },
            Value::Str(s) => Iter::Str {
                s: s.clone(),
                pos: 0,
            },
            Value::Range(r) => Iter::Range {
                next: r.start,
                left: r.len(),
                step: r.step,
            },
            Value::Dict(d) => Iter::over_dict(d, DictPart::Keys),
            Value::Set(s) | Value::FrozenSet(s) => Iter::Seq {
                items: Rc::new(set_order(&s.borrow())),
                pos: 0,
            },
            Value::Iter(_) => return Ok(v.clone()),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup(crate::lang::symbol::dunder::ITER) {
                    return self.call_bound(&m, v.clone(), Args::default());
                }
                if i.class
                    .lookup(crate::lang::symbol::dunder::GETITEM)
                    .is_some()
                {
                    // The old sequence protocol: index from 0 until IndexError.
                    let mut items = Vec::new();
                    for k in 0.. {
                        match self.get_item(v, &Value::Int(k)) {
                            Ok(x) => items.push(x),
                            Err(e) if e.is(ExcKind::IndexError) => break,
                            Err(e) => return Err(e),
                        }
                        if k > 1 << 24 {
                            break;
                        }
                    }
                    Iter::Seq {
                        items: Rc::new(items),
                        pos: 0,
                    }
                } else {
                    return Err(type_error(format!(
                        "'{}' object is not iterable",
                        i.class.name
                    )));
                }
            }
            Value::Native(n) => match n.clone().iter(v, self)? {
                Some(it) => return Ok(it),
                None => {
                    return Err(type_error(format!(
                        "'{}' object is not iterable",
                        v.tp_name()
                    )))
                }
            },
            other => {
                return Err(type_error(format!(
                    "'{}' object is not iterable",
                    other.tp_name()
                )))
            }
        };
        Ok(Value::Iter(Rc::new(RefCell::new(it))))
    }

    /// The next item of an iterator, `None` when exhausted.
    pub fn next(&mut self, it: &Value) -> PyResult<Option<Value>> {
        // Every builtin that consumes an iterator passes here: Ctrl-C and the step limit work.
        self.tick()?;
        match it {
            Value::Iter(cell) => {
                let mut st = cell.borrow_mut();
                match &mut *st {
                    Iter::ListReversed { list, left } => {
                        let l = list.borrow();
                        match left.checked_sub(1).and_then(|k| l.get(k).map(|v| (k, v))) {
                            Some((k, v)) => {
                                *left = k;
                                Ok(Some(v.dup()))
                            }
                            None => {
                                drop(l);
                                *left = 0;
                                Ok(None)
                            }
                        }
                    }
                    Iter::Seq { items, pos } | Iter::Reversed { items, pos, .. } => {
                        let r = items.get(*pos).map(Value::dup);
                        *pos += 1;
                        Ok(r)
                    }
                    Iter::List { list, pos } => {
                        let r = list.borrow().get(*pos).map(Value::dup);
                        *pos += 1;
                        Ok(r)
                    }
                    Iter::Range { next, left, step } => {
                        if *left == 0 {
                            return Ok(None);
                        }
                        let r = *next;
                        *next = next.wrapping_add(*step);
                        *left -= 1;
                        Ok(Some(Value::Int(r)))
                    }
                    Iter::Str { s, pos } => match s[*pos..].chars().next() {
                        Some(c) => {
                            *pos += c.len_utf8();
                            Ok(Some(Value::from(c)))
                        }
                        None => Ok(None),
                    },
                    // A tuple of parts: made from the parts `spread_step` gives a `for`.
                    Iter::Enumerate { .. }
                    | Iter::Zip { .. }
                    | Iter::Dict {
                        part: DictPart::Items,
                        ..
                    } => {
                        drop(st);
                        let mut parts = ArgVec::new();
                        let more = self.spread_step(cell, &mut parts)?;
                        Ok(more.then(|| Value::tuple(parts.into_vec())))
                    }
                    Iter::Dict {
                        dict,
                        pos,
                        len,
                        part,
                    } => {
                        let d = dict.borrow();
                        let Some((k, v)) = dict_step(&d, pos, len)? else {
                            return Ok(None);
                        };
                        Ok(Some(if *part == DictPart::Keys {
                            k.0.dup()
                        } else {
                            v.dup()
                        }))
                    }
                    Iter::Gen(g) => {
                        let g = g.clone();
                        drop(st);
                        match self.resume(&g, Ok(Value::None))? {
                            super::generator::Step::Yielded(v) => Ok(Some(v)),
                            super::generator::Step::Returned(_) => Ok(None),
                        }
                    }
                    Iter::Native(_) => {
                        // Taken out while it runs: its code may touch this iterator again.
                        let mut taken = std::mem::replace(
                            &mut *st,
                            Iter::Seq {
                                items: Rc::new(Vec::new()),
                                pos: 0,
                            },
                        );
                        drop(st);
                        let r = match &mut taken {
                            Iter::Native(n) => n.next(self),
                            _ => Ok(None),
                        };
                        *cell.borrow_mut() = taken;
                        r
                    }
                }
            }
            Value::Instance(i) => match i.class.lookup(crate::lang::symbol::dunder::NEXT) {
                Some(m) => match self.call_bound(&m, it.clone(), Args::default()) {
                    Ok(v) => Ok(Some(v)),
                    Err(e) if e.is(ExcKind::StopIteration) => Ok(None),
                    Err(e) => Err(e),
                },
                None => Err(type_error(format!(
                    "'{}' object is not an iterator",
                    i.class.name
                ))),
            },
            other => Err(type_error(format!(
                "'{}' object is not an iterator",
                other.type_name()
            ))),
        }
    }

    /// How many parts each item of `it` has when a `for` can take them without the tuple
    /// (`next_spread`): a zip's iterators' count, 2 for an enumerate or a dict's items.
    pub(crate) fn spread_width(it: &Value) -> Option<usize> {
        let Value::Iter(cell) = it else { return None };
        match &*cell.borrow() {
            Iter::Zip { inners } if !inners.is_empty() => Some(inners.len()),
            Iter::Enumerate { .. }
            | Iter::Dict {
                part: DictPart::Items,
                ..
            } => Some(2),
            _ => None,
        }
    }

    /// `next(it)` for an iterator with a `spread_width`, its tuple's items pushed onto `out`
    /// instead (no tuple made only to be unpacked): false once exhausted.
    pub(crate) fn next_spread(&mut self, it: &Value, out: &mut ArgVec) -> PyResult<bool> {
        self.tick()?;
        match it {
            Value::Iter(cell) => self.spread_step(cell, out),
            _ => Ok(false),
        }
    }

    /// One step of an enumerate, a zip or a dict's items, as parts pushed onto `out`: false
    /// once exhausted. The inner iterators are advanced in order, and a zip stops at the first
    /// one exhausted, as CPython's do.
    fn spread_step(&mut self, cell: &RefCell<Iter>, out: &mut ArgVec) -> PyResult<bool> {
        let mut st = cell.borrow_mut();
        match &mut *st {
            Iter::Enumerate { inner, count } => {
                let inner = inner.clone();
                let c = *count;
                *count += 1;
                drop(st);
                let Some(v) = self.next(&inner)? else {
                    return Ok(false);
                };
                out.push(Value::Int(c));
                out.push(v);
            }
            Iter::Zip { inners } => {
                let inners = inners.clone();
                drop(st);
                if inners.is_empty() {
                    return Ok(false);
                }
                for i in inners.iter() {
                    match self.next(i)? {
                        Some(v) => out.push(v),
                        None => return Ok(false),
                    }
                }
            }
            Iter::Dict { dict, pos, len, .. } => {
                let d = dict.borrow();
                let Some((k, v)) = dict_step(&d, pos, len)? else {
                    return Ok(false);
                };
                out.push(k.0.dup());
                out.push(v.dup());
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// All items of an iterable.
    pub fn collect(&mut self, v: &Value) -> PyResult<Vec<Value>> {
        match v {
            Value::List(l) => return Ok(l.borrow().clone()),
            Value::Tuple(t) => return Ok(t.as_ref().clone()),
            Value::Range(r) if r.len() > MAX_ITEMS as u64 => {
                return Err(PyErr::new(ExcKind::MemoryError, ""))
            }
            _ => {}
        }
        let it = self.get_iter(v)?;
        let mut out = Vec::new();
        while let Some(x) = self.next(&it)? {
            out.push(x);
            if out.len() > MAX_ITEMS {
                return Err(PyErr::new(ExcKind::MemoryError, ""));
            }
        }
        Ok(out)
    }

    /// Key/value pairs of a mapping (for `**kwargs` and `dict(...)`).
    pub fn mapping_items(&mut self, v: &Value) -> PyResult<Vec<(Key, Value)>> {
        match v {
            Value::Dict(d) => Ok(d
                .borrow()
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()),
            // A dict subclass that keeps dict's iteration: its contents, as CPython's
            // dict_merge takes them.
            Value::Instance(i)
                if matches!(i.base, Some(Value::Dict(_)))
                    && i.class.builtin_slot(crate::lang::symbol::dunder::ITER) =>
            {
                let base = i.base.clone().unwrap_or(Value::None);
                self.mapping_items(&base)
            }
            // Other mappings: `keys()` and `[]`.
            Value::Instance(i)
                if i.class.lookup(Sym::new("keys")).is_some()
                    || matches!(i.base, Some(Value::Dict(_))) =>
            {
                let keys = self.call_method(v, "keys", Args::default())?;
                let mut out = Vec::new();
                for k in self.collect(&keys)? {
                    let x = self.get_item(v, &k)?;
                    out.push((self.new_key(k)?, x));
                }
                Ok(out)
            }
            other => Err(type_error(format!(
                "'{}' object is not a mapping",
                other.type_name()
            ))),
        }
    }
}

/// One step of a dict iterator at `pos`: the entry, or `None` at the end. A dict whose size
/// is not the one the walk began with raises, then and at every later step.
fn dict_step<'a>(
    d: &'a DictMap,
    pos: &mut usize,
    len: &mut usize,
) -> PyResult<Option<(&'a Key, &'a Value)>> {
    if d.len() != *len {
        *len = usize::MAX;
        return Err(PyErr::new(
            ExcKind::RuntimeError,
            "dictionary changed size during iteration",
        ));
    }
    let r = d.get_index(*pos);
    *pos += 1;
    Ok(r)
}

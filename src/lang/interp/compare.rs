//! Truth, comparison (==, ordering, rich comparison dunders) and `in`.
use super::Interp;
use crate::lang::ast::CmpOp;
use crate::lang::error::{type_error, ExcKind, PyErr, PyResult};
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::rc::Rc;

impl Interp {
    pub fn truthy(&mut self, v: &Value) -> PyResult<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => b.get(),
            Value::Int(i) => *i != 0,
            Value::Float(f) => f.get() != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Dict(d) => !d.borrow().is_empty(),
            Value::Set(s) | Value::FrozenSet(s) => !s.borrow().is_empty(),
            Value::Range(r) => !r.is_empty(),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup(crate::lang::symbol::dunder::BOOL) {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    return match r {
                        Value::Bool(b) => Ok(b.get()),
                        other => Err(type_error(format!(
                            "__bool__ should return bool, returned {}",
                            other.type_name()
                        ))),
                    };
                }
                if let Some(m) = i.class.lookup(crate::lang::symbol::dunder::LEN) {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    return Ok(r.as_int().unwrap_or(1) != 0);
                }
                true
            }
            Value::Native(n) => n.clone().truthy(self)?,
            _ => true,
        })
    }

    pub fn compare(&mut self, op: CmpOp, a: &Value, b: &Value) -> PyResult<Value> {
        Ok(Value::bool(match op {
            CmpOp::Is => a.is(b),
            CmpOp::IsNot => !a.is(b),
            CmpOp::In => self.contains(b, a)?,
            CmpOp::NotIn => !self.contains(b, a)?,
            CmpOp::Eq => return self.eq_value(a, b),
            CmpOp::Ne => {
                let r = self.eq_value(a, b)?;
                if let Value::Bool(x) = r {
                    !x.get()
                } else {
                    if let Value::Native(_) = a {
                        return self.rich_native(op, a, b);
                    }
                    !self.truthy(&r)?
                }
            }
            _ => return self.order(op, a, b),
        }))
    }

    fn rich_native(&mut self, op: CmpOp, a: &Value, b: &Value) -> PyResult<Value> {
        let name = cmp_dunder(op);
        if let Value::Native(n) = a {
            if let Some(m) = n.clone().get_attr(a, Sym::new(name), self)? {
                return self.call(&m, Args::of([b.clone()]));
            }
        }
        Err(type_error(format!(
            "'{}' not supported between instances of '{}' and '{}'",
            op.symbol(),
            a.type_name(),
            b.type_name()
        )))
    }

    /// `==`, which may return a non-bool for natives (tensors compare elementwise).
    pub fn eq_value(&mut self, a: &Value, b: &Value) -> PyResult<Value> {
        if let Value::Native(n) = a {
            if let Some(v) = n.clone().eq(a, b, self)? {
                return Ok(v);
            }
        }
        if let Value::Native(n) = b {
            if let Some(v) = n.clone().eq(b, a, self)? {
                return Ok(v);
            }
        }
        Ok(Value::bool(self.eq(a, b)?))
    }

    /// Python equality as a bool.
    pub fn eq(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        if !matches!(
            a,
            Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Instance(_)
        ) {
            return self.eq_inner(a, b);
        }
        self.enter_compare()?;
        let r = self.eq_inner(a, b);
        self.depth -= 1;
        r
    }

    /// Nested container comparison recurses: bounded like calls are.
    fn enter_compare(&mut self) -> PyResult<()> {
        self.depth += 1;
        if self.depth > super::RECURSION_LIMIT {
            self.depth -= 1;
            return Err(PyErr::new(
                ExcKind::RecursionError,
                "maximum recursion depth exceeded in comparison",
            ));
        }
        Ok(())
    }

    fn eq_inner(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        match (a, b) {
            (Value::List(x), Value::List(y)) => {
                if Rc::ptr_eq(x, y) {
                    return Ok(true);
                }
                let (x, y) = (x.borrow().clone(), y.borrow().clone());
                self.seq_eq(&x, &y)
            }
            (Value::Tuple(x), Value::Tuple(y)) => self.seq_eq(x, y),
            (Value::Dict(x), Value::Dict(y)) => {
                let (x, y) = (x.borrow().clone(), y.borrow().clone());
                if x.len() != y.len() {
                    return Ok(false);
                }
                for (k, v) in x.iter() {
                    let k = self.rekey_in_local(k.clone(), &y)?;
                    match y.get(&k) {
                        Some(w) => {
                            if !v.is(w) && !self.eq(v, w)? {
                                return Ok(false);
                            }
                        }
                        None => return Ok(false),
                    }
                }
                Ok(true)
            }
            (Value::Set(x) | Value::FrozenSet(x), Value::Set(y) | Value::FrozenSet(y)) => {
                let aligned = self
                    .align_set(y, x)?
                    .map(|s| Rc::new(std::cell::RefCell::new(s)));
                let y = aligned.as_ref().unwrap_or(y);
                let (x, y) = (x.borrow(), y.borrow());
                Ok(x.len() == y.len() && x.iter().all(|k| y.contains(k)))
            }
            (Value::Range(x), Value::Range(y)) => Ok(x.len() == y.len()
                && (x.is_empty() || (x.start == y.start && (x.len() == 1 || x.step == y.step)))),
            (Value::Instance(i), _) | (_, Value::Instance(i)) => {
                let (this, other) = if matches!(a, Value::Instance(_)) {
                    (a, b)
                } else {
                    (b, a)
                };
                if let Some(m) = i.class.lookup(crate::lang::symbol::dunder::EQ) {
                    let r = self.call_bound(&m, this.clone(), Args::of([other.clone()]))?;
                    if !matches!(r, Value::NotImplemented) {
                        return self.truthy(&r);
                    }
                }
                if let (Value::Instance(_), Value::Instance(j)) = (a, b) {
                    if let Some(m) = j.class.lookup(crate::lang::symbol::dunder::EQ) {
                        let r = self.call_bound(&m, b.clone(), Args::of([a.clone()]))?;
                        if !matches!(r, Value::NotImplemented) {
                            return self.truthy(&r);
                        }
                    }
                }
                // `{'a': 1} == Counter(a=1)`: Counter's `__eq__` declined, and dict's own
                // (reflected) compares the contents.
                let plain = |v: &Value| !matches!(v, Value::Instance(j) if j.base.is_none());
                if plain(a) && plain(b) {
                    use super::builtin_subclass::unwrap;
                    return self.eq(unwrap(a), unwrap(b));
                }
                Ok(a.is(b))
            }
            // A tensor in a container compares as CPython compares any object there: `==`,
            // then its truth (a one-element tensor's value; more raise PyTorch's error).
            (Value::Native(n), _) | (_, Value::Native(n)) => {
                let (this, other) = if matches!(a, Value::Native(_)) {
                    (a, b)
                } else {
                    (b, a)
                };
                let r = match n.clone().eq(this, other, self)? {
                    Some(r) => Some(r),
                    None => match (a, b) {
                        (Value::Native(_), Value::Native(m)) => m.clone().eq(b, a, self)?,
                        _ => None,
                    },
                };
                match r {
                    Some(r) => self.truthy(&r),
                    None => Ok(simple_eq(a, b)),
                }
            }
            _ => Ok(simple_eq(a, b)),
        }
    }

    fn seq_eq(&mut self, x: &[Value], y: &[Value]) -> PyResult<bool> {
        if x.len() != y.len() {
            return Ok(false);
        }
        for (p, q) in x.iter().zip(y) {
            if !p.is(q) && !self.eq(p, q)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn order(&mut self, op: CmpOp, a: &Value, b: &Value) -> PyResult<Value> {
        use std::cmp::Ordering;
        let ord: Option<Ordering> = match (a, b) {
            _ if num_of(a).is_some() && num_of(b).is_some() => {
                let (x, y) = (
                    num_of(a).unwrap_or(Num::Int(0)),
                    num_of(b).unwrap_or(Num::Int(0)),
                );
                match (x, y) {
                    (Num::Int(p), Num::Int(q)) => Some(p.cmp(&q)),
                    _ => {
                        let (p, q) = (x.to_f64(), y.to_f64());
                        match p.partial_cmp(&q) {
                            Some(o) => Some(o),
                            None => return Ok(Value::Bool(PyBool::False)),
                        }
                    }
                }
            }
            (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
            (Value::List(x), Value::List(y)) => {
                let (x, y) = (x.borrow().clone(), y.borrow().clone());
                return self.seq_order(op, &x, &y);
            }
            (Value::Tuple(x), Value::Tuple(y)) => return self.seq_order(op, x, y),
            (Value::Set(x) | Value::FrozenSet(x), Value::Set(y) | Value::FrozenSet(y)) => {
                let aligned = self
                    .align_set(y, x)?
                    .map(|s| Rc::new(std::cell::RefCell::new(s)));
                let y = aligned.as_ref().unwrap_or(y);
                let (x, y) = (x.borrow(), y.borrow());
                let sub = x.iter().all(|k| y.contains(k));
                let sup = y.iter().all(|k| x.contains(k));
                return Ok(Value::bool(match op {
                    CmpOp::Le => sub,
                    CmpOp::Lt => sub && x.len() < y.len(),
                    CmpOp::Ge => sup,
                    _ => sup && x.len() > y.len(),
                }));
            }
            _ => None,
        };
        if let Some(o) = ord {
            return Ok(Value::bool(match op {
                CmpOp::Lt => o == Ordering::Less,
                CmpOp::Le => o != Ordering::Greater,
                CmpOp::Gt => o == Ordering::Greater,
                _ => o != Ordering::Less,
            }));
        }
        let name = cmp_dunder(op);
        let reflected = match op {
            CmpOp::Lt => "__gt__",
            CmpOp::Le => "__ge__",
            CmpOp::Gt => "__lt__",
            _ => "__le__",
        };
        if let Value::Instance(i) = a {
            if let Some(m) = i.class.lookup(Sym::new(name)) {
                let r = self.call_bound(&m, a.clone(), Args::of([b.clone()]))?;
                if !matches!(r, Value::NotImplemented) {
                    return Ok(r);
                }
            }
        }
        if let Value::Native(_) = a {
            return self.rich_native(op, a, b);
        }
        if let Value::Instance(i) = b {
            if let Some(m) = i.class.lookup(Sym::new(reflected)) {
                let r = self.call_bound(&m, b.clone(), Args::of([a.clone()]))?;
                if !matches!(r, Value::NotImplemented) {
                    return Ok(r);
                }
            }
        }
        if let Value::Native(n) = b {
            if let Some(m) = n.clone().get_attr(b, Sym::new(reflected), self)? {
                return self.call(&m, Args::of([a.clone()]));
            }
        }
        Err(type_error(format!(
            "'{}' not supported between instances of '{}' and '{}'",
            op.symbol(),
            a.type_name(),
            b.type_name()
        )))
    }

    fn seq_order(&mut self, op: CmpOp, x: &[Value], y: &[Value]) -> PyResult<Value> {
        for (p, q) in x.iter().zip(y) {
            if !p.is(q) && !self.eq(p, q)? {
                self.enter_compare()?;
                let r = self.order(op, p, q);
                self.depth -= 1;
                return r;
            }
        }
        let (a, b) = (x.len(), y.len());
        Ok(Value::bool(match op {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            _ => a >= b,
        }))
    }

    /// `a < b` as a bool (for sorted, min, max).
    pub fn less(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        let r = self.order(CmpOp::Lt, a, b)?;
        self.truthy(&r)
    }

    pub fn contains(&mut self, container: &Value, item: &Value) -> PyResult<bool> {
        match container {
            Value::Str(s) => match super::builtin_subclass::unwrap(item) {
                Value::Str(sub) => Ok(s.contains(&**sub)),
                other => Err(type_error(format!(
                    "'in <string>' requires string as left operand, not {}",
                    other.type_name()
                ))),
            },
            Value::Dict(d) => self.key_present(d, item),
            Value::Set(s) | Value::FrozenSet(s) => match item {
                // A set probe is looked up as the equal frozenset, as CPython's set does.
                Value::Set(p) => self.key_present(s, &Value::FrozenSet(p.clone())),
                _ => self.key_present(s, item),
            },
            Value::Range(r) => Ok(match num_of(item) {
                Some(Num::Int(i)) => r.position(i).is_some(),
                Some(Num::Float(f)) => {
                    f.fract() == 0.0 && self.contains(container, &Value::Int(f as i64))?
                }
                None => false,
            }),
            Value::List(_) | Value::Tuple(_) => {
                let items = match container {
                    Value::List(l) => l.borrow().clone(),
                    Value::Tuple(t) => t.as_ref().clone(),
                    _ => Vec::new(),
                };
                for x in &items {
                    if x.is(item) || self.eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Instance(i)
                if i.class
                    .lookup(crate::lang::symbol::dunder::CONTAINS)
                    .is_some() =>
            {
                let m = i
                    .class
                    .lookup(crate::lang::symbol::dunder::CONTAINS)
                    .unwrap_or(Value::None);
                let r = self.call_bound(&m, container.clone(), Args::of([item.clone()]))?;
                self.truthy(&r)
            }
            // natives with their own `__contains__` (a tensor: `2.5 in t`)
            Value::Native(n)
                if n.get_attr(container, crate::lang::symbol::dunder::CONTAINS, self)?
                    .is_some() =>
            {
                let r = self.call_method(container, "__contains__", Args::of([item.clone()]))?;
                self.truthy(&r)
            }
            _ => {
                let it = self.get_iter(container).map_err(|_| {
                    type_error(format!(
                        "argument of type '{}' is not iterable",
                        container.tp_name()
                    ))
                })?;
                while let Some(x) = self.next(&it)? {
                    if x.is(item) || self.eq(&x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }
}

fn cmp_dunder(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Lt => "__lt__",
        CmpOp::Le => "__le__",
        CmpOp::Gt => "__gt__",
        CmpOp::Ge => "__ge__",
        CmpOp::Eq => "__eq__",
        _ => "__ne__",
    }
}

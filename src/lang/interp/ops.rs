//! Operators and protocols: arithmetic, comparison, truth, repr/str, iteration, indexing.
use super::Interp;
use crate::lang::ast::{BinOp, CmpOp, UnaryOp};
use crate::lang::error::{overflow_error, type_error, value_error, ExcKind, PyErr, PyResult};
use crate::lang::format;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

fn zero_div(msg: &str) -> PyErr {
    PyErr::new(ExcKind::ZeroDivisionError, msg)
}

fn unsupported(op: &str, a: &Value, b: &Value) -> PyErr {
    let op = if op == "**" { "** or pow()" } else { op };
    type_error(format!(
        "unsupported operand type(s) for {op}: '{}' and '{}'",
        a.type_name(),
        b.type_name()
    ))
}

/// Python's floored integer division and modulo.
fn int_floordiv(a: i64, b: i64) -> PyResult<i64> {
    if b == 0 {
        return Err(zero_div("integer division or modulo by zero"));
    }
    let q = a.checked_div(b).ok_or_else(overflow_error)?;
    Ok(if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

fn int_mod(a: i64, b: i64) -> PyResult<i64> {
    if b == 0 {
        return Err(zero_div("integer modulo by zero"));
    }
    let r = a.checked_rem(b).unwrap_or(0);
    Ok(if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    })
}

pub fn float_mod(a: f64, b: f64) -> PyResult<f64> {
    if b == 0.0 {
        return Err(zero_div("float modulo"));
    }
    let mut m = a % b;
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m += b;
        }
    } else {
        m = 0.0f64.copysign(b);
    }
    Ok(m)
}

pub fn float_floordiv(a: f64, b: f64) -> PyResult<f64> {
    if b == 0.0 {
        return Err(zero_div("float floor division by zero"));
    }
    let m = a % b;
    let mut div = (a - m) / b;
    if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
        div -= 1.0;
    }
    if div != 0.0 {
        let fl = div.floor();
        if div - fl > 0.5 {
            div = fl + 1.0;
        } else {
            div = fl;
        }
    } else {
        div = 0.0f64.copysign(a / b);
    }
    Ok(div)
}

fn float_pow(a: f64, b: f64) -> PyResult<f64> {
    if a == 0.0 && b < 0.0 {
        return Err(zero_div("0.0 cannot be raised to a negative power"));
    }
    if a < 0.0 && b.fract() != 0.0 && b.is_finite() {
        return Err(crate::lang::error::not_implemented(
            "complex numbers (a negative number raised to a fractional power)",
        ));
    }
    let r = a.powf(b);
    if r.is_infinite() && a.is_finite() && b.is_finite() {
        return Err(PyErr::new(
            ExcKind::OverflowError,
            "(34, 'Numerical result out of range')",
        ));
    }
    Ok(r)
}

fn int_pow(a: i64, b: i64) -> PyResult<Value> {
    if b < 0 {
        return Ok(Value::Float(float_pow(a as f64, b as f64)?));
    }
    let mut result: i64 = 1;
    let mut base = a;
    let mut e = b as u64;
    while e > 0 {
        if e & 1 == 1 {
            result = result.checked_mul(base).ok_or_else(overflow_error)?;
        }
        e >>= 1;
        if e > 0 {
            base = base.checked_mul(base).ok_or_else(overflow_error)?;
        }
    }
    Ok(Value::Int(result))
}

fn num_binary(op: BinOp, a: Num, b: Num) -> PyResult<Option<Value>> {
    use Num::*;
    Ok(Some(match (a, b) {
        (Int(x), Int(y)) => match op {
            BinOp::Add => Value::Int(x.checked_add(y).ok_or_else(overflow_error)?),
            BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(overflow_error)?),
            BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(overflow_error)?),
            BinOp::Div => {
                if y == 0 {
                    return Err(zero_div("division by zero"));
                }
                Value::Float(int_true_div(x, y))
            }
            BinOp::FloorDiv => Value::Int(int_floordiv(x, y)?),
            BinOp::Mod => Value::Int(int_mod(x, y)?),
            BinOp::Pow => int_pow(x, y)?,
            BinOp::BitAnd => Value::Int(x & y),
            BinOp::BitOr => Value::Int(x | y),
            BinOp::BitXor => Value::Int(x ^ y),
            BinOp::LShift => {
                if y < 0 {
                    return Err(value_error("negative shift count"));
                }
                if x == 0 {
                    Value::Int(0)
                } else if y >= 63 || (x.unsigned_abs().leading_zeros() as i64) <= y {
                    return Err(overflow_error());
                } else {
                    Value::Int(x << y)
                }
            }
            BinOp::RShift => {
                if y < 0 {
                    return Err(value_error("negative shift count"));
                }
                Value::Int(x >> y.min(63))
            }
            BinOp::MatMul => return Ok(None),
        },
        _ => {
            let (x, y) = (a.to_f64(), b.to_f64());
            match op {
                BinOp::Add => Value::Float(x + y),
                BinOp::Sub => Value::Float(x - y),
                BinOp::Mul => Value::Float(x * y),
                BinOp::Div => {
                    if y == 0.0 {
                        return Err(zero_div("float division by zero"));
                    }
                    Value::Float(x / y)
                }
                BinOp::FloorDiv => Value::Float(float_floordiv(x, y)?),
                BinOp::Mod => Value::Float(float_mod(x, y)?),
                BinOp::Pow => Value::Float(float_pow(x, y)?),
                _ => return Ok(None),
            }
        }
    }))
}

/// Correctly rounded int / int (exact when both fit in 53 bits, as they almost always do).
fn int_true_div(x: i64, y: i64) -> f64 {
    const EXACT: i64 = 1 << 53;
    if x.abs() < EXACT && y.abs() < EXACT {
        x as f64 / y as f64
    } else {
        (x as i128 as f64) / (y as i128 as f64)
    }
}

/// Containers past this many items raise MemoryError instead of exhausting the machine.
pub const MAX_ITEMS: usize = 1 << 25;

fn repeat<T: Clone>(items: &[T], n: i64) -> PyResult<Vec<T>> {
    let n = n.max(0) as usize;
    if items.len().saturating_mul(n) > MAX_ITEMS {
        return Err(PyErr::new(ExcKind::MemoryError, ""));
    }
    Ok(items
        .iter()
        .cloned()
        .cycle()
        .take(items.len() * n)
        .collect())
}

impl Interp {
    #[inline]
    pub fn binary(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
        // The hot path of every loop counter and accumulator.
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            let r = match op {
                BinOp::Add => x.checked_add(*y),
                BinOp::Sub => x.checked_sub(*y),
                BinOp::Mul => x.checked_mul(*y),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(Value::Int(r));
            }
        }
        self.binary_slow(op, a, b)
    }

    fn binary_slow(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
        if let (Some(x), Some(y)) = (num_of(a), num_of(b)) {
            if let Some(v) = num_binary(op, x, y)? {
                return Ok(v);
            }
            return Err(unsupported(op.symbol(), a, b));
        }
        if let Some(v) = self.seq_binary(op, a, b)? {
            return Ok(v);
        }
        // User classes and native objects.
        if let Some(v) = self.dunder_binary(op, a, b)? {
            return Ok(v);
        }
        Err(match (op, a) {
            (BinOp::Add, Value::Str(_)) => type_error(format!(
                "can only concatenate str (not \"{}\") to str",
                b.type_name()
            )),
            (BinOp::Add, Value::List(_)) => type_error(format!(
                "can only concatenate list (not \"{}\") to list",
                b.type_name()
            )),
            (BinOp::Add, Value::Tuple(_)) => type_error(format!(
                "can only concatenate tuple (not \"{}\") to tuple",
                b.type_name()
            )),
            (BinOp::Mul, Value::Str(_) | Value::List(_) | Value::Tuple(_))
                if !matches!(b, Value::Instance(_) | Value::Native(_)) =>
            {
                type_error(format!(
                    "can't multiply sequence by non-int of type '{}'",
                    b.type_name()
                ))
            }
            (BinOp::Mul, _)
                if matches!(b, Value::Str(_) | Value::List(_) | Value::Tuple(_))
                    && matches!(a, Value::Float(_)) =>
            {
                type_error(format!(
                    "can't multiply sequence by non-int of type '{}'",
                    a.type_name()
                ))
            }
            _ => unsupported(op.symbol(), a, b),
        })
    }

    fn seq_binary(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Option<Value>> {
        Ok(Some(match (op, a, b) {
            (BinOp::Add, Value::Str(x), Value::Str(y)) => {
                if x.len() + y.len() > crate::lang::methods::MAX_STR as usize {
                    return Err(PyErr::new(ExcKind::MemoryError, ""));
                }
                let mut s = String::with_capacity(x.len() + y.len());
                s.push_str(x);
                s.push_str(y);
                Value::from(s)
            }
            (BinOp::Add, Value::List(x), Value::List(y)) => {
                let mut v = x.borrow().clone();
                v.extend(y.borrow().iter().cloned());
                Value::list(v)
            }
            (BinOp::Add, Value::Tuple(x), Value::Tuple(y)) => {
                let mut v = x.as_ref().clone();
                v.extend(y.iter().cloned());
                Value::tuple(v)
            }
            (BinOp::Mul, Value::Str(s), n) | (BinOp::Mul, n, Value::Str(s))
                if n.as_int().is_some() =>
            {
                let n = n.as_int().unwrap_or(0).max(0) as usize;
                if s.len().saturating_mul(n) > crate::lang::methods::MAX_STR as usize {
                    return Err(PyErr::new(ExcKind::MemoryError, ""));
                }
                Value::from(s.repeat(n))
            }
            (BinOp::Mul, Value::List(l), n) | (BinOp::Mul, n, Value::List(l))
                if n.as_int().is_some() =>
            {
                Value::list(repeat(&l.borrow(), n.as_int().unwrap_or(0))?)
            }
            (BinOp::Mul, Value::Tuple(t), n) | (BinOp::Mul, n, Value::Tuple(t))
                if n.as_int().is_some() =>
            {
                Value::tuple(repeat(t, n.as_int().unwrap_or(0))?)
            }
            (BinOp::Mod, Value::Str(s), args)
                if !matches!(args, Value::Instance(_) | Value::Native(_)) =>
            {
                Value::from(self.percent_format(s, args)?)
            }
            (
                BinOp::BitOr | BinOp::BitAnd | BinOp::Sub | BinOp::BitXor,
                Value::Set(x),
                Value::Set(y),
            ) => {
                let (x, y) = (x.borrow(), y.borrow());
                let r: SetMap = match op {
                    BinOp::BitOr => x.iter().chain(y.iter()).cloned().collect(),
                    BinOp::BitAnd => x.iter().filter(|k| y.contains(*k)).cloned().collect(),
                    BinOp::Sub => x.iter().filter(|k| !y.contains(*k)).cloned().collect(),
                    _ => x
                        .iter()
                        .filter(|k| !y.contains(*k))
                        .chain(y.iter().filter(|k| !x.contains(*k)))
                        .cloned()
                        .collect(),
                };
                Value::Set(Rc::new(RefCell::new(r)))
            }
            (BinOp::BitOr, Value::Dict(x), Value::Dict(y)) => {
                let mut m = x.borrow().clone();
                for (k, v) in y.borrow().iter() {
                    crate::lang::interp::expr::dict_insert(&mut m, k.clone(), v.clone());
                }
                Value::Dict(Rc::new(RefCell::new(m)))
            }
            _ => return Ok(None),
        }))
    }

    fn dunder_binary(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Option<Value>> {
        if matches!(a, Value::Native(_)) || matches!(b, Value::Native(_)) {
            // Engine ops (a chain of big matmuls in one statement) can be interrupted.
            self.check_interrupt()?;
        }
        let (name, rname, _) = op.dunders();
        if let Value::Native(n) = a {
            if let Some(v) = n.clone().binary(a, op, b, false, self)? {
                return Ok(Some(v));
            }
        }
        if let Value::Instance(i) = a {
            if let Some(m) = i.class.lookup(Sym::new(name)) {
                let r = self.call_bound(&m, a.clone(), Args::new(vec![b.clone()]))?;
                if !matches!(r, Value::NotImplemented) {
                    return Ok(Some(r));
                }
            }
        }
        if let Value::Native(n) = b {
            if let Some(v) = n.clone().binary(b, op, a, true, self)? {
                return Ok(Some(v));
            }
        }
        if let Value::Instance(i) = b {
            if let Some(m) = i.class.lookup(Sym::new(rname)) {
                let r = self.call_bound(&m, b.clone(), Args::new(vec![a.clone()]))?;
                if !matches!(r, Value::NotImplemented) {
                    return Ok(Some(r));
                }
            }
        }
        Ok(None)
    }

    /// `a op= b`: in place for lists, `__iop__` for objects, else the plain operator.
    pub fn inplace(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
        match (op, a) {
            (_, Value::Int(_) | Value::Float(_))
                if matches!(b, Value::Int(_) | Value::Float(_)) =>
            {
                return self.binary(op, a, b);
            }
            (BinOp::Add, Value::List(l)) if !matches!(b, Value::Native(_)) => {
                let items = self.collect(b).map_err(|e| {
                    if e.is(ExcKind::TypeError) {
                        type_error(format!("'{}' object is not iterable", b.type_name()))
                    } else {
                        e
                    }
                })?;
                l.borrow_mut().extend(items);
                return Ok(a.clone());
            }
            (_, Value::Instance(i)) => {
                if let Some(m) = i.class.lookup(Sym::new(op.dunders().2)) {
                    let r = self.call_bound(&m, a.clone(), Args::new(vec![b.clone()]))?;
                    if !matches!(r, Value::NotImplemented) {
                        return Ok(r);
                    }
                }
            }
            (_, Value::Native(n)) => {
                // Natives (tensors) have real in-place forms: `__iadd__` and friends.
                if let Some(r) = native_inplace(self, n.clone(), a, op, b)? {
                    return Ok(r);
                }
            }
            _ => {}
        }
        self.binary(op, a, b).map_err(|e| {
            // CPython names the augmented operator in the message.
            if e.is(ExcKind::TypeError) {
                if let crate::lang::error::Exc::Builtin(_, args) = &e.0.exc {
                    if let Some(Value::Str(m)) = args.first() {
                        let plain = format!("for {}:", op.symbol());
                        if m.contains(&plain) {
                            return type_error(
                                m.replace(&plain, &format!("for {}=:", op.symbol())),
                            );
                        }
                    }
                }
            }
            e
        })
    }

    pub fn unary(&mut self, op: UnaryOp, a: &Value) -> PyResult<Value> {
        match (op, a) {
            (UnaryOp::Not, v) => Ok(Value::Bool(!self.truthy(v)?)),
            (UnaryOp::Neg, Value::Int(i)) => {
                Ok(Value::Int(i.checked_neg().ok_or_else(overflow_error)?))
            }
            (UnaryOp::Neg, Value::Bool(b)) => Ok(Value::Int(-(*b as i64))),
            (UnaryOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
            (UnaryOp::Pos, Value::Int(_) | Value::Float(_)) => Ok(a.clone()),
            (UnaryOp::Pos, Value::Bool(b)) => Ok(Value::Int(*b as i64)),
            (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
            (UnaryOp::Invert, Value::Bool(b)) => Ok(Value::Int(!(*b as i64))),
            (_, Value::Instance(i)) => {
                let name = match op {
                    UnaryOp::Neg => "__neg__",
                    UnaryOp::Pos => "__pos__",
                    _ => "__invert__",
                };
                match i.class.lookup(Sym::new(name)) {
                    Some(m) => self.call_bound(&m, a.clone(), Args::default()),
                    None => Err(bad_unary(op, a)),
                }
            }
            (_, Value::Native(n)) => {
                let name = match op {
                    UnaryOp::Neg => "__neg__",
                    UnaryOp::Pos => "__pos__",
                    _ => "__invert__",
                };
                match n.clone().get_attr(a, Sym::new(name), self)? {
                    Some(m) => self.call(&m, Args::default()),
                    None => Err(bad_unary(op, a)),
                }
            }
            _ => Err(bad_unary(op, a)),
        }
    }

    pub fn truthy(&mut self, v: &Value) -> PyResult<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Dict(d) => !d.borrow().is_empty(),
            Value::Set(s) => !s.borrow().is_empty(),
            Value::Range(r) => !r.is_empty(),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup(crate::lang::symbol::dunder::BOOL) {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    return match r {
                        Value::Bool(b) => Ok(b),
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
        Ok(Value::Bool(match op {
            CmpOp::Is => a.is(b),
            CmpOp::IsNot => !a.is(b),
            CmpOp::In => self.contains(b, a)?,
            CmpOp::NotIn => !self.contains(b, a)?,
            CmpOp::Eq => return self.eq_value(a, b),
            CmpOp::Ne => {
                let r = self.eq_value(a, b)?;
                if let Value::Bool(x) = r {
                    !x
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
                return self.call(&m, Args::new(vec![b.clone()]));
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
        Ok(Value::Bool(self.eq(a, b)?))
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
                    match y.get(k) {
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
            (Value::Set(x), Value::Set(y)) => {
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
                    let r = self.call_bound(&m, this.clone(), Args::new(vec![other.clone()]))?;
                    if !matches!(r, Value::NotImplemented) {
                        return self.truthy(&r);
                    }
                }
                if let (Value::Instance(_), Value::Instance(j)) = (a, b) {
                    if let Some(m) = j.class.lookup(crate::lang::symbol::dunder::EQ) {
                        let r = self.call_bound(&m, b.clone(), Args::new(vec![a.clone()]))?;
                        if !matches!(r, Value::NotImplemented) {
                            return self.truthy(&r);
                        }
                    }
                }
                Ok(a.is(b))
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
                            None => return Ok(Value::Bool(false)),
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
            (Value::Set(x), Value::Set(y)) => {
                let (x, y) = (x.borrow(), y.borrow());
                let sub = x.iter().all(|k| y.contains(k));
                let sup = y.iter().all(|k| x.contains(k));
                return Ok(Value::Bool(match op {
                    CmpOp::Le => sub,
                    CmpOp::Lt => sub && x.len() < y.len(),
                    CmpOp::Ge => sup,
                    _ => sup && x.len() > y.len(),
                }));
            }
            _ => None,
        };
        if let Some(o) = ord {
            return Ok(Value::Bool(match op {
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
                let r = self.call_bound(&m, a.clone(), Args::new(vec![b.clone()]))?;
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
                let r = self.call_bound(&m, b.clone(), Args::new(vec![a.clone()]))?;
                if !matches!(r, Value::NotImplemented) {
                    return Ok(r);
                }
            }
        }
        if let Value::Native(n) = b {
            if let Some(m) = n.clone().get_attr(b, Sym::new(reflected), self)? {
                return self.call(&m, Args::new(vec![a.clone()]));
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
        Ok(Value::Bool(match op {
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
            Value::Str(s) => match item {
                Value::Str(sub) => Ok(s.contains(&**sub)),
                other => Err(type_error(format!(
                    "'in <string>' requires string as left operand, not {}",
                    other.type_name()
                ))),
            },
            Value::Dict(d) => {
                let k = Key::new(item.clone())?;
                Ok(d.borrow().contains_key(&k))
            }
            Value::Set(s) => {
                let k = Key::new(item.clone())?;
                Ok(s.borrow().contains(&k))
            }
            Value::Range(r) => Ok(match num_of(item) {
                Some(Num::Int(i)) => {
                    let off = i - r.start;
                    !r.is_empty()
                        && off % r.step == 0
                        && (0..r.len()).contains(&(off / r.step))
                        && ((r.step > 0 && off >= 0) || (r.step < 0 && off <= 0))
                }
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
                let r = self.call_bound(&m, container.clone(), Args::new(vec![item.clone()]))?;
                self.truthy(&r)
            }
            // natives with their own `__contains__` (a tensor: `2.5 in t`)
            Value::Native(n)
                if n.get_attr(
                    container,
                    crate::lang::symbol::Sym::new("__contains__"),
                    self,
                )?
                .is_some() =>
            {
                let r =
                    self.call_method(container, "__contains__", Args::new(vec![item.clone()]))?;
                self.truthy(&r)
            }
            _ => {
                let it = self.get_iter(container).map_err(|_| {
                    type_error(format!(
                        "argument of type '{}' is not iterable",
                        container.type_name()
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

    // ------------------------------------------------------------------ repr and str

    pub fn repr(&mut self, v: &Value) -> PyResult<String> {
        self.depth += 1;
        if self.depth > super::RECURSION_LIMIT {
            self.depth -= 1;
            return Err(PyErr::new(
                ExcKind::RecursionError,
                "maximum recursion depth exceeded while getting the repr of an object",
            ));
        }
        let r = self.repr_inner(v);
        self.depth -= 1;
        r
    }

    fn repr_inner(&mut self, v: &Value) -> PyResult<String> {
        Ok(match v {
            Value::None => "None".into(),
            Value::Bool(true) => "True".into(),
            Value::Bool(false) => "False".into(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => format::float_repr(*f),
            Value::Str(s) => format::str_repr(s),
            Value::List(l) => {
                // A list that contains itself prints as `[...]`, as in CPython.
                let id = v.ptr_id();
                if self.repr_active.contains(&id) {
                    return Ok("[...]".into());
                }
                let items = l.borrow().clone();
                self.repr_active.push(id);
                let r = self.join_reprs(&items);
                self.repr_active.pop();
                format!("[{}]", r?)
            }
            Value::Tuple(t) => {
                if t.len() == 1 {
                    format!("({},)", self.repr(&t[0])?)
                } else {
                    format!("({})", self.join_reprs(t)?)
                }
            }
            Value::Dict(d) => {
                let id = v.ptr_id();
                if self.repr_active.contains(&id) {
                    return Ok("{...}".into());
                }
                self.repr_active.push(id);
                let r = self.dict_repr(d);
                self.repr_active.pop();
                r?
            }
            Value::Set(s) => {
                let items: Vec<Value> = set_order(&s.borrow());
                if items.is_empty() {
                    "set()".into()
                } else {
                    format!("{{{}}}", self.join_reprs(&items)?)
                }
            }
            Value::Range(r) => {
                if r.step == 1 {
                    format!("range({}, {})", r.start, r.stop)
                } else {
                    format!("range({}, {}, {})", r.start, r.stop, r.step)
                }
            }
            Value::Slice(s) => format!(
                "slice({}, {}, {})",
                self.repr(&s[0])?,
                self.repr(&s[1])?,
                self.repr(&s[2])?
            ),
            Value::Ellipsis => "Ellipsis".into(),
            Value::NotImplemented => "NotImplemented".into(),
            Value::Func(f) => format!("<function {} at {:#x}>", f.qualname, v.ptr_id()),
            Value::Builtin(b) => match &b.this {
                Some(this) if !matches!(this, Value::None) => format!(
                    "<built-in method {} of {} object at {:#x}>",
                    b.name,
                    this.type_name(),
                    this.ptr_id()
                ),
                _ => format!("<built-in function {}>", b.name),
            },
            Value::Method(m) => {
                let fname = match &m.1 {
                    Value::Func(f) => f.qualname.to_string(),
                    other => other.type_name().to_string(),
                };
                let this = self.repr(&m.0)?;
                format!("<bound method {fname} of {this}>")
            }
            Value::Class(c) => {
                if &*c.module == "builtins" {
                    format!("<class '{}'>", c.name)
                } else {
                    format!("<class '{}.{}'>", c.module, c.name)
                }
            }
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup(crate::lang::symbol::dunder::REPR) {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    return match r {
                        Value::Str(s) => Ok(s.to_string()),
                        other => Err(type_error(format!(
                            "__repr__ returned non-string (type {})",
                            other.type_name()
                        ))),
                    };
                }
                if i.class.exc_kind().is_some() {
                    let args = exc_args(&crate::lang::error::Exc::Object(v.clone()));
                    let inner = if args.len() == 1 {
                        self.repr(&args[0])?
                    } else {
                        self.join_reprs(&args)?
                    };
                    return Ok(format!("{}({})", i.class.name, inner));
                }
                format!(
                    "<{}.{} object at {:#x}>",
                    i.class.module,
                    i.class.name,
                    v.ptr_id()
                )
            }
            Value::Module(m) => format!("<module '{}' (built-in)>", m.name),
            Value::Iter(it) => format!("<{} object at {:#x}>", it.borrow().type_name(), v.ptr_id()),
            Value::Native(n) => n.clone().repr(self)?,
            Value::Cell(_) => "<cell>".into(),
            Value::StrBuf(b) => format::str_repr(b),
        })
    }

    fn dict_repr(&mut self, d: &Rc<RefCell<DictMap>>) -> PyResult<String> {
        let items: Vec<(Key, Value)> = d
            .borrow()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut parts = Vec::with_capacity(items.len());
        for (k, v) in items {
            parts.push(format!("{}: {}", self.repr(&k.0)?, self.repr(&v)?));
        }
        Ok(format!("{{{}}}", parts.join(", ")))
    }

    fn join_reprs(&mut self, items: &[Value]) -> PyResult<String> {
        let mut parts = Vec::with_capacity(items.len());
        for x in items {
            parts.push(self.repr(x)?);
        }
        Ok(parts.join(", "))
    }

    /// `str(v)`.
    pub fn to_str(&mut self, v: &Value) -> PyResult<String> {
        match v {
            Value::Str(s) => Ok(s.to_string()),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup(crate::lang::symbol::dunder::STR) {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    return match r {
                        Value::Str(s) => Ok(s.to_string()),
                        other => Err(type_error(format!(
                            "__str__ returned non-string (type {})",
                            other.type_name()
                        ))),
                    };
                }
                if i.class.exc_kind().is_some() {
                    return self.exc_message(&crate::lang::error::Exc::Object(v.clone()));
                }
                self.repr(v)
            }
            Value::Native(n) => n.clone().str(self),
            _ => self.repr(v),
        }
    }

    /// `str(e)` of an exception: its single argument, a tuple repr of several, or nothing.
    pub fn exc_message(&mut self, exc: &crate::lang::error::Exc) -> PyResult<String> {
        if let crate::lang::error::Exc::Object(v @ Value::Instance(i)) = exc {
            if i.class.lookup(crate::lang::symbol::dunder::STR).is_some() {
                return self.to_str(v);
            }
        }
        let args = exc_args(exc);
        let is_key = match exc {
            crate::lang::error::Exc::Builtin(k, _) => *k == ExcKind::KeyError,
            crate::lang::error::Exc::Object(v) => v.exc_kind() == Some(ExcKind::KeyError),
        };
        match args.len() {
            0 => Ok(String::new()),
            1 if is_key => self.repr(&args[0]),
            1 => self.to_str(&args[0]),
            _ => self.repr(&Value::tuple(args)),
        }
    }

    /// `format(v, spec)`.
    pub fn format_value(&mut self, v: &Value, spec: &str) -> PyResult<String> {
        let r = match v {
            Value::Int(i) => format::int_format(*i, spec),
            Value::Bool(b) => format::bool_format(*b, spec),
            Value::Float(f) => format::float_format(*f, spec),
            Value::Str(s) => format::str_format(s, spec),
            Value::Instance(i)
                if i.class
                    .lookup(crate::lang::symbol::dunder::FORMAT)
                    .is_some() =>
            {
                let m = i
                    .class
                    .lookup(crate::lang::symbol::dunder::FORMAT)
                    .unwrap_or(Value::None);
                let r = self.call_bound(&m, v.clone(), Args::new(vec![Value::str(spec)]))?;
                return self.to_str(&r);
            }
            Value::Native(n) => {
                if let Some(m) = n
                    .clone()
                    .get_attr(v, crate::lang::symbol::dunder::FORMAT, self)?
                {
                    let r = self.call(&m, Args::new(vec![Value::str(spec)]))?;
                    return self.to_str(&r);
                }
                if spec.is_empty() {
                    return self.to_str(v);
                }
                return Err(type_error(format!(
                    "unsupported format string passed to {}.__format__",
                    v.type_name()
                )));
            }
            _ => {
                if spec.is_empty() {
                    return self.to_str(v);
                }
                return Err(type_error(format!(
                    "unsupported format string passed to {}.__format__",
                    v.type_name()
                )));
            }
        };
        r.map_err(value_error)
    }

    fn percent_format(&mut self, fmt: &str, args: &Value) -> PyResult<String> {
        use format::{PercentCount, PercentKind, PercentPiece};
        let pieces = format::parse_percent(fmt);
        let (vals, mapping): (Vec<Value>, Option<Value>) = match args {
            Value::Tuple(t) => (t.as_ref().clone(), None),
            Value::Dict(_) => (vec![args.clone()], Some(args.clone())),
            other => (vec![other.clone()], None),
        };
        let mut idx = 0;
        let mut out = String::new();
        let mut used_mapping = false;
        let take = |idx: &mut usize| -> PyResult<Value> {
            let v = vals
                .get(*idx)
                .cloned()
                .ok_or_else(|| type_error("not enough arguments for format string"))?;
            *idx += 1;
            Ok(v)
        };
        for p in pieces {
            match p {
                PercentPiece::Literal(s) => out.push_str(&s),
                PercentPiece::Error(e) => return Err(value_error(e)),
                PercentPiece::Spec(mut spec) => {
                    if spec.width == PercentCount::Star {
                        let w = take(&mut idx)?;
                        let w = w.as_int().ok_or_else(|| type_error("* wants int"))?;
                        spec.set_star_width(w).map_err(value_error)?;
                    }
                    if spec.precision == PercentCount::Star {
                        let p = take(&mut idx)?;
                        let p = p.as_int().ok_or_else(|| type_error("* wants int"))?;
                        spec.set_star_precision(p).map_err(value_error)?;
                    }
                    let v = match &spec.key {
                        Some(k) => {
                            used_mapping = true;
                            let Some(m) = &mapping else {
                                return Err(type_error("format requires a mapping"));
                            };
                            self.get_item(m, &Value::str(k))?
                        }
                        None => take(&mut idx)?,
                    };
                    let s = match spec.kind() {
                        PercentKind::Str => format::percent_str(&self.to_str(&v)?, &spec),
                        PercentKind::Repr | PercentKind::Ascii => {
                            format::percent_str(&self.repr(&v)?, &spec)
                        }
                        PercentKind::Int | PercentKind::IntOnly => match &v {
                            Value::Int(_) | Value::Bool(_) => {
                                format::percent_int(v.as_int().unwrap_or(0), &spec)
                            }
                            Value::Float(f) if spec.kind() == PercentKind::Int => {
                                let i = format::float_to_int_checked(f.trunc())
                                    .map_err(|e| PyErr::new(ExcKind::OverflowError, e.message()))?;
                                format::percent_int(i, &spec)
                            }
                            other => {
                                return Err(type_error(if spec.kind() == PercentKind::Int {
                                    format!(
                                        "%{} format: a real number is required, not {}",
                                        spec.conv,
                                        other.type_name()
                                    )
                                } else {
                                    format!(
                                        "%{} format: an integer is required, not {}",
                                        spec.conv,
                                        other.type_name()
                                    )
                                }))
                            }
                        },
                        PercentKind::Float => match num_of(&v) {
                            Some(n) => format::percent_float(n.to_f64(), &spec),
                            None => {
                                return Err(type_error(format!(
                                    "must be real number, not {}",
                                    v.type_name()
                                )))
                            }
                        },
                        PercentKind::Char => match &v {
                            Value::Str(s) if s.chars().count() == 1 => {
                                format::percent_str(s, &spec)
                            }
                            Value::Int(i) => {
                                let c = char::from_u32(*i as u32).unwrap_or('\u{fffd}');
                                format::percent_str(&c.to_string(), &spec)
                            }
                            _ => return Err(type_error("%c requires int or char")),
                        },
                        PercentKind::Unsupported(msg) => return Err(value_error(msg)),
                    };
                    out.push_str(&s);
                }
            }
        }
        if mapping.is_none() && idx < vals.len() {
            return Err(type_error(
                "not all arguments converted during string formatting",
            ));
        }
        let _ = used_mapping;
        Ok(out)
    }

    pub fn len(&mut self, v: &Value) -> PyResult<usize> {
        Ok(match v {
            Value::Str(s) => s.chars().count(),
            Value::List(l) => l.borrow().len(),
            Value::Tuple(t) => t.len(),
            Value::Dict(d) => d.borrow().len(),
            Value::Set(s) => s.borrow().len(),
            Value::Range(r) => r.len().max(0) as usize,
            Value::Instance(i) => match i.class.lookup(crate::lang::symbol::dunder::LEN) {
                Some(m) => {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    match r.as_int() {
                        Some(n) if n >= 0 => n as usize,
                        Some(_) => return Err(value_error("__len__() should return >= 0")),
                        None => {
                            return Err(type_error(format!(
                                "'{}' object cannot be interpreted as an integer",
                                r.type_name()
                            )))
                        }
                    }
                }
                None => {
                    return Err(type_error(format!(
                        "object of type '{}' has no len()",
                        i.class.name
                    )))
                }
            },
            Value::Native(n) => match n.clone().len(self)? {
                Some(l) => l,
                None => {
                    return Err(type_error(format!(
                        "object of type '{}' has no len()",
                        v.type_name()
                    )))
                }
            },
            other => {
                return Err(type_error(format!(
                    "object of type '{}' has no len()",
                    other.type_name()
                )))
            }
        })
    }

    // ------------------------------------------------------------------ context managers

    pub(crate) fn ctx_enter(&mut self, ctx: &Value) -> PyResult<Value> {
        match ctx {
            Value::Instance(i) => {
                let enter = i.class.lookup(crate::lang::symbol::dunder::ENTER);
                let exit = i.class.lookup(crate::lang::symbol::dunder::EXIT);
                match (enter, exit) {
                    (Some(e), Some(_)) => self.call_bound(&e, ctx.clone(), Args::default()),
                    (None, _) => Err(type_error(format!(
                        "'{}' object does not support the context manager protocol",
                        i.class.name
                    ))),
                    (_, None) => Err(type_error(format!(
                        "'{}' object does not support the context manager protocol (missed __exit__ method)",
                        i.class.name
                    ))),
                }
            }
            Value::Native(n) => match n.clone().enter(ctx, self)? {
                Some(v) => Ok(v),
                None => Err(type_error(format!(
                    "'{}' object does not support the context manager protocol",
                    ctx.type_name()
                ))),
            },
            other => Err(type_error(format!(
                "'{}' object does not support the context manager protocol",
                other.type_name()
            ))),
        }
    }

    /// Calls `__exit__`; returns whether it suppressed the exception.
    pub(crate) fn ctx_exit(&mut self, ctx: &Value, err: Option<&PyErr>) -> PyResult<bool> {
        match ctx {
            Value::Instance(i) => {
                let Some(exit) = i.class.lookup(crate::lang::symbol::dunder::EXIT) else {
                    return Ok(false);
                };
                let args = match err {
                    None => vec![Value::None, Value::None, Value::None],
                    Some(e) => {
                        let v = self.exc_value(e);
                        let cls = match &v {
                            Value::Instance(inst) => Value::Class(inst.class.clone()),
                            _ => Value::None,
                        };
                        vec![cls, v, Value::None]
                    }
                };
                let r = self.call_bound(&exit, ctx.clone(), Args::new(args))?;
                Ok(err.is_some() && self.truthy(&r)?)
            }
            Value::Native(n) => n.clone().exit(ctx, self, err),
            _ => Ok(false),
        }
    }
}

fn native_inplace(
    interp: &mut Interp,
    n: Rc<dyn Native>,
    a: &Value,
    op: BinOp,
    b: &Value,
) -> PyResult<Option<Value>> {
    let name = op.dunders().2;
    match n.get_attr(a, Sym::new(name), interp)? {
        Some(m) => interp.call(&m, Args::new(vec![b.clone()])).map(Some),
        None => Ok(None),
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

fn bad_unary(op: UnaryOp, a: &Value) -> PyErr {
    let sym = match op {
        UnaryOp::Neg => "-",
        UnaryOp::Pos => "+",
        UnaryOp::Invert => "~",
        UnaryOp::Not => "not",
    };
    type_error(format!(
        "bad operand type for unary {sym}: '{}'",
        a.type_name()
    ))
}

//! Arithmetic operators: numbers, sequences, dunder methods of user classes, in-place and unary.
use super::ops::MAX_ITEMS;
use super::Interp;
use crate::lang::ast::{BinOp, UnaryOp};
use crate::lang::error::{overflow_error, type_error, value_error, ExcKind, PyErr, PyResult};
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
        a.tp_name(),
        b.tp_name()
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
        return Ok(Value::float(float_pow(a as f64, b as f64)?));
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
                Value::float(int_true_div(x, y))
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
                BinOp::Add => Value::float(x + y),
                BinOp::Sub => Value::float(x - y),
                BinOp::Mul => Value::float(x * y),
                BinOp::Div => {
                    if y == 0.0 {
                        return Err(zero_div("float division by zero"));
                    }
                    Value::float(x / y)
                }
                BinOp::FloorDiv => Value::float(float_floordiv(x, y)?),
                BinOp::Mod => Value::float(float_mod(x, y)?),
                BinOp::Pow => Value::float(float_pow(x, y)?),
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

fn repeat(items: &[Value], n: i64) -> PyResult<Vec<Value>> {
    let n = n.max(0) as usize;
    if items.len().saturating_mul(n) > MAX_ITEMS {
        return Err(PyErr::new(ExcKind::MemoryError, ""));
    }
    // (Filled in place: a `cycle()` iterator has no exact length, so collecting it grew
    // the vector step by step.)
    if let [one] = items {
        return Ok(std::iter::repeat_with(|| one.dup()).take(n).collect());
    }
    let mut out = Vec::with_capacity(items.len() * n);
    for _ in 0..n {
        out.extend_from_slice(items);
    }
    Ok(out)
}

/// `a + b`, `a - b`, `a * b` of two ints that do not overflow or of two floats (`None`:
/// any other case, overflow included).
#[inline(always)]
fn arith_inline(op: BinOp, a: &Value, b: &Value) -> Option<Value> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => match op {
            BinOp::Add => x.checked_add(*y),
            BinOp::Sub => x.checked_sub(*y),
            BinOp::Mul => x.checked_mul(*y),
            _ => None,
        }
        .map(Value::Int),
        (Value::Float(x), Value::Float(y)) => match op {
            BinOp::Add => Some(Value::float(x.get() + y.get())),
            BinOp::Sub => Some(Value::float(x.get() - y.get())),
            BinOp::Mul => Some(Value::float(x.get() * y.get())),
            _ => None,
        },
        _ => None,
    }
}

impl Interp {
    /// `a op b`. Int and float `+ - *` (every loop counter and accumulator, `fib(n - 1) +
    /// fib(n - 2)`) are done inline at each call site; the rest is out of line.
    #[inline(always)]
    pub fn binary(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
        match arith_inline(op, a, b) {
            Some(r) => Ok(r),
            None => self.binary_rest(op, a, b),
        }
    }

    /// `binary` past its inline cases: the other number cases that cannot raise, then the
    /// general path.
    #[inline]
    fn binary_rest(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            let r = match op {
                // Non-negative operands: Rust's `%` and `/` are Python's floored ones.
                BinOp::Mod if *x >= 0 && *y > 0 => Some(x % y),
                BinOp::FloorDiv if *x >= 0 && *y > 0 => Some(x / y),
                BinOp::BitAnd => Some(x & y),
                BinOp::BitOr => Some(x | y),
                BinOp::BitXor => Some(x ^ y),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(Value::Int(r));
            }
        }
        // Float arithmetic that cannot raise (division by zero and `**` take the slow path).
        let floats = match (a, b) {
            (Value::Float(x), Value::Float(y)) => Some((x.get(), y.get())),
            (Value::Float(x), Value::Int(y)) => Some((x.get(), *y as f64)),
            (Value::Int(x), Value::Float(y)) => Some((*x as f64, y.get())),
            _ => None,
        };
        if let Some((x, y)) = floats {
            match op {
                BinOp::Add => return Ok(Value::float(x + y)),
                BinOp::Sub => return Ok(Value::float(x - y)),
                BinOp::Mul => return Ok(Value::float(x * y)),
                BinOp::Div if y != 0.0 => return Ok(Value::float(x / y)),
                _ => {}
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
            // (A subclass of a builtin type is formatted as its value, str's `%` going first.)
            (BinOp::Mod, Value::Str(s), args)
                if !matches!(args, Value::Native(_))
                    && !matches!(args, Value::Instance(j) if j.base.is_none()) =>
            {
                Value::from(self.percent_format(s, args)?)
            }
            (
                BinOp::BitOr | BinOp::BitAnd | BinOp::Sub | BinOp::BitXor,
                Value::Set(x) | Value::FrozenSet(x),
                Value::Set(y) | Value::FrozenSet(y),
            ) => {
                let frozen = matches!(a, Value::FrozenSet(_));
                let aligned = self.align_set(y, x)?.map(|s| Rc::new(RefCell::new(s)));
                let y = aligned.as_ref().unwrap_or(y);
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
                if frozen {
                    Value::FrozenSet(Rc::new(RefCell::new(r)))
                } else {
                    Value::Set(Rc::new(RefCell::new(r)))
                }
            }
            (BinOp::BitOr, Value::Dict(x), Value::Dict(y)) => {
                let mut m = x.borrow().clone();
                let items: Vec<(Key, Value)> = y
                    .borrow()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                for (k, v) in items {
                    let k = self.rekey_in_local(k, &m)?;
                    crate::lang::interp::expr::dict_insert(&mut m, k, v);
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
                let r = self.call_bound(&m, a.clone(), Args::of([b.clone()]))?;
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
                let r = self.call_bound(&m, b.clone(), Args::of([a.clone()]))?;
                if !matches!(r, Value::NotImplemented) {
                    return Ok(Some(r));
                }
            }
        }
        Ok(None)
    }

    /// `a op= b`: in place for lists, `__iop__` for objects, else the plain operator.
    /// Numbers go straight to `binary` (kept inline: every `t += x` comes here).
    #[inline]
    pub fn inplace(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
        if matches!(a, Value::Int(_) | Value::Float(_))
            && matches!(b, Value::Int(_) | Value::Float(_))
        {
            return self.binary(op, a, b);
        }
        self.inplace_slow(op, a, b)
    }

    #[inline(never)]
    fn inplace_slow(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
        match (op, a) {
            (BinOp::Add, Value::List(l)) if !matches!(b, Value::Native(_)) => {
                let items = self.collect(b).map_err(|e| {
                    if e.is(ExcKind::TypeError) {
                        type_error(format!("'{}' object is not iterable", b.tp_name()))
                    } else {
                        e
                    }
                })?;
                l.borrow_mut().extend(items);
                return Ok(a.clone());
            }
            (_, Value::Instance(i)) => {
                if let Some(m) = i.class.lookup(Sym::new(op.dunders().2)) {
                    let r = self.call_bound(&m, a.clone(), Args::of([b.clone()]))?;
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
            (UnaryOp::Not, v) => Ok(Value::bool(!self.truthy(v)?)),
            (UnaryOp::Neg, Value::Int(i)) => {
                Ok(Value::Int(i.checked_neg().ok_or_else(overflow_error)?))
            }
            (UnaryOp::Neg, Value::Bool(b)) => Ok(Value::Int(-(*b as i64))),
            (UnaryOp::Neg, Value::Float(f)) => Ok(Value::float(-f.get())),
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
}

fn native_inplace(
    interp: &mut Interp,
    n: NativeRc,
    a: &Value,
    op: BinOp,
    b: &Value,
) -> PyResult<Option<Value>> {
    let name = op.dunders().2;
    match n.get_attr(a, Sym::new(name), interp)? {
        Some(m) => interp.call(&m, Args::of([b.clone()])).map(Some),
        None => Ok(None),
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

//! The builtin functions and the constructors of the builtin types.
use super::error::{index_error, type_error, value_error, ExcKind, PyErr, PyResult};
use super::format;
use super::interp::Interp;
use super::methods;
use super::symbol::Sym;
use super::value::*;
use std::cell::RefCell;
use std::rc::Rc;

pub use methods::{method, method_names, value_attr};

fn builtin(name: &'static str, f: NativeFn) -> Value {
    Value::Builtin(Rc::new(Builtin {
        name,
        f,
        this: None,
    }))
}

/// Rejects keyword arguments for builtins that take none.
pub fn no_kwargs(name: &str, a: &Args) -> PyResult<()> {
    if let Some((k, _)) = a.kw.first() {
        return Err(type_error(format!("{name}() takes no keyword arguments"))
            .hint(format!("unexpected '{k}='")));
    }
    Ok(())
}

pub fn kwarg(a: &Args, name: &str) -> Option<Value> {
    a.kw.iter()
        .find(|(k, _)| &*k.as_str() == name)
        .map(|(_, v)| v.clone())
}

pub(crate) fn check_kwargs(fname: &str, a: &Args, allowed: &[&str]) -> PyResult<()> {
    for (k, _) in &a.kw {
        if !allowed.contains(&&*k.as_str()) {
            return Err(type_error(format!(
                "{fname}() got an unexpected keyword argument '{k}'"
            )));
        }
    }
    Ok(())
}

/// Checks the number of positional arguments, with CPython's wording for builtins.
pub fn arity(name: &str, a: &Args, min: usize, max: usize) -> PyResult<()> {
    let n = a.pos.len();
    if n < min || n > max {
        let msg = if max == 0 {
            format!("{name}() takes no arguments ({n} given)")
        } else if min == max {
            if min == 1 {
                format!("{name}() takes exactly one argument ({n} given)")
            } else {
                format!("{name} expected {min} arguments, got {n}")
            }
        } else if n < min {
            format!(
                "{name} expected at least {min} argument{}, got {n}",
                if min == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "{name} expected at most {max} argument{}, got {n}",
                if max == 1 { "" } else { "s" }
            )
        };
        return Err(type_error(msg));
    }
    Ok(())
}

pub fn to_index(v: &Value) -> PyResult<i64> {
    v.as_int().ok_or_else(|| {
        type_error(format!(
            "'{}' object cannot be interpreted as an integer",
            v.type_name()
        ))
    })
}

/// Builtins: print, len, repr and the type tests.
const CORE: &[(&str, NativeFn)] = &[
    ("print", print),
    ("len", |i, _, a| {
        no_kwargs("len", &a)?;
        arity("len", &a, 1, 1)?;
        Ok(Value::Int(i.len(&a.pos[0])? as i64))
    }),
    ("repr", |i, _, a| {
        arity("repr", &a, 1, 1)?;
        Ok(Value::from(i.repr(&a.pos[0])?))
    }),
    ("ascii", |i, _, a| {
        arity("ascii", &a, 1, 1)?;
        Ok(Value::from(format::ascii_escape(&i.repr(&a.pos[0])?)))
    }),
    ("isinstance", |i, _, a| {
        arity("isinstance", &a, 2, 2)?;
        Ok(Value::bool(isinstance(i, &a.pos[0], &a.pos[1])?))
    }),
    ("issubclass", |_, _, a| {
        arity("issubclass", &a, 2, 2)?;
        let Value::Class(c) = &a.pos[0] else {
            return Err(type_error("issubclass() arg 1 must be a class"));
        };
        let check = |t: &Value| match t {
            Value::Class(t) => Ok(c.is_subclass(t)),
            _ => Err(type_error(
                "issubclass() arg 2 must be a class, a tuple of classes, or a union",
            )),
        };
        match &a.pos[1] {
            Value::Tuple(ts) => {
                for t in ts.iter() {
                    if check(t)? {
                        return Ok(Value::Bool(PyBool::True));
                    }
                }
                Ok(Value::Bool(PyBool::False))
            }
            t => Ok(Value::bool(check(t)?)),
        }
    }),
];

/// Builtins: Iterating helpers and reductions: enumerate, zip, min, max, sum.
const REDUCE: &[(&str, NativeFn)] = &[
    ("enumerate", |i, _, a| {
        check_kwargs("enumerate", &a, &["start"])?;
        let start = match kwarg(&a, "start").or_else(|| a.pos.get(1).cloned()) {
            Some(v) => to_index(&v)?,
            None => 0,
        };
        let Some(it) = a.pos.first() else {
            return Err(type_error(
                "enumerate() missing required argument 'iterable' (pos 1)",
            ));
        };
        let inner = i.get_iter(it)?;
        Ok(Value::Iter(Rc::new(RefCell::new(Iter::Enumerate {
            inner,
            count: start,
        }))))
    }),
    ("zip", |i, _, a| {
        let mut inners = Vec::new();
        for (k, v) in a.pos.iter().enumerate() {
            inners.push(i.get_iter(v).map_err(|_| {
                type_error(format!("zip argument #{} must support iteration", k + 1))
            })?);
        }
        Ok(Value::Iter(Rc::new(RefCell::new(Iter::Zip {
            inners: inners.into(),
        }))))
    }),
    ("min", |i, _, a| min_max(i, a, true)),
    ("max", |i, _, a| min_max(i, a, false)),
    ("sum", |i, _, a| {
        check_kwargs("sum", &a, &["start"])?;
        arity("sum", &a, 1, 2)?;
        let mut acc = kwarg(&a, "start")
            .or_else(|| a.pos.get(1).cloned())
            .unwrap_or(Value::Int(0));
        if let Value::Str(_) = acc {
            return Err(type_error(
                "sum() can't sum strings [use ''.join(seq) instead]",
            ));
        }
        let items = i.collect(&a.pos[0])?;
        // Float sums use CPython's compensated algorithm for exactly its results.
        if items
            .iter()
            .all(|v| matches!(v, Value::Float(_) | Value::Int(_) | Value::Bool(_)))
            && matches!(acc, Value::Int(_) | Value::Float(_))
        {
            return sum_numbers(acc, &items);
        }
        for x in items {
            acc = i.binary(super::ast::BinOp::Add, &acc, &x)?;
        }
        Ok(acc)
    }),
];

/// Builtins: abs and round.
const ROUNDING: &[(&str, NativeFn)] = &[
    ("abs", |i, _, a| {
        arity("abs", &a, 1, 1)?;
        match &a.pos[0] {
            Value::Int(x) => Ok(Value::Int(
                x.checked_abs().ok_or_else(super::error::overflow_error)?,
            )),
            Value::Bool(b) => Ok(Value::Int(*b as i64)),
            Value::Float(f) => Ok(Value::float(f.get().abs())),
            v @ (Value::Instance(_) | Value::Native(_)) => {
                i.call_method(v, "__abs__", Args::default()).map_err(|_| {
                    type_error(format!("bad operand type for abs(): '{}'", v.type_name()))
                })
            }
            v => Err(type_error(format!(
                "bad operand type for abs(): '{}'",
                v.type_name()
            ))),
        }
    }),
    ("round", |i, _, a| {
        check_kwargs("round", &a, &["ndigits"])?;
        arity("round", &a, 1, 2)?;
        let nd = kwarg(&a, "ndigits")
            .or_else(|| a.pos.get(1).cloned())
            .filter(|v| !matches!(v, Value::None));
        match (&a.pos[0], nd) {
            (Value::Int(x), None) => Ok(Value::Int(*x)),
            (Value::Bool(b), None) => Ok(Value::Int(*b as i64)),
            (Value::Int(x), Some(n)) => {
                let n = to_index(&n)?;
                if n >= 0 {
                    return Ok(Value::Int(*x));
                }
                let p = 10i64.checked_pow((-n) as u32);
                Ok(Value::Int(match p {
                    Some(p) => {
                        let q = x.div_euclid(p);
                        let r = x.rem_euclid(p);
                        let twice = r * 2;
                        let q = if twice > p || (twice == p && q % 2 != 0) {
                            q + 1
                        } else {
                            q
                        };
                        q * p
                    }
                    None => 0,
                }))
            }
            (Value::Float(f), None) => {
                format::float_to_int_checked(format::round_half_even_to_int(f.get()))
                    .map(Value::Int)
                    .map_err(num_err)
            }
            (Value::Float(f), Some(n)) => {
                let n = to_index(&n)?;
                format::python_round(f.get(), Some(n))
                    .map(Value::float)
                    .map_err(num_err)
            }
            (v @ (Value::Instance(_) | Value::Native(_)), nd) => {
                let args = Args::new(nd.into_iter().collect::<ArgVec>());
                i.call_method(v, "__round__", args)
            }
            (v, _) => Err(type_error(format!(
                "type {} doesn't define __round__ method",
                v.type_name()
            ))),
        }
    }),
];

/// Builtins: sorted, reversed, any, all.
const ORDERING: &[(&str, NativeFn)] = &[
    ("sorted", |i, _, a| {
        check_kwargs("sorted", &a, &["key", "reverse"])?;
        if a.pos.len() != 1 {
            return Err(type_error(format!(
                "sorted expected 1 argument, got {}",
                a.pos.len()
            )));
        }
        let mut items = i.collect(&a.pos[0])?;
        let key = kwarg(&a, "key").filter(|k| !matches!(k, Value::None));
        let reverse = match kwarg(&a, "reverse") {
            Some(r) => i.truthy(&r)?,
            None => false,
        };
        sort_values(i, &mut items, key.as_ref(), reverse)?;
        Ok(Value::list(items))
    }),
    ("reversed", |i, _, a| {
        arity("reversed", &a, 1, 1)?;
        let v = &a.pos[0];
        let not_reversible = || type_error(format!("'{}' object is not reversible", v.type_name()));
        let (mut items, name) = match v {
            Value::List(l) => {
                let left = l.borrow().len();
                return Ok(Value::Iter(Rc::new(RefCell::new(Iter::ListReversed {
                    list: l.clone(),
                    left,
                }))));
            }
            Value::Range(r) => {
                // A range's reverse is a range iterator from its last item down.
                let last = r.item(-1).unwrap_or(r.start);
                return Ok(Value::Iter(Rc::new(RefCell::new(Iter::Range {
                    next: last,
                    left: r.len(),
                    step: r.step.wrapping_neg(),
                }))));
            }
            Value::Tuple(_) | Value::Str(_) => (i.collect(v)?, "reversed"),
            Value::Dict(d) => (
                d.borrow().keys().map(|k| k.0.clone()).collect(),
                "dict_reversekeyiterator",
            ),
            Value::Instance(inst) => {
                // `__reversed__`, else the sequence protocol (`__len__` and `__getitem__`).
                if let Some(m) = inst.class.lookup(Sym::new("__reversed__")) {
                    return i.call_bound(&m, v.clone(), Args::default());
                }
                let seq = inst
                    .class
                    .lookup(crate::lang::symbol::dunder::LEN)
                    .is_some()
                    && inst
                        .class
                        .lookup(crate::lang::symbol::dunder::GETITEM)
                        .is_some();
                if !seq && inst.plain_base().is_none() {
                    return Err(not_reversible());
                }
                (i.collect(v)?, "reversed")
            }
            _ => return Err(not_reversible()),
        };
        items.reverse();
        Ok(Value::Iter(Rc::new(RefCell::new(Iter::Reversed {
            items: Rc::new(items),
            pos: 0,
            name,
        }))))
    }),
    ("any", |i, _, a| {
        arity("any", &a, 1, 1)?;
        let it = i.get_iter(&a.pos[0])?;
        while let Some(x) = i.next(&it)? {
            if i.truthy(&x)? {
                return Ok(Value::Bool(PyBool::True));
            }
        }
        Ok(Value::Bool(PyBool::False))
    }),
    ("all", |i, _, a| {
        arity("all", &a, 1, 1)?;
        let it = i.get_iter(&a.pos[0])?;
        while let Some(x) = i.next(&it)? {
            if !i.truthy(&x)? {
                return Ok(Value::Bool(PyBool::False));
            }
        }
        Ok(Value::Bool(PyBool::True))
    }),
];

/// Builtins: Attribute access by name.
const ATTRIBUTES: &[(&str, NativeFn)] = &[
    ("hasattr", |i, _, a| {
        arity("hasattr", &a, 2, 2)?;
        let name = attr_name(&a.pos[1], "hasattr")?;
        match i.get_attr(&a.pos[0], name) {
            Ok(_) => Ok(Value::Bool(PyBool::True)),
            Err(e) if e.is_missing_attr() => Ok(Value::Bool(PyBool::False)),
            Err(e) => Err(e),
        }
    }),
    ("getattr", |i, _, a| {
        arity("getattr", &a, 2, 3)?;
        let name = attr_name(&a.pos[1], "getattr")?;
        match i.get_attr(&a.pos[0], name) {
            Err(e) if e.is_missing_attr() && a.pos.len() == 3 => Ok(a.pos[2].clone()),
            r => r,
        }
    }),
    ("setattr", |i, _, a| {
        arity("setattr", &a, 3, 3)?;
        let name = attr_name(&a.pos[1], "setattr")?;
        i.set_attr(&a.pos[0], name, a.pos[2].clone())?;
        Ok(Value::None)
    }),
    ("delattr", |i, _, a| {
        arity("delattr", &a, 2, 2)?;
        let name = attr_name(&a.pos[1], "delattr")?;
        i.del_attr(&a.pos[0], name)?;
        Ok(Value::None)
    }),
];

/// Builtins: iter, next, id, hash, callable.
const IDENTITY: &[(&str, NativeFn)] = &[
    ("iter", |i, _, a| {
        arity("iter", &a, 1, 1)?;
        i.get_iter(&a.pos[0])
    }),
    ("next", |i, _, a| {
        arity("next", &a, 1, 2)?;
        let it = &a.pos[0];
        if !matches!(it, Value::Iter(_) | Value::Instance(_)) {
            return Err(type_error(format!(
                "'{}' object is not an iterator",
                it.type_name()
            )));
        }
        if let Value::Iter(cell) = it {
            let g = match &*cell.borrow() {
                Iter::Gen(g) => Some(g.clone()),
                _ => None,
            };
            if let Some(g) = g {
                // A generator's StopIteration carries its return value.
                return match i.gen_send(&g, Ok(Value::None)) {
                    Err(e) if e.is(ExcKind::StopIteration) && a.pos.len() > 1 => {
                        Ok(a.pos[1].clone())
                    }
                    r => r,
                };
            }
        }
        match i.next(it)? {
            Some(v) => Ok(v),
            None => match a.pos.get(1) {
                Some(d) => Ok(d.clone()),
                None => Err(PyErr::with_args(ExcKind::StopIteration, Vec::new())),
            },
        }
    }),
    ("id", |_, _, a| {
        arity("id", &a, 1, 1)?;
        Ok(Value::Int(a.pos[0].ptr_id() as i64 & i64::MAX))
    }),
    ("hash", |i, _, a| {
        arity("hash", &a, 1, 1)?;
        // A class's own __hash__ (dataclasses, namedtuple); dict keys still hash by identity.
        if let Value::Instance(inst) = &a.pos[0] {
            if let Some(h) = inst.class.lookup(Sym::new("__hash__")) {
                if !matches!(h, Value::None) {
                    return i.call_bound(&h, a.pos[0].clone(), Args::default());
                }
            }
        }
        Key::new(a.pos[0].clone())?;
        Ok(Value::Int(py_hash(&a.pos[0])))
    }),
    ("callable", |_, _, a| {
        arity("callable", &a, 1, 1)?;
        Ok(Value::bool(match &a.pos[0] {
            Value::Func(_) | Value::Builtin(_) | Value::Method(_) | Value::Class(_) => true,
            Value::Instance(i) => i.class.lookup(Sym::new("__call__")).is_some(),
            Value::Native(n) => n.callable(),
            _ => false,
        }))
    }),
];

/// Builtins: divmod, pow, and numbers to and from text (chr, ord, bin, hex, oct, format).
const NUMBER_TEXT: &[(&str, NativeFn)] = &[
    ("divmod", |i, _, a| {
        arity("divmod", &a, 2, 2)?;
        let (x, y) = (&a.pos[0], &a.pos[1]);
        if let (Some(Num::Float(_)), _) | (_, Some(Num::Float(_))) = (num_of(x), num_of(y)) {
            if num_of(y).map(|n| n.to_f64()) == Some(0.0) {
                return Err(PyErr::new(ExcKind::ZeroDivisionError, "float divmod()"));
            }
        }
        let q = i.binary(super::ast::BinOp::FloorDiv, x, y)?;
        let r = i.binary(super::ast::BinOp::Mod, x, y)?;
        Ok(Value::tuple(vec![q, r]))
    }),
    ("pow", |i, _, a| {
        arity("pow", &a, 2, 3)?;
        let p = i.binary(super::ast::BinOp::Pow, &a.pos[0], &a.pos[1])?;
        match a.pos.get(2) {
            Some(m) => i.binary(super::ast::BinOp::Mod, &p, m),
            None => Ok(p),
        }
    }),
    ("chr", |_, _, a| {
        arity("chr", &a, 1, 1)?;
        let n = to_index(&a.pos[0])?;
        u32::try_from(n)
            .ok()
            .and_then(char::from_u32)
            .map(|c| Value::from(c.to_string()))
            .ok_or_else(|| value_error("chr() arg not in range(0x110000)"))
    }),
    ("ord", |_, _, a| {
        arity("ord", &a, 1, 1)?;
        match &a.pos[0] {
            Value::Str(s) => {
                let n = s.chars().count();
                if n != 1 {
                    return Err(type_error(format!(
                        "ord() expected a character, but string of length {n} found"
                    )));
                }
                Ok(Value::Int(s.chars().next().map_or(0, |c| c as i64)))
            }
            v => Err(type_error(format!(
                "ord() expected string of length 1, but {} found",
                v.type_name()
            ))),
        }
    }),
    ("bin", |_, _, a| radix(a, "bin", 'b')),
    ("hex", |_, _, a| radix(a, "hex", 'x')),
    ("oct", |_, _, a| radix(a, "oct", 'o')),
    ("format", |i, _, a| {
        arity("format", &a, 1, 2)?;
        let spec = match a.pos.get(1) {
            Some(Value::Str(s)) => s.to_string(),
            Some(v) => {
                return Err(type_error(format!(
                    "format() argument 2 must be str, not {}",
                    v.type_name()
                )))
            }
            None => String::new(),
        };
        Ok(Value::from(i.format_value(&a.pos[0], &spec)?))
    }),
];

/// Builtins: map and filter.
const FUNCTIONAL: &[(&str, NativeFn)] = &[
    ("map", |i, _, a| {
        if a.pos.len() < 2 {
            return Err(type_error("map() must have at least two arguments."));
        }
        let iters: Vec<Value> = a.pos[1..]
            .iter()
            .map(|v| i.get_iter(v))
            .collect::<PyResult<_>>()?;
        let f = a.pos[0].clone();
        Ok(lazy(MapIter { f, iters }))
    }),
    ("filter", |i, _, a| {
        arity("filter", &a, 2, 2)?;
        let it = i.get_iter(&a.pos[1])?;
        let f = a.pos[0].clone();
        Ok(lazy(FilterIter { f, it }))
    }),
];

fn lazy(it: impl NativeIter + 'static) -> Value {
    Value::Iter(Rc::new(RefCell::new(Iter::Native(Box::new(it)))))
}

/// `map(f, *iterables)`: calls `f` as items are asked for, as Python 3's lazy map does
/// (`map(f, itertools.count())` is fine; nothing runs until it is consumed).
struct MapIter {
    f: Value,
    iters: Vec<Value>,
}

impl NativeIter for MapIter {
    fn next(&mut self, i: &mut Interp) -> PyResult<Option<Value>> {
        let mut args = ArgVec::with_capacity(self.iters.len());
        for it in &self.iters {
            match i.next(it)? {
                Some(v) => args.push(v),
                None => return Ok(None),
            }
        }
        i.call(&self.f, Args::new(args)).map(Some)
    }
    fn type_name(&self) -> &'static str {
        "map"
    }
}

/// `filter(f, iterable)`, lazy as `map`; `f` of `None` keeps the true items.
struct FilterIter {
    f: Value,
    it: Value,
}

impl NativeIter for FilterIter {
    fn next(&mut self, i: &mut Interp) -> PyResult<Option<Value>> {
        while let Some(x) = i.next(&self.it)? {
            let keep = match &self.f {
                Value::None => i.truthy(&x)?,
                f => {
                    let r = i.call(f, Args::of([x.clone()]))?;
                    i.truthy(&r)?
                }
            };
            if keep {
                return Ok(Some(x));
            }
        }
        Ok(None)
    }
    fn type_name(&self) -> &'static str {
        "filter"
    }
}

/// Builtins: dir, help, super, globals, and what a sandbox refuses (input, open) or stops (exit).
const SESSION: &[(&str, NativeFn)] = &[
    ("dir", |i, _, a| {
        let names: Vec<Value> = match a.pos.first() {
            Some(v) => i.dir(v).into_iter().map(Value::Str).collect(),
            None => {
                let mut n: Vec<PyStr> = i.global_names().iter().map(|s| s.as_str()).collect();
                n.sort();
                n.into_iter().map(Value::Str).collect()
            }
        };
        Ok(Value::list(names))
    }),
    ("help", |i, _, a| {
        let text = match a.pos.first() {
            None => "Type help(obj) for help about an object; :help lists cudalearn's commands.\n"
                .to_string(),
            Some(v) => super::help::help_text(i, v)?,
        };
        i.print(&text);
        Ok(Value::None)
    }),
    ("super", |i, _, a| {
        arity("super", &a, 2, 2)?;
        let Value::Class(c) = &a.pos[0] else {
            return Err(type_error("super() argument 1 must be a type"));
        };
        Ok(i.make_super(c.clone(), a.pos[1].clone()))
    }),
    ("globals", |i, _, _| Ok(i.globals_dict())),
    // (Called by name, `locals()` and `vars()` read the caller's frame in `eval_call`; only a
    // call through another name lands here without one.)
    ("locals", |_, _, _| {
        Err(super::error::not_implemented(
            "locals() called through another name",
        ))
    }),
    ("vars", |i, _, a| {
        arity("vars", &a, 0, 1)?;
        let Some(obj) = a.pos.first() else {
            return Err(super::error::not_implemented(
                "vars() called through another name",
            ));
        };
        i.get_attr(obj, Sym::new("__dict__"))
            .map_err(|_| type_error("vars() argument must have __dict__ attribute"))
    }),
    ("input", |_, _, _| {
        Err(super::error::not_implemented("input()"))
    }),
    ("open", |_, _, _| {
        Err(super::error::not_implemented("files (open())"))
    }),
    ("exit", |_, _, a| {
        Err(PyErr::with_args(ExcKind::SystemExit, a.pos.into_vec()))
    }),
    ("quit", |_, _, a| {
        Err(PyErr::with_args(ExcKind::SystemExit, a.pos.into_vec()))
    }),
];

pub fn install(i: &mut Interp) {
    for group in [
        CORE,
        REDUCE,
        ROUNDING,
        ORDERING,
        ATTRIBUTES,
        IDENTITY,
        NUMBER_TEXT,
        FUNCTIONAL,
        SESSION,
    ] {
        for (name, f) in group {
            i.set_builtin(name, builtin(name, *f));
        }
    }
    for (tag, c) in i.types.by_tag.clone() {
        if !matches!(tag, TypeTag::NoneType | TypeTag::Function) {
            i.set_builtin(&c.name.clone(), Value::Class(c));
        }
    }
    i.set_builtin("object", Value::Class(i.types.object.clone()));
    for (k, c) in ExcKind::ALL.iter().zip(i.types.exceptions.clone()) {
        if k.module().is_none() {
            i.set_builtin(k.name(), Value::Class(c));
        }
    }
    for (name, v) in super::interp::descriptor_types() {
        i.set_builtin(name, v);
    }
    i.set_builtin("NotImplemented", Value::NotImplemented);
    i.set_builtin("Ellipsis", Value::Ellipsis);
}

fn num_err(e: format::NumError) -> PyErr {
    match e {
        format::NumError::Value(m) => value_error(m),
        format::NumError::Overflow(m) => PyErr::new(ExcKind::OverflowError, m),
    }
}

fn attr_name(v: &Value, f: &str) -> PyResult<Sym> {
    match v {
        Value::Str(s) => Ok(Sym::new(s)),
        other => {
            let _ = f;
            Err(type_error(format!(
                "attribute name must be string, not '{}'",
                other.type_name()
            )))
        }
    }
}

fn radix(a: Args, name: &str, code: char) -> PyResult<Value> {
    arity(name, &a, 1, 1)?;
    let n = to_index(&a.pos[0])?;
    let spec = format!("#{code}");
    format::int_format(n, &spec)
        .map(Value::from)
        .map_err(value_error)
}

fn print(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    check_kwargs("print", &a, &["sep", "end", "file", "flush"])?;
    let get = |name: &str, default: &str| -> PyResult<String> {
        match kwarg(&a, name)
            .as_ref()
            .map(crate::lang::interp::unwrap_builtin)
        {
            None | Some(Value::None) => Ok(default.to_string()),
            Some(Value::Str(s)) => Ok(s.to_string()),
            Some(v) => Err(type_error(format!(
                "{name} must be None or a string, not {}",
                v.type_name()
            ))),
        }
    };
    let sep = get("sep", " ")?;
    let end = get("end", "\n")?;
    let mut out = String::new();
    for (k, v) in a.pos.iter().enumerate() {
        if k > 0 {
            out.push_str(&sep);
        }
        out.push_str(&i.to_str(v)?);
    }
    out.push_str(&end);
    i.print(&out);
    if matches!(kwarg(&a, "flush"), Some(Value::Bool(PyBool::True))) {
        i.out.flush();
    }
    Ok(Value::None)
}

/// CPython's `sum` over floats: compensated, so `sum([0.1] * 10)` is exactly CPython's.
fn sum_numbers(start: Value, items: &[Value]) -> PyResult<Value> {
    let mut int_acc: Option<i64> = start.as_int();
    let mut f_acc: f64 = match start {
        Value::Float(f) => f.get(),
        _ => 0.0,
    };
    let mut k = 0;
    // Integers first, exactly.
    if let Some(mut acc) = int_acc {
        while k < items.len() {
            match &items[k] {
                Value::Int(x) => {
                    acc = acc
                        .checked_add(*x)
                        .ok_or_else(super::error::overflow_error)?
                }
                Value::Bool(b) => acc += *b as i64,
                _ => break,
            }
            k += 1;
        }
        if k == items.len() {
            return Ok(Value::Int(acc));
        }
        f_acc = acc as f64;
        int_acc = None;
    }
    let _ = int_acc;
    // CPython 3.11 adds floats with a plain running sum (Neumaier arrived in 3.12).
    for v in &items[k..] {
        f_acc += num_of(v).map(|n| n.to_f64()).unwrap_or(0.0);
    }
    Ok(Value::float(f_acc))
}

fn min_max(i: &mut Interp, a: Args, is_min: bool) -> PyResult<Value> {
    let name = if is_min { "min" } else { "max" };
    check_kwargs(name, &a, &["key", "default"])?;
    let key = kwarg(&a, "key").filter(|k| !matches!(k, Value::None));
    let default = kwarg(&a, "default");
    let items = match a.pos.len() {
        0 => {
            return Err(type_error(format!(
                "{name} expected at least 1 argument, got 0"
            )))
        }
        1 => i.collect(&a.pos[0])?,
        _ => {
            if default.is_some() {
                return Err(type_error(format!(
                    "Cannot specify a default for {name}() with multiple positional arguments"
                )));
            }
            a.pos.to_vec()
        }
    };
    if items.is_empty() {
        return default.ok_or_else(|| value_error(format!("{name}() arg is an empty sequence")));
    }
    let mut best = items[0].clone();
    let mut best_key = match &key {
        Some(k) => i.call(k, Args::of([best.clone()]))?,
        None => best.clone(),
    };
    for x in &items[1..] {
        let kx = match &key {
            Some(k) => i.call(k, Args::of([x.clone()]))?,
            None => x.clone(),
        };
        let better = if is_min {
            i.less(&kx, &best_key)?
        } else {
            i.less(&best_key, &kx)?
        };
        if better {
            best = x.clone();
            best_key = kx;
        }
    }
    Ok(best)
}

/// A stable sort by `<` (as Python's), with an optional key function.
pub fn sort_values(
    i: &mut Interp,
    items: &mut Vec<Value>,
    key: Option<&Value>,
    reverse: bool,
) -> PyResult<()> {
    let keys: Vec<Value> = match key {
        Some(k) => items
            .iter()
            .map(|x| i.call(k, Args::of([x.clone()])))
            .collect::<PyResult<_>>()?,
        None => items.clone(),
    };
    let mut idx: Vec<usize> = (0..items.len()).collect();
    // Keys that are all ints, all strs or all floats without a NaN compare with no Python
    // code and no error: Rust's stable sort gives the one order a stable `<` sort gives
    // (equal keys keep their places, `reverse` included).
    if native_sort(&mut idx, &keys, reverse) {
        let sorted: Vec<Value> = idx.iter().map(|&k| items[k].dup()).collect();
        *items = sorted;
        return Ok(());
    }
    let mut err: Option<PyErr> = None;
    // Small lists follow CPython's own steps (run detection, then binary insertion), so the
    // first failing comparison, and its error message, are the same; larger ones merge-sort.
    let mut cmp = |a: usize, b: usize| {
        if err.is_some() {
            return false;
        }
        let (x, y) = if reverse {
            (&keys[b], &keys[a])
        } else {
            (&keys[a], &keys[b])
        };
        match i.less(x, y) {
            Ok(r) => r,
            Err(e) => {
                err = Some(e);
                false
            }
        }
    };
    if idx.len() <= 64 {
        binary_sort(&mut idx, &mut cmp);
    } else {
        merge_sort(&mut idx, &mut cmp);
    }
    if let Some(e) = err {
        return Err(e);
    }
    let sorted: Vec<Value> = idx.iter().map(|&k| items[k].clone()).collect();
    *items = sorted;
    Ok(())
}

/// Sorts `idx` by `keys` when every key is an int, every key a str, or every key a float
/// and none NaN (`false`, `idx` untouched, otherwise).
fn native_sort(idx: &mut [usize], keys: &[Value], reverse: bool) -> bool {
    use std::cmp::Ordering;
    let mut ordered = |cmp: &dyn Fn(usize, usize) -> Ordering| {
        if reverse {
            idx.sort_by(|&a, &b| cmp(b, a));
        } else {
            idx.sort_by(|&a, &b| cmp(a, b));
        }
    };
    // Every key as a `T`, or `None` when one is not.
    fn all<'a, T>(keys: &'a [Value], f: impl Fn(&'a Value) -> Option<T>) -> Option<Vec<T>> {
        keys.iter().map(f).collect()
    }
    if let Some(ints) = all(keys, |k| match k {
        Value::Int(i) => Some(*i),
        _ => None,
    }) {
        ordered(&|a, b| ints[a].cmp(&ints[b]));
        return true;
    }
    if let Some(strs) = all(keys, |k| match k {
        Value::Str(s) => Some(&**s),
        _ => None,
    }) {
        // (UTF-8 byte order is code point order, Python's str order.)
        ordered(&|a, b| strs[a].cmp(strs[b]));
        return true;
    }
    if let Some(floats) = all(keys, |k| match k {
        Value::Float(x) if !x.get().is_nan() => Some(x.get()),
        _ => None,
    }) {
        // (No NaN, so `partial_cmp` always answers; -0.0 equals 0.0, as in Python.)
        ordered(&|a, b| floats[a].partial_cmp(&floats[b]).unwrap_or(Ordering::Equal));
        return true;
    }
    false
}

/// CPython's `count_run` + `binarysort` (listobject.c) for short lists.
fn binary_sort(v: &mut [usize], less: &mut dyn FnMut(usize, usize) -> bool) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let mut run = 2;
    if less(v[1], v[0]) {
        while run < n && less(v[run], v[run - 1]) {
            run += 1;
        }
        v[..run].reverse();
    } else {
        while run < n && !less(v[run], v[run - 1]) {
            run += 1;
        }
    }
    for start in run..n {
        let pivot = v[start];
        let (mut l, mut r) = (0, start);
        while l < r {
            let p = l + (r - l) / 2;
            if less(pivot, v[p]) {
                r = p;
            } else {
                l = p + 1;
            }
        }
        v.copy_within(l..start, l + 1);
        v[l] = pivot;
    }
}

/// Stable merge sort where `less(a, b)` says a must come before b.
fn merge_sort(v: &mut Vec<usize>, less: &mut dyn FnMut(usize, usize) -> bool) {
    if v.len() <= 1 {
        return;
    }
    let mut right = v.split_off(v.len() / 2);
    merge_sort(v, less);
    merge_sort(&mut right, less);
    let left = std::mem::take(v);
    let (mut a, mut b) = (0, 0);
    while a < left.len() && b < right.len() {
        if less(right[b], left[a]) {
            v.push(right[b]);
            b += 1;
        } else {
            v.push(left[a]);
            a += 1;
        }
    }
    v.extend_from_slice(&left[a..]);
    v.extend_from_slice(&right[b..]);
}

pub fn isinstance(i: &mut Interp, v: &Value, cls: &Value) -> PyResult<bool> {
    match cls {
        Value::Tuple(ts) => {
            for t in ts.iter() {
                if isinstance(i, v, t)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Class(c) => Ok(match c.builtin {
            Some(BuiltinClass::Object) => true,
            // An instance of a subclass (`class D(dict)`) by its class.
            Some(BuiltinClass::Type(_)) if matches!(v, Value::Instance(_)) => match v {
                Value::Instance(inst) => inst.class.is_subclass(c),
                _ => false,
            },
            Some(BuiltinClass::Type(TypeTag::Tuple)) if matches!(v, Value::Native(n) if n.is_tuple()) => {
                true
            }
            Some(BuiltinClass::Type(tag)) => matches!(
                (tag, v),
                (TypeTag::Int, Value::Int(_) | Value::Bool(_))
                    | (TypeTag::Bool, Value::Bool(_))
                    | (TypeTag::Float, Value::Float(_))
                    | (TypeTag::Str, Value::Str(_))
                    | (TypeTag::List, Value::List(_))
                    | (TypeTag::Tuple, Value::Tuple(_))
                    | (TypeTag::Dict, Value::Dict(_))
                    | (TypeTag::Set, Value::Set(_))
                    | (TypeTag::FrozenSet, Value::FrozenSet(_))
                    | (TypeTag::NoneType, Value::None)
                    | (TypeTag::Range, Value::Range(_))
                    | (TypeTag::Type, Value::Class(_))
                    | (TypeTag::Slice, Value::Slice(_))
                    | (TypeTag::Function, Value::Func(_))
            ),
            _ => match v {
                Value::Instance(inst) => inst.class.is_subclass(c),
                _ => false,
            },
        }),
        Value::Native(n) => match n.clone().get_attr(cls, Sym::new("__instancecheck__"), i)? {
            Some(f) => {
                let r = i.call(&f, Args::of([v.clone()]))?;
                i.truthy(&r)
            }
            None => Err(type_error(
                "isinstance() arg 2 must be a type, a tuple of types, or a union",
            )),
        },
        _ => Err(type_error(
            "isinstance() arg 2 must be a type, a tuple of types, or a union",
        )),
    }
}

/// `type(v)` as a class value.
pub fn type_of(i: &Interp, v: &Value) -> Value {
    let tag = match v {
        Value::Instance(inst) => return Value::Class(inst.class.clone()),
        Value::Int(_) => TypeTag::Int,
        Value::Bool(_) => TypeTag::Bool,
        Value::Float(_) => TypeTag::Float,
        Value::Str(_) => TypeTag::Str,
        Value::List(_) => TypeTag::List,
        Value::Tuple(_) => TypeTag::Tuple,
        Value::Dict(_) => TypeTag::Dict,
        Value::Set(_) => TypeTag::Set,
        Value::FrozenSet(_) => TypeTag::FrozenSet,
        Value::None => TypeTag::NoneType,
        Value::Range(_) => TypeTag::Range,
        Value::Class(_) => TypeTag::Type,
        Value::Func(_) => TypeTag::Function,
        Value::Slice(_) => TypeTag::Slice,
        other => {
            // Types without a class object of their own get a plain named class.
            let module = match other {
                Value::Native(n) => PyStr::from(n.module()),
                _ => PyStr::from("builtins"),
            };
            return Value::Class(Rc::new(Class {
                name: other.type_name(),
                module,
                bases: vec![i.types.object.clone()],
                mro: RefCell::new(vec![i.types.object.clone()]),
                dict: RefCell::new(AttrMap::default()),
                builtin: None,
                cache: Default::default(),
                setattr: Default::default(),
                base_type: None,
            }));
        }
    };
    Value::Class(i.type_class(tag))
}

/// Calling a builtin type: `int('3')`, `list(range(3))`, `type(x)`, ...
pub fn construct(i: &mut Interp, tag: TypeTag, a: Args) -> PyResult<Value> {
    let name = match tag {
        TypeTag::Int => "int",
        TypeTag::Float => "float",
        TypeTag::Bool => "bool",
        TypeTag::Str => "str",
        TypeTag::List => "list",
        TypeTag::Tuple => "tuple",
        TypeTag::Dict => "dict",
        TypeTag::Set => "set",
        TypeTag::FrozenSet => "frozenset",
        TypeTag::Range => "range",
        TypeTag::Type => "type",
        TypeTag::Slice => "slice",
        TypeTag::NoneType => "NoneType",
        TypeTag::Function => "function",
    };
    if tag != TypeTag::Dict && tag != TypeTag::Int {
        if let Some((k, _)) = a.kw.first() {
            return Err(
                type_error(format!("{name}() got an unexpected keyword argument '{k}'"))
                    .hint(format!("{name}() takes no keyword arguments here")),
            );
        }
    }
    let first = match (tag, a.pos.first()) {
        // `int(S('12'))`: a str subclass parses as its str.
        (TypeTag::Int | TypeTag::Float, Some(Value::Instance(inst)))
            if matches!(inst.base, Some(Value::Str(_))) =>
        {
            inst.base.clone()
        }
        (_, f) => f.cloned(),
    };
    Ok(match tag {
        TypeTag::Int => int_of(i, first, &a)?,
        TypeTag::Float => float_of(i, first, &a)?,
        TypeTag::Bool => {
            arity("bool", &a, 0, 1)?;
            match first {
                None => Value::Bool(PyBool::False),
                Some(v) => Value::bool(i.truthy(&v)?),
            }
        }
        TypeTag::Str => {
            arity("str", &a, 0, 1)?;
            match first {
                None => Value::str(""),
                // (An int's digits go straight into the string: one allocation, not three.)
                Some(Value::Int(n)) => Value::str(crate::lang::format::int_text(n, &mut [0; 20])),
                Some(v) => Value::from(i.to_str(&v)?),
            }
        }
        TypeTag::List => {
            arity("list", &a, 0, 1)?;
            match first {
                None => Value::list(Vec::new()),
                Some(v) => Value::list(i.collect(&v)?),
            }
        }
        TypeTag::Tuple => {
            arity("tuple", &a, 0, 1)?;
            match first {
                None => Value::tuple(Vec::new()),
                Some(Value::Tuple(t)) => Value::Tuple(t),
                Some(v) => Value::tuple(i.collect(&v)?),
            }
        }
        TypeTag::Set => {
            arity("set", &a, 0, 1)?;
            let mut s = SetMap::default();
            if let Some(v) = first {
                for x in i.collect(&v)? {
                    let k = i.key_in_local(x, &s)?;
                    s.insert(k);
                }
            }
            Value::Set(Rc::new(RefCell::new(s)))
        }
        TypeTag::FrozenSet => {
            arity("frozenset", &a, 0, 1)?;
            match first {
                // An exact frozenset is its own copy.
                Some(Value::FrozenSet(s)) => Value::FrozenSet(s),
                Some(v) => {
                    let mut s = SetMap::default();
                    for x in i.collect(&v)? {
                        let k = i.key_in_local(x, &s)?;
                        s.insert(k);
                    }
                    Value::FrozenSet(Rc::new(RefCell::new(s)))
                }
                None => Value::FrozenSet(Default::default()),
            }
        }
        TypeTag::Dict => {
            arity("dict", &a, 0, 1)?;
            let mut m = DictMap::default();
            match first {
                None => {}
                Some(Value::Dict(d)) => m = d.borrow().clone(),
                // A mapping (an object with `keys()`), as CPython's dict() accepts.
                Some(v @ Value::Instance(_)) if i.get_attr(&v, Sym::new("keys")).is_ok() => {
                    let keys = i.get_attr(&v, Sym::new("keys"))?;
                    let keys = i.call(&keys, Args::default())?;
                    for k in i.collect(&keys)? {
                        let x = i.get_item(&v, &k)?;
                        let k = i.key_in_local(k, &m)?;
                        super::interp::dict_insert_pub(&mut m, k, x);
                    }
                }
                Some(v) => {
                    let items = i.collect(&v)?;
                    for (n, item) in items.into_iter().enumerate() {
                        let pair = i.collect(&item).map_err(|_| {
                            type_error(format!(
                                "cannot convert dictionary update sequence element #{n} to a sequence"
                            ))
                        })?;
                        if pair.len() != 2 {
                            return Err(value_error(format!(
                                "dictionary update sequence element #{n} has length {}; 2 is required",
                                pair.len()
                            )));
                        }
                        let mut it = pair.into_iter();
                        let (k, v) = (
                            it.next().unwrap_or(Value::None),
                            it.next().unwrap_or(Value::None),
                        );
                        let k = i.key_in_local(k, &m)?;
                        super::interp::dict_insert_pub(&mut m, k, v);
                    }
                }
            }
            for (k, v) in a.kw {
                super::interp::dict_insert_pub(&mut m, Key(Value::Str(k.as_str())), v);
            }
            Value::Dict(Rc::new(RefCell::new(m)))
        }
        TypeTag::Range => {
            if a.pos.is_empty() {
                return Err(type_error("range expected at least 1 argument, got 0"));
            }
            arity("range", &a, 1, 3)?;
            let nums: Vec<i64> = a.pos.iter().map(to_index).collect::<PyResult<_>>()?;
            let (start, stop, step) = match nums.as_slice() {
                [s] => (0, *s, 1),
                [a, b] => (*a, *b, 1),
                [a, b, c] => (*a, *b, *c),
                _ => (0, 0, 1),
            };
            if step == 0 {
                return Err(value_error("range() arg 3 must not be zero"));
            }
            Value::Range(Rc::new(Range { start, stop, step }))
        }
        TypeTag::Type => match a.pos.len() {
            1 => type_of(i, &a.pos[0]),
            3 => i.make_type(&a.pos[0], &a.pos[1], &a.pos[2])?,
            _ => return Err(type_error("type() takes 1 or 3 arguments")),
        },
        TypeTag::Slice => {
            arity("slice", &a, 1, 3)?;
            let p = &a.pos;
            let parts = match p.len() {
                1 => [Value::None, p[0].clone(), Value::None],
                2 => [p[0].clone(), p[1].clone(), Value::None],
                _ => [p[0].clone(), p[1].clone(), p[2].clone()],
            };
            Value::Slice(Rc::new(parts))
        }
        TypeTag::NoneType | TypeTag::Function => {
            return Err(type_error(format!("cannot create '{name}' instances")))
        }
    })
}

/// `int(x)` and `int(s, base)`.
fn int_of(i: &mut Interp, first: Option<Value>, a: &Args) -> PyResult<Value> {
    check_kwargs("int", a, &["base"])?;
    let base = kwarg(a, "base").or_else(|| a.pos.get(1).cloned());
    Ok(match (first, base) {
        (None, None) => Value::Int(0),
        (None, Some(_)) => return Err(type_error("int() missing string argument")),
        (Some(Value::Str(s)), b) => {
            let base = match b {
                Some(b) => to_index(&b)?,
                None => 10,
            };
            if base != 0 && !(2..=36).contains(&base) {
                return Err(value_error("int() base must be >= 2 and <= 36, or 0"));
            }
            Value::Int(format::parse_int(&s, base as u32).map_err(num_err)?)
        }
        (Some(_), Some(_)) => {
            return Err(type_error(
                "int() can't convert non-string with explicit base",
            ))
        }
        (Some(Value::Int(x)), None) => Value::Int(x),
        (Some(Value::Bool(b)), None) => Value::Int(b as i64),
        (Some(Value::Float(f)), None) => {
            Value::Int(format::float_to_int_checked(f.get().trunc()).map_err(num_err)?)
        }
        (Some(v @ (Value::Instance(_) | Value::Native(_))), None) => {
            i.call_method(&v, "__int__", Args::default())?
        }
        (Some(v), None) => {
            return Err(type_error(format!(
                "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                v.type_name()
            )))
        }
    })
}

/// `float(x)`.
fn float_of(i: &mut Interp, first: Option<Value>, a: &Args) -> PyResult<Value> {
    arity("float", a, 0, 1)?;
    Ok(match first {
        None => Value::float(0.0),
        Some(Value::Float(f)) => Value::Float(f),
        Some(Value::Int(x)) => Value::float(x as f64),
        Some(Value::Bool(b)) => Value::float(b as i64 as f64),
        Some(Value::Str(s)) => Value::float(format::parse_float(&s).map_err(value_error)?),
        Some(v @ (Value::Instance(_) | Value::Native(_))) => {
            i.call_method(&v, "__float__", Args::default())?
        }
        Some(v) => {
            return Err(type_error(format!(
                "float() argument must be a string or a real number, not '{}'",
                v.type_name()
            )))
        }
    })
}

/// Bounds for `seq[i]`, with Python's negative indexing.
pub fn norm_index(i: i64, len: usize, what: &str) -> PyResult<usize> {
    let n = len as i64;
    let k = if i < 0 { i + n } else { i };
    if k < 0 || k >= n {
        return Err(index_error(format!("{what} index out of range")));
    }
    Ok(k as usize)
}

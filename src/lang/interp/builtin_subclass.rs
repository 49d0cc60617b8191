//! Subclasses of builtin types (`class D(dict)`, `class P(tuple)`, ...). An instance carries a
//! value of the builtin type (`Instance::base`: an empty dict or list made at creation, the
//! tuple or str `__new__` built), and acts on it:
//! - the builtin type classes hold their dunders (`dict.__getitem__`, `tuple.__hash__`, ...)
//!   as builtins in their namespaces, so the instance protocols (len, iteration, `[]`, `==`,
//!   ordering, arithmetic, repr), which look a dunder up along the MRO, reach them unless a
//!   Python class overrides one; `super().__setitem__` and `dict.__init__(self)` find them too;
//! - the other methods (`append`, `items`) are the value's own, found after the MRO
//!   (`Interp::get_attr`, `super()`);
//! - ordinary instances have no base and pay nothing: only classes whose MRO holds a builtin
//!   type (`Class::base_type`) come here when called;
//! - plain values reach the same slots after their own methods (`[].__len__`, `{}.fromkeys`).
use super::Interp;
use crate::lang::ast::{BinOp, CmpOp};
use crate::lang::error::{not_implemented, type_error, ExcKind, PyErr, PyResult};
use crate::lang::symbol::{dunder, Sym};
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

/// The builtin types Python classes may extend.
pub fn subclassable(tag: TypeTag) -> bool {
    matches!(
        tag,
        TypeTag::Dict
            | TypeTag::List
            | TypeTag::Tuple
            | TypeTag::Set
            | TypeTag::FrozenSet
            | TypeTag::Str
            | TypeTag::Int
            | TypeTag::Float
    )
}

/// Checks the builtin bases of a new class: CPython's refusals for types that cannot be
/// extended, and for two different builtin layouts.
pub fn check_bases(bases: &[Rc<Class>]) -> PyResult<()> {
    let mut layout: Option<&str> = None;
    for b in bases {
        if let Some(BuiltinClass::Type(tag)) = b.builtin {
            if !subclassable(tag) {
                return Err(
                    if matches!(
                        tag,
                        TypeTag::Bool
                            | TypeTag::NoneType
                            | TypeTag::Range
                            | TypeTag::Slice
                            | TypeTag::Function
                    ) {
                        type_error(format!("type '{}' is not an acceptable base type", b.name))
                    } else {
                        not_implemented(format!("subclassing '{}'", b.name))
                    },
                );
            }
        }
        let tag = match b.builtin {
            Some(BuiltinClass::Type(t)) => Some(t),
            _ => b.base_type,
        };
        let this = match (tag, b.exc_kind()) {
            (Some(t), _) => Some(tag_name(t)),
            (None, Some(_)) => Some("BaseException"),
            _ => None,
        };
        if let Some(t) = this {
            if layout.is_some_and(|l| l != t) {
                return Err(type_error("multiple bases have instance lay-out conflict"));
            }
            layout = Some(t);
        }
    }
    Ok(())
}

fn tag_name(t: TypeTag) -> &'static str {
    match t {
        TypeTag::Dict => "dict",
        TypeTag::List => "list",
        TypeTag::Tuple => "tuple",
        TypeTag::Set => "set",
        TypeTag::FrozenSet => "frozenset",
        TypeTag::Str => "str",
        TypeTag::Int => "int",
        TypeTag::Float => "float",
        _ => "object",
    }
}

/// The builtin type of the first builtin type class in an MRO.
pub fn base_type_of(mro: &[Rc<Class>]) -> Option<TypeTag> {
    mro.iter().find_map(|c| match c.builtin {
        Some(BuiltinClass::Type(t)) if subclassable(t) => Some(t),
        _ => None,
    })
}

/// The builtin value `v` stands for: an instance's base, or `v` itself.
pub fn unwrap(v: &Value) -> &Value {
    match v {
        Value::Instance(i) => i.base.as_ref().unwrap_or(v),
        _ => v,
    }
}

/// A str method's arguments that are str subclasses become their str (`'abc'.startswith(S('a'))`),
/// as CPython's str methods accept any str. Only str methods: a list method keeps the object.
#[inline(always)]
pub fn str_args(this: &Value, args: &mut [Value]) {
    if let Value::Str(_) = this {
        unwrap_str_args(args);
    }
}

#[inline(never)]
fn unwrap_str_args(args: &mut [Value]) {
    for a in args.iter_mut() {
        if let Value::Instance(i) = a {
            if let Some(b @ Value::Str(_)) = &i.base {
                *a = b.clone();
            }
        }
    }
}

type Slot = (&'static str, NativeFn);

/// Puts each subclassable type's dunders into its class namespace.
pub fn install(by_tag: &[(TypeTag, Rc<Class>)]) {
    for (tag, class) in by_tag {
        if !subclassable(*tag) {
            continue;
        }
        let mut d = class.dict.borrow_mut();
        let mut put = |slots: &[Slot]| {
            for (name, f) in slots {
                d.insert(
                    Sym::new(name),
                    Value::Builtin(Rc::new(Builtin {
                        name,
                        f: *f,
                        this: None,
                    })),
                );
            }
        };
        put(COMMON);
        put(&[("__new__", new_of(*tag))]);
        match tag {
            TypeTag::Dict => {
                put(CONTAINER);
                put(MUTABLE);
                put(DICT);
            }
            TypeTag::List => {
                put(CONTAINER);
                put(SEQUENCE);
                put(MUTABLE);
                put(&[("__iadd__", list_iadd)]);
            }
            TypeTag::Tuple | TypeTag::Str => {
                put(CONTAINER);
                put(SEQUENCE);
                put(&[("__hash__", hash)]);
            }
            TypeTag::Set => {
                put(CONTAINER);
                put(SET);
            }
            TypeTag::FrozenSet => {
                put(CONTAINER);
                put(SET);
                put(&[("__hash__", hash)]);
            }
            _ => put(NUMBER),
        }
        if *tag == TypeTag::Str {
            put(&[
                ("__str__", as_str),
                ("__format__", format),
                ("__mod__", |i, t, a| binary(i, t, a, BinOp::Mod, false)),
            ]);
        }
        if matches!(tag, TypeTag::Dict | TypeTag::List | TypeTag::Set) {
            d.insert(dunder::HASH, Value::None);
        }
        if *tag == TypeTag::Dict {
            // `dict.fromkeys(keys)`, `D.fromkeys(keys)`: a class method.
            let f = Value::Builtin(Rc::new(Builtin {
                name: "fromkeys",
                f: fromkeys,
                this: None,
            }));
            d.insert(
                Sym::new("fromkeys"),
                Value::Native(NativeRc::new(super::descriptors::ClassMethod(f))),
            );
        }
    }
}

const COMMON: &[Slot] = &[
    ("__init__", init),
    ("__repr__", repr),
    ("__eq__", eq),
    ("__lt__", |i, t, a| compare(i, t, a, CmpOp::Lt)),
    ("__le__", |i, t, a| compare(i, t, a, CmpOp::Le)),
    ("__gt__", |i, t, a| compare(i, t, a, CmpOp::Gt)),
    ("__ge__", |i, t, a| compare(i, t, a, CmpOp::Ge)),
];

const CONTAINER: &[Slot] = &[
    ("__len__", |i, t, a| {
        let (_, b, _) = split(t, a, 0)?;
        Ok(Value::Int(i.len(&b)? as i64))
    }),
    ("__iter__", |i, t, a| {
        let (_, b, _) = split(t, a, 0)?;
        i.get_iter(&b)
    }),
    ("__contains__", |i, t, a| {
        let (_, b, a) = split(t, a, 1)?;
        Ok(Value::bool(i.contains(&b, &a.pos[0])?))
    }),
];

const SEQUENCE: &[Slot] = &[
    ("__getitem__", |i, t, a| {
        let (_, b, a) = split(t, a, 1)?;
        i.get_item(&b, &a.pos[0])
    }),
    ("__add__", |i, t, a| binary(i, t, a, BinOp::Add, false)),
    // (CPython's `[1] + L([2])` is list's `__add__` accepting a subclass; reflected here.)
    ("__radd__", |i, t, a| binary(i, t, a, BinOp::Add, true)),
    ("__mul__", |i, t, a| binary(i, t, a, BinOp::Mul, false)),
    ("__rmul__", |i, t, a| binary(i, t, a, BinOp::Mul, true)),
];

const SET: &[Slot] = &[
    ("__or__", |i, t, a| binary(i, t, a, BinOp::BitOr, false)),
    ("__ror__", |i, t, a| binary(i, t, a, BinOp::BitOr, true)),
    ("__and__", |i, t, a| binary(i, t, a, BinOp::BitAnd, false)),
    ("__rand__", |i, t, a| binary(i, t, a, BinOp::BitAnd, true)),
    ("__sub__", |i, t, a| binary(i, t, a, BinOp::Sub, false)),
    ("__rsub__", |i, t, a| binary(i, t, a, BinOp::Sub, true)),
    ("__xor__", |i, t, a| binary(i, t, a, BinOp::BitXor, false)),
    ("__rxor__", |i, t, a| binary(i, t, a, BinOp::BitXor, true)),
];

const MUTABLE: &[Slot] = &[
    ("__setitem__", |i, t, a| {
        let (_, b, mut a) = split(t, a, 2)?;
        let v = a.pos.pop().unwrap_or(Value::None);
        i.set_item(&b, &a.pos[0], v)?;
        Ok(Value::None)
    }),
    ("__delitem__", |i, t, a| {
        let (_, b, a) = split(t, a, 1)?;
        i.del_item(&b, &a.pos[0])?;
        Ok(Value::None)
    }),
];

const DICT: &[Slot] = &[
    ("__getitem__", dict_getitem),
    ("__or__", |i, t, a| binary(i, t, a, BinOp::BitOr, false)),
    ("__ror__", |i, t, a| binary(i, t, a, BinOp::BitOr, true)),
];

const NUMBER: &[Slot] = &[
    ("__hash__", hash),
    ("__bool__", |i, t, a| {
        let (_, b, _) = split(t, a, 0)?;
        Ok(Value::bool(i.truthy(&b)?))
    }),
    ("__format__", format),
    ("__int__", |i, t, a| {
        let (_, b, _) = split(t, a, 0)?;
        crate::lang::builtins::construct(i, TypeTag::Int, Args::of([b]))
    }),
    ("__float__", |i, t, a| {
        let (_, b, _) = split(t, a, 0)?;
        crate::lang::builtins::construct(i, TypeTag::Float, Args::of([b]))
    }),
    ("__index__", |_, t, a| {
        let (_, b, _) = split(t, a, 0)?;
        match b {
            Value::Int(_) => Ok(b),
            other => Err(type_error(format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ))),
        }
    }),
    ("__round__", |i, t, a| {
        let n = a.pos.len().min(1);
        let (_, b, a) = split(t, a, n)?;
        let round = i.load_global(Sym::new("round"))?;
        let mut args = vec![b];
        args.extend(a.pos);
        i.call(&round, Args::new(args.into()))
    }),
    ("__neg__", |i, t, a| {
        unary(i, t, a, crate::lang::ast::UnaryOp::Neg)
    }),
    ("__pos__", |i, t, a| {
        unary(i, t, a, crate::lang::ast::UnaryOp::Pos)
    }),
    ("__abs__", |_, t, a| {
        let (_, b, _) = split(t, a, 0)?;
        Ok(match b {
            Value::Int(n) => Value::Int(
                n.checked_abs()
                    .ok_or_else(crate::lang::error::overflow_error)?,
            ),
            Value::Float(f) => Value::float(f.get().abs()),
            other => other,
        })
    }),
    ("__add__", |i, t, a| binary(i, t, a, BinOp::Add, false)),
    ("__radd__", |i, t, a| binary(i, t, a, BinOp::Add, true)),
    ("__sub__", |i, t, a| binary(i, t, a, BinOp::Sub, false)),
    ("__rsub__", |i, t, a| binary(i, t, a, BinOp::Sub, true)),
    ("__mul__", |i, t, a| binary(i, t, a, BinOp::Mul, false)),
    ("__rmul__", |i, t, a| binary(i, t, a, BinOp::Mul, true)),
    ("__truediv__", |i, t, a| binary(i, t, a, BinOp::Div, false)),
    ("__rtruediv__", |i, t, a| binary(i, t, a, BinOp::Div, true)),
    ("__floordiv__", |i, t, a| {
        binary(i, t, a, BinOp::FloorDiv, false)
    }),
    ("__rfloordiv__", |i, t, a| {
        binary(i, t, a, BinOp::FloorDiv, true)
    }),
    ("__mod__", |i, t, a| binary(i, t, a, BinOp::Mod, false)),
    ("__rmod__", |i, t, a| binary(i, t, a, BinOp::Mod, true)),
    ("__pow__", |i, t, a| binary(i, t, a, BinOp::Pow, false)),
    ("__rpow__", |i, t, a| binary(i, t, a, BinOp::Pow, true)),
];

/// The instance (or plain value) a slot was called on, its builtin value, and the other
/// arguments, of which there must be `n`. Through the class (`dict.__getitem__(d, k)`) the
/// builtin is unbound and the instance comes first among the arguments.
fn split(this: &Value, mut a: Args, n: usize) -> PyResult<(Value, Value, Args)> {
    let this = match this {
        Value::None => {
            if a.pos.is_empty() {
                return Err(type_error("descriptor needs an argument"));
            }
            a.pos.remove(0)
        }
        t => t.clone(),
    };
    if a.pos.len() != n || !a.kw.is_empty() {
        return Err(type_error(format!(
            "expected {n} argument{}, got {}",
            if n == 1 { "" } else { "s" },
            a.pos.len()
        )));
    }
    let base = unwrap(&this).clone();
    Ok((this, base, a))
}

/// Whether `other` is a value a builtin slot can work with (not a plain Python object or a
/// native, whose own reflected dunder should get its turn).
fn operand(other: &Value) -> Option<Value> {
    match other {
        Value::Instance(i) => i.base.clone(),
        Value::Native(_) => None,
        v => Some(v.clone()),
    }
}

fn repr(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let (this, b, _) = split(this, a, 0)?;
    // A set's repr names the object's own type: `S({1})`, `F()`.
    if let (Value::Set(s) | Value::FrozenSet(s), Value::Instance(inst)) = (&b, &this) {
        return Ok(Value::from(i.set_repr(s, Some(&inst.class.name))?));
    }
    Ok(Value::from(i.repr(&b)?))
}

fn as_str(_: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let (_, b, _) = split(this, a, 0)?;
    Ok(b)
}

fn format(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let (this, b, a) = split(this, a, 1)?;
    let spec = match &a.pos[0] {
        Value::Str(s) => s.clone(),
        other => {
            return Err(type_error(format!(
                "format() argument 2 must be str, not {}",
                other.type_name()
            )))
        }
    };
    // An empty spec is `str(self)`, which a subclass's `__repr__`/`__str__` decides.
    if spec.is_empty() {
        return Ok(Value::from(i.to_str(&this)?));
    }
    Ok(Value::from(i.format_value(&b, &spec)?))
}

fn eq(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let (_, b, a) = split(this, a, 1)?;
    match operand(&a.pos[0]) {
        Some(o) => Ok(Value::bool(i.eq(&b, &o)?)),
        None => Ok(Value::NotImplemented),
    }
}

fn compare(i: &mut Interp, this: &Value, a: Args, op: CmpOp) -> PyResult<Value> {
    let (_, b, a) = split(this, a, 1)?;
    let Some(o) = operand(&a.pos[0]) else {
        return Ok(Value::NotImplemented);
    };
    match i.compare(op, &b, &o) {
        // The operator names the subclass in its message, as CPython's does.
        Err(e) if e.is(ExcKind::TypeError) => Ok(Value::NotImplemented),
        r => r,
    }
}

fn hash(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let (_, b, _) = split(this, a, 0)?;
    i.new_key(b.clone())?;
    Ok(Value::Int(py_hash(&b)))
}

fn binary(i: &mut Interp, this: &Value, a: Args, op: BinOp, reflected: bool) -> PyResult<Value> {
    let (_, b, a) = split(this, a, 1)?;
    let Some(o) = operand(&a.pos[0]) else {
        return Ok(Value::NotImplemented);
    };
    let numeric = matches!(b, Value::Int(_) | Value::Float(_));
    let r = if reflected {
        i.binary(op, &o, &b)
    } else {
        i.binary(op, &b, &o)
    };
    match r {
        // Numbers and reflected operators leave the message to the operator, which names
        // the subclass; `L([1]) + 5` keeps list's own "can only concatenate" message.
        Err(e) if e.is(ExcKind::TypeError) && (numeric || reflected) => Ok(Value::NotImplemented),
        r => r,
    }
}

fn unary(i: &mut Interp, this: &Value, a: Args, op: crate::lang::ast::UnaryOp) -> PyResult<Value> {
    let (_, b, _) = split(this, a, 0)?;
    i.unary(op, &b)
}

fn list_iadd(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let (this, b, a) = split(this, a, 1)?;
    i.inplace(BinOp::Add, &b, &a.pos[0])?;
    Ok(this)
}

/// `cls.fromkeys(iterable, value=None)`: `cls()` with each key set to `value`, stored by
/// `d[k] = value` as CPython does for a subclass.
fn fromkeys(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    if !a.kw.is_empty() {
        return Err(type_error("fromkeys() takes no keyword arguments"));
    }
    let given = a.pos.len().saturating_sub(1);
    if !(1..=2).contains(&given) {
        let bound = if given == 0 {
            "at least 1 argument"
        } else {
            "at most 2 arguments"
        };
        return Err(type_error(format!(
            "fromkeys expected {bound}, got {given}"
        )));
    }
    let d = i.call(&a.pos[0], Args::default())?;
    let value = a.pos.get(2).cloned().unwrap_or(Value::None);
    for k in i.collect(&a.pos[1])? {
        i.set_item(&d, &k, value.clone())?;
    }
    Ok(d)
}

/// `d[k]`: a missing key goes to the subclass's `__missing__` (what `defaultdict` and
/// `Counter` are built on), as CPython's `dict.__getitem__` does.
fn dict_getitem(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let (this, b, a) = split(this, a, 1)?;
    let key = &a.pos[0];
    if let Value::Dict(d) = &b {
        let k = i.key_in(key.clone(), d)?;
        if let Some(v) = d.borrow().get(&k) {
            return Ok(v.clone());
        }
        if let Value::Instance(inst) = &this {
            if let Some(m) = inst.class.lookup(Sym::new("__missing__")) {
                return i.call_bound(&m, this.clone(), Args::of([key.clone()]));
            }
        }
        return Err(PyErr::with_args(ExcKind::KeyError, vec![key.clone()]));
    }
    i.get_item(&b, key)
}

/// Each type's `__new__` (it must know which type it makes).
fn new_of(tag: TypeTag) -> NativeFn {
    match tag {
        TypeTag::Dict => |i, _, a| new(i, a, TypeTag::Dict),
        TypeTag::List => |i, _, a| new(i, a, TypeTag::List),
        TypeTag::Tuple => |i, _, a| new(i, a, TypeTag::Tuple),
        TypeTag::Set => |i, _, a| new(i, a, TypeTag::Set),
        TypeTag::FrozenSet => |i, _, a| new(i, a, TypeTag::FrozenSet),
        TypeTag::Str => |i, _, a| new(i, a, TypeTag::Str),
        TypeTag::Int => |i, _, a| new(i, a, TypeTag::Int),
        _ => |i, _, a| new(i, a, TypeTag::Float),
    }
}

/// `T.__new__(cls, *args)`: a new instance of `cls` (a subclass of `T`) carrying a `T` made
/// from the arguments (an empty one for the mutable types, which `__init__` fills); called
/// on `T` itself it is `T(*args)`.
fn new(i: &mut Interp, a: Args, tag: TypeTag) -> PyResult<Value> {
    let mut a = a;
    let cls = match a.pos.first() {
        Some(Value::Class(c)) => c.clone(),
        Some(other) => {
            return Err(type_error(format!(
                "{}.__new__(X): X is not a type object ({})",
                tag_name(tag),
                other.type_name()
            )))
        }
        None => {
            return Err(type_error(format!(
                "{}.__new__(): not enough arguments",
                tag_name(tag)
            )))
        }
    };
    a.pos.remove(0);
    if cls.builtin == Some(BuiltinClass::Type(tag)) {
        return crate::lang::builtins::construct(i, tag, a);
    }
    if cls.base_type != Some(tag) {
        let t = tag_name(tag);
        return Err(type_error(format!(
            "{t}.__new__({0}): {0} is not a subtype of {t}",
            cls.name
        )));
    }
    let base = match tag {
        TypeTag::Dict => Value::Dict(Default::default()),
        TypeTag::List => Value::list(Vec::new()),
        TypeTag::Set => Value::Set(Default::default()),
        _ => {
            if !a.kw.is_empty() {
                return Err(type_error(format!(
                    "{}() takes no keyword arguments",
                    tag_name(tag)
                )));
            }
            crate::lang::builtins::construct(i, tag, a)?
        }
    };
    Ok(Value::Instance(Rc::new(Instance {
        class: cls,
        dict: RefCell::new(AttrMap::default()),
        hash: std::cell::Cell::new(None),
        base: Some(base),
    })))
}

/// `T.__init__(self, *args)`: dict, list and set take their contents as `T(*args)` would;
/// the immutable types got theirs from `__new__`.
fn init(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let mut a = a;
    let this = match this {
        Value::None if !a.pos.is_empty() => a.pos.remove(0),
        t => t.clone(),
    };
    match unwrap(&this).clone() {
        Value::Dict(d) => {
            let made = crate::lang::builtins::construct(i, TypeTag::Dict, a)?;
            if let Value::Dict(m) = made {
                i.merge_dict(&d, &m)?;
            }
        }
        Value::List(l) => {
            let made = crate::lang::builtins::construct(i, TypeTag::List, a)?;
            if let Value::List(m) = made {
                let items = m.borrow().clone();
                *l.borrow_mut() = items;
            }
        }
        Value::Set(s) => {
            let made = crate::lang::builtins::construct(i, TypeTag::Set, a)?;
            if let Value::Set(m) = made {
                let items = m.borrow().clone();
                *s.borrow_mut() = items;
            }
        }
        _ => {}
    }
    Ok(Value::None)
}

impl Interp {
    /// Calling a class that extends a builtin type: `__new__` (the type's, or the class's own
    /// as namedtuple-style classes write) makes the instance, then `__init__` runs when the
    /// result is an instance of the class.
    pub(crate) fn instantiate_builtin_subclass(
        &mut self,
        c: &Rc<Class>,
        args: Args,
    ) -> PyResult<Value> {
        let Some(new_fn) = c.lookup(Sym::new("__new__")) else {
            return Err(not_implemented(format!("creating '{}' instances", c.name)));
        };
        let mut pos = Vec::with_capacity(args.pos.len() + 1);
        pos.push(Value::Class(c.clone()));
        pos.extend(args.pos.iter().cloned());
        let new_args = Args {
            pos: pos.into(),
            kw: args.kw.clone(),
        };
        let inst = self.call(&new_fn, new_args)?;
        let Value::Instance(made) = &inst else {
            return Ok(inst);
        };
        if !made.class.is_subclass(c) {
            return Ok(inst);
        }
        if let Some(init) = c.lookup(dunder::INIT) {
            let r = self.call_bound(&init, inst.clone(), args)?;
            if !matches!(r, Value::None) {
                return Err(type_error(format!(
                    "__init__() should return None, not '{}'",
                    r.type_name()
                )));
            }
        }
        Ok(inst)
    }
}

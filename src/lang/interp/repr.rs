//! repr and str of values, exception messages, format() and %-formatting.
use super::Interp;
use crate::lang::error::{type_error, value_error, ExcKind, PyErr, PyResult};
use crate::lang::format;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

impl Interp {
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
            Value::Bool(PyBool::True) => "True".into(),
            Value::Bool(PyBool::False) => "False".into(),
            Value::Int(i) => format::int_text(*i, &mut [0; 20]).to_string(),
            Value::Float(f) => format::float_repr(f.get()),
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
            Value::Set(s) => self.set_repr(s, None)?,
            Value::FrozenSet(s) => self.set_repr(s, Some("frozenset"))?,
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
            Value::Iter(it) => match &*it.borrow() {
                Iter::Gen(g) => format!("<generator object {} at {:#x}>", g.name, v.ptr_id()),
                other => format!("<{} object at {:#x}>", other.type_name(), v.ptr_id()),
            },
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

    /// A set's repr: `{1, 2}` / `set()` for a set itself (`name` None), else named after the
    /// object's type as CPython's does: `frozenset({1})`, `S({1})`, `F()`.
    pub(crate) fn set_repr(&mut self, s: &RefCell<SetMap>, name: Option<&str>) -> PyResult<String> {
        let items: Vec<Value> = set_order(&s.borrow());
        Ok(match (items.is_empty(), name) {
            (true, None) => "set()".into(),
            (true, Some(n)) => format!("{n}()"),
            (false, None) => format!("{{{}}}", self.join_reprs(&items)?),
            (false, Some(n)) => format!("{n}({{{}}})", self.join_reprs(&items)?),
        })
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
            Value::Bool(b) => format::bool_format(b.get(), spec),
            Value::Float(f) => format::float_format(f.get(), spec),
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
                let r = self.call_bound(&m, v.clone(), Args::of([Value::str(spec)]))?;
                return self.to_str(&r);
            }
            Value::Native(n) => {
                if let Some(m) = n
                    .clone()
                    .get_attr(v, crate::lang::symbol::dunder::FORMAT, self)?
                {
                    let r = self.call(&m, Args::of([Value::str(spec)]))?;
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

    pub(super) fn percent_format(&mut self, fmt: &str, args: &Value) -> PyResult<String> {
        use format::{PercentCount, PercentKind, PercentPiece};
        let pieces = format::parse_percent(fmt);
        // A tuple subclass's items are the arguments, as a tuple's are.
        // (Borrowed: a format call copies none of its arguments.)
        let (vals, mapping): (&[Value], Option<&Value>) =
            match super::builtin_subclass::unwrap(args) {
                Value::Tuple(t) => (&t[..], None),
                Value::Dict(_) => (std::slice::from_ref(args), Some(args)),
                other => (std::slice::from_ref(other), None),
            };
        let mut idx = 0;
        let mut out = String::new();
        let mut used_mapping = false;
        let take = |idx: &mut usize| -> PyResult<Value> {
            let v = vals
                .get(*idx)
                .map(Value::dup)
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
                            let Some(m) = mapping else {
                                return Err(type_error("format requires a mapping"));
                            };
                            self.get_item(m, &Value::str(k))?
                        }
                        None => take(&mut idx)?,
                    };
                    // An int or float subclass formats as its number.
                    let v = match (&v, spec.kind()) {
                        (
                            Value::Instance(i),
                            PercentKind::Int | PercentKind::IntOnly | PercentKind::Float,
                        ) => match &i.base {
                            Some(b @ (Value::Int(_) | Value::Float(_))) => b.clone(),
                            _ => v,
                        },
                        _ => v,
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
                                let i = format::float_to_int_checked(f.get().trunc())
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
}

//! Protocols that fit no operator family: len() and `with` (enter/exit).
use super::Interp;
use crate::lang::error::{type_error, value_error, PyErr, PyResult};
use crate::lang::value::*;

/// Containers past this many items raise MemoryError instead of exhausting the machine.
pub const MAX_ITEMS: usize = 1 << 25;

impl Interp {
    pub fn len(&mut self, v: &Value) -> PyResult<usize> {
        Ok(match v {
            Value::Str(s) => s.chars().count(),
            Value::List(l) => l.borrow().len(),
            Value::Tuple(t) => t.len(),
            Value::Dict(d) => d.borrow().len(),
            Value::Set(s) | Value::FrozenSet(s) => s.borrow().len(),
            Value::Range(r) => r.ssize_len()?,
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
                let r = self.call_bound(&exit, ctx.clone(), Args::new(args.into()))?;
                Ok(err.is_some() && self.truthy(&r)?)
            }
            Value::Native(n) => n.clone().exit(ctx, self, err),
            _ => Ok(false),
        }
    }
}

//! `torch.serialization`: the allowlist that lets `torch.load(weights_only=True)` rebuild
//! instances of the program's own classes (`add_safe_globals`, the `safe_globals` context
//! manager, `get_safe_globals`, `clear_safe_globals`), and `save`/`load` under their full names.
use super::make_module;
use crate::lang::builtins::kwarg;
use crate::lang::error::{type_error, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use std::any::Any;
use std::cell::RefCell;

thread_local! {
    /// The globals added by the program, in the order added (PyTorch keeps a list too).
    static ALLOWED: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
}

/// Whether the program allowed the class `module.qualname`.
pub(super) fn allowed(module: &str, qualname: &str) -> bool {
    ALLOWED.with(|a| {
        a.borrow().iter().any(|v| match v {
            Value::Class(c) => &*c.module == module && super::save_objects::qualname(c) == qualname,
            _ => false,
        })
    })
}

fn items(i: &mut Interp, a: &Args, fname: &str) -> PyResult<Vec<Value>> {
    // Any iterable, as PyTorch takes it (`None` is "not iterable").
    match a.pos.first().cloned().or_else(|| kwarg(a, "safe_globals")) {
        Some(v) => i.collect(&v),
        None => Err(type_error(format!(
            "{fname}() missing 1 required positional argument: 'safe_globals'"
        ))),
    }
}

fn add(list: Vec<Value>) {
    ALLOWED.with(|a| {
        let mut a = a.borrow_mut();
        for v in list {
            if !a.iter().any(|x| x.is(&v)) {
                a.push(v);
            }
        }
    });
}

pub fn module() -> Value {
    make_module(
        "torch.serialization",
        &[
            ("add_safe_globals", |i, _, a| {
                let list = items(i, &a, "add_safe_globals")?;
                add(list);
                Ok(Value::None)
            }),
            ("get_safe_globals", |_, _, _| {
                Ok(Value::list(ALLOWED.with(|a| a.borrow().clone())))
            }),
            ("clear_safe_globals", |_, _, _| {
                ALLOWED.with(|a| a.borrow_mut().clear());
                Ok(Value::None)
            }),
            ("safe_globals", |i, _, a| {
                let list = items(i, &a, "safe_globals")?;
                Ok(Value::Native(NativeRc::new(SafeGlobals {
                    list,
                    saved: RefCell::new(None),
                })))
            }),
            ("save", super::save::save),
            ("load", super::save::load),
        ],
        &[],
    )
}

/// `with torch.serialization.safe_globals([...]):` — the allowlist grows for the block and is
/// put back as it was after it.
struct SafeGlobals {
    list: Vec<Value>,
    saved: RefCell<Option<Vec<Value>>>,
}

impl Native for SafeGlobals {
    fn type_name(&self) -> &str {
        "safe_globals"
    }
    fn module(&self) -> &str {
        "torch.serialization"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn enter(&self, _this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        *self.saved.borrow_mut() = Some(ALLOWED.with(|a| a.borrow().clone()));
        add(self.list.clone());
        Ok(Some(Value::None))
    }
    fn exit(&self, _this: &Value, _i: &mut Interp, _err: Option<&PyErr>) -> PyResult<bool> {
        if let Some(saved) = self.saved.borrow_mut().take() {
            ALLOWED.with(|a| *a.borrow_mut() = saved);
        }
        Ok(false)
    }
}

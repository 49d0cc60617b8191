//! `list[int]`, `dict[str, int]`, `tuple[int, ...]`: builtin types subscripted in annotations
//! (PEP 585). The value only prints, compares and carries its arguments, as CPython's
//! `types.GenericAlias` does for learners' code; calling it makes the plain type.
use crate::lang::error::PyResult;
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::any::Any;
use std::rc::Rc;

pub struct GenericAlias {
    origin: Rc<Class>,
    args: Vec<Value>,
}

/// `origin[idx]` for a builtin container type.
pub fn subscript(origin: &Rc<Class>, idx: &Value) -> Value {
    let args = match idx {
        Value::Tuple(t) => t.to_vec(),
        v => vec![v.clone()],
    };
    Value::Native(NativeRc::new(GenericAlias {
        origin: origin.clone(),
        args,
    }))
}

/// Whether `list[...]` style subscription applies to this builtin class.
pub fn subscriptable(c: &Class) -> bool {
    c.builtin.is_some()
        && matches!(
            &*c.name,
            "list" | "dict" | "tuple" | "set" | "frozenset" | "type"
        )
}

/// How a type argument prints: `int` for builtins, `mod.Name` otherwise, `...` for Ellipsis.
fn arg_repr(v: &Value, i: &mut Interp) -> PyResult<String> {
    Ok(match v {
        Value::Class(c) if c.builtin.is_some() => c.name.to_string(),
        Value::Class(c) => format!("{}.{}", c.module, c.name),
        Value::Ellipsis => "...".to_string(),
        Value::List(l) => {
            let items = l.borrow().clone();
            let parts: PyResult<Vec<String>> = items.iter().map(|x| arg_repr(x, i)).collect();
            format!("[{}]", parts?.join(", "))
        }
        other => i.repr(other)?,
    })
}

impl Native for GenericAlias {
    fn type_name(&self) -> &str {
        "GenericAlias"
    }
    fn module(&self) -> &str {
        "types"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, i: &mut Interp) -> PyResult<String> {
        let parts: PyResult<Vec<String>> = self.args.iter().map(|a| arg_repr(a, i)).collect();
        Ok(format!("{}[{}]", self.origin.name, parts?.join(", ")))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "__origin__" => Some(Value::Class(self.origin.clone())),
            "__args__" => Some(Value::tuple(self.args.clone())),
            _ => None,
        })
    }
    fn callable(&self) -> bool {
        true
    }
    fn call(&self, _this: &Value, args: Args, i: &mut Interp) -> PyResult<Value> {
        i.call(&Value::Class(self.origin.clone()), args)
    }
}

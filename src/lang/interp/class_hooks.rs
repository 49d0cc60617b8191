//! The two ways a `class` statement's bases can take over building it: PEP 560's
//! `__mro_entries__` (a base that is not a class names the classes to use instead, and the
//! originals are kept as `__orig_bases__`), and a metaclass's `__new__`, which cudalearn,
//! having no metaclasses, lets a base class stand in for by holding
//! `__cudalearn_metaclass_new__(name, bases, namespace)` in its own namespace (typing's
//! `NamedTuple` is built this way, as CPython's `NamedTupleMeta.__new__` builds it).
use super::Interp;
use crate::lang::error::{type_error, PyResult};
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

/// What a class statement's base expressions gave, resolved.
pub(crate) struct Bases {
    pub classes: Vec<Rc<Class>>,
    /// The bases as written, when a `__mro_entries__` replaced one of them.
    pub orig: Option<Value>,
}

const METACLASS_NEW: &str = "__cudalearn_metaclass_new__";

impl Interp {
    /// CPython's `resolve_bases`, then the classes: a base that is not a class is replaced by
    /// the tuple its `__mro_entries__(bases)` returns.
    pub(crate) fn resolve_bases(&mut self, written: Vec<Value>) -> PyResult<Bases> {
        let mut classes = Vec::new();
        let mut replaced = false;
        for v in &written {
            if let Some(c) = class_of_base(v) {
                classes.push(c);
                continue;
            }
            let entries = match self.get_attr(v, Sym::new("__mro_entries__")) {
                Ok(f) => Some(f),
                Err(e) if e.is_missing_attr() => None,
                Err(e) => return Err(e),
            };
            let Some(f) = entries else {
                return Err(not_a_class(v));
            };
            let got = self.call(&f, Args::of([Value::tuple(written.clone())]))?;
            let Value::Tuple(items) = &got else {
                return Err(type_error("__mro_entries__ must return a tuple"));
            };
            for item in items.iter() {
                classes.push(class_of_base(item).ok_or_else(|| not_a_class(item))?);
            }
            replaced = true;
        }
        let orig = replaced.then(|| Value::tuple(written));
        Ok(Bases { classes, orig })
    }

    /// The class a base's `__cudalearn_metaclass_new__` builds from the finished namespace,
    /// or `None` when no base has one. The namespace is handed over as CPython's is: a dict
    /// in the body's order, with no `__doc__` when the body had no docstring.
    pub(crate) fn metaclass_new(
        &mut self,
        name: &str,
        bases: &[Rc<Class>],
        ns: &AttrMap,
    ) -> PyResult<Option<Value>> {
        let key = Sym::new(METACLASS_NEW);
        let Some(hook) = bases
            .iter()
            .find_map(|c| c.dict.borrow().get(&key).cloned())
        else {
            return Ok(None);
        };
        let mut d = DictMap::default();
        for (k, v) in ns.iter() {
            if &*k.as_str() == "__doc__" && matches!(v, Value::None) {
                continue;
            }
            d.insert(Key(Value::Str(k.as_str())), v.clone());
        }
        let args = vec![
            Value::str(name),
            Value::tuple(bases.iter().map(|c| Value::Class(c.clone())).collect()),
            Value::Dict(Rc::new(RefCell::new(d))),
        ];
        self.call(&hook, Args::new(args.into())).map(Some)
    }
}

fn class_of_base(v: &Value) -> Option<Rc<Class>> {
    match v {
        Value::Class(c) => Some(c.clone()),
        Value::Native(n) => n
            .as_any()
            .downcast_ref::<super::classes::NativeBase>()
            .map(|c| c.class.clone()),
        _ => None,
    }
}

fn not_a_class(v: &Value) -> crate::lang::error::PyErr {
    type_error(format!(
        "class bases must be classes, not '{}'",
        v.type_name()
    ))
}

//! The objects `torch.save` keeps by reference, as pickle does: classes (module and qualified
//! name, found again by name when loaded), and instances of dict subclasses (their class, their
//! items through the class's `items()`, their `__dict__`), rebuilt as pickle rebuilds them:
//! `cls.__new__(cls)`, each item stored with `obj[k] = v`, then the state (`__setstate__`, or
//! into `__dict__`). `torch.load`'s default `weights_only=True` refuses every class but the
//! ones PyTorch allows (`OrderedDict`, `Counter`), with PyTorch's message.
use crate::lang::error::{attr_error, ExcKind, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::rc::Rc;

/// The globals `torch.load(weights_only=True)` lets a file name (of those cudalearn saves).
const SAFE_GLOBALS: &[(&str, &str)] = &[("collections", "OrderedDict"), ("collections", "Counter")];

/// A class's qualified name (`Outer.Inner`, `f.<locals>.D`).
pub(super) fn qualname(c: &Class) -> String {
    match c.dict.borrow().get(&Sym::new("__qualname__")) {
        Some(Value::Str(q)) => q.to_string(),
        _ => c.name.to_string(),
    }
}

/// The object `module.qualname` names, as pickle's `find_class` looks it up.
pub(super) fn find_class(i: &mut Interp, module: &str, qualname: &str) -> PyResult<Value> {
    let mut parts = qualname.split('.');
    let first = parts.next().unwrap_or_default();
    let mut v = if matches!(module, "__main__" | "builtins") {
        i.load_global(Sym::new(first)).map_err(|_| {
            attr_error(format!(
                "Can't get attribute '{qualname}' on <module '{module}'>"
            ))
        })?
    } else {
        let m = i.import(module)?;
        i.get_attr(&m, Sym::new(first))?
    };
    for p in parts {
        v = i.get_attr(&v, Sym::new(p))?;
    }
    Ok(v)
}

/// Where `c` is found again: its module and qualified name, checked as pickle checks them.
pub(super) fn class_name(i: &mut Interp, c: &Rc<Class>) -> PyResult<(String, String)> {
    let q = qualname(c);
    if q.contains("<locals>") {
        return Err(attr_error(format!("Can't pickle local object '{q}'")));
    }
    let module = c.module.to_string();
    let shown = format!(
        "<class '{}'>",
        if module == "builtins" {
            q.clone()
        } else {
            format!("{module}.{q}")
        }
    );
    match find_class(i, &module, &q) {
        Ok(Value::Class(found)) if Rc::ptr_eq(&found, c) => Ok((module, q)),
        Ok(_) => Err(PyErr::new(
            ExcKind::PicklingError,
            format!("Can't pickle {shown}: it's not the same object as {module}.{q}"),
        )),
        Err(_) => Err(PyErr::new(
            ExcKind::PicklingError,
            format!("Can't pickle {shown}: attribute lookup {q} on {module} failed"),
        )),
    }
}

/// PyTorch's refusal of a global that `weights_only=True` does not allow.
pub(super) fn check_safe(module: &str, qualname: &str) -> PyResult<()> {
    if SAFE_GLOBALS.contains(&(module, qualname)) || super::serialization::allowed(module, qualname)
    {
        return Ok(());
    }
    // builtins are named bare (`int`), as PyTorch's unpickler names them
    let g = match module {
        "builtins" => qualname.to_string(),
        _ => format!("{module}.{qualname}"),
    };
    Err(PyErr::new(
        ExcKind::UnpicklingError,
        format!(
            "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL {g} was not an allowed global by default. Please use `torch.serialization.add_safe_globals([{g}])` or the `torch.serialization.safe_globals([{g}])` context manager to allowlist this global if you trust this class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
        ),
    ))
}

/// Whether `torch.save` keeps `inst` as pickle keeps a plain object (its class by name and its
/// `__dict__`): an instance of a program's own class, not a builtin type's subclass, not an
/// exception, and nothing of torch's (an `nn.Module` saved whole would come back with plain
/// tensors where its parameters were).
pub(super) fn plain_instance(inst: &Instance) -> bool {
    inst.base.is_none()
        && inst.class.exc_kind().is_none()
        && inst
            .class
            .mro
            .borrow()
            .iter()
            .all(|c| c.builtin.is_some() || !c.module.starts_with("torch"))
}

/// PyTorch's refusal, under `weights_only=True`, to store items into an object that is not
/// a dict, an `OrderedDict` or a `Counter` (a dict subclass the program allowed).
pub(super) fn check_setitem(cls: &Value) -> PyResult<()> {
    let Value::Class(c) = cls else {
        return Ok(());
    };
    if SAFE_GLOBALS.contains(&(&*c.module, &*c.name)) {
        return Ok(());
    }
    Err(PyErr::new(
        ExcKind::UnpicklingError,
        format!(
            "Weights only load failed. In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\nPlease file an issue with the following so that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error: \n\nCan only SETITEM for dict, collections.OrderedDict, collections.Counter, but got <class '{}.{}'>\n\nCheck the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.",
            c.module,
            qualname(c)
        ),
    ))
}

/// A dict subclass's instance as pickle sees it: its items (through `items()`, which the class
/// may override) and its `__dict__`.
pub(super) fn dict_parts(i: &mut Interp, obj: &Value) -> PyResult<Vec<(Value, Value)>> {
    let items = i.call_method(obj, "items", Args::default())?;
    let items = i.collect(&items)?;
    let mut pairs = Vec::with_capacity(items.len());
    for it in items {
        let kv = i.collect(&it)?;
        if let [k, v] = &kv[..] {
            pairs.push((k.clone(), v.clone()));
        }
    }
    Ok(pairs)
}

/// The instance's `__dict__`, the state pickle saves with it.
pub(super) fn state(inst: &Instance) -> Vec<(Value, Value)> {
    inst.dict
        .borrow()
        .iter()
        .map(|(k, v)| (Value::Str(k.as_str()), v.clone()))
        .collect()
}

/// Pickle's rebuilding: `cls.__new__(cls)`, the items stored one by one, then the state.
pub(super) fn rebuild(
    i: &mut Interp,
    cls: &Value,
    items: Vec<(Value, Value)>,
    state: Vec<(Value, Value)>,
) -> PyResult<Value> {
    let new = i.get_attr(cls, Sym::new("__new__"))?;
    let obj = i.call(&new, Args::of([cls.clone()]))?;
    for (k, v) in items {
        i.call_method(&obj, "__setitem__", Args::of([k, v]))?;
    }
    if state.is_empty() {
        return Ok(obj);
    }
    let has_setstate = match &obj {
        Value::Instance(inst) => inst.class.lookup(Sym::new("__setstate__")).is_some(),
        _ => false,
    };
    if has_setstate {
        let mut d = DictMap::default();
        for (k, v) in state {
            d.insert(Key::new(k)?, v);
        }
        let d = Value::Dict(Rc::new(std::cell::RefCell::new(d)));
        i.call_method(&obj, "__setstate__", Args::of([d]))?;
    } else if let Value::Instance(inst) = &obj {
        for (k, v) in state {
            if let Value::Str(k) = k {
                inst.dict.borrow_mut().insert(Sym::new(&k), v);
            }
        }
    }
    Ok(obj)
}

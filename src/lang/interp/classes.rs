//! Classes and instances: the builtin class objects, `class` statements, attribute access,
//! instantiation and `super()`.
use super::builtin_subclass;
use super::descriptors;
use super::{Frame, FrameName, Interp, Types};
use crate::lang::ast::{AttrHint, ClassDef};
use crate::lang::error::{attr_error, type_error, Anchor, ExcKind, PyErr, PyResult};
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

fn new_class(
    name: &str,
    module: &str,
    bases: Vec<Rc<Class>>,
    builtin: Option<BuiltinClass>,
) -> Rc<Class> {
    let c = Rc::new(Class {
        name: PyStr::from(name),
        module: PyStr::from(module),
        bases: bases.clone(),
        mro: RefCell::new(Vec::new()),
        dict: RefCell::new(AttrMap::default()),
        builtin,
        cache: Default::default(),
        setattr: Default::default(),
        base_type: builtin_subclass::base_type_of(&bases_mro(&bases, &builtin)),
    });
    let mro = c3_mro(&c, &bases).unwrap_or_else(|| {
        let mut m = vec![c.clone()];
        for b in &bases {
            for x in b.mro.borrow().iter() {
                if !m.iter().any(|y| Rc::ptr_eq(x, y)) {
                    m.push(x.clone());
                }
            }
        }
        m
    });
    *c.mro.borrow_mut() = mro;
    c
}

/// The classes whose builtin type a new class extends: its bases' MROs, or itself.
fn bases_mro(bases: &[Rc<Class>], builtin: &Option<BuiltinClass>) -> Vec<Rc<Class>> {
    if let Some(BuiltinClass::Type(_)) = builtin {
        return Vec::new();
    }
    bases.iter().flat_map(|b| b.mro.borrow().clone()).collect()
}

/// CPython's error when a new class's bases are repeated or admit no consistent MRO.
fn check_mro(c: &Rc<Class>, bases: &[Rc<Class>]) -> PyResult<()> {
    for (i, b) in bases.iter().enumerate() {
        if bases[..i].iter().any(|a| Rc::ptr_eq(a, b)) {
            return Err(type_error(format!("duplicate base class {}", b.name)));
        }
    }
    match c3_mro(c, bases) {
        Some(_) => Ok(()),
        None => Err(type_error(
            "Cannot create a consistent method resolution order (MRO) for bases",
        )),
    }
}

/// C3 linearisation; `None` when the bases admit no consistent order.
fn c3_mro(c: &Rc<Class>, bases: &[Rc<Class>]) -> Option<Vec<Rc<Class>>> {
    let mut seqs: Vec<Vec<Rc<Class>>> = bases.iter().map(|b| b.mro.borrow().clone()).collect();
    seqs.push(bases.to_vec());
    let mut out = vec![c.clone()];
    loop {
        seqs.retain(|s| !s.is_empty());
        if seqs.is_empty() {
            return Some(out);
        }
        let head = seqs
            .iter()
            .map(|s| s[0].clone())
            .find(|h| !seqs.iter().any(|s| s[1..].iter().any(|x| Rc::ptr_eq(x, h))))?;
        for s in seqs.iter_mut() {
            if Rc::ptr_eq(&s[0], &head) {
                s.remove(0);
            }
        }
        out.push(head);
    }
}

pub fn builtin_types() -> Types {
    let object = new_class("object", "builtins", Vec::new(), Some(BuiltinClass::Object));
    let mut exceptions: Vec<Rc<Class>> = Vec::new();
    for &k in ExcKind::ALL {
        let bases = match k.parent() {
            Some(p) => {
                vec![exceptions[ExcKind::ALL.iter().position(|x| *x == p).unwrap_or(0)].clone()]
            }
            None => vec![object.clone()],
        };
        exceptions.push(new_class(
            k.name(),
            k.module().unwrap_or("builtins"),
            bases,
            Some(BuiltinClass::Exception(k)),
        ));
    }
    let tags = [
        (TypeTag::Int, "int"),
        (TypeTag::Float, "float"),
        (TypeTag::Str, "str"),
        (TypeTag::List, "list"),
        (TypeTag::Tuple, "tuple"),
        (TypeTag::Dict, "dict"),
        (TypeTag::Set, "set"),
        (TypeTag::FrozenSet, "frozenset"),
        (TypeTag::NoneType, "NoneType"),
        (TypeTag::Range, "range"),
        (TypeTag::Type, "type"),
        (TypeTag::Function, "function"),
        (TypeTag::Slice, "slice"),
    ];
    let mut by_tag: Vec<(TypeTag, Rc<Class>)> = tags
        .iter()
        .map(|(t, n)| {
            (
                *t,
                new_class(
                    n,
                    "builtins",
                    vec![object.clone()],
                    Some(BuiltinClass::Type(*t)),
                ),
            )
        })
        .collect();
    let int = by_tag[0].1.clone();
    by_tag.push((
        TypeTag::Bool,
        new_class(
            "bool",
            "builtins",
            vec![int],
            Some(BuiltinClass::Type(TypeTag::Bool)),
        ),
    ));
    builtin_subclass::install(&by_tag);
    Types {
        object,
        exceptions,
        by_tag,
    }
}

/// `super()`: attribute lookup that starts after `class` in the MRO of `this`.
struct Super {
    class: Rc<Class>,
    this: Value,
}

impl Native for Super {
    fn type_name(&self) -> &str {
        "super"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!(
            "<super: <class '{}'>, <{} object>>",
            self.class.name,
            self.this.type_name()
        ))
    }
    fn get_attr(&self, _this: &Value, name: Sym, interp: &mut Interp) -> PyResult<Option<Value>> {
        let cls = match &self.this {
            Value::Instance(i) => i.class.clone(),
            Value::Class(c) => c.clone(),
            _ => return Ok(None),
        };
        let mro = cls.mro.borrow().clone();
        let start = mro
            .iter()
            .position(|c| Rc::ptr_eq(c, &self.class))
            .map_or(mro.len(), |p| p + 1);
        for c in &mro[start..] {
            let found = c.dict.borrow().get(&name).cloned();
            if let Some(v) = found {
                if let Value::Instance(_) = &self.this {
                    return interp.class_attr_get(v, &self.this).map(Some);
                }
                return Ok(Some(interp.bind_class_attr(v, &self.this)));
            }
            if let (Some(BuiltinClass::Type(_)), Value::Instance(inst)) = (c.builtin, &self.this) {
                if let Some(base) = &inst.base {
                    if let Some((f, n)) = crate::lang::builtins::method(base, &name.as_str()) {
                        return Ok(Some(Value::Builtin(Rc::new(Builtin {
                            name: n,
                            f,
                            this: Some(base.clone()),
                        }))));
                    }
                }
            }
            if c.builtin == Some(BuiltinClass::Object) && name == crate::lang::symbol::dunder::NEW {
                return Ok(Some(Value::Builtin(Rc::new(Builtin {
                    name: "__new__",
                    f: object_new,
                    this: None,
                }))));
            }
            if let Some(BuiltinClass::Exception(_)) | Some(BuiltinClass::Object) = c.builtin {
                if &*name.as_str() == "__init__" {
                    let this = self.this.clone();
                    return Ok(Some(Value::Builtin(Rc::new(Builtin {
                        name: "__init__",
                        f: base_init,
                        this: Some(this),
                    }))));
                }
            }
        }
        Ok(None)
    }
}

/// `object.__new__(cls)`: a bare instance of a plain class (what a user `__new__` gets from
/// `super().__new__(cls)`); the arguments after `cls` are `__init__`'s.
fn object_new(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    match a.pos.first() {
        Some(Value::Class(c)) if c.builtin.is_none() && c.base_type.is_none() => {
            Ok(Value::Instance(Rc::new(Instance {
                class: c.clone(),
                dict: RefCell::new(AttrMap::default()),
                hash: std::cell::Cell::new(None),
                base: None,
            })))
        }
        Some(Value::Class(c)) => Err(type_error(format!(
            "object.__new__({0}) is not safe, use {0}.__new__()",
            c.name
        ))),
        Some(v) => Err(type_error(format!(
            "object.__new__(X): X is not a type object ({})",
            v.type_name()
        ))),
        None => Err(type_error("object.__new__(): not enough arguments")),
    }
}

/// `object.__setattr__(obj, name, value)` and `object.__delattr__(obj, name)`: the instance
/// dict itself, bypassing the class's own hooks.
fn object_setattr(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let (Some(Value::Instance(inst)), Some(Value::Str(name))) = (a.pos.first(), a.pos.get(1))
    else {
        return Err(type_error(
            "object.__setattr__ expects an instance and an attribute name",
        ));
    };
    let name = Sym::new(name);
    // Data descriptors (properties) first, as CPython's `object.__setattr__` does.
    if i.property_store(&a.pos[0], name, a.pos.get(2).cloned())? {
        return Ok(Value::None);
    }
    match a.pos.get(2) {
        Some(v) => {
            super::slots::check_store(&inst.class, name)?;
            inst.dict.borrow_mut().insert(name, v.clone());
        }
        None => {
            if inst.dict.borrow_mut().shift_remove(&name).is_none() {
                return Err(i.no_attr(&a.pos[0], name));
            }
        }
    }
    Ok(Value::None)
}

/// `object.__init__` / `BaseException.__init__` reached through `super()`.
fn base_init(_i: &mut Interp, this: &Value, args: Args) -> PyResult<Value> {
    if let Value::Instance(inst) = this {
        if inst.class.exc_kind().is_some() {
            inst.dict.borrow_mut().insert(
                crate::lang::symbol::dunder::ARGS,
                Value::tuple(args.pos.into_vec()),
            );
        } else if !args.pos.is_empty() || !args.kw.is_empty() {
            return Err(type_error(
                "object.__init__() takes exactly one argument (the instance to initialize)",
            ));
        }
    }
    Ok(Value::None)
}

impl Interp {
    pub(crate) fn make_super(&mut self, class: Rc<Class>, this: Value) -> Value {
        Value::Native(NativeRc::new(Super { class, this }))
    }

    /// A class attribute seen through an instance: functions become bound methods.
    pub fn bind_class_attr(&self, v: Value, this: &Value) -> Value {
        match &v {
            Value::Func(_) => Value::Method(Rc::new((this.clone(), v))),
            Value::Native(n) if n.binds_as_method() => Value::Method(Rc::new((this.clone(), v))),
            Value::Native(_) => descriptors::through_instance(&v, this).unwrap_or(v),
            Value::Builtin(b) if b.this.is_none() => Value::Builtin(Rc::new(Builtin {
                name: b.name,
                f: b.f,
                this: Some(this.clone()),
            })),
            _ => v,
        }
    }

    /// `x: int` in a class body: the annotation goes into the class's `__annotations__` (what
    /// `dataclasses` reads), as CPython does.
    pub(crate) fn record_annotation(
        &mut self,
        target: &crate::lang::ast::Expr,
        ann: &crate::lang::ast::Expr,
        f: &mut Frame,
    ) -> PyResult<()> {
        let crate::lang::ast::ExprKind::Name(n) = &target.kind else {
            return Ok(());
        };
        let a = self.eval(ann, f)?;
        let Some(ns) = f.class_ns.clone() else {
            return Ok(());
        };
        let key = Sym::new("__annotations__");
        let existing = ns.borrow().get(&key).cloned();
        let d = match existing {
            Some(Value::Dict(d)) => d,
            _ => {
                let d = Rc::new(RefCell::new(DictMap::default()));
                ns.borrow_mut().insert(key, Value::Dict(d.clone()));
                d
            }
        };
        d.borrow_mut().insert(Key(Value::Str(n.sym.as_str())), a);
        Ok(())
    }

    /// A `class` statement, in CPython's order: the decorators, the bases, the body (a frame
    /// of its own in tracebacks, named after the class), the class, the decorators applied.
    /// Errors while the class is built point at the statement (`class K:` with its body, not
    /// the decorators); a decorator's call points at that decorator.
    pub(crate) fn class_def(&mut self, def: &Rc<ClassDef>, f: &mut Frame) -> PyResult<Value> {
        let mut decos = Vec::with_capacity(def.decorators.len());
        for d in &def.decorators {
            decos.push(self.eval(d, f)?);
        }
        let at_stmt = |me: &Self, err: PyErr, f: &Frame| me.at(err, f, def.span, Anchor::None);
        let mut written = Vec::with_capacity(def.bases.len());
        for b in &def.bases {
            written.push(self.eval(b, f)?);
        }
        let resolved = self
            .resolve_bases(written)
            .map_err(|e| at_stmt(self, e, f))?;
        let mut bases = resolved.classes;
        builtin_subclass::check_bases(&bases).map_err(|e| at_stmt(self, e, f))?;
        if bases.is_empty() {
            bases.push(self.types.object.clone());
        }
        let qualname = match &f.func {
            Some(func) => format!("{}.<locals>.{}", func.qualname, def.name),
            None => def.name.to_string(),
        };
        let ns = Rc::new(RefCell::new(AttrMap::default()));
        // `__module__` is the defining module's `__name__` (`itertools` for its classes).
        let module_name = match self.load_global(Sym::new("__name__")) {
            Ok(Value::Str(n)) => Value::Str(n),
            _ => Value::str("__main__"),
        };
        ns.borrow_mut().insert(Sym::new("__module__"), module_name);
        ns.borrow_mut()
            .insert(Sym::new("__qualname__"), Value::from(qualname));
        ns.borrow_mut()
            .insert(Sym::new("__doc__"), docstring(&def.body));
        let saved = f.class_ns.replace(ns.clone());
        let outer = std::mem::replace(&mut f.name, FrameName::Class(def.name));
        let r = self.exec_block(&def.body, f);
        f.name = outer;
        f.class_ns = saved;
        if let Err(mut err) = r {
            // The body's frame has its entry; the enclosing frame's is the statement.
            err.0.located = false;
            return Err(at_stmt(self, err, f));
        }
        super::slots::check_new_class(&ns.borrow()).map_err(|e| at_stmt(self, e, f))?;
        if let Some(orig) = resolved.orig {
            ns.borrow_mut().insert(Sym::new("__orig_bases__"), orig);
        }
        let built = self.metaclass_new(&def.name.as_str(), &bases, &ns.borrow());
        if let Some(mut v) = built.map_err(|e| at_stmt(self, e, f))? {
            for (d, dv) in def.decorators.iter().zip(decos).rev() {
                v = self
                    .call(&dv, Args::of([v]))
                    .map_err(|e| self.at(e, f, d.span, Anchor::None))?;
            }
            return Ok(v);
        }
        // `__module__` as the body left it (embedded modules name theirs, e.g. torch.nn.modules.linear).
        let module = match ns.borrow().get(&Sym::new("__module__")) {
            Some(Value::Str(m)) => m.to_string(),
            _ => "__main__".to_string(),
        };
        let class = new_class(&def.name.as_str(), &module, bases.clone(), None);
        check_mro(&class, &bases).map_err(|e| at_stmt(self, e, f))?;
        let dict = Rc::try_unwrap(ns)
            .map(|c| c.into_inner())
            .unwrap_or_else(|ns| ns.borrow().clone());
        for (k, v) in dict.iter() {
            descriptors::set_owner(*k, v, &class);
        }
        let mut dict = dict;
        // A class that defines `__eq__` but not `__hash__` is unhashable (CPython's type_new).
        if dict.contains_key(&crate::lang::symbol::dunder::EQ)
            && !dict.contains_key(&crate::lang::symbol::dunder::HASH)
        {
            dict.insert(crate::lang::symbol::dunder::HASH, Value::None);
        }
        *class.dict.borrow_mut() = dict;
        class_changed();
        let mut v = Value::Class(class);
        for (d, dv) in def.decorators.iter().zip(decos).rev() {
            v = self
                .call(&dv, Args::of([v]))
                .map_err(|e| self.at(e, f, d.span, Anchor::None))?;
        }
        Ok(v)
    }

    /// `type(name, bases, dict)`: a class made at run time (what `namedtuple` builds).
    pub(crate) fn make_type(&mut self, name: &Value, bases: &Value, ns: &Value) -> PyResult<Value> {
        let Value::Str(name) = name else {
            return Err(type_error(format!(
                "type.__new__() argument 1 must be str, not {}",
                name.type_name()
            )));
        };
        let Value::Tuple(base_vals) = bases else {
            return Err(type_error(format!(
                "type.__new__() argument 2 must be tuple, not {}",
                bases.type_name()
            )));
        };
        let Value::Dict(ns) = ns else {
            return Err(type_error(format!(
                "type.__new__() argument 3 must be dict, not {}",
                ns.type_name()
            )));
        };
        let mut bases = Vec::new();
        for b in base_vals.iter() {
            match b {
                Value::Class(c) => bases.push(c.clone()),
                other => {
                    return Err(type_error(format!(
                        "class bases must be classes, not '{}'",
                        other.type_name()
                    )))
                }
            }
        }
        builtin_subclass::check_bases(&bases)?;
        if bases.is_empty() {
            bases.push(self.types.object.clone());
        }
        let mut dict = AttrMap::default();
        for (k, v) in ns.borrow().iter() {
            let Value::Str(k) = &k.0 else {
                return Err(type_error("type() namespace keys must be strings"));
            };
            dict.insert(Sym::new(k), v.clone());
        }
        super::slots::check_new_class(&dict)?;
        let module = match dict.get(&Sym::new("__module__")) {
            Some(Value::Str(m)) => m.to_string(),
            _ => "__main__".to_string(),
        };
        let class = new_class(name, &module, bases.clone(), None);
        check_mro(&class, &bases)?;
        for (k, v) in dict.iter() {
            descriptors::set_owner(*k, v, &class);
        }
        let mut dict = dict;
        // A class that defines `__eq__` but not `__hash__` is unhashable (CPython's type_new).
        if dict.contains_key(&crate::lang::symbol::dunder::EQ)
            && !dict.contains_key(&crate::lang::symbol::dunder::HASH)
        {
            dict.insert(crate::lang::symbol::dunder::HASH, Value::None);
        }
        *class.dict.borrow_mut() = dict;
        class_changed();
        Ok(Value::Class(class))
    }

    pub(crate) fn instantiate(&mut self, c: &Rc<Class>, mut args: Args) -> PyResult<Value> {
        if let Some(BuiltinClass::Type(tag)) = c.builtin {
            return crate::lang::builtins::construct(self, tag, args);
        }
        if c.base_type.is_some() {
            return self.instantiate_builtin_subclass(c, args);
        }
        if let Some(hook) = self.native_base_of(c) {
            return hook(self, c, args);
        }
        let is_exc = c.exc_kind().is_some();
        if !is_exc && c.lookup(crate::lang::symbol::dunder::NEW).is_some() {
            // a class of its own `__new__` (a singleton, a cache): it makes the instance
            return self.instantiate_builtin_subclass(c, args);
        }
        // (An exception's dict is made with room for its `args`: no growth from empty.)
        let dict = if is_exc {
            AttrMap::with_capacity_and_hasher(1, Default::default())
        } else {
            AttrMap::default()
        };
        let inst = Rc::new(Instance {
            class: c.clone(),
            dict: RefCell::new(dict),
            hash: std::cell::Cell::new(None),
            base: None,
        });
        let init = c.lookup(crate::lang::symbol::dunder::INIT);
        if is_exc {
            if init.is_none() && !args.kw.is_empty() {
                return Err(type_error(format!(
                    "{}() takes no keyword arguments",
                    c.name
                )));
            }
            // (Without an `__init__` to pass them to, the arguments are moved, not copied.)
            let exc_args = match init {
                Some(_) => args.pos.to_vec(),
                None => std::mem::take(&mut args.pos).into_vec(),
            };
            inst.dict
                .borrow_mut()
                .insert(crate::lang::symbol::dunder::ARGS, Value::tuple(exc_args));
        }
        let this = Value::Instance(inst);
        match init {
            Some(init) => {
                let r = self.call_bound(&init, this.clone(), args)?;
                if !matches!(r, Value::None) {
                    return Err(type_error(format!(
                        "__init__() should return None, not '{}'",
                        r.type_name()
                    )));
                }
            }
            None if !is_exc && (!args.pos.is_empty() || !args.kw.is_empty()) => {
                return Err(type_error(format!("{}() takes no arguments", c.name)));
            }
            None => {}
        }
        Ok(this)
    }

    /// Classes written in Rust that Python classes may extend (nn.Module in a later issue)
    /// register a constructor here.
    fn native_base_of(&self, c: &Rc<Class>) -> Option<NativeCtor> {
        let ctors = self.ext.get("native_ctors")?;
        let ctors = ctors.downcast_ref::<RefCell<Vec<(Rc<Class>, NativeCtor)>>>()?;
        let found = ctors
            .borrow()
            .iter()
            .find(|(base, _)| c.is_subclass(base))
            .map(|(_, f)| *f);
        found
    }

    pub fn get_attr(&mut self, obj: &Value, name: Sym) -> PyResult<Value> {
        // `x.__class__` is `type(x)` for every object (an instance's class may define its own,
        // which its lookup below finds first).
        if name == crate::lang::symbol::dunder::CLASS && !matches!(obj, Value::Instance(_)) {
            return Ok(crate::lang::builtins::type_of(self, obj));
        }
        match obj {
            Value::Instance(i) => {
                if let Some(v) = i.dict.borrow().get(&name) {
                    return Ok(v.clone());
                }
                if let Some(v) = i.class.lookup(name) {
                    return self.class_attr_get(v, obj);
                }
                match &*name.as_str() {
                    "__class__" => return Ok(Value::Class(i.class.clone())),
                    // An exception never raised, or never caught by name: no chaining.
                    "__cause__" | "__context__" if i.class.exc_kind().is_some() => {
                        return Ok(Value::None)
                    }
                    "__suppress_context__" if i.class.exc_kind().is_some() => {
                        return Ok(Value::Bool(PyBool::False))
                    }
                    "__dict__" if super::slots::only_slots(&i.class).is_some() => {}
                    "__dict__" => {
                        let slots = super::slots::declared(&i.class);
                        // (An exception's `args` and chaining are kept in its dict here, but
                        // CPython holds them in the object itself: `e.__dict__` does not list them.)
                        let exc = i.class.exc_kind().is_some();
                        let hidden = |k: &Sym| {
                            slots.contains(k)
                                || (exc
                                    && (*k == crate::lang::symbol::dunder::ARGS
                                        || super::stmt::CHAINING.contains(k)))
                        };
                        let d = i.dict.borrow();
                        return Ok(names_dict(d.iter().filter(|(k, _)| !hidden(k))));
                    }
                    _ => {}
                }
                // A builtin type's subclass: the methods of the value it carries.
                if let Some(base) = &i.base {
                    if let Some((f, n)) = crate::lang::builtins::method(base, &name.as_str()) {
                        return Ok(Value::Builtin(Rc::new(Builtin {
                            name: n,
                            f,
                            this: Some(base.clone()),
                        })));
                    }
                }
                if let Some(getattr) = i.class.lookup(crate::lang::symbol::dunder::GETATTR) {
                    return self.call_bound(
                        &getattr,
                        obj.clone(),
                        Args::of([Value::Str(name.as_str())]),
                    );
                }
                Err(self.no_attr(obj, name))
            }
            Value::Class(c) => {
                if let Some(v) = c.lookup(name) {
                    return Ok(descriptors::through_class(v, obj));
                }
                if let Some(BuiltinClass::Type(tag)) = c.builtin {
                    if let Some(sample) = sample_of(tag) {
                        if let Some((f, n)) = crate::lang::builtins::method(&sample, &name.as_str())
                        {
                            return Ok(Value::Native(NativeRc::new(UnboundMethod {
                                f,
                                name: n,
                                owner: c.name.clone(),
                            })));
                        }
                    }
                }
                match &*name.as_str() {
                    "__name__" => Ok(Value::Str(c.name.clone())),
                    "__qualname__" => Ok(Value::Str(c.name.clone())),
                    "__module__" => Ok(Value::Str(c.module.clone())),
                    "__mro__" => Ok(Value::tuple(
                        c.mro
                            .borrow()
                            .iter()
                            .map(|x| Value::Class(x.clone()))
                            .collect(),
                    )),
                    // A snapshot of the namespace (CPython's is a read-only mappingproxy).
                    "__dict__" => Ok(names_dict(c.dict.borrow().iter())),
                    "__bases__" => Ok(Value::tuple(
                        c.bases.iter().map(|x| Value::Class(x.clone())).collect(),
                    )),
                    // (A plain class inherits it: `C.__new__(C)`, as pickle rebuilds objects.)
                    "__new__"
                        if c.builtin == Some(BuiltinClass::Object)
                            || (c.builtin.is_none()
                                && c.base_type.is_none()
                                && c.exc_kind().is_none()) =>
                    {
                        Ok(Value::Builtin(Rc::new(Builtin {
                            name: "__new__",
                            f: object_new,
                            this: None,
                        })))
                    }
                    // `object.__setattr__(self, name, v)`: store without the class's hook.
                    "__setattr__" | "__delattr__" if c.builtin == Some(BuiltinClass::Object) => {
                        Ok(Value::Builtin(Rc::new(Builtin {
                            name: if &*name.as_str() == "__setattr__" {
                                "__setattr__"
                            } else {
                                "__delattr__"
                            },
                            f: object_setattr,
                            this: None,
                        })))
                    }
                    "__init__" if c.builtin.is_some() => {
                        Ok(Value::Builtin(Rc::new(Builtin {
                            name: "__init__",
                            f: |i, _, a| {
                                let mut a = a;
                                if a.pos.is_empty() {
                                    return Err(type_error("descriptor '__init__' of 'object' object needs an argument"));
                                }
                                let this = a.pos.remove(0);
                                base_init(i, &this, a)
                            },
                            this: None,
                        })))
                    }
                    _ => {
                        let space = format!("{}.{}", c.module, c.name);
                        if let Some(e) = crate::lang::modules::names::missing(
                            names_space(&space),
                            &name.as_str(),
                        ) {
                            return Err(e);
                        }
                        let mut e = attr_error(format!(
                            "type object '{}' has no attribute '{}'",
                            c.name, name
                        ));
                        e.0.missing_name = Some(name.as_str());
                        e.0.candidates = Some(self.dir(obj));
                        Err(e)
                    }
                }
            }
            Value::Module(m) => match module_attr(m, name) {
                Some(v) => Ok(v),
                // `torch.nn` after `import torch`: submodules load on first use.
                None if crate::lang::modules::is_submodule(&m.name, &name.as_str()) => {
                    let v = self.import(&format!("{}.{}", m.name, name))?;
                    m.attrs.borrow_mut().insert(name, v.clone());
                    Ok(v)
                }
                // A snapshot of the namespace (CPython's is the namespace itself).
                None if &*name.as_str() == "__dict__" => Ok(names_dict(m.attrs.borrow().iter())),
                None => {
                    if let Some(v) = self.lazy_attr(m, name)? {
                        return Ok(v);
                    }
                    if let Some(e) = crate::lang::modules::names::missing(&m.name, &name.as_str()) {
                        return Err(e);
                    }
                    let mut e =
                        attr_error(format!("module '{}' has no attribute '{}'", m.name, name));
                    e.0.missing_name = Some(name.as_str());
                    e.0.candidates = Some(self.dir(obj));
                    Err(e)
                }
            },
            Value::Native(n) => match n.clone().get_attr(obj, name, self)? {
                Some(v) => Ok(v),
                None => Err(self.no_attr(obj, name)),
            },
            // Assigned attributes first: `functools.wraps` sets `__name__`, `__doc__`, ...
            Value::Func(func) if func.attrs.borrow().contains_key(&name) => Ok(func
                .attrs
                .borrow()
                .get(&name)
                .cloned()
                .unwrap_or(Value::None)),
            Value::Func(func) => match &*name.as_str() {
                "__name__" => Ok(Value::Str(func.def.name.as_str())),
                "__qualname__" => Ok(Value::Str(func.qualname.clone())),
                "__doc__" => Ok(func_doc(func)),
                "__module__" => Ok(Value::str("__main__")),
                _ => match func.attrs.borrow().get(&name) {
                    Some(v) => Ok(v.clone()),
                    None => Err(self.no_attr(obj, name)),
                },
            },
            Value::Builtin(b) if &*name.as_str() == "__name__" => Ok(Value::str(b.name)),
            Value::Method(m) if &*name.as_str() == "__self__" => Ok(m.0.clone()),
            Value::Method(m) if &*name.as_str() == "__func__" => Ok(m.1.clone()),
            Value::Method(m) => self.get_attr(&m.1, name),
            _ => {
                if let Some((f, n)) = crate::lang::builtins::method(obj, &name.as_str()) {
                    return Ok(Value::Builtin(Rc::new(Builtin {
                        name: n,
                        f,
                        this: Some(obj.clone()),
                    })));
                }
                if let Some(v) = crate::lang::builtins::value_attr(self, obj, &name.as_str()) {
                    return Ok(v);
                }
                // The type's own slots: `[].__len__`, `(1, 2).__hash__`, `{}.fromkeys`.
                if let Value::Class(c) = crate::lang::builtins::type_of(self, obj) {
                    if let (Some(BuiltinClass::Type(_)), Some(v)) = (c.builtin, c.lookup(name)) {
                        let class_method = matches!(&v, Value::Native(n)
                            if n.as_any().is::<descriptors::ClassMethod>());
                        return Ok(if class_method {
                            descriptors::through_class(v, &Value::Class(c))
                        } else {
                            self.bind_class_attr(v, obj)
                        });
                    }
                }
                Err(self.no_attr(obj, name))
            }
        }
    }

    fn no_attr(&self, obj: &Value, name: Sym) -> PyErr {
        let space = match &*obj.type_name() {
            "Tensor" | "Parameter" => "torch.Tensor".to_string(),
            t => format!("builtins.{t}"),
        };
        if let Some(e) = crate::lang::modules::names::missing(&space, &name.as_str()) {
            return e;
        }
        let mut e = attr_error(format!(
            "'{}' object has no attribute '{}'",
            obj.tp_name(),
            name
        ));
        e.0.missing_name = Some(name.as_str());
        e.0.candidates = Some(self.dir(obj));
        e
    }

    /// `get_attr` with an attribute expression's inline cache: an instance's own attribute
    /// found at the hinted index of its dict is read without hashing.
    #[inline(always)]
    pub(crate) fn get_attr_hinted(
        &mut self,
        obj: &Value,
        name: Sym,
        hint: &AttrHint,
    ) -> PyResult<Value> {
        // The hit, inline at each site; the rest in a function of its own.
        if let Value::Instance(i) = obj {
            if let Ok(d) = i.dict.try_borrow() {
                if let Some((k, v)) = d.get_index(hint.get() as usize) {
                    if *k == name {
                        return Ok(v.dup());
                    }
                }
            }
        }
        self.get_attr_hinted_slow(obj, name, hint)
    }

    #[inline(never)]
    fn get_attr_hinted_slow(&mut self, obj: &Value, name: Sym, hint: &AttrHint) -> PyResult<Value> {
        if let Value::Instance(i) = obj {
            let d = i.dict.borrow();
            // The site's older index (an instance of another layout), still without hashing.
            if let Some((k, v)) = d.get_index(hint.older() as usize) {
                if *k == name {
                    return Ok(v.dup());
                }
            }
            if let Some((at, _, v)) = d.get_full(&name) {
                hint.set(at as u32);
                return Ok(v.dup());
            }
        }
        self.get_attr(obj, name)
    }

    /// `set_attr` with an attribute expression's inline cache (see `get_attr_hinted`): the
    /// hit inline at each site, the rest in a function of its own.
    #[inline(always)]
    pub(crate) fn set_attr_hinted(
        &mut self,
        obj: &Value,
        name: Sym,
        v: Value,
        hint: &AttrHint,
    ) -> PyResult<()> {
        if let Value::Instance(i) = obj {
            if !i.class.has_setattr() {
                if let Ok(mut d) = i.dict.try_borrow_mut() {
                    if let Some((k, slot)) = d.get_index_mut(hint.get() as usize) {
                        if *k == name {
                            let old = std::mem::replace(slot, v);
                            drop(d);
                            drop(old);
                            return Ok(());
                        }
                    }
                }
            }
        }
        self.set_attr_hinted_slow(obj, name, v, hint)
    }

    #[inline(never)]
    fn set_attr_hinted_slow(
        &mut self,
        obj: &Value,
        name: Sym,
        v: Value,
        hint: &AttrHint,
    ) -> PyResult<()> {
        if let Value::Instance(i) = obj {
            if !i.class.has_setattr() {
                let mut d = i.dict.borrow_mut();
                for at in [hint.get(), hint.older()] {
                    if let Some((k, slot)) = d.get_index_mut(at as usize) {
                        if *k == name {
                            let old = std::mem::replace(slot, v);
                            drop(d);
                            drop(old);
                            return Ok(());
                        }
                    }
                }
                let (at, old) = d.insert_full(name, v);
                hint.set(at as u32);
                drop(d);
                drop(old);
                return Ok(());
            }
        }
        self.set_attr(obj, name, v)
    }

    pub fn set_attr(&mut self, obj: &Value, name: Sym, v: Value) -> PyResult<()> {
        match obj {
            Value::Instance(i) => {
                // `has_setattr`: a `__setattr__` or a property somewhere in the class.
                if i.class.has_setattr() {
                    if let Some(setattr) = i.class.lookup(crate::lang::symbol::dunder::SETATTR) {
                        self.call_bound(
                            &setattr,
                            obj.clone(),
                            Args::of([Value::Str(name.as_str()), v]),
                        )?;
                        return Ok(());
                    }
                    if self.property_store(obj, name, Some(v.clone()))? {
                        return Ok(());
                    }
                    super::slots::check_store(&i.class, name)?;
                }
                i.dict.borrow_mut().insert(name, v);
                Ok(())
            }
            Value::Class(c) if c.builtin.is_none() => {
                c.dict.borrow_mut().insert(name, v);
                class_changed();
                Ok(())
            }
            Value::Class(c) => Err(type_error(format!(
                "cannot set '{name}' attribute of immutable type '{}'",
                c.name
            ))),
            Value::Module(m) => {
                m.attrs.borrow_mut().insert(name, v);
                Ok(())
            }
            Value::Func(f) => {
                f.attrs.borrow_mut().insert(name, v);
                Ok(())
            }
            Value::Native(n) => {
                if n.clone().set_attr(name, v, self)? {
                    Ok(())
                } else {
                    Err(attr_error(format!(
                        "'{}' object has no attribute '{}'",
                        obj.tp_name(),
                        name
                    )))
                }
            }
            _ => {
                let has = crate::lang::builtins::method(obj, &name.as_str()).is_some();
                Err(attr_error(if has {
                    format!(
                        "'{}' object attribute '{}' is read-only",
                        obj.type_name(),
                        name
                    )
                } else {
                    format!("'{}' object has no attribute '{}'", obj.type_name(), name)
                }))
            }
        }
    }

    pub fn del_attr(&mut self, obj: &Value, name: Sym) -> PyResult<()> {
        if let Value::Instance(i) = obj {
            if let Some(delattr) = i.class.lookup(crate::lang::symbol::dunder::DELATTR) {
                self.call_bound(&delattr, obj.clone(), Args::of([Value::Str(name.as_str())]))?;
                return Ok(());
            }
            if self.property_store(obj, name, None)? {
                return Ok(());
            }
        }
        let removed = match obj {
            Value::Instance(i) => i.dict.borrow_mut().shift_remove(&name).is_some(),
            Value::Class(c) if c.builtin.is_none() => {
                class_changed();
                c.dict.borrow_mut().shift_remove(&name).is_some()
            }
            Value::Module(m) => m.attrs.borrow_mut().shift_remove(&name).is_some(),
            _ => false,
        };
        match obj {
            _ if removed => Ok(()),
            // an empty slot's descriptor says only the name
            Value::Instance(i) if super::slots::is_slot(&i.class, name) => {
                Err(attr_error(name.as_str().to_string()))
            }
            _ => Err(self.no_attr(obj, name)),
        }
    }

    /// `dir(obj)`: sorted attribute names (also the candidates of "Did you mean").
    pub fn dir(&self, obj: &Value) -> Vec<PyStr> {
        let mut names: Vec<PyStr> = Vec::new();
        match obj {
            Value::Instance(i) => {
                names.extend(i.dict.borrow().keys().map(|k| k.as_str()));
                for c in i.class.mro.borrow().iter() {
                    names.extend(c.dict.borrow().keys().map(|k| k.as_str()));
                }
                names.extend(OBJECT_DUNDERS.iter().map(|s| PyStr::from(*s)));
                if let Some(b) = &i.base {
                    let methods = crate::lang::builtins::method_names(b);
                    names.extend(methods.iter().map(|s| PyStr::from(*s)));
                }
            }
            Value::Class(c) => {
                for c in c.mro.borrow().iter() {
                    names.extend(c.dict.borrow().keys().map(|k| k.as_str()));
                }
                names.extend(OBJECT_DUNDERS.iter().map(|s| PyStr::from(*s)));
            }
            Value::Module(m) => {
                names.extend(m.attrs.borrow().keys().map(|k| k.as_str()));
                names.extend(crate::lang::modules::submodule_names(&m.name));
            }
            Value::Native(n) => names.extend(n.attr_names()),
            other => names.extend(
                crate::lang::builtins::method_names(other)
                    .iter()
                    .map(|s| PyStr::from(*s)),
            ),
        }
        names.sort();
        names.dedup();
        names
    }
}

fn module_attr(m: &Module, name: Sym) -> Option<Value> {
    m.attrs.borrow().get(&name).cloned()
}

pub type NativeCtor = fn(&mut Interp, &Rc<Class>, Args) -> PyResult<Value>;

/// A Rust-implemented class usable as a base class (`class Net(nn.Module)`).
pub struct NativeBase {
    pub class: Rc<Class>,
}

const OBJECT_DUNDERS: &[&str] = &[
    "__class__",
    "__delattr__",
    "__dict__",
    "__dir__",
    "__doc__",
    "__eq__",
    "__format__",
    "__ge__",
    "__getattribute__",
    "__gt__",
    "__hash__",
    "__init__",
    "__init_subclass__",
    "__le__",
    "__lt__",
    "__module__",
    "__ne__",
    "__new__",
    "__reduce__",
    "__reduce_ex__",
    "__repr__",
    "__setattr__",
    "__sizeof__",
    "__str__",
    "__subclasshook__",
    "__weakref__",
];

/// A class's namespace in the lists of real names (`builtins.str`, `torch.Tensor`, ...).
fn names_space(qualified: &str) -> &str {
    match qualified {
        "torch.nn.parameter.Parameter" | "torch._tensor.Tensor" => "torch.Tensor",
        q => q,
    }
}

fn func_doc(f: &Function) -> Value {
    docstring(&f.def.body)
}

/// The docstring of a body: its first statement when that is a string literal.
fn docstring(body: &[crate::lang::ast::Stmt]) -> Value {
    if let Some(first) = body.first() {
        if let crate::lang::ast::StmtKind::Expr(e) = &first.kind {
            if let crate::lang::ast::ExprKind::Str(s) = &e.kind {
                return Value::Str(s.clone());
            }
        }
    }
    Value::None
}

fn sample_of(tag: TypeTag) -> Option<Value> {
    Some(match tag {
        TypeTag::Str => Value::str(""),
        TypeTag::List => Value::list(Vec::new()),
        TypeTag::Tuple => Value::tuple(Vec::new()),
        TypeTag::Dict => Value::Dict(Default::default()),
        TypeTag::Set => Value::Set(Default::default()),
        TypeTag::FrozenSet => Value::FrozenSet(Default::default()),
        TypeTag::Int => Value::Int(0),
        TypeTag::Float => Value::float(0.0),
        _ => return None,
    })
}

/// `str.lower` looked up on the class: calling it takes the object as first argument.
struct UnboundMethod {
    f: NativeFn,
    name: &'static str,
    owner: PyStr,
}

impl Native for UnboundMethod {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "method_descriptor"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!(
            "<method '{}' of '{}' objects>",
            self.name, self.owner
        ))
    }
    fn call(&self, _this: &Value, mut args: Args, interp: &mut Interp) -> PyResult<Value> {
        if args.pos.is_empty() {
            return Err(type_error(format!(
                "unbound method {}.{}() needs an argument",
                self.owner, self.name
            )));
        }
        let mut this = args.pos.remove(0);
        // `list.append(self, x)` on a list subclass acts on the list it carries.
        if let Value::Instance(i) = &this {
            if let Some(b) = &i.base {
                if b.type_name() == self.owner {
                    this = b.clone();
                }
            }
        }
        if this.type_name() != self.owner
            && !(&*self.owner == "int" && matches!(this, Value::Bool(_)))
        {
            return Err(type_error(format!(
                "descriptor '{}' for '{}' objects doesn't apply to a '{}' object",
                self.name,
                self.owner,
                this.type_name()
            )));
        }
        (self.f)(interp, &this, args)
    }
}

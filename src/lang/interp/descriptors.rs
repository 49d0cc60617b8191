//! `property`, `staticmethod` and `classmethod`: the descriptors a class body makes. Reading
//! one through an instance or a class goes through `Interp::class_attr_get` and
//! `bind_class_attr`; stores and deletes through a property are in `set_attr`/`del_attr`.
use super::Interp;
use crate::lang::error::{attr_error, type_error, PyResult};
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// `property(fget, fset, fdel, doc)`.
pub struct Property {
    pub fget: Value,
    pub fset: Value,
    pub fdel: Value,
    pub doc: Value,
    /// The name it was bound to in its class body (CPython's `__set_name__`), for messages.
    pub name: RefCell<Option<PyStr>>,
}

/// `staticmethod(f)`.
pub struct StaticMethod(pub Value);

/// `classmethod(f)`.
pub struct ClassMethod(pub Value);

impl Property {
    /// `property 'x' of 'C' object has no setter`.
    fn missing(&self, obj: &Value, what: &str) -> crate::lang::error::PyErr {
        let name = match &*self.name.borrow() {
            Some(n) => format!(" '{n}'"),
            None => String::new(),
        };
        attr_error(format!(
            "property{name} of '{}' object has no {what}",
            obj.type_name()
        ))
    }

    fn copy(&self, fget: Value, fset: Value, fdel: Value) -> Value {
        Value::Native(NativeRc::new(Property {
            fget,
            fset,
            fdel,
            doc: self.doc.clone(),
            name: RefCell::new(self.name.borrow().clone()),
        }))
    }
}

fn as_property(v: &Value) -> Option<&Property> {
    match v {
        Value::Native(n) => n.as_any().downcast_ref::<Property>(),
        _ => None,
    }
}

fn none_if_missing(v: Option<&Value>) -> Value {
    v.cloned().unwrap_or(Value::None)
}

/// `property(fget=None, fset=None, fdel=None, doc=None)`.
pub(crate) fn make_property(_i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    if a.pos.len() > 4 {
        return Err(type_error(format!(
            "property() takes at most 4 arguments ({} given)",
            a.pos.len()
        )));
    }
    let mut slots = [
        none_if_missing(a.pos.first()),
        none_if_missing(a.pos.get(1)),
        none_if_missing(a.pos.get(2)),
        none_if_missing(a.pos.get(3)),
    ];
    const NAMES: [&str; 4] = ["fget", "fset", "fdel", "doc"];
    for (k, v) in a.kw {
        let Some(at) = NAMES.iter().position(|n| *n == &*k.as_str()) else {
            return Err(type_error(format!(
                "'{k}' is an invalid keyword argument for property()"
            )));
        };
        if at < a.pos.len() {
            return Err(type_error(format!(
                "argument for property() given by name ('{k}') and position ({})",
                at + 1
            )));
        }
        slots[at] = v;
    }
    let [fget, fset, fdel, doc] = slots;
    Ok(Value::Native(NativeRc::new(Property {
        fget,
        fset,
        fdel,
        doc,
        name: RefCell::new(None),
    })))
}

fn one_arg(name: &str, a: &Args) -> PyResult<Value> {
    if !a.kw.is_empty() {
        return Err(type_error(format!("{name}() takes no keyword arguments")));
    }
    if a.pos.len() != 1 {
        return Err(type_error(format!(
            "{name} expected 1 argument, got {}",
            a.pos.len()
        )));
    }
    Ok(a.pos[0].clone())
}

pub(crate) fn make_staticmethod(_i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let f = one_arg("staticmethod", &a)?;
    Ok(Value::Native(NativeRc::new(StaticMethod(f))))
}

pub(crate) fn make_classmethod(_i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let f = one_arg("classmethod", &a)?;
    Ok(Value::Native(NativeRc::new(ClassMethod(f))))
}

/// `prop.getter(f)`, `prop.setter(f)`, `prop.deleter(f)`: a copy with that function replaced.
fn prop_method(which: usize) -> NativeFn {
    fn run(which: usize, this: &Value, a: Args) -> PyResult<Value> {
        let name = ["getter", "setter", "deleter"][which];
        let f = one_arg(name, &a).map_err(|_| {
            type_error(format!(
                "property.{name}() takes exactly one argument ({} given)",
                a.pos.len()
            ))
        })?;
        let Some(p) = as_property(this) else {
            return Err(type_error(format!(
                "descriptor '{name}' requires a 'property' object"
            )));
        };
        Ok(match which {
            0 => p.copy(f, p.fset.clone(), p.fdel.clone()),
            1 => p.copy(p.fget.clone(), f, p.fdel.clone()),
            _ => p.copy(p.fget.clone(), p.fset.clone(), f),
        })
    }
    match which {
        0 => |_, this, a| run(0, this, a),
        1 => |_, this, a| run(1, this, a),
        _ => |_, this, a| run(2, this, a),
    }
}

impl Native for Property {
    fn type_name(&self) -> &str {
        "property"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok("<property object>".to_string())
    }
    fn get_attr(&self, this: &Value, name: Sym, interp: &mut Interp) -> PyResult<Option<Value>> {
        let which = match &*name.as_str() {
            "fget" => return Ok(Some(self.fget.clone())),
            "fset" => return Ok(Some(self.fset.clone())),
            "fdel" => return Ok(Some(self.fdel.clone())),
            "__doc__" => {
                if matches!(self.doc, Value::None) && !matches!(self.fget, Value::None) {
                    let fget = self.fget.clone();
                    return Ok(Some(
                        interp
                            .get_attr(&fget, Sym::new("__doc__"))
                            .unwrap_or(Value::None),
                    ));
                }
                return Ok(Some(self.doc.clone()));
            }
            "getter" => 0,
            "setter" => 1,
            "deleter" => 2,
            _ => return Ok(None),
        };
        Ok(Some(Value::Builtin(Rc::new(Builtin {
            name: ["getter", "setter", "deleter"][which],
            f: prop_method(which),
            this: Some(this.clone()),
        }))))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        ["deleter", "fdel", "fget", "fset", "getter", "setter"]
            .iter()
            .map(|s| PyStr::from(*s))
            .collect()
    }
}

impl Native for StaticMethod {
    fn type_name(&self) -> &str {
        "staticmethod"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, i: &mut Interp) -> PyResult<String> {
        Ok(format!("<staticmethod({})>", i.repr(&self.0)?))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "__func__" | "__wrapped__" => Some(self.0.clone()),
            _ => None,
        })
    }
    fn callable(&self) -> bool {
        true
    }
    fn call(&self, _this: &Value, args: Args, interp: &mut Interp) -> PyResult<Value> {
        interp.call(&self.0, args)
    }
}

impl Native for ClassMethod {
    fn type_name(&self) -> &str {
        "classmethod"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, i: &mut Interp) -> PyResult<String> {
        Ok(format!("<classmethod({})>", i.repr(&self.0)?))
    }
    fn get_attr(&self, _this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "__func__" | "__wrapped__" => Some(self.0.clone()),
            _ => None,
        })
    }
}

/// What a descriptor in a class dict gives when read through the class itself (`C.f`):
/// a static method's function, a class method bound to `cls`; anything else as it is.
pub(crate) fn through_class(v: Value, cls: &Value) -> Value {
    if let Value::Native(n) = &v {
        let any = n.as_any();
        if let Some(s) = any.downcast_ref::<StaticMethod>() {
            return s.0.clone();
        }
        if let Some(c) = any.downcast_ref::<ClassMethod>() {
            return Value::Method(Rc::new((cls.clone(), c.0.clone())));
        }
    }
    v
}

/// A static or class method read through an instance (`None` when `v` is neither).
pub(crate) fn through_instance(v: &Value, this: &Value) -> Option<Value> {
    let Value::Native(n) = v else {
        return None;
    };
    let any = n.as_any();
    if let Some(s) = any.downcast_ref::<StaticMethod>() {
        return Some(s.0.clone());
    }
    if let Some(c) = any.downcast_ref::<ClassMethod>() {
        let cls = match this {
            Value::Instance(i) => Value::Class(i.class.clone()),
            Value::Class(_) => this.clone(),
            _ => this.clone(),
        };
        return Some(Value::Method(Rc::new((cls, c.0.clone()))));
    }
    None
}

/// At class creation: functions learn their class (for `super()`), including those inside
/// descriptors, and properties learn the name they were bound to.
pub(crate) fn set_owner(name: Sym, v: &Value, class: &Rc<Class>) {
    let own = |f: &Value| {
        if let Value::Func(func) = f {
            *func.class.borrow_mut() = Some(Rc::downgrade(class));
        }
    };
    match v {
        Value::Func(_) => own(v),
        Value::Native(n) => {
            let any = n.as_any();
            if let Some(s) = any.downcast_ref::<StaticMethod>() {
                own(&s.0);
            } else if let Some(c) = any.downcast_ref::<ClassMethod>() {
                own(&c.0);
            } else if let Some(p) = any.downcast_ref::<Property>() {
                own(&p.fget);
                own(&p.fset);
                own(&p.fdel);
                if p.name.borrow().is_none() {
                    *p.name.borrow_mut() = Some(name.as_str());
                }
            }
        }
        _ => {}
    }
}

/// Whether a class dict holds a property (its instances' stores then take the slow path).
pub(crate) fn has_property(dict: &AttrMap) -> bool {
    dict.values().any(|v| as_property(v).is_some())
}

impl Interp {
    /// A class attribute read through instance `obj`: a property runs its getter (an
    /// AttributeError from it falls back to the class's `__getattr__`, as in CPython);
    /// functions and class methods bind.
    pub(crate) fn class_attr_get(&mut self, v: Value, obj: &Value) -> PyResult<Value> {
        if let Some(p) = as_property(&v) {
            if matches!(p.fget, Value::None) {
                return Err(p.missing(obj, "getter"));
            }
            let fget = p.fget.clone();
            let r = self.call(&fget, Args::of([obj.clone()]));
            if let (Err(e), Value::Instance(i)) = (&r, obj) {
                if e.is(crate::lang::error::ExcKind::AttributeError) {
                    if let Some(getattr) = i.class.lookup(crate::lang::symbol::dunder::GETATTR) {
                        let name = p.name.borrow().clone();
                        if let Some(name) = name {
                            return self.call_bound(
                                &getattr,
                                obj.clone(),
                                Args::of([Value::Str(name)]),
                            );
                        }
                    }
                }
            }
            return r;
        }
        Ok(self.bind_class_attr(v, obj))
    }

    /// `obj.name = v` or `del obj.name` (`v` is `None`) when the class has a property of that
    /// name: runs its setter or deleter. `Ok(false)`: no property there.
    pub(crate) fn property_store(
        &mut self,
        obj: &Value,
        name: Sym,
        v: Option<Value>,
    ) -> PyResult<bool> {
        let Value::Instance(i) = obj else {
            return Ok(false);
        };
        let Some(attr) = i.class.lookup(name) else {
            return Ok(false);
        };
        let Some(p) = as_property(&attr) else {
            return Ok(false);
        };
        match v {
            Some(v) => {
                if matches!(p.fset, Value::None) {
                    return Err(p.missing(obj, "setter"));
                }
                let fset = p.fset.clone();
                self.call(&fset, Args::of([obj.clone(), v]))?;
            }
            None => {
                if matches!(p.fdel, Value::None) {
                    return Err(p.missing(obj, "deleter"));
                }
                let fdel = p.fdel.clone();
                self.call(&fdel, Args::of([obj.clone()]))?;
            }
        }
        Ok(true)
    }
}

/// The builtins `property`, `staticmethod` and `classmethod`: callable as constructors,
/// shown as classes, and usable with `isinstance`.
pub struct DescriptorType {
    pub name: &'static str,
    pub ctor: NativeFn,
}

impl Native for DescriptorType {
    fn type_name(&self) -> &str {
        "type"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!("<class '{}'>", self.name))
    }
    fn callable(&self) -> bool {
        true
    }
    fn call(&self, this: &Value, args: Args, interp: &mut Interp) -> PyResult<Value> {
        (self.ctor)(interp, this, args)
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(match &*name.as_str() {
            "__name__" | "__qualname__" => Some(Value::str(self.name)),
            "__module__" => Some(Value::str("builtins")),
            "__instancecheck__" => Some(Value::Builtin(Rc::new(Builtin {
                name: "__instancecheck__",
                f: |_, this, a| {
                    let name = match this {
                        Value::Native(n) => n
                            .as_any()
                            .downcast_ref::<DescriptorType>()
                            .map_or("", |d| d.name),
                        _ => "",
                    };
                    Ok(Value::bool(matches!(
                        a.pos.first(),
                        Some(v @ Value::Native(_)) if &*v.type_name() == name
                    )))
                },
                this: Some(this.clone()),
            }))),
            _ => None,
        })
    }
}

/// The three builtins, by name.
pub fn descriptor_types() -> [(&'static str, Value); 3] {
    let t = |name, ctor| {
        (
            name,
            Value::Native(NativeRc::new(DescriptorType { name, ctor }) as NativeRc),
        )
    };
    [
        t("property", make_property as NativeFn),
        t("staticmethod", make_staticmethod as NativeFn),
        t("classmethod", make_classmethod as NativeFn),
    ]
}

//! Calling: argument binding with Python's messages, user functions, methods.
use super::stmt::Flow;
use super::{Frame, Interp, RECURSION_LIMIT};
use crate::lang::ast::{AttrHint, HintKey, NativeHint, ParamKind};
use crate::lang::error::{type_error, ExcKind, PyErr, PyResult};
use crate::lang::methods::fast_method;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

/// A method found for `obj.name(...)`, not yet called.
pub enum Looked {
    /// A Python function to call with `this` first.
    Func(Rc<Function>, Value),
    /// A builtin method of a builtin type.
    Native(NativeFn, Value, &'static str),
    /// Any other callable.
    Value(Value),
}

/// Whose methods `obj.name(...)` finds by type and name, the same for every value of the
/// type: a builtin type's (`methods.rs`, by the value's variant) or a native object type's
/// (`Native::method`, by its Rust type). `None` for instances and the rest.
#[inline(always)]
fn method_owner(v: &Value) -> Option<HintKey> {
    match v {
        Value::Str(_)
        | Value::List(_)
        | Value::Dict(_)
        | Value::Set(_)
        | Value::FrozenSet(_)
        | Value::Tuple(_)
        | Value::Int(_)
        | Value::Float(_) => Some(HintKey::Variant(std::mem::discriminant(v))),
        Value::Native(o) => Some(HintKey::Native(o.as_any().type_id())),
        _ => None,
    }
}

/// The builtin method this call site found last time, when `obj` is of the same type.
#[inline(always)]
pub(crate) fn cached_native(obj: &Value, hint: &AttrHint) -> Option<NativeHint> {
    let h = hint.native.get()?;
    (method_owner(obj)? == h.key).then_some(h)
}

/// The function this call site's cache gives for `i.name(...)`: the one `i`'s class gave
/// last time, while no class namespace has changed and `i`'s own dict lacks the name.
#[inline(always)]
pub(crate) fn cached_method(i: &Instance, name: Sym, hint: &AttrHint) -> Option<Rc<Function>> {
    if has_key(&i.dict.borrow(), name) {
        return None;
    }
    let epoch = class_epoch();
    hint.method.borrow().iter().flatten().find_map(|m| {
        (std::rc::Weak::as_ptr(&m.class) == Rc::as_ptr(&i.class) && m.epoch == epoch)
            .then(|| m.func.upgrade())
            .flatten()
    })
}

/// Whether an instance's dict holds `name`: a few keys (the usual instance) are compared in
/// turn, which costs less than hashing the name to probe the table.
#[inline(always)]
fn has_key(d: &AttrMap, name: Sym) -> bool {
    if d.len() <= 8 {
        d.keys().any(|&k| k == name)
    } else {
        d.contains_key(&name)
    }
}

pub fn bind_error(msg: String) -> PyErr {
    type_error(msg)
}

impl Interp {
    pub fn call(&mut self, f: &Value, args: Args) -> PyResult<Value> {
        match f {
            Value::Func(func) => self.call_function(func, None, args),
            Value::Builtin(b) => {
                self.call_native(b.f, b.this.as_ref().unwrap_or(&Value::None), args)
            }
            Value::Method(m) => {
                let (this, func) = (&m.0, &m.1);
                match func {
                    Value::Func(func) => self.call_function(func, Some(this.clone()), args),
                    other => {
                        let mut a = args;
                        a.pos.insert(0, this.clone());
                        self.call(other, a)
                    }
                }
            }
            Value::Class(c) => self.instantiate(c, args),
            Value::Instance(i) => {
                let Some(call) = i.class.lookup(crate::lang::symbol::dunder::CALL) else {
                    return Err(type_error(format!(
                        "'{}' object is not callable",
                        i.class.name
                    )));
                };
                self.call_bound(&call, f.clone(), args)
            }
            Value::Native(n) => {
                self.check_interrupt()?;
                n.clone().call(f, args, self)
            }
            other => Err(type_error(format!(
                "'{}' object is not callable",
                other.tp_name()
            ))),
        }
    }

    /// Calls a class attribute `func` as a method of `this`.
    pub fn call_bound(&mut self, func: &Value, this: Value, args: Args) -> PyResult<Value> {
        match func {
            Value::Func(f) => self.call_function(f, Some(this), args),
            Value::Builtin(b) if b.this.is_none() => (b.f)(self, &this, args),
            other => self.call(other, args),
        }
    }

    pub fn lookup_method(&mut self, obj: &Value, name: Sym) -> PyResult<Looked> {
        self.lookup_method_owned(obj.clone(), name)
    }

    /// `lookup_method_owned` at a call site `obj.name(...)` with its inline cache: an
    /// instance whose own dict lacks the name gets the function its class gave last time,
    /// while no class namespace has changed (no lookup along the MRO).
    #[inline]
    pub(crate) fn lookup_method_hinted(
        &mut self,
        obj: Value,
        name: Sym,
        hint: &AttrHint,
    ) -> PyResult<Looked> {
        if let Value::Instance(i) = &obj {
            if let Some(func) = cached_method(i, name, hint) {
                return Ok(Looked::Func(func, obj));
            }
            if !has_key(&i.dict.borrow(), name) {
                let epoch = class_epoch();
                if let Some(Value::Func(func)) = i.class.lookup(name) {
                    let mut hints = hint.method.borrow_mut();
                    // The newest first; the oldest (or one of a past epoch) makes room.
                    hints.rotate_right(1);
                    hints[0] = Some(crate::lang::ast::MethodHint {
                        class: Rc::downgrade(&i.class),
                        epoch,
                        func: Rc::downgrade(&func),
                    });
                    drop(hints);
                    return Ok(Looked::Func(func, obj));
                }
            }
            return self.lookup_method_owned(obj, name);
        }
        // A builtin type's method, or a native type's (`x.sum()` on a tensor): the one this
        // call site found for the same type.
        let Some(key) = method_owner(&obj) else {
            return self.lookup_method_owned(obj, name);
        };
        if let Some(h) = hint.native.get().filter(|h| h.key == key) {
            return Ok(Looked::Native(h.f, obj, h.name));
        }
        let m = self.lookup_method_owned(obj, name)?;
        if let Looked::Native(f, o, name) = &m {
            let fast = fast_method(o, name);
            hint.native.set(Some(NativeHint {
                key,
                f: *f,
                fast,
                name,
            }));
        }
        Ok(m)
    }

    /// `lookup_method` taking the object, which becomes the method's `self` without another
    /// reference-count round trip.
    pub fn lookup_method_owned(&mut self, obj: Value, name: Sym) -> PyResult<Looked> {
        if let Value::Instance(i) = &obj {
            if let Some(v) = i.dict.borrow().get(&name) {
                return Ok(Looked::Value(v.clone()));
            }
            return match i.class.lookup(name) {
                Some(Value::Func(f)) => Ok(Looked::Func(f, obj)),
                Some(Value::Builtin(b)) if b.this.is_none() => Ok(Looked::Native(b.f, obj, b.name)),
                Some(other) => Ok(Looked::Value(self.class_attr_get(other, &obj)?)),
                None => Ok(Looked::Value(self.get_attr(&obj, name)?)),
            };
        }
        let Some(owner) = method_owner(&obj) else {
            return Ok(Looked::Value(self.get_attr(&obj, name)?));
        };
        // A builtin type's method, or a native type's (`torch.add(x, y)` runs `x.add(y)`): called
        // with the object as its `self`, no bound method made. Cached by type and name, since
        // finding one matches the name's text.
        let found = match self.method_cache.get(&(owner, name)) {
            Some(m) => *m,
            None => {
                let m = match &obj {
                    Value::Native(o) => o.method(name),
                    _ => crate::lang::builtins::method(&obj, &name.as_str()),
                };
                self.method_cache.insert((owner, name), m);
                m
            }
        };
        match found {
            Some((f, n)) => Ok(Looked::Native(f, obj, n)),
            None => Ok(Looked::Value(self.get_attr(&obj, name)?)),
        }
    }

    pub fn call_looked_up(&mut self, m: Looked, args: Args) -> PyResult<Value> {
        match m {
            Looked::Func(f, this) => self.call_function(&f, Some(this), args),
            Looked::Native(f, this, _) => self.call_native(f, &this, args),
            Looked::Value(v) => self.call(&v, args),
        }
    }

    pub fn call_method(&mut self, obj: &Value, name: &str, args: Args) -> PyResult<Value> {
        let m = self.lookup_method(obj, Sym::new(name))?;
        self.call_looked_up(m, args)
    }

    /// Calls a Python function: binds arguments to slots, runs the body in a new frame.
    pub fn call_function(
        &mut self,
        func: &Rc<Function>,
        this: Option<Value>,
        args: Args,
    ) -> PyResult<Value> {
        self.tick()?;
        let nslots = func.def.info.local_names.len();
        let slots = if func.simple && args.kw.is_empty() {
            let mut slots = self.new_slots(nslots);
            slots.extend(this.map(Some));
            slots.extend(args.pos.into_iter().map(Some));
            match self.fill_simple(func, slots) {
                Ok(slots) => slots,
                // Too many or missing arguments: bind again for Python's message.
                Err(given) => {
                    let pos: ArgVec = given.into_iter().flatten().collect();
                    let mut slots = vec![None; nslots];
                    self.bind_args(func, None, Args::new(pos), &mut slots)?;
                    slots
                }
            }
        } else {
            // (From the pool, as the simple path's: keyword calls are common in torch.nn.)
            let mut slots = self.new_slots(nslots);
            slots.resize(nslots, None);
            self.bind_args(func, this, args, &mut slots)?;
            slots
        };
        self.run_function(func, slots)
    }

    /// An empty slot vector for a frame, reused from a finished call when there is one
    /// (saves an allocation and a free per call).
    #[inline(always)]
    pub(crate) fn new_slots(&mut self, cap: usize) -> Vec<Option<Value>> {
        match self.slot_pool.pop() {
            Some(mut v) => {
                v.reserve(cap);
                v
            }
            None => Vec::with_capacity(cap),
        }
    }

    #[inline]
    pub(crate) fn free_slots(&mut self, mut slots: Vec<Option<Value>>) {
        super::slot_stack::empty(&mut slots);
        // SAFETY: every slot is empty now, so leaving them undropped leaks nothing.
        unsafe { slots.set_len(0) };
        if self.slot_pool.len() < 64 && slots.capacity() <= 256 {
            self.slot_pool.push(slots);
        }
    }

    /// Calls a `simple` function with its positional arguments already in slot order.
    /// (Inlined at its call sites: one call level less on every Python call.)
    #[inline(always)]
    pub(crate) fn call_slots(
        &mut self,
        func: &Rc<Function>,
        mut given: Vec<Option<Value>>,
    ) -> PyResult<Value> {
        self.tick()?;
        // Every parameter given (the common case): the other locals start empty.
        if given.len() == func.def.params.len() {
            for _ in given.len()..func.def.info.local_names.len() {
                given.push(None);
            }
            return self.run_function(func, given);
        }
        self.call_slots_partial(func, given)
    }

    /// `call_slots` when some parameters were left out (defaults), or too many given.
    #[inline(never)]
    fn call_slots_partial(
        &mut self,
        func: &Rc<Function>,
        given: Vec<Option<Value>>,
    ) -> PyResult<Value> {
        match self.fill_simple(func, given) {
            Ok(slots) => self.run_function(func, slots),
            Err(given) => {
                let pos: ArgVec = given.into_iter().flatten().collect();
                let mut slots = vec![None; func.def.info.local_names.len()];
                self.bind_args(func, None, Args::new(pos), &mut slots)?;
                self.run_function(func, slots)
            }
        }
    }

    /// Completes the slots of a `simple` function given its leading positional arguments:
    /// defaults, then empty locals. Gives the arguments back when they do not fit.
    #[inline]
    pub(crate) fn fill_simple(
        &self,
        func: &Function,
        mut slots: Vec<Option<Value>>,
    ) -> Result<Vec<Option<Value>>, Vec<Option<Value>>> {
        let nparams = func.def.params.len();
        let given = slots.len();
        if given != nparams {
            if given > nparams || func.defaults[given..].iter().any(|d| d.is_none()) {
                return Err(slots);
            }
            slots.extend(func.defaults[given..].iter().cloned());
        }
        // (Usually a few locals: pushes into the reserved room, no call.)
        for _ in nparams..func.def.info.local_names.len() {
            slots.push(None);
        }
        Ok(slots)
    }

    /// Runs a function's body in a new frame whose parameters are already bound, in slots
    /// of its own (given back to the pool after).
    pub(crate) fn run_function(
        &mut self,
        func: &Rc<Function>,
        mut slots: Vec<Option<Value>>,
    ) -> PyResult<Value> {
        let r = self.run_frame(func, &mut slots);
        self.free_slots(slots);
        r
    }

    /// Runs a function's body in a new frame over `slots`, its parameters already bound.
    /// The caller empties the slots after.
    #[inline(always)]
    pub(crate) fn run_frame(
        &mut self,
        func: &Rc<Function>,
        slots: &mut [Option<Value>],
    ) -> PyResult<Value> {
        let def = &func.def;
        let info = &def.info;
        if !info.cellvars.is_empty() || !func.closure.is_empty() {
            let nlocals = info.local_names.len() - info.freevars.len();
            for &c in &info.cellvars {
                let cur = slots[c as usize].take();
                slots[c as usize] = Some(Value::Cell(Rc::new(RefCell::new(cur))));
            }
            for (i, cell) in func.closure.iter().enumerate() {
                slots[nlocals + i] = Some(Value::Cell(cell.clone()));
            }
        }
        if info.is_generator {
            // (The generator keeps its locals between steps: they move into a `Vec` of its own.)
            return self.make_generator(func, slots.iter_mut().map(Option::take).collect());
        }
        let mut frame = Frame::call(func, slots);
        self.depth += 1;
        if self.depth > RECURSION_LIMIT
            || (self.stack_floor != 0 && super::generator::stack_pointer() < self.stack_floor)
        {
            self.depth -= 1;
            return Err(PyErr::new(
                ExcKind::RecursionError,
                "maximum recursion depth exceeded",
            ));
        }
        // A function of another module (torch.nn's, or the program's called back from it)
        // runs with that module's globals.
        let body = def.compiled.body(def);
        let r = if Rc::ptr_eq(&func.globals, &self.active_globals) {
            super::compile::run_block(body, self, &mut frame)
        } else {
            let prev = self.switch_globals(func.globals.clone());
            let r = super::compile::run_block(body, self, &mut frame);
            self.switch_globals(prev);
            r
        };
        self.depth -= 1;
        match r {
            Ok(Flow::Return(v)) => Ok(v),
            Ok(_) => Ok(Value::None),
            Err(mut e) => {
                // The caller's frame needs its own traceback entry now.
                e.0.located = false;
                Err(e)
            }
        }
    }

    fn bind_args(
        &mut self,
        func: &Function,
        this: Option<Value>,
        args: Args,
        slots: &mut [Option<Value>],
    ) -> PyResult<()> {
        let def = &func.def;
        let params = &def.params;
        let name = &func.qualname;
        let pos = match this {
            Some(t) => std::iter::once(t).chain(args.pos).collect(),
            None => args.pos,
        };
        // Parameter positions of the plain parameters, in order (no Vec per call).
        let positional = || {
            params
                .iter()
                .enumerate()
                .filter(|(_, p)| p.kind == ParamKind::Normal)
                .map(|(i, _)| i)
        };
        let npositional = positional().count();
        let varargs = params.iter().position(|p| p.kind == ParamKind::VarArgs);
        let varkw = params.iter().position(|p| p.kind == ParamKind::VarKw);
        let npos = pos.len();
        if npos > npositional && varargs.is_none() {
            let with_default = positional().filter(|&i| func.defaults[i].is_some()).count();
            let takes = if with_default > 0 {
                format!(
                    "from {} to {} positional arguments",
                    npositional - with_default,
                    npositional
                )
            } else {
                format!(
                    "{} positional argument{}",
                    npositional,
                    if npositional == 1 { "" } else { "s" }
                )
            };
            let given_kw = args.kw.len();
            let were = if npos == 1 { "was" } else { "were" };
            let mut msg = format!("{name}() takes {takes} but {npos} {were} given");
            if given_kw > 0 {
                msg = format!(
                    "{name}() takes {takes} but {npos} positional argument{} (and {given_kw} keyword-only argument{}) were given",
                    if npos == 1 { "" } else { "s" },
                    if given_kw == 1 { "" } else { "s" }
                );
            }
            return Err(type_error(msg));
        }
        let mut extra = Vec::new();
        let mut targets = positional();
        for v in pos {
            match targets.next() {
                Some(i) => slots[i] = Some(v),
                None => extra.push(v),
            }
        }
        if let Some(i) = varargs {
            slots[i] = Some(Value::tuple(extra));
        }
        let mut kwdict = DictMap::default();
        for (k, v) in args.kw {
            match params.iter().position(|p| {
                p.name == k && matches!(p.kind, ParamKind::Normal | ParamKind::KwOnly)
            }) {
                Some(i) => {
                    if slots[i].is_some() {
                        return Err(type_error(format!(
                            "{name}() got multiple values for argument '{k}'"
                        )));
                    }
                    slots[i] = Some(v);
                }
                None => {
                    if varkw.is_some() {
                        kwdict.insert(Key(Value::Str(k.as_str())), v);
                    } else {
                        return Err(type_error(format!(
                            "{name}() got an unexpected keyword argument '{k}'"
                        )));
                    }
                }
            }
        }
        if let Some(i) = varkw {
            slots[i] = Some(Value::Dict(Rc::new(RefCell::new(kwdict))));
        }
        let mut missing_pos = Vec::new();
        let mut missing_kw = Vec::new();
        for (i, p) in params.iter().enumerate() {
            if slots[i].is_none() {
                match (&func.defaults[i], p.kind) {
                    (Some(d), _) => slots[i] = Some(d.clone()),
                    (None, ParamKind::Normal) => missing_pos.push(p.name),
                    (None, ParamKind::KwOnly) => missing_kw.push(p.name),
                    _ => {}
                }
            }
        }
        if !missing_pos.is_empty() {
            return Err(type_error(missing_msg(name, &missing_pos, "positional")));
        }
        if !missing_kw.is_empty() {
            return Err(type_error(missing_msg(name, &missing_kw, "keyword-only")));
        }
        Ok(())
    }

    /// `super()` inside a method: the class that defined the running function, and its first
    /// argument.
    pub(crate) fn zero_arg_super(&mut self, f: &Frame) -> PyResult<Value> {
        let func = f
            .func
            .as_ref()
            .ok_or_else(|| PyErr::new(ExcKind::RuntimeError, "super(): no arguments"))?;
        let class = func
            .class
            .borrow()
            .as_ref()
            .and_then(|w| w.upgrade())
            .ok_or_else(|| {
                PyErr::new(ExcKind::RuntimeError, "super(): __class__ cell not found")
            })?;
        let this = match f.slots.first() {
            Some(Some(Value::Cell(c))) => c.borrow().clone(),
            Some(Some(Value::StrBuf(b))) => Some(Value::from(b.as_str())),
            Some(Some(v)) => Some(v.clone()),
            _ => None,
        }
        .ok_or_else(|| PyErr::new(ExcKind::RuntimeError, "super(): no arguments"))?;
        Ok(self.make_super(class, this))
    }

    /// `locals()`: a new dict of the frame's bound names (a function's locals, cells and
    /// free variables in slot order; a class body's namespace; the module's globals).
    pub(crate) fn frame_locals(&self, f: &Frame) -> Value {
        if let Some(ns) = &f.class_ns {
            return names_dict(ns.borrow().iter());
        }
        let Some(func) = f.func else {
            return self.globals_dict();
        };
        let bound: Vec<(Sym, Value)> = func
            .def
            .info
            .local_names
            .iter()
            .zip(f.slots.iter())
            .filter_map(|(name, slot)| {
                let v = match slot {
                    Some(Value::Cell(c)) => c.borrow().clone(),
                    Some(Value::StrBuf(b)) => Some(Value::from(b.as_str())),
                    other => other.clone(),
                };
                Some((*name, v?))
            })
            .collect();
        names_dict(bound.iter().map(|(k, v)| (k, v)))
    }

    /// `globals()`: a new dict of the module's names.
    pub(crate) fn globals_dict(&self) -> Value {
        let names = self.global_names();
        names_dict(names.iter().filter_map(|s| Some((s, self.get_global(*s)?))))
    }
}

fn missing_msg(name: &str, missing: &[Sym], kind: &str) -> String {
    let quoted: Vec<String> = missing.iter().map(|s| format!("'{s}'")).collect();
    let list = match quoted.len() {
        1 => quoted[0].clone(),
        2 => format!("{} and {}", quoted[0], quoted[1]),
        n => format!("{}, and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    };
    format!(
        "{name}() missing {} required {kind} argument{}: {list}",
        missing.len(),
        if missing.len() == 1 { "" } else { "s" }
    )
}

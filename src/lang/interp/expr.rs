//! Expression evaluation.
use super::call::{cached_method, cached_native, Looked};
use super::{Frame, Interp};
use crate::lang::ast::*;
use crate::lang::error::{Anchor, ExcKind, PyErr, PyResult};
use crate::lang::lexer::Span;
use crate::lang::methods::{fast_method, FastFn};
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

impl Interp {
    /// `x`'s truth where a condition needs it (`if`, `and`, `or`): bools, ints and None
    /// without a `truthy` call (`x if c else y` too); an error from `__bool__`/`__len__` is located at `span`.
    #[inline]
    pub(crate) fn test_at(&mut self, x: &Value, f: &Frame, span: Span) -> PyResult<bool> {
        match x {
            Value::Bool(t) => Ok(t.get()),
            Value::Int(i) => Ok(*i != 0),
            Value::None => Ok(false),
            _ => self
                .truthy(x)
                .map_err(|err| self.at(err, f, span, Anchor::None)),
        }
    }

    /// The truth of a condition (`if`, `while`, `x if c else y`), tested at `span` as
    /// `test_at`. `and`, `or` and `not` jump on their operands' truth without building their
    /// values, as CPython compiles them: each operand is tested once, at the span the value
    /// form tests it (its own for a left operand, the enclosing one otherwise); a comparison
    /// of two int leaves gives its truth directly.
    pub(crate) fn cond(&mut self, e: &Expr, f: &mut Frame, span: Span) -> PyResult<bool> {
        match &e.kind {
            ExprKind::Compare(first, rest) if rest.len() == 1 => {
                let (op, re) = &rest[0];
                // (Two int leaves: `int_compare`, no operand dispatch.)
                if let Some(t) = int_compare(*op, first, re, f) {
                    return Ok(t);
                }
                if let (Some(x), Some(y)) = (operand(first, f), operand(re, f)) {
                    // (As `eval` compares two leaves, without another dispatch on the node.)
                    let v = self
                        .compare_two(*op, x.get(), y.get())
                        .map_err(|err| self.at(err, f, e.span, Anchor::None))?;
                    return self.test_at(&v, f, span);
                }
            }
            ExprKind::And(a, b) => {
                return Ok(self.cond(a, f, a.span)? && self.cond(b, f, span)?);
            }
            ExprKind::Or(a, b) => {
                return Ok(self.cond(a, f, a.span)? || self.cond(b, f, span)?);
            }
            // (`not x` tests `x` where the operator would: at the whole `not x`.)
            ExprKind::Unary(UnaryOp::Not, a) => return Ok(!self.cond(a, f, e.span)?),
            _ => {}
        }
        let v = self.eval(e, f)?;
        self.test_at(&v, f, span)
    }

    /// Records the failing expression as the current frame's traceback entry.
    #[cold]
    #[inline(never)]
    pub(crate) fn at(&self, err: PyErr, frame: &Frame, span: Span, anchor: Anchor) -> PyErr {
        // (An error passing up through enclosing expressions and statements is located
        // already: the frame's name is not taken for it again.)
        if err.0.located {
            return err;
        }
        err.locate(frame.src, span, anchor, &frame.name.to_rc())
    }

    /// The common expressions, kept small so the recursion's stack frames stay small; the
    /// rest is in `eval_rest`.
    pub fn eval(&mut self, e: &Expr, f: &mut Frame) -> PyResult<Value> {
        match &e.kind {
            ExprKind::Name(n) => {
                match n.scope {
                    Scope::Local(slot) => match f.slots.get(slot as usize) {
                        Some(Some(Value::Cell(c))) => {
                            if let Some(v) = &*c.borrow() {
                                return Ok(v.clone());
                            }
                        }
                        Some(Some(Value::StrBuf(_))) | Some(None) | None => {}
                        Some(Some(v)) => return Ok(v.dup()),
                    },
                    // Module globals, then builtins, indexed by symbol: no hashing.
                    Scope::Global => {
                        let i = n.sym.index();
                        // (`dup`: the common variants are copied straight into the result;
                        // an out-of-line clone into a temporary stalls the copy after it.)
                        if let Some(Some(v)) = self.globals.get(i) {
                            return Ok(v.dup());
                        }
                        if let Some(Some(v)) = self.builtins.get(i) {
                            return Ok(v.dup());
                        }
                    }
                    _ => {}
                }
                self.load_name(n, f)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None))
            }
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Binary(op, a, b) => {
                let at = |me: &Self, err: PyErr, f: &Frame| {
                    let anchor = Anchor::BinOp {
                        left_end: a.span.end,
                        right_start: b.span.start,
                    };
                    me.at(err, f, e.span, anchor)
                };
                // Leaf operands (plain locals, number literals) are read in place: no
                // evaluation call, no reference-count round trip.
                if let Some(x) = operand(a, f) {
                    if let Some(y) = operand(b, f) {
                        return self
                            .binary(*op, x.get(), y.get())
                            .map_err(|err| at(self, err, f));
                    }
                    // (The right side cannot rebind a plain local: read the left after it.)
                    let y = self.eval(b, f)?;
                    if let Some(x) = operand(a, f) {
                        return self
                            .binary(*op, x.get(), &y)
                            .map_err(|err| at(self, err, f));
                    }
                    let x = self.eval(a, f)?;
                    return self.binary(*op, &x, &y).map_err(|err| at(self, err, f));
                }
                let x = self.eval(a, f)?;
                if let Some(y) = operand(b, f) {
                    return self
                        .binary(*op, &x, y.get())
                        .map_err(|err| at(self, err, f));
                }
                let y = self.eval(b, f)?;
                self.binary(*op, &x, &y).map_err(|err| at(self, err, f))
            }
            ExprKind::Call(func, args) => self.eval_call(e, func, args, f),
            ExprKind::Float(x) => Ok(Value::float(*x)),
            ExprKind::None => Ok(Value::None),
            ExprKind::Subscript(obj, idx) => self.eval_subscript(e, obj, idx, f),
            ExprKind::Attr(obj, name, hint) => {
                // `local.attr`: read through the slot, no reference-count round trip.
                // (Each arm maps its own error, so the result goes straight to the caller
                // without a copy through a temporary.)
                match local_ref(obj, f) {
                    Some(o) => self
                        .get_attr_hinted(o, *name, hint)
                        .map_err(|err| self.at(err, f, e.span, Anchor::None)),
                    None => {
                        let o = self.eval(obj, f)?;
                        self.get_attr_hinted(&o, *name, hint)
                            .map_err(|err| self.at(err, f, e.span, Anchor::None))
                    }
                }
            }
            ExprKind::Compare(first, rest) if rest.len() == 1 => {
                let (op, re) = &rest[0];
                if let Some(t) = int_compare(*op, first, re, f) {
                    return Ok(Value::bool(t));
                }
                if let (Some(x), Some(y)) = (operand(first, f), operand(re, f)) {
                    return self
                        .compare_two(*op, x.get(), y.get())
                        .map_err(|err| self.at(err, f, e.span, Anchor::None));
                }
                let left = self.eval(first, f)?;
                if let Some(y) = operand(re, f) {
                    return self
                        .compare_two(*op, &left, y.get())
                        .map_err(|err| self.at(err, f, e.span, Anchor::None));
                }
                let right = self.eval(re, f)?;
                self.compare_two(*op, &left, &right)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None))
            }
            _ => self.eval_rest(e, f),
        }
    }

    #[inline(never)]
    fn eval_rest(&mut self, e: &Expr, f: &mut Frame) -> PyResult<Value> {
        Ok(match &e.kind {
            ExprKind::Name(n) => {
                return self
                    .load_name(n, f)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None))
            }
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Float(x) => Value::float(*x),
            ExprKind::Str(s) => Value::Str(s.clone()),
            ExprKind::None => Value::None,
            ExprKind::Bool(b) => Value::bool(*b),
            ExprKind::Ellipsis => Value::Ellipsis,
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a, f)?;
                let y = self.eval(b, f)?;
                return self.binary(*op, &x, &y).map_err(|err| {
                    let anchor = Anchor::BinOp {
                        left_end: a.span.end,
                        right_start: b.span.start,
                    };
                    self.at(err, f, e.span, anchor)
                });
            }
            ExprKind::Call(func, args) => return self.eval_call(e, func, args, f),
            ExprKind::Attr(obj, name, hint) => {
                let o = self.eval(obj, f)?;
                return self
                    .get_attr_hinted(&o, *name, hint)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None));
            }
            ExprKind::Subscript(obj, idx) => return self.eval_subscript(e, obj, idx, f),
            ExprKind::Compare(first, rest) => {
                let mut left = self.eval(first, f)?;
                let mut result = Value::Bool(PyBool::True);
                for (k, (op, re)) in rest.iter().enumerate() {
                    let right = self.eval(re, f)?;
                    result = self
                        .compare(*op, &left, &right)
                        .map_err(|err| self.at(err, f, e.span, Anchor::None))?;
                    // Only the links of a chain (`a < b < c`) are tested for truth.
                    if k + 1 < rest.len() && !self.truthy(&result)? {
                        return Ok(result);
                    }
                    left = right;
                }
                result
            }
            ExprKind::And(a, b) => {
                let x = self.eval(a, f)?;
                let t = self.test_at(&x, f, a.span)?;
                if !t {
                    return Ok(x);
                }
                self.eval(b, f)?
            }
            ExprKind::Or(a, b) => {
                let x = self.eval(a, f)?;
                let t = self.test_at(&x, f, a.span)?;
                if t {
                    return Ok(x);
                }
                self.eval(b, f)?
            }
            ExprKind::Unary(UnaryOp::Not, a) => {
                let x = self.eval(a, f)?;
                return match x {
                    Value::Bool(t) => Ok(Value::bool(!t.get())),
                    Value::None => Ok(Value::Bool(PyBool::True)),
                    _ => self
                        .unary(UnaryOp::Not, &x)
                        .map_err(|err| self.at(err, f, e.span, Anchor::None)),
                };
            }
            ExprKind::Unary(op, a) => {
                let x = self.eval(a, f)?;
                return self
                    .unary(*op, &x)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None));
            }
            ExprKind::IfExp(c, a, b) => {
                if self.cond(c, f, c.span)? {
                    self.eval(a, f)?
                } else {
                    self.eval(b, f)?
                }
            }
            ExprKind::List(items) => Value::list(self.eval_items(items, f)?),
            ExprKind::Tuple(items) => Value::tuple(self.eval_items(items, f)?),
            ExprKind::Set(_) | ExprKind::Dict(_) => return self.eval_set_or_dict(e, f),
            ExprKind::Slice(a, b, c) => Value::Slice(Rc::new(self.eval_slice_parts([a, b, c], f)?)),
            ExprKind::FString(parts) => Value::from(self.eval_fstring(parts, e.span, f)?),
            ExprKind::Lambda(def) => self.make_function(def, f, Vec::new())?,
            ExprKind::Comp(c) => return self.eval_comp(c, f),
            ExprKind::Yield(_) | ExprKind::YieldFrom(_) => return self.eval_yield(e, f),
            ExprKind::Starred(_) => {
                return Err(self.at(
                    PyErr::new(ExcKind::SyntaxError, "can't use starred expression here"),
                    f,
                    e.span,
                    Anchor::None,
                ))
            }
        })
    }

    /// `eval` with leaf operands (plain locals, number literals) read inline.
    #[inline(always)]
    pub(crate) fn eval_leaf(&mut self, e: &Expr, f: &mut Frame) -> PyResult<Value> {
        // (One match on the node and one on the value: no `Operand` in between.)
        match &e.kind {
            ExprKind::Name(Name {
                scope: Scope::Local(slot),
                ..
            }) => match f.slots.get(*slot as usize) {
                Some(Some(Value::Int(i))) => return Ok(Value::Int(*i)),
                Some(Some(Value::Float(x))) => return Ok(Value::Float(*x)),
                Some(Some(Value::Cell(_) | Value::StrBuf(_))) | Some(None) | None => {}
                Some(Some(v)) => return Ok(v.dup()),
            },
            ExprKind::Int(i) => return Ok(Value::Int(*i)),
            ExprKind::Float(x) => return Ok(Value::float(*x)),
            ExprKind::Str(s) => return Ok(Value::Str(s.clone())),
            _ => {}
        }
        self.eval(e, f)
    }

    /// One comparison, numbers first.
    #[inline(always)]
    pub(crate) fn compare_two(
        &mut self,
        op: CmpOp,
        left: &Value,
        right: &Value,
    ) -> PyResult<Value> {
        match op {
            CmpOp::Is => return Ok(Value::bool(left.is(right))),
            CmpOp::IsNot => return Ok(Value::bool(!left.is(right))),
            _ => {}
        }
        if let (Value::Int(x), Value::Int(y)) = (left, right) {
            let r = match op {
                CmpOp::Eq => Some(x == y),
                CmpOp::Ne => Some(x != y),
                CmpOp::Lt => Some(x < y),
                CmpOp::Le => Some(x <= y),
                CmpOp::Gt => Some(x > y),
                CmpOp::Ge => Some(x >= y),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(Value::bool(r));
            }
        }
        if let (Value::Float(x), Value::Float(y)) = (left, right) {
            if let Some(r) = cmp_fast(op, &x.get(), &y.get()) {
                return Ok(Value::bool(r));
            }
        }
        self.compare(op, left, right)
    }

    /// `obj[idx]`.
    #[inline(never)]
    fn eval_subscript(
        &mut self,
        e: &Expr,
        obj: &Expr,
        idx: &Expr,
        f: &mut Frame,
    ) -> PyResult<Value> {
        // `local[i]`: the index is evaluated first only when that cannot be told apart (a
        // plain local cannot be rebound by an expression), then the container is read
        // through its slot.
        let at = |me: &Self, err: PyErr, f: &Frame| {
            let anchor = Anchor::Subscript {
                value_end: obj.span.end,
                slice_end: idx.span.end,
            };
            me.at(err, f, e.span, anchor)
        };
        if let ExprKind::Slice(a, b, c) = &idx.kind {
            // `xs[a:b:c]`: no slice object for a list or tuple.
            let o = self.eval(obj, f)?;
            let parts = self.eval_slice_parts([a, b, c], f)?;
            return self.get_slice(&o, &parts).map_err(|err| at(self, err, f));
        }
        if local_ref(obj, f).is_some() {
            if let (Some(o), Some(i)) = (local_ref(obj, f), operand(idx, f)) {
                if let Some(v) = super::index::list_item(o, i.get()) {
                    return Ok(v);
                }
                return self.get_item(o, i.get()).map_err(|err| at(self, err, f));
            }
            let i = self.eval(idx, f)?;
            if let Some(o) = local_ref(obj, f) {
                return self.get_item(o, &i).map_err(|err| at(self, err, f));
            }
        }
        let o = self.eval(obj, f)?;
        let i = self.eval(idx, f)?;
        self.get_item(&o, &i).map_err(|err| at(self, err, f))
    }

    /// A slice's start, stop and step (None where left out).
    pub(crate) fn eval_slice_parts(
        &mut self,
        exprs: [&Option<Box<Expr>>; 3],
        f: &mut Frame,
    ) -> PyResult<[Value; 3]> {
        let mut parts = [Value::None, Value::None, Value::None];
        for (slot, x) in parts.iter_mut().zip(exprs) {
            if let Some(x) = x {
                *slot = self.eval_leaf(x, f)?;
            }
        }
        Ok(parts)
    }

    /// `{a, b}` and `{k: v, **m}` displays.
    fn eval_set_or_dict(&mut self, e: &Expr, f: &mut Frame) -> PyResult<Value> {
        Ok(match &e.kind {
            ExprKind::Set(items) => {
                let vals = self.eval_items(items, f)?;
                let mut set = SetMap::default();
                for v in vals {
                    let k = self
                        .key_in_local(v, &set)
                        .map_err(|err| self.at(err, f, e.span, Anchor::None))?;
                    set.insert(k);
                }
                Value::Set(Rc::new(RefCell::new(set)))
            }
            ExprKind::Dict(items) => {
                let mut map = DictMap::default();
                for (k, v) in items {
                    match k {
                        Some(k) => {
                            let kv = self.eval(k, f)?;
                            let vv = self.eval(v, f)?;
                            let key = self
                                .key_in_local(kv, &map)
                                .map_err(|err| self.at(err, f, e.span, Anchor::None))?;
                            dict_insert(&mut map, key, vv);
                        }
                        None => {
                            let m = self.eval(v, f)?;
                            for (k, v) in self
                                .mapping_items(&m)
                                .map_err(|err| self.at(err, f, v.span, Anchor::None))?
                            {
                                let k = self.rekey_in_local(k, &map)?;
                                dict_insert(&mut map, k, v);
                            }
                        }
                    }
                }
                Value::Dict(Rc::new(RefCell::new(map)))
            }
            _ => Value::None,
        })
    }

    /// `yield x` and `yield from it` (the resolver allows them only in a generator's body).
    fn eval_yield(&mut self, e: &Expr, f: &mut Frame) -> PyResult<Value> {
        match &e.kind {
            ExprKind::Yield(v) => {
                let val = match v {
                    Some(x) => self.eval(x, f)?,
                    None => Value::None,
                };
                self.do_yield(val)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None))
            }
            ExprKind::YieldFrom(x) => {
                let it = self.eval(x, f)?;
                self.yield_from(&it)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None))
            }
            _ => Ok(Value::None),
        }
    }

    fn eval_items(&mut self, items: &[Expr], f: &mut Frame) -> PyResult<Vec<Value>> {
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            if let ExprKind::Starred(inner) = &it.kind {
                let v = self.eval(inner, f)?;
                let vals = self
                    .collect(&v)
                    .map_err(|err| self.at(err, f, it.span, Anchor::None))?;
                out.extend(vals);
            } else {
                out.push(self.eval(it, f)?);
            }
        }
        Ok(out)
    }

    pub(crate) fn load_name(&mut self, n: &Name, f: &Frame) -> PyResult<Value> {
        match n.scope {
            Scope::Local(slot) => match f.slots.get(slot as usize) {
                Some(Some(Value::Cell(c))) => match &*c.borrow() {
                    Some(v) => Ok(v.clone()),
                    None => Err(self.unbound_error(n.sym, f, slot)),
                },
                Some(Some(Value::StrBuf(b))) => Ok(Value::from(b.as_str())),
                Some(Some(v)) => Ok(v.clone()),
                _ => Err(self.unbound_error(n.sym, f, slot)),
            },
            Scope::Global | Scope::Unresolved => self.load_global(n.sym),
            Scope::ClassBody => {
                if let Some(ns) = &f.class_ns {
                    if let Some(v) = ns.borrow().get(&n.sym) {
                        return Ok(v.clone());
                    }
                }
                self.load_global(n.sym)
            }
        }
    }

    fn unbound_error(&self, sym: Sym, f: &Frame, slot: u32) -> PyErr {
        // A free variable not yet assigned in its scope reads as NameError in CPython.
        let is_free = f.func.as_ref().is_some_and(|func| {
            slot as usize >= func.def.info.local_names.len() - func.def.info.freevars.len()
        });
        if is_free {
            return self.name_error(sym, &format!("cannot access free variable '{sym}' where it is not associated with a value in enclosing scope"));
        }
        let mut e = PyErr::new(
            ExcKind::UnboundLocalError,
            format!("cannot access local variable '{sym}' where it is not associated with a value"),
        );
        e.0.missing_name = Some(sym.as_str());
        e
    }

    pub(crate) fn load_global(&self, sym: Sym) -> PyResult<Value> {
        if let Some(v) = self.globals.get(sym.index()).and_then(|v| v.as_ref()) {
            return Ok(v.clone());
        }
        if let Some(v) = self.builtins.get(sym.index()).and_then(|v| v.as_ref()) {
            return Ok(v.clone());
        }
        if let Some(e) = crate::lang::modules::names::missing("builtins", &sym.as_str()) {
            return Err(e);
        }
        Err(self.name_error(sym, &format!("name '{sym}' is not defined")))
    }

    fn name_error(&self, sym: Sym, msg: &str) -> PyErr {
        let mut e = PyErr::new(ExcKind::NameError, msg);
        e.0.missing_name = Some(sym.as_str());
        let lang_hint = match &*sym.as_str() {
            "torch" | "nn" | "F" | "math" | "optim" | "time" | "random" => Some(format!(
                "'{sym}' is a module: import it first, e.g. `import {}`",
                match &*sym.as_str() {
                    "nn" => "torch.nn as nn",
                    "F" => "torch.nn.functional as F",
                    "optim" => "torch.optim as optim",
                    other => other,
                }
            )),
            "true" | "false" | "none" | "null" => {
                Some("Python spells these True, False and None, with a capital letter.".to_string())
            }
            _ => None,
        };
        if let Some(h) = lang_hint {
            e = e.hint(h);
        }
        e
    }

    fn eval_call(&mut self, e: &Expr, func: &Expr, args: &[Arg], f: &mut Frame) -> PyResult<Value> {
        // `obj.method(...)`: look the method up without building a bound-method object.
        let plain = args.iter().all(|a| matches!(a, Arg::Pos(_)));
        if let ExprKind::Attr(obj, name, hint) = &func.kind {
            // `xs.append(x)`, `d.get(k)` on a plain local whose type this call site has met:
            // the builtin method is called with `self` borrowed from its slot (no
            // reference-count round trip). The slot is read again after the arguments (an
            // expression cannot rebind a plain local).
            // A hot method's fast form (`methods::fast_method`) takes the arguments as they lie.
            if plain {
                if let Some(m) = local_ref(obj, f).and_then(|o| cached_native(o, hint)) {
                    let mut pos = ArgVec::new();
                    self.eval_plain_args(args, f, &mut pos)?;
                    if let Some(this) = local_ref(obj, f) {
                        return self
                            .call_native_fast(m.f, m.fast, this, pos)
                            .map_err(|err| self.at(err, f, e.span, Anchor::None));
                    }
                }
            }
            // The method is found before the arguments are evaluated, as CPython's
            // LOAD_METHOD does (a missing method raises before any argument runs). A plain
            // local instance (`self`, `c`) whose method this site has cached needs no lookup.
            let cached = match local_ref(obj, f) {
                Some(Value::Instance(i)) => cached_method(i, *name, hint)
                    .map(|m| Looked::Func(m, Value::Instance(i.clone()))),
                _ => None,
            };
            let method = match cached {
                Some(m) => m,
                None => {
                    // (A plain local object is read from its slot: no evaluation call.)
                    let o = match local_ref(obj, f) {
                        Some(v) => v.dup(),
                        None => self.eval(obj, f)?,
                    };
                    self.lookup_method_hinted(o, *name, hint)
                        .map_err(|err| self.at(err, f, func.span, Anchor::None))?
                }
            };
            // Each arm maps its own error (no copy of the result through a temporary).
            let at = |me: &Self, err: PyErr, f: &Frame| me.at(err, f, e.span, Anchor::None);
            return match method {
                // Arguments go straight into the frame's slots after `self` when the method
                // is a Python function (no `Args`, no shifting).
                Looked::Func(func, this) if plain && func.simple => {
                    self.call_method_slots(&func, this, args, f, e.span)
                }
                // A builtin type's method: the arguments are its `Args` directly.
                Looked::Native(nf, this, _) if plain => {
                    let mut pos = ArgVec::new();
                    self.eval_plain_args(args, f, &mut pos)?;
                    let fast = cached_native(&this, hint).and_then(|m| m.fast);
                    self.call_native_fast(nf, fast, &this, pos)
                        .map_err(|err| at(self, err, f))
                }
                m => {
                    let a = self.eval_args(args, f, e.span)?;
                    self.call_looked_up(m, a).map_err(|err| at(self, err, f))
                }
            };
        }
        // `f(a, b)` of a simple Python function named by a global or a local: the function
        // is held as itself (no `Value` clone and drop around the call).
        if plain {
            let direct = match &func.kind {
                ExprKind::Name(Name {
                    scope: Scope::Global,
                    sym,
                }) => match self.globals.get(sym.index()) {
                    Some(Some(Value::Func(fun))) if fun.simple => Some(fun.clone()),
                    _ => None,
                },
                ExprKind::Name(Name {
                    scope: Scope::Local(slot),
                    ..
                }) => match f.slots.get(*slot as usize) {
                    Some(Some(Value::Func(fun))) if fun.simple => Some(fun.clone()),
                    _ => None,
                },
                _ => None,
            };
            if let Some(fun) = direct {
                let mut slots = self.new_slots(fun.def.info.local_names.len());
                for a in args {
                    if let Arg::Pos(x) = a {
                        slots.push(Some(self.eval_leaf(x, f)?));
                    }
                }
                return self
                    .call_slots(&fun, slots)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None));
            }
            if let Some(b) = self.plain_builtin(func) {
                // `len(x)`, as CPython's CALL_NO_KW_LEN: the length straight from the value
                // (a plain local's read in place). Any other form goes the full way.
                if let (PlainBuiltin::Len(_), [Arg::Pos(x)]) = (&b, args) {
                    let n = match operand(x, f) {
                        Some(v) => self.len(v.get()),
                        None => {
                            let v = self.eval(x, f)?;
                            self.len(&v)
                        }
                    };
                    return n
                        .map(|n| Value::Int(n as i64))
                        .map_err(|err| self.at(err, f, e.span, Anchor::None));
                }
                let mut a = Args::new(ArgVec::new());
                self.eval_plain_args(args, f, &mut a.pos)?;
                let r = match b {
                    PlainBuiltin::Func(nf) | PlainBuiltin::Len(nf) => self
                        .check_interrupt()
                        .and_then(|()| nf(self, &Value::None, a)),
                    PlainBuiltin::Type(tag) => crate::lang::builtins::construct(self, tag, a),
                };
                return r.map_err(|err| self.at(err, f, e.span, Anchor::None));
            }
        }
        // A global function's name, or a local function or builtin (a closure, a bound
        // method held in a variable: `pop = xs.pop`), is read here (no evaluation call).
        let fv = match &func.kind {
            ExprKind::Name(Name {
                scope: Scope::Local(slot),
                ..
            }) => match f.slots.get(*slot as usize) {
                Some(Some(v @ (Value::Func(_) | Value::Builtin(_)))) => v.clone(),
                _ => self.eval(func, f)?,
            },
            ExprKind::Name(Name {
                scope: Scope::Global,
                sym,
            }) => match self.globals.get(sym.index()) {
                Some(Some(v)) => v.clone(),
                _ => match self.builtins.get(sym.index()) {
                    Some(Some(v)) => v.clone(),
                    _ => self.eval(func, f)?,
                },
            },
            _ => self.eval(func, f)?,
        };
        match (plain, &fv) {
            (true, Value::Func(func)) if func.simple => {
                let mut slots = self.new_slots(func.def.info.local_names.len());
                for a in args {
                    if let Arg::Pos(x) = a {
                        slots.push(Some(self.eval_leaf(x, f)?));
                    }
                }
                return self
                    .call_slots(func, slots)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None));
            }
            // A builtin held in a variable, bound (`pop = xs.pop; pop(0)`) or not: called as
            // `call` calls it, with its arguments built in place and its `self` borrowed.
            // A bound one of the hot methods takes its fast form.
            (true, Value::Builtin(b)) if b.this.is_some() || !reads_frame(b.name) => {
                let mut pos = ArgVec::new();
                self.eval_plain_args(args, f, &mut pos)?;
                let this = b.this.as_ref().unwrap_or(&Value::None);
                let fast = fast_method(this, b.name);
                return self
                    .call_native_fast(b.f, fast, this, pos)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None));
            }
            _ => {}
        }
        let a = self.eval_args_for(args, f, e.span, Some(&fv))?;
        if let Value::Builtin(b) = &fv {
            if b.name == "super" && a.pos.is_empty() {
                return self
                    .zero_arg_super(f)
                    .map_err(|err| self.at(err, f, e.span, Anchor::None));
            }
            // `locals()` and `vars()` read the calling frame.
            if matches!(b.name, "locals" | "vars") && a.pos.is_empty() && a.kw.is_empty() {
                return Ok(self.frame_locals(f));
            }
        }
        self.call(&fv, a)
            .map_err(|err| self.at(err, f, e.span, Anchor::None))
    }

    /// Calls a builtin method or function with its plain arguments: a `str` subclass's
    /// arguments to a `str` method as their `str`, after a Ctrl-C check.
    #[inline(always)]
    pub(crate) fn call_native(
        &mut self,
        nf: NativeFn,
        this: &Value,
        mut a: Args,
    ) -> PyResult<Value> {
        super::builtin_subclass::str_args(this, &mut a.pos);
        self.check_interrupt().and_then(|()| nf(self, this, a))
    }

    /// A builtin method called with positional arguments: its fast form when it has one and
    /// takes this call, else the method itself. (No fast form is a `str` method, whose
    /// `str`-subclass arguments `call_native` converts.)
    #[inline(always)]
    pub(crate) fn call_native_fast(
        &mut self,
        nf: NativeFn,
        fast: Option<FastFn>,
        this: &Value,
        mut pos: ArgVec,
    ) -> PyResult<Value> {
        self.call_native_slice(nf, fast, this, &mut pos)
    }

    /// `call_native_fast` with the arguments in a slice (a stack array of the compiled call):
    /// they are gathered into an `ArgVec` only when the fast form declines.
    #[inline(always)]
    pub(crate) fn call_native_slice(
        &mut self,
        nf: NativeFn,
        fast: Option<FastFn>,
        this: &Value,
        args: &mut [Value],
    ) -> PyResult<Value> {
        if let Some(r) = fast.and_then(|fast| fast(self, this, args)) {
            return r;
        }
        let pos = args.iter_mut().map(|a| std::mem::replace(a, Value::None));
        self.call_native(nf, this, Args::new(pos.collect()))
    }

    /// `obj.m(a, b)` of a `simple` Python function with plain arguments: `this` and the
    /// arguments go straight into the new frame's slots (no `Args`, no shifting).
    #[inline(always)]
    fn call_method_slots(
        &mut self,
        func: &Rc<Function>,
        this: Value,
        args: &[Arg],
        f: &mut Frame,
        span: Span,
    ) -> PyResult<Value> {
        let mut slots = self.new_slots(func.def.info.local_names.len().max(8));
        slots.push(Some(this));
        for a in args {
            if let Arg::Pos(x) = a {
                match self.eval_leaf(x, f) {
                    Ok(v) => slots.push(Some(v)),
                    Err(err) => {
                        self.free_slots(slots);
                        return Err(err);
                    }
                }
            }
        }
        self.call_slots(func, slots)
            .map_err(|err| self.at(err, f, span, Anchor::None))
    }

    /// `len(x)`, `str(i)`, `isinstance(a, B)`: the builtin function or type a global name
    /// gives when no module global shadows it, as what to call (no `Value` of it held).
    /// Those that `reads_frame` are not among them.
    #[inline]
    pub(crate) fn plain_builtin(&self, func: &Expr) -> Option<PlainBuiltin> {
        let ExprKind::Name(Name {
            scope: Scope::Global,
            sym,
        }) = &func.kind
        else {
            return None;
        };
        let i = sym.index();
        if let Some(Some(_)) = self.globals.get(i) {
            return None;
        }
        match self.builtins.get(i) {
            Some(Some(Value::Builtin(b))) if b.this.is_none() && !reads_frame(b.name) => {
                Some(match b.name {
                    "len" => PlainBuiltin::Len(b.f),
                    _ => PlainBuiltin::Func(b.f),
                })
            }
            Some(Some(Value::Class(c))) => match c.builtin {
                Some(BuiltinClass::Type(tag)) => Some(PlainBuiltin::Type(tag)),
                _ => None,
            },
            _ => None,
        }
    }

    /// A call's arguments when all are positional, each read as `eval_leaf` reads it, pushed
    /// onto `pos` (filled where it lives: an `ArgVec` returned by value is copied through a
    /// temporary, which cost ~40 instructions a call).
    #[inline(always)]
    fn eval_plain_args(&mut self, args: &[Arg], f: &mut Frame, pos: &mut ArgVec) -> PyResult<()> {
        for a in args {
            if let Arg::Pos(x) = a {
                pos.push(self.eval_leaf(x, f)?);
            }
        }
        Ok(())
    }

    fn eval_args(&mut self, args: &[Arg], f: &mut Frame, span: Span) -> PyResult<Args> {
        self.eval_args_for(args, f, span, None)
    }

    fn eval_args_for(
        &mut self,
        args: &[Arg],
        f: &mut Frame,
        span: Span,
        callee: Option<&Value>,
    ) -> PyResult<Args> {
        let callee_name = || match callee {
            Some(Value::Func(func)) => format!("__main__.{}()", func.qualname),
            Some(Value::Builtin(b)) => format!("{}()", b.name),
            Some(Value::Class(c)) => format!("{}()", c.name),
            Some(other) => format!("{}()", other.type_name()),
            None => "function".to_string(),
        };
        let mut out = Args {
            pos: ArgVec::with_capacity(args.len()),
            kw: Vec::new(),
        };
        for a in args {
            match a {
                Arg::Pos(x) => out.pos.push(self.eval_leaf(x, f)?),
                Arg::Star(x) => {
                    let v = self.eval(x, f)?;
                    let vals = self.collect(&v).map_err(|_| {
                        self.at(
                            crate::lang::error::type_error(format!(
                                "{} argument after * must be an iterable, not {}",
                                callee_name(),
                                v.type_name()
                            )),
                            f,
                            span,
                            Anchor::None,
                        )
                    })?;
                    out.pos.extend(vals);
                }
                Arg::Kw(name, x) => {
                    let v = self.eval(x, f)?;
                    out.kw.push((*name, v));
                }
                Arg::StarStar(x) => {
                    let v = self.eval(x, f)?;
                    let mapping = match &v {
                        Value::Dict(_) => true,
                        Value::Instance(i) => {
                            matches!(i.base, Some(Value::Dict(_)))
                                || i.class.lookup(Sym::new("keys")).is_some()
                        }
                        _ => false,
                    };
                    if !mapping {
                        let msg = format!(
                            "{} argument after ** must be a mapping, not {}",
                            callee_name(),
                            v.type_name()
                        );
                        let err = crate::lang::error::type_error(msg);
                        return Err(self.at(err, f, span, Anchor::None));
                    }
                    for (k, v) in self
                        .mapping_items(&v)
                        .map_err(|err| self.at(err, f, span, Anchor::None))?
                    {
                        match k.0 {
                            Value::Str(s) => {
                                let sym = Sym::new(&s);
                                if out.kw.iter().any(|(n, _)| *n == sym) {
                                    return Err(self.at(
                                        crate::lang::error::type_error(format!(
                                            "got multiple values for keyword argument '{s}'"
                                        )),
                                        f,
                                        span,
                                        Anchor::None,
                                    ));
                                }
                                out.kw.push((sym, v))
                            }
                            _ => {
                                return Err(self.at(
                                    crate::lang::error::type_error("keywords must be strings"),
                                    f,
                                    span,
                                    Anchor::None,
                                ))
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// An f-string's text. Formatting and conversion errors are located at the whole f-string
    /// (`span`), as CPython locates FORMAT_VALUE.
    pub(crate) fn eval_fstring(
        &mut self,
        parts: &[FPart],
        span: Span,
        f: &mut Frame,
    ) -> PyResult<String> {
        let mut out = String::with_capacity(fstring_room(parts));
        for p in parts {
            match p {
                FPart::Lit(s) => out.push_str(s),
                FPart::Expr {
                    expr,
                    conv,
                    spec,
                    debug_text,
                } => {
                    if let Some(t) = debug_text {
                        out.push_str(t);
                    }
                    let v = self.eval(expr, f)?;
                    if spec.is_empty() && conv.is_none() {
                        // `{n}` of an int or str: written straight into the result.
                        match &v {
                            Value::Int(n) => {
                                out.push_str(crate::lang::format::int_text(*n, &mut [0; 20]));
                                continue;
                            }
                            Value::Str(s) => {
                                out.push_str(s);
                                continue;
                            }
                            _ => {}
                        }
                    }
                    // (A spec without fields, `.2f`, is used as it stands.)
                    let spec_s: std::borrow::Cow<str> = match &spec[..] {
                        [] => "".into(),
                        [FPart::Lit(s)] => s.as_str().into(),
                        _ => self.eval_fstring(spec, span, f)?.into(),
                    };
                    let s = match conv {
                        Some(c @ ('r' | 'a')) => {
                            let mut r = self
                                .repr(&v)
                                .map_err(|err| self.at(err, f, span, Anchor::None))?;
                            if *c == 'a' {
                                r = crate::lang::format::ascii_escape(&r);
                            }
                            self.format_value(&Value::from(r), &spec_s)
                        }
                        Some('s') => {
                            let r = self
                                .to_str(&v)
                                .map_err(|err| self.at(err, f, span, Anchor::None))?;
                            self.format_value(&Value::from(r), &spec_s)
                        }
                        _ => self.format_value(&v, &spec_s),
                    };
                    out.push_str(&s.map_err(|err| self.at(err, f, span, Anchor::None))?);
                }
            }
        }
        Ok(out)
    }

    /// Runs a comprehension in its own frame, as CPython does.
    fn eval_comp(&mut self, c: &Rc<CompScope>, f: &mut Frame) -> PyResult<Value> {
        let span = c.span;
        let Some(first) = c.generators.first() else {
            return Ok(Value::None);
        };
        let iterable = self.eval(&first.iter, f)?;
        // (`iter()` failing is located at the whole comprehension, as CPython's GET_ITER.)
        let iter = self
            .comp_source(iterable)
            .map_err(|err| self.at(err, f, span, Anchor::None))?;
        let mut slots = vec![None; c.info.local_names.len()];
        let nlocals = c.info.local_names.len() - c.info.freevars.len();
        for (i, outer) in c.info.freevars.iter().enumerate() {
            let cell = match f.slots.get(*outer as usize) {
                Some(Some(Value::Cell(cell))) => cell.clone(),
                _ => Rc::new(RefCell::new(None)),
            };
            slots[nlocals + i] = Some(Value::Cell(cell));
        }
        for &slot in &c.info.cellvars {
            slots[slot as usize] = Some(Value::Cell(Rc::new(RefCell::new(None))));
        }
        if c.kind == CompKind::Gen {
            // Lazy: the loop runs inside a generator, yielding each item as it is asked for.
            let c = c.clone();
            let src = f.src.clone();
            return self.make_genexpr(Box::new(move |interp: &mut Interp| {
                let mut slots = slots;
                let mut cf = Frame {
                    slots: &mut slots,
                    class_ns: None,
                    func: None,
                    name: super::FrameName::Fixed(c.kind.frame_name()),
                    src: &src,
                };
                interp.comp_loop(&c, 0, iter, &mut cf, &mut CompAcc::Gen)?;
                Ok(Value::None)
            }));
        }
        let mut slots = slots;
        let mut cf = Frame {
            slots: &mut slots,
            class_ns: None,
            func: None,
            name: super::FrameName::Fixed(c.kind.frame_name()),
            src: f.src,
        };
        let mut acc = CompAcc::new(c.kind);
        self.depth += 1;
        if self.depth > super::RECURSION_LIMIT {
            self.depth -= 1;
            return Err(self.at(
                PyErr::new(ExcKind::RecursionError, "maximum recursion depth exceeded"),
                f,
                span,
                Anchor::None,
            ));
        }
        let r = self.comp_loop(c, 0, iter, &mut cf, &mut acc);
        self.depth -= 1;
        if let Err(mut err) = r {
            // The comprehension's frame got its entry; the enclosing frame gets one too.
            err.0.located = false;
            return Err(self.at(err, f, span, Anchor::None));
        }
        Ok(acc.finish())
    }

    /// What a comprehension level walks: a range, list or tuple itself (walked by index as
    /// its iterator would walk it; no iterator object is made, and none could be seen by the
    /// program), otherwise `iter(iterable)`.
    fn comp_source(&mut self, iterable: Value) -> PyResult<Value> {
        match iterable {
            Value::Range(_) | Value::List(_) | Value::Tuple(_) => Ok(iterable),
            other => self.get_iter(&other),
        }
    }

    fn comp_loop(
        &mut self,
        c: &CompScope,
        level: usize,
        iter: Value,
        cf: &mut Frame,
        acc: &mut CompAcc,
    ) -> PyResult<()> {
        let g = &c.generators[level];
        let mut pos = 0usize;
        // (A range cannot change: its length is counted once.)
        let range_len = match &iter {
            Value::Range(r) => r.len(),
            _ => 0,
        };
        'items: loop {
            // (A range, list or tuple is walked in place, as `for` walks it; see `comp_source`.)
            let item = match &iter {
                Value::Range(r) => ((pos as u64) < range_len)
                    .then(|| Value::Int(r.start.wrapping_add((pos as i64).wrapping_mul(r.step)))),
                Value::List(l) => l.borrow().get(pos).map(Value::dup),
                Value::Tuple(t) => t.get(pos).map(Value::dup),
                _ => self
                    .next(&iter)
                    .map_err(|err| self.at(err, cf, g.iter.span, Anchor::None))?,
            };
            let Some(item) = item else { break };
            pos += 1;
            // (Ctrl-C here is the comprehension frame's, at its iterable, as `next` gives it.)
            self.tick()
                .map_err(|err| self.at(err, cf, g.iter.span, Anchor::None))?;
            self.store(&g.target, item, cf)?;
            for cond in &g.ifs {
                if !self.cond(cond, cf, cond.span)? {
                    continue 'items;
                }
            }
            if level + 1 < c.generators.len() {
                let next = &c.generators[level + 1];
                let inner = self.eval(&next.iter, cf)?;
                let it = self
                    .comp_source(inner)
                    .map_err(|err| self.at(err, cf, c.span, Anchor::None))?;
                self.comp_loop(c, level + 1, it, cf, acc)?;
            } else {
                let v = c.compiled.elt(c)(self, cf)?;
                match (&mut *acc, &c.value) {
                    (CompAcc::Dict(m), Some(ve)) => {
                        let val = self.eval(ve, cf)?;
                        let key = self
                            .key_in_local(v, &*m)
                            .map_err(|err| self.at(err, cf, c.elt.span, Anchor::None))?;
                        dict_insert(m, key, val);
                    }
                    (CompAcc::Set(s), _) => {
                        let key = self
                            .key_in_local(v, &*s)
                            .map_err(|err| self.at(err, cf, c.elt.span, Anchor::None))?;
                        s.insert(key);
                    }
                    (CompAcc::Gen, _) => {
                        self.do_yield(v)
                            .map_err(|err| self.at(err, cf, c.elt.span, Anchor::None))?;
                    }
                    (CompAcc::List(l), _) => {
                        if l.len() >= super::ops::MAX_ITEMS {
                            return Err(PyErr::new(ExcKind::MemoryError, ""));
                        }
                        l.push(v)
                    }
                    (CompAcc::Dict(_), None) => {}
                }
            }
        }
        Ok(())
    }
}

/// The builtins that read the calling frame when called without arguments (`eval_call` gives
/// them the frame), so `plain_builtin` leaves them to the general path. (A `matches!`, not a
/// list's `contains`: this runs for every builtin call, and it compiles to a length switch.)
#[inline(always)]
pub(crate) fn reads_frame(name: &str) -> bool {
    matches!(name, "super" | "locals" | "vars")
}

/// What `plain_builtin` found to call.
pub(crate) enum PlainBuiltin {
    Func(NativeFn),
    /// `len`, which the evaluator computes itself for one argument.
    Len(NativeFn),
    Type(TypeTag),
}

/// The value of a plain local variable (not a cell, not a string being built), borrowed
/// from its slot: `p.x`, `d[k]` and `self.n = v` read their object without cloning it.
#[inline]
pub(crate) fn local_ref<'a>(e: &Expr, f: &'a Frame) -> Option<&'a Value> {
    match &e.kind {
        ExprKind::Name(Name {
            scope: Scope::Local(slot),
            ..
        }) => match f.slots.get(*slot as usize) {
            Some(Some(Value::Cell(_) | Value::StrBuf(_))) | Some(None) | None => None,
            Some(Some(v)) => Some(v),
        },
        _ => None,
    }
}

/// A leaf operand read without evaluating it: a plain local's value borrowed from its slot,
/// or a number literal built in place (nothing to drop).
pub(crate) enum Operand<'a> {
    Slot(&'a Value),
    Imm(std::mem::ManuallyDrop<Value>),
}

impl Operand<'_> {
    #[inline(always)]
    pub(crate) fn get(&self) -> &Value {
        match self {
            Operand::Slot(v) => v,
            Operand::Imm(v) => v,
        }
    }
}

/// `e` as an `Operand` when it is a bound plain local or an int/float literal.
#[inline(always)]
pub(crate) fn operand<'a>(e: &Expr, f: &'a Frame) -> Option<Operand<'a>> {
    match &e.kind {
        ExprKind::Name(Name {
            scope: Scope::Local(slot),
            ..
        }) => match f.slots.get(*slot as usize) {
            Some(Some(Value::Cell(_) | Value::StrBuf(_))) | Some(None) | None => None,
            Some(Some(v)) => Some(Operand::Slot(v)),
        },
        ExprKind::Int(i) => Some(Operand::Imm(std::mem::ManuallyDrop::new(Value::Int(*i)))),
        ExprKind::Float(x) => Some(Operand::Imm(std::mem::ManuallyDrop::new(Value::float(*x)))),
        ExprKind::None => Some(Operand::Imm(std::mem::ManuallyDrop::new(Value::None))),
        ExprKind::Bool(b) => Some(Operand::Imm(std::mem::ManuallyDrop::new(Value::bool(*b)))),
        _ => None,
    }
}

/// `a <op> b` of two int leaves (an ordering or equality), read straight from the tree and
/// the frame: `n < 2`, `i != j`.
#[inline(always)]
fn int_compare(op: CmpOp, a: &Expr, b: &Expr, f: &Frame) -> Option<bool> {
    cmp_fast(op, &int_leaf(a, f)?, &int_leaf(b, f)?)
}

/// An int literal, or a plain local holding an int.
#[inline(always)]
fn int_leaf(e: &Expr, f: &Frame) -> Option<i64> {
    match &e.kind {
        ExprKind::Name(Name {
            scope: Scope::Local(slot),
            ..
        }) => match f.slots.get(*slot as usize) {
            Some(Some(Value::Int(i))) => Some(*i),
            _ => None,
        },
        ExprKind::Int(i) => Some(*i),
        _ => None,
    }
}

/// `float <op> float` comparisons (IEEE, as CPython's `float_richcompare` for two floats),
/// and `int <op> int`.
#[inline(always)]
pub(crate) fn cmp_fast<T: PartialOrd>(op: CmpOp, x: &T, y: &T) -> Option<bool> {
    Some(match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
        _ => return None,
    })
}

/// Inserts keeping the first key object, as Python does (`{1: 'a', 1.0: 'b'}` is `{1: 'b'}`).
pub fn dict_insert(map: &mut DictMap, key: Key, value: Value) {
    map.insert(key, value);
}

enum CompAcc {
    List(Vec<Value>),
    /// A generator expression's loop: items are yielded, not kept.
    Gen,
    Set(SetMap),
    Dict(DictMap),
}

impl CompAcc {
    fn new(kind: CompKind) -> CompAcc {
        match kind {
            CompKind::List => CompAcc::List(Vec::new()),
            CompKind::Gen => CompAcc::Gen,
            CompKind::Set => CompAcc::Set(SetMap::default()),
            CompKind::Dict => CompAcc::Dict(DictMap::default()),
        }
    }
    fn finish(self) -> Value {
        match self {
            CompAcc::List(v) => Value::list(v),
            CompAcc::Gen => Value::None,
            CompAcc::Set(s) => Value::Set(Rc::new(RefCell::new(s))),
            CompAcc::Dict(d) => Value::Dict(Rc::new(RefCell::new(d))),
        }
    }
}

/// Room for an f-string's text: its literal parts and about a number per field.
fn fstring_room(parts: &[FPart]) -> usize {
    parts
        .iter()
        .map(|p| match p {
            FPart::Lit(s) => s.len(),
            FPart::Expr { .. } => 8,
        })
        .sum()
}

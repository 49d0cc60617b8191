//! Statement execution.
use super::{Frame, Interp};
use crate::lang::ast::*;
use crate::lang::error::{type_error, value_error, Anchor, Exc, ExcKind, PyErr, PyResult};
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::rc::Rc;

/// The chaining attributes of a caught exception, kept in its dict (and hidden from
/// `e.__dict__`, as CPython keeps them in the object itself).
pub(super) const CHAINING: [Sym; 3] = [
    crate::lang::symbol::dunder::CAUSE,
    crate::lang::symbol::dunder::CONTEXT,
    crate::lang::symbol::dunder::SUPPRESS_CONTEXT,
];

/// A part of a `try` statement, for the runner of its blocks.
#[derive(Clone, Copy)]
pub enum TryPart {
    Body,
    Else,
    Finally,
    Handler(usize),
}

pub enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

impl Interp {
    /// A block of statements. An empty one (an `if` without `else`) and a lone statement (a
    /// `return` under an `if`) run without the statement loop's own call.
    #[inline]
    pub(crate) fn exec_block(&mut self, body: &[Stmt], f: &mut Frame) -> PyResult<Flow> {
        match body {
            [] => Ok(Flow::Normal),
            [s] => self.exec(s, f),
            _ => self.exec_stmts(body, f),
        }
    }

    #[inline(never)]
    fn exec_stmts(&mut self, body: &[Stmt], f: &mut Frame) -> PyResult<Flow> {
        for s in body {
            match self.exec(s, f)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    /// Gives an error that no expression located a traceback entry at its statement.
    pub(crate) fn finish_stmt_error(&self, err: PyErr, s: &Stmt, f: &Frame) -> PyErr {
        self.at(err, f, s.span, Anchor::None)
    }

    #[inline]
    pub fn exec(&mut self, s: &Stmt, f: &mut Frame) -> PyResult<Flow> {
        self.note_stmt(s.span.start, f.src);
        self.exec_inner(s, f)
            .map_err(|err| self.finish_stmt_error(err, s, f))
    }

    /// The common statements; the rest is in `exec_rest` (small frames for deep recursion).
    pub(crate) fn exec_inner(&mut self, s: &Stmt, f: &mut Frame) -> PyResult<Flow> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval(e, f)?;
            }
            StmtKind::Assign(targets, value) if targets.len() == 1 => {
                let v = self.eval_leaf(value, f)?;
                self.store(&targets[0], v, f)?;
            }
            StmtKind::AugAssign(target, op, value) => self.aug_assign(target, *op, value, f, s)?,
            StmtKind::If(test, body, orelse) => {
                let t = self.cond(test, f, test.span)?;
                return self.exec_block(if t { body } else { orelse }, f);
            }
            StmtKind::Return(v) => {
                let v = match v {
                    Some(e) => self.eval_leaf(e, f)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::For(target, iter, body, orelse) => {
                return self.exec_for(target, iter, body, orelse, f, s.span.start)
            }
            StmtKind::While(test, body, orelse) => return self.exec_while(test, body, orelse, f),
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Pass => {}
            _ => return self.exec_rest(s, f),
        }
        Ok(Flow::Normal)
    }

    #[inline(never)]
    fn exec_rest(&mut self, s: &Stmt, f: &mut Frame) -> PyResult<Flow> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval(e, f)?;
            }
            StmtKind::Assign(targets, value) => {
                let v = self.eval(value, f)?;
                for t in targets {
                    self.assign(t, v.clone(), f)?;
                }
            }
            StmtKind::AugAssign(target, op, value) => self.aug_assign(target, *op, value, f, s)?,
            StmtKind::AnnAssign(target, ann, value) => {
                if f.class_ns.is_some() {
                    self.record_annotation(target, ann, f)?;
                }
                if let Some(v) = value {
                    let v = self.eval(v, f)?;
                    self.assign(target, v, f)?;
                }
            }
            StmtKind::If(test, body, orelse) => {
                let c = self.eval(test, f)?;
                let branch = if self
                    .truthy(&c)
                    .map_err(|e| self.at(e, f, test.span, Anchor::None))?
                {
                    body
                } else {
                    orelse
                };
                return self.exec_block(branch, f);
            }
            StmtKind::While(test, body, orelse) => return self.exec_while(test, body, orelse, f),
            StmtKind::For(target, iter, body, orelse) => {
                return self.exec_for(target, iter, body, orelse, f, s.span.start)
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Pass | StmtKind::Global(_) | StmtKind::Nonlocal(_) => {}
            StmtKind::Return(v) => {
                let v = match v {
                    Some(e) => self.eval(e, f)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::FuncDef(def, name) => {
                let mut decos = Vec::new();
                for d in &def.decorators {
                    decos.push(self.eval(d, f)?);
                }
                let mut v = self.make_function(def, f, Vec::new())?;
                // A decorator's call points at that decorator, as CPython's does.
                for (d, dv) in def.decorators.iter().zip(decos).rev() {
                    v = self
                        .call(&dv, Args::of([v]))
                        .map_err(|e| self.at(e, f, d.span, Anchor::None))?;
                }
                self.store_name(name, v, f);
            }
            StmtKind::ClassDef(def, name) => {
                let v = self.class_def(def, f)?;
                self.store_name(name, v, f);
            }
            StmtKind::With(items, body) => return self.exec_with(items, 0, body, f),
            StmtKind::Try(body, handlers, orelse, finalbody) => {
                return self.exec_try(body, handlers, orelse, finalbody, f)
            }
            StmtKind::Raise(exc, cause) => {
                return Err(self.exec_raise(exc.as_ref(), cause.as_ref(), f)?)
            }
            StmtKind::Assert(test, msg) => {
                let c = self.eval(test, f)?;
                if !self
                    .truthy(&c)
                    .map_err(|e| self.at(e, f, test.span, Anchor::None))?
                {
                    let args = match msg {
                        Some(m) => vec![self.eval(m, f)?],
                        None => Vec::new(),
                    };
                    let err = PyErr::with_args(ExcKind::AssertionError, args);
                    return Err(self.at(err, f, test.span, Anchor::None));
                }
            }
            StmtKind::Del(targets) => {
                for t in targets {
                    self.delete(t, f)?;
                }
            }
            StmtKind::Import(items) => {
                for (path, name, alias) in items {
                    let full: Vec<String> = path.iter().map(|s| s.as_str().to_string()).collect();
                    let module = self.import(&full.join("."))?;
                    let bound = if *alias {
                        module
                    } else {
                        self.import(&full[0])?
                    };
                    self.store_name(name, bound, f);
                }
            }
            StmtKind::ImportFrom(path, names) => {
                let full: Vec<String> = path.iter().map(|s| s.as_str().to_string()).collect();
                let modname = full.join(".");
                let module = self.import(&modname)?;
                for (attr, name) in names {
                    let v = match self.get_attr(&module, *attr) {
                        Ok(v) => v,
                        // A real library name cudalearn lacks says so, not ImportError.
                        Err(e) if e.is(ExcKind::NotImplementedError) => return Err(e),
                        Err(_) => {
                            let sub = format!("{modname}.{attr}");
                            self.import(&sub).map_err(|_| {
                                PyErr::new(
                                    ExcKind::ImportError,
                                    format!("cannot import name '{attr}' from '{modname}'"),
                                )
                            })?
                        }
                    };
                    self.store_name(name, v, f);
                }
            }
        }
        Ok(Flow::Normal)
    }

    #[inline(never)]
    fn exec_while(
        &mut self,
        test: &Expr,
        body: &[Stmt],
        orelse: &[Stmt],
        f: &mut Frame,
    ) -> PyResult<Flow> {
        loop {
            self.tick()
                .map_err(|e| self.at(e, f, test.span, Anchor::None))?;
            let go = self.cond(test, f, test.span)?;
            if !go {
                return self.exec_block(orelse, f);
            }
            match self.exec_block(body, f)? {
                Flow::Break => return Ok(Flow::Normal),
                Flow::Return(v) => return Ok(Flow::Return(v)),
                Flow::Normal | Flow::Continue => {}
            }
        }
    }

    /// Runs one pass of a loop's body: `Some(flow)` when the loop ends with it (`break`
    /// ends the loop normally, `return` passes up), `None` to go on.
    #[inline(always)]
    fn loop_body<B>(&mut self, body: &B, f: &mut Frame) -> PyResult<Option<Flow>>
    where
        B: Fn(&mut Self, &mut Frame) -> PyResult<Flow>,
    {
        Ok(match body(self, f)? {
            Flow::Break => Some(Flow::Normal),
            Flow::Return(v) => Some(Flow::Return(v)),
            Flow::Normal | Flow::Continue => None,
        })
    }

    fn exec_for(
        &mut self,
        target: &Expr,
        iter: &Expr,
        body: &[Stmt],
        orelse: &[Stmt],
        f: &mut Frame,
        start: u32,
    ) -> PyResult<Flow> {
        let it = self.eval(iter, f)?;
        let run_body = |me: &mut Self, f: &mut Frame| me.exec_block(body, f);
        let run_else = |me: &mut Self, f: &mut Frame| me.exec_block(orelse, f);
        let store = |me: &mut Self, v, f: &mut Frame| me.store(target, v, f);
        self.for_loop(it, target, store, iter.span, start, f, run_body, run_else)
    }

    /// A `for` loop over `it`, each item put in `target` by `store` (the caller's: the
    /// tree-walker's `assign`, or a compiled target), its body and `else` run by the
    /// callers' runners (the tree-walker's or a compiled body).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn for_loop<S, B, O>(
        &mut self,
        it: Value,
        target: &Expr,
        store: S,
        iter_span: crate::lang::lexer::Span,
        start: u32,
        f: &mut Frame,
        body: B,
        orelse: O,
    ) -> PyResult<Flow>
    where
        S: Fn(&mut Self, Value, &mut Frame) -> PyResult<()>,
        B: Fn(&mut Self, &mut Frame) -> PyResult<Flow>,
        O: Fn(&mut Self, &mut Frame) -> PyResult<Flow>,
    {
        // Fast path: `for i in range(...)` never builds an iterator object.
        if let Value::Range(r) = &it {
            let (mut cur, step) = (r.start, r.step);
            for _ in 0..r.len() {
                self.tick()
                    .map_err(|e| self.at(e, f, iter_span, Anchor::None))?;
                store(self, Value::Int(cur), f)?;
                if let Some(done) = self.loop_body(&body, f)? {
                    return Ok(done);
                }
                cur = cur.wrapping_add(step);
            }
            return orelse(self, f);
        }
        // Lists and tuples are walked by index (as their iterators do), with no iterator
        // object: a list that grows or shrinks meanwhile is seen as its iterator would see it.
        // A string is walked by its characters' byte offsets.
        if let Value::List(_) | Value::Tuple(_) | Value::Str(_) = &it {
            let mut pos = 0;
            loop {
                self.tick()
                    .map_err(|e| self.at(e, f, iter_span, Anchor::None))?;
                let item = match &it {
                    Value::List(l) => l.borrow().get(pos).map(Value::dup),
                    Value::Tuple(t) => t.get(pos).map(Value::dup),
                    Value::Str(s) => s[pos..].chars().next().map(|c| {
                        pos += c.len_utf8() - 1;
                        Value::from(c)
                    }),
                    _ => None,
                };
                let Some(item) = item else { break };
                pos += 1;
                store(self, item, f)?;
                if let Some(done) = self.loop_body(&body, f)? {
                    return Ok(done);
                }
            }
            return orelse(self, f);
        }
        // `iter()` failing, or an error from the iterator, is the `for` line's, shown without
        // carets (CPython locates GET_ITER and FOR_ITER at the whole statement).
        let whole_line = || {
            let line = &f.src.text[start as usize..];
            let end = start as usize + line.find('\n').unwrap_or(line.len());
            crate::lang::lexer::Span::new(start as usize, end)
        };
        let iterator = self
            .get_iter(&it)
            .map_err(|e| self.at(e, f, whole_line(), Anchor::None))?;
        // `for i, x in enumerate(xs)`, `for a, b in zip(xs, ys)`, `for k, v in d.items()`:
        // the parts go straight to the names, as unpacking the tuple would put them.
        let spread = match &target.kind {
            ExprKind::Tuple(names) | ExprKind::List(names)
                if Self::spread_width(&iterator) == Some(names.len())
                    && names.iter().all(names_only) =>
            {
                Some(names)
            }
            _ => None,
        };
        let mut parts = ArgVec::new();
        loop {
            self.tick()
                .map_err(|e| self.at(e, f, iter_span, Anchor::None))?;
            if let Some(names) = spread {
                let more = self
                    .next_spread(&iterator, &mut parts)
                    .map_err(|e| self.at(e, f, whole_line(), Anchor::None))?;
                if !more {
                    break;
                }
                for (t, v) in names.iter().zip(parts.drain(..)) {
                    self.store(t, v, f)?;
                }
            } else {
                let Some(item) = self
                    .next(&iterator)
                    .map_err(|e| self.at(e, f, whole_line(), Anchor::None))?
                else {
                    break;
                };
                store(self, item, f)?;
            }
            if let Some(done) = self.loop_body(&body, f)? {
                return Ok(done);
            }
        }
        orelse(self, f)
    }

    pub(crate) fn store_name(&mut self, n: &Name, v: Value, f: &mut Frame) {
        match n.scope {
            Scope::Local(slot) => {
                if let Some(s) = f.slots.get_mut(slot as usize) {
                    if let Some(Value::Cell(c)) = s {
                        *c.borrow_mut() = Some(v);
                    } else {
                        *s = Some(v);
                    }
                }
            }
            Scope::ClassBody => {
                if let Some(ns) = &f.class_ns {
                    ns.borrow_mut().insert(n.sym, v);
                } else {
                    self.set_global(n.sym, v);
                }
            }
            Scope::Global | Scope::Unresolved => self.set_global(n.sym, v),
        }
    }

    /// `assign`, a plain local stored with no call.
    #[inline(always)]
    pub(crate) fn store(&mut self, t: &Expr, v: Value, f: &mut Frame) -> PyResult<()> {
        match store_local(t, v, f) {
            Some(v) => self.assign(t, v, f),
            None => Ok(()),
        }
    }

    pub(crate) fn assign(&mut self, t: &Expr, v: Value, f: &mut Frame) -> PyResult<()> {
        match &t.kind {
            ExprKind::Name(n) => {
                self.store_name(n, v, f);
                Ok(())
            }
            ExprKind::Attr(obj, name, hint) => {
                let r = match super::expr::local_ref(obj, f) {
                    Some(o) => self.set_attr_hinted(o, *name, v, hint),
                    None => {
                        let o = self.eval(obj, f)?;
                        self.set_attr_hinted(&o, *name, v, hint)
                    }
                };
                r.map_err(|e| self.at(e, f, t.span, Anchor::None))
            }
            ExprKind::Subscript(obj, idx) => {
                // A plain local container is read through its slot after the index (which
                // cannot rebind it), as in `eval`'s subscript.
                let r = if let (Some(o), Some(i)) =
                    (super::expr::local_ref(obj, f), super::expr::operand(idx, f))
                {
                    // `xs[i] = v` with a plain local list and a leaf index: in place.
                    match super::index::list_store(o, i.get(), v) {
                        None => Ok(()),
                        Some(v) => self.set_item(o, i.get(), v),
                    }
                } else if let ExprKind::Slice(a, b, c) = &idx.kind {
                    let o = self.eval(obj, f)?;
                    let parts = self.eval_slice_parts([a, b, c], f)?;
                    self.set_slice(&o, &parts, v)
                } else if super::expr::local_ref(obj, f).is_some() {
                    let i = self.eval(idx, f)?;
                    match super::expr::local_ref(obj, f) {
                        Some(o) => self.set_item(o, &i, v),
                        None => {
                            let o = self.eval(obj, f)?;
                            self.set_item(&o, &i, v)
                        }
                    }
                } else {
                    let o = self.eval(obj, f)?;
                    let i = self.eval(idx, f)?;
                    self.set_item(&o, &i, v)
                };
                r.map_err(|e| self.at(e, f, t.span, subscript_anchor(obj, idx)))
            }
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                if !items.iter().any(|t| matches!(t.kind, ExprKind::Starred(_))) {
                    let names = || items.iter().all(names_only);
                    let put = |k: usize, val| self.store(&items[k], val, f);
                    if let Some(r) = unpack_in_place(&v, items.len(), names, put) {
                        return r;
                    }
                }
                let vals = self
                    .unpack(v, items)
                    .map_err(|e| self.at(e, f, t.span, Anchor::None))?;
                for (target, val) in items.iter().zip(vals) {
                    match &target.kind {
                        ExprKind::Starred(inner) => self.assign(inner, val, f)?,
                        _ => self.store(target, val, f)?,
                    }
                }
                Ok(())
            }
            _ => Err(PyErr::new(
                ExcKind::SyntaxError,
                "cannot assign to expression",
            )),
        }
    }

    /// Splits `v` into as many values as `targets` takes (a starred target takes a list).
    /// A list's items are taken out before any target runs (a target's setter may change
    /// it); up to three values need no heap block (`a, b = b, a`, nbody's `([x, y, z], v, m)`).
    fn unpack(&mut self, v: Value, targets: &[Expr]) -> PyResult<ArgVec> {
        let vals: ArgVec = match &v {
            Value::Tuple(t) => t.iter().map(Value::dup).collect(),
            Value::List(l) => l.borrow().iter().map(Value::dup).collect(),
            _ => ArgVec::from_vec(self.collect(&v).map_err(|e| {
                if e.is(ExcKind::TypeError) {
                    type_error(format!(
                        "cannot unpack non-iterable {} object",
                        v.type_name()
                    ))
                } else {
                    e
                }
            })?),
        };
        let star = targets
            .iter()
            .position(|t| matches!(t.kind, ExprKind::Starred(_)));
        let n = targets.len();
        match star {
            None => {
                if vals.len() > n {
                    return Err(value_error(format!(
                        "too many values to unpack (expected {n})"
                    )));
                }
                if vals.len() < n {
                    return Err(value_error(format!(
                        "not enough values to unpack (expected {n}, got {})",
                        vals.len()
                    )));
                }
                Ok(vals)
            }
            Some(si) => {
                let after = n - si - 1;
                if vals.len() < n - 1 {
                    return Err(value_error(format!(
                        "not enough values to unpack (expected at least {}, got {})",
                        n - 1,
                        vals.len()
                    )));
                }
                let starred = vals.len() - after - si;
                let mut it = vals.into_iter();
                let mut out: ArgVec = it.by_ref().take(si).collect();
                out.push(Value::list(it.by_ref().take(starred).collect()));
                out.extend(it);
                Ok(out)
            }
        }
    }

    fn aug_assign(
        &mut self,
        target: &Expr,
        op: BinOp,
        value: &Expr,
        f: &mut Frame,
        s: &Stmt,
    ) -> PyResult<()> {
        self.aug_assign_with(target, op, |me, f| me.eval_leaf(value, f), f, s)
    }

    /// `target op= value`, the right side evaluated by `rhs` (the tree-walker's or compiled).
    pub(crate) fn aug_assign_with<R>(
        &mut self,
        target: &Expr,
        op: BinOp,
        rhs: R,
        f: &mut Frame,
        s: &Stmt,
    ) -> PyResult<()>
    where
        R: Fn(&mut Self, &mut Frame) -> PyResult<Value>,
    {
        if let ExprKind::Name(
            n @ Name {
                scope: Scope::Local(slot),
                ..
            },
        ) = &target.kind
        {
            let slot = *slot as usize;
            // `n += k` on a local number: no call into the general path.
            if matches!(
                f.slots.get(slot),
                Some(Some(Value::Int(_) | Value::Float(_)))
            ) {
                let rhs = rhs(self, f)?;
                // (The right side cannot rebind a plain local; read it again anyway.)
                let cur = match &f.slots[slot] {
                    Some(v @ (Value::Int(_) | Value::Float(_))) => v.clone(),
                    _ => self
                        .load_name(n, f)
                        .map_err(|e| self.at(e, f, target.span, Anchor::None))?,
                };
                let r = self
                    .inplace(op, &cur, &rhs)
                    .map_err(|e| self.at(e, f, s.span, Anchor::None))?;
                f.slots[slot] = Some(r);
                return Ok(());
            }
            // A captured number (`nonlocal n; n += k`): read before the right side, as
            // Python loads it first; the cell is written after.
            if let Some(Some(Value::Cell(c))) = f.slots.get(slot) {
                let cur = match &*c.borrow() {
                    Some(v @ (Value::Int(_) | Value::Float(_))) => Some(v.dup()),
                    _ => None,
                };
                if let Some(cur) = cur {
                    let rhs = rhs(self, f)?;
                    let r = self
                        .inplace(op, &cur, &rhs)
                        .map_err(|e| self.at(e, f, s.span, Anchor::None))?;
                    self.store_name(n, r, f);
                    return Ok(());
                }
            }
        }
        match &target.kind {
            ExprKind::Name(
                n @ Name {
                    scope: Scope::Local(slot),
                    ..
                },
            ) if op == BinOp::Add
                && matches!(
                    f.slots.get(*slot as usize),
                    Some(Some(Value::Str(_) | Value::StrBuf(_)))
                ) =>
            {
                // `s += t` on a local string appends in place: linear, as in CPython.
                let rhs = rhs(self, f)?;
                let len = match &f.slots[*slot as usize] {
                    Some(Value::Str(c)) => c.len(),
                    Some(Value::StrBuf(b)) => b.len(),
                    _ => 0,
                };
                let fits = |t: &str| len + t.len() <= crate::lang::methods::MAX_STR as usize;
                let (Value::Str(t), true) = (&rhs, matches!(&rhs, Value::Str(t) if fits(t))) else {
                    let cur = self.load_name(n, f)?;
                    let r = self
                        .inplace(op, &cur, &rhs)
                        .map_err(|e| self.at(e, f, s.span, Anchor::None))?;
                    self.store_name(n, r, f);
                    return Ok(());
                };
                let slot = &mut f.slots[*slot as usize];
                match slot {
                    Some(Value::StrBuf(b)) => b.push_str(t),
                    Some(Value::Str(cur)) => {
                        let mut b = String::with_capacity(2 * (cur.len() + t.len()));
                        b.push_str(cur);
                        b.push_str(t);
                        *slot = Some(Value::StrBuf(Box::new(b)));
                    }
                    _ => {}
                }
            }
            ExprKind::Name(n) => {
                let cur = self
                    .load_name(n, f)
                    .map_err(|e| self.at(e, f, target.span, Anchor::None))?;
                let rhs = rhs(self, f)?;
                let r = self
                    .inplace(op, &cur, &rhs)
                    .map_err(|e| self.at(e, f, s.span, Anchor::None))?;
                self.store_name(n, r, f);
            }
            ExprKind::Attr(obj, name, hint) => {
                // A plain local `x` in `x.n += k` is read through its slot before and after
                // the right side (which cannot rebind it): no reference-count round trip.
                let (cur, owned) = match super::expr::local_ref(obj, f) {
                    Some(o) => (self.get_attr_hinted(o, *name, hint), None),
                    None => {
                        let o = self.eval(obj, f)?;
                        (self.get_attr_hinted(&o, *name, hint), Some(o))
                    }
                };
                let cur = cur.map_err(|e| self.at(e, f, target.span, Anchor::None))?;
                let rhs = rhs(self, f)?;
                let r = self
                    .inplace(op, &cur, &rhs)
                    .map_err(|e| self.at(e, f, s.span, Anchor::None))?;
                let done = match (&owned, super::expr::local_ref(obj, f)) {
                    (Some(o), _) | (None, Some(o)) => self.set_attr_hinted(o, *name, r, hint),
                    (None, None) => {
                        let o = self.eval(obj, f)?;
                        self.set_attr_hinted(&o, *name, r, hint)
                    }
                };
                done.map_err(|e| self.at(e, f, target.span, Anchor::None))?;
            }
            ExprKind::Subscript(obj, idx)
                if super::expr::local_ref(obj, f).is_some()
                    && super::expr::operand(idx, f).is_some() =>
            {
                // `xs[i] op= v` on a plain local and a leaf index: both read in place, before
                // and after the right side (which cannot rebind them).
                let cur = match (super::expr::local_ref(obj, f), super::expr::operand(idx, f)) {
                    (Some(o), Some(i)) => match super::index::list_item(o, i.get()) {
                        Some(v) => Ok(v),
                        None => self.get_item(o, i.get()),
                    },
                    _ => Ok(Value::None),
                };
                let cur =
                    cur.map_err(|e| self.at(e, f, target.span, subscript_anchor(obj, idx)))?;
                let rhs = rhs(self, f)?;
                let r = self
                    .inplace(op, &cur, &rhs)
                    .map_err(|e| self.at(e, f, s.span, Anchor::None))?;
                let done = match (super::expr::local_ref(obj, f), super::expr::operand(idx, f)) {
                    (Some(o), Some(i)) => match super::index::list_store(o, i.get(), r) {
                        None => Ok(()),
                        Some(r) => self.set_item(o, i.get(), r),
                    },
                    _ => Ok(()),
                };
                done.map_err(|e| self.at(e, f, target.span, subscript_anchor(obj, idx)))?;
            }
            ExprKind::Subscript(obj, idx) => {
                let o = self.eval(obj, f)?;
                let i = self.eval(idx, f)?;
                let cur = self
                    .get_item(&o, &i)
                    .map_err(|e| self.at(e, f, target.span, subscript_anchor(obj, idx)))?;
                let rhs = rhs(self, f)?;
                let r = self
                    .inplace(op, &cur, &rhs)
                    .map_err(|e| self.at(e, f, s.span, Anchor::None))?;
                self.set_item(&o, &i, r)
                    .map_err(|e| self.at(e, f, target.span, subscript_anchor(obj, idx)))?;
            }
            _ => {
                return Err(PyErr::new(
                    ExcKind::SyntaxError,
                    "illegal expression for augmented assignment",
                ))
            }
        }
        Ok(())
    }

    fn delete(&mut self, t: &Expr, f: &mut Frame) -> PyResult<()> {
        match &t.kind {
            ExprKind::Name(n) => {
                let ok = match n.scope {
                    Scope::Local(slot) => match f.slots.get_mut(slot as usize) {
                        Some(Some(Value::Cell(c))) => c.borrow_mut().take().is_some(),
                        Some(s) => s.take().is_some(),
                        None => false,
                    },
                    Scope::ClassBody => f
                        .class_ns
                        .as_ref()
                        .is_some_and(|ns| ns.borrow_mut().shift_remove(&n.sym).is_some()),
                    _ => self.del_global(n.sym),
                };
                if !ok {
                    let mut e = PyErr::new(
                        ExcKind::NameError,
                        format!("name '{}' is not defined", n.sym),
                    );
                    e.0.missing_name = Some(n.sym.as_str());
                    return Err(self.at(e, f, t.span, Anchor::None));
                }
                Ok(())
            }
            ExprKind::Attr(obj, name, _) => {
                let o = self.eval(obj, f)?;
                self.del_attr(&o, *name)
                    .map_err(|e| self.at(e, f, t.span, Anchor::None))
            }
            ExprKind::Subscript(obj, idx) => {
                let o = self.eval(obj, f)?;
                let i = self.eval(idx, f)?;
                self.del_item(&o, &i)
                    .map_err(|e| self.at(e, f, t.span, subscript_anchor(obj, idx)))
            }
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                items.iter().try_for_each(|i| self.delete(i, f))
            }
            _ => Err(PyErr::new(ExcKind::SyntaxError, "cannot delete expression")),
        }
    }

    fn exec_with(
        &mut self,
        items: &[(Expr, Option<Expr>)],
        i: usize,
        body: &[Stmt],
        f: &mut Frame,
    ) -> PyResult<Flow> {
        let Some((ctx_e, target)) = items.get(i) else {
            return self.exec_block(body, f);
        };
        let ctx = self.eval(ctx_e, f)?;
        let entered = self
            .ctx_enter(&ctx)
            .map_err(|e| self.at(e, f, ctx_e.span, Anchor::None))?;
        if let Some(t) = target {
            if let Err(e) = self.assign(t, entered, f) {
                self.ctx_exit(&ctx, None)?;
                return Err(e);
            }
        }
        match self.exec_with(items, i + 1, body, f) {
            Ok(flow) => {
                self.ctx_exit(&ctx, None)
                    .map_err(|e| self.at(e, f, ctx_e.span, Anchor::None))?;
                Ok(flow)
            }
            Err(err) => {
                if err.is(ExcKind::KeyboardInterrupt) && !matches!(ctx, Value::Instance(_)) {
                    let _ = self.ctx_exit(&ctx, Some(&err));
                    return Err(err);
                }
                let suppress = self.ctx_exit(&ctx, Some(&err))?;
                if suppress {
                    Ok(Flow::Normal)
                } else {
                    Err(err)
                }
            }
        }
    }

    fn exec_try(
        &mut self,
        body: &[Stmt],
        handlers: &[Handler],
        orelse: &[Stmt],
        finalbody: &[Stmt],
        f: &mut Frame,
    ) -> PyResult<Flow> {
        let run = |me: &mut Self, f: &mut Frame, part: TryPart| match part {
            TryPart::Body => me.exec_block(body, f),
            TryPart::Else => me.exec_block(orelse, f),
            TryPart::Finally => me.exec_block(finalbody, f),
            TryPart::Handler(i) => me.exec_block(&handlers[i].body, f),
        };
        self.try_with(handlers, !finalbody.is_empty(), f, run)
    }

    /// A `try` statement whose blocks `run` runs (the tree-walker's or compiled ones).
    pub(crate) fn try_with<R>(
        &mut self,
        handlers: &[Handler],
        has_finally: bool,
        f: &mut Frame,
        run: R,
    ) -> PyResult<Flow>
    where
        R: Fn(&mut Self, &mut Frame, TryPart) -> PyResult<Flow>,
    {
        let result = match run(self, f, TryPart::Body) {
            Ok(flow) => match flow {
                Flow::Normal => run(self, f, TryPart::Else),
                other => Ok(other),
            },
            Err(err) => self.handle(err, handlers, f, &run),
        };
        if !has_finally {
            return result;
        }
        // `finally` runs whatever happened; its own break/return/raise wins.
        if let Err(e) = &result {
            self.handling.push(e.clone());
        }
        let fin = run(self, f, TryPart::Finally);
        if result.is_err() {
            self.handling.pop();
        }
        match fin? {
            Flow::Normal => result,
            other => Ok(other),
        }
    }

    /// An exception's chaining as the caught object shows it (`e.__cause__`, ...), from the
    /// error that carried it. Nothing is written for an unchained one caught for the first
    /// time (the common case): `get_attr` answers the defaults.
    fn record_chaining(&self, err: &PyErr, v: &Value) {
        let Value::Instance(i) = v else { return };
        let chained = err.0.cause.is_some() || err.0.context.is_some() || err.0.suppress_context;
        let mut d = i.dict.borrow_mut();
        if !chained && !d.contains_key(&CHAINING[1]) {
            return;
        }
        let of = |e: &Option<PyErr>| e.as_ref().map_or(Value::None, |e| self.exc_value(e));
        d.insert(CHAINING[0], of(&err.0.cause));
        d.insert(CHAINING[1], of(&err.0.context));
        d.insert(CHAINING[2], Value::bool(err.0.suppress_context));
    }

    fn handle<R>(
        &mut self,
        err: PyErr,
        handlers: &[Handler],
        f: &mut Frame,
        run: &R,
    ) -> PyResult<Flow>
    where
        R: Fn(&mut Self, &mut Frame, TryPart) -> PyResult<Flow>,
    {
        for (i, h) in handlers.iter().enumerate() {
            let matches = match &h.kind {
                None => true,
                Some(k) => {
                    let kv = self.eval(k, f)?;
                    self.exc_matches(&err, &kv)
                        .map_err(|e| self.at(e, f, k.span, Anchor::None))?
                }
            };
            if !matches {
                continue;
            }
            let mut err = err;
            if let Some(n) = &h.name {
                let v = self.exc_value(&err);
                self.record_chaining(&err, &v);
                err.0.exc = Exc::Object(v.clone());
                self.store_name(n, v, f);
            }
            let handled_id = err.0.id;
            self.handling.push(err);
            let mut r = run(self, f, TryPart::Handler(i));
            let handled = self.handling.pop();
            // An error raised while handling another one remembers it ("During handling ...").
            if let (Err(e2), Some(h)) = (&mut r, handled) {
                if e2.0.id != handled_id && e2.0.context.is_none() {
                    e2.0.context = Some(h);
                }
            }
            if let Some(n) = &h.name {
                // Python unbinds the name at the end of the handler.
                match n.scope {
                    Scope::Local(slot) => {
                        if let Some(s) = f.slots.get_mut(slot as usize) {
                            if let Some(Value::Cell(c)) = s {
                                *c.borrow_mut() = None;
                            } else {
                                *s = None;
                            }
                        }
                    }
                    Scope::ClassBody => {
                        if let Some(ns) = &f.class_ns {
                            ns.borrow_mut().shift_remove(&n.sym);
                        }
                    }
                    _ => {
                        self.del_global(n.sym);
                    }
                }
            }
            return r;
        }
        Err(err)
    }

    /// Whether an exception matches an `except` clause's class (or tuple of classes).
    pub(crate) fn exc_matches(&mut self, err: &PyErr, cls: &Value) -> PyResult<bool> {
        match cls {
            Value::Tuple(items) => {
                for c in items.iter() {
                    if self.exc_matches(err, c)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Class(c) if c.exc_kind().is_some() => Ok(match &err.0.exc {
                Exc::Builtin(kind, _) => match c.builtin {
                    Some(BuiltinClass::Exception(k)) => kind.is_subclass_of(k),
                    _ => false,
                },
                Exc::Object(Value::Instance(i)) => i.class.is_subclass(c),
                Exc::Object(_) => false,
            }),
            _ => Err(type_error(
                "catching classes that do not inherit from BaseException is not allowed",
            )),
        }
    }

    fn exec_raise(
        &mut self,
        exc: Option<&Expr>,
        cause: Option<&Expr>,
        f: &mut Frame,
    ) -> PyResult<PyErr> {
        let Some(exc) = exc else {
            return match self.handling.last() {
                Some(e) => {
                    let mut e = e.clone();
                    // Re-raised: keep its traceback, and add this frame's entry again.
                    e.0.located = true;
                    Ok(e)
                }
                None => Ok(PyErr::new(
                    ExcKind::RuntimeError,
                    "No active exception to reraise",
                )),
            };
        };
        let v = self.eval(exc, f)?;
        let cause = match cause {
            Some(c) => Some(self.eval(c, f)?),
            None => None,
        };
        let Some(obj) = self.exception_object(&v)? else {
            return Ok(type_error("exceptions must derive from BaseException"));
        };
        let mut err = PyErr::from_exc(Exc::Object(obj));
        if let Some(ctx) = self.handling.last() {
            err.0.context = Some(ctx.clone());
        }
        if let Some(c) = cause {
            err.0.suppress_context = true;
            if !matches!(c, Value::None) {
                let Some(c) = self.exception_object(&c)? else {
                    return Ok(type_error(
                        "exception causes must derive from BaseException",
                    ));
                };
                // The exception being handled keeps its traceback (`raise ... from e`).
                let handled = self
                    .handling
                    .iter()
                    .rev()
                    .find(|e| matches!(&e.0.exc, Exc::Object(x) if x.is(&c)));
                err.0.cause = Some(match handled {
                    Some(e) => e.clone(),
                    None => PyErr::from_exc(Exc::Object(c)),
                });
            }
        }
        Ok(err)
    }

    /// What `raise` takes: an exception instance as it is, an exception class called with no
    /// arguments; `None` for anything else.
    fn exception_object(&mut self, v: &Value) -> PyResult<Option<Value>> {
        Ok(match v {
            Value::Class(c) if c.exc_kind().is_some() => Some(self.call(v, Args::default())?),
            Value::Instance(i) if i.class.exc_kind().is_some() => Some(v.clone()),
            _ => None,
        })
    }

    pub(crate) fn make_function(
        &mut self,
        def: &Rc<FuncDef>,
        f: &mut Frame,
        _decos: Vec<Value>,
    ) -> PyResult<Value> {
        let mut defaults = Vec::with_capacity(def.params.len());
        for p in &def.params {
            defaults.push(match &p.default {
                Some(d) => Some(self.eval(d, f)?),
                None => None,
            });
        }
        let closure = def
            .info
            .freevars
            .iter()
            .map(|slot| match f.slots.get(*slot as usize) {
                Some(Some(Value::Cell(c))) => c.clone(),
                _ => Rc::new(std::cell::RefCell::new(None)),
            })
            .collect();
        let qualname: PyStr = match (&f.func, &f.class_ns) {
            (_, Some(_)) => PyStr::from(format!("{}.{}", self.class_qualname_prefix(f), def.name)),
            (Some(outer), None) => PyStr::from(format!("{}.<locals>.{}", outer.qualname, def.name)),
            (None, None) => def.name.as_str(),
        };
        Ok(Value::Func(Rc::new(Function {
            def: def.clone(),
            qualname,
            name: def.name.as_str(),
            simple: def.params.iter().all(|p| p.kind == ParamKind::Normal),
            defaults,
            closure,
            src: f.src.clone(),
            class: std::cell::RefCell::new(None),
            attrs: Default::default(),
            globals: self.active_globals.clone(),
        })))
    }

    fn class_qualname_prefix(&self, f: &Frame) -> String {
        f.class_ns
            .as_ref()
            .and_then(|ns| match ns.borrow().get(&Sym::new("__qualname__")) {
                Some(Value::Str(s)) => Some(s.to_string()),
                _ => None,
            })
            .unwrap_or_default()
    }
}

/// Stores into a plain local slot (not a cell) when `t` is one; gives `v` back otherwise.
#[inline]
pub(crate) fn store_local(t: &Expr, v: Value, f: &mut Frame) -> Option<Value> {
    if let ExprKind::Name(Name {
        scope: Scope::Local(slot),
        ..
    }) = &t.kind
    {
        if let Some(s) = f.slots.get_mut(*slot as usize) {
            if !matches!(s, Some(Value::Cell(_))) {
                *s = Some(v);
                return None;
            }
        }
    }
    Some(v)
}

/// Unpacks `v` into `n` targets with no copy of it when it is a tuple of `n` (which cannot
/// change meanwhile), or a list of `n` and `names_only()` (no store into names runs code
/// that could change the list): `put(k, item)` for each in order. `None`, having put
/// nothing, for any other value (the general unpacking words its errors).
#[inline(always)]
pub(crate) fn unpack_in_place(
    v: &Value,
    n: usize,
    names_only: impl FnOnce() -> bool,
    mut put: impl FnMut(usize, Value) -> PyResult<()>,
) -> Option<PyResult<()>> {
    match v {
        Value::Tuple(t) if t.len() == n => {
            Some(t.iter().enumerate().try_for_each(|(k, x)| put(k, x.dup())))
        }
        Value::List(l) if l.borrow().len() == n && names_only() => Some((0..n).try_for_each(|k| {
            let x = l.borrow()[k].dup();
            put(k, x)
        })),
        _ => None,
    }
}

/// A target made only of names (`a`, `(a, [b, c])`): storing into it runs no program code.
pub(crate) fn names_only(t: &Expr) -> bool {
    match &t.kind {
        ExprKind::Name(_) => true,
        ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().all(names_only),
        _ => false,
    }
}

/// CPython 3.11's caret anchor for an error at `obj[idx]`: `~` under the container, `^` under
/// the brackets (a store, `op=` or `del` on a subscript target as well as a load). Computed
/// only once an error has happened.
pub(crate) fn subscript_anchor(obj: &Expr, idx: &Expr) -> Anchor {
    Anchor::Subscript {
        value_end: obj.span.end,
        slice_end: idx.span.end,
    }
}

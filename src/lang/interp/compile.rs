//! Function bodies compiled to closures.
//!
//! A function's body is turned, on its first call, into a tree of closures: each node knows
//! its own shape (a local's slot, an int literal, a global function's name) and calls its
//! children directly, with no dispatch on the syntax tree while it runs. Each node keeps a
//! copy of its syntax and, where its shape does not fit what it meets (a cell variable, an
//! unusual operand), hands that copy to the tree-walker (`eval`, `exec`) before it has done
//! anything observable; the tree-walker is the reference for every behaviour and message.
use super::call::{cached_method, cached_native, Looked};
use super::expr::{cmp_fast, reads_frame, PlainBuiltin};
use super::index::{list_item, list_store};
use super::stmt::{names_only, subscript_anchor, unpack_in_place, Flow, TryPart};
use super::{Frame, Interp};
use crate::lang::ast::*;
use crate::lang::error::{Anchor, PyResult};
use crate::lang::lexer::Span;
use crate::lang::methods::fast_method;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::cell::OnceCell;
use std::rc::Rc;

/// A compiled node giving an `R`.
pub type Node<R> = Box<dyn Fn(&mut Interp, &mut Frame) -> PyResult<R>>;
pub type CExpr = Node<Value>;
type CCond = Node<bool>;
pub type CStmt = Node<Flow>;
pub type CBlock = Box<[CStmt]>;

/// Code compiled on first use and kept with its syntax (a copied definition starts empty).
pub struct Compiled<T>(OnceCell<T>);

impl<T> Default for Compiled<T> {
    fn default() -> Self {
        Compiled(OnceCell::new())
    }
}

impl<T> Clone for Compiled<T> {
    fn clone(&self) -> Self {
        Compiled::default()
    }
}

impl<T> std::fmt::Debug for Compiled<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("Compiled")
    }
}

impl Compiled<CBlock> {
    /// A function's body.
    pub(crate) fn body(&self, def: &FuncDef) -> &CBlock {
        self.0.get_or_init(|| block(&Cx::new(&def.info), &def.body))
    }
}

impl Compiled<CExpr> {
    /// A comprehension's element.
    pub(crate) fn elt(&self, c: &CompScope) -> &CExpr {
        self.0.get_or_init(|| expr(&Cx::new(&c.info), &c.elt))
    }
}

/// What compiling needs to know of the function: which slots hold cells (captured
/// variables), read through their cell rather than in place.
struct Cx {
    cells: Vec<bool>,
}

impl Cx {
    fn new(info: &ScopeInfo) -> Cx {
        // (Cell variables are named by slot; free variables take the last slots.)
        let mut cells = vec![false; info.local_names.len()];
        let nlocals = info.local_names.len() - info.freevars.len();
        for &c in &info.cellvars {
            cells[c as usize] = true;
        }
        for c in cells.iter_mut().skip(nlocals) {
            *c = true;
        }
        Cx { cells }
    }

    /// `e`'s slot when it is a local that is not a cell.
    fn local(&self, e: &Expr) -> Option<usize> {
        local_slot(e).filter(|&s| !self.cells.get(s).copied().unwrap_or(true))
    }
}

/// Runs a compiled block: each statement in turn until one ends it.
#[inline(always)]
pub(crate) fn run_block(b: &[CStmt], it: &mut Interp, f: &mut Frame) -> PyResult<Flow> {
    for s in b {
        match s(it, f)? {
            Flow::Normal => {}
            other => return Ok(other),
        }
    }
    Ok(Flow::Normal)
}

fn block(cx: &Cx, body: &[Stmt]) -> CBlock {
    body.iter()
        // (`global`/`nonlocal` only steer name resolution, done before: nothing runs.)
        .filter(|s| !matches!(s.kind, StmtKind::Global(_) | StmtKind::Nonlocal(_)))
        .map(|s| stmt(cx, s))
        .collect()
}

/// The tree-walker's evaluation of `e` (a copy kept by the node).
fn walk(e: &Expr) -> CExpr {
    let e = e.clone();
    Box::new(move |it, f| it.eval(&e, f))
}

fn local_slot(e: &Expr) -> Option<usize> {
    match &e.kind {
        ExprKind::Name(Name {
            scope: Scope::Local(slot),
            ..
        }) => Some(*slot as usize),
        _ => None,
    }
}

/// A plain local's value in its slot (not a cell, not a string being built).
#[inline(always)]
fn slot_ref<'a>(f: &'a Frame, slot: usize) -> Option<&'a Value> {
    match f.slots.get(slot) {
        Some(Some(Value::Cell(_) | Value::StrBuf(_))) | Some(None) | None => None,
        Some(Some(v)) => Some(v),
    }
}

/// A leaf operand read in place: a plain local in its slot, or a literal.
trait Leaf: 'static {
    fn get<'a>(&'a self, f: &'a Frame) -> Option<&'a Value>;
}

struct SlotLeaf(usize);
impl Leaf for SlotLeaf {
    #[inline(always)]
    fn get<'a>(&'a self, f: &'a Frame) -> Option<&'a Value> {
        slot_ref(f, self.0)
    }
}

struct ImmLeaf(Value);
impl Leaf for ImmLeaf {
    #[inline(always)]
    fn get<'a>(&'a self, _: &'a Frame) -> Option<&'a Value> {
        Some(&self.0)
    }
}

enum AnyLeaf {
    Slot(SlotLeaf),
    Imm(ImmLeaf),
}

fn leaf(cx: &Cx, e: &Expr) -> Option<AnyLeaf> {
    Some(match &e.kind {
        ExprKind::Name(_) => AnyLeaf::Slot(SlotLeaf(cx.local(e)?)),
        ExprKind::Int(i) => AnyLeaf::Imm(ImmLeaf(Value::Int(*i))),
        ExprKind::Float(x) => AnyLeaf::Imm(ImmLeaf(Value::float(*x))),
        ExprKind::None => AnyLeaf::Imm(ImmLeaf(Value::None)),
        ExprKind::Bool(b) => AnyLeaf::Imm(ImmLeaf(Value::bool(*b))),
        _ => return None,
    })
}

/// A node over two leaves, monomorphised for each pair of kinds: `g` gets both values in
/// place; a leaf that is not a plain bound local sends the node to the tree-walker.
fn two_leaves<R: 'static, G, W>(e: &Expr, a: AnyLeaf, b: AnyLeaf, g: G, walk: W) -> Node<R>
where
    G: Fn(&mut Interp, &Frame, &Value, &Value) -> PyResult<R> + 'static,
    W: Fn(&mut Interp, &Expr, &mut Frame) -> PyResult<R> + 'static,
{
    fn mk<A: Leaf, B: Leaf, R: 'static, G, W>(e: Expr, a: A, b: B, g: G, walk: W) -> Node<R>
    where
        G: Fn(&mut Interp, &Frame, &Value, &Value) -> PyResult<R> + 'static,
        W: Fn(&mut Interp, &Expr, &mut Frame) -> PyResult<R> + 'static,
    {
        Box::new(move |it, f| match (a.get(f), b.get(f)) {
            (Some(x), Some(y)) => g(it, f, x, y),
            _ => walk(it, &e, f),
        })
    }
    let e = e.clone();
    match (a, b) {
        (AnyLeaf::Slot(a), AnyLeaf::Slot(b)) => mk(e, a, b, g, walk),
        (AnyLeaf::Slot(a), AnyLeaf::Imm(b)) => mk(e, a, b, g, walk),
        (AnyLeaf::Imm(a), AnyLeaf::Slot(b)) => mk(e, a, b, g, walk),
        (AnyLeaf::Imm(a), AnyLeaf::Imm(b)) => mk(e, a, b, g, walk),
    }
}

/// `g` on `a` and `b`, in order: two leaves read in place (`two_leaves`), a leaf and an
/// expression with the leaf read in place after the other side runs (which cannot rebind a
/// plain local; a leaf that is not a plain bound local at the start runs as compiled, in
/// order), or two compiled expressions.
fn operands<G>(cx: &Cx, e: &Expr, a: &Expr, b: &Expr, g: G) -> CExpr
where
    G: Fn(&mut Interp, &Frame, &Value, &Value) -> PyResult<Value> + 'static,
{
    fn left<L: Leaf, G>(l: L, (ca, cb): (CExpr, CExpr), g: G) -> CExpr
    where
        G: Fn(&mut Interp, &Frame, &Value, &Value) -> PyResult<Value> + 'static,
    {
        Box::new(move |it, f| {
            if l.get(f).is_some() {
                let y = cb(it, f)?;
                if let Some(x) = l.get(f) {
                    return g(it, f, x, &y);
                }
                let x = ca(it, f)?;
                return g(it, f, &x, &y);
            }
            let x = ca(it, f)?;
            let y = cb(it, f)?;
            g(it, f, &x, &y)
        })
    }
    fn right<L: Leaf, G>(l: L, (ca, cb): (CExpr, CExpr), g: G) -> CExpr
    where
        G: Fn(&mut Interp, &Frame, &Value, &Value) -> PyResult<Value> + 'static,
    {
        Box::new(move |it, f| {
            let x = ca(it, f)?;
            match l.get(f) {
                Some(y) => g(it, f, &x, y),
                None => {
                    let y = cb(it, f)?;
                    g(it, f, &x, &y)
                }
            }
        })
    }
    let both = (expr(cx, a), expr(cx, b));
    match (leaf(cx, a), leaf(cx, b)) {
        (Some(la), Some(lb)) => two_leaves(e, la, lb, g, |it, e, f| it.eval(e, f)),
        (Some(AnyLeaf::Slot(l)), None) => left(l, both, g),
        (Some(AnyLeaf::Imm(l)), None) => left(l, both, g),
        (None, Some(AnyLeaf::Slot(l))) => right(l, both, g),
        (None, Some(AnyLeaf::Imm(l))) => right(l, both, g),
        (None, None) => {
            let (ca, cb) = both;
            Box::new(move |it, f| {
                let x = ca(it, f)?;
                let y = cb(it, f)?;
                g(it, f, &x, &y)
            })
        }
    }
}

fn expr(cx: &Cx, e: &Expr) -> CExpr {
    match &e.kind {
        ExprKind::Int(i) => {
            let i = *i;
            Box::new(move |_, _| Ok(Value::Int(i)))
        }
        ExprKind::Float(x) => {
            let x = *x;
            Box::new(move |_, _| Ok(Value::float(x)))
        }
        ExprKind::None => Box::new(|_, _| Ok(Value::None)),
        ExprKind::Bool(b) => {
            let b = *b;
            Box::new(move |_, _| Ok(Value::bool(b)))
        }
        ExprKind::Str(s) => {
            let s = s.clone();
            Box::new(move |_, _| Ok(Value::Str(s.clone())))
        }
        ExprKind::Name(Name {
            scope: Scope::Local(slot),
            ..
        }) => {
            let slot = *slot as usize;
            let e = e.clone();
            if cx.cells.get(slot).copied().unwrap_or(true) {
                // A captured variable: its cell's value.
                return Box::new(move |it, f| {
                    if let Some(Some(Value::Cell(c))) = f.slots.get(slot) {
                        if let Some(v) = &*c.borrow() {
                            return Ok(v.dup());
                        }
                    }
                    it.eval(&e, f)
                });
            }
            Box::new(move |it, f| match slot_ref(f, slot) {
                Some(v) => Ok(v.dup()),
                None => it.eval(&e, f),
            })
        }
        ExprKind::Name(Name {
            scope: Scope::Global,
            sym,
        }) => {
            let i = sym.index();
            let e = e.clone();
            Box::new(move |it, f| {
                if let Some(Some(v)) = it.globals.get(i) {
                    return Ok(v.dup());
                }
                if let Some(Some(v)) = it.builtins.get(i) {
                    return Ok(v.dup());
                }
                it.eval(&e, f)
            })
        }
        ExprKind::Binary(op, a, b) => binary(cx, e, *op, a, b),
        ExprKind::Compare(first, rest) if rest.len() == 1 => {
            let (op, re) = (rest[0].0, &rest[0].1);
            let span = e.span;
            let g = move |it: &mut Interp, f: &Frame, x: &Value, y: &Value| {
                it.compare_two(op, x, y)
                    .map_err(|err| it.at(err, f, span, Anchor::None))
            };
            operands(cx, e, first, re, g)
        }
        ExprKind::Subscript(obj, idx) => match &idx.kind {
            // `xs[a:b:c]`: no slice object (`SliceSite`).
            ExprKind::Slice(a, b, c) => {
                let read = SliceSite::new(cx, e, obj, idx, [a, b, c]);
                Box::new(move |it, f| read.run(it, f, |it, o, vals| it.get_slice(o, vals)))
            }
            _ => subscript(cx, e, obj, idx),
        },
        ExprKind::Call(func, args) => call(cx, e, func, args),
        ExprKind::List(items) | ExprKind::Tuple(items)
            if !items.iter().any(|x| matches!(x.kind, ExprKind::Starred(_))) =>
        {
            let (citems, list) = (arg_nodes_of(cx, items), matches!(e.kind, ExprKind::List(_)));
            Box::new(move |it, f| {
                let mut out = Vec::with_capacity(citems.len());
                for c in citems.iter() {
                    out.push(c.eval(it, f)?);
                }
                Ok(if list {
                    Value::list(out)
                } else {
                    Value::tuple(out)
                })
            })
        }
        // `o.x`: a plain local `o` read in its slot (no reference-count round trip).
        ExprKind::Attr(obj, name, _) => {
            let (oslot, cobj) = (cx.local(obj), expr(cx, obj));
            let (name, span, hint) = (*name, e.span, AttrHint::default());
            Box::new(move |it, f| {
                let r = match oslot.and_then(|slot| slot_ref(f, slot)) {
                    Some(o) => it.get_attr_hinted(o, name, &hint),
                    None => {
                        let o = cobj(it, f)?;
                        it.get_attr_hinted(&o, name, &hint)
                    }
                };
                r.map_err(|err| it.at(err, f, span, Anchor::None))
            })
        }
        // `a and b`, `a or b`: the deciding operand's value, each tested once at its own span.
        ExprKind::And(a, b) | ExprKind::Or(a, b) => {
            let (ca, cb, aspan) = (expr(cx, a), expr(cx, b), a.span);
            let and = matches!(e.kind, ExprKind::And(..));
            Box::new(move |it, f| {
                let x = ca(it, f)?;
                if it.test_at(&x, f, aspan)? != and {
                    return Ok(x);
                }
                cb(it, f)
            })
        }
        ExprKind::Unary(op, a) => {
            let (ca, op, span) = (expr(cx, a), *op, e.span);
            Box::new(move |it, f| {
                let x = ca(it, f)?;
                match (op, &x) {
                    (UnaryOp::Not, Value::Bool(t)) => Ok(Value::bool(!t.get())),
                    (UnaryOp::Not, Value::None) => Ok(Value::bool(true)),
                    _ => it
                        .unary(op, &x)
                        .map_err(|err| it.at(err, f, span, Anchor::None)),
                }
            })
        }
        ExprKind::IfExp(c, a, b) => {
            let (cc, ca, cb) = (cond(cx, c, c.span), expr(cx, a), expr(cx, b));
            Box::new(move |it, f| if cc(it, f)? { ca(it, f) } else { cb(it, f) })
        }
        _ => walk(e),
    }
}

/// `obj[idx]` (not a slice): a plain local container read in its slot, a leaf index in
/// place; a list's item without a call.
fn subscript(cx: &Cx, e: &Expr, obj: &Expr, idx: &Expr) -> CExpr {
    let (span, anchor) = (e.span, subscript_anchor(obj, idx));
    let at = move |it: &Interp, err, f: &Frame| it.at(err, f, span, anchor);
    let get = move |it: &mut Interp, f: &Frame, o: &Value, i: &Value| {
        if let Some(v) = list_item(o, i) {
            return Ok(v);
        }
        it.get_item(o, i).map_err(|err| at(it, err, f))
    };
    // (A plain local container is read after the index, which cannot rebind it.)
    operands(cx, e, obj, idx, get)
}

fn binary(cx: &Cx, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> CExpr {
    let (span, anchor) = (
        e.span,
        Anchor::BinOp {
            left_end: a.span.end,
            right_start: b.span.start,
        },
    );
    let g = move |it: &mut Interp, f: &Frame, x: &Value, y: &Value| {
        it.binary(op, x, y)
            .map_err(|err| it.at(err, f, span, anchor))
    };
    operands(cx, e, a, b, g)
}

/// A call's argument: a leaf read in place (a local that is not plain goes through its
/// compiled read), or a compiled expression.
enum ArgNode {
    Slot(usize, CExpr),
    Imm(Value),
    Expr(CExpr),
}

impl ArgNode {
    #[inline(always)]
    fn eval(&self, it: &mut Interp, f: &mut Frame) -> PyResult<Value> {
        match self {
            ArgNode::Slot(slot, c) => match slot_ref(f, *slot) {
                Some(v) => Ok(v.dup()),
                None => c(it, f),
            },
            ArgNode::Imm(v) => Ok(v.dup()),
            ArgNode::Expr(c) => c(it, f),
        }
    }
}

fn call(cx: &Cx, e: &Expr, func: &Expr, args: &[Arg]) -> CExpr {
    if !args.iter().all(|a| matches!(a, Arg::Pos(_))) {
        return walk(e);
    }
    let (cargs, span) = (arg_nodes(cx, args), e.span);
    let at = move |it: &Interp, err, f: &Frame| it.at(err, f, span, Anchor::None);
    match &func.kind {
        // `f(a, b)` of a global simple Python function: the arguments straight into its
        // slots; a builtin function or type (`len(x)`, `str(i)`) called directly.
        ExprKind::Name(Name {
            scope: Scope::Global,
            sym,
        }) => {
            let (i, e, callee) = (sym.index(), e.clone(), func.clone());
            Box::new(move |it, f| {
                if let Some(Some(Value::Func(fun))) = it.globals.get(i) {
                    if fun.simple {
                        let fun = fun.clone();
                        return call_simple(it, f, &fun, None, &cargs, span);
                    }
                }
                let Some(b) = it.plain_builtin(&callee) else {
                    return it.eval(&e, f);
                };
                if let (PlainBuiltin::Len(_), [x]) = (&b, &cargs[..]) {
                    let n = match x {
                        ArgNode::Slot(slot, _) if slot_ref(f, *slot).is_some() => {
                            slot_ref(f, *slot).map_or(Ok(0), |v| it.len(v))
                        }
                        _ => {
                            let v = x.eval(it, f)?;
                            it.len(&v)
                        }
                    };
                    return n
                        .map(|n| Value::Int(n as i64))
                        .map_err(|err| at(it, err, f));
                }
                let a = Args::new(eval_args(&cargs, it, f)?);
                let r = match b {
                    PlainBuiltin::Func(nf) | PlainBuiltin::Len(nf) => {
                        it.check_interrupt().and_then(|()| nf(it, &Value::None, a))
                    }
                    PlainBuiltin::Type(tag) => crate::lang::builtins::construct(it, tag, a),
                };
                r.map_err(|err| at(it, err, f))
            })
        }
        // A local function, or a builtin held in a local (`pop = xs.pop`).
        ExprKind::Name(_) => {
            let (Some(slot), e) = (cx.local(func), e.clone()) else {
                return walk(e);
            };
            Box::new(move |it, f| match slot_ref(f, slot) {
                Some(Value::Func(fun)) if fun.simple => {
                    let fun = fun.clone();
                    call_simple(it, f, &fun, None, &cargs, span)
                }
                Some(Value::Builtin(b)) if b.this.is_some() || !reads_frame(b.name) => {
                    let b = b.clone();
                    with_small_args(&cargs, it, f, |it, f, args| {
                        let this = b.this.as_ref().unwrap_or(&Value::None);
                        let fast = fast_method(this, b.name);
                        it.call_native_slice(b.f, fast, this, args)
                            .map_err(|err| at(it, err, f))
                    })
                }
                _ => it.eval(&e, f),
            })
        }
        ExprKind::Attr(obj, name, _) => method_call(cx, e, func.span, obj, *name, cargs),
        _ => walk(e),
    }
}

/// A call of a `simple` Python function: `this` (a method's object) and the arguments
/// straight into its new frame's slots, a window of the slot stack when they are all its
/// parameters (else a `Vec`, completed with defaults or refused by `call_slots`).
#[inline(always)]
fn call_simple(
    it: &mut Interp,
    f: &mut Frame,
    fun: &Rc<Function>,
    this: Option<Value>,
    cargs: &[ArgNode],
    span: Span,
) -> PyResult<Value> {
    let nlocals = fun.def.info.local_names.len();
    if cargs.len() + this.is_some() as usize == fun.def.params.len() {
        // SAFETY: the window is given back below on every path, after the calls made while
        // it is held have given theirs back, and is not used after.
        if let Some((mark, slots)) = unsafe { it.slot_stack.take(nlocals) } {
            // (A new window's slots are empty: written without a look at what they held.)
            let put = |slot: &mut Option<Value>, v| std::mem::forget(slot.replace(v));
            let mut i = 0;
            if let Some(this) = this {
                put(&mut slots[0], this);
                i = 1;
            }
            for a in cargs {
                match a.eval(it, f) {
                    Ok(v) => put(&mut slots[i], v),
                    Err(err) => {
                        it.slot_stack.give_back(mark, slots);
                        return Err(err);
                    }
                }
                i += 1;
            }
            let r = match it.tick() {
                Ok(()) => it.run_frame(fun, slots),
                Err(err) => Err(err),
            };
            it.slot_stack.give_back(mark, slots);
            return r.map_err(|err| it.at(err, f, span, Anchor::None));
        }
    }
    let mut slots = it.new_slots(nlocals);
    if let Some(this) = this {
        slots.push(Some(this));
    }
    for a in cargs {
        match a.eval(it, f) {
            Ok(v) => slots.push(Some(v)),
            Err(err) => {
                it.free_slots(slots);
                return Err(err);
            }
        }
    }
    it.call_slots(fun, slots)
        .map_err(|err| it.at(err, f, span, Anchor::None))
}

/// `obj.name(a, b)`: the method is found before the arguments run (as CPython's
/// LOAD_METHOD), through this site's cache when it is a plain local's; a Python method gets
/// `obj` and the arguments straight in its slots, a builtin type's its fast form.
fn method_call(
    cx: &Cx,
    e: &Expr,
    fspan: Span,
    obj: &Expr,
    name: Sym,
    cargs: Box<[ArgNode]>,
) -> CExpr {
    let (oslot, cobj, hint, span) = (cx.local(obj), expr(cx, obj), AttrHint::default(), e.span);
    let at = move |it: &Interp, err, f: &Frame| it.at(err, f, span, Anchor::None);
    Box::new(move |it, f| {
        if let Some(slot) = oslot {
            if let Some(m) = slot_ref(f, slot).and_then(|o| cached_native(o, &hint)) {
                return with_small_args(&cargs, it, f, |it, f, args| {
                    // (The arguments cannot unbind a plain local; if they did, its read fails.)
                    let o = match slot_ref(f, slot) {
                        Some(o) => o,
                        None => &cobj(it, f)?,
                    };
                    it.call_native_slice(m.f, m.fast, o, args)
                        .map_err(|err| at(it, err, f))
                });
            }
        }
        let cached = match oslot.and_then(|s| slot_ref(f, s)) {
            Some(Value::Instance(i)) => {
                cached_method(i, name, &hint).map(|m| Looked::Func(m, Value::Instance(i.clone())))
            }
            _ => None,
        };
        let method = match cached {
            Some(m) => m,
            None => {
                let o = match oslot.and_then(|s| slot_ref(f, s)) {
                    Some(v) => v.dup(),
                    None => cobj(it, f)?,
                };
                it.lookup_method_hinted(o, name, &hint)
                    .map_err(|err| it.at(err, f, fspan, Anchor::None))?
            }
        };
        match method {
            Looked::Func(func, this) if func.simple => {
                call_simple(it, f, &func, Some(this), &cargs, span)
            }
            Looked::Native(nf, this, _) => with_small_args(&cargs, it, f, |it, f, args| {
                let fast = cached_native(&this, &hint).and_then(|m| m.fast);
                it.call_native_slice(nf, fast, &this, args)
                    .map_err(|err| at(it, err, f))
            }),
            m => {
                let pos = eval_args(&cargs, it, f)?;
                it.call_looked_up(m, Args::new(pos))
                    .map_err(|err| at(it, err, f))
            }
        }
    })
}

fn arg_nodes(cx: &Cx, args: &[Arg]) -> Box<[ArgNode]> {
    args.iter()
        .filter_map(|a| match a {
            Arg::Pos(x) => Some(arg_node(cx, x)),
            _ => None,
        })
        .collect()
}

fn arg_nodes_of(cx: &Cx, items: &[Expr]) -> Box<[ArgNode]> {
    items.iter().map(|x| arg_node(cx, x)).collect()
}

fn arg_node(cx: &Cx, x: &Expr) -> ArgNode {
    match leaf(cx, x) {
        Some(AnyLeaf::Slot(SlotLeaf(s))) => ArgNode::Slot(s, expr(cx, x)),
        Some(AnyLeaf::Imm(ImmLeaf(v))) => ArgNode::Imm(v),
        None => ArgNode::Expr(expr(cx, x)),
    }
}

/// A builtin's call with its arguments in a stack array when there are at most two (no
/// `ArgVec` to build and drop: `list.append`, `dict.get`, ...), released after `k` ran.
#[inline(always)]
fn with_small_args<K>(cargs: &[ArgNode], it: &mut Interp, f: &mut Frame, k: K) -> PyResult<Value>
where
    K: FnOnce(&mut Interp, &mut Frame, &mut [Value]) -> PyResult<Value>,
{
    match cargs {
        [] => k(it, f, &mut []),
        [a] => {
            let mut v = [a.eval(it, f)?];
            let r = k(it, f, &mut v);
            let [x] = v;
            x.release();
            r
        }
        [a, b] => {
            let x = a.eval(it, f)?;
            let mut v = [x, b.eval(it, f)?];
            let r = k(it, f, &mut v);
            let [x, y] = v;
            x.release();
            y.release();
            r
        }
        _ => {
            let mut v = eval_args(cargs, it, f)?;
            k(it, f, &mut v)
        }
    }
}

#[inline(always)]
fn eval_args(cargs: &[ArgNode], it: &mut Interp, f: &mut Frame) -> PyResult<ArgVec> {
    let mut pos = ArgVec::new();
    for a in cargs {
        pos.push(a.eval(it, f)?);
    }
    Ok(pos)
}

/// The truth of a condition tested at `span`, as `Interp::cond` gives it: `and`, `or` and
/// `not` jump on their operands' truth; a comparison of two int leaves gives its truth.
fn cond(cx: &Cx, e: &Expr, span: Span) -> CCond {
    match &e.kind {
        // `x is None`, `x is not None`: the tag looked at, a plain local's in its slot.
        ExprKind::Compare(first, rest)
            if rest.len() == 1
                && matches!(rest[0].0, CmpOp::Is | CmpOp::IsNot)
                && matches!(rest[0].1.kind, ExprKind::None) =>
        {
            let (slot, cx_first, is) = (cx.local(first), expr(cx, first), rest[0].0 == CmpOp::Is);
            Box::new(move |it, f| {
                if let Some(v) = slot.and_then(|s| slot_ref(f, s)) {
                    return Ok(matches!(v, Value::None) == is);
                }
                Ok(matches!(cx_first(it, f)?, Value::None) == is)
            })
        }
        ExprKind::Compare(first, rest) if rest.len() == 1 => {
            let (op, espan) = (rest[0].0, e.span);
            let test = move |it: &mut Interp, f: &Frame, v: Value| it.test_at(&v, f, span);
            if let (Some(la), Some(lb)) = (leaf(cx, first), leaf(cx, &rest[0].1)) {
                let g = move |it: &mut Interp, f: &Frame, x: &Value, y: &Value| {
                    if let (Value::Int(x), Value::Int(y)) = (x, y) {
                        if let Some(t) = cmp_fast(op, x, y) {
                            return Ok(t);
                        }
                    }
                    let v = it
                        .compare_two(op, x, y)
                        .map_err(|err| it.at(err, f, espan, Anchor::None))?;
                    test(it, f, v)
                };
                return two_leaves(e, la, lb, g, move |it, e, f| it.cond(e, f, span));
            }
            let ce = expr(cx, e);
            Box::new(move |it, f| {
                let v = ce(it, f)?;
                test(it, f, v)
            })
        }
        ExprKind::And(a, b) => {
            let (ca, cb) = (cond(cx, a, a.span), cond(cx, b, span));
            Box::new(move |it, f| Ok(ca(it, f)? && cb(it, f)?))
        }
        ExprKind::Or(a, b) => {
            let (ca, cb) = (cond(cx, a, a.span), cond(cx, b, span));
            Box::new(move |it, f| Ok(ca(it, f)? || cb(it, f)?))
        }
        ExprKind::Unary(UnaryOp::Not, a) => {
            let ca = cond(cx, a, e.span);
            Box::new(move |it, f| Ok(!ca(it, f)?))
        }
        _ => {
            let ce = expr(cx, e);
            Box::new(move |it, f| {
                let v = ce(it, f)?;
                it.test_at(&v, f, span)
            })
        }
    }
}

/// `obj.name = value`, through this site's cache.
fn attr_store(cx: &Cx, s: &Stmt, tspan: Span, obj: &Expr, name: Sym, value: &Expr) -> CStmt {
    // (The value as an argument node: `self.x = True` and `self.x = y` read it in place.)
    let (cv, oslot, cobj, hint) = (
        arg_node(cx, value),
        cx.local(obj),
        expr(cx, obj),
        AttrHint::default(),
    );
    node(s, move |it, f| {
        let v = cv.eval(it, f)?;
        let r = match oslot.and_then(|slot| slot_ref(f, slot)) {
            Some(o) => it.set_attr_hinted(o, name, v, &hint),
            None => {
                let o = cobj(it, f)?;
                it.set_attr_hinted(&o, name, v, &hint)
            }
        };
        r.map_err(|err| it.at(err, f, tspan, Anchor::None))?;
        Ok(Flow::Normal)
    })
}

/// `obj.name op= value`: the attribute read and written through one site cache, a plain
/// local `obj` read in its slot before and after the right side (which cannot rebind it).
/// (`aug_assign_with` does the same from the syntax; this node's own cache and slot made
/// `methods` 10% faster.)
fn attr_aug_assign(
    cx: &Cx,
    s: &Stmt,
    target: &Expr,
    obj: &Expr,
    name: Sym,
    op: BinOp,
    cv: CExpr,
) -> CStmt {
    let (oslot, cobj, hint) = (cx.local(obj), expr(cx, obj), AttrHint::default());
    let (tspan, span) = (target.span, s.span);
    node(s, move |it, f| {
        let (cur, owned) = match oslot.and_then(|slot| slot_ref(f, slot)) {
            Some(o) => (it.get_attr_hinted(o, name, &hint), None),
            None => {
                let o = cobj(it, f)?;
                (it.get_attr_hinted(&o, name, &hint), Some(o))
            }
        };
        let cur = cur.map_err(|err| it.at(err, f, tspan, Anchor::None))?;
        let rhs = cv(it, f)?;
        let r = it
            .inplace(op, &cur, &rhs)
            .map_err(|err| it.at(err, f, span, Anchor::None))?;
        let done = match (&owned, oslot.and_then(|slot| slot_ref(f, slot))) {
            (Some(o), _) | (None, Some(o)) => it.set_attr_hinted(o, name, r, &hint),
            (None, None) => {
                let o = cobj(it, f)?;
                it.set_attr_hinted(&o, name, r, &hint)
            }
        };
        done.map_err(|err| it.at(err, f, tspan, Anchor::None))?;
        Ok(Flow::Normal)
    })
}

/// `xs[i] = v` with a plain local container and a leaf index, both read in place after the
/// value; a list's item stored without a call. Any other shape takes `assign`'s way.
fn item_store<L: Leaf>(
    s: &Stmt,
    t: &Expr,
    slot: usize,
    idx: L,
    cv: CExpr,
    anchor: Anchor,
) -> CStmt {
    let (t, tspan) = (t.clone(), t.span);
    node(s, move |it, f| {
        let v = cv(it, f)?;
        let (Some(o), Some(i)) = (slot_ref(f, slot), idx.get(f)) else {
            it.assign(&t, v, f)?;
            return Ok(Flow::Normal);
        };
        let r = match list_store(o, i, v) {
            None => Ok(()),
            Some(v) => it.set_item(o, i, v),
        };
        r.map_err(|err| it.at(err, f, tspan, anchor))?;
        Ok(Flow::Normal)
    })
}

/// `xs[i + 1] = v` with a plain local container: the value, then the index, then the
/// container read in its slot (which neither can rebind).
fn item_store_expr(
    cx: &Cx,
    s: &Stmt,
    t: &Expr,
    slot: usize,
    idx: &Expr,
    cv: CExpr,
    anchor: Anchor,
) -> CStmt {
    let ci = expr(cx, idx);
    let (t, tspan) = (t.clone(), t.span);
    node(s, move |it, f| {
        let v = cv(it, f)?;
        // (An unbound container fails before the index runs, as in `assign`.)
        if slot_ref(f, slot).is_none() {
            it.assign(&t, v, f)?;
            return Ok(Flow::Normal);
        }
        let i = ci(it, f)?;
        let Some(o) = slot_ref(f, slot) else {
            it.assign(&t, v, f)?;
            return Ok(Flow::Normal);
        };
        it.set_item(o, &i, v)
            .map_err(|err| it.at(err, f, tspan, anchor))?;
        Ok(Flow::Normal)
    })
}

type CSliceParts = [Option<CExpr>; 3];

fn slice_parts(cx: &Cx, parts: [&Option<Box<Expr>>; 3]) -> CSliceParts {
    parts.map(|p| p.as_ref().map(|x| expr(cx, x)))
}

/// A slice's bounds and step in order, `None` for those left out (no slice object).
/// (Each is made in place: writing over a `None` made first cost a drop call per part.)
fn eval_slice_parts(parts: &CSliceParts, it: &mut Interp, f: &mut Frame) -> PyResult<[Value; 3]> {
    let mut part = |p: &Option<CExpr>| match p {
        Some(p) => p(it, f),
        None => Ok(Value::None),
    };
    Ok([part(&parts[0])?, part(&parts[1])?, part(&parts[2])?])
}

/// `obj[a:b:c]` read or assigned: the container and its parts evaluated in order, no slice
/// object. A plain local container is read in its slot after the parts (which cannot unbind
/// it; if they did, its read fails).
struct SliceSite {
    oslot: Option<usize>,
    cobj: CExpr,
    parts: CSliceParts,
    span: Span,
    anchor: Anchor,
}

impl SliceSite {
    fn new(cx: &Cx, e: &Expr, obj: &Expr, idx: &Expr, parts: [&Option<Box<Expr>>; 3]) -> Self {
        SliceSite {
            oslot: cx.local(obj),
            cobj: expr(cx, obj),
            parts: slice_parts(cx, parts),
            span: e.span,
            anchor: subscript_anchor(obj, idx),
        }
    }

    /// `read` on the container and the parts; its error is placed at the subscript.
    #[inline(always)]
    fn run<R>(
        &self,
        it: &mut Interp,
        f: &mut Frame,
        read: impl FnOnce(&mut Interp, &Value, &[Value; 3]) -> PyResult<R>,
    ) -> PyResult<R> {
        let (r, vals) = match self.oslot.filter(|&s| slot_ref(f, s).is_some()) {
            Some(slot) => {
                let vals = eval_slice_parts(&self.parts, it, f)?;
                match slot_ref(f, slot) {
                    Some(o) => (read(it, o, &vals), vals),
                    None => {
                        let o = (self.cobj)(it, f)?;
                        (read(it, &o, &vals), vals)
                    }
                }
            }
            None => {
                let o = (self.cobj)(it, f)?;
                let vals = eval_slice_parts(&self.parts, it, f)?;
                (read(it, &o, &vals), vals)
            }
        };
        // (Most parts are ints or `None`: no drop call for each.)
        vals.into_iter().for_each(Value::release);
        r.map_err(|err| it.at(err, f, self.span, self.anchor))
    }
}

/// `xs[a:b] = v`: the value, the container, then the slice's parts, as `assign` runs them.
fn slice_store(cx: &Cx, s: &Stmt, t: &Expr, obj: &Expr, idx: &Expr) -> Option<CStmt> {
    let (StmtKind::Assign(_, value), ExprKind::Slice(a, b, c)) = (&s.kind, &idx.kind) else {
        return None;
    };
    let write = SliceSite::new(cx, t, obj, idx, [a, b, c]);
    // `xs[a:b] = ys[c:d]` (fannkuch's `perm[:k+1] = perm[k::-1]`): a list's or tuple's
    // picked items wait in the interpreter's buffer, not in a new list.
    if let ExprKind::Subscript(vobj, vidx) = &value.kind {
        if let ExprKind::Slice(c, d, e) = &vidx.kind {
            let read = SliceSite::new(cx, value, vobj, vidx, [c, d, e]);
            return Some(node(s, move |it, f| {
                let mut buf = std::mem::take(&mut it.slice_buf);
                let mut copy = |it: &mut Interp, f: &mut Frame| {
                    let v = read.run(it, f, |it, o, vals| it.get_slice_into(o, vals, &mut buf))?;
                    write.run(it, f, |it, o, vals| match v {
                        Some(v) => it.set_slice(o, vals, v),
                        None => it.set_slice_items(o, vals, &mut buf),
                    })
                };
                let r = copy(it, f);
                buf.clear();
                // (A long slice's buffer is not kept.)
                if buf.capacity() <= 1024 {
                    it.slice_buf = buf;
                }
                r.map(|_| Flow::Normal)
            }));
        }
    }
    let cv = expr(cx, value);
    Some(node(s, move |it, f| {
        let v = cv(it, f)?;
        write.run(it, f, |it, o, vals| it.set_slice(o, vals, v))?;
        Ok(Flow::Normal)
    }))
}

/// `x = value` into the plain local slot `dst`, `read` giving the value.
fn local_store<R>(s: &Stmt, dst: usize, read: R) -> CStmt
where
    R: Fn(&mut Interp, &mut Frame) -> PyResult<Value> + 'static,
{
    node(s, move |it, f| {
        let v = read(it, f)?;
        set_slot(f, dst, v);
        Ok(Flow::Normal)
    })
}

/// Stores `v` in the plain local slot `slot`; what it held is released (an int or float
/// costs no drop call).
#[inline(always)]
fn set_slot(f: &mut Frame, slot: usize, v: Value) {
    if let Some(old) = f.slots[slot].replace(v) {
        old.release();
    }
}

/// An assignment target resolved here: a plain local by its slot, a tuple or list of
/// targets unpacked in place (`for ([x, y], v) in pairs:`); anything else, or a value of
/// another shape (whose error `assign` words), through `assign`.
enum Store {
    Slot(usize),
    Seq {
        items: Box<[Store]>,
        names_only: bool,
        target: Expr,
    },
    Walk(Expr),
}

impl Store {
    fn new(cx: &Cx, t: &Expr) -> Store {
        if let Some(slot) = cx.local(t) {
            return Store::Slot(slot);
        }
        match &t.kind {
            ExprKind::Tuple(items) | ExprKind::List(items)
                if !items.iter().any(|x| matches!(x.kind, ExprKind::Starred(_))) =>
            {
                Store::Seq {
                    items: items.iter().map(|x| Store::new(cx, x)).collect(),
                    names_only: names_only(t),
                    target: t.clone(),
                }
            }
            _ => Store::Walk(t.clone()),
        }
    }

    fn put(&self, it: &mut Interp, v: Value, f: &mut Frame) -> PyResult<()> {
        match self {
            Store::Slot(slot) => {
                set_slot(f, *slot, v);
                Ok(())
            }
            Store::Seq {
                items,
                names_only,
                target,
            } => {
                let put = |k: usize, x| items[k].put(it, x, f);
                match unpack_in_place(&v, items.len(), || *names_only, put) {
                    Some(r) => r,
                    None => it.assign(target, v, f),
                }
            }
            Store::Walk(t) => it.assign(t, v, f),
        }
    }
}

/// A statement's node: `inner` inlined under the traceback bookkeeping every statement has.
fn node<F>(s: &Stmt, inner: F) -> CStmt
where
    F: Fn(&mut Interp, &mut Frame) -> PyResult<Flow> + 'static,
{
    let (start, span) = (s.span.start, s.span);
    Box::new(move |it, f| {
        it.note_stmt(start, f.src);
        inner(it, f).map_err(|err| it.at(err, f, span, Anchor::None))
    })
}

fn stmt(cx: &Cx, s: &Stmt) -> CStmt {
    if let StmtKind::Assign(targets, value) = &s.kind {
        if let [t @ Expr {
            kind: ExprKind::Attr(obj, name, _),
            ..
        }] = &targets[..]
        {
            return attr_store(cx, s, t.span, obj, *name, value);
        }
        if let [t @ Expr {
            kind: ExprKind::Subscript(obj, idx),
            ..
        }] = &targets[..]
        {
            if let Some(c) = slice_store(cx, s, t, obj, idx) {
                return c;
            }
            if let Some(slot) = cx.local(obj) {
                let (cv, anchor) = (expr(cx, value), subscript_anchor(obj, idx));
                return match leaf(cx, idx) {
                    None => item_store_expr(cx, s, t, slot, idx, cv, anchor),
                    Some(AnyLeaf::Slot(l)) => item_store(s, t, slot, l, cv, anchor),
                    Some(AnyLeaf::Imm(l)) => item_store(s, t, slot, l, cv, anchor),
                };
            }
        }
    }
    match &s.kind {
        StmtKind::Expr(e) => {
            let ce = expr(cx, e);
            node(s, move |it, f| {
                ce(it, f)?.release();
                Ok(Flow::Normal)
            })
        }
        StmtKind::Assign(targets, value) if targets.len() == 1 => {
            let cv = expr(cx, value);
            // A plain local target: its slot, known here (no look at the target's syntax);
            // `x = y` and `x = o.attr` of plain locals read their value in the same node.
            if let Some(dst) = cx.local(&targets[0]) {
                if let ExprKind::Attr(obj, name, _) = &value.kind {
                    if let Some(oslot) = cx.local(obj) {
                        let (name, span, hint) = (*name, value.span, AttrHint::default());
                        return local_store(s, dst, move |it, f| match slot_ref(f, oslot) {
                            Some(o) => it
                                .get_attr_hinted(o, name, &hint)
                                .map_err(|err| it.at(err, f, span, Anchor::None)),
                            None => cv(it, f),
                        });
                    }
                }
                if let Some(src) = cx.local(value) {
                    return local_store(s, dst, move |it, f| match slot_ref(f, src) {
                        Some(v) => Ok(v.dup()),
                        None => cv(it, f),
                    });
                }
                return local_store(s, dst, cv);
            }
            let store = Store::new(cx, &targets[0]);
            node(s, move |it, f| {
                let v = cv(it, f)?;
                store.put(it, v, f)?;
                Ok(Flow::Normal)
            })
        }
        StmtKind::If(test, body, orelse) => {
            let c = cond(cx, test, test.span);
            let (body, orelse) = (block(cx, body), block(cx, orelse));
            node(s, move |it, f| {
                if c(it, f)? {
                    run_block(&body, it, f)
                } else {
                    run_block(&orelse, it, f)
                }
            })
        }
        // `o.x += k` has its node; `n += k`, `xs[i] += k`: the tree-walker's own statement
        // (`aug_assign_with`), the right side compiled. A plain local's slot is known here, so a number in it is updated in place
        // without `aug_assign_with`'s look at the target (8% of `loops`' instructions).
        StmtKind::AugAssign(target, op, value) => {
            if let ExprKind::Attr(obj, name, _) = &target.kind {
                return attr_aug_assign(cx, s, target, obj, *name, *op, expr(cx, value));
            }
            let (slot, span) = (cx.local(target), s.span);
            let (target, op, cv, whole) = (target.clone(), *op, expr(cx, value), s.clone());
            node(s, move |it, f| {
                if let Some(slot) = slot {
                    if let Some(Some(Value::Int(_) | Value::Float(_))) = f.slots.get(slot) {
                        let rhs = cv(it, f)?;
                        // (The right side cannot rebind a plain local.)
                        if let Some(cur) = &f.slots[slot] {
                            let r = it.inplace(op, cur, &rhs);
                            f.slots[slot] =
                                Some(r.map_err(|err| it.at(err, f, span, Anchor::None))?);
                            return Ok(Flow::Normal);
                        }
                        it.aug_assign_with(&target, op, |_, _| Ok(rhs.clone()), f, &whole)?;
                        return Ok(Flow::Normal);
                    }
                }
                it.aug_assign_with(&target, op, |it, f| cv(it, f), f, &whole)?;
                Ok(Flow::Normal)
            })
        }
        StmtKind::While(test, body, orelse) => {
            let (c, tspan) = (cond(cx, test, test.span), test.span);
            let (body, orelse) = (block(cx, body), block(cx, orelse));
            node(s, move |it, f| loop {
                it.tick()
                    .map_err(|err| it.at(err, f, tspan, Anchor::None))?;
                if !c(it, f)? {
                    return run_block(&orelse, it, f);
                }
                match run_block(&body, it, f)? {
                    Flow::Break => return Ok(Flow::Normal),
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Normal | Flow::Continue => {}
                }
            })
        }
        StmtKind::For(target, iter, body, orelse) => {
            let (citer, ispan, start) = (expr(cx, iter), iter.span, s.span.start);
            let (store, target) = (Store::new(cx, target), target.clone());
            let (body, orelse) = (block(cx, body), block(cx, orelse));
            node(s, move |it, f| {
                let v = citer(it, f)?;
                it.for_loop(
                    v,
                    &target,
                    |it: &mut Interp, v, f: &mut Frame| store.put(it, v, f),
                    ispan,
                    start,
                    f,
                    |it, f| run_block(&body, it, f),
                    |it, f| run_block(&orelse, it, f),
                )
            })
        }
        StmtKind::Try(body, handlers, orelse, finalbody) => {
            let (cbody, celse, cfin) = (block(cx, body), block(cx, orelse), block(cx, finalbody));
            let chandlers: Box<[CBlock]> = handlers.iter().map(|h| block(cx, &h.body)).collect();
            let (handlers, has_finally) = (handlers.clone(), !finalbody.is_empty());
            node(s, move |it, f| {
                let run = |it: &mut Interp, f: &mut Frame, part: TryPart| {
                    let b = match part {
                        TryPart::Body => &cbody,
                        TryPart::Else => &celse,
                        TryPart::Finally => &cfin,
                        TryPart::Handler(i) => &chandlers[i],
                    };
                    run_block(b, it, f)
                };
                it.try_with(&handlers, has_finally, f, run)
            })
        }
        StmtKind::Return(Some(e)) => {
            let ce = arg_node(cx, e);
            node(s, move |it, f| Ok(Flow::Return(ce.eval(it, f)?)))
        }
        StmtKind::Return(None) => node(s, |_, _| Ok(Flow::Return(Value::None))),
        StmtKind::Pass => node(s, |_, _| Ok(Flow::Normal)),
        StmtKind::Break => node(s, |_, _| Ok(Flow::Break)),
        StmtKind::Continue => node(s, |_, _| Ok(Flow::Continue)),
        _ => {
            let whole = s.clone();
            node(s, move |it, f| it.exec_inner(&whole, f))
        }
    }
}

//! Scope resolution: decides, before anything runs, whether each name is a frame slot, a class
//! body name or a global, as CPython's symbol table does.
use super::ast::*;
use super::lexer::SyntaxErr;
use super::symbol::Sym;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

struct FnScope {
    slots: FxHashMap<Sym, u32>,
    names: Vec<Sym>,
    nlocals: u32,
    /// Free variables: name → slot here, and the slot in the parent function they come from.
    free: Vec<(Sym, u32, u32)>,
    captured: FxHashSet<u32>,
    globals: FxHashSet<Sym>,
    /// Its body holds `yield` (a generator function).
    yields: bool,
    /// A comprehension's scope: its kind, where `yield` is an error.
    comp: Option<CompKind>,
}

enum ScopeKind {
    Module,
    Function(FnScope),
    Class(FxHashSet<Sym>),
}

pub struct Resolver {
    stack: Vec<ScopeKind>,
    loop_depth: usize,
    warnings: Vec<CompileWarning>,
}

type RResult = Result<(), SyntaxErr>;

/// A SyntaxWarning CPython's compiler gives: where (the source offset of the expression) and
/// what.
pub type CompileWarning = (u32, &'static str);

/// Resolves a module's statements in place; gives the compiler's warnings, in source order.
pub fn resolve_module(body: &mut [Stmt]) -> Result<Vec<CompileWarning>, SyntaxErr> {
    let mut r = Resolver {
        stack: vec![ScopeKind::Module],
        loop_depth: 0,
        warnings: Vec::new(),
    };
    r.block(body)?;
    Ok(r.warnings)
}

/// Whether CPython's compiler sees `e` as a constant other than None, True, False and `...`
/// (after its folding of signed numbers and tuples of constants): `x is 1` compares
/// identity with a literal, which is what the "is" warning is about.
fn is_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) => true,
        ExprKind::Unary(UnaryOp::Neg | UnaryOp::Pos | UnaryOp::Invert, x) => {
            matches!(x.kind, ExprKind::Int(_) | ExprKind::Float(_))
        }
        // `"abc"[0]` and `(1, 2)[0]` are folded when the index is in range.
        ExprKind::Subscript(x, i) => match (&x.kind, &i.kind) {
            (ExprKind::Str(s), ExprKind::Int(k)) => {
                let n = s.chars().count() as i64;
                (-n..n).contains(k)
            }
            (ExprKind::Tuple(items), ExprKind::Int(k)) => {
                let n = items.len() as i64;
                let at = if *k < 0 { k + n } else { *k };
                is_literal(x) && (0..n).contains(&at) && is_literal(&items[at as usize])
            }
            _ => false,
        },
        ExprKind::Tuple(items) => items.iter().all(|x| {
            is_literal(x)
                || matches!(
                    x.kind,
                    ExprKind::None | ExprKind::Bool(_) | ExprKind::Ellipsis
                )
        }),
        _ => false,
    }
}

/// Names a block binds in its own scope (not inside nested scopes), and its global/nonlocal
/// declarations.
fn collect_bindings(body: &[Stmt], out: &mut Vec<Sym>, decl: &mut Vec<(Sym, bool)>) {
    for s in body {
        match &s.kind {
            StmtKind::Assign(ts, _) => ts.iter().for_each(|t| target_names(t, out)),
            StmtKind::AugAssign(t, _, _) | StmtKind::AnnAssign(t, _, _) => target_names(t, out),
            StmtKind::For(t, _, b, e) => {
                target_names(t, out);
                collect_bindings(b, out, decl);
                collect_bindings(e, out, decl);
            }
            StmtKind::While(_, b, e) | StmtKind::If(_, b, e) => {
                collect_bindings(b, out, decl);
                collect_bindings(e, out, decl);
            }
            StmtKind::With(items, b) => {
                for (_, t) in items {
                    if let Some(t) = t {
                        target_names(t, out);
                    }
                }
                collect_bindings(b, out, decl);
            }
            StmtKind::Try(b, hs, e, f) => {
                collect_bindings(b, out, decl);
                for h in hs {
                    if let Some(n) = &h.name {
                        out.push(n.sym);
                    }
                    collect_bindings(&h.body, out, decl);
                }
                collect_bindings(e, out, decl);
                collect_bindings(f, out, decl);
            }
            StmtKind::Del(ts) => ts.iter().for_each(|t| target_names(t, out)),
            StmtKind::FuncDef(f, _) => out.push(f.name),
            StmtKind::ClassDef(c, _) => out.push(c.name),
            StmtKind::Import(items) => items.iter().for_each(|(_, n, _)| out.push(n.sym)),
            StmtKind::ImportFrom(_, names) => names.iter().for_each(|(_, n)| out.push(n.sym)),
            StmtKind::Global(ns) => ns.iter().for_each(|n| decl.push((*n, true))),
            StmtKind::Nonlocal(ns) => ns.iter().for_each(|n| decl.push((*n, false))),
            _ => {}
        }
    }
}

fn target_names(t: &Expr, out: &mut Vec<Sym>) {
    match &t.kind {
        ExprKind::Name(n) => out.push(n.sym),
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            items.iter().for_each(|i| target_names(i, out))
        }
        ExprKind::Starred(i) => target_names(i, out),
        _ => {}
    }
}

fn err(msg: String, span: super::lexer::Span) -> SyntaxErr {
    SyntaxErr::new(msg, span.start as usize, span.end as usize)
}

impl Resolver {
    fn fn_scope(&mut self, idx: usize) -> Option<&mut FnScope> {
        match self.stack.get_mut(idx) {
            Some(ScopeKind::Function(f)) => Some(f),
            _ => None,
        }
    }

    /// Index of the innermost function scope at or below `from`, skipping class scopes;
    /// `None` when the module scope comes first.
    fn enclosing_fn(&self, from: usize) -> Option<usize> {
        let mut i = from;
        loop {
            match self.stack.get(i)? {
                ScopeKind::Function(_) => return Some(i),
                ScopeKind::Module => return None,
                ScopeKind::Class(_) => i = i.checked_sub(1)?,
            }
        }
    }

    /// The slot of `sym` in function scope `idx`, capturing it from enclosing functions as a
    /// free variable when it is not local there. `own` = whether locals of `idx` count.
    fn capture(&mut self, idx: usize, sym: Sym, own: bool) -> Option<u32> {
        let f = self.fn_scope(idx)?;
        if f.globals.contains(&sym) {
            return None;
        }
        if own {
            if let Some(&s) = f.slots.get(&sym) {
                return Some(s);
            }
        } else if let Some(&(_, s, _)) = f.free.iter().find(|(n, _, _)| *n == sym) {
            return Some(s);
        }
        let parent = self.enclosing_fn(idx.checked_sub(1)?)?;
        let outer = self.capture(parent, sym, true)?;
        if let Some(ScopeKind::Function(p)) = self.stack.get_mut(parent) {
            if (outer as usize) < p.nlocals as usize {
                p.captured.insert(outer);
            }
        }
        let f = self.fn_scope(idx)?;
        let slot = f.nlocals + f.free.len() as u32;
        f.free.push((sym, slot, outer));
        f.slots.insert(sym, slot);
        f.names.push(sym);
        Some(slot)
    }

    fn lookup(&mut self, sym: Sym) -> Scope {
        let top = self.stack.len() - 1;
        if let ScopeKind::Class(bound) = &self.stack[top] {
            if bound.contains(&sym) {
                return Scope::ClassBody;
            }
        }
        match self.enclosing_fn(top) {
            Some(i) => match self.capture(i, sym, true) {
                Some(slot) => Scope::Local(slot),
                None => Scope::Global,
            },
            None => Scope::Global,
        }
    }

    fn name(&mut self, n: &mut Name) {
        n.scope = self.lookup(n.sym);
    }

    fn block(&mut self, body: &mut [Stmt]) -> RResult {
        body.iter_mut().try_for_each(|s| self.stmt(s))
    }

    fn in_function(&self) -> bool {
        self.enclosing_fn(self.stack.len() - 1).is_some()
            && !matches!(self.stack.last(), Some(ScopeKind::Class(_)))
    }

    fn stmt(&mut self, s: &mut Stmt) -> RResult {
        match &mut s.kind {
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Assign(ts, v) => {
                self.expr(v)?;
                ts.iter_mut().try_for_each(|t| self.expr(t))
            }
            StmtKind::AugAssign(t, _, v) => {
                self.expr(v)?;
                self.expr(t)
            }
            StmtKind::AnnAssign(t, a, v) => {
                if let Some(v) = v {
                    self.expr(v)?;
                }
                self.expr(a)?;
                self.expr(t)
            }
            StmtKind::If(c, b, e) => {
                self.expr(c)?;
                self.block(b)?;
                self.block(e)
            }
            StmtKind::While(c, b, e) => {
                self.expr(c)?;
                self.loop_body(b)?;
                self.block(e)
            }
            StmtKind::For(t, it, b, e) => {
                self.expr(it)?;
                self.expr(t)?;
                self.loop_body(b)?;
                self.block(e)
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.loop_depth == 0 {
                    let what = if matches!(s.kind, StmtKind::Break) {
                        "'break' outside loop"
                    } else {
                        "'continue' not properly in loop"
                    };
                    return Err(err(what.into(), s.span));
                }
                Ok(())
            }
            StmtKind::Pass | StmtKind::Global(_) => Ok(()),
            StmtKind::Nonlocal(names) => {
                let top = self.stack.len() - 1;
                if !matches!(self.stack[top], ScopeKind::Function(_)) {
                    return Err(err(
                        "nonlocal declaration not allowed at module level".into(),
                        s.span,
                    ));
                }
                for n in names.clone() {
                    // Already made a free variable when the function scope was opened.
                    if self
                        .fn_scope(top)
                        .is_some_and(|f| !f.slots.contains_key(&n))
                    {
                        return Err(err(format!("no binding for nonlocal '{n}' found"), s.span));
                    }
                }
                Ok(())
            }
            StmtKind::FuncDef(f, n) => {
                let f = Rc::make_mut(f);
                f.decorators.iter_mut().try_for_each(|d| self.expr(d))?;
                self.function(f)?;
                self.name(n);
                Ok(())
            }
            StmtKind::ClassDef(c, n) => {
                self.name(n);
                let c = Rc::make_mut(c);
                c.decorators.iter_mut().try_for_each(|d| self.expr(d))?;
                c.bases.iter_mut().try_for_each(|b| self.expr(b))?;
                let mut bound = Vec::new();
                let mut decl = Vec::new();
                collect_bindings(&c.body, &mut bound, &mut decl);
                let set: FxHashSet<Sym> = bound
                    .into_iter()
                    .filter(|b| !decl.iter().any(|(d, _)| d == b))
                    .collect();
                self.stack.push(ScopeKind::Class(set));
                let saved = std::mem::replace(&mut self.loop_depth, 0);
                let r = self.block(&mut c.body);
                self.loop_depth = saved;
                self.stack.pop();
                r
            }
            StmtKind::Return(v) => {
                if !self.in_function() {
                    return Err(err("'return' outside function".into(), s.span));
                }
                match v {
                    Some(v) => self.expr(v),
                    None => Ok(()),
                }
            }
            StmtKind::With(items, b) => {
                for (c, t) in items.iter_mut() {
                    self.expr(c)?;
                    if let Some(t) = t {
                        self.expr(t)?;
                    }
                }
                self.block(b)
            }
            StmtKind::Try(b, hs, e, f) => {
                self.block(b)?;
                for h in hs.iter_mut() {
                    if let Some(k) = &mut h.kind {
                        self.expr(k)?;
                    }
                    if let Some(n) = &mut h.name {
                        self.name(n);
                    }
                    self.block(&mut h.body)?;
                }
                self.block(e)?;
                self.block(f)
            }
            StmtKind::Raise(e, c) => {
                if let Some(e) = e {
                    self.expr(e)?;
                }
                if let Some(c) = c {
                    self.expr(c)?;
                }
                Ok(())
            }
            StmtKind::Assert(t, m) => {
                self.expr(t)?;
                if let Some(m) = m {
                    self.expr(m)?;
                }
                Ok(())
            }
            StmtKind::Del(ts) => ts.iter_mut().try_for_each(|t| self.expr(t)),
            StmtKind::Import(items) => {
                items.iter_mut().for_each(|(_, n, _)| self.name(n));
                Ok(())
            }
            StmtKind::ImportFrom(_, names) => {
                names.iter_mut().for_each(|(_, n)| self.name(n));
                Ok(())
            }
        }
    }

    fn loop_body(&mut self, b: &mut [Stmt]) -> RResult {
        self.loop_depth += 1;
        let r = self.block(b);
        self.loop_depth -= 1;
        r
    }

    /// Opens a function-like scope binding `params` and `bound`, runs `f` inside it, and
    /// returns what the caller needs to build frames for it.
    fn with_fn_scope(
        &mut self,
        params: Vec<Sym>,
        bound: Vec<Sym>,
        decl: Vec<(Sym, bool)>,
        span: super::lexer::Span,
        f: impl FnOnce(&mut Self) -> RResult,
    ) -> Result<ScopeInfo, SyntaxErr> {
        let mut scope = FnScope {
            slots: FxHashMap::default(),
            names: Vec::new(),
            nlocals: 0,
            free: Vec::new(),
            captured: FxHashSet::default(),
            globals: FxHashSet::default(),
            yields: false,
            comp: None,
        };
        let declared = |s: &Sym| decl.iter().any(|(d, _)| d == s);
        for (d, is_global) in &decl {
            if params.contains(d) {
                let kind = if *is_global { "global" } else { "nonlocal" };
                return Err(err(format!("name '{d}' is parameter and {kind}"), span));
            }
            if *is_global {
                scope.globals.insert(*d);
            }
        }
        for s in params.iter().chain(bound.iter().filter(|s| !declared(s))) {
            if !scope.slots.contains_key(s) {
                scope.slots.insert(*s, scope.names.len() as u32);
                scope.names.push(*s);
            }
        }
        scope.nlocals = scope.names.len() as u32;
        self.stack.push(ScopeKind::Function(scope));
        let idx = self.stack.len() - 1;
        for (d, is_global) in &decl {
            if !is_global && self.capture(idx, *d, false).is_none() {
                self.stack.pop();
                return Err(err(format!("no binding for nonlocal '{d}' found"), span));
            }
        }
        let saved = std::mem::replace(&mut self.loop_depth, 0);
        let r = f(self);
        self.loop_depth = saved;
        let Some(ScopeKind::Function(scope)) = self.stack.pop() else {
            return Err(err("internal scope error".into(), span));
        };
        r?;
        let mut cellvars: Vec<u32> = scope.captured.into_iter().collect();
        cellvars.sort_unstable();
        Ok(ScopeInfo {
            local_names: scope.names,
            cellvars,
            freevars: scope.free.iter().map(|(_, _, outer)| *outer).collect(),
            is_generator: scope.yields,
        })
    }

    fn function(&mut self, f: &mut FuncDef) -> RResult {
        // Defaults are evaluated in the enclosing scope.
        for p in f.params.iter_mut() {
            if let Some(d) = &mut p.default {
                self.expr(d)?;
            }
        }
        let params: Vec<Sym> = f.params.iter().map(|p| p.name).collect();
        let mut bound = Vec::new();
        let mut decl = Vec::new();
        collect_bindings(&f.body, &mut bound, &mut decl);
        let body = &mut f.body;
        f.info = self.with_fn_scope(params, bound, decl, f.span, |r| r.block(body))?;
        Ok(())
    }

    fn comprehension(&mut self, c: &mut CompScope, span: super::lexer::Span) -> RResult {
        // The first iterable is evaluated outside, in the enclosing scope.
        if let Some(g) = c.generators.first_mut() {
            self.expr(&mut g.iter)?;
        }
        let mut bound = Vec::new();
        for g in &c.generators {
            target_names(&g.target, &mut bound);
        }
        let CompScope {
            elt,
            value,
            generators,
            ..
        } = c;
        let kind = c.kind;
        c.info = self.with_fn_scope(Vec::new(), bound, Vec::new(), span, |r| {
            if let Some(ScopeKind::Function(f)) = r.stack.last_mut() {
                f.comp = Some(kind);
            }
            for (i, g) in generators.iter_mut().enumerate() {
                if i > 0 {
                    r.expr(&mut g.iter)?;
                }
                r.expr(&mut g.target)?;
                g.ifs.iter_mut().try_for_each(|e| r.expr(e))?;
            }
            r.expr(elt)?;
            if let Some(v) = value {
                r.expr(v)?;
            }
            Ok(())
        })?;
        Ok(())
    }

    fn expr(&mut self, e: &mut Expr) -> RResult {
        match &mut e.kind {
            ExprKind::Name(n) => {
                self.name(n);
                Ok(())
            }
            ExprKind::None
            | ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Ellipsis => Ok(()),
            ExprKind::FString(parts) => self.fparts(parts),
            ExprKind::List(items) | ExprKind::Tuple(items) | ExprKind::Set(items) => {
                items.iter_mut().try_for_each(|i| self.expr(i))
            }
            ExprKind::Dict(items) => {
                for (k, v) in items.iter_mut() {
                    if let Some(k) = k {
                        self.expr(k)?;
                    }
                    self.expr(v)?;
                }
                Ok(())
            }
            ExprKind::Attr(o, ..) => self.expr(o),
            ExprKind::Subscript(o, i) => {
                self.expr(o)?;
                self.expr(i)
            }
            ExprKind::Slice(a, b, c) => {
                for x in [a, b, c].into_iter().flatten() {
                    self.expr(x)?;
                }
                Ok(())
            }
            ExprKind::Call(f, args) => {
                self.expr(f)?;
                for a in args.iter_mut() {
                    match a {
                        Arg::Pos(x) | Arg::Star(x) | Arg::Kw(_, x) | Arg::StarStar(x) => {
                            self.expr(x)?
                        }
                    }
                }
                Ok(())
            }
            ExprKind::Unary(_, x) | ExprKind::Starred(x) => self.expr(x),
            ExprKind::Binary(_, a, b) | ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Compare(a, rest) => {
                // CPython's compiler warns at the first `is`/`is not` with a literal operand.
                let mut left = is_literal(a);
                for (op, x) in rest.iter() {
                    let right = is_literal(x);
                    if (left || right) && matches!(op, CmpOp::Is | CmpOp::IsNot) {
                        let msg = if *op == CmpOp::Is {
                            "\"is\" with a literal. Did you mean \"==\"?"
                        } else {
                            "\"is not\" with a literal. Did you mean \"!=\"?"
                        };
                        self.warnings.push((e.span.start, msg));
                        break;
                    }
                    left = right;
                }
                self.expr(a)?;
                rest.iter_mut().try_for_each(|(_, x)| self.expr(x))
            }
            ExprKind::IfExp(c, a, b) => {
                self.expr(c)?;
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Lambda(f) => self.function(Rc::make_mut(f)),
            ExprKind::Comp(c) => {
                let span = e.span;
                self.comprehension(Rc::make_mut(c), span)
            }
            ExprKind::Yield(v) => {
                self.mark_yield(e.span)?;
                match v {
                    Some(v) => self.expr(v),
                    None => Ok(()),
                }
            }
            ExprKind::YieldFrom(v) => {
                self.mark_yield(e.span)?;
                self.expr(v)
            }
        }
    }

    /// A `yield` makes the function it is in a generator; anywhere else it is an error.
    fn mark_yield(&mut self, span: super::lexer::Span) -> RResult {
        match self.stack.last_mut() {
            Some(ScopeKind::Function(f)) => match f.comp {
                Some(kind) => {
                    let what = match kind {
                        CompKind::List => "list comprehension",
                        CompKind::Set => "set comprehension",
                        CompKind::Dict => "dict comprehension",
                        CompKind::Gen => "generator expression",
                    };
                    Err(err(format!("'yield' inside {what}"), span))
                }
                None => {
                    f.yields = true;
                    Ok(())
                }
            },
            _ => Err(err("'yield' outside function".into(), span)),
        }
    }

    fn fparts(&mut self, parts: &mut [FPart]) -> RResult {
        for p in parts {
            if let FPart::Expr { expr, spec, .. } = p {
                self.expr(expr)?;
                self.fparts(spec)?;
            }
        }
        Ok(())
    }
}

//! Statements: simple ones, compound blocks, function and class definitions.
use super::*;

impl Parser<'_> {
    pub(super) fn statement(&mut self) -> PResult<Vec<Stmt>> {
        if matches!(self.peek(), Tok::Indent) {
            return Err(self.error_here("unexpected indent"));
        }
        let start = self.span();
        let compound = match self.peek() {
            Tok::Kw("if") => Some(self.if_stmt()?),
            Tok::Kw("while") => Some(self.while_stmt()?),
            Tok::Kw("for") => Some(self.for_stmt()?),
            Tok::Kw("def") => Some(self.funcdef(Vec::new(), start)?),
            Tok::Kw("class") => Some(self.classdef(Vec::new(), start)?),
            Tok::Kw("with") => Some(self.with_stmt()?),
            Tok::Kw("try") => Some(self.try_stmt()?),
            Tok::Op("@") => Some(self.decorated()?),
            _ => None,
        };
        if let Some(s) = compound {
            return Ok(vec![s]);
        }
        let mut out = vec![self.simple_stmt()?];
        while self.eat_op(";") {
            if matches!(self.peek(), Tok::Newline | Tok::Eof) {
                break;
            }
            out.push(self.simple_stmt()?);
        }
        if !self.eat(&Tok::Newline) && !self.at_eof() {
            return Err(self.invalid());
        }
        Ok(out)
    }

    pub(super) fn block(&mut self, what: &str, header: Span) -> PResult<Vec<Stmt>> {
        if self.eat(&Tok::Newline) {
            if !self.eat(&Tok::Indent) {
                // (One caret at the statement's start, as CPython's.)
                let s = self.span();
                let mut e = SyntaxErr::new(
                    format!(
                        "expected an indented block after {what} on line {}",
                        self.line_of(header.start)
                    ),
                    s.start as usize,
                    s.start as usize,
                );
                e.indentation = true;
                return Err(e);
            }
            let mut body = Vec::new();
            while !self.eat(&Tok::Dedent) {
                if self.at_eof() {
                    break;
                }
                if self.eat(&Tok::Newline) {
                    continue;
                }
                body.extend(self.statement()?);
            }
            Ok(body)
        } else {
            // `if x: y = 1; z = 2` — simple statements on the header line.
            let mut body = vec![self.simple_stmt()?];
            while self.eat_op(";") {
                if matches!(self.peek(), Tok::Newline | Tok::Eof) {
                    break;
                }
                body.push(self.simple_stmt()?);
            }
            if !self.eat(&Tok::Newline) && !self.at_eof() {
                return Err(self.invalid());
            }
            Ok(body)
        }
    }

    /// `if` and each `elif` (an `elif` is an `if` nested in the `else` branch).
    pub(super) fn if_stmt(&mut self) -> PResult<Stmt> {
        let what = if self.is_kw("if") {
            "'if' statement"
        } else {
            "'elif' statement"
        };
        let start = self.advance().span;
        let test = self.named_test()?;
        self.expect_op(":")?;
        let body = self.block(what, start)?;
        let orelse = if self.is_kw("elif") {
            vec![self.if_stmt()?]
        } else if self.is_kw("else") {
            let es = self.advance().span;
            self.expect_op(":")?;
            self.block("'else' statement", es)?
        } else {
            Vec::new()
        };
        Ok(Stmt {
            kind: StmtKind::If(test, body, orelse),
            span: start.to(self.prev_span()),
        })
    }

    pub(super) fn loop_else(&mut self) -> PResult<Vec<Stmt>> {
        if self.is_kw("else") {
            let es = self.advance().span;
            self.expect_op(":")?;
            self.block("'else' statement", es)
        } else {
            Ok(Vec::new())
        }
    }

    pub(super) fn while_stmt(&mut self) -> PResult<Stmt> {
        let start = self.advance().span;
        let test = self.named_test()?;
        self.expect_op(":")?;
        let body = self.block("'while' statement", start)?;
        let orelse = self.loop_else()?;
        Ok(Stmt {
            kind: StmtKind::While(test, body, orelse),
            span: start,
        })
    }

    pub(super) fn for_stmt(&mut self) -> PResult<Stmt> {
        let start = self.advance().span;
        let target = self.target_list()?;
        if !self.eat_kw("in") {
            return Err(self.invalid());
        }
        let iter = self.test_list()?;
        self.expect_op(":")?;
        let body = self.block("'for' statement", start)?;
        let orelse = self.loop_else()?;
        Ok(Stmt {
            kind: StmtKind::For(target, iter, body, orelse),
            span: start.to(iter_span_end(self.prev_span())),
        })
    }

    /// `for` targets: a comma list of or-expressions (no `in` comparison inside).
    pub(super) fn target_list(&mut self) -> PResult<Expr> {
        let first = self.star_or(true)?;
        if !self.is_op(",") {
            check_target(&first, "for")?;
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.is_kw("in") {
                break;
            }
            items.push(self.star_or(true)?);
        }
        let span = items[0].span.to(self.prev_span());
        let e = Expr {
            kind: ExprKind::Tuple(items),
            span,
        };
        check_target(&e, "for")?;
        Ok(e)
    }

    pub(super) fn star_or(&mut self, no_in: bool) -> PResult<Expr> {
        if self.is_op("*") {
            let s = self.advance().span;
            let e = self.binary(BIT_OR_PREC)?;
            return Ok(Expr {
                span: s.to(e.span),
                kind: ExprKind::Starred(Box::new(e)),
            });
        }
        if no_in {
            self.binary(BIT_OR_PREC)
        } else {
            self.or_test()
        }
    }

    pub(super) fn decorated(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let mut decorators = Vec::new();
        while self.eat_op("@") {
            decorators.push(self.named_test()?);
            if !self.eat(&Tok::Newline) {
                return Err(self.invalid());
            }
        }
        match self.peek() {
            Tok::Kw("def") => self.funcdef(decorators, start),
            Tok::Kw("class") => self.classdef(decorators, start),
            _ => Err(self.invalid()),
        }
    }

    pub(super) fn funcdef(&mut self, decorators: Vec<Expr>, start: Span) -> PResult<Stmt> {
        let def_span = self.advance().span;
        let (name, _) = self.name()?;
        self.expect_op("(")?;
        let params = self.params(")")?;
        self.expect_op(")")?;
        if self.eat_op("->") {
            self.test()?;
        }
        self.expect_op(":")?;
        let body = self.block("function definition", def_span)?;
        let span = start.to(self.prev_span());
        Ok(Stmt {
            kind: StmtKind::FuncDef(
                Rc::new(FuncDef {
                    name,
                    params,
                    body,
                    decorators,
                    is_lambda: false,
                    info: ScopeInfo::default(),
                    span: def_span,
                    compiled: Default::default(),
                }),
                Name {
                    sym: name,
                    scope: Scope::Unresolved,
                },
            ),
            span,
        })
    }

    pub(super) fn params(&mut self, close: &str) -> PResult<Vec<Param>> {
        let mut params: Vec<Param> = Vec::new();
        let mut kw_only = false;
        let mut seen_default = false;
        while !self.is_op(close) {
            let kind;
            if self.eat_op("**") {
                kind = ParamKind::VarKw;
            } else if self.eat_op("*") {
                if self.is_op(",") || self.is_op(close) {
                    // bare `*`: the rest are keyword-only
                    kw_only = true;
                    if !self.eat_op(",") {
                        break;
                    }
                    continue;
                }
                kind = ParamKind::VarArgs;
                kw_only = true;
            } else if self.eat_op("/") {
                // positional-only marker: accepted and ignored
                if !self.eat_op(",") {
                    break;
                }
                continue;
            } else {
                kind = if kw_only {
                    ParamKind::KwOnly
                } else {
                    ParamKind::Normal
                };
            }
            let (name, nspan) = self.name()?;
            if params.iter().any(|p| p.name == name) {
                return Err(SyntaxErr::new(
                    format!("duplicate argument '{name}' in function definition"),
                    nspan.start as usize,
                    nspan.end as usize,
                ));
            }
            if close == ")" && self.eat_op(":") {
                self.test()?; // annotation, ignored
            }
            let default =
                if matches!(kind, ParamKind::Normal | ParamKind::KwOnly) && self.eat_op("=") {
                    if kind == ParamKind::Normal {
                        seen_default = true;
                    }
                    Some(self.test()?)
                } else {
                    if kind == ParamKind::Normal && seen_default {
                        return Err(SyntaxErr::new(
                            "non-default argument follows default argument",
                            nspan.start as usize,
                            nspan.end as usize,
                        ));
                    }
                    None
                };
            params.push(Param {
                name,
                kind,
                default,
            });
            if kind == ParamKind::VarKw && !self.is_op(close) && !self.is_op(",") {
                return Err(self.invalid());
            }
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(params)
    }

    pub(super) fn classdef(&mut self, decorators: Vec<Expr>, start: Span) -> PResult<Stmt> {
        let cspan = self.advance().span;
        let (name, _) = self.name()?;
        let mut bases = Vec::new();
        if self.eat_op("(") {
            while !self.is_op(")") {
                if let Tok::Name(_) = self.peek() {
                    if matches!(self.peek_at(1), Tok::Op("=")) {
                        // metaclass=... and friends: not supported
                        return Err(
                            self.error_here("cudalearn does not support class keyword arguments")
                        );
                    }
                }
                bases.push(self.test()?);
                if !self.eat_op(",") {
                    break;
                }
            }
            self.expect_op(")")?;
        }
        self.expect_op(":")?;
        let body = self.block("class definition", cspan)?;
        // (To the last statement's end: a comment after it is not part of the class.)
        let end = body.last().map_or(cspan, |s| s.span);
        Ok(Stmt {
            kind: StmtKind::ClassDef(
                Rc::new(ClassDef {
                    name,
                    bases,
                    body,
                    decorators,
                    span: cspan.to(end),
                }),
                Name {
                    sym: name,
                    scope: Scope::Unresolved,
                },
            ),
            span: start.to(self.prev_span()),
        })
    }

    pub(super) fn with_stmt(&mut self) -> PResult<Stmt> {
        let start = self.advance().span;
        let mut items = Vec::new();
        let parens = self.is_op("(") && self.paren_with_items();
        if parens {
            self.advance();
        }
        loop {
            let ctx = self.test()?;
            let target = if self.eat_kw("as") {
                let t = self.star_or(true)?;
                check_target(&t, "with")?;
                Some(t)
            } else {
                None
            };
            items.push((ctx, target));
            if !self.eat_op(",") {
                break;
            }
            if parens && self.is_op(")") {
                break;
            }
        }
        if parens {
            self.expect_op(")")?;
        }
        self.expect_op(":")?;
        let body = self.block("'with' statement", start)?;
        Ok(Stmt {
            kind: StmtKind::With(items, body),
            span: start,
        })
    }

    /// `with (a() as x, b()):` — a parenthesised item list, told apart from `with (a):`.
    pub(super) fn paren_with_items(&self) -> bool {
        let mut depth = 0i32;
        let mut i = self.pos;
        while i < self.toks.len() {
            match &self.toks[i].tok {
                Tok::Op("(" | "[" | "{") => depth += 1,
                Tok::Op(")" | "]" | "}") => {
                    depth -= 1;
                    if depth == 0 {
                        return matches!(self.toks.get(i + 1).map(|t| &t.tok), Some(Tok::Op(":")))
                            && self.toks[self.pos..i]
                                .iter()
                                .any(|t| matches!(t.tok, Tok::Kw("as")));
                    }
                }
                Tok::Newline | Tok::Eof => return false,
                _ => {}
            }
            i += 1;
        }
        false
    }

    pub(super) fn try_stmt(&mut self) -> PResult<Stmt> {
        let start = self.advance().span;
        self.expect_op(":")?;
        let body = self.block("'try' statement", start)?;
        let mut handlers = Vec::new();
        while self.is_kw("except") {
            let hs = self.advance().span;
            let (kind, name) = if self.is_op(":") {
                (None, None)
            } else {
                let k = self.test()?;
                let n = if self.eat_kw("as") {
                    let (s, _) = self.name()?;
                    Some(Name {
                        sym: s,
                        scope: Scope::Unresolved,
                    })
                } else {
                    None
                };
                (Some(k), n)
            };
            self.expect_op(":")?;
            let hbody = self.block("'except' statement", hs)?;
            handlers.push(Handler {
                kind,
                name,
                body: hbody,
                span: hs,
            });
        }
        let orelse = if !handlers.is_empty() && self.is_kw("else") {
            let es = self.advance().span;
            self.expect_op(":")?;
            self.block("'else' statement", es)?
        } else {
            Vec::new()
        };
        let finalbody = if self.is_kw("finally") {
            let fs = self.advance().span;
            self.expect_op(":")?;
            self.block("'finally' statement", fs)?
        } else {
            Vec::new()
        };
        if handlers.is_empty() && finalbody.is_empty() {
            return Err(self.error_here("expected 'except' or 'finally' block"));
        }
        Ok(Stmt {
            kind: StmtKind::Try(body, handlers, orelse, finalbody),
            span: start,
        })
    }

    pub(super) fn simple_stmt(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let kind = match self.peek().clone() {
            Tok::Kw("pass") => {
                self.advance();
                StmtKind::Pass
            }
            Tok::Kw("break") => {
                self.advance();
                StmtKind::Break
            }
            Tok::Kw("continue") => {
                self.advance();
                StmtKind::Continue
            }
            Tok::Kw("return") => {
                self.advance();
                if matches!(self.peek(), Tok::Newline | Tok::Eof | Tok::Op(";")) {
                    StmtKind::Return(None)
                } else {
                    StmtKind::Return(Some(self.test_list_star()?))
                }
            }
            Tok::Kw("raise") => {
                self.advance();
                if matches!(self.peek(), Tok::Newline | Tok::Eof | Tok::Op(";")) {
                    StmtKind::Raise(None, None)
                } else {
                    let e = self.test()?;
                    let cause = if self.eat_kw("from") {
                        Some(self.test()?)
                    } else {
                        None
                    };
                    StmtKind::Raise(Some(e), cause)
                }
            }
            Tok::Kw("assert") => {
                self.advance();
                let t = self.test()?;
                let m = if self.eat_op(",") {
                    Some(self.test()?)
                } else {
                    None
                };
                StmtKind::Assert(t, m)
            }
            Tok::Kw("del") => {
                self.advance();
                let mut targets = Vec::new();
                loop {
                    let t = self.binary(BIT_OR_PREC)?;
                    check_target(&t, "del")?;
                    targets.push(t);
                    if !self.eat_op(",") || matches!(self.peek(), Tok::Newline | Tok::Eof) {
                        break;
                    }
                }
                StmtKind::Del(targets)
            }
            Tok::Kw("global") | Tok::Kw("nonlocal") => {
                let is_global = self.is_kw("global");
                self.advance();
                let mut names = vec![self.name()?.0];
                while self.eat_op(",") {
                    names.push(self.name()?.0);
                }
                if is_global {
                    StmtKind::Global(names)
                } else {
                    StmtKind::Nonlocal(names)
                }
            }
            Tok::Kw("import") => self.import_stmt()?,
            Tok::Kw("from") => self.import_from(start)?,
            Tok::Kw(k @ ("async" | "await")) => {
                return Err(self.error_here(format!("cudalearn does not support '{k}' yet")));
            }
            // `match subject:` (a soft keyword: a line that ends in ':' after it).
            Tok::Name(s) if &*s.as_str() == "match" && self.line_ends_with_colon() => {
                return Err(self.error_here(
                    "cudalearn does not support the match statement yet: use if/elif/else",
                ));
            }
            Tok::Name(s)
                if &*s.as_str() == "print"
                    && matches!(self.peek_at(1), Tok::Str(_) | Tok::Name(_) | Tok::Int(_)) =>
            {
                let sp = self.span();
                let mut end = sp;
                let mut i = self.pos;
                while i < self.toks.len() && !matches!(self.toks[i].tok, Tok::Newline | Tok::Eof) {
                    end = self.toks[i].span;
                    i += 1;
                }
                return Err(SyntaxErr::new(
                    "Missing parentheses in call to 'print'. Did you mean print(...)?",
                    sp.start as usize,
                    end.end as usize,
                ));
            }
            _ => return self.expr_stmt(),
        };
        Ok(Stmt {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    /// Whether the logical line from here ends with `:` (a compound statement's header).
    fn line_ends_with_colon(&self) -> bool {
        let rest = &self.toks[self.pos..];
        let end = rest
            .iter()
            .position(|t| matches!(t.tok, Tok::Newline | Tok::Eof))
            .unwrap_or(rest.len());
        end > 1 && matches!(rest[end - 1].tok, Tok::Op(":"))
    }

    /// `import a.b as c, d`.
    fn import_stmt(&mut self) -> PResult<StmtKind> {
        self.advance();
        let mut items = Vec::new();
        loop {
            let path = self.dotted()?;
            let (bound, alias) = if self.eat_kw("as") {
                (self.name()?.0, true)
            } else {
                (path[0], false)
            };
            items.push((
                path,
                Name {
                    sym: bound,
                    scope: Scope::Unresolved,
                },
                alias,
            ));
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(StmtKind::Import(items))
    }

    /// `from a.b import c as d, (e, f)`.
    fn import_from(&mut self, start: Span) -> PResult<StmtKind> {
        self.advance();
        if self.is_op(".") {
            return Err(self.error_here("cudalearn does not support relative imports"));
        }
        let path = self.dotted()?;
        if !self.eat_kw("import") {
            return Err(self.invalid());
        }
        let mut names = Vec::new();
        if self.eat_op("*") {
            return Err(SyntaxErr::new(
                "cudalearn does not support 'import *'; import the names you need",
                start.start as usize,
                self.prev_span().end as usize,
            ));
        }
        let paren = self.eat_op("(");
        loop {
            let (n, _) = self.name()?;
            let bound = if self.eat_kw("as") { self.name()?.0 } else { n };
            names.push((
                n,
                Name {
                    sym: bound,
                    scope: Scope::Unresolved,
                },
            ));
            if !self.eat_op(",") {
                break;
            }
            if paren && self.is_op(")") {
                break;
            }
        }
        if paren {
            self.expect_op(")")?;
        }
        Ok(StmtKind::ImportFrom(path, names))
    }

    pub(super) fn dotted(&mut self) -> PResult<Vec<Sym>> {
        let mut path = vec![self.name()?.0];
        while self.eat_op(".") {
            path.push(self.name()?.0);
        }
        Ok(path)
    }

    pub(super) fn expr_stmt(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let first = self.value_or_yield()?;
        if let Tok::Op(op) = self.peek().clone() {
            if let Some(bop) = aug_op(op) {
                check_aug_target(&first)?;
                self.advance();
                let value = if self.is_kw("yield") {
                    self.yield_expr()?
                } else {
                    self.test_list()?
                };
                return Ok(Stmt {
                    span: start.to(value.span),
                    kind: StmtKind::AugAssign(first, bop, value),
                });
            }
            if op == ":" {
                self.advance();
                check_target(&first, "annotated")?;
                let ann = self.test()?;
                let value = if self.eat_op("=") {
                    Some(self.test_list_star()?)
                } else {
                    None
                };
                return Ok(Stmt {
                    span: start.to(self.prev_span()),
                    kind: StmtKind::AnnAssign(first, ann, value),
                });
            }
            if op == "=" {
                let mut targets = vec![first];
                let mut value;
                loop {
                    self.advance();
                    value = self.value_or_yield()?;
                    if !self.is_op("=") {
                        break;
                    }
                    targets.push(value);
                }
                for t in &targets {
                    check_target(t, "=")?;
                }
                return Ok(Stmt {
                    span: start.to(value.span),
                    kind: StmtKind::Assign(targets, value),
                });
            }
        }
        Ok(Stmt {
            span: first.span,
            kind: StmtKind::Expr(first),
        })
    }
}

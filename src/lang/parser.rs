//! Tokens → syntax tree: recursive descent for statements, precedence climbing for expressions.
use super::ast::*;
use super::lexer::{tokenize, unescape, Span, SyntaxErr, Tok, Token};
use super::symbol::Sym;
use std::rc::Rc;

/// Deeper nesting than this is refused (as CPython refuses too-deep nesting), so no input can
/// exhaust the stack of the parser or of the evaluator.
const MAX_DEPTH: usize = 200;
/// Operator and postfix chains (`1 + 1 + ...`, `a or b or ...`, `x.a.b...`, `f()()...`) are
/// parsed by loops but build left-nested trees that everything after the parser walks
/// recursively: bound their total nesting so that no program text can overflow the stack.
/// (CPython gives up far sooner, with RecursionError during compilation.)
const MAX_CHAIN: usize = 50_000;

pub struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// Left-nesting of the operator chains being parsed (see `MAX_CHAIN`).
    chain: usize,
}

type PResult<T> = Result<T, SyntaxErr>;

pub fn parse_module(src: &str) -> PResult<Vec<Stmt>> {
    parse_tokens(src).map_err(|e| on_char_boundaries(src, e))
}

/// Error spans are byte offsets that tracebacks slice the source with, and many are built as
/// `offset + 1`: widen them to whole characters (an error at `é` must not end inside it) and make
/// them non-empty, so that no caller can slice a line in the middle of a character.
fn on_char_boundaries(src: &str, mut e: SyntaxErr) -> SyntaxErr {
    let mut start = e.start.min(src.len());
    while !src.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = e.end.max(start);
    while end < src.len() && !src.is_char_boundary(end) {
        end += 1;
    }
    if end == start {
        if let Some(c) = src[start..].chars().next() {
            end = start + c.len_utf8();
        }
    }
    e.start = start;
    e.end = end;
    e
}

fn parse_tokens(src: &str) -> PResult<Vec<Stmt>> {
    let toks = tokenize(src)?;
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        depth: 0,
        chain: 0,
    };
    let mut body = Vec::new();
    while !p.at_eof() {
        if p.eat(&Tok::Newline) {
            continue;
        }
        body.extend(p.statement()?);
    }
    Ok(body)
}

fn name_expr(sym: Sym, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Name(Name {
            sym,
            scope: Scope::Unresolved,
        }),
        span,
    }
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }
    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }
    fn span(&self) -> Span {
        self.toks[self.pos.min(self.toks.len() - 1)].span
    }
    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }
    fn at_eof(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }
    fn advance(&mut self) -> Token {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.advance();
            true
        } else {
            false
        }
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Kw(k) if *k == kw)
    }
    fn eat_op(&mut self, op: &str) -> bool {
        if self.is_op(op) {
            self.advance();
            true
        } else {
            false
        }
    }
    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.advance();
            true
        } else {
            false
        }
    }
    fn error_here(&self, msg: impl Into<String>) -> SyntaxErr {
        let s = self.span();
        let mut e = SyntaxErr::new(msg, s.start as usize, s.end as usize);
        if matches!(self.peek(), Tok::Indent) {
            e = SyntaxErr::new("unexpected indent", s.end as usize, s.end as usize + 1);
            e.indentation = true;
        }
        e
    }
    fn invalid(&self) -> SyntaxErr {
        self.error_here("invalid syntax")
    }
    fn expect_op(&mut self, op: &str) -> PResult<()> {
        if self.eat_op(op) {
            Ok(())
        } else if op == ":" {
            Err(self.expected_colon())
        } else {
            Err(self.invalid())
        }
    }
    fn expected_colon(&self) -> SyntaxErr {
        // CPython points just after the previous token.
        let s = self.prev_span();
        SyntaxErr::new("expected ':'", s.end as usize, s.end as usize + 1)
    }
    fn name(&mut self) -> PResult<(Sym, Span)> {
        match self.peek().clone() {
            Tok::Name(s) => {
                let sp = self.advance().span;
                Ok((s, sp))
            }
            _ => Err(self.invalid()),
        }
    }
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error_here("too many nested parentheses"));
        }
        Ok(())
    }
    /// One more level of a left-nested chain.
    fn chain_step(&mut self) -> PResult<()> {
        self.chain += 1;
        if self.chain > MAX_CHAIN {
            return Err(self.error_here("expression too long: too many chained operations"));
        }
        Ok(())
    }

    /// Runs `f` one nesting level deeper (bounded by MAX_DEPTH).
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn line_of(&self, offset: u32) -> usize {
        self.src[..(offset as usize).min(self.src.len())]
            .matches('\n')
            .count()
            + 1
    }

    // ---------------------------------------------------------------- statements

    fn statement(&mut self) -> PResult<Vec<Stmt>> {
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

    fn block(&mut self, what: &str, header: Span) -> PResult<Vec<Stmt>> {
        if self.eat(&Tok::Newline) {
            if !self.eat(&Tok::Indent) {
                let s = self.span();
                let mut e = SyntaxErr::new(
                    format!(
                        "expected an indented block after {what} on line {}",
                        self.line_of(header.start)
                    ),
                    s.start as usize,
                    s.end as usize,
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
    fn if_stmt(&mut self) -> PResult<Stmt> {
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

    fn loop_else(&mut self) -> PResult<Vec<Stmt>> {
        if self.is_kw("else") {
            let es = self.advance().span;
            self.expect_op(":")?;
            self.block("'else' statement", es)
        } else {
            Ok(Vec::new())
        }
    }

    fn while_stmt(&mut self) -> PResult<Stmt> {
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

    fn for_stmt(&mut self) -> PResult<Stmt> {
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
    fn target_list(&mut self) -> PResult<Expr> {
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

    fn star_or(&mut self, no_in: bool) -> PResult<Expr> {
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

    fn decorated(&mut self) -> PResult<Stmt> {
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

    fn funcdef(&mut self, decorators: Vec<Expr>, start: Span) -> PResult<Stmt> {
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
                }),
                Name {
                    sym: name,
                    scope: Scope::Unresolved,
                },
            ),
            span,
        })
    }

    fn params(&mut self, close: &str) -> PResult<Vec<Param>> {
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

    fn classdef(&mut self, decorators: Vec<Expr>, start: Span) -> PResult<Stmt> {
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
        Ok(Stmt {
            kind: StmtKind::ClassDef(
                Rc::new(ClassDef {
                    name,
                    bases,
                    body,
                    decorators,
                }),
                Name {
                    sym: name,
                    scope: Scope::Unresolved,
                },
            ),
            span: start.to(self.prev_span()),
        })
    }

    fn with_stmt(&mut self) -> PResult<Stmt> {
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
    fn paren_with_items(&self) -> bool {
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

    fn try_stmt(&mut self) -> PResult<Stmt> {
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

    fn simple_stmt(&mut self) -> PResult<Stmt> {
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
            Tok::Kw("import") => {
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
                StmtKind::Import(items)
            }
            Tok::Kw("from") => {
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
                StmtKind::ImportFrom(path, names)
            }
            Tok::Kw(k @ ("yield" | "async" | "await")) => {
                return Err(self.error_here(format!("cudalearn does not support '{k}' yet")));
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

    fn dotted(&mut self) -> PResult<Vec<Sym>> {
        let mut path = vec![self.name()?.0];
        while self.eat_op(".") {
            path.push(self.name()?.0);
        }
        Ok(path)
    }

    fn expr_stmt(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let first = self.test_list_star()?;
        if let Tok::Op(op) = self.peek().clone() {
            if let Some(bop) = aug_op(op) {
                check_aug_target(&first)?;
                self.advance();
                let value = self.test_list()?;
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
                    value = self.test_list_star()?;
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

    // ---------------------------------------------------------------- expressions

    /// A comma list of expressions (a tuple when there is a comma), `*x` allowed.
    fn test_list_star(&mut self) -> PResult<Expr> {
        self.comma_list(true)
    }

    fn test_list(&mut self) -> PResult<Expr> {
        self.comma_list(false)
    }

    fn comma_list(&mut self, star: bool) -> PResult<Expr> {
        let first = if star {
            self.star_test()?
        } else {
            self.test()?
        };
        if !self.is_op(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if !self.starts_expr() {
                break;
            }
            items.push(if star {
                self.star_test()?
            } else {
                self.test()?
            });
        }
        let span = items[0].span.to(self.prev_span());
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }

    fn starts_expr(&self) -> bool {
        match self.peek() {
            Tok::Name(_)
            | Tok::Int(_)
            | Tok::BigInt
            | Tok::Float(_)
            | Tok::Str(_)
            | Tok::FStr { .. } => true,
            Tok::Kw(k) => matches!(*k, "None" | "True" | "False" | "not" | "lambda"),
            Tok::Op(o) => matches!(*o, "(" | "[" | "{" | "-" | "+" | "~" | "*" | "..."),
            _ => false,
        }
    }

    fn star_test(&mut self) -> PResult<Expr> {
        if self.is_op("*") {
            let s = self.advance().span;
            let e = self.binary(BIT_OR_PREC)?;
            return Ok(Expr {
                span: s.to(e.span),
                kind: ExprKind::Starred(Box::new(e)),
            });
        }
        self.test()
    }

    /// `test` allowing the walrus is not supported; same as test.
    fn named_test(&mut self) -> PResult<Expr> {
        let e = self.test()?;
        if self.is_op(":=") {
            return Err(self.error_here("cudalearn does not support ':=' yet"));
        }
        Ok(e)
    }

    pub fn test(&mut self) -> PResult<Expr> {
        self.nested(|p| p.test_inner())
    }

    fn test_inner(&mut self) -> PResult<Expr> {
        if self.is_kw("lambda") {
            return self.lambda();
        }
        let e = self.or_test()?;
        if self.is_kw("if") {
            // Only a conditional expression when an `else` follows on this logical line;
            // in comprehensions `if` is a filter and is handled by the caller.
            self.advance();
            let cond = self.or_test()?;
            if !self.eat_kw("else") {
                let s = self.span();
                return Err(SyntaxErr::new(
                    "expected 'else' after 'if' expression",
                    s.start as usize,
                    s.end as usize,
                ));
            }
            let other = self.test()?;
            return Ok(Expr {
                span: e.span.to(other.span),
                kind: ExprKind::IfExp(Box::new(cond), Box::new(e), Box::new(other)),
            });
        }
        Ok(e)
    }

    /// Expression that cannot be a bare conditional (comprehension iterables and conditions).
    fn test_no_cond(&mut self) -> PResult<Expr> {
        if self.is_kw("lambda") {
            return self.lambda();
        }
        self.or_test()
    }

    fn lambda(&mut self) -> PResult<Expr> {
        let start = self.advance().span;
        let params = self.params(":")?;
        self.expect_op(":")?;
        let body = self.test()?;
        let span = start.to(body.span);
        let ret = Stmt {
            span: body.span,
            kind: StmtKind::Return(Some(body)),
        };
        Ok(Expr {
            kind: ExprKind::Lambda(Rc::new(FuncDef {
                name: Sym::new("<lambda>"),
                params,
                body: vec![ret],
                decorators: Vec::new(),
                is_lambda: true,
                info: ScopeInfo::default(),
                span,
            })),
            span,
        })
    }

    /// Span from `start` to the last consumed token (so closing parentheses count, as in
    /// CPython's node positions).
    fn span_from(&self, start: Span) -> Span {
        Span {
            start: start.start,
            end: self.prev_span().end.max(start.start),
        }
    }

    fn or_test(&mut self) -> PResult<Expr> {
        self.bool_chain(true)
    }

    /// `a or b or ...` (operands are `and` chains) and `a and b and ...` (operands are `not`s).
    fn bool_chain(&mut self, is_or: bool) -> PResult<Expr> {
        let (kw, start) = (if is_or { "or" } else { "and" }, self.span());
        let operand = |p: &mut Self| {
            if is_or {
                p.bool_chain(false)
            } else {
                p.not_test()
            }
        };
        let mut e = operand(self)?;
        let saved = self.chain;
        while self.eat_kw(kw) {
            self.chain_step()?;
            let r = operand(self)?;
            let (l, r) = (Box::new(e), Box::new(r));
            e = Expr {
                span: self.span_from(start),
                kind: if is_or {
                    ExprKind::Or(l, r)
                } else {
                    ExprKind::And(l, r)
                },
            };
        }
        self.chain = saved;
        Ok(e)
    }

    fn not_test(&mut self) -> PResult<Expr> {
        if self.is_kw("not") {
            let s = self.advance().span;
            let e = self.nested(|p| p.not_test())?;
            return Ok(Expr {
                span: s.to(e.span),
                kind: ExprKind::Unary(UnaryOp::Not, Box::new(e)),
            });
        }
        self.comparison()
    }

    fn comparison(&mut self) -> PResult<Expr> {
        let first = self.binary(BIT_OR_PREC)?;
        let mut rest = Vec::new();
        loop {
            let op = match self.peek() {
                Tok::Op("==") => CmpOp::Eq,
                Tok::Op("!=") => CmpOp::Ne,
                Tok::Op("<") => CmpOp::Lt,
                Tok::Op("<=") => CmpOp::Le,
                Tok::Op(">") => CmpOp::Gt,
                Tok::Op(">=") => CmpOp::Ge,
                Tok::Kw("in") => CmpOp::In,
                Tok::Kw("is") => {
                    if matches!(self.peek_at(1), Tok::Kw("not")) {
                        self.advance();
                        CmpOp::IsNot
                    } else {
                        CmpOp::Is
                    }
                }
                Tok::Kw("not") if matches!(self.peek_at(1), Tok::Kw("in")) => {
                    self.advance();
                    CmpOp::NotIn
                }
                _ => break,
            };
            self.advance();
            rest.push((op, self.binary(BIT_OR_PREC)?));
        }
        if rest.is_empty() {
            return Ok(first);
        }
        let span = first
            .span
            .to(rest.last().map(|r| r.1.span).unwrap_or(first.span));
        Ok(Expr {
            kind: ExprKind::Compare(Box::new(first), rest),
            span,
        })
    }

    /// Precedence climbing over the binary operators from `|` up to `*`.
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let start = self.span();
        let mut left = self.unary()?;
        let saved = self.chain;
        while let Some((op, prec)) = match self.peek() {
            Tok::Op(o) => binop_info(o),
            _ => None,
        } {
            if prec < min_prec {
                break;
            }
            self.advance();
            self.chain_step()?;
            let right = self.binary(prec + 1)?;
            left = Expr {
                span: self.span_from(start),
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
            };
        }
        self.chain = saved;
        Ok(left)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let op = match self.peek() {
            Tok::Op("-") => Some(UnaryOp::Neg),
            Tok::Op("+") => Some(UnaryOp::Pos),
            Tok::Op("~") => Some(UnaryOp::Invert),
            _ => None,
        };
        if let Some(op) = op {
            let s = self.advance().span;
            let e = self.nested(|p| p.unary())?;
            return Ok(Expr {
                span: s.to(e.span),
                kind: ExprKind::Unary(op, Box::new(e)),
            });
        }
        self.power()
    }

    fn power(&mut self) -> PResult<Expr> {
        let start = self.span();
        let base = self.primary()?;
        if self.eat_op("**") {
            let exp = self.nested(|p| p.unary())?;
            return Ok(Expr {
                span: self.span_from(start),
                kind: ExprKind::Binary(BinOp::Pow, Box::new(base), Box::new(exp)),
            });
        }
        Ok(base)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let start = self.span();
        let mut e = self.atom()?;
        let saved = self.chain;
        loop {
            if self.is_op(".") || self.is_op("(") || self.is_op("[") {
                self.chain_step()?;
            }
            if self.eat_op(".") {
                let (name, _) = self.name()?;
                e = Expr {
                    span: self.span_from(start),
                    kind: ExprKind::Attr(Box::new(e), name),
                };
            } else if self.is_op("(") {
                self.advance();
                let args = self.nested(|p| p.call_args())?;
                self.expect_op(")")?;
                e = Expr {
                    span: self.span_from(start),
                    kind: ExprKind::Call(Box::new(e), args),
                };
            } else if self.is_op("[") {
                self.advance();
                let idx = self.nested(|p| p.subscript_list())?;
                self.expect_op("]")?;
                e = Expr {
                    span: self.span_from(start),
                    kind: ExprKind::Subscript(Box::new(e), Box::new(idx)),
                };
            } else {
                break;
            }
        }
        self.chain = saved;
        Ok(e)
    }

    fn call_args(&mut self) -> PResult<Vec<Arg>> {
        let mut args = Vec::new();
        let mut seen_kw = false;
        while !self.is_op(")") {
            if self.eat_op("**") {
                args.push(Arg::StarStar(self.test()?));
                seen_kw = true;
            } else if self.eat_op("*") {
                args.push(Arg::Star(self.test()?));
            } else if matches!(self.peek(), Tok::Name(_)) && matches!(self.peek_at(1), Tok::Op("="))
            {
                let (n, _) = self.name()?;
                self.advance();
                if args.iter().any(|a| matches!(a, Arg::Kw(k, _) if *k == n)) {
                    return Err(self.error_here(format!("keyword argument repeated: {n}")));
                }
                args.push(Arg::Kw(n, self.test()?));
                seen_kw = true;
            } else {
                let start = self.span();
                let e = self.test()?;
                if self.is_kw("for") {
                    let comp = self.comprehension(CompKind::Gen, e, None, start)?;
                    args.push(Arg::Pos(comp));
                    continue;
                }
                if seen_kw {
                    return Err(SyntaxErr::new(
                        "positional argument follows keyword argument",
                        e.span.start as usize,
                        e.span.end as usize,
                    ));
                }
                args.push(Arg::Pos(e));
            }
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(args)
    }

    fn subscript_list(&mut self) -> PResult<Expr> {
        let first = self.subscript_item()?;
        if !self.is_op(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.is_op("]") {
                break;
            }
            items.push(self.subscript_item()?);
        }
        let span = items[0].span.to(self.prev_span());
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }

    fn subscript_item(&mut self) -> PResult<Expr> {
        let start = self.span();
        let lower = if self.is_op(":") {
            None
        } else {
            let e = self.star_test()?;
            if !self.is_op(":") {
                return Ok(e);
            }
            Some(Box::new(e))
        };
        self.expect_op(":")?;
        let upper = if self.is_op(":") || self.is_op("]") || self.is_op(",") {
            None
        } else {
            Some(Box::new(self.test()?))
        };
        let step = if self.eat_op(":") {
            if self.is_op("]") || self.is_op(",") {
                None
            } else {
                Some(Box::new(self.test()?))
            }
        } else {
            None
        };
        Ok(Expr {
            kind: ExprKind::Slice(lower, upper, step),
            span: start.to(self.prev_span()),
        })
    }

    fn atom(&mut self) -> PResult<Expr> {
        let t = self.advance();
        let span = t.span;
        let kind = match t.tok {
            Tok::Name(s) => return Ok(name_expr(s, span)),
            Tok::Int(v) => ExprKind::Int(v),
            Tok::BigInt => {
                return Err(SyntaxErr::new(
                    "cudalearn integers are limited to 64 bits (-9223372036854775808 to 9223372036854775807)",
                    span.start as usize,
                    span.end as usize,
                ))
            }
            Tok::Float(v) => ExprKind::Float(v),
            Tok::Str(_) | Tok::FStr { .. } => {
                // Adjacent literals concatenate: "a" "b", and f-strings join in.
                let mut parts: Vec<FPart> = Vec::new();
                let mut any_f = false;
                let mut end = span;
                self.pos -= 1;
                while let Tok::Str(_) | Tok::FStr { .. } = self.peek() {
                    let t = self.advance();
                    end = t.span;
                    match t.tok {
                        Tok::Str(s) => push_lit(&mut parts, &s),
                        Tok::FStr {
                            body,
                            body_start,
                            raw,
                        } => {
                            any_f = true;
                            let fp = parse_fstring(self.src, &body, body_start, raw, self.depth, self.chain)?;
                            for p in fp {
                                match p {
                                    FPart::Lit(s) => push_lit(&mut parts, &s),
                                    other => parts.push(other),
                                }
                            }
                        }
                        _ => {}
                    }
                }
                let span = span.to(end);
                if !any_f {
                    let s = match parts.pop() {
                        Some(FPart::Lit(s)) => s,
                        _ => String::new(),
                    };
                    return Ok(Expr {
                        kind: ExprKind::Str(Rc::from(s)),
                        span,
                    });
                }
                return Ok(Expr {
                    kind: ExprKind::FString(parts),
                    span,
                });
            }
            Tok::Kw("None") => ExprKind::None,
            Tok::Kw("True") => ExprKind::Bool(true),
            Tok::Kw("False") => ExprKind::Bool(false),
            Tok::Op("...") => ExprKind::Ellipsis,
            Tok::Op("(") => {
                if self.is_op(")") {
                    let end = self.advance().span;
                    return Ok(Expr {
                        kind: ExprKind::Tuple(Vec::new()),
                        span: span.to(end),
                    });
                }
                self.enter()?;
                let first = self.star_test();
                let r = first.and_then(|first| {
                    if self.is_kw("for") {
                        let c = self.comprehension(CompKind::Gen, first, None, span)?;
                        return Ok((c, false));
                    }
                    if !self.is_op(",") {
                        return Ok((first, true));
                    }
                    let mut items = vec![first];
                    while self.eat_op(",") {
                        if self.is_op(")") {
                            break;
                        }
                        items.push(self.star_test()?);
                    }
                    Ok((
                        Expr {
                            kind: ExprKind::Tuple(items),
                            span,
                        },
                        false,
                    ))
                });
                self.depth -= 1;
                let (mut e, paren_only) = r?;
                let end = self.span();
                self.expect_op(")")?;
                if !paren_only {
                    e.span = span.to(end);
                }
                return Ok(e);
            }
            Tok::Op("[") => {
                if self.is_op("]") {
                    let end = self.advance().span;
                    return Ok(Expr {
                        kind: ExprKind::List(Vec::new()),
                        span: span.to(end),
                    });
                }
                let mut e = self.nested(|p| p.list_body(span))?;
                let end = self.span();
                self.expect_op("]")?;
                e.span = span.to(end);
                return Ok(e);
            }
            Tok::Op("{") => {
                let mut e = self.nested(|p| p.dict_or_set(span))?;
                let end = self.span();
                self.expect_op("}")?;
                e.span = span.to(end);
                return Ok(e);
            }
            Tok::Kw("yield") | Tok::Kw("await") => {
                return Err(SyntaxErr::new(
                    "cudalearn does not support generators ('yield') yet",
                    span.start as usize,
                    span.end as usize,
                ))
            }
            Tok::Indent => {
                let mut e = SyntaxErr::new("unexpected indent", span.end as usize, span.end as usize + 1);
                e.indentation = true;
                return Err(e);
            }
            Tok::Newline | Tok::Eof => {
                self.pos -= 1;
                return Err(self.invalid());
            }
            _ => return Err(SyntaxErr::new("invalid syntax", span.start as usize, span.end as usize)),
        };
        Ok(Expr { kind, span })
    }

    fn list_body(&mut self, start: Span) -> PResult<Expr> {
        let first = self.star_test()?;
        if self.is_kw("for") {
            return self.comprehension(CompKind::List, first, None, start);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.is_op("]") {
                break;
            }
            items.push(self.star_test()?);
        }
        Ok(Expr {
            kind: ExprKind::List(items),
            span: start,
        })
    }

    fn dict_or_set(&mut self, start: Span) -> PResult<Expr> {
        if self.is_op("}") {
            return Ok(Expr {
                kind: ExprKind::Dict(Vec::new()),
                span: start,
            });
        }
        if self.eat_op("**") {
            let v = self.binary(BIT_OR_PREC)?;
            return self.dict_rest(start, vec![(None, v)]);
        }
        let first = self.star_test()?;
        if self.eat_op(":") {
            let v = self.test()?;
            if self.is_kw("for") {
                return self.comprehension(CompKind::Dict, first, Some(v), start);
            }
            return self.dict_rest(start, vec![(Some(first), v)]);
        }
        if self.is_kw("for") {
            return self.comprehension(CompKind::Set, first, None, start);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            if self.is_op("}") {
                break;
            }
            items.push(self.star_test()?);
        }
        Ok(Expr {
            kind: ExprKind::Set(items),
            span: start,
        })
    }

    fn dict_rest(&mut self, start: Span, mut items: Vec<(Option<Expr>, Expr)>) -> PResult<Expr> {
        while self.eat_op(",") {
            if self.is_op("}") {
                break;
            }
            if self.eat_op("**") {
                let v = self.binary(BIT_OR_PREC)?;
                items.push((None, v));
                continue;
            }
            let k = self.test()?;
            if !self.is_op(":") {
                return Err(self.error_here("':' expected after dictionary key"));
            }
            self.advance();
            let v = self.test()?;
            items.push((Some(k), v));
        }
        Ok(Expr {
            kind: ExprKind::Dict(items),
            span: start,
        })
    }

    fn comprehension(
        &mut self,
        kind: CompKind,
        elt: Expr,
        value: Option<Expr>,
        start: Span,
    ) -> PResult<Expr> {
        let mut generators = Vec::new();
        while self.eat_kw("for") {
            let target = self.target_list()?;
            if !self.eat_kw("in") {
                return Err(self.invalid());
            }
            let iter = self.test_no_cond()?;
            let mut ifs = Vec::new();
            while self.eat_kw("if") {
                ifs.push(self.test_no_cond()?);
            }
            generators.push(Comprehension { target, iter, ifs });
        }
        Ok(Expr {
            kind: ExprKind::Comp(Box::new(CompScope {
                kind,
                elt: Box::new(elt),
                value: value.map(Box::new),
                generators,
                info: ScopeInfo::default(),
            })),
            span: start.to(self.prev_span()),
        })
    }
}

fn iter_span_end(s: Span) -> Span {
    s
}

fn push_lit(parts: &mut Vec<FPart>, s: &str) {
    if let Some(FPart::Lit(prev)) = parts.last_mut() {
        prev.push_str(s);
    } else {
        parts.push(FPart::Lit(s.to_string()));
    }
}

const BIT_OR_PREC: u8 = 1;

fn binop_info(op: &str) -> Option<(BinOp, u8)> {
    Some(match op {
        "|" => (BinOp::BitOr, 1),
        "^" => (BinOp::BitXor, 2),
        "&" => (BinOp::BitAnd, 3),
        "<<" => (BinOp::LShift, 4),
        ">>" => (BinOp::RShift, 4),
        "+" => (BinOp::Add, 5),
        "-" => (BinOp::Sub, 5),
        "*" => (BinOp::Mul, 6),
        "/" => (BinOp::Div, 6),
        "//" => (BinOp::FloorDiv, 6),
        "%" => (BinOp::Mod, 6),
        "@" => (BinOp::MatMul, 6),
        _ => return None,
    })
}

fn aug_op(op: &str) -> Option<BinOp> {
    Some(match op {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "//=" => BinOp::FloorDiv,
        "%=" => BinOp::Mod,
        "**=" => BinOp::Pow,
        "@=" => BinOp::MatMul,
        "&=" => BinOp::BitAnd,
        "|=" => BinOp::BitOr,
        "^=" => BinOp::BitXor,
        "<<=" => BinOp::LShift,
        ">>=" => BinOp::RShift,
        _ => return None,
    })
}

fn describe(e: &Expr) -> &'static str {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Ellipsis => "literal",
        ExprKind::FString(_) => "f-string expression",
        ExprKind::Call(..) => "function call",
        ExprKind::Binary(..) | ExprKind::Unary(..) => "expression",
        ExprKind::And(..) | ExprKind::Or(..) => "expression",
        ExprKind::Compare(..) => "comparison",
        ExprKind::IfExp(..) => "conditional expression",
        ExprKind::Lambda(_) => "lambda",
        ExprKind::Dict(_) => "dict literal",
        ExprKind::Set(_) => "set display",
        ExprKind::Comp(c) => match c.kind {
            CompKind::List => "list comprehension",
            CompKind::Set => "set comprehension",
            CompKind::Dict => "dict comprehension",
            CompKind::Gen => "generator expression",
        },
        _ => "expression",
    }
}

fn check_target(e: &Expr, ctx: &str) -> PResult<()> {
    match &e.kind {
        ExprKind::Name(n) => {
            let s = n.sym.as_str();
            if &*s == "__debug__" {
                return Err(SyntaxErr::new(
                    "cannot assign to __debug__",
                    e.span.start as usize,
                    e.span.end as usize,
                ));
            }
            Ok(())
        }
        ExprKind::Attr(..) | ExprKind::Subscript(..) => Ok(()),
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            let stars = items
                .iter()
                .filter(|i| matches!(i.kind, ExprKind::Starred(_)))
                .count();
            if stars > 1 {
                return Err(SyntaxErr::new(
                    "multiple starred expressions in assignment",
                    e.span.start as usize,
                    e.span.end as usize,
                ));
            }
            items.iter().try_for_each(|i| check_target(i, ctx))
        }
        ExprKind::Starred(inner) if ctx != "del" => check_target(inner, ctx),
        _ => {
            let what = describe(e);
            let msg = match ctx {
                "=" => {
                    if matches!(
                        e.kind,
                        ExprKind::Int(_)
                            | ExprKind::Float(_)
                            | ExprKind::Str(_)
                            | ExprKind::Call(..)
                            | ExprKind::Bool(_)
                            | ExprKind::None
                    ) {
                        format!(
                            "cannot assign to {what} here. Maybe you meant '==' instead of '='?"
                        )
                    } else {
                        format!("cannot assign to {what}")
                    }
                }
                "del" => format!("cannot delete {what}"),
                _ => format!("cannot assign to {what}"),
            };
            Err(SyntaxErr::new(
                msg,
                e.span.start as usize,
                e.span.end as usize,
            ))
        }
    }
}

fn check_aug_target(e: &Expr) -> PResult<()> {
    match &e.kind {
        ExprKind::Name(_) | ExprKind::Attr(..) | ExprKind::Subscript(..) => Ok(()),
        ExprKind::Tuple(_) => Err(SyntaxErr::new(
            "'tuple' is an illegal expression for augmented assignment",
            e.span.start as usize,
            e.span.end as usize,
        )),
        ExprKind::List(_) => Err(SyntaxErr::new(
            "'list' is an illegal expression for augmented assignment",
            e.span.start as usize,
            e.span.end as usize,
        )),
        _ => Err(SyntaxErr::new(
            format!(
                "'{}' is an illegal expression for augmented assignment",
                describe(e)
            ),
            e.span.start as usize,
            e.span.end as usize,
        )),
    }
}

/// Parses an f-string body into literal and expression parts. Expressions are re-tokenised
/// from the source so their spans point into the original text.
fn parse_fstring(
    src: &str,
    body: &str,
    body_start: usize,
    raw: bool,
    depth: usize,
    chain: usize,
) -> PResult<Vec<FPart>> {
    if depth > MAX_DEPTH / 2 {
        return Err(SyntaxErr::new(
            "f-string: too deeply nested",
            body_start,
            body_start + 1,
        ));
    }
    let b = body.as_bytes();
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    let flush = |lit: &mut String, parts: &mut Vec<FPart>| -> PResult<()> {
        if !lit.is_empty() {
            let s = if raw {
                std::mem::take(lit)
            } else {
                unescape(lit).map_err(|m| SyntaxErr::new(m, body_start, body_start + 1))?
            };
            lit.clear();
            push_lit(parts, &s);
        }
        Ok(())
    };
    while i < b.len() {
        let c = b[i];
        if c == b'{' {
            if b.get(i + 1) == Some(&b'{') {
                lit.push('{');
                i += 2;
                continue;
            }
            flush(&mut lit, &mut parts)?;
            let (part, next) = fstring_field(src, body, body_start, i, raw, depth, chain)?;
            parts.push(part);
            i = next;
        } else if c == b'}' {
            if b.get(i + 1) == Some(&b'}') {
                lit.push('}');
                i += 2;
                continue;
            }
            return Err(SyntaxErr::new(
                "f-string: single '}' is not allowed",
                body_start + i,
                body_start + i + 1,
            ));
        } else {
            let ch_len = body[i..].chars().next().map_or(1, |c| c.len_utf8());
            lit.push_str(&body[i..i + ch_len]);
            i += ch_len;
        }
    }
    flush(&mut lit, &mut parts)?;
    Ok(parts)
}

/// One `{expr!conv:spec}` field starting at `open` (the `{`); returns the part and the index
/// just past its `}`.
fn fstring_field(
    src: &str,
    body: &str,
    body_start: usize,
    open: usize,
    raw: bool,
    depth: usize,
    chain: usize,
) -> PResult<(FPart, usize)> {
    let b = body.as_bytes();
    let err = |msg: &str, at: usize| SyntaxErr::new(msg, body_start + at, body_start + at + 1);
    let mut i = open + 1;
    let mut nest = 0i32;
    let mut quote: Option<u8> = None;
    let expr_start = i;
    let mut expr_end = None;
    let mut debug = false;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'\'' | b'"' => quote = Some(c),
            b'(' | b'[' | b'{' => nest += 1,
            b')' | b']' => nest -= 1,
            b'}' if nest > 0 => nest -= 1,
            b'}' | b':' if nest == 0 => {
                expr_end = Some(i);
                break;
            }
            b'!' if nest == 0 && b.get(i + 1) != Some(&b'=') => {
                expr_end = Some(i);
                break;
            }
            b'=' if nest == 0
                && !matches!(b.get(i + 1), Some(b'='))
                && !matches!(
                    i.checked_sub(1).and_then(|j| b.get(j)),
                    Some(b'=' | b'!' | b'<' | b'>')
                ) =>
            {
                expr_end = Some(i);
                debug = true;
                break;
            }
            b'\\' => {
                return Err(err(
                    "f-string expression part cannot include a backslash",
                    i,
                ))
            }
            b'#' => return Err(err("f-string expression part cannot include '#'", i)),
            _ => {}
        }
        i += 1;
    }
    let Some(expr_end) = expr_end else {
        return Err(err("f-string: expecting '}'", open));
    };
    let text = &body[expr_start..expr_end];
    if text.trim().is_empty() {
        return Err(err("f-string: empty expression not allowed", open));
    }
    let expr = parse_sub_expr(src, text, body_start + expr_start, depth, chain)?;
    i = expr_end;
    let mut debug_text = None;
    if debug {
        i += 1;
        debug_text = Some(body[expr_start..i].to_string());
    }
    let mut conv = None;
    if b.get(i) == Some(&b'!') {
        match b.get(i + 1) {
            Some(&c @ (b's' | b'r' | b'a')) => conv = Some(c as char),
            _ => {
                return Err(err(
                    "f-string: invalid conversion character: expected 's', 'r', or 'a'",
                    i,
                ))
            }
        }
        i += 2;
    } else if debug && b.get(i) != Some(&b':') {
        conv = Some('r');
    }
    let mut spec = Vec::new();
    if b.get(i) == Some(&b':') {
        i += 1;
        let spec_start = i;
        let mut nest = 0;
        while i < b.len() {
            match b[i] {
                b'{' => nest += 1,
                b'}' if nest == 0 => break,
                b'}' => nest -= 1,
                _ => {}
            }
            i += 1;
        }
        spec = parse_fstring(
            src,
            &body[spec_start..i],
            body_start + spec_start,
            raw,
            depth + 1,
            chain,
        )?;
    }
    if b.get(i) != Some(&b'}') {
        return Err(err("f-string: expecting '}'", open));
    }
    Ok((
        FPart::Expr {
            expr: Box::new(expr),
            conv,
            spec,
            debug_text,
        },
        i + 1,
    ))
}

fn parse_sub_expr(
    src: &str,
    text: &str,
    offset: usize,
    depth: usize,
    chain: usize,
) -> PResult<Expr> {
    let shift = |mut e: SyntaxErr| {
        e.start += offset;
        e.end += offset;
        e
    };
    // Parenthesised, as CPython does, so newlines inside are fine.
    let wrapped = format!("({text})");
    let mut toks = tokenize(&wrapped).map_err(|e| {
        let mut e = shift(e);
        e.start = e.start.saturating_sub(1);
        e.end = e.end.saturating_sub(1);
        e
    })?;
    for t in &mut toks {
        let s = (t.span.start as usize + offset).saturating_sub(1);
        let e = (t.span.end as usize + offset).saturating_sub(1);
        t.span = Span::new(s, e);
        // A nested f-string's body is located in the original source too.
        if let Tok::FStr { body_start, .. } = &mut t.tok {
            *body_start = (*body_start + offset).saturating_sub(1);
        }
    }
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        depth: depth + 1,
        chain,
    };
    p.advance(); // (
    let e = p.test_list_star()?;
    if !p.eat_op(")") || !matches!(p.peek(), Tok::Newline | Tok::Eof) {
        return Err(SyntaxErr::new(
            "f-string: invalid syntax",
            offset,
            offset + text.len(),
        ));
    }
    Ok(e)
}

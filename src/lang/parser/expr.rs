//! Expressions by precedence climbing, from comma lists down to atoms and comprehensions.
use super::*;
use crate::lang::value::PyStr;

impl Parser<'_> {
    /// A comma list of expressions (a tuple when there is a comma), `*x` allowed.
    pub(super) fn test_list_star(&mut self) -> PResult<Expr> {
        self.comma_list(true)
    }

    /// A statement's value: a comma list, or a `yield` expression.
    pub(super) fn value_or_yield(&mut self) -> PResult<Expr> {
        if self.is_kw("yield") {
            return self.yield_expr();
        }
        self.test_list_star()
    }

    /// `yield`, `yield x, y` or `yield from it`, at the `yield` keyword.
    pub(super) fn yield_expr(&mut self) -> PResult<Expr> {
        let start = self.advance().span;
        if self.eat_kw("from") {
            let it = self.test()?;
            return Ok(Expr {
                span: start.to(it.span),
                kind: ExprKind::YieldFrom(Box::new(it)),
            });
        }
        if !self.starts_expr() {
            return Ok(Expr {
                kind: ExprKind::Yield(None),
                span: start,
            });
        }
        let v = self.test_list_star()?;
        Ok(Expr {
            span: start.to(v.span),
            kind: ExprKind::Yield(Some(Box::new(v))),
        })
    }

    pub(super) fn test_list(&mut self) -> PResult<Expr> {
        self.comma_list(false)
    }

    pub(super) fn comma_list(&mut self, star: bool) -> PResult<Expr> {
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

    pub(super) fn starts_expr(&self) -> bool {
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

    pub(super) fn star_test(&mut self) -> PResult<Expr> {
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
    pub(super) fn named_test(&mut self) -> PResult<Expr> {
        let e = self.test()?;
        if self.is_op(":=") {
            return Err(self.error_here("cudalearn does not support ':=' yet"));
        }
        Ok(e)
    }

    pub fn test(&mut self) -> PResult<Expr> {
        self.nested(|p| p.test_inner())
    }

    pub(super) fn test_inner(&mut self) -> PResult<Expr> {
        if self.is_kw("lambda") {
            return self.lambda();
        }
        let first = self.pos;
        let e = self.or_test()?;
        if self.is_kw("if") {
            // Only a conditional expression when an `else` follows on this logical line;
            // in comprehensions `if` is a filter and is handled by the caller.
            self.advance();
            let cond = self.or_test()?;
            if !self.eat_kw("else") {
                return Err(SyntaxErr::new(
                    "expected 'else' after 'if' expression",
                    e.span.start as usize,
                    cond.span.end as usize,
                ));
            }
            let other = self.test()?;
            return Ok(Expr {
                span: e.span.to(other.span),
                kind: ExprKind::IfExp(Box::new(cond), Box::new(e), Box::new(other)),
            });
        }
        if self.starts_expression() {
            if let Some(err) = self.adjacent_expression(&e, first) {
                return Err(err);
            }
        }
        Ok(e)
    }

    /// Whether the next token can begin an expression (after a whole one, never valid).
    fn starts_expression(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Name(_)
                | Tok::Int(_)
                | Tok::BigInt
                | Tok::Float(_)
                | Tok::Str(_)
                | Tok::FStr { .. }
                | Tok::Kw("True" | "False" | "None" | "not" | "lambda")
                | Tok::Op("(" | "[" | "{" | "-" | "+" | "~" | "...")
        )
    }

    /// CPython's second-pass rules for an expression `a` followed by another, `b`: `print x`
    /// is "Missing parentheses in call to 'print'", and inside brackets `[1, 2 3]` is
    /// "Perhaps you forgot a comma?", each over `a` to `b`. `None` (the position restored)
    /// when neither applies; the caller then reports the token after `a`.
    fn adjacent_expression(&mut self, a: &Expr, first: usize) -> Option<SyntaxErr> {
        let at = self.pos;
        let range =
            |b: &Expr, msg: String| SyntaxErr::new(msg, a.span.start as usize, b.span.end as usize);
        if let ExprKind::Name(n) = &a.kind {
            let name = n.sym.as_str();
            if matches!(&*name, "print" | "exec") {
                if let Ok(b) = self.test_list_star() {
                    return Some(range(
                        &b,
                        format!(
                            "Missing parentheses in call to '{name}'. Did you mean {name}(...)?"
                        ),
                    ));
                }
                self.rewind(at);
                return None;
            }
        }
        // Not after `name "string"` (other rules word that) or a soft keyword.
        let lead = &self.toks[first].tok;
        let skip = match lead {
            Tok::Name(s) => {
                matches!(
                    self.toks.get(first + 1).map(|t| &t.tok),
                    Some(Tok::Str(_) | Tok::FStr { .. })
                ) || matches!(&*s.as_str(), "_" | "match" | "case")
            }
            _ => false,
        };
        if !skip {
            if let Ok(b) = self.test() {
                if self.toks[self.pos.saturating_sub(1)].level != 0 {
                    return Some(range(
                        &b,
                        "invalid syntax. Perhaps you forgot a comma?".into(),
                    ));
                }
            }
        }
        self.rewind(at);
        None
    }

    /// Expression that cannot be a bare conditional (comprehension iterables and conditions).
    pub(super) fn test_no_cond(&mut self) -> PResult<Expr> {
        if self.is_kw("lambda") {
            return self.lambda();
        }
        self.or_test()
    }

    pub(super) fn lambda(&mut self) -> PResult<Expr> {
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
                compiled: Default::default(),
            })),
            span,
        })
    }

    /// Span from `start` to the last consumed token (so closing parentheses count, as in
    /// CPython's node positions).
    pub(super) fn span_from(&self, start: Span) -> Span {
        Span {
            start: start.start,
            end: self.prev_span().end.max(start.start),
        }
    }

    pub(super) fn or_test(&mut self) -> PResult<Expr> {
        self.bool_chain(true)
    }

    /// `a or b or ...` (operands are `and` chains) and `a and b and ...` (operands are `not`s).
    pub(super) fn bool_chain(&mut self, is_or: bool) -> PResult<Expr> {
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

    pub(super) fn not_test(&mut self) -> PResult<Expr> {
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

    pub(super) fn comparison(&mut self) -> PResult<Expr> {
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
    pub(super) fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
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

    pub(super) fn unary(&mut self) -> PResult<Expr> {
        let op = match self.peek() {
            Tok::Op("-") => Some(UnaryOp::Neg),
            Tok::Op("+") => Some(UnaryOp::Pos),
            Tok::Op("~") => Some(UnaryOp::Invert),
            _ => None,
        };
        if let Some(op) = op {
            let s = self.advance().span;
            let e = self.nested(|p| p.unary())?;
            let span = s.to(e.span);
            // `-1.5`, `-1`: one constant, as CPython folds them (no negation at run time).
            let folded = match (op, &e.kind) {
                (UnaryOp::Neg, ExprKind::Float(x)) => Some(ExprKind::Float(-x)),
                (UnaryOp::Neg, ExprKind::Int(i)) => i.checked_neg().map(ExprKind::Int),
                _ => None,
            };
            if let Some(kind) = folded {
                return Ok(Expr { span, kind });
            }
            return Ok(Expr {
                span,
                kind: ExprKind::Unary(op, Box::new(e)),
            });
        }
        self.power()
    }

    pub(super) fn power(&mut self) -> PResult<Expr> {
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

    pub(super) fn primary(&mut self) -> PResult<Expr> {
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
                    kind: ExprKind::Attr(Box::new(e), name, Default::default()),
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

    pub(super) fn call_args(&mut self) -> PResult<Vec<Arg>> {
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
                // (A generator expression that is the only argument spans the call's
                // parentheses, as CPython's node does.)
                let start = if args.is_empty() {
                    self.prev_span()
                } else {
                    self.span()
                };
                let e = self.test()?;
                if self.is_kw("for") {
                    let from = e.span.start as usize;
                    let comp = self.comprehension(CompKind::Gen, e, None, start)?;
                    if args.is_empty() && self.is_op(")") {
                        args.push(Arg::Pos(comp));
                        continue;
                    }
                    // Not the only argument: CPython's message, over the bare generator.
                    if args.is_empty() && !self.is_op(",") {
                        return Err(self.invalid());
                    }
                    let err = SyntaxErr::new(
                        "Generator expression must be parenthesized",
                        from,
                        self.prev_span().end as usize,
                    );
                    if self.eat_op(",") {
                        // (Read on through the arguments as CPython's rule does, which decides
                        // whether an unclosed bracket is reported instead.)
                        let _ = self.call_args();
                    }
                    return Err(err);
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

    pub(super) fn subscript_list(&mut self) -> PResult<Expr> {
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

    pub(super) fn subscript_item(&mut self) -> PResult<Expr> {
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

    pub(super) fn atom(&mut self) -> PResult<Expr> {
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
            Tok::Str(_) | Tok::FStr { .. } => return self.strings(span),
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
                let first = if self.is_kw("yield") {
                    self.yield_expr()
                } else {
                    self.star_test()
                };
                let r = first.and_then(|first| {
                    if matches!(first.kind, ExprKind::Yield(_) | ExprKind::YieldFrom(_)) {
                        return Ok((first, true));
                    }
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
            Tok::Kw("yield") => {
                // Only where Python allows it: a statement, the right of `=`, or `(yield)`.
                return Err(SyntaxErr::new(
                    "invalid syntax",
                    span.start as usize,
                    span.end as usize,
                ));
            }
            Tok::Kw("await") => {
                return Err(SyntaxErr::new(
                    "cudalearn does not support 'await' yet",
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
                self.rewind(self.pos - 1);
                return Err(self.invalid());
            }
            _ => {
                // (The token is left unread: how far the parser read decides an unclosed
                // bracket's error, see `parse_tokens`.)
                self.pos -= 1;
                return Err(SyntaxErr::new("invalid syntax", span.start as usize, span.end as usize));
            }
        };
        Ok(Expr { kind, span })
    }

    /// An error of the f-string scanner (`f"{}"`, `f"{x!z}"`) placed as CPython 3.11 places it:
    /// at the token after the string literals (a comment before the line's end included).
    /// Errors inside an expression keep their place in its text.
    fn after_strings(&mut self, mut e: SyntaxErr) -> SyntaxErr {
        if e.shown.is_some() {
            return e;
        }
        while let Tok::Str(_) | Tok::FStr { .. } = self.peek() {
            self.advance();
        }
        let (from, next) = (self.prev_span().end as usize, self.span());
        let (start, end) = (next.start as usize, next.end as usize);
        let comment = match self.peek() {
            Tok::Newline => self.src.get(from..start).and_then(|gap| gap.find('#')),
            _ => None,
        };
        (e.start, e.end) = match comment {
            Some(hash) => (from + hash, start),
            None => (start, end),
        };
        e
    }

    /// Adjacent string literals at `span` (the first one just consumed), concatenated; an
    /// f-string among them makes the whole an f-string.
    fn strings(&mut self, span: Span) -> PResult<Expr> {
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
                    let fp =
                        parse_fstring(self.src, &body, body_start, raw, self.depth, self.chain)
                            .map_err(|e| self.after_strings(e))?;
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
                kind: ExprKind::Str(PyStr::from(s)),
                span,
            });
        }
        Ok(Expr {
            kind: ExprKind::FString(parts),
            span,
        })
    }

    pub(super) fn list_body(&mut self, start: Span) -> PResult<Expr> {
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

    pub(super) fn dict_or_set(&mut self, start: Span) -> PResult<Expr> {
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

    pub(super) fn dict_rest(
        &mut self,
        start: Span,
        mut items: Vec<(Option<Expr>, Expr)>,
    ) -> PResult<Expr> {
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

    pub(super) fn comprehension(
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
        // The comprehension node's span, as CPython's: its brackets (or a call's parentheses
        // around a lone generator argument) included.
        let closer = match kind {
            CompKind::List => "]",
            CompKind::Set | CompKind::Dict => "}",
            CompKind::Gen => ")",
        };
        let end = if self.is_op(closer) {
            self.span()
        } else {
            self.prev_span()
        };
        let span = start.to(end);
        Ok(Expr {
            kind: ExprKind::Comp(Rc::new(CompScope {
                kind,
                elt: Box::new(elt),
                value: value.map(Box::new),
                generators,
                info: ScopeInfo::default(),
                span,
                compiled: Default::default(),
            })),
            span,
        })
    }
}

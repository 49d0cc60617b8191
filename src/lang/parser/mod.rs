//! Tokens → syntax tree: recursive descent for statements, precedence climbing for expressions.
use super::ast::*;
use super::lexer::{tokenize_lenient, unescape, Span, SyntaxErr, Tok, Token};
use super::symbol::Sym;
use std::rc::Rc;

mod expr;
mod fstring;
mod stmt;

use fstring::parse_fstring;

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
    /// The furthest token reached (kept through backtracking): whether the parser read to the
    /// end of the source.
    furthest: usize,
}

type PResult<T> = Result<T, SyntaxErr>;

pub fn parse_module(src: &str) -> PResult<Vec<Stmt>> {
    parse_tokens(src).map_err(|e| on_char_boundaries(src, e))
}

/// Error spans are byte offsets that tracebacks slice the source with, and many are built as
/// `offset + 1`: widen them to whole characters (an error at `é` must not end inside it) and make
/// them non-empty, so that no caller can slice a line in the middle of a character.
fn on_char_boundaries(src: &str, mut e: SyntaxErr) -> SyntaxErr {
    if let Some((text, _)) = &e.shown {
        e.end = e.end.clamp(e.start, text.len());
        return e;
    }
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
    let (toks, unclosed) = tokenize_lenient(src)?;
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        depth: 0,
        chain: 0,
        furthest: 0,
    };
    let parsed = p.module();
    let Some(open) = unclosed else {
        return parsed;
    };
    // A bracket left open: its error, unless the parser failed before reading to the end and
    // on the bracket's own line (CPython keeps "invalid syntax" at `def f(:`, but reports
    // "'(' was never closed" once its parser has read to the end inside the bracket, or read
    // past the bracket's line).
    let read = p.furthest.max(p.pos).min(p.toks.len() - 1);
    let line = |o: usize| src[..o.min(src.len())].matches('\n').count();
    let last_read = p.toks[read].span.start as usize;
    match parsed {
        Err(e) if read + 1 < p.toks.len() && line(last_read) <= line(open.start) => Err(e),
        _ => Err(open),
    }
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
    fn module(&mut self) -> PResult<Vec<Stmt>> {
        let mut body = Vec::new();
        while !self.at_eof() {
            if self.eat(&Tok::Newline) {
                continue;
            }
            body.extend(self.statement()?);
        }
        Ok(body)
    }
    fn peek(&self) -> &Tok {
        self.peek_at(0)
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
    /// Goes back to token `to`, remembering how far the parser had read (see `furthest`).
    fn rewind(&mut self, to: usize) {
        self.furthest = self.furthest.max(self.pos);
        self.pos = to;
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

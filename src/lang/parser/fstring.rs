//! f-strings: literal text, replacement fields, conversions and nested format specs.
use super::*;
use crate::lang::lexer::tokenize;

/// Parses an f-string body into literal and expression parts. Expressions are re-tokenised
/// from the source so their spans point into the original text.
pub(super) fn parse_fstring(
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
        // 3.11 refuses a backslash anywhere in the expression, inside its strings too.
        if c == b'\\' {
            return Err(err(
                "f-string expression part cannot include a backslash",
                i,
            ));
        }
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
        // `{x = }`: the whitespace after `=` is part of the echoed text too.
        i += 1;
        while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
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
    // Parenthesised, as CPython does, so newlines inside are fine.
    let wrapped = format!("({text})");
    // An error in the expression is shown in the parenthesised text, as CPython 3.11 does
    // (`at`: the source offset of the text's first character, less one).
    let in_wrapped = |mut e: SyntaxErr, at: usize| {
        if !e.msg.starts_with("f-string") {
            e.msg = format!("f-string: {}", e.msg);
        }
        let w = wrapped.len();
        e.start = (e.start + 1).saturating_sub(at).min(w);
        e.end = (e.end + 1).saturating_sub(at).clamp(e.start, w);
        e.shown = Some((wrapped.clone(), offset));
        e
    };
    let mut toks = tokenize(&wrapped).map_err(|e| in_wrapped(e, 1))?;
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
        furthest: 0,
    };
    p.advance(); // (
    let e = p.test_list_star().map_err(|e| in_wrapped(e, offset))?;
    if !p.eat_op(")") || !matches!(p.peek(), Tok::Newline | Tok::Eof) {
        let s = p.span();
        let e = SyntaxErr::new("invalid syntax", s.start as usize, s.end as usize);
        return Err(in_wrapped(e, offset));
    }
    Ok(e)
}

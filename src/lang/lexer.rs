//! Source text → tokens, with Python's INDENT/DEDENT and implicit line joining inside brackets.
use super::symbol::Sym;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end.max(self.end),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Name(Sym),
    Kw(&'static str),
    Int(i64),
    /// An integer literal past 64 bits; the parser reports it.
    BigInt,
    Float(f64),
    Str(String),
    /// An f-string: its raw body (escapes not yet processed) and where the body starts.
    FStr {
        body: String,
        body_start: usize,
        raw: bool,
    },
    Op(&'static str),
    Newline,
    Indent,
    Dedent,
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
    /// Brackets open after this token (CPython's tokenizer `level`).
    pub level: u32,
}

/// A syntax (or indentation) error at a byte offset of the source.
#[derive(Clone, Debug)]
pub struct SyntaxErr {
    pub msg: String,
    pub start: usize,
    pub end: usize,
    pub indentation: bool,
    /// A line shown instead of the source's, with `start`/`end` offsets into it, and the source
    /// offset whose line number is reported: CPython 3.11 shows an error in an f-string's
    /// expression in the parenthesised text it parsed (`(x+)`).
    pub shown: Option<(String, usize)>,
}

impl SyntaxErr {
    pub fn new(msg: impl Into<String>, start: usize, end: usize) -> SyntaxErr {
        SyntaxErr {
            msg: msg.into(),
            start,
            end,
            indentation: false,
            shown: None,
        }
    }
}

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

pub fn is_keyword(s: &str) -> Option<&'static str> {
    KEYWORDS.iter().copied().find(|k| *k == s)
}

// Longest first, so that `**=` wins over `**` and `*`.
const OPS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "...", "->", "+=", "-=", "*=", "/=", "%=", "@=", "&=", "|=", "^=",
    "**", "//", "<<", ">>", "<=", ">=", "==", "!=", ":=", "+", "-", "*", "/", "%", "@", "&", "|",
    "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=",
];

pub struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    indents: Vec<usize>,
    /// Open brackets with their offsets: newlines inside them are not tokens.
    brackets: Vec<(u8, usize)>,
    tokens: Vec<Token>,
    at_line_start: bool,
    /// Whether a bracket still open at the end is left to the parser (see `tokenize_lenient`).
    lenient: bool,
    unclosed: Option<SyntaxErr>,
}

pub fn tokenize(src: &str) -> Result<Vec<Token>, SyntaxErr> {
    let (tokens, unclosed) = lex(src, false)?;
    match unclosed {
        Some(e) => Err(e),
        None => Ok(tokens),
    }
}

/// `tokenize`, except that a bracket still open at the end of the source is not an error yet:
/// the tokens stop there (no closing NEWLINE), and the "'(' was never closed" error comes back
/// beside them. CPython's parser reads tokens as it goes, so an error it meets before the end
/// (`def f(:`) is the one reported.
pub fn tokenize_lenient(src: &str) -> Result<(Vec<Token>, Option<SyntaxErr>), SyntaxErr> {
    lex(src, true)
}

fn lex(src: &str, lenient: bool) -> Result<(Vec<Token>, Option<SyntaxErr>), SyntaxErr> {
    let mut lx = Lexer {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        indents: vec![0],
        brackets: Vec::new(),
        tokens: Vec::new(),
        at_line_start: true,
        lenient,
        unclosed: None,
    };
    lx.run()?;
    Ok((lx.tokens, lx.unclosed))
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl<'a> Lexer<'a> {
    fn push(&mut self, tok: Tok, start: usize, end: usize) {
        self.tokens.push(Token {
            tok,
            span: Span::new(start, end),
            level: self.brackets.len() as u32,
        });
    }

    fn peek_char(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn run(&mut self) -> Result<(), SyntaxErr> {
        loop {
            if self.at_line_start && self.brackets.is_empty() {
                self.at_line_start = false;
                if self.indentation()? {
                    continue;
                }
            }
            let Some(c) = self.peek_char() else { break };
            let start = self.pos;
            match c {
                ' ' | '\t' | '\x0c' => self.pos += 1,
                '\r' => self.pos += 1,
                '#' => {
                    while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                '\n' => {
                    self.pos += 1;
                    if self.brackets.is_empty() {
                        self.newline(start);
                        self.at_line_start = true;
                    }
                }
                '\\' => {
                    let rest = &self.src[self.pos + 1..];
                    let rest = rest.strip_prefix('\r').unwrap_or(rest);
                    if rest.starts_with('\n') {
                        self.pos = self.src.len() - rest.len() + 1;
                    } else if rest.is_empty() {
                        return Err(SyntaxErr::new(
                            "unexpected EOF while parsing",
                            start,
                            start + 1,
                        ));
                    } else {
                        return Err(SyntaxErr::new(
                            "unexpected character after line continuation character",
                            start,
                            start + 1,
                        ));
                    }
                }
                '0'..='9' => self.number()?,
                '.' if self
                    .bytes
                    .get(self.pos + 1)
                    .is_some_and(|b| b.is_ascii_digit()) =>
                {
                    self.number()?
                }
                '"' | '\'' => self.string(start, "")?,
                c if is_ident_start(c) => {
                    let mut end = self.pos;
                    for (i, ch) in self.src[self.pos..].char_indices() {
                        if !is_ident_char(ch) {
                            break;
                        }
                        end = self.pos + i + ch.len_utf8();
                    }
                    let word = &self.src[self.pos..end];
                    let next = self.src[end..].chars().next();
                    if matches!(next, Some('"' | '\'')) && is_string_prefix(word) {
                        self.pos = end;
                        let prefix = word.to_ascii_lowercase();
                        self.string(start, &prefix)?;
                        continue;
                    }
                    self.pos = end;
                    let tok = match is_keyword(word) {
                        Some(k) => Tok::Kw(k),
                        None => Tok::Name(Sym::new(word)),
                    };
                    self.push(tok, start, end);
                }
                _ => self.op(c)?,
            }
        }
        // End of input: close the logical line and every indentation level.
        if let Some(&(b, at)) = self.brackets.last() {
            let e = SyntaxErr::new(format!("'{}' was never closed", b as char), at, at + 1);
            if !self.lenient {
                return Err(e);
            }
            self.unclosed = Some(e);
            let end = self.src.len();
            self.push(Tok::Eof, end, end);
            return Ok(());
        }
        let end = self.src.len();
        if !matches!(
            self.tokens.last().map(|t| &t.tok),
            None | Some(Tok::Newline) | Some(Tok::Dedent)
        ) {
            self.push(Tok::Newline, end, end);
        }
        while self.indents.len() > 1 {
            self.indents.pop();
            self.push(Tok::Dedent, end, end);
        }
        self.push(Tok::Eof, end, end);
        Ok(())
    }

    fn newline(&mut self, at: usize) {
        // Blank lines and comment-only lines produce no NEWLINE token.
        if !matches!(
            self.tokens.last().map(|t| &t.tok),
            None | Some(Tok::Newline) | Some(Tok::Indent) | Some(Tok::Dedent)
        ) {
            self.push(Tok::Newline, at, at + 1);
        }
    }

    /// Measures the indentation of a new line and emits INDENT/DEDENT.
    /// Returns true when the line was blank (nothing to emit).
    fn indentation(&mut self) -> Result<bool, SyntaxErr> {
        let mut col = 0usize;
        let mut p = self.pos;
        while p < self.bytes.len() {
            match self.bytes[p] {
                b' ' => col += 1,
                b'\t' => col = (col / 8 + 1) * 8,
                b'\x0c' => col = 0,
                _ => break,
            }
            p += 1;
        }
        let rest = &self.bytes[p..];
        if rest.is_empty() || rest[0] == b'\n' || rest[0] == b'#' || rest.starts_with(b"\r\n") {
            // Blank or comment line: indentation is irrelevant.
            self.pos = p;
            return Ok(false);
        }
        let line_start = self.pos;
        self.pos = p;
        let cur = *self.indents.last().unwrap_or(&0);
        if col > cur {
            self.indents.push(col);
            self.push(Tok::Indent, line_start, p);
        } else if col < cur {
            while col < *self.indents.last().unwrap_or(&0) {
                self.indents.pop();
                self.push(Tok::Dedent, p, p);
            }
            if col != *self.indents.last().unwrap_or(&0) {
                // (CPython's tokenizer puts the caret past the line's last character.)
                let end = rest
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(self.bytes.len(), |n| p + n);
                let end = if end > p && self.bytes[end - 1] == b'\r' {
                    end - 1
                } else {
                    end
                };
                let mut e = SyntaxErr::new(
                    "unindent does not match any outer indentation level",
                    end,
                    end,
                );
                e.indentation = true;
                return Err(e);
            }
        }
        Ok(false)
    }

    fn op(&mut self, c: char) -> Result<(), SyntaxErr> {
        let start = self.pos;
        let rest = &self.src[self.pos..];
        let Some(op) = OPS.iter().copied().find(|op| rest.starts_with(op)) else {
            let msg = if c == '$' || c == '?' || c == '`' || c == '!' {
                "invalid syntax".to_string()
            } else {
                format!("invalid character '{}' (U+{:04X})", c, c as u32)
            };
            return Err(SyntaxErr::new(msg, start, start + c.len_utf8()));
        };
        self.pos += op.len();
        match op {
            "(" | "[" | "{" => self.brackets.push((op.as_bytes()[0], start)),
            ")" | "]" | "}" => {
                let want = match op {
                    ")" => b'(',
                    "]" => b'[',
                    _ => b'{',
                };
                match self.brackets.pop() {
                    Some((b, _)) if b == want => {}
                    Some((b, at)) => {
                        let line_of = |o: usize| self.src[..o].matches('\n').count() + 1;
                        let msg = if line_of(at) == line_of(start) {
                            format!(
                                "closing parenthesis '{}' does not match opening parenthesis '{}'",
                                op, b as char
                            )
                        } else {
                            format!(
                                "closing parenthesis '{}' does not match opening parenthesis '{}' on line {}",
                                op,
                                b as char,
                                line_of(at)
                            )
                        };
                        return Err(SyntaxErr::new(msg, start, start + 1));
                    }
                    None => {
                        return Err(SyntaxErr::new(
                            format!("unmatched '{op}'"),
                            start,
                            start + 1,
                        ))
                    }
                }
            }
            _ => {}
        }
        self.push(Tok::Op(op), start, self.pos);
        Ok(())
    }

    fn number(&mut self) -> Result<(), SyntaxErr> {
        let start = self.pos;
        let b = self.bytes;
        let digits = |p: &mut usize, ok: &dyn Fn(u8) -> bool| {
            while *p < b.len()
                && (ok(b[*p]) || (b[*p] == b'_' && *p + 1 < b.len() && ok(b[*p + 1])))
            {
                *p += 1;
            }
        };
        let mut p = self.pos;
        if b[p] == b'0'
            && p + 1 < b.len()
            && matches!(b[p + 1], b'x' | b'X' | b'o' | b'O' | b'b' | b'B')
        {
            let radix = match b[p + 1] {
                b'x' | b'X' => 16,
                b'o' | b'O' => 8,
                _ => 2,
            };
            p += 2;
            let ds = p;
            digits(&mut p, &|c: u8| (c as char).is_digit(radix));
            let text: String = self.src[ds..p].chars().filter(|&c| c != '_').collect();
            self.pos = p;
            if text.is_empty() {
                return Err(SyntaxErr::new("invalid syntax", start, p));
            }
            let tok = match i64::from_str_radix(&text, radix) {
                Ok(v) => Tok::Int(v),
                Err(_) => Tok::BigInt,
            };
            self.push(tok, start, p);
            return Ok(());
        }
        let mut is_float = false;
        digits(&mut p, &|c: u8| c.is_ascii_digit());
        if p < b.len() && b[p] == b'.' {
            is_float = true;
            p += 1;
            digits(&mut p, &|c: u8| c.is_ascii_digit());
        }
        if p < b.len() && (b[p] == b'e' || b[p] == b'E') {
            let mut q = p + 1;
            if q < b.len() && (b[q] == b'+' || b[q] == b'-') {
                q += 1;
            }
            if q < b.len() && b[q].is_ascii_digit() {
                is_float = true;
                p = q;
                digits(&mut p, &|c: u8| c.is_ascii_digit());
            }
        }
        if p < b.len() && (b[p] == b'j' || b[p] == b'J') {
            return Err(SyntaxErr::new(
                "cudalearn does not support complex numbers",
                start,
                p + 1,
            ));
        }
        if p < b.len() && (b[p] as char).is_alphabetic() {
            return Err(SyntaxErr::new("invalid decimal literal", start, p + 1));
        }
        let text: String = self.src[start..p].chars().filter(|&c| c != '_').collect();
        self.pos = p;
        let tok = if is_float {
            Tok::Float(text.parse().unwrap_or(f64::INFINITY))
        } else {
            if text.len() > 1 && text.starts_with('0') && text.bytes().any(|c| c != b'0') {
                return Err(SyntaxErr::new(
                    "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
                    start,
                    p,
                ));
            }
            match text.parse::<i64>() {
                Ok(v) => Tok::Int(v),
                Err(_) => Tok::BigInt,
            }
        };
        self.push(tok, start, p);
        Ok(())
    }

    fn string(&mut self, start: usize, prefix: &str) -> Result<(), SyntaxErr> {
        if prefix.contains('b') {
            return Err(SyntaxErr::new(
                "cudalearn does not support bytes literals",
                start,
                self.pos + 1,
            ));
        }
        let raw = prefix.contains('r');
        let fstr = prefix.contains('f');
        let q = self.bytes[self.pos];
        let triple = self.bytes[self.pos..].starts_with(&[q, q, q]);
        let qlen = if triple { 3 } else { 1 };
        let body_start = self.pos + qlen;
        let mut p = body_start;
        let line = self.src[..start].matches('\n').count() + 1;
        loop {
            if p >= self.bytes.len() {
                let msg = if triple {
                    format!(
                        "unterminated triple-quoted string literal (detected at line {})",
                        self.src.matches('\n').count() + usize::from(!self.src.ends_with('\n'))
                    )
                } else {
                    format!("unterminated string literal (detected at line {line})")
                };
                return Err(SyntaxErr::new(msg, start, start + 1));
            }
            let c = self.bytes[p];
            if c == b'\\' {
                p += 2;
                continue;
            }
            if c == b'\n' && !triple {
                return Err(SyntaxErr::new(
                    format!("unterminated string literal (detected at line {line})"),
                    start,
                    start + 1,
                ));
            }
            if c == q && (!triple || self.bytes[p..].starts_with(&[q, q, q])) {
                break;
            }
            p += 1;
        }
        let body = &self.src[body_start..p.min(self.src.len())];
        self.pos = (p + qlen).min(self.src.len());
        let tok = if fstr {
            Tok::FStr {
                body: body.to_string(),
                body_start,
                raw,
            }
        } else if raw {
            Tok::Str(body.to_string())
        } else {
            Tok::Str(unescape(body).map_err(|m| SyntaxErr::new(m, start, self.pos))?)
        };
        self.push(tok, start, self.pos);
        Ok(())
    }
}

fn is_string_prefix(w: &str) -> bool {
    matches!(
        w.to_ascii_lowercase().as_str(),
        "r" | "u" | "f" | "b" | "rf" | "fr" | "br" | "rb"
    )
}

/// Processes backslash escapes as Python does for a non-raw string literal.
pub fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            '\n' => {}
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut v = 0u32;
                for i in 0..n {
                    match chars.peek().and_then(|c| c.to_digit(16)) {
                        Some(d) => {
                            v = v.wrapping_mul(16).wrapping_add(d);
                            chars.next();
                        }
                        None => {
                            let kind = if e == 'x' {
                                "\\xXX"
                            } else if e == 'u' {
                                "\\uXXXX"
                            } else {
                                "\\UXXXXXXXX"
                            };
                            return Err(format!(
                                "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-{}: truncated {kind} escape",
                                i + 1
                            ));
                        }
                    }
                }
                match char::from_u32(v) {
                    Some(c) => out.push(c),
                    None => return Err("(unicode error) 'unicodeescape' codec can't decode bytes: illegal Unicode character".into()),
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Ok(out)
}

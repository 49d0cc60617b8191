//! CPython 3.11's text conversions for numbers and strings: `repr(float)`, the `format()`
//! mini-language, `%`-formatting, `str.format` parsing, `round`, `float(str)`, `int(str, base)`
//! and `repr(str)`.
//!
//! Each routine follows the CPython code it replaces (Python/formatter_unicode.c,
//! Python/pystrtod.c, Objects/stringlib/unicode_format.h, Objects/unicodeobject.c,
//! Objects/longobject.c, Objects/floatobject.c) step by step, so that output and error
//! messages are byte-identical. It depends on nothing else in the crate.
//!
//! Strings are measured in code points, as Python does, never in bytes.

use std::fmt::Write as _;

/// Largest width or precision we are willing to materialise. CPython would try (and raise
/// MemoryError far beyond this); we refuse early instead of aborting the process.
const MAX_FIELD: usize = 1 << 26;

/// Message of the OverflowError CPython raises for `format(c, 'c')` / `'%c' % c` out of range.
pub const C_ARG_RANGE_MSG: &str = "%c arg not in range(0x110000)";

/// Message for an integer that Python would hold but cudalearn's 64-bit ints cannot.
pub const INT_OVERFLOW_MSG: &str = "int too large to convert to a 64-bit integer";

/// The Python exception a numeric conversion raises, with its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumError {
    /// `ValueError(msg)`
    Value(String),
    /// `OverflowError(msg)`
    Overflow(String),
}

impl NumError {
    /// The exception's message, whichever kind it is.
    pub fn message(&self) -> &str {
        match self {
            NumError::Value(m) | NumError::Overflow(m) => m,
        }
    }
}

/// `int(str, base)` fails with ValueError (bad literal or base) or, when the literal is valid
/// but does not fit cudalearn's 64-bit ints, with the `Overflow` variant.
pub type IntParseError = NumError;

// ---------------------------------------------------------------------------------------------
// Unicode helpers
// ---------------------------------------------------------------------------------------------

/// `str.isspace()`: Unicode White_Space plus the ASCII information separators 0x1c..=0x1f.
fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// `Py_UNICODE_TODECIMAL`: value of a Unicode decimal digit (category Nd), any script.
fn decimal_value(c: char) -> Option<u32> {
    if c.is_ascii() {
        return c.to_digit(10);
    }
    let cp = c as u32;
    let i = DECIMAL_ZEROS.partition_point(|&z| z <= cp);
    let zero = *DECIMAL_ZEROS.get(i.checked_sub(1)?)?;
    let d = cp - zero;
    (d < 10).then_some(d)
}

/// `str.isprintable()` for one character (Unicode 14.0, as in Python 3.11).
fn is_printable(c: char) -> bool {
    let cp = c as u32;
    if cp < 0x80 {
        return (0x20..0x7f).contains(&cp);
    }
    let i = NON_PRINTABLE.partition_point(|&(start, _)| start <= cp);
    match i.checked_sub(1).and_then(|j| NON_PRINTABLE.get(j)) {
        Some(&(_, end)) => cp > end,
        None => true,
    }
}

/// Python's `repr(s)` of a `str`.
pub fn str_repr(s: &str) -> String {
    repr_impl(s, false)
}

/// Python's `ascii(s)` of a `str` (used by `!a` and `%a`): like repr, every non-ASCII escaped.
pub fn str_ascii(s: &str) -> String {
    repr_impl(s, true)
}

fn repr_impl(s: &str, ascii_only: bool) -> String {
    // Single quotes unless the text has a ' and no ", exactly as unicode_repr decides.
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        let cp = c as u32;
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ if c == quote => {
                out.push('\\');
                out.push(c);
            }
            _ if cp < 0x20 || cp == 0x7f => {
                let _ = write!(out, "\\x{cp:02x}");
            }
            _ if cp < 0x7f => out.push(c),
            _ if !ascii_only && is_printable(c) => out.push(c),
            _ if cp <= 0xff => {
                let _ = write!(out, "\\x{cp:02x}");
            }
            _ if cp <= 0xffff => {
                let _ = write!(out, "\\u{cp:04x}");
            }
            _ => {
                let _ = write!(out, "\\U{cp:08x}");
            }
        }
    }
    out.push(quote);
    out
}

/// `%.200R` in CPython's messages: the repr cut to 200 code points.
fn repr_truncated(s: &str, max: usize) -> String {
    str_repr(s).chars().take(max).collect()
}

// ---------------------------------------------------------------------------------------------
// Floats to text (PyOS_double_to_string)
// ---------------------------------------------------------------------------------------------

/// Splits Rust's `{:e}` output of a non-negative finite float into dtoa's (digits, decpt),
/// where value = 0.DIGITS × 10^decpt.
fn split_sci(s: &str) -> (Vec<u8>, i64) {
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    let digits: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    (digits, exp + 1)
}

/// Shortest digits that round-trip (dtoa mode 0). Rust's `{:e}` finds the shortest length, but
/// when two candidates of that length are equally close (x exactly halfway, e.g.
/// 586806606277009.25) it rounds up where dtoa rounds half-even; the correctly rounded digits
/// of the same length are dtoa's answer whenever they round-trip. Two different decimals of
/// at most 15 digits never read back as the same double, so only longer results can tie.
fn shortest_digits(x: f64) -> (Vec<u8>, i64) {
    let (digits, decpt) = split_sci(&format!("{x:e}"));
    if digits.len() >= 16 {
        let rounded = format!("{:.*e}", digits.len() - 1, x);
        if rounded.parse::<f64>() == Ok(x) {
            let (mut d, p) = split_sci(&rounded);
            while d.len() > 1 && d.last() == Some(&b'0') {
                d.pop();
            }
            return (d, p);
        }
    }
    (digits, decpt)
}

/// `ndigits >= 1` significant digits, correctly rounded half-even, trailing zeros dropped
/// (dtoa mode 2). Rust's precision formatting is exact, like dtoa.
fn sig_digits(x: f64, ndigits: usize) -> (Vec<u8>, i64) {
    // A double has at most 767 significant decimal digits; the rest would be zeros (and Rust's
    // formatter refuses precisions past 65535).
    let (mut d, decpt) = split_sci(&format!("{:.*e}", ndigits.clamp(1, 800) - 1, x));
    while d.len() > 1 && d.last() == Some(&b'0') {
        d.pop();
    }
    (d, decpt)
}

/// Lays out dtoa digits the way pystrtod.c's `format_float_short` does: pad the digit string
/// with zeros on both sides, place the point, optionally add an exponent.
fn layout_digits(
    digits: &[u8],
    decpt: i64,
    vdigits_end: i64,
    use_exp: bool,
    add_dot_0: bool,
    alt: bool,
    upper: bool,
) -> String {
    let dlen = digits.len() as i64;
    let (decpt, exp) = if use_exp { (1, decpt - 1) } else { (decpt, 0) };
    let vstart = if decpt <= 0 { decpt - 1 } else { 0 };
    let vend = if !use_exp && add_dot_0 {
        vdigits_end.max(decpt + 1)
    } else {
        vdigits_end.max(decpt)
    };
    let zeros = |out: &mut String, n: i64| {
        for _ in 0..n.max(0) {
            out.push('0');
        }
    };
    let digit_str = |range: std::ops::Range<usize>| -> String {
        digits
            .get(range)
            .map(|d| String::from_utf8_lossy(d).into_owned())
            .unwrap_or_default()
    };
    let mut out = String::new();
    if decpt <= 0 {
        zeros(&mut out, decpt - vstart);
        out.push('.');
        zeros(&mut out, -decpt);
    } else {
        zeros(&mut out, -vstart);
    }
    if 0 < decpt && decpt <= dlen {
        out.push_str(&digit_str(0..decpt as usize));
        out.push('.');
        out.push_str(&digit_str(decpt as usize..digits.len()));
    } else {
        out.push_str(&digit_str(0..digits.len()));
    }
    if dlen < decpt {
        zeros(&mut out, decpt - dlen);
        out.push('.');
        zeros(&mut out, vend - decpt);
    } else {
        zeros(&mut out, vend - dlen);
    }
    if out.ends_with('.') && !alt {
        out.pop();
    }
    if use_exp {
        out.push(if upper { 'E' } else { 'e' });
        // C's "%+.02d": sign always, at least two digits.
        let _ = write!(out, "{exp:+03}");
    }
    out
}

/// Options of [`double_to_string_flags`], mirroring CPython's `Py_DTSF_*` flags.
#[derive(Debug, Clone, Copy, Default)]
struct DtoaFlags {
    add_dot_0: bool,
    alt: bool,
    no_neg_0: bool,
}

/// CPython's `PyOS_double_to_string(x, code, precision, flags)`.
fn double_to_string_flags(x: f64, code: char, precision: usize, fl: DtoaFlags) -> String {
    let upper = code.is_ascii_uppercase();
    let code = code.to_ascii_lowercase();
    let neg = x.is_sign_negative();
    if x.is_nan() {
        // CPython never signs a nan, even -nan.
        return if upper { "NAN" } else { "nan" }.to_string();
    }
    if x.is_infinite() {
        let s = if upper { "INF" } else { "inf" };
        return if neg { format!("-{s}") } else { s.to_string() };
    }
    let ax = x.abs();
    let (body, is_zero) = if code == 'f' {
        // Fixed notation is exactly what Rust prints (correctly rounded, half-even).
        // Past 1100 places a double's expansion is exact and only zeros follow.
        let mut b = format!("{ax:.*}", precision.min(1100));
        if precision > 1100 {
            b.extend(std::iter::repeat_n('0', precision - 1100));
        }
        if fl.alt && precision == 0 {
            b.push('.');
        }
        let z = b.bytes().all(|c| c == b'0' || c == b'.');
        (b, z)
    } else {
        let (digits, decpt, vend, use_exp) = match code {
            'e' => {
                let (d, p) = sig_digits(ax, precision.saturating_add(1));
                (d, p, precision as i64 + 1, true)
            }
            'g' => {
                let p = precision.max(1);
                let (d, dp) = sig_digits(ax, p);
                let limit = if fl.add_dot_0 { p as i64 - 1 } else { p as i64 };
                let use_exp = dp <= -4 || dp > limit;
                let vend = if fl.alt { p as i64 } else { d.len() as i64 };
                (d, dp, vend, use_exp)
            }
            _ => {
                // 'r': repr switches to exponent notation at 1e16.
                let (d, dp) = shortest_digits(ax);
                let vend = d.len() as i64;
                (d, dp, vend, dp <= -4 || dp > 16)
            }
        };
        let z = digits.iter().all(|&c| c == b'0');
        let b = layout_digits(&digits, decpt, vend, use_exp, fl.add_dot_0, fl.alt, upper);
        (b, z)
    };
    if neg && !(fl.no_neg_0 && is_zero) {
        format!("-{body}")
    } else {
        body
    }
}

/// `PyOS_double_to_string(x, code, precision, alt ? Py_DTSF_ALT : 0)`: `code` is one of
/// `e E f F g G` (`r` gives repr-style shortest digits and ignores `precision`). This is what
/// `'%.4f' % x` or `'{:.4e}'.format(x)` produce before any padding; handy for tensor printing.
pub fn double_to_string(x: f64, code: char, precision: usize, alt: bool) -> String {
    let code = match code {
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'r' => code,
        _ => 'r',
    };
    let precision = precision.min(MAX_FIELD);
    let fl = DtoaFlags {
        alt,
        ..DtoaFlags::default()
    };
    double_to_string_flags(x, code, precision, fl)
}

/// Python's `repr(x)` (and `str(x)`) for a float: shortest round-trip digits, exponent form
/// when the exponent is < -4 or >= 16, `.0` added to integral values.
pub fn float_repr(x: f64) -> String {
    let fl = DtoaFlags {
        add_dot_0: true,
        ..DtoaFlags::default()
    };
    double_to_string_flags(x, 'r', 0, fl)
}

/// `'%.{precision}g' % x` (upper: `G`; alt: `#`), e.g. `float_str_g(0.0001, 6, false, false)`
/// is `"0.0001"`.
pub fn float_str_g(x: f64, precision: usize, upper: bool, alt: bool) -> String {
    double_to_string(x, if upper { 'G' } else { 'g' }, precision, alt)
}

// ---------------------------------------------------------------------------------------------
// The format-spec mini-language (format(), f-strings, str.format)
// ---------------------------------------------------------------------------------------------

/// A parsed `[[fill]align][sign][z][#][0][width][grouping][.precision][type]` spec, with the
/// defaults for the value's type already applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatSpec {
    /// Padding character (default space).
    pub fill: char,
    /// One of `< > ^ =`; defaults to `<` for str and `>` for numbers (`=` with the `0` flag).
    pub align: char,
    /// `+`, `-` or ` ` when given.
    pub sign: Option<char>,
    /// The `z` flag (3.11): negative zero after rounding prints as zero.
    pub no_neg_zero: bool,
    /// The `#` flag.
    pub alternate: bool,
    /// Minimum field width.
    pub width: Option<usize>,
    /// Thousands separator: `,` or `_`.
    pub grouping: Option<char>,
    /// `.precision`.
    pub precision: Option<usize>,
    /// Presentation type; `None` is the float default (no type letter).
    pub ty: Option<char>,
    /// Python type name used in error messages (`int`, `bool`, `float`, `str`).
    pub type_name: String,
}

fn is_align(c: char) -> bool {
    matches!(c, '<' | '>' | '=' | '^')
}

/// `'%c'` in CPython messages is only used for printable ASCII; anything else is `\x..`.
fn code_display(c: char) -> String {
    let cp = c as u32;
    if cp > 32 && cp < 128 {
        c.to_string()
    } else {
        format!("\\x{cp:x}")
    }
}

fn unknown_code(c: char, type_name: &str) -> String {
    format!(
        "Unknown format code '{}' for object of type '{}'",
        code_display(c),
        type_name
    )
}

/// formatter_unicode.c's `get_integer`: decimal digits (any script) from `pos`.
fn spec_integer(chars: &[char], pos: &mut usize) -> Result<Option<usize>, String> {
    let mut acc: usize = 0;
    let mut n = 0;
    while let Some(d) = chars.get(*pos).and_then(|&c| decimal_value(c)) {
        let d = d as usize;
        if acc > (isize::MAX as usize - d) / 10 {
            return Err("Too many decimal digits in format string".to_string());
        }
        acc = acc * 10 + d;
        *pos += 1;
        n += 1;
    }
    Ok((n > 0).then_some(acc))
}

/// Parses a format spec for a value whose Python type is `type_name` (`"int"`, `"bool"`,
/// `"float"` or `"str"`): the type decides the default presentation type and alignment and
/// appears in error messages, e.g. `Invalid format specifier 'ab' for object of type 'int'`.
/// Errors are ValueError messages. Use [`int_format`] & co. to go from spec text to output.
pub fn parse_spec(spec: &str, type_name: &str) -> Result<FormatSpec, String> {
    let (default_ty, default_align) = match type_name {
        "str" => (Some('s'), '<'),
        "float" => (None, '>'),
        _ => (Some('d'), '>'),
    };
    let chars: Vec<char> = spec.chars().collect();
    let end = chars.len();
    let at = |i: usize| chars.get(i).copied();
    let mut f = FormatSpec {
        fill: ' ',
        align: default_align,
        sign: None,
        no_neg_zero: false,
        alternate: false,
        width: None,
        grouping: None,
        precision: None,
        ty: default_ty,
        type_name: type_name.to_string(),
    };
    let mut pos = 0;
    let mut fill_specified = false;
    let mut align_specified = false;
    if let (Some(fill), Some(a)) = (at(0), at(1).filter(|&c| is_align(c))) {
        f.fill = fill;
        f.align = a;
        fill_specified = true;
        align_specified = true;
        pos = 2;
    } else if let Some(a) = at(0).filter(|&c| is_align(c)) {
        f.align = a;
        align_specified = true;
        pos = 1;
    }
    if let Some(s) = at(pos).filter(|&c| matches!(c, '+' | '-' | ' ')) {
        f.sign = Some(s);
        pos += 1;
    }
    if at(pos) == Some('z') {
        f.no_neg_zero = true;
        pos += 1;
    }
    if at(pos) == Some('#') {
        f.alternate = true;
        pos += 1;
    }
    // The historical `0` flag: zero fill, and `=` alignment unless one was given (numbers only).
    if !fill_specified && at(pos) == Some('0') {
        f.fill = '0';
        if !align_specified && default_align == '>' {
            f.align = '=';
        }
        pos += 1;
    }
    f.width = spec_integer(&chars, &mut pos)?;
    if at(pos) == Some(',') {
        f.grouping = Some(',');
        pos += 1;
    }
    if at(pos) == Some('_') {
        if f.grouping.is_some() {
            return Err("Cannot specify both ',' and '_'.".to_string());
        }
        f.grouping = Some('_');
        pos += 1;
    }
    if at(pos) == Some(',') && f.grouping == Some('_') {
        return Err("Cannot specify both ',' and '_'.".to_string());
    }
    if at(pos) == Some('.') {
        pos += 1;
        match spec_integer(&chars, &mut pos)? {
            Some(p) => f.precision = Some(p),
            None => return Err("Format specifier missing precision".to_string()),
        }
    }
    if end.saturating_sub(pos) > 1 {
        return Err(format!(
            "Invalid format specifier '{spec}' for object of type '{type_name}'"
        ));
    }
    if let Some(t) = at(pos) {
        f.ty = Some(t);
    }
    if let Some(sep) = f.grouping {
        let ok = match f.ty {
            None | Some('d' | 'e' | 'f' | 'g' | 'E' | 'G' | '%' | 'F') => true,
            Some('b' | 'o' | 'x' | 'X') => sep == '_',
            _ => false,
        };
        if !ok {
            let t = f.ty.map(code_display).unwrap_or_default();
            return Err(format!("Cannot specify '{sep}' with '{t}'."));
        }
    }
    Ok(f)
}

/// `_PyUnicode_InsertThousandsGrouping`: groups `digits` from the right and, for `0` fill with
/// `=` alignment, pads with zeros (which are grouped too) up to `min_width`.
fn insert_grouping(digits: &[u8], min_width: i64, group: Option<(i64, char)>) -> String {
    let mut rev: Vec<char> = Vec::with_capacity(digits.len() + 8);
    let mut remaining = digits.len() as i64;
    let mut min_width = min_width.max(0);
    let mut src = digits.iter().rev().map(|&b| b as char);
    let mut emit = |rev: &mut Vec<char>, n_zeros: i64, n_chars: i64, sep: Option<char>| {
        if let Some(s) = sep {
            rev.push(s);
        }
        for _ in 0..n_chars {
            if let Some(c) = src.next() {
                rev.push(c);
            }
        }
        for _ in 0..n_zeros {
            rev.push('0');
        }
    };
    let mut use_sep = false;
    let mut broken = false;
    if let Some((size, sep)) = group {
        loop {
            let len = size.min(remaining.max(min_width).max(1));
            let n_zeros = (len - remaining).max(0);
            let n_chars = remaining.min(len).max(0);
            emit(&mut rev, n_zeros, n_chars, use_sep.then_some(sep));
            use_sep = true;
            remaining -= n_chars;
            min_width -= len;
            if remaining <= 0 && min_width <= 0 {
                broken = true;
                break;
            }
            min_width -= 1;
        }
    }
    if !broken {
        let len = remaining.max(min_width).max(1);
        let n_zeros = (len - remaining).max(0);
        let n_chars = remaining.min(len).max(0);
        let sep = group.filter(|_| use_sep).map(|(_, s)| s);
        emit(&mut rev, n_zeros, n_chars, sep);
    }
    rev.iter().rev().collect()
}

/// The pieces of a formatted number, as calc_number_widths sees them.
struct NumberParts<'a> {
    negative: bool,
    prefix: &'a str,
    digits: &'a str,
    has_decimal: bool,
    remainder: &'a str,
    grouping: Option<(i64, char)>,
}

fn check_width(spec: &FormatSpec) -> Result<i64, String> {
    match spec.width {
        Some(w) if w > MAX_FIELD => Err("width too big".to_string()),
        Some(w) => Ok(w as i64),
        None => Ok(-1),
    }
}

/// `calc_number_widths` + `fill_number`:
/// `<lpad><sign><prefix><spad><grouped digits><.><remainder><rpad>`.
fn layout_number(p: &NumberParts, spec: &FormatSpec) -> Result<String, String> {
    let width = check_width(spec)?;
    let sign = match spec.sign {
        Some('+') => Some(if p.negative { '-' } else { '+' }),
        Some(' ') => Some(if p.negative { '-' } else { ' ' }),
        _ => p.negative.then_some('-'),
    };
    let non_digit = sign.is_some() as i64
        + p.prefix.chars().count() as i64
        + p.has_decimal as i64
        + p.remainder.chars().count() as i64;
    let min_width = if spec.fill == '0' && spec.align == '=' {
        width - non_digit
    } else {
        0
    };
    let grouped = if p.digits.is_empty() {
        String::new()
    } else {
        insert_grouping(p.digits.as_bytes(), min_width, p.grouping)
    };
    let n_padding = width - (non_digit + grouped.chars().count() as i64);
    let (l, s, r) = if n_padding > 0 {
        match spec.align {
            '<' => (0, 0, n_padding),
            '^' => (n_padding / 2, 0, n_padding - n_padding / 2),
            '=' => (0, n_padding, 0),
            _ => (n_padding, 0, 0),
        }
    } else {
        (0, 0, 0)
    };
    let mut out = String::new();
    push_n(&mut out, spec.fill, l);
    if let Some(c) = sign {
        out.push(c);
    }
    out.push_str(p.prefix);
    push_n(&mut out, spec.fill, s);
    out.push_str(&grouped);
    if p.has_decimal {
        out.push('.');
    }
    out.push_str(p.remainder);
    push_n(&mut out, spec.fill, r);
    Ok(out)
}

fn push_n(out: &mut String, c: char, n: i64) {
    for _ in 0..n.max(0) {
        out.push(c);
    }
}

/// `float.__format__` with a parsed spec (`format(x, spec)`, `f'{x:spec}'`).
pub fn format_float(x: f64, spec: &FormatSpec) -> Result<String, String> {
    match spec.ty {
        None | Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'n' | '%') => float_internal(x, spec),
        Some(c) => Err(unknown_code(c, &spec.type_name)),
    }
}

/// `format_float_internal`: the type letter is already known to be a float one.
fn float_internal(x: f64, spec: &FormatSpec) -> Result<String, String> {
    if let Some(p) = spec.precision {
        if p > i32::MAX as usize || p > MAX_FIELD {
            return Err("precision too big".to_string());
        }
    }
    let mut fl = DtoaFlags {
        add_dot_0: false,
        alt: spec.alternate,
        no_neg_0: spec.no_neg_zero,
    };
    let mut default_precision = 6;
    let mut code = match spec.ty {
        // No type: repr-like without a precision, else 'g' keeping at least one decimal.
        None => {
            fl.add_dot_0 = true;
            default_precision = 0;
            'r'
        }
        Some('n') => 'g',
        Some('%') => 'f',
        Some(c) => c,
    };
    let val = if spec.ty == Some('%') { x * 100.0 } else { x };
    let precision = match spec.precision {
        None => default_precision,
        Some(p) => {
            if code == 'r' {
                code = 'g';
            }
            p
        }
    };
    let mut s = double_to_string_flags(val, code, precision, fl);
    if spec.ty == Some('%') {
        s.push('%');
    }
    let (negative, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.as_str()),
    };
    let n_digits = body.bytes().take_while(u8::is_ascii_digit).count();
    let (digits, rest) = body.split_at(n_digits);
    let (has_decimal, remainder) = match rest.strip_prefix('.') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    // 'n' uses the C locale, which has no grouping.
    let grouping = match spec.ty {
        Some('n') => None,
        _ => spec.grouping.map(|c| (3, c)),
    };
    layout_number(
        &NumberParts {
            negative,
            prefix: "",
            digits,
            has_decimal,
            remainder,
            grouping,
        },
        spec,
    )
}

/// `int.__format__` with a parsed spec. Float presentation types (`e f g %` ...) convert the
/// int to float first, as Python does. The one OverflowError case returns [`C_ARG_RANGE_MSG`].
pub fn format_int(x: i64, spec: &FormatSpec) -> Result<String, String> {
    match spec.ty {
        None | Some('b' | 'c' | 'd' | 'o' | 'x' | 'X' | 'n') => {}
        Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') => return float_internal(x as f64, spec),
        Some(c) => return Err(unknown_code(c, &spec.type_name)),
    }
    if spec.precision.is_some() {
        return Err("Precision not allowed in integer format specifier".to_string());
    }
    if spec.no_neg_zero {
        return Err(
            "Negative zero coercion (z) not allowed in integer format specifier".to_string(),
        );
    }
    let ty = spec.ty.unwrap_or('d');
    if ty == 'c' {
        if spec.sign.is_some() {
            return Err("Sign not allowed with integer format specifier 'c'".to_string());
        }
        if spec.alternate {
            return Err(
                "Alternate form (#) not allowed with integer format specifier 'c'".to_string(),
            );
        }
        if !(0..=0x10ffff).contains(&x) {
            return Err(C_ARG_RANGE_MSG.to_string());
        }
        // A lone surrogate cannot live in a Rust string; show the replacement character.
        let ch = char::from_u32(x as u32).unwrap_or('\u{fffd}').to_string();
        return layout_number(
            &NumberParts {
                negative: false,
                prefix: "",
                digits: "",
                has_decimal: false,
                remainder: &ch,
                grouping: None,
            },
            spec,
        );
    }
    let u = x.unsigned_abs();
    let (digits, prefix) = match ty {
        'b' => (format!("{u:b}"), "0b"),
        'o' => (format!("{u:o}"), "0o"),
        'x' => (format!("{u:x}"), "0x"),
        'X' => (format!("{u:X}"), "0X"),
        _ => (u.to_string(), ""),
    };
    let grouping = match (ty, spec.grouping) {
        ('n', _) | (_, None) => None,
        ('b' | 'o' | 'x' | 'X', Some(c)) => Some((4, c)),
        (_, Some(c)) => Some((3, c)),
    };
    layout_number(
        &NumberParts {
            negative: x < 0,
            prefix: if spec.alternate { prefix } else { "" },
            digits: &digits,
            has_decimal: false,
            remainder: "",
            grouping,
        },
        spec,
    )
}

/// `str.__format__` with a parsed spec.
pub fn format_str(s: &str, spec: &FormatSpec) -> Result<String, String> {
    match spec.ty {
        None | Some('s') => {}
        Some(c) => return Err(unknown_code(c, &spec.type_name)),
    }
    match spec.sign {
        Some(' ') => return Err("Space not allowed in string format specifier".to_string()),
        Some(_) => return Err("Sign not allowed in string format specifier".to_string()),
        None => {}
    }
    if spec.no_neg_zero {
        return Err(
            "Negative zero coercion (z) not allowed in string format specifier".to_string(),
        );
    }
    if spec.alternate {
        return Err("Alternate form (#) not allowed in string format specifier".to_string());
    }
    if spec.align == '=' {
        return Err("'=' alignment not allowed in string format specifier".to_string());
    }
    let width = check_width(spec)?;
    let text: String = match spec.precision {
        Some(p) => s.chars().take(p).collect(),
        None => s.to_string(),
    };
    let pad = width - text.chars().count() as i64;
    let mut out = String::new();
    if pad > 0 {
        let left = match spec.align {
            '>' => pad,
            '^' => pad / 2,
            _ => 0,
        };
        push_n(&mut out, spec.fill, left);
        out.push_str(&text);
        push_n(&mut out, spec.fill, pad - left);
    } else {
        out = text;
    }
    Ok(out)
}

/// `int.__format__(spec)`: `format(x, spec)` / `f'{x:spec}'` for an int.
pub fn int_format(x: i64, spec: &str) -> Result<String, String> {
    if spec.is_empty() {
        return Ok(x.to_string());
    }
    format_int(x, &parse_spec(spec, "int")?)
}

/// `bool.__format__(spec)`: `'True'`/`'False'` for an empty spec, otherwise formatted as the
/// int 1/0 (`f'{True:>5}'` is `'    1'`), with `bool` in error messages.
pub fn bool_format(b: bool, spec: &str) -> Result<String, String> {
    if spec.is_empty() {
        return Ok(if b { "True" } else { "False" }.to_string());
    }
    format_int(b as i64, &parse_spec(spec, "bool")?)
}

/// `float.__format__(spec)`: `format(x, spec)` / `f'{x:spec}'` for a float.
pub fn float_format(x: f64, spec: &str) -> Result<String, String> {
    if spec.is_empty() {
        return Ok(float_repr(x));
    }
    format_float(x, &parse_spec(spec, "float")?)
}

/// `str.__format__(spec)`: `format(s, spec)` / `f'{s:spec}'` for a str.
pub fn str_format(s: &str, spec: &str) -> Result<String, String> {
    if spec.is_empty() {
        return Ok(s.to_string());
    }
    format_str(s, &parse_spec(spec, "str")?)
}

// ---------------------------------------------------------------------------------------------
// printf-style `%` formatting
// ---------------------------------------------------------------------------------------------

/// Width or precision of a `%` conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PercentCount {
    /// Not given.
    Absent,
    /// A number in the format string.
    Fixed(usize),
    /// `*`: taken from the next argument; fill it in with
    /// [`PercentSpec::set_star_width`] / [`PercentSpec::set_star_precision`].
    Star,
}

impl PercentCount {
    fn value(self) -> Option<usize> {
        match self {
            PercentCount::Fixed(n) => Some(n),
            _ => None,
        }
    }
}

/// One `%[(key)][flags][width][.precision][length]conv` conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PercentSpec {
    /// `%(name)s`: look the value up in the mapping argument under this key.
    pub key: Option<String>,
    /// `-` flag: left-justify.
    pub left: bool,
    /// `+` flag.
    pub plus: bool,
    /// ` ` flag.
    pub space: bool,
    /// `#` flag.
    pub alt: bool,
    /// `0` flag.
    pub zero: bool,
    /// Minimum width (`%8d`, `%*d`).
    pub width: PercentCount,
    /// Precision (`%.3f`, `%.*f`; `%.f` is `Fixed(0)`).
    pub precision: PercentCount,
    /// The conversion character, possibly an unsupported one (see [`PercentSpec::kind`]).
    pub conv: char,
    /// Code-point index of `conv` in the format string (for the error message).
    pub index: usize,
}

/// What argument a `%` conversion wants; the interpreter checks and converts the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PercentKind {
    /// `d i u`: an int (a float is truncated with [`float_to_int_checked`]); any other type is
    /// `TypeError: %d format: a real number is required, not str`. Format with [`percent_int`].
    Int,
    /// `o x X`: an int only; else `TypeError: %x format: an integer is required, not float`.
    /// Format with [`percent_int`].
    IntOnly,
    /// `e E f F g G`: a float (ints convert); else `TypeError: must be real number, not str`.
    /// Format with [`percent_float`].
    Float,
    /// `c`: an int (code point; out of range is OverflowError [`C_ARG_RANGE_MSG`]) or a
    /// one-character str (else `TypeError: %c requires int or char`). Format the character
    /// with [`percent_str`].
    Char,
    /// `s`: `str(value)`, then [`percent_str`].
    Str,
    /// `r`: `repr(value)`, then [`percent_str`].
    Repr,
    /// `a`: `ascii(repr)`, then [`percent_str`].
    Ascii,
    /// Any other character: after taking its argument like any conversion (CPython's order),
    /// raise `ValueError(msg)`.
    Unsupported(String),
}

impl PercentSpec {
    /// Which kind of argument this conversion takes.
    pub fn kind(&self) -> PercentKind {
        match self.conv {
            'd' | 'i' | 'u' => PercentKind::Int,
            'o' | 'x' | 'X' => PercentKind::IntOnly,
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => PercentKind::Float,
            'c' => PercentKind::Char,
            's' => PercentKind::Str,
            'r' => PercentKind::Repr,
            'a' => PercentKind::Ascii,
            c => {
                let cp = c as u32;
                let shown = if (31..=126).contains(&cp) { c } else { '?' };
                PercentKind::Unsupported(format!(
                    "unsupported format character '{shown}' (0x{cp:x}) at index {}",
                    self.index
                ))
            }
        }
    }

    /// Fills a `*` width from its (int) argument; negative means left-justify, as in CPython.
    pub fn set_star_width(&mut self, w: i64) -> Result<(), String> {
        if w < 0 {
            self.left = true;
        }
        let w = w.unsigned_abs();
        if w > MAX_FIELD as u64 {
            return Err("width too big".to_string());
        }
        self.width = PercentCount::Fixed(w as usize);
        Ok(())
    }

    /// Fills a `.*` precision from its (int) argument; negative counts as 0.
    pub fn set_star_precision(&mut self, p: i64) -> Result<(), String> {
        if p > MAX_FIELD as i64 {
            return Err("precision too big".to_string());
        }
        self.precision = PercentCount::Fixed(p.max(0) as usize);
        Ok(())
    }
}

/// A piece of a `%` format string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PercentPiece {
    /// Text to copy (with `%%` already turned into `%`).
    Literal(String),
    /// A conversion taking an argument.
    Spec(PercentSpec),
    /// A malformed conversion (`incomplete format`, `incomplete format key`, ...): raise
    /// `ValueError(msg)` when reached. It is always the last piece; CPython reports it only
    /// after the earlier conversions have taken (and possibly failed on) their arguments.
    Error(String),
}

/// Splits a `%` format string into literal text and conversions, the way
/// `PyUnicode_Format` walks it. The interpreter then goes through the pieces in order:
/// for a `Spec`, take the value (`key` from the mapping, else the next tuple item; a `*`
/// width/precision takes an argument first), check it against [`PercentSpec::kind`] and format
/// it. Afterwards, leftover tuple items are `TypeError: not all arguments converted during
/// string formatting`; running out is `TypeError: not enough arguments for format string`;
/// a key with a non-mapping argument is `TypeError: format requires a mapping`.
pub fn parse_percent(fmt: &str) -> Vec<PercentPiece> {
    let chars: Vec<char> = fmt.chars().collect();
    let n = chars.len();
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    while i < n {
        let c = chars[i];
        i += 1;
        if c != '%' {
            lit.push(c);
            continue;
        }
        if chars.get(i) == Some(&'%') {
            lit.push('%');
            i += 1;
            continue;
        }
        if !lit.is_empty() {
            pieces.push(PercentPiece::Literal(std::mem::take(&mut lit)));
        }
        match parse_percent_spec(&chars, &mut i) {
            Ok(spec) => pieces.push(PercentPiece::Spec(spec)),
            Err(msg) => {
                pieces.push(PercentPiece::Error(msg));
                return pieces;
            }
        }
    }
    if !lit.is_empty() {
        pieces.push(PercentPiece::Literal(lit));
    }
    pieces
}

/// `unicode_format_arg_parse`, starting just after the `%`.
fn parse_percent_spec(chars: &[char], i: &mut usize) -> Result<PercentSpec, String> {
    let incomplete = || "incomplete format".to_string();
    let next = |i: &mut usize| -> Result<char, String> {
        let c = chars.get(*i).copied().ok_or_else(incomplete)?;
        *i += 1;
        Ok(c)
    };
    let mut spec = PercentSpec {
        key: None,
        left: false,
        plus: false,
        space: false,
        alt: false,
        zero: false,
        width: PercentCount::Absent,
        precision: PercentCount::Absent,
        conv: '\0',
        index: 0,
    };
    if chars.get(*i) == Some(&'(') {
        *i += 1;
        let start = *i;
        let mut depth = 1;
        while depth > 0 && *i < chars.len() {
            match chars[*i] {
                ')' => depth -= 1,
                '(' => depth += 1,
                _ => {}
            }
            *i += 1;
        }
        if depth > 0 {
            return Err("incomplete format key".to_string());
        }
        spec.key = Some(chars[start..*i - 1].iter().collect());
    }
    let mut c = next(i)?;
    loop {
        match c {
            '-' => spec.left = true,
            '+' => spec.plus = true,
            ' ' => spec.space = true,
            '#' => spec.alt = true,
            '0' => spec.zero = true,
            _ => break,
        }
        c = next(i)?;
    }
    if c == '*' {
        spec.width = PercentCount::Star;
        c = next(i)?;
    } else if let Some(d) = c.to_digit(10) {
        let mut w = d as usize;
        loop {
            c = next(i)?;
            let Some(d) = c.to_digit(10) else { break };
            if w > (MAX_FIELD - d as usize) / 10 {
                return Err("width too big".to_string());
            }
            w = w * 10 + d as usize;
        }
        spec.width = PercentCount::Fixed(w);
    }
    if c == '.' {
        spec.precision = PercentCount::Fixed(0);
        c = next(i)?;
        if c == '*' {
            spec.precision = PercentCount::Star;
            c = next(i)?;
        } else if let Some(d) = c.to_digit(10) {
            let mut p = d as usize;
            loop {
                c = next(i)?;
                let Some(d) = c.to_digit(10) else { break };
                if p > (MAX_FIELD - d as usize) / 10 {
                    return Err("precision too big".to_string());
                }
                p = p * 10 + d as usize;
            }
            spec.precision = PercentCount::Fixed(p);
        }
    }
    // C length modifiers are accepted and ignored.
    if matches!(c, 'h' | 'l' | 'L') {
        c = next(i)?;
    }
    spec.conv = c;
    spec.index = *i - 1;
    Ok(spec)
}

/// `unicode_format_arg_output`: sign, `0x` prefix, padding and truncation of a converted value.
fn percent_output(text: &str, spec: &PercentSpec, numeric: bool) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut len = chars.len() as i64;
    let fill = if numeric && spec.zero { '0' } else { ' ' };
    if matches!(spec.conv, 's' | 'r' | 'a') {
        if let Some(p) = spec.precision.value() {
            len = len.min(p as i64);
        }
    }
    let mut idx = 0usize;
    let mut signchar = None;
    if numeric {
        match chars.first() {
            Some(&c @ ('-' | '+')) => {
                signchar = Some(c);
                len -= 1;
                idx = 1;
            }
            _ if spec.plus => signchar = Some('+'),
            _ if spec.space => signchar = Some(' '),
            _ => {}
        }
    }
    let mut width = spec.width.value().map_or(-1, |w| w as i64).max(len);
    let mut out = String::new();
    if let Some(s) = signchar {
        if fill != ' ' {
            out.push(s);
        }
        if width > len {
            width -= 1;
        }
    }
    let prefix = numeric && spec.alt && matches!(spec.conv, 'x' | 'X' | 'o');
    let take = |from: usize, n: i64| -> String {
        chars
            .iter()
            .skip(from)
            .take(n.max(0) as usize)
            .collect::<String>()
    };
    if prefix {
        if fill != ' ' {
            out.push_str(&take(idx, 2));
            idx += 2;
        }
        width = (width - 2).max(0);
        len -= 2;
    }
    if width > len && !spec.left {
        push_n(&mut out, fill, width - len);
        width = len;
    }
    if fill == ' ' {
        if let Some(s) = signchar {
            out.push(s);
        }
        if prefix {
            out.push_str(&take(idx, 2));
            idx += 2;
        }
    }
    out.push_str(&take(idx, len));
    if width > len {
        push_n(&mut out, ' ', width - len);
    }
    out
}

/// Formats an int for `%d %i %u %o %x %X` (flags, width, precision = minimum digits).
pub fn percent_int(x: i64, spec: &PercentSpec) -> String {
    let u = x.unsigned_abs();
    let (mut digits, prefix) = match spec.conv {
        'o' => (format!("{u:o}"), "0o"),
        'x' => (format!("{u:x}"), "0x"),
        'X' => (format!("{u:X}"), "0X"),
        _ => (u.to_string(), ""),
    };
    if let Some(p) = spec.precision.value() {
        if p > digits.len() {
            digits = format!("{}{digits}", "0".repeat(p - digits.len()));
        }
    }
    let mut text = String::new();
    if x < 0 {
        text.push('-');
    }
    if spec.alt {
        text.push_str(prefix);
    }
    text.push_str(&digits);
    percent_output(&text, spec, true)
}

/// Formats a float for `%e %E %f %F %g %G` (default precision 6).
pub fn percent_float(x: f64, spec: &PercentSpec) -> String {
    let precision = spec.precision.value().unwrap_or(6);
    let fl = DtoaFlags {
        alt: spec.alt,
        ..DtoaFlags::default()
    };
    let code = match spec.conv {
        c @ ('e' | 'E' | 'f' | 'F' | 'g' | 'G') => c,
        _ => 'g',
    };
    percent_output(&double_to_string_flags(x, code, precision, fl), spec, true)
}

/// Pads (and for `s r a`, truncates to the precision) already-converted text: `str(v)` for
/// `%s`, `repr(v)` for `%r`, `ascii(v)` for `%a`, the character for `%c`.
pub fn percent_str(text: &str, spec: &PercentSpec) -> String {
    percent_output(text, spec, false)
}

// ---------------------------------------------------------------------------------------------
// str.format parsing
// ---------------------------------------------------------------------------------------------

/// A piece of a `str.format` template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FmtPiece {
    /// Text to copy (`{{` and `}}` already unescaped).
    Literal(String),
    /// A replacement field.
    Field(FmtField),
    /// A malformed template: raise `ValueError(msg)` when reached. It is always the last piece
    /// (of the template, or of a field's spec): CPython reports it only after the earlier
    /// fields were looked up and formatted, whose own errors therefore come first.
    Error(String),
}

/// Which argument a field names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldArg {
    /// A positional argument; `{}` fields are already numbered automatically. Out of range:
    /// `IndexError: Replacement index 5 out of range for positional args tuple`.
    Index(usize),
    /// A keyword argument; missing: `KeyError: 'x'`.
    Name(String),
}

/// One `.attr` or `[item]` step after the argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldAccess {
    /// `.name` (getattr).
    Attr(String),
    /// `[3]`: an integer index.
    Index(usize),
    /// `[key]`: a string key (`[-1]` is the string `'-1'`, as in Python).
    Key(String),
}

/// `{arg.path!conversion:spec}`. The interpreter handles a field in CPython's order: look up
/// `arg`, apply `path` one step at a time, raise `path_error` if any, apply `conversion`
/// (raising [`conversion_error`] for a character other than `r s a`), build the spec text,
/// then call the value's `__format__` with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FmtField {
    /// The argument before any `.`/`[`.
    pub arg: FieldArg,
    /// Attribute and item accesses, in order.
    pub path: Vec<FieldAccess>,
    /// A malformed step after `path` (`Empty attribute in format string`, ...): ValueError,
    /// raised after the accesses before it were done.
    pub path_error: Option<String>,
    /// The character after `!`, not yet checked (CPython checks it after the lookup).
    pub conversion: Option<char>,
    /// The format spec, itself a template: usually empty (no spec) or one `Literal`. Nested
    /// fields (`{:{width}}`, `{:{}{}}`) appear as `Field`s, already auto-numbered in CPython's
    /// order (outer field first); they never nest further. To get the spec text, render each
    /// nested field exactly like a top-level one (look up, convert, format with its own spec)
    /// and concatenate with the literals; then call the value's `__format__` with that text.
    pub spec: Vec<FmtPiece>,
}

impl FmtField {
    /// The spec text when it has no nested fields or errors (`""` for no spec).
    pub fn literal_spec(&self) -> Option<String> {
        let mut s = String::new();
        for p in &self.spec {
            match p {
                FmtPiece::Literal(t) => s.push_str(t),
                FmtPiece::Field(_) | FmtPiece::Error(_) => return None,
            }
        }
        Some(s)
    }
}

#[derive(PartialEq, Eq)]
enum AutoState {
    Init,
    Auto,
    Manual,
}

struct AutoNumber {
    state: AutoState,
    next: usize,
}

/// Parses a `str.format` template into literal text, fields and at most one trailing
/// [`FmtPiece::Error`] carrying CPython's ValueError message (`Single '}' encountered in format
/// string`, `expected '}' before end of string`, `cannot switch from manual field specification
/// to automatic field numbering`, ...). CPython finds these while formatting, so the error is a
/// piece of its own: the interpreter renders the pieces in order and raises when it gets there.
pub fn parse_format_string(s: &str) -> Vec<FmtPiece> {
    let chars: Vec<char> = s.chars().collect();
    let mut auto = AutoNumber {
        state: AutoState::Init,
        next: 0,
    };
    // PEP 3101 allows two levels: a field, and fields inside its spec.
    parse_markup(&chars, 2, &mut auto)
}

/// `build_string` / `MarkupIterator_next`; an error ends the pieces.
fn parse_markup(chars: &[char], depth: i32, auto: &mut AutoNumber) -> Vec<FmtPiece> {
    let mut pieces = Vec::new();
    if let Err(e) = parse_markup_into(chars, depth, auto, &mut pieces) {
        pieces.push(FmtPiece::Error(e));
    }
    pieces
}

fn parse_markup_into(
    chars: &[char],
    depth: i32,
    auto: &mut AutoNumber,
    pieces: &mut Vec<FmtPiece>,
) -> Result<(), String> {
    if depth <= 0 {
        return Err("Max string recursion exceeded".to_string());
    }
    let end = chars.len();
    let mut lit = String::new();
    let mut pos = 0;
    while pos < end {
        let c = chars[pos];
        pos += 1;
        if c != '{' && c != '}' {
            lit.push(c);
            continue;
        }
        let next = chars.get(pos).copied();
        let bad = if c == '}' && next != Some('}') {
            Some("Single '}' encountered in format string")
        } else if next.is_none() {
            Some("Single '{' encountered in format string")
        } else {
            None
        };
        if let Some(msg) = bad {
            return Err(msg.to_string());
        }
        if next == Some(c) {
            lit.push(c);
            pos += 1;
            continue;
        }
        flush_literal(pieces, &mut lit);
        pieces.push(FmtPiece::Field(parse_field(chars, &mut pos, depth, auto)?));
    }
    flush_literal(pieces, &mut lit);
    Ok(())
}

fn flush_literal(pieces: &mut Vec<FmtPiece>, lit: &mut String) {
    if !lit.is_empty() {
        pieces.push(FmtPiece::Literal(std::mem::take(lit)));
    }
}

/// `parse_field`, then the parts of `get_field_object`/`output_markup` that need no values.
fn parse_field(
    chars: &[char],
    pos: &mut usize,
    depth: i32,
    auto: &mut AutoNumber,
) -> Result<FmtField, String> {
    let end = chars.len();
    let start = *pos;
    let mut c = '\0';
    while *pos < end {
        c = chars[*pos];
        *pos += 1;
        match c {
            '{' => return Err("unexpected '{' in field name".to_string()),
            // Brackets may hold any character, even `}` or `:`.
            '[' => {
                while *pos < end && chars[*pos] != ']' {
                    *pos += 1;
                }
            }
            '}' | ':' | '!' => break,
            _ => {}
        }
    }
    let name = chars.get(start..pos.saturating_sub(1)).unwrap_or(&[]);
    let mut conversion = None;
    let mut spec_range = None;
    let mut needs_expanding = false;
    if c == '!' || c == ':' {
        let mut has_spec = true;
        if c == '!' {
            let Some(&conv) = chars.get(*pos) else {
                return Err("end of string while looking for conversion specifier".to_string());
            };
            conversion = Some(conv);
            *pos += 1;
            if let Some(&c2) = chars.get(*pos) {
                *pos += 1;
                if c2 == '}' {
                    has_spec = false;
                } else if c2 != ':' {
                    return Err("expected ':' after conversion specifier".to_string());
                }
            }
        }
        if has_spec {
            let spec_start = *pos;
            let mut count = 1;
            while *pos < end {
                let c3 = chars[*pos];
                *pos += 1;
                if c3 == '{' {
                    needs_expanding = true;
                    count += 1;
                } else if c3 == '}' {
                    count -= 1;
                    if count == 0 {
                        spec_range = Some(spec_start..*pos - 1);
                        break;
                    }
                }
            }
            if spec_range.is_none() {
                return Err("unmatched '{' in format spec".to_string());
            }
        }
    } else if c != '}' {
        return Err("expected '}' before end of string".to_string());
    }
    let (arg, path, path_error) = split_field_name(name, auto)?;
    let spec_chars = spec_range.and_then(|r| chars.get(r)).unwrap_or(&[]);
    let spec = if needs_expanding {
        parse_markup(spec_chars, depth - 1, auto)
    } else if spec_chars.is_empty() {
        Vec::new()
    } else {
        vec![FmtPiece::Literal(spec_chars.iter().collect())]
    };
    Ok(FmtField {
        arg,
        path,
        path_error,
        conversion,
        spec,
    })
}

/// The ValueError for a `!c` conversion other than `r`, `s`, `a`
/// (`Unknown conversion specifier x`); printable ASCII is shown as is, the rest as `\x..`.
pub fn conversion_error(c: char) -> String {
    let cp = c as u32;
    if cp > 32 && cp < 127 {
        format!("Unknown conversion specifier {c}")
    } else {
        format!("Unknown conversion specifier \\x{cp:x}")
    }
}

/// unicode_format.h's `get_integer`: `Ok(None)` when not all decimal digits.
fn field_integer(s: &[char]) -> Result<Option<usize>, String> {
    if s.is_empty() {
        return Ok(None);
    }
    let mut acc: usize = 0;
    for &c in s {
        let Some(d) = decimal_value(c) else {
            return Ok(None);
        };
        let d = d as usize;
        if acc > (isize::MAX as usize - d) / 10 {
            return Err("Too many decimal digits in format string".to_string());
        }
        acc = acc * 10 + d;
    }
    Ok(Some(acc))
}

/// `field_name_split` + `FieldNameIterator`: `0.attr[key]` into argument, access path and the
/// error (if any) met after the path.
fn split_field_name(
    name: &[char],
    auto: &mut AutoNumber,
) -> Result<(FieldArg, Vec<FieldAccess>, Option<String>), String> {
    let first_end = name
        .iter()
        .position(|&c| c == '.' || c == '[')
        .unwrap_or(name.len());
    let first = &name[..first_end];
    let first_idx = field_integer(first)?;
    let empty = first.is_empty();
    let numeric = empty || first_idx.is_some();
    if numeric {
        if auto.state == AutoState::Init {
            auto.state = if empty {
                AutoState::Auto
            } else {
                AutoState::Manual
            };
        }
        if auto.state == AutoState::Manual && empty {
            return Err(
                "cannot switch from manual field specification to automatic field \
                        numbering"
                    .to_string(),
            );
        }
        if auto.state == AutoState::Auto && !empty {
            return Err(
                "cannot switch from automatic field numbering to manual field \
                        specification"
                    .to_string(),
            );
        }
    }
    let arg = match first_idx {
        _ if empty => {
            let i = auto.next;
            auto.next += 1;
            FieldArg::Index(i)
        }
        Some(i) => FieldArg::Index(i),
        None => FieldArg::Name(first.iter().collect()),
    };
    let mut path = Vec::new();
    let path_error = field_path(name, first_end, &mut path).err();
    Ok((arg, path, path_error))
}

/// Walks the `.attr` / `[item]` steps from `i`, stopping at the first malformed one.
fn field_path(name: &[char], mut i: usize, path: &mut Vec<FieldAccess>) -> Result<(), String> {
    while let Some(&c) = name.get(i) {
        i += 1;
        match c {
            '.' => {
                let s = i;
                while i < name.len() && name[i] != '.' && name[i] != '[' {
                    i += 1;
                }
                if s == i {
                    return Err("Empty attribute in format string".to_string());
                }
                path.push(FieldAccess::Attr(name[s..i].iter().collect()));
            }
            '[' => {
                let s = i;
                let Some(close) = name[s..].iter().position(|&c| c == ']') else {
                    return Err("Missing ']' in format string".to_string());
                };
                let item = &name[s..s + close];
                i = s + close + 1;
                let idx = field_integer(item)?;
                if item.is_empty() {
                    return Err("Empty attribute in format string".to_string());
                }
                path.push(match idx {
                    Some(n) => FieldAccess::Index(n),
                    None => FieldAccess::Key(item.iter().collect()),
                });
            }
            _ => return Err("Only '.' or '[' may follow ']' in format field specifier".to_string()),
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// round(), float(str), int(str), int(float)
// ---------------------------------------------------------------------------------------------

/// `float.__round__` semantics of the `round(x)` builtin rounding step: nearest integer,
/// ties to even (`round(0.5) == 0`, `round(1.5) == 2`, `round(-0.5) == -0.0` before the
/// int conversion).
pub fn round_half_even_to_int(x: f64) -> f64 {
    x.round_ties_even()
}

/// Python's `round(x, ndigits)` for a float.
///
/// `ndigits == None`: `round(x)`, which Python returns as an int; the result here is the
/// rounded float, and inf/nan give the errors `int()` would (convert the result with
/// [`float_to_int_checked`]). With `Some(n)`: correctly rounded to `n` decimal places, ties to
/// even on the exact binary value (`round(2.675, 2) == 2.67`), `n` may be negative; the only
/// error is `OverflowError: rounded value too large to represent`.
pub fn python_round(x: f64, ndigits: Option<i64>) -> Result<f64, NumError> {
    let Some(nd) = ndigits else {
        if x.is_nan() {
            return Err(NumError::Value(
                "cannot convert float NaN to integer".to_string(),
            ));
        }
        if x.is_infinite() {
            return Err(NumError::Overflow(
                "cannot convert float infinity to integer".to_string(),
            ));
        }
        return Ok(round_half_even_to_int(x));
    };
    // float_round_impl: NDIGITS_MAX = 323, NDIGITS_MIN = -308.
    if !x.is_finite() || nd > 323 {
        return Ok(x);
    }
    if nd < -308 {
        return Ok(0.0 * x);
    }
    if nd >= 0 {
        // Rust's fixed formatting rounds the exact value half-to-even, like dtoa mode 3.
        let s = format!("{:.*}", nd as usize, x);
        return Ok(s.parse().unwrap_or(x));
    }
    // Negative ndigits: round the exact integer part at 10^m, using the fraction only to break
    // what would otherwise look like a tie.
    let m = nd.unsigned_abs() as usize;
    let ax = x.abs();
    let ip = ax.trunc();
    let frac_nonzero = ax != ip;
    let digits = format!("{ip:.0}");
    let k = digits.len();
    let rounded = if m > k {
        0.0
    } else {
        let (kept, removed) = digits.split_at(k - m);
        let rb = removed.as_bytes();
        let first = rb.first().copied().unwrap_or(b'0');
        let rest_nonzero = rb.iter().skip(1).any(|&b| b != b'0') || frac_nonzero;
        let last_kept_odd = kept.as_bytes().last().is_some_and(|&b| (b - b'0') % 2 == 1);
        let up = first > b'5' || (first == b'5' && (rest_nonzero || last_kept_odd));
        let mut kept: Vec<u8> = if kept.is_empty() {
            vec![b'0']
        } else {
            kept.as_bytes().to_vec()
        };
        if up {
            increment_decimal(&mut kept);
        }
        let s = format!("{}e{m}", String::from_utf8_lossy(&kept));
        let v: f64 = s.parse().unwrap_or(f64::INFINITY);
        if v.is_infinite() {
            return Err(NumError::Overflow(
                "rounded value too large to represent".to_string(),
            ));
        }
        v
    };
    Ok(if x.is_sign_negative() {
        -rounded
    } else {
        rounded
    })
}

/// Adds one to a string of ASCII digits.
fn increment_decimal(d: &mut Vec<u8>) {
    for b in d.iter_mut().rev() {
        if *b == b'9' {
            *b = b'0';
        } else {
            *b += 1;
            return;
        }
    }
    d.insert(0, b'1');
}

/// `_PyUnicode_TransformDecimalAndSpaceToASCII`: non-ASCII spaces become ' ', decimal digits
/// of any script their ASCII digit; other non-ASCII characters make the text invalid (`None`).
fn to_ascii_number_text(s: &str) -> Option<String> {
    s.chars()
        .map(|c| {
            if c.is_ascii() {
                Some(c)
            } else if py_isspace(c) {
                Some(' ')
            } else {
                decimal_value(c).and_then(|d| char::from_digit(d, 10))
            }
        })
        .collect()
}

/// C `isspace` in the "C" locale, which CPython uses after the transformation above.
fn c_isspace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// Python's `float(s)` for a str. Error: `could not convert string to float: 'abc'`.
pub fn parse_float(s: &str) -> Result<f64, String> {
    let err = || format!("could not convert string to float: {}", str_repr(s));
    let t = to_ascii_number_text(s).ok_or_else(err)?;
    let t = t.trim_matches(c_isspace);
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = body.to_ascii_lowercase();
    let special = match lower.as_str() {
        "inf" | "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    };
    if let Some(v) = special {
        return Ok(if neg { -v } else { v });
    }
    // Underscores only between digits (_Py_string_to_number_with_underscores).
    let bytes = body.as_bytes();
    let mut clean = String::with_capacity(body.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            let before = i.checked_sub(1).and_then(|j| bytes.get(j));
            let after = bytes.get(i + 1);
            if !before.is_some_and(u8::is_ascii_digit) || !after.is_some_and(u8::is_ascii_digit) {
                return Err(err());
            }
        } else {
            clean.push(b as char);
        }
    }
    // sign? (digits [. digits?] | . digits) ([eE] sign? digits)?
    let cb = clean.as_bytes();
    let mut i = 0;
    let digits_at = |i: &mut usize| {
        let s = *i;
        while cb.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - s
    };
    let int_digits = digits_at(&mut i);
    let mut frac_digits = 0;
    if cb.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = digits_at(&mut i);
    }
    if int_digits + frac_digits == 0 {
        return Err(err());
    }
    if matches!(cb.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(cb.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits_at(&mut i) == 0 {
            return Err(err());
        }
    }
    if i != cb.len() {
        return Err(err());
    }
    let v: f64 = clean.parse().map_err(|_| err())?;
    Ok(if neg { -v } else { v })
}

/// Python's `int(s, base)` for a str (`base` 0 or 2..=36; 0 reads a `0x`/`0o`/`0b` prefix).
/// Errors: `ValueError` as CPython words it, or `Overflow` when the literal is valid but does
/// not fit in an i64.
pub fn parse_int(s: &str, base: u32) -> Result<i64, IntParseError> {
    if base == 1 || base > 36 {
        return Err(NumError::Value(
            "int() base must be >= 2 and <= 36, or 0".to_string(),
        ));
    }
    let invalid = || {
        NumError::Value(format!(
            "invalid literal for int() with base {base}: {}",
            repr_truncated(s, 200)
        ))
    };
    let t = to_ascii_number_text(s).ok_or_else(invalid)?;
    let b = t.as_bytes();
    let mut i = 0;
    while b.get(i).is_some_and(|&c| c_isspace(c as char)) {
        i += 1;
    }
    let mut neg = false;
    match b.get(i) {
        Some(b'+') => i += 1,
        Some(b'-') => {
            neg = true;
            i += 1;
        }
        _ => {}
    }
    let lower_at = |j: usize| b.get(j).map(u8::to_ascii_lowercase);
    let mut base = base;
    let mut error_if_nonzero = false;
    if base == 0 {
        base = if b.get(i) != Some(&b'0') {
            10
        } else {
            match lower_at(i + 1) {
                Some(b'x') => 16,
                Some(b'o') => 8,
                Some(b'b') => 2,
                _ => {
                    // "010" was an old-style octal; only zero is still allowed.
                    error_if_nonzero = true;
                    10
                }
            }
        };
    }
    if b.get(i) == Some(&b'0') {
        let p = lower_at(i + 1);
        if (base == 16 && p == Some(b'x'))
            || (base == 8 && p == Some(b'o'))
            || (base == 2 && p == Some(b'b'))
        {
            i += 2;
            if b.get(i) == Some(&b'_') {
                i += 1;
            }
        }
    }
    if b.get(i) == Some(&b'_') {
        return Err(invalid());
    }
    let mut value: i128 = 0;
    let mut overflow = false;
    let mut n_digits = 0;
    let mut prev_underscore = false;
    while let Some(&c) = b.get(i) {
        if c == b'_' {
            if prev_underscore {
                return Err(invalid());
            }
            prev_underscore = true;
            i += 1;
            continue;
        }
        let Some(d) = (c as char).to_digit(36).filter(|&d| d < base) else {
            break;
        };
        prev_underscore = false;
        n_digits += 1;
        match value
            .checked_mul(base as i128)
            .and_then(|v| v.checked_add(d as i128))
        {
            Some(v) if v <= i64::MAX as i128 + 1 => value = v,
            _ => overflow = true,
        }
        i += 1;
    }
    if prev_underscore || n_digits == 0 {
        return Err(invalid());
    }
    if error_if_nonzero && (overflow || value != 0) {
        return Err(invalid());
    }
    while b.get(i).is_some_and(|&c| c_isspace(c as char)) {
        i += 1;
    }
    if i != b.len() {
        return Err(invalid());
    }
    let v = if neg { -value } else { value };
    if overflow || v > i64::MAX as i128 || v < i64::MIN as i128 {
        return Err(NumError::Overflow(INT_OVERFLOW_MSG.to_string()));
    }
    Ok(v as i64)
}

/// Python's `int(x)` for a float: truncates toward zero. `int(inf)` is OverflowError
/// `cannot convert float infinity to integer`, `int(nan)` ValueError `cannot convert float NaN
/// to integer`; a finite value beyond i64 is `Overflow(INT_OVERFLOW_MSG)`.
pub fn float_to_int_checked(x: f64) -> Result<i64, NumError> {
    if x.is_nan() {
        return Err(NumError::Value(
            "cannot convert float NaN to integer".to_string(),
        ));
    }
    if x.is_infinite() {
        return Err(NumError::Overflow(
            "cannot convert float infinity to integer".to_string(),
        ));
    }
    let t = x.trunc();
    // 2^63 is exactly representable; i64::MAX is not.
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&t) {
        return Err(NumError::Overflow(INT_OVERFLOW_MSG.to_string()));
    }
    Ok(t as i64)
}

// ---------------------------------------------------------------------------------------------
// Unicode tables, generated with Python 3.11.7 (Unicode 14.0.0):
//   NON_PRINTABLE: maximal ranges of code points >= 0x80 where not chr(c).isprintable()
//   DECIMAL_ZEROS: code points c with unicodedata.decimal(chr(c)) == 0; every Nd digit is one
//   of the ten code points starting at one of them.
// ---------------------------------------------------------------------------------------------

#[rustfmt::skip]
const NON_PRINTABLE: &[(u32, u32)] = &[
    (0x80, 0xa0), (0xad, 0xad), (0x378, 0x379), (0x380, 0x383), (0x38b, 0x38b), (0x38d, 0x38d),
    (0x3a2, 0x3a2), (0x530, 0x530), (0x557, 0x558), (0x58b, 0x58c), (0x590, 0x590), (0x5c8, 0x5cf),
    (0x5eb, 0x5ee), (0x5f5, 0x605), (0x61c, 0x61c), (0x6dd, 0x6dd), (0x70e, 0x70f), (0x74b, 0x74c),
    (0x7b2, 0x7bf), (0x7fb, 0x7fc), (0x82e, 0x82f), (0x83f, 0x83f), (0x85c, 0x85d), (0x85f, 0x85f),
    (0x86b, 0x86f), (0x88f, 0x897), (0x8e2, 0x8e2), (0x984, 0x984), (0x98d, 0x98e), (0x991, 0x992),
    (0x9a9, 0x9a9), (0x9b1, 0x9b1), (0x9b3, 0x9b5), (0x9ba, 0x9bb), (0x9c5, 0x9c6), (0x9c9, 0x9ca),
    (0x9cf, 0x9d6), (0x9d8, 0x9db), (0x9de, 0x9de), (0x9e4, 0x9e5), (0x9ff, 0xa00), (0xa04, 0xa04),
    (0xa0b, 0xa0e), (0xa11, 0xa12), (0xa29, 0xa29), (0xa31, 0xa31), (0xa34, 0xa34), (0xa37, 0xa37),
    (0xa3a, 0xa3b), (0xa3d, 0xa3d), (0xa43, 0xa46), (0xa49, 0xa4a), (0xa4e, 0xa50), (0xa52, 0xa58),
    (0xa5d, 0xa5d), (0xa5f, 0xa65), (0xa77, 0xa80), (0xa84, 0xa84), (0xa8e, 0xa8e), (0xa92, 0xa92),
    (0xaa9, 0xaa9), (0xab1, 0xab1), (0xab4, 0xab4), (0xaba, 0xabb), (0xac6, 0xac6), (0xaca, 0xaca),
    (0xace, 0xacf), (0xad1, 0xadf), (0xae4, 0xae5), (0xaf2, 0xaf8), (0xb00, 0xb00), (0xb04, 0xb04),
    (0xb0d, 0xb0e), (0xb11, 0xb12), (0xb29, 0xb29), (0xb31, 0xb31), (0xb34, 0xb34), (0xb3a, 0xb3b),
    (0xb45, 0xb46), (0xb49, 0xb4a), (0xb4e, 0xb54), (0xb58, 0xb5b), (0xb5e, 0xb5e), (0xb64, 0xb65),
    (0xb78, 0xb81), (0xb84, 0xb84), (0xb8b, 0xb8d), (0xb91, 0xb91), (0xb96, 0xb98), (0xb9b, 0xb9b),
    (0xb9d, 0xb9d), (0xba0, 0xba2), (0xba5, 0xba7), (0xbab, 0xbad), (0xbba, 0xbbd), (0xbc3, 0xbc5),
    (0xbc9, 0xbc9), (0xbce, 0xbcf), (0xbd1, 0xbd6), (0xbd8, 0xbe5), (0xbfb, 0xbff), (0xc0d, 0xc0d),
    (0xc11, 0xc11), (0xc29, 0xc29), (0xc3a, 0xc3b), (0xc45, 0xc45), (0xc49, 0xc49), (0xc4e, 0xc54),
    (0xc57, 0xc57), (0xc5b, 0xc5c), (0xc5e, 0xc5f), (0xc64, 0xc65), (0xc70, 0xc76), (0xc8d, 0xc8d),
    (0xc91, 0xc91), (0xca9, 0xca9), (0xcb4, 0xcb4), (0xcba, 0xcbb), (0xcc5, 0xcc5), (0xcc9, 0xcc9),
    (0xcce, 0xcd4), (0xcd7, 0xcdc), (0xcdf, 0xcdf), (0xce4, 0xce5), (0xcf0, 0xcf0), (0xcf3, 0xcff),
    (0xd0d, 0xd0d), (0xd11, 0xd11), (0xd45, 0xd45), (0xd49, 0xd49), (0xd50, 0xd53), (0xd64, 0xd65),
    (0xd80, 0xd80), (0xd84, 0xd84), (0xd97, 0xd99), (0xdb2, 0xdb2), (0xdbc, 0xdbc), (0xdbe, 0xdbf),
    (0xdc7, 0xdc9), (0xdcb, 0xdce), (0xdd5, 0xdd5), (0xdd7, 0xdd7), (0xde0, 0xde5), (0xdf0, 0xdf1),
    (0xdf5, 0xe00), (0xe3b, 0xe3e), (0xe5c, 0xe80), (0xe83, 0xe83), (0xe85, 0xe85), (0xe8b, 0xe8b),
    (0xea4, 0xea4), (0xea6, 0xea6), (0xebe, 0xebf), (0xec5, 0xec5), (0xec7, 0xec7), (0xece, 0xecf),
    (0xeda, 0xedb), (0xee0, 0xeff), (0xf48, 0xf48), (0xf6d, 0xf70), (0xf98, 0xf98), (0xfbd, 0xfbd),
    (0xfcd, 0xfcd), (0xfdb, 0xfff), (0x10c6, 0x10c6), (0x10c8, 0x10cc), (0x10ce, 0x10cf),
    (0x1249, 0x1249), (0x124e, 0x124f), (0x1257, 0x1257), (0x1259, 0x1259), (0x125e, 0x125f),
    (0x1289, 0x1289), (0x128e, 0x128f), (0x12b1, 0x12b1), (0x12b6, 0x12b7), (0x12bf, 0x12bf),
    (0x12c1, 0x12c1), (0x12c6, 0x12c7), (0x12d7, 0x12d7), (0x1311, 0x1311), (0x1316, 0x1317),
    (0x135b, 0x135c), (0x137d, 0x137f), (0x139a, 0x139f), (0x13f6, 0x13f7), (0x13fe, 0x13ff),
    (0x1680, 0x1680), (0x169d, 0x169f), (0x16f9, 0x16ff), (0x1716, 0x171e), (0x1737, 0x173f),
    (0x1754, 0x175f), (0x176d, 0x176d), (0x1771, 0x1771), (0x1774, 0x177f), (0x17de, 0x17df),
    (0x17ea, 0x17ef), (0x17fa, 0x17ff), (0x180e, 0x180e), (0x181a, 0x181f), (0x1879, 0x187f),
    (0x18ab, 0x18af), (0x18f6, 0x18ff), (0x191f, 0x191f), (0x192c, 0x192f), (0x193c, 0x193f),
    (0x1941, 0x1943), (0x196e, 0x196f), (0x1975, 0x197f), (0x19ac, 0x19af), (0x19ca, 0x19cf),
    (0x19db, 0x19dd), (0x1a1c, 0x1a1d), (0x1a5f, 0x1a5f), (0x1a7d, 0x1a7e), (0x1a8a, 0x1a8f),
    (0x1a9a, 0x1a9f), (0x1aae, 0x1aaf), (0x1acf, 0x1aff), (0x1b4d, 0x1b4f), (0x1b7f, 0x1b7f),
    (0x1bf4, 0x1bfb), (0x1c38, 0x1c3a), (0x1c4a, 0x1c4c), (0x1c89, 0x1c8f), (0x1cbb, 0x1cbc),
    (0x1cc8, 0x1ccf), (0x1cfb, 0x1cff), (0x1f16, 0x1f17), (0x1f1e, 0x1f1f), (0x1f46, 0x1f47),
    (0x1f4e, 0x1f4f), (0x1f58, 0x1f58), (0x1f5a, 0x1f5a), (0x1f5c, 0x1f5c), (0x1f5e, 0x1f5e),
    (0x1f7e, 0x1f7f), (0x1fb5, 0x1fb5), (0x1fc5, 0x1fc5), (0x1fd4, 0x1fd5), (0x1fdc, 0x1fdc),
    (0x1ff0, 0x1ff1), (0x1ff5, 0x1ff5), (0x1fff, 0x200f), (0x2028, 0x202f), (0x205f, 0x206f),
    (0x2072, 0x2073), (0x208f, 0x208f), (0x209d, 0x209f), (0x20c1, 0x20cf), (0x20f1, 0x20ff),
    (0x218c, 0x218f), (0x2427, 0x243f), (0x244b, 0x245f), (0x2b74, 0x2b75), (0x2b96, 0x2b96),
    (0x2cf4, 0x2cf8), (0x2d26, 0x2d26), (0x2d28, 0x2d2c), (0x2d2e, 0x2d2f), (0x2d68, 0x2d6e),
    (0x2d71, 0x2d7e), (0x2d97, 0x2d9f), (0x2da7, 0x2da7), (0x2daf, 0x2daf), (0x2db7, 0x2db7),
    (0x2dbf, 0x2dbf), (0x2dc7, 0x2dc7), (0x2dcf, 0x2dcf), (0x2dd7, 0x2dd7), (0x2ddf, 0x2ddf),
    (0x2e5e, 0x2e7f), (0x2e9a, 0x2e9a), (0x2ef4, 0x2eff), (0x2fd6, 0x2fef), (0x2ffc, 0x3000),
    (0x3040, 0x3040), (0x3097, 0x3098), (0x3100, 0x3104), (0x3130, 0x3130), (0x318f, 0x318f),
    (0x31e4, 0x31ef), (0x321f, 0x321f), (0xa48d, 0xa48f), (0xa4c7, 0xa4cf), (0xa62c, 0xa63f),
    (0xa6f8, 0xa6ff), (0xa7cb, 0xa7cf), (0xa7d2, 0xa7d2), (0xa7d4, 0xa7d4), (0xa7da, 0xa7f1),
    (0xa82d, 0xa82f), (0xa83a, 0xa83f), (0xa878, 0xa87f), (0xa8c6, 0xa8cd), (0xa8da, 0xa8df),
    (0xa954, 0xa95e), (0xa97d, 0xa97f), (0xa9ce, 0xa9ce), (0xa9da, 0xa9dd), (0xa9ff, 0xa9ff),
    (0xaa37, 0xaa3f), (0xaa4e, 0xaa4f), (0xaa5a, 0xaa5b), (0xaac3, 0xaada), (0xaaf7, 0xab00),
    (0xab07, 0xab08), (0xab0f, 0xab10), (0xab17, 0xab1f), (0xab27, 0xab27), (0xab2f, 0xab2f),
    (0xab6c, 0xab6f), (0xabee, 0xabef), (0xabfa, 0xabff), (0xd7a4, 0xd7af), (0xd7c7, 0xd7ca),
    (0xd7fc, 0xf8ff), (0xfa6e, 0xfa6f), (0xfada, 0xfaff), (0xfb07, 0xfb12), (0xfb18, 0xfb1c),
    (0xfb37, 0xfb37), (0xfb3d, 0xfb3d), (0xfb3f, 0xfb3f), (0xfb42, 0xfb42), (0xfb45, 0xfb45),
    (0xfbc3, 0xfbd2), (0xfd90, 0xfd91), (0xfdc8, 0xfdce), (0xfdd0, 0xfdef), (0xfe1a, 0xfe1f),
    (0xfe53, 0xfe53), (0xfe67, 0xfe67), (0xfe6c, 0xfe6f), (0xfe75, 0xfe75), (0xfefd, 0xff00),
    (0xffbf, 0xffc1), (0xffc8, 0xffc9), (0xffd0, 0xffd1), (0xffd8, 0xffd9), (0xffdd, 0xffdf),
    (0xffe7, 0xffe7), (0xffef, 0xfffb), (0xfffe, 0xffff), (0x1000c, 0x1000c), (0x10027, 0x10027),
    (0x1003b, 0x1003b), (0x1003e, 0x1003e), (0x1004e, 0x1004f), (0x1005e, 0x1007f),
    (0x100fb, 0x100ff), (0x10103, 0x10106), (0x10134, 0x10136), (0x1018f, 0x1018f),
    (0x1019d, 0x1019f), (0x101a1, 0x101cf), (0x101fe, 0x1027f), (0x1029d, 0x1029f),
    (0x102d1, 0x102df), (0x102fc, 0x102ff), (0x10324, 0x1032c), (0x1034b, 0x1034f),
    (0x1037b, 0x1037f), (0x1039e, 0x1039e), (0x103c4, 0x103c7), (0x103d6, 0x103ff),
    (0x1049e, 0x1049f), (0x104aa, 0x104af), (0x104d4, 0x104d7), (0x104fc, 0x104ff),
    (0x10528, 0x1052f), (0x10564, 0x1056e), (0x1057b, 0x1057b), (0x1058b, 0x1058b),
    (0x10593, 0x10593), (0x10596, 0x10596), (0x105a2, 0x105a2), (0x105b2, 0x105b2),
    (0x105ba, 0x105ba), (0x105bd, 0x105ff), (0x10737, 0x1073f), (0x10756, 0x1075f),
    (0x10768, 0x1077f), (0x10786, 0x10786), (0x107b1, 0x107b1), (0x107bb, 0x107ff),
    (0x10806, 0x10807), (0x10809, 0x10809), (0x10836, 0x10836), (0x10839, 0x1083b),
    (0x1083d, 0x1083e), (0x10856, 0x10856), (0x1089f, 0x108a6), (0x108b0, 0x108df),
    (0x108f3, 0x108f3), (0x108f6, 0x108fa), (0x1091c, 0x1091e), (0x1093a, 0x1093e),
    (0x10940, 0x1097f), (0x109b8, 0x109bb), (0x109d0, 0x109d1), (0x10a04, 0x10a04),
    (0x10a07, 0x10a0b), (0x10a14, 0x10a14), (0x10a18, 0x10a18), (0x10a36, 0x10a37),
    (0x10a3b, 0x10a3e), (0x10a49, 0x10a4f), (0x10a59, 0x10a5f), (0x10aa0, 0x10abf),
    (0x10ae7, 0x10aea), (0x10af7, 0x10aff), (0x10b36, 0x10b38), (0x10b56, 0x10b57),
    (0x10b73, 0x10b77), (0x10b92, 0x10b98), (0x10b9d, 0x10ba8), (0x10bb0, 0x10bff),
    (0x10c49, 0x10c7f), (0x10cb3, 0x10cbf), (0x10cf3, 0x10cf9), (0x10d28, 0x10d2f),
    (0x10d3a, 0x10e5f), (0x10e7f, 0x10e7f), (0x10eaa, 0x10eaa), (0x10eae, 0x10eaf),
    (0x10eb2, 0x10eff), (0x10f28, 0x10f2f), (0x10f5a, 0x10f6f), (0x10f8a, 0x10faf),
    (0x10fcc, 0x10fdf), (0x10ff7, 0x10fff), (0x1104e, 0x11051), (0x11076, 0x1107e),
    (0x110bd, 0x110bd), (0x110c3, 0x110cf), (0x110e9, 0x110ef), (0x110fa, 0x110ff),
    (0x11135, 0x11135), (0x11148, 0x1114f), (0x11177, 0x1117f), (0x111e0, 0x111e0),
    (0x111f5, 0x111ff), (0x11212, 0x11212), (0x1123f, 0x1127f), (0x11287, 0x11287),
    (0x11289, 0x11289), (0x1128e, 0x1128e), (0x1129e, 0x1129e), (0x112aa, 0x112af),
    (0x112eb, 0x112ef), (0x112fa, 0x112ff), (0x11304, 0x11304), (0x1130d, 0x1130e),
    (0x11311, 0x11312), (0x11329, 0x11329), (0x11331, 0x11331), (0x11334, 0x11334),
    (0x1133a, 0x1133a), (0x11345, 0x11346), (0x11349, 0x1134a), (0x1134e, 0x1134f),
    (0x11351, 0x11356), (0x11358, 0x1135c), (0x11364, 0x11365), (0x1136d, 0x1136f),
    (0x11375, 0x113ff), (0x1145c, 0x1145c), (0x11462, 0x1147f), (0x114c8, 0x114cf),
    (0x114da, 0x1157f), (0x115b6, 0x115b7), (0x115de, 0x115ff), (0x11645, 0x1164f),
    (0x1165a, 0x1165f), (0x1166d, 0x1167f), (0x116ba, 0x116bf), (0x116ca, 0x116ff),
    (0x1171b, 0x1171c), (0x1172c, 0x1172f), (0x11747, 0x117ff), (0x1183c, 0x1189f),
    (0x118f3, 0x118fe), (0x11907, 0x11908), (0x1190a, 0x1190b), (0x11914, 0x11914),
    (0x11917, 0x11917), (0x11936, 0x11936), (0x11939, 0x1193a), (0x11947, 0x1194f),
    (0x1195a, 0x1199f), (0x119a8, 0x119a9), (0x119d8, 0x119d9), (0x119e5, 0x119ff),
    (0x11a48, 0x11a4f), (0x11aa3, 0x11aaf), (0x11af9, 0x11bff), (0x11c09, 0x11c09),
    (0x11c37, 0x11c37), (0x11c46, 0x11c4f), (0x11c6d, 0x11c6f), (0x11c90, 0x11c91),
    (0x11ca8, 0x11ca8), (0x11cb7, 0x11cff), (0x11d07, 0x11d07), (0x11d0a, 0x11d0a),
    (0x11d37, 0x11d39), (0x11d3b, 0x11d3b), (0x11d3e, 0x11d3e), (0x11d48, 0x11d4f),
    (0x11d5a, 0x11d5f), (0x11d66, 0x11d66), (0x11d69, 0x11d69), (0x11d8f, 0x11d8f),
    (0x11d92, 0x11d92), (0x11d99, 0x11d9f), (0x11daa, 0x11edf), (0x11ef9, 0x11faf),
    (0x11fb1, 0x11fbf), (0x11ff2, 0x11ffe), (0x1239a, 0x123ff), (0x1246f, 0x1246f),
    (0x12475, 0x1247f), (0x12544, 0x12f8f), (0x12ff3, 0x12fff), (0x1342f, 0x143ff),
    (0x14647, 0x167ff), (0x16a39, 0x16a3f), (0x16a5f, 0x16a5f), (0x16a6a, 0x16a6d),
    (0x16abf, 0x16abf), (0x16aca, 0x16acf), (0x16aee, 0x16aef), (0x16af6, 0x16aff),
    (0x16b46, 0x16b4f), (0x16b5a, 0x16b5a), (0x16b62, 0x16b62), (0x16b78, 0x16b7c),
    (0x16b90, 0x16e3f), (0x16e9b, 0x16eff), (0x16f4b, 0x16f4e), (0x16f88, 0x16f8e),
    (0x16fa0, 0x16fdf), (0x16fe5, 0x16fef), (0x16ff2, 0x16fff), (0x187f8, 0x187ff),
    (0x18cd6, 0x18cff), (0x18d09, 0x1afef), (0x1aff4, 0x1aff4), (0x1affc, 0x1affc),
    (0x1afff, 0x1afff), (0x1b123, 0x1b14f), (0x1b153, 0x1b163), (0x1b168, 0x1b16f),
    (0x1b2fc, 0x1bbff), (0x1bc6b, 0x1bc6f), (0x1bc7d, 0x1bc7f), (0x1bc89, 0x1bc8f),
    (0x1bc9a, 0x1bc9b), (0x1bca0, 0x1ceff), (0x1cf2e, 0x1cf2f), (0x1cf47, 0x1cf4f),
    (0x1cfc4, 0x1cfff), (0x1d0f6, 0x1d0ff), (0x1d127, 0x1d128), (0x1d173, 0x1d17a),
    (0x1d1eb, 0x1d1ff), (0x1d246, 0x1d2df), (0x1d2f4, 0x1d2ff), (0x1d357, 0x1d35f),
    (0x1d379, 0x1d3ff), (0x1d455, 0x1d455), (0x1d49d, 0x1d49d), (0x1d4a0, 0x1d4a1),
    (0x1d4a3, 0x1d4a4), (0x1d4a7, 0x1d4a8), (0x1d4ad, 0x1d4ad), (0x1d4ba, 0x1d4ba),
    (0x1d4bc, 0x1d4bc), (0x1d4c4, 0x1d4c4), (0x1d506, 0x1d506), (0x1d50b, 0x1d50c),
    (0x1d515, 0x1d515), (0x1d51d, 0x1d51d), (0x1d53a, 0x1d53a), (0x1d53f, 0x1d53f),
    (0x1d545, 0x1d545), (0x1d547, 0x1d549), (0x1d551, 0x1d551), (0x1d6a6, 0x1d6a7),
    (0x1d7cc, 0x1d7cd), (0x1da8c, 0x1da9a), (0x1daa0, 0x1daa0), (0x1dab0, 0x1deff),
    (0x1df1f, 0x1dfff), (0x1e007, 0x1e007), (0x1e019, 0x1e01a), (0x1e022, 0x1e022),
    (0x1e025, 0x1e025), (0x1e02b, 0x1e0ff), (0x1e12d, 0x1e12f), (0x1e13e, 0x1e13f),
    (0x1e14a, 0x1e14d), (0x1e150, 0x1e28f), (0x1e2af, 0x1e2bf), (0x1e2fa, 0x1e2fe),
    (0x1e300, 0x1e7df), (0x1e7e7, 0x1e7e7), (0x1e7ec, 0x1e7ec), (0x1e7ef, 0x1e7ef),
    (0x1e7ff, 0x1e7ff), (0x1e8c5, 0x1e8c6), (0x1e8d7, 0x1e8ff), (0x1e94c, 0x1e94f),
    (0x1e95a, 0x1e95d), (0x1e960, 0x1ec70), (0x1ecb5, 0x1ed00), (0x1ed3e, 0x1edff),
    (0x1ee04, 0x1ee04), (0x1ee20, 0x1ee20), (0x1ee23, 0x1ee23), (0x1ee25, 0x1ee26),
    (0x1ee28, 0x1ee28), (0x1ee33, 0x1ee33), (0x1ee38, 0x1ee38), (0x1ee3a, 0x1ee3a),
    (0x1ee3c, 0x1ee41), (0x1ee43, 0x1ee46), (0x1ee48, 0x1ee48), (0x1ee4a, 0x1ee4a),
    (0x1ee4c, 0x1ee4c), (0x1ee50, 0x1ee50), (0x1ee53, 0x1ee53), (0x1ee55, 0x1ee56),
    (0x1ee58, 0x1ee58), (0x1ee5a, 0x1ee5a), (0x1ee5c, 0x1ee5c), (0x1ee5e, 0x1ee5e),
    (0x1ee60, 0x1ee60), (0x1ee63, 0x1ee63), (0x1ee65, 0x1ee66), (0x1ee6b, 0x1ee6b),
    (0x1ee73, 0x1ee73), (0x1ee78, 0x1ee78), (0x1ee7d, 0x1ee7d), (0x1ee7f, 0x1ee7f),
    (0x1ee8a, 0x1ee8a), (0x1ee9c, 0x1eea0), (0x1eea4, 0x1eea4), (0x1eeaa, 0x1eeaa),
    (0x1eebc, 0x1eeef), (0x1eef2, 0x1efff), (0x1f02c, 0x1f02f), (0x1f094, 0x1f09f),
    (0x1f0af, 0x1f0b0), (0x1f0c0, 0x1f0c0), (0x1f0d0, 0x1f0d0), (0x1f0f6, 0x1f0ff),
    (0x1f1ae, 0x1f1e5), (0x1f203, 0x1f20f), (0x1f23c, 0x1f23f), (0x1f249, 0x1f24f),
    (0x1f252, 0x1f25f), (0x1f266, 0x1f2ff), (0x1f6d8, 0x1f6dc), (0x1f6ed, 0x1f6ef),
    (0x1f6fd, 0x1f6ff), (0x1f774, 0x1f77f), (0x1f7d9, 0x1f7df), (0x1f7ec, 0x1f7ef),
    (0x1f7f1, 0x1f7ff), (0x1f80c, 0x1f80f), (0x1f848, 0x1f84f), (0x1f85a, 0x1f85f),
    (0x1f888, 0x1f88f), (0x1f8ae, 0x1f8af), (0x1f8b2, 0x1f8ff), (0x1fa54, 0x1fa5f),
    (0x1fa6e, 0x1fa6f), (0x1fa75, 0x1fa77), (0x1fa7d, 0x1fa7f), (0x1fa87, 0x1fa8f),
    (0x1faad, 0x1faaf), (0x1fabb, 0x1fabf), (0x1fac6, 0x1facf), (0x1fada, 0x1fadf),
    (0x1fae8, 0x1faef), (0x1faf7, 0x1faff), (0x1fb93, 0x1fb93), (0x1fbcb, 0x1fbef),
    (0x1fbfa, 0x1ffff), (0x2a6e0, 0x2a6ff), (0x2b739, 0x2b73f), (0x2b81e, 0x2b81f),
    (0x2cea2, 0x2ceaf), (0x2ebe1, 0x2f7ff), (0x2fa1e, 0x2ffff), (0x3134b, 0xe00ff),
    (0xe01f0, 0x10ffff),
];
#[rustfmt::skip]
const DECIMAL_ZEROS: &[u32] = &[
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6,
    0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50,
    0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0,
    0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0,
    0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce,
    0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

#[cfg(test)]
mod tests {
    //! Every expected string below was produced by CPython 3.11.7 (a generator script ran each
    //! case through python3 and wrote the assertion); `ERR msg` is the raised exception's text.
    use super::*;

    fn show(r: Result<String, String>) -> String {
        r.unwrap_or_else(|e| format!("ERR {e}"))
    }
    fn fi(x: i64, spec: &str) -> String {
        show(int_format(x, spec))
    }
    fn fb(b: bool, spec: &str) -> String {
        show(bool_format(b, spec))
    }
    fn ff(x: f64, spec: &str) -> String {
        show(float_format(x, spec))
    }
    fn fs(s: &str, spec: &str) -> String {
        show(str_format(s, spec))
    }
    fn pf(s: &str) -> String {
        show(parse_float(s).map(float_repr))
    }
    fn pi(s: &str, base: u32) -> String {
        match parse_int(s, base) {
            Ok(v) => v.to_string(),
            Err(NumError::Value(m)) => format!("ERR {m}"),
            Err(NumError::Overflow(_)) => "OVERFLOW".to_string(),
        }
    }
    fn fti(x: f64) -> String {
        match float_to_int_checked(x) {
            Ok(v) => v.to_string(),
            Err(NumError::Overflow(m)) if m == INT_OVERFLOW_MSG => "OVERFLOW".to_string(),
            Err(e) => format!("ERR {}", e.message()),
        }
    }
    /// `repr(round(x, nd))`; for `nd == None` the int's digits (exact for any integral float).
    fn rnd(x: f64, nd: Option<i64>) -> String {
        match (python_round(x, nd), nd) {
            (Ok(v), Some(_)) => float_repr(v),
            // Python's int has no negative zero.
            (Ok(v), None) => format!("{:.0}", v + 0.0),
            (Err(e), _) => format!("ERR {}", e.message()),
        }
    }

    /// A Python value, as far as the formatting tests need one.
    #[derive(Clone, Copy)]
    enum A<'a> {
        I(i64),
        F(f64),
        S(&'a str),
        L(&'a [i64]),
    }

    fn a_str(a: &A) -> String {
        match a {
            A::I(i) => i.to_string(),
            A::F(x) => float_repr(*x),
            A::S(s) => s.to_string(),
            A::L(l) => format!("{l:?}"),
        }
    }
    fn a_repr(a: &A) -> String {
        match a {
            A::S(s) => str_repr(s),
            _ => a_str(a),
        }
    }
    fn a_ascii(a: &A) -> String {
        match a {
            A::S(s) => str_ascii(s),
            _ => a_str(a),
        }
    }

    enum Args<'a> {
        Tuple(&'a [A<'a>]),
        Map(&'a [(&'a str, A<'a>)]),
    }

    /// A tiny `fmt % args` on top of parse_percent, in CPython's order of checks.
    fn pct(fmt: &str, args: Args) -> String {
        let (items, map): (&[A], &[(&str, A)]) = match args {
            Args::Tuple(t) => (t, &[]),
            Args::Map(m) => (&[], m),
        };
        let mut next = 0;
        let mut get = || {
            let a = items.get(next).copied();
            next += 1;
            a
        };
        let mut out = String::new();
        for piece in parse_percent(fmt) {
            let mut spec = match piece {
                PercentPiece::Literal(s) => {
                    out.push_str(&s);
                    continue;
                }
                PercentPiece::Error(m) => return format!("ERR {m}"),
                PercentPiece::Spec(spec) => spec,
            };
            let v = if let Some(key) = &spec.key {
                match map.iter().find(|(k, _)| k == key) {
                    Some((_, v)) => *v,
                    None => return format!("ERR {}", str_repr(key)),
                }
            } else {
                if spec.width == PercentCount::Star {
                    let Some(A::I(w)) = get() else {
                        return "ERR not enough arguments for format string".to_string();
                    };
                    spec.set_star_width(w).unwrap();
                }
                if spec.precision == PercentCount::Star {
                    let Some(A::I(p)) = get() else {
                        return "ERR not enough arguments for format string".to_string();
                    };
                    spec.set_star_precision(p).unwrap();
                }
                match get() {
                    Some(v) => v,
                    None => return "ERR not enough arguments for format string".to_string(),
                }
            };
            let text = match (spec.kind(), v) {
                (PercentKind::Int | PercentKind::IntOnly, A::I(i)) => percent_int(i, &spec),
                (PercentKind::Int, A::F(x)) => match float_to_int_checked(x) {
                    Ok(i) => percent_int(i, &spec),
                    Err(e) => return format!("ERR {}", e.message()),
                },
                (PercentKind::Float, A::I(i)) => percent_float(i as f64, &spec),
                (PercentKind::Float, A::F(x)) => percent_float(x, &spec),
                (PercentKind::Char, A::I(c)) => {
                    match u32::try_from(c).ok().and_then(char::from_u32) {
                        Some(ch) => percent_str(&ch.to_string(), &spec),
                        None => return format!("ERR {C_ARG_RANGE_MSG}"),
                    }
                }
                (PercentKind::Char, A::S(s)) if s.chars().count() == 1 => percent_str(s, &spec),
                (PercentKind::Str, v) => percent_str(&a_str(&v), &spec),
                (PercentKind::Repr, v) => percent_str(&a_repr(&v), &spec),
                (PercentKind::Ascii, v) => percent_str(&a_ascii(&v), &spec),
                (PercentKind::Unsupported(m), _) => return format!("ERR {m}"),
                _ => return "ERR type error".to_string(),
            };
            out.push_str(&text);
        }
        if next < items.len() {
            return "ERR not all arguments converted during string formatting".to_string();
        }
        out
    }

    /// A tiny `fmt.format(*args, **kwargs)` on top of parse_format_string.
    fn sf(fmt: &str, args: &[A], kwargs: &[(&str, A)]) -> String {
        let render_all = || -> Result<String, String> {
            let mut out = String::new();
            for p in parse_format_string(fmt) {
                out.push_str(&render(&p, args, kwargs)?);
            }
            Ok(out)
        };
        show(render_all())
    }

    fn render(p: &FmtPiece, args: &[A], kwargs: &[(&str, A)]) -> Result<String, String> {
        let f = match p {
            FmtPiece::Literal(s) => return Ok(s.clone()),
            FmtPiece::Error(e) => return Err(e.clone()),
            FmtPiece::Field(f) => f,
        };
        let mut v = match &f.arg {
            FieldArg::Index(i) => args.get(*i).copied().ok_or_else(|| {
                format!("Replacement index {i} out of range for positional args tuple")
            })?,
            FieldArg::Name(n) => kwargs
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| *v)
                .ok_or_else(|| str_repr(n))?,
        };
        for acc in &f.path {
            v = match (acc, v) {
                (FieldAccess::Index(i), A::L(l)) => A::I(*l.get(*i).ok_or("IndexError")?),
                _ => return Err("unsupported access in test".to_string()),
            };
        }
        if let Some(e) = &f.path_error {
            return Err(e.clone());
        }
        if let Some(c) = f.conversion.filter(|c| !matches!(c, 'r' | 's' | 'a')) {
            return Err(conversion_error(c));
        }
        let mut spec = String::new();
        for q in &f.spec {
            spec.push_str(&render(q, args, kwargs)?);
        }
        match (f.conversion, v) {
            (Some('r'), v) => str_format(&a_repr(&v), &spec),
            (Some('s'), v) => str_format(&a_str(&v), &spec),
            (Some('a'), v) => str_format(&a_ascii(&v), &spec),
            (_, A::I(i)) => int_format(i, &spec),
            (_, A::F(x)) => float_format(x, &spec),
            (_, A::S(s)) => str_format(s, &spec),
            (_, A::L(_)) => str_format(&a_str(&v), &spec),
        }
    }

    #[test]
    fn format_string_structure() {
        let pieces = parse_format_string("a{0.x[2][k]!r:>{w}}b{{");
        let FmtPiece::Field(f) = &pieces[1] else {
            panic!("expected a field")
        };
        assert_eq!(pieces[0], FmtPiece::Literal("a".to_string()));
        assert_eq!(f.arg, FieldArg::Index(0));
        assert_eq!(
            f.path,
            vec![
                FieldAccess::Attr("x".to_string()),
                FieldAccess::Index(2),
                FieldAccess::Key("k".to_string()),
            ]
        );
        assert_eq!(f.conversion, Some('r'));
        assert_eq!(f.literal_spec(), None);
        assert_eq!(pieces[2], FmtPiece::Literal("b{".to_string()));
        // Python: '{0[-1]}' indexes with the *string* '-1'; '{0[}]}' allows '}' in brackets.
        let pieces = parse_format_string("{0[-1]}{0[}]}");
        let keys: Vec<_> = pieces
            .iter()
            .map(|p| match p {
                FmtPiece::Field(f) => f.path.clone(),
                _ => vec![],
            })
            .collect();
        assert_eq!(
            keys,
            vec![
                vec![FieldAccess::Key("-1".to_string())],
                vec![FieldAccess::Key("}".to_string())],
            ]
        );
        // Auto-numbering runs through nested spec fields in order: outer first.
        let pieces = parse_format_string("{:{}}{}");
        let FmtPiece::Field(f) = &pieces[0] else {
            panic!("expected a field")
        };
        assert_eq!(f.arg, FieldArg::Index(0));
        assert!(matches!(&f.spec[0], FmtPiece::Field(g) if g.arg == FieldArg::Index(1)));
        assert!(matches!(&pieces[1], FmtPiece::Field(g) if g.arg == FieldArg::Index(2)));
        // Errors are pieces, raised in CPython's order: a path error after the lookups before
        // it, a syntax error after the earlier fields.
        let pieces = parse_format_string("{0.a.}x}");
        assert!(matches!(&pieces[0], FmtPiece::Field(f)
            if f.path == vec![FieldAccess::Attr("a".to_string())]
                && f.path_error.as_deref() == Some("Empty attribute in format string")));
        assert_eq!(
            pieces[1..],
            [FmtPiece::Error(
                "Single '}' encountered in format string".to_string()
            )]
        );
    }

    #[test]
    fn percent_structure_and_helpers() {
        let pieces = parse_percent("x%(name)-08.3lf%%");
        assert_eq!(pieces.len(), 3);
        let PercentPiece::Spec(s) = &pieces[1] else {
            panic!("expected a spec")
        };
        assert_eq!(s.key.as_deref(), Some("name"));
        assert!(s.left && s.zero && !s.plus);
        assert_eq!(
            (s.width, s.precision, s.conv, s.index),
            (PercentCount::Fixed(8), PercentCount::Fixed(3), 'f', 14)
        );
        assert_eq!(pieces[2], PercentPiece::Literal("%".to_string()));
        // '%.4e' % 1234.5678 and '%.4f' % 2.5e-5 in CPython:
        assert_eq!(double_to_string(1234.5678, 'e', 4, false), "1.2346e+03");
        assert_eq!(double_to_string(2.5e-5, 'f', 4, false), "0.0000");
        assert_eq!(float_str_g(0.0001, 6, false, false), "0.0001");
        assert_eq!(float_str_g(1e-5, 3, true, true), "1.00E-05");
    }

    #[test]
    fn hostile_inputs_do_not_panic() {
        for s in [
            "{",
            "}",
            "{:{:{:{",
            "{0[",
            "{!",
            "%(",
            "%*.*",
            "\u{10ffff}{\u{0}",
            "{0.a.b[c]",
            "%ll",
        ] {
            let _ = parse_format_string(s);
            let _ = parse_percent(s);
            let _ = int_format(1, s);
            let _ = float_format(1.0, s);
            let _ = str_format(s, s);
            let _ = parse_float(s);
            let _ = parse_int(s, 0);
            let _ = str_repr(s);
        }
        assert_eq!(fi(1, "99999999999"), "ERR width too big");
        assert_eq!(
            fi(1, "99999999999999999999"),
            "ERR Too many decimal digits in format string"
        );
        assert_eq!(ff(1.0, ".99999999999"), "ERR precision too big");
        assert_eq!(
            parse_percent("%99999999999d"),
            vec![PercentPiece::Error("width too big".to_string())]
        );
        assert_eq!(
            parse_int("1", 1),
            Err(NumError::Value(
                "int() base must be >= 2 and <= 36, or 0".to_string()
            ))
        );
    }

    #[test]
    fn float_repr_matches_cpython() {
        assert_eq!(float_repr(0.1), "0.1");
        assert_eq!(float_repr(0.30000000000000004), "0.30000000000000004");
        assert_eq!(float_repr(1.0), "1.0");
        assert_eq!(float_repr(-1.0), "-1.0");
        assert_eq!(float_repr(0.0), "0.0");
        assert_eq!(float_repr(-0.0), "-0.0");
        assert_eq!(float_repr(1e+16), "1e+16");
        assert_eq!(float_repr(1000000000000000.0), "1000000000000000.0");
        assert_eq!(float_repr(9999999999999998.0), "9999999999999998.0");
        assert_eq!(float_repr(1e-05), "1e-05");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(0.0001234), "0.0001234");
        assert_eq!(float_repr(123456789012345.0), "123456789012345.0");
        assert_eq!(float_repr(1234567890123456.0), "1234567890123456.0");
        assert_eq!(float_repr(1.2345678901234568e+16), "1.2345678901234568e+16");
        assert_eq!(float_repr(1.5e+300), "1.5e+300");
        assert_eq!(float_repr(5e-324), "5e-324");
        assert_eq!(
            float_repr(1.7976931348623157e+308),
            "1.7976931348623157e+308"
        );
        assert_eq!(float_repr(2.5), "2.5");
        assert_eq!(float_repr(0.3333333333333333), "0.3333333333333333");
        assert_eq!(float_repr(0.6666666666666666), "0.6666666666666666");
        assert_eq!(float_repr(100.0), "100.0");
        assert_eq!(float_repr(1e+22), "1e+22");
        assert_eq!(float_repr(1e+23), "1e+23");
        assert_eq!(float_repr(f64::INFINITY), "inf");
        assert_eq!(float_repr(f64::NEG_INFINITY), "-inf");
        assert_eq!(float_repr(f64::NAN), "nan");
        assert_eq!(float_repr(3.14259), "3.14259");
        assert_eq!(float_repr(0.5), "0.5");
        assert_eq!(float_repr(123.456), "123.456");
        assert_eq!(float_repr(1e-07), "1e-07");
        assert_eq!(float_repr(-2.5e-10), "-2.5e-10");
        assert_eq!(float_repr(9007199254740992.0), "9007199254740992.0");
        assert_eq!(float_repr(9.223372036854776e+18), "9.223372036854776e+18");
        assert_eq!(float_repr(0.3), "0.3");
        assert_eq!(float_repr(1.1), "1.1");
        assert_eq!(float_repr(4.35), "4.35");
        assert_eq!(float_repr(1e+100), "1e+100");
        assert_eq!(float_repr(586806606277009.2), "586806606277009.2");
        assert_eq!(float_repr(-73919354676050.12), "-73919354676050.12");
        assert_eq!(float_repr(805262748040277.2), "805262748040277.2");
    }

    #[test]
    fn format_int_matches_cpython() {
        assert_eq!(fi(1234, ""), "1234");
        assert_eq!(fi(1234, "d"), "1234");
        assert_eq!(fi(1234, ","), "1,234");
        assert_eq!(fi(1234567, ",d"), "1,234,567");
        assert_eq!(fi(1234567, "_"), "1_234_567");
        assert_eq!(fi(-1234567, ","), "-1,234,567");
        assert_eq!(fi(1234, "010,"), "00,001,234");
        assert_eq!(fi(1234, "09,"), "0,001,234");
        assert_eq!(fi(1234, "08,"), "0,001,234");
        assert_eq!(fi(42, ">6"), "    42");
        assert_eq!(fi(42, "<6"), "42    ");
        assert_eq!(fi(42, "^6"), "  42  ");
        assert_eq!(fi(42, "^7"), "  42   ");
        assert_eq!(fi(-42, "=8"), "-     42");
        assert_eq!(fi(-42, "08"), "-0000042");
        assert_eq!(fi(42, "+d"), "+42");
        assert_eq!(fi(-42, "+d"), "-42");
        assert_eq!(fi(42, " d"), " 42");
        assert_eq!(fi(0, "+d"), "+0");
        assert_eq!(fi(255, "x"), "ff");
        assert_eq!(fi(255, "X"), "FF");
        assert_eq!(fi(255, "#x"), "0xff");
        assert_eq!(fi(255, "#X"), "0XFF");
        assert_eq!(fi(255, "#o"), "0o377");
        assert_eq!(fi(5, "b"), "101");
        assert_eq!(fi(5, "#b"), "0b101");
        assert_eq!(fi(-5, "#b"), "-0b101");
        assert_eq!(fi(-255, "#010x"), "-0x00000ff");
        assert_eq!(fi(1234, "_b"), "100_1101_0010");
        assert_eq!(fi(1234, "#012_x"), "0x0_0000_04d2");
        assert_eq!(fi(1234, "#_x"), "0x4d2");
        assert_eq!(fi(65, "c"), "A");
        assert_eq!(fi(65, "05c"), "0000A");
        assert_eq!(fi(65, "^5c"), "  A  ");
        assert_eq!(fi(128512, "c"), "\u{1f600}");
        assert_eq!(fi(1234, "n"), "1234");
        assert_eq!(fi(5, "x<4d"), "5xxx");
        assert_eq!(fi(5, "=^9"), "====5====");
        assert_eq!(fi(5, "0<5"), "50000");
        assert_eq!(fi(5, "0>5"), "00005");
        assert_eq!(fi(12, "%"), "1200.000000%");
        assert_eq!(fi(1, "e"), "1.000000e+00");
        assert_eq!(fi(1099511627776, "e"), "1.099512e+12");
        assert_eq!(fi(7, ".2f"), "7.00");
        assert_eq!(fi(7, "g"), "7");
        assert_eq!(fi(3, ".1%"), "300.0%");
        assert_eq!(fi(-9223372036854775808, ""), "-9223372036854775808");
        assert_eq!(fi(-9223372036854775808, "x"), "-8000000000000000");
        assert_eq!(fi(9223372036854775807, ","), "9,223,372,036,854,775,807");
        assert_eq!(
            fi(1, ".2"),
            "ERR Precision not allowed in integer format specifier"
        );
        assert_eq!(
            fi(1, "z"),
            "ERR Negative zero coercion (z) not allowed in integer format specifier"
        );
        assert_eq!(
            fi(1, "+c"),
            "ERR Sign not allowed with integer format specifier 'c'"
        );
        assert_eq!(
            fi(1, "#c"),
            "ERR Alternate form (#) not allowed with integer format specifier 'c'"
        );
        assert_eq!(fi(-1, "c"), "ERR %c arg not in range(0x110000)");
        assert_eq!(fi(1114112, "c"), "ERR %c arg not in range(0x110000)");
        assert_eq!(fi(1, ",x"), "ERR Cannot specify ',' with 'x'.");
        assert_eq!(fi(1, "_,"), "ERR Cannot specify both ',' and '_'.");
        assert_eq!(fi(1, ",_"), "ERR Cannot specify both ',' and '_'.");
        assert_eq!(fi(1, "."), "ERR Format specifier missing precision");
        assert_eq!(
            fi(1, "ab"),
            "ERR Invalid format specifier 'ab' for object of type 'int'"
        );
        assert_eq!(
            fi(1, "s"),
            "ERR Unknown format code 's' for object of type 'int'"
        );
        assert_eq!(fi(1, ",n"), "ERR Cannot specify ',' with 'n'.");
        assert_eq!(fi(1, "_n"), "ERR Cannot specify '_' with 'n'.");
        assert_eq!(
            fi(1, "\u{1}"),
            "ERR Unknown format code '\\x1' for object of type 'int'"
        );
        assert_eq!(
            fi(1, "  "),
            "ERR Unknown format code '\\x20' for object of type 'int'"
        );
        assert_eq!(fi(1, "\u{e7}>5"), "\u{e7}\u{e7}\u{e7}\u{e7}1");
        assert_eq!(
            fi(5, "00>5"),
            "ERR Invalid format specifier '00>5' for object of type 'int'"
        );
        assert_eq!(
            fi(1, "\u{e9}"),
            "ERR Unknown format code '\\xe9' for object of type 'int'"
        );
        assert_eq!(fi(0, "#x"), "0x0");
        assert_eq!(fi(0, "05"), "00000");
        assert_eq!(fi(123, "=+8"), "+    123");
        assert_eq!(fi(1000000, "_d"), "1_000_000");
        assert_eq!(fi(1000000, "020,"), "0,000,000,001,000,000");
        assert_eq!(fb(true, ""), "True");
        assert_eq!(fb(false, ""), "False");
        assert_eq!(fb(true, ">5"), "    1");
        assert_eq!(fb(true, "d"), "1");
        assert_eq!(
            fb(true, "s"),
            "ERR Unknown format code 's' for object of type 'bool'"
        );
        assert_eq!(
            fb(true, "ab"),
            "ERR Invalid format specifier 'ab' for object of type 'bool'"
        );
    }

    #[test]
    fn format_float_matches_cpython() {
        assert_eq!(ff(1.0, ""), "1.0");
        assert_eq!(ff(1e+16, ""), "1e+16");
        assert_eq!(ff(0.1, "10"), "       0.1");
        assert_eq!(ff(3.14259, ".2f"), "3.14");
        assert_eq!(ff(3.14259, ".4f"), "3.1426");
        assert_eq!(ff(-3.14259, "+.2f"), "-3.14");
        assert_eq!(ff(2.5, ".0f"), "2");
        assert_eq!(ff(3.5, ".0f"), "4");
        assert_eq!(ff(0.125, ".2f"), "0.12");
        assert_eq!(ff(0.375, ".2f"), "0.38");
        assert_eq!(ff(2.675, ".2f"), "2.67");
        assert_eq!(ff(1.0, ".2"), "1.0");
        assert_eq!(ff(12.0, ".2"), "1.2e+01");
        assert_eq!(ff(123.456, ".2"), "1.2e+02");
        assert_eq!(ff(123.456, ".3"), "1.23e+02");
        assert_eq!(ff(100.0, ".3"), "1e+02");
        assert_eq!(ff(1e-05, ".3"), "1e-05");
        assert_eq!(ff(0.0001, ""), "0.0001");
        assert_eq!(ff(1e-05, ""), "1e-05");
        assert_eq!(ff(1234.5, "e"), "1.234500e+03");
        assert_eq!(ff(1234.5, ".2E"), "1.23E+03");
        assert_eq!(ff(0.0, "e"), "0.000000e+00");
        assert_eq!(ff(1e-300, ".3e"), "1.000e-300");
        assert_eq!(ff(1e+300, ".0e"), "1e+300");
        assert_eq!(ff(1234.5, "g"), "1234.5");
        assert_eq!(ff(1234567.0, "g"), "1.23457e+06");
        assert_eq!(ff(0.0001, "g"), "0.0001");
        assert_eq!(ff(1e-05, "g"), "1e-05");
        assert_eq!(ff(1e+16, "g"), "1e+16");
        assert_eq!(ff(100000.0, "g"), "100000");
        assert_eq!(ff(1000000.0, "g"), "1e+06");
        assert_eq!(ff(1.0, "#g"), "1.00000");
        assert_eq!(ff(1.0, "#"), "1.0");
        assert_eq!(ff(1e+16, "#"), "1.e+16");
        assert_eq!(ff(1.0, "#.3"), "1.00");
        assert_eq!(ff(1.0, "#.0f"), "1.");
        assert_eq!(ff(1.5, "#.0e"), "2.e+00");
        assert_eq!(ff(0.5, "%"), "50.000000%");
        assert_eq!(ff(1.5, ".0%"), "150%");
        assert_eq!(ff(0.1234, ".1%"), "12.3%");
        assert_eq!(ff(1234567.891, ",.2f"), "1,234,567.89");
        assert_eq!(ff(1234567.891, "_.1f"), "1_234_567.9");
        assert_eq!(ff(1234.5, "012,.1f"), "00,001,234.5");
        assert_eq!(ff(-1234.5, "012,.1f"), "-0,001,234.5");
        assert_eq!(ff(1234.5, "015,.2e"), "0,000,001.23e+03");
        assert_eq!(ff(1.0, "=10"), "       1.0");
        assert_eq!(ff(-1.0, "010"), "-0000001.0");
        assert_eq!(ff(1e+16, "010"), "000001e+16");
        assert_eq!(ff(f64::INFINITY, ""), "inf");
        assert_eq!(ff(f64::NEG_INFINITY, "010"), "-000000inf");
        assert_eq!(ff(f64::NAN, "+"), "+nan");
        assert_eq!(ff(f64::NAN, "+"), "+nan");
        assert_eq!(ff(f64::NAN, "F"), "NAN");
        assert_eq!(ff(f64::NEG_INFINITY, "E"), "-INF");
        assert_eq!(ff(f64::INFINITY, "%"), "inf%");
        assert_eq!(ff(f64::INFINITY, "*^9"), "***inf***");
        assert_eq!(ff(0.0, "z"), "0.0");
        assert_eq!(ff(-0.0, "z"), "0.0");
        assert_eq!(ff(-0.0, ""), "-0.0");
        assert_eq!(ff(-0.0001, "z.2f"), "0.00");
        assert_eq!(ff(-0.0001, ".2f"), "-0.00");
        assert_eq!(ff(-1e-300, "z"), "-1e-300");
        assert_eq!(ff(-0.0, "zf"), "0.000000");
        assert_eq!(ff(1.0, "n"), "1");
        assert_eq!(ff(123456.0, "n"), "123456");
        assert_eq!(ff(1e+100, ".3n"), "1e+100");
        assert_eq!(ff(0.1, ".20f"), "0.10000000000000000555");
        assert_eq!(ff(1e+300, ".1f"), "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160.0");
        assert_eq!(ff(5e-324, ""), "5e-324");
        assert_eq!(ff(5e-324, ".3g"), "4.94e-324");
        assert_eq!(ff(2.5, "G"), "2.5");
        assert_eq!(ff(1e-10, "G"), "1E-10");
        assert_eq!(ff(12345.6789, ">+15,.3f"), "    +12,345.679");
        assert_eq!(ff(0.5, " "), " 0.5");
        assert_eq!(
            ff(1.5, "d"),
            "ERR Unknown format code 'd' for object of type 'float'"
        );
        assert_eq!(
            ff(1.5, "c"),
            "ERR Unknown format code 'c' for object of type 'float'"
        );
        assert_eq!(
            ff(1.5, "s"),
            "ERR Unknown format code 's' for object of type 'float'"
        );
        assert_eq!(ff(1.5, ",n"), "ERR Cannot specify ',' with 'n'.");
        assert_eq!(
            ff(1.5, "ab"),
            "ERR Invalid format specifier 'ab' for object of type 'float'"
        );
        assert_eq!(ff(1.5, "."), "ERR Format specifier missing precision");
        assert_eq!(ff(9.5, ".0f"), "10");
        assert_eq!(ff(0.05, ".1f"), "0.1");
        assert_eq!(ff(1.25, ".1f"), "1.2");
        assert_eq!(ff(1e+22, "f"), "10000000000000000000000.000000");
        assert_eq!(ff(123.0, ".0"), "1e+02");
        assert_eq!(ff(0.000123456, ".2"), "0.00012");
        assert_eq!(ff(1000000000000000.0, ".16"), "1e+15");
        assert_eq!(ff(-12.5, "^+11.2f"), "  -12.50   ");
    }

    #[test]
    fn format_str_matches_cpython() {
        assert_eq!(fs("abc", ""), "abc");
        assert_eq!(fs("abc", "10"), "abc       ");
        assert_eq!(fs("abc", "<10"), "abc       ");
        assert_eq!(fs("abc", ">10"), "       abc");
        assert_eq!(fs("abc", "^10"), "   abc    ");
        assert_eq!(fs("abc", "^7.2"), "  ab   ");
        assert_eq!(fs("abc", "*^8"), "**abc***");
        assert_eq!(fs("abc", ".1"), "a");
        assert_eq!(fs("abc", ".0"), "");
        assert_eq!(fs("x", "05"), "x0000");
        assert_eq!(fs("x", "<05"), "x0000");
        assert_eq!(fs("h\u{e9}llo", ">8"), "   h\u{e9}llo");
        assert_eq!(fs("\u{65e5}\u{672c}", "^6"), "  \u{65e5}\u{672c}  ");
        assert_eq!(fs("abc", "2"), "abc");
        assert_eq!(
            fs("x", "+"),
            "ERR Sign not allowed in string format specifier"
        );
        assert_eq!(
            fs("x", " "),
            "ERR Space not allowed in string format specifier"
        );
        assert_eq!(
            fs("x", "="),
            "ERR '=' alignment not allowed in string format specifier"
        );
        assert_eq!(
            fs("x", "#"),
            "ERR Alternate form (#) not allowed in string format specifier"
        );
        assert_eq!(
            fs("x", "z"),
            "ERR Negative zero coercion (z) not allowed in string format specifier"
        );
        assert_eq!(fs("x", ","), "ERR Cannot specify ',' with 's'.");
        assert_eq!(
            fs("x", "d"),
            "ERR Unknown format code 'd' for object of type 'str'"
        );
        assert_eq!(
            fs("x", "ab"),
            "ERR Invalid format specifier 'ab' for object of type 'str'"
        );
        assert_eq!(fs("abc", "s"), "abc");
        assert_eq!(fs("abc", "-^5"), "-abc-");
        assert_eq!(fs("", "3"), "   ");
    }

    #[test]
    fn percent_matches_cpython() {
        assert_eq!(pct("%d", Args::Tuple(&[A::I(5)])), "5");
        assert_eq!(pct("%5d|", Args::Tuple(&[A::I(42)])), "   42|");
        assert_eq!(pct("%-5d|", Args::Tuple(&[A::I(42)])), "42   |");
        assert_eq!(pct("%05d", Args::Tuple(&[A::I(-3)])), "-0003");
        assert_eq!(pct("%+05d", Args::Tuple(&[A::I(3)])), "+0003");
        assert_eq!(pct("%-05d|", Args::Tuple(&[A::I(3)])), "3    |");
        assert_eq!(pct("% d", Args::Tuple(&[A::I(3)])), " 3");
        assert_eq!(pct("%+d %+d", Args::Tuple(&[A::I(3), A::I(-3)])), "+3 -3");
        assert_eq!(
            pct("%x %X %o", Args::Tuple(&[A::I(255), A::I(255), A::I(8)])),
            "ff FF 10"
        );
        assert_eq!(
            pct("%#x %#X %#o", Args::Tuple(&[A::I(255), A::I(255), A::I(8)])),
            "0xff 0XFF 0o10"
        );
        assert_eq!(pct("%#08x", Args::Tuple(&[A::I(255)])), "0x0000ff");
        assert_eq!(pct("%#8x|", Args::Tuple(&[A::I(255)])), "    0xff|");
        assert_eq!(pct("%-#8x|", Args::Tuple(&[A::I(255)])), "0xff    |");
        assert_eq!(pct("%.3d", Args::Tuple(&[A::I(5)])), "005");
        assert_eq!(pct("%#.3x", Args::Tuple(&[A::I(5)])), "0x005");
        assert_eq!(pct("%+.3d", Args::Tuple(&[A::I(-5)])), "-005");
        assert_eq!(pct("%x", Args::Tuple(&[A::I(-255)])), "-ff");
        assert_eq!(pct("%#x", Args::Tuple(&[A::I(-255)])), "-0xff");
        assert_eq!(pct("%#05x", Args::Tuple(&[A::I(-255)])), "-0xff");
        assert_eq!(pct("%d", Args::Tuple(&[A::F(3.9)])), "3");
        assert_eq!(pct("%d", Args::Tuple(&[A::F(-3.9)])), "-3");
        assert_eq!(pct("%i %u", Args::Tuple(&[A::I(1), A::I(2)])), "1 2");
        assert_eq!(pct("%f", Args::Tuple(&[A::F(3.14259)])), "3.142590");
        assert_eq!(pct("%.2f", Args::Tuple(&[A::F(3.14259)])), "3.14");
        assert_eq!(pct("%8.3f|", Args::Tuple(&[A::F(-3.14259)])), "  -3.143|");
        assert_eq!(pct("%-8.3f|", Args::Tuple(&[A::F(3.14259)])), "3.143   |");
        assert_eq!(pct("%08.3f", Args::Tuple(&[A::F(-3.14259)])), "-003.143");
        assert_eq!(pct("%+.1f", Args::Tuple(&[A::F(2.25)])), "+2.2");
        assert_eq!(pct("%.f", Args::Tuple(&[A::F(2.5)])), "2");
        assert_eq!(pct("%#.0f", Args::Tuple(&[A::F(2.0)])), "2.");
        assert_eq!(pct("%e", Args::Tuple(&[A::F(12345.678)])), "1.234568e+04");
        assert_eq!(pct("%.2E", Args::Tuple(&[A::F(0.000123)])), "1.23E-04");
        assert_eq!(pct("%g", Args::Tuple(&[A::F(1e+16)])), "1e+16");
        assert_eq!(pct("%g", Args::Tuple(&[A::F(1e-05)])), "1e-05");
        assert_eq!(pct("%g", Args::Tuple(&[A::F(0.0001)])), "0.0001");
        assert_eq!(pct("%#g", Args::Tuple(&[A::F(1.0)])), "1.00000");
        assert_eq!(pct("%G", Args::Tuple(&[A::F(1e-300)])), "1E-300");
        assert_eq!(pct("%10.4g|", Args::Tuple(&[A::F(3.14259)])), "     3.143|");
        assert_eq!(pct("%e", Args::Tuple(&[A::F(0.0)])), "0.000000e+00");
        assert_eq!(pct("%05f", Args::Tuple(&[A::F(f64::INFINITY)])), "00inf");
        assert_eq!(pct("%+f", Args::Tuple(&[A::F(f64::NAN)])), "+nan");
        assert_eq!(pct("%f", Args::Tuple(&[A::F(f64::NEG_INFINITY)])), "-inf");
        assert_eq!(pct("%f", Args::Tuple(&[A::I(5)])), "5.000000");
        assert_eq!(pct("%s", Args::Tuple(&[A::S("abc")])), "abc");
        assert_eq!(pct("%10s|", Args::Tuple(&[A::S("abc")])), "       abc|");
        assert_eq!(pct("%-10s|", Args::Tuple(&[A::S("abc")])), "abc       |");
        assert_eq!(pct("%.2s", Args::Tuple(&[A::S("abc")])), "ab");
        assert_eq!(pct("%5.1s|", Args::Tuple(&[A::S("abc")])), "    a|");
        assert_eq!(pct("%05s", Args::Tuple(&[A::S("ab")])), "   ab");
        assert_eq!(pct("%s", Args::Tuple(&[A::F(1.5)])), "1.5");
        assert_eq!(pct("%s", Args::Tuple(&[A::I(10)])), "10");
        assert_eq!(pct("%r", Args::Tuple(&[A::S("a")])), "'a'");
        assert_eq!(pct("%r", Args::Tuple(&[A::S("it's")])), "\"it's\"");
        assert_eq!(pct("%a", Args::Tuple(&[A::S("\u{e9}")])), "'\\xe9'");
        assert_eq!(pct("%c", Args::Tuple(&[A::I(65)])), "A");
        assert_eq!(pct("%c", Args::Tuple(&[A::S("x")])), "x");
        assert_eq!(pct("%5c|", Args::Tuple(&[A::I(65)])), "    A|");
        assert_eq!(pct("%-3c|", Args::Tuple(&[A::S("y")])), "y  |");
        assert_eq!(pct("%%", Args::Tuple(&[])), "%");
        assert_eq!(pct("100%%", Args::Tuple(&[])), "100%");
        assert_eq!(pct("%d%%", Args::Tuple(&[A::I(50)])), "50%");
        assert_eq!(pct("%5.2f%%", Args::Tuple(&[A::F(12.345)])), "12.35%");
        assert_eq!(pct("%*d", Args::Tuple(&[A::I(5), A::I(1)])), "    1");
        assert_eq!(pct("%*d|", Args::Tuple(&[A::I(-5), A::I(1)])), "1    |");
        assert_eq!(pct("%.*f", Args::Tuple(&[A::I(2), A::F(1.0)])), "1.00");
        assert_eq!(pct("%.*f", Args::Tuple(&[A::I(-2), A::F(1.0)])), "1");
        assert_eq!(
            pct("%-*.*f|", Args::Tuple(&[A::I(8), A::I(2), A::F(3.14259)])),
            "3.14    |"
        );
        assert_eq!(
            pct("%ld %hd %Lf", Args::Tuple(&[A::I(1), A::I(2), A::F(1.5)])),
            "1 2 1.500000"
        );
        assert_eq!(
            pct(
                "%(x)s %(y)d",
                Args::Map(&[("x", A::S("a")), ("y", A::I(2))])
            ),
            "a 2"
        );
        assert_eq!(pct("%((a))s", Args::Map(&[("(a)", A::I(1))])), "1");
        assert_eq!(pct("%(n)05.1f", Args::Map(&[("n", A::F(2.25))])), "002.2");
        assert_eq!(pct("%", Args::Tuple(&[])), "ERR incomplete format");
        assert_eq!(pct("%-", Args::Tuple(&[])), "ERR incomplete format");
        assert_eq!(pct("%5", Args::Tuple(&[A::I(1)])), "ERR incomplete format");
        assert_eq!(pct("%.", Args::Tuple(&[A::I(1)])), "ERR incomplete format");
        assert_eq!(pct("%l", Args::Tuple(&[A::I(1)])), "ERR incomplete format");
        assert_eq!(
            pct("%z", Args::Tuple(&[A::I(5)])),
            "ERR unsupported format character 'z' (0x7a) at index 1"
        );
        assert_eq!(
            pct("%z", Args::Tuple(&[])),
            "ERR not enough arguments for format string"
        );
        assert_eq!(
            pct("%d %", Args::Tuple(&[])),
            "ERR not enough arguments for format string"
        );
        assert_eq!(
            pct("%d %z", Args::Tuple(&[A::I(1), A::I(2)])),
            "ERR unsupported format character 'z' (0x7a) at index 4"
        );
        assert_eq!(pct("%(a", Args::Map(&[])), "ERR incomplete format key");
        assert_eq!(
            pct("%(a)", Args::Map(&[("a", A::I(1))])),
            "ERR incomplete format"
        );
        assert_eq!(
            pct("%(a)%", Args::Map(&[("a", A::I(1))])),
            "ERR unsupported format character '%' (0x25) at index 4"
        );
        assert_eq!(
            pct("%5%", Args::Tuple(&[A::I(1)])),
            "ERR unsupported format character '%' (0x25) at index 2"
        );
        assert_eq!(
            pct("%\u{1}", Args::Tuple(&[A::I(1)])),
            "ERR unsupported format character '?' (0x1) at index 1"
        );
        assert_eq!(
            pct("%\u{e9}", Args::Tuple(&[A::I(1)])),
            "ERR unsupported format character '?' (0xe9) at index 1"
        );
        assert_eq!(
            pct("%s %s", Args::Tuple(&[A::I(1)])),
            "ERR not enough arguments for format string"
        );
        assert_eq!(
            pct("%s", Args::Tuple(&[A::I(1), A::I(2)])),
            "ERR not all arguments converted during string formatting"
        );
        assert_eq!(pct("x%sy", Args::Tuple(&[A::S("")])), "xy");
        assert_eq!(
            pct("%c", Args::Tuple(&[A::I(1114112)])),
            "ERR %c arg not in range(0x110000)"
        );
        assert_eq!(
            pct(
                "loss: %.4f, acc: %5.1f%%",
                Args::Tuple(&[A::F(0.123456), A::F(98.7654)])
            ),
            "loss: 0.1235, acc:  98.8%"
        );
        assert_eq!(pct("%s=%r", Args::Tuple(&[A::S("k"), A::S("v")])), "k='v'");
    }

    #[test]
    fn str_format_matches_cpython() {
        assert_eq!(sf("{} {}", &[A::I(1), A::S("a")], &[]), "1 a");
        assert_eq!(sf("{1} {0}", &[A::S("a"), A::S("b")], &[]), "b a");
        assert_eq!(sf("{0}{0}", &[A::S("x")], &[]), "xx");
        assert_eq!(
            sf("{x}-{y}", &[], &[("x", A::I(1)), ("y", A::F(2.5))]),
            "1-2.5"
        );
        assert_eq!(
            sf("{:>5}|{:<5}|{:^5}", &[A::I(1), A::I(2), A::I(3)], &[]),
            "    1|2    |  3  "
        );
        assert_eq!(sf("{:.3f}", &[A::F(3.14259)], &[]), "3.143");
        assert_eq!(sf("{!r}", &[A::S("hi")], &[]), "'hi'");
        assert_eq!(sf("{!s:>4}", &[A::I(7)], &[]), "   7");
        assert_eq!(sf("{!a}", &[A::S("\u{e9}")], &[]), "'\\xe9'");
        assert_eq!(sf("{0!r:>6}", &[A::S("ab")], &[]), "  'ab'");
        assert_eq!(sf("{:{}}", &[A::S("a"), A::I(5)], &[]), "a    ");
        assert_eq!(
            sf("{:{}{}}", &[A::S("a"), A::S(">"), A::S("5")], &[]),
            "    a"
        );
        assert_eq!(
            sf(
                "{0:{w}.{p}f}",
                &[A::F(3.14259)],
                &[("w", A::I(8)), ("p", A::I(2))]
            ),
            "    3.14"
        );
        assert_eq!(sf("{:{w}}", &[A::I(1)], &[("w", A::I(4))]), "   1");
        assert_eq!(sf("{{}}", &[], &[]), "{}");
        assert_eq!(sf("x{{y}}z{}", &[A::I(1)], &[]), "x{y}z1");
        assert_eq!(sf("{{{}}}", &[A::I(5)], &[]), "{5}");
        assert_eq!(sf("{:,}", &[A::I(1234567)], &[]), "1,234,567");
        assert_eq!(sf("{}", &[A::F(1.0)], &[]), "1.0");
        assert_eq!(sf("{}", &[A::F(1e+16)], &[]), "1e+16");
        assert_eq!(sf("{:}", &[A::S("a")], &[]), "a");
        assert_eq!(sf("{00}", &[A::I(7)], &[]), "7");
        assert_eq!(sf("{ }", &[], &[(" ", A::I(4))]), "4");
        assert_eq!(sf("{:%}", &[A::F(0.25)], &[]), "25.000000%");
        assert_eq!(
            sf("Epoch {:3d}: loss={:.4f}", &[A::I(3), A::F(0.5)], &[]),
            "Epoch   3: loss=0.5000"
        );
        assert_eq!(
            sf("{", &[], &[]),
            "ERR Single '{' encountered in format string"
        );
        assert_eq!(
            sf("}", &[], &[]),
            "ERR Single '}' encountered in format string"
        );
        assert_eq!(
            sf("a}b", &[], &[]),
            "ERR Single '}' encountered in format string"
        );
        assert_eq!(
            sf("{0", &[A::I(1)], &[]),
            "ERR expected '}' before end of string"
        );
        assert_eq!(
            sf("{0:", &[A::I(1)], &[]),
            "ERR unmatched '{' in format spec"
        );
        assert_eq!(
            sf("{0!", &[A::I(1)], &[]),
            "ERR end of string while looking for conversion specifier"
        );
        assert_eq!(
            sf("{0!r", &[A::I(1)], &[]),
            "ERR unmatched '{' in format spec"
        );
        assert_eq!(
            sf("{0!rx}", &[A::I(1)], &[]),
            "ERR expected ':' after conversion specifier"
        );
        assert_eq!(
            sf("{0!x}", &[A::I(1)], &[]),
            "ERR Unknown conversion specifier x"
        );
        assert_eq!(
            sf("{0!}", &[A::I(1)], &[]),
            "ERR unmatched '{' in format spec"
        );
        assert_eq!(
            sf("{}{1}", &[A::I(1), A::I(2)], &[]),
            "ERR cannot switch from automatic field numbering to manual field specification"
        );
        assert_eq!(
            sf("{1}{}", &[A::I(1), A::I(2)], &[]),
            "ERR cannot switch from manual field specification to automatic field numbering"
        );
        assert_eq!(
            sf("{0:{1:{2}}}", &[A::S("a"), A::I(5), A::I(1)], &[]),
            "ERR Max string recursion exceeded"
        );
        assert_eq!(
            sf("{0:{{}}}", &[A::S("a")], &[]),
            "ERR Invalid format specifier '{}' for object of type 'str'"
        );
        assert_eq!(
            sf("{0.}", &[A::I(1)], &[]),
            "ERR Empty attribute in format string"
        );
        assert_eq!(
            sf("{0[]}", &[A::L(&[1])], &[]),
            "ERR Empty attribute in format string"
        );
        assert_eq!(
            sf("{0[0]x}", &[A::L(&[1])], &[]),
            "ERR Only '.' or '[' may follow ']' in format field specifier"
        );
        assert_eq!(
            sf("{0[0}", &[A::L(&[1])], &[]),
            "ERR expected '}' before end of string"
        );
        assert_eq!(
            sf("{0{}", &[A::I(1)], &[]),
            "ERR unexpected '{' in field name"
        );
        assert_eq!(
            sf("{0:}}", &[A::S("a")], &[]),
            "ERR Single '}' encountered in format string"
        );
        assert_eq!(
            sf("{:d}", &[A::S("a")], &[]),
            "ERR Unknown format code 'd' for object of type 'str'"
        );
        assert_eq!(
            sf("{:s}", &[A::I(1)], &[]),
            "ERR Unknown format code 's' for object of type 'int'"
        );
        assert_eq!(
            sf("{}", &[], &[]),
            "ERR Replacement index 0 out of range for positional args tuple"
        );
        assert_eq!(
            sf("{5}", &[A::I(1)], &[]),
            "ERR Replacement index 5 out of range for positional args tuple"
        );
        assert_eq!(sf("{x}", &[], &[]), "ERR 'x'");
        assert_eq!(
            sf("{:!r}} ", &[A::I(1)], &[]),
            "ERR Invalid format specifier '!r' for object of type 'int'"
        );
        assert_eq!(
            sf("{5!x}", &[A::I(1)], &[]),
            "ERR Replacement index 5 out of range for positional args tuple"
        );
        assert_eq!(
            sf("{5.}", &[A::I(1)], &[]),
            "ERR Replacement index 5 out of range for positional args tuple"
        );
        assert_eq!(
            sf("{:d} {", &[A::S("a")], &[]),
            "ERR Unknown format code 'd' for object of type 'str'"
        );
        assert_eq!(
            sf("{:{}} }", &[A::S("a"), A::S("q")], &[]),
            "ERR Unknown format code 'q' for object of type 'str'"
        );
        assert_eq!(
            sf("{0!x}", &[A::S("a")], &[]),
            "ERR Unknown conversion specifier x"
        );
    }

    #[test]
    fn round_matches_cpython() {
        assert_eq!(rnd(2.675, Some(2)), "2.67");
        assert_eq!(rnd(0.125, Some(2)), "0.12");
        assert_eq!(rnd(0.375, Some(2)), "0.38");
        assert_eq!(rnd(2.5, Some(0)), "2.0");
        assert_eq!(rnd(3.5, Some(0)), "4.0");
        assert_eq!(rnd(-0.5, Some(0)), "-0.0");
        assert_eq!(rnd(-0.4, Some(0)), "-0.0");
        assert_eq!(rnd(1.005, Some(2)), "1.0");
        assert_eq!(rnd(0.30000000000000004, Some(1)), "0.3");
        assert_eq!(rnd(1234.5678, Some(-2)), "1200.0");
        assert_eq!(rnd(1250.0, Some(-2)), "1200.0");
        assert_eq!(rnd(1350.0, Some(-2)), "1400.0");
        assert_eq!(rnd(1249.999, Some(-2)), "1200.0");
        assert_eq!(rnd(1250.0000001, Some(-2)), "1300.0");
        assert_eq!(rnd(-1250.0, Some(-2)), "-1200.0");
        assert_eq!(rnd(149.5, Some(-2)), "100.0");
        assert_eq!(rnd(99.0, Some(-3)), "0.0");
        assert_eq!(rnd(500.0, Some(-3)), "0.0");
        assert_eq!(rnd(501.0, Some(-3)), "1000.0");
        assert_eq!(rnd(5000000000000001.0, Some(-15)), "5000000000000000.0");
        assert_eq!(rnd(1.5e+300, Some(-300)), "2e+300");
        assert_eq!(rnd(123.456, Some(400)), "123.456");
        assert_eq!(rnd(123.456, Some(-400)), "0.0");
        assert_eq!(rnd(-123.456, Some(-400)), "-0.0");
        assert_eq!(rnd(f64::INFINITY, Some(2)), "inf");
        assert_eq!(rnd(f64::NAN, Some(2)), "nan");
        assert_eq!(rnd(0.5, Some(1)), "0.5");
        assert_eq!(rnd(1e-320, Some(322)), "1e-320");
        assert_eq!(rnd(2.5e-320, Some(323)), "2.5e-320");
        assert_eq!(rnd(123456789.0, Some(-8)), "100000000.0");
        assert_eq!(
            rnd(1.7976931348623157e+308, Some(-308)),
            "ERR rounded value too large to represent"
        );
        assert_eq!(rnd(996891065788977.2, Some(5)), "996891065788977.2");
        assert_eq!(rnd(1.23456789, Some(5)), "1.23457");
        assert_eq!(rnd(-1.23456789, Some(5)), "-1.23457");
        assert_eq!(rnd(7.0, Some(-1)), "10.0");
        assert_eq!(rnd(5.0, Some(-1)), "0.0");
        assert_eq!(rnd(15.0, Some(-1)), "20.0");
        assert_eq!(rnd(25.0, Some(-1)), "20.0");
        assert_eq!(rnd(0.5, None), "0");
        assert_eq!(rnd(1.5, None), "2");
        assert_eq!(rnd(2.5, None), "2");
        assert_eq!(rnd(-0.5, None), "0");
        assert_eq!(rnd(-1.5, None), "-2");
        assert_eq!(rnd(2.4999, None), "2");
        assert_eq!(rnd(1e+300, None), "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160");
        assert_eq!(
            rnd(f64::INFINITY, None),
            "ERR cannot convert float infinity to integer"
        );
        assert_eq!(
            rnd(f64::NAN, None),
            "ERR cannot convert float NaN to integer"
        );
        assert_eq!(rnd(7.0, None), "7");
        assert_eq!(rnd(-7.6, None), "-8");
        assert_eq!(rnd(4503599627370497.0, None), "4503599627370497");
    }

    #[test]
    fn parse_float_matches_cpython() {
        assert_eq!(pf("1.5"), "1.5");
        assert_eq!(pf(" 1.5 "), "1.5");
        assert_eq!(pf("-2"), "-2.0");
        assert_eq!(pf("+.5e-3"), "0.0005");
        assert_eq!(pf("1e5"), "100000.0");
        assert_eq!(pf("1E5"), "100000.0");
        assert_eq!(pf("5."), "5.0");
        assert_eq!(pf(".5"), "0.5");
        assert_eq!(pf("1_000.5"), "1000.5");
        assert_eq!(pf("1e1_0"), "10000000000.0");
        assert_eq!(pf("1_e5"), "ERR could not convert string to float: '1_e5'");
        assert_eq!(pf("1._5"), "ERR could not convert string to float: '1._5'");
        assert_eq!(pf("1__0"), "ERR could not convert string to float: '1__0'");
        assert_eq!(pf("_1"), "ERR could not convert string to float: '_1'");
        assert_eq!(pf("1_"), "ERR could not convert string to float: '1_'");
        assert_eq!(pf("."), "ERR could not convert string to float: '.'");
        assert_eq!(pf("e5"), "ERR could not convert string to float: 'e5'");
        assert_eq!(pf("1e"), "ERR could not convert string to float: '1e'");
        assert_eq!(pf("inf"), "inf");
        assert_eq!(pf("-Infinity"), "-inf");
        assert_eq!(pf("+nan"), "nan");
        assert_eq!(pf("NaN"), "nan");
        assert_eq!(pf("iNf"), "inf");
        assert_eq!(pf("-nan"), "nan");
        assert_eq!(
            pf("infin"),
            "ERR could not convert string to float: 'infin'"
        );
        assert_eq!(pf(""), "ERR could not convert string to float: ''");
        assert_eq!(pf(" "), "ERR could not convert string to float: ' '");
        assert_eq!(pf("abc"), "ERR could not convert string to float: 'abc'");
        assert_eq!(pf("0x10"), "ERR could not convert string to float: '0x10'");
        assert_eq!(pf("1e400"), "inf");
        assert_eq!(pf("-1e400"), "-inf");
        assert_eq!(pf("1e-400"), "0.0");
        assert_eq!(pf("4.9e-324"), "5e-324");
        assert_eq!(pf("0.1e-310"), "1e-311");
        assert_eq!(pf("\u{661}.\u{665}"), "1.5");
        assert_eq!(pf("1\u{a0}"), "1.0");
        assert_eq!(
            pf("\u{1c}1"),
            "ERR could not convert string to float: '\\x1c1'"
        );
        assert_eq!(pf("\u{9}\u{a} 7 \u{d}"), "7.0");
        assert_eq!(pf("1.5."), "ERR could not convert string to float: '1.5.'");
        assert_eq!(pf("1 5"), "ERR could not convert string to float: '1 5'");
        assert_eq!(pf("--1"), "ERR could not convert string to float: '--1'");
        assert_eq!(pf("0.30000000000000004"), "0.30000000000000004");
        assert_eq!(pf("9007199254740993"), "9007199254740992.0");
        assert_eq!(
            pf("it's"),
            "ERR could not convert string to float: \"it's\""
        );
        assert_eq!(pf("1e+"), "ERR could not convert string to float: '1e+'");
        assert_eq!(pf("1.e5"), "100000.0");
        assert_eq!(
            pf("\u{e9}"),
            "ERR could not convert string to float: '\u{e9}'"
        );
    }

    #[test]
    fn parse_int_matches_cpython() {
        assert_eq!(pi("42", 10), "42");
        assert_eq!(pi(" -12 ", 10), "-12");
        assert_eq!(pi("+5", 10), "5");
        assert_eq!(
            pi("- 5", 10),
            "ERR invalid literal for int() with base 10: '- 5'"
        );
        assert_eq!(pi("", 10), "ERR invalid literal for int() with base 10: ''");
        assert_eq!(
            pi("  ", 10),
            "ERR invalid literal for int() with base 10: '  '"
        );
        assert_eq!(
            pi("x", 10),
            "ERR invalid literal for int() with base 10: 'x'"
        );
        assert_eq!(
            pi(" x ", 10),
            "ERR invalid literal for int() with base 10: ' x '"
        );
        assert_eq!(pi("1_000", 10), "1000");
        assert_eq!(
            pi("1__0", 10),
            "ERR invalid literal for int() with base 10: '1__0'"
        );
        assert_eq!(
            pi("_1", 10),
            "ERR invalid literal for int() with base 10: '_1'"
        );
        assert_eq!(
            pi("1_", 10),
            "ERR invalid literal for int() with base 10: '1_'"
        );
        assert_eq!(
            pi("010", 0),
            "ERR invalid literal for int() with base 0: '010'"
        );
        assert_eq!(pi("0", 0), "0");
        assert_eq!(pi("00", 0), "0");
        assert_eq!(pi("0_0", 0), "0");
        assert_eq!(
            pi("0_7", 0),
            "ERR invalid literal for int() with base 0: '0_7'"
        );
        assert_eq!(
            pi("0_", 0),
            "ERR invalid literal for int() with base 0: '0_'"
        );
        assert_eq!(pi("0x_ff", 0), "255");
        assert_eq!(pi("0x_ff", 16), "255");
        assert_eq!(pi("ff", 16), "255");
        assert_eq!(pi("FF", 16), "255");
        assert_eq!(pi("0xff", 16), "255");
        assert_eq!(pi("0b101", 0), "5");
        assert_eq!(pi("0o17", 0), "15");
        assert_eq!(pi("0O17", 0), "15");
        assert_eq!(pi("0B1", 2), "1");
        assert_eq!(
            pi("0b", 2),
            "ERR invalid literal for int() with base 2: '0b'"
        );
        assert_eq!(
            pi("0x", 16),
            "ERR invalid literal for int() with base 16: '0x'"
        );
        assert_eq!(
            pi("0x", 0),
            "ERR invalid literal for int() with base 0: '0x'"
        );
        assert_eq!(pi("07", 8), "7");
        assert_eq!(pi("0o7", 8), "7");
        assert_eq!(pi("z", 36), "35");
        assert_eq!(pi("Z", 36), "35");
        assert_eq!(pi("12", 0), "12");
        assert_eq!(pi("12", 1), "ERR int() base must be >= 2 and <= 36, or 0");
        assert_eq!(pi("12", 37), "ERR int() base must be >= 2 and <= 36, or 0");
        assert_eq!(pi("9", 8), "ERR invalid literal for int() with base 8: '9'");
        assert_eq!(
            pi("1e5", 10),
            "ERR invalid literal for int() with base 10: '1e5'"
        );
        assert_eq!(
            pi("1.5", 10),
            "ERR invalid literal for int() with base 10: '1.5'"
        );
        assert_eq!(pi("\u{661}\u{662}", 10), "12");
        assert_eq!(pi("\u{ff11}\u{ff12}", 10), "12");
        assert_eq!(pi("1\u{a0}", 10), "1");
        assert_eq!(
            pi("\u{9}\u{a} 7\u{1c}", 10),
            "ERR invalid literal for int() with base 10: '\\t\\n 7\\x1c'"
        );
        assert_eq!(
            pi("\u{e9}", 10),
            "ERR invalid literal for int() with base 10: '\u{e9}'"
        );
        assert_eq!(pi("9223372036854775807", 10), "9223372036854775807");
        assert_eq!(pi("-9223372036854775808", 10), "-9223372036854775808");
        assert_eq!(pi("0x7fffffffffffffff", 0), "9223372036854775807");
        assert_eq!(pi("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 10), "ERR invalid literal for int() with base 10: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
        assert_eq!(pi("9223372036854775808", 10), "OVERFLOW");
        assert_eq!(pi("-9223372036854775809", 10), "OVERFLOW");
        assert_eq!(
            pi("1111111111111111111111111111111111111111", 10),
            "OVERFLOW"
        );
        assert_eq!(pi("0x10000000000000000", 0), "OVERFLOW");
    }

    #[test]
    fn str_repr_matches_cpython() {
        assert_eq!(str_repr(""), "''");
        assert_eq!(str_repr("abc"), "'abc'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("say \"hi\""), "'say \"hi\"'");
        assert_eq!(str_repr("both ' and \""), "'both \\' and \"'");
        assert_eq!(str_repr("tab\u{9}here"), "'tab\\there'");
        assert_eq!(str_repr("new\u{a}line"), "'new\\nline'");
        assert_eq!(str_repr("cr\u{d}"), "'cr\\r'");
        assert_eq!(str_repr("back\\slash"), "'back\\\\slash'");
        assert_eq!(str_repr("\u{0}\u{1}\u{1f}\u{7f}"), "'\\x00\\x01\\x1f\\x7f'");
        assert_eq!(str_repr("\u{e9}"), "'\u{e9}'");
        assert_eq!(
            str_repr("\u{65e5}\u{672c}\u{8a9e}"),
            "'\u{65e5}\u{672c}\u{8a9e}'"
        );
        assert_eq!(str_repr("\u{a0}"), "'\\xa0'");
        assert_eq!(str_repr("\u{ad}"), "'\\xad'");
        assert_eq!(str_repr("\u{85}"), "'\\x85'");
        assert_eq!(str_repr("\u{2028}"), "'\\u2028'");
        assert_eq!(str_repr("\u{200b}"), "'\\u200b'");
        assert_eq!(str_repr("\u{feff}"), "'\\ufeff'");
        assert_eq!(str_repr("\u{e000}"), "'\\ue000'");
        assert_eq!(str_repr("\u{1f600}"), "'\u{1f600}'");
        assert_eq!(str_repr("\u{e0001}"), "'\\U000e0001'");
        assert_eq!(str_repr("\u{378}"), "'\\u0378'");
        assert_eq!(str_repr("\u{10ffff}"), "'\\U0010ffff'");
        assert_eq!(str_repr("\u{fc}\u{9f}"), "'\u{fc}\\x9f'");
        assert_eq!(str_repr("\u{3000}"), "'\\u3000'");
        assert_eq!(str_repr("\u{fffd}"), "'\u{fffd}'");
        assert_eq!(str_repr("a\u{301}"), "'a\u{301}'");
        assert_eq!(str_ascii("abc"), "'abc'");
        assert_eq!(str_ascii("\u{e9}"), "'\\xe9'");
        assert_eq!(str_ascii("\u{65e5}\u{672c}"), "'\\u65e5\\u672c'");
        assert_eq!(str_ascii("\u{1f600}"), "'\\U0001f600'");
        assert_eq!(str_ascii("it's"), "\"it's\"");
    }

    #[test]
    fn float_to_int_matches_cpython() {
        assert_eq!(fti(3.9), "3");
        assert_eq!(fti(-3.9), "-3");
        assert_eq!(fti(0.0), "0");
        assert_eq!(fti(-0.0), "0");
        assert_eq!(fti(1e+18), "1000000000000000000");
        assert_eq!(fti(-9.223372036854776e+18), "-9223372036854775808");
        assert_eq!(
            fti(f64::INFINITY),
            "ERR cannot convert float infinity to integer"
        );
        assert_eq!(
            fti(f64::NEG_INFINITY),
            "ERR cannot convert float infinity to integer"
        );
        assert_eq!(fti(f64::NAN), "ERR cannot convert float NaN to integer");
        assert_eq!(fti(9.3e18), "OVERFLOW");
        assert_eq!(fti(1e300), "OVERFLOW");
    }
}

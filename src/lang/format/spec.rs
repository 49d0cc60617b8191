//! The `format()` mini-language: parsing a spec and laying out ints, floats and strings
//! (Python/formatter_unicode.c).
use super::*;

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

pub(super) fn is_align(c: char) -> bool {
    matches!(c, '<' | '>' | '=' | '^')
}

/// `'%c'` in CPython messages is only used for printable ASCII; anything else is `\x..`.
pub(super) fn code_display(c: char) -> String {
    let cp = c as u32;
    if cp > 32 && cp < 128 {
        c.to_string()
    } else {
        format!("\\x{cp:x}")
    }
}

pub(super) fn unknown_code(c: char, type_name: &str) -> String {
    format!(
        "Unknown format code '{}' for object of type '{}'",
        code_display(c),
        type_name
    )
}

/// formatter_unicode.c's `get_integer`: decimal digits (any script) from `pos`.
pub(super) fn spec_integer(chars: &[char], pos: &mut usize) -> Result<Option<usize>, String> {
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
pub(super) fn insert_grouping(digits: &[u8], min_width: i64, group: Option<(i64, char)>) -> String {
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
pub(super) struct NumberParts<'a> {
    negative: bool,
    prefix: &'a str,
    digits: &'a str,
    has_decimal: bool,
    remainder: &'a str,
    grouping: Option<(i64, char)>,
}

pub(super) fn check_width(spec: &FormatSpec) -> Result<i64, String> {
    match spec.width {
        Some(w) if w > MAX_FIELD => Err("width too big".to_string()),
        Some(w) => Ok(w as i64),
        None => Ok(-1),
    }
}

/// `calc_number_widths` + `fill_number`:
/// `<lpad><sign><prefix><spad><grouped digits><.><remainder><rpad>`.
pub(super) fn layout_number(p: &NumberParts, spec: &FormatSpec) -> Result<String, String> {
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

pub(super) fn push_n(out: &mut String, c: char, n: i64) {
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
pub(super) fn float_internal(x: f64, spec: &FormatSpec) -> Result<String, String> {
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

/// An int's decimal text (`str(n)`, `repr(n)`, `f'{n}'`), written into `buf`: a digit loop,
/// several times cheaper than `fmt`'s machinery on the interpreter's hot paths.
pub fn int_text(n: i64, buf: &mut [u8; 20]) -> &str {
    let mut pos = buf.len();
    let mut u = n.unsigned_abs();
    loop {
        pos -= 1;
        buf[pos] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if n < 0 {
        pos -= 1;
        buf[pos] = b'-';
    }
    // SAFETY: only ASCII digits and '-' were written (u64::MAX has 20 digits, |i64::MIN| 19).
    unsafe { std::str::from_utf8_unchecked(&buf[pos..]) }
}

/// `int.__format__(spec)`: `format(x, spec)` / `f'{x:spec}'` for an int.
pub fn int_format(x: i64, spec: &str) -> Result<String, String> {
    if spec.is_empty() {
        return Ok(int_text(x, &mut [0; 20]).to_string());
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

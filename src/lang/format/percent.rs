//! `%`-formatting (Objects/unicodeobject.c's PyUnicode_Format).
use super::*;

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
pub(super) fn parse_percent_spec(chars: &[char], i: &mut usize) -> Result<PercentSpec, String> {
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
pub(super) fn percent_output(text: &str, spec: &PercentSpec, numeric: bool) -> String {
    // A plain `%d`/`%s`/`%f` (no width, flags or truncating precision) is its text as it is.
    let truncates = matches!(spec.conv, 's' | 'r' | 'a') && spec.precision.value().is_some();
    if spec.width.value().is_none() && !truncates && !(spec.plus || spec.space || spec.alt) {
        return text.to_owned();
    }
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

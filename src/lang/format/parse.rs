//! `round`, `float(str)` and `int(str, base)` (Objects/floatobject.c, Objects/longobject.c).
use super::*;

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
pub(super) fn increment_decimal(d: &mut Vec<u8>) {
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
pub(super) fn to_ascii_number_text(s: &str) -> Option<String> {
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
pub(super) fn c_isspace(c: char) -> bool {
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

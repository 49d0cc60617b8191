//! Floats to text: shortest repr and fixed/scientific/general digits (Python/pystrtod.c).
use super::*;
use std::fmt::Write as _;

// ---------------------------------------------------------------------------------------------
// Floats to text (PyOS_double_to_string)
// ---------------------------------------------------------------------------------------------

/// Splits Rust's `{:e}` output of a non-negative finite float into dtoa's (digits, decpt),
/// where value = 0.DIGITS × 10^decpt.
pub(super) fn split_sci(s: &str) -> (Vec<u8>, i64) {
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
pub(super) fn shortest_digits(x: f64) -> (Vec<u8>, i64) {
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
pub(super) fn sig_digits(x: f64, ndigits: usize) -> (Vec<u8>, i64) {
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
pub(super) fn layout_digits(
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
pub(super) struct DtoaFlags {
    pub(super) add_dot_0: bool,
    pub(super) alt: bool,
    pub(super) no_neg_0: bool,
}

/// `ax` (not negative) in fixed notation with `precision` places when `ax * 10^precision`
/// is an integer below 2^52 (`12.5` to two places, a price, a step count): those digits
/// are the answer. The product's rounding error is at most a quarter, so the exact product
/// rounds to the same integer: this is the correctly rounded result that `fmt`'s exact
/// mode (often its slow bignum fallback on such values) would give.
fn fixed_exact(ax: f64, precision: usize) -> Option<String> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let y = ax * *POW10.get(precision)?;
    if !(y < (1u64 << 52) as f64 && y == y.trunc()) {
        return None;
    }
    let mut buf = [0u8; 20];
    let digits = super::spec::int_text(y as i64, &mut buf);
    // Leading zeros so that at least one digit stands before the point (`0.05`).
    let pad = (precision + 1).saturating_sub(digits.len());
    let mut out = String::with_capacity(pad + digits.len() + 1);
    out.extend(std::iter::repeat_n('0', pad));
    out.push_str(digits);
    if precision > 0 {
        out.insert(out.len() - precision, '.');
    }
    Some(out)
}

/// CPython's `PyOS_double_to_string(x, code, precision, flags)`.
pub(super) fn double_to_string_flags(
    x: f64,
    code: char,
    precision: usize,
    fl: DtoaFlags,
) -> String {
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
        let mut b = match fixed_exact(ax, precision) {
            Some(b) => b,
            None => format!("{ax:.*}", precision.min(1100)),
        };
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

#[cfg(test)]
mod fixed_tests {
    use super::fixed_exact;

    /// The fast path agrees with `fmt`'s exact mode wherever it answers, and answers for the
    /// values it is for.
    #[test]
    fn fixed_exact_matches_fmt() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut answered = 0;
        for k in 0..200_000u64 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = match k % 4 {
                0 => (k as f64) * 0.5,
                1 => (seed % 1_000_000) as f64 / 1000.0,
                2 => f64::from_bits(seed >> 2),
                _ => (seed % 4096) as f64 / 64.0,
            };
            if !x.is_finite() {
                continue;
            }
            for p in 0..17 {
                if let Some(s) = fixed_exact(x, p) {
                    assert_eq!(s, format!("{x:.p$}"), "{x} to {p} places");
                    answered += 1;
                }
            }
        }
        assert!(answered > 500_000, "{answered}");
        assert_eq!(fixed_exact(0.05, 2).as_deref(), Some("0.05"));
        assert_eq!(fixed_exact(0.0, 3).as_deref(), Some("0.000"));
        assert_eq!(fixed_exact(12.5, 0), None);
        assert_eq!(fixed_exact(0.125, 2), None);
    }
}

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
            (PercentKind::Char, A::I(c)) => match u32::try_from(c).ok().and_then(char::from_u32) {
                Some(ch) => percent_str(&ch.to_string(), &spec),
                None => return format!("ERR {C_ARG_RANGE_MSG}"),
            },
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

#[test]
fn int_text_matches_rust_display() {
    for n in [
        0,
        7,
        -7,
        10,
        -10,
        1234567890,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
    ] {
        assert_eq!(int_text(n, &mut [0; 20]), n.to_string());
    }
}

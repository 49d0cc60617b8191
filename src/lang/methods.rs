//! Methods of the builtin types (`str.split`, `list.append`, `dict.items`, ...).
use super::builtins::{arity, check_kwargs, kwarg, norm_index, sort_values, to_index};
use super::error::{index_error, type_error, value_error, ExcKind, PyErr, PyResult};
use super::format;
use super::interp::generator::Generator;
use super::interp::Interp;
use super::value::*;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

type M = (NativeFn, &'static str);

fn this_str(v: &Value) -> PyStr {
    match v {
        Value::Str(s) => s.clone(),
        _ => PyStr::from(""),
    }
}
// A builtin type's method is only ever bound to a value of that type; the empty fallbacks
// (made once per thread) keep a wrong binding from panicking. A borrow, not a clone: no
// reference-count round trip per call.
fn this_list(v: &Value) -> &Rc<RefCell<Vec<Value>>> {
    thread_local!(static NONE: &'static Rc<RefCell<Vec<Value>>> = Box::leak(Box::default()));
    match v {
        Value::List(l) => l,
        _ => NONE.with(|n| *n),
    }
}
fn this_dict(v: &Value) -> &Rc<RefCell<DictMap>> {
    thread_local!(static NONE: &'static Rc<RefCell<DictMap>> = Box::leak(Box::default()));
    match v {
        Value::Dict(d) => d,
        _ => NONE.with(|n| *n),
    }
}
fn this_set(v: &Value) -> &Rc<RefCell<SetMap>> {
    thread_local!(static NONE: &'static Rc<RefCell<SetMap>> = Box::leak(Box::default()));
    match v {
        Value::Set(s) | Value::FrozenSet(s) => s,
        _ => NONE.with(|n| *n),
    }
}

fn str_arg(v: Option<&Value>, what: &str) -> PyResult<Option<PyStr>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.clone())),
        Some(other) => Err(type_error(format!(
            "{what}must be str or None, not {}",
            other.type_name()
        ))),
    }
}

fn py_strip<'a>(s: &'a str, chars: Option<&str>, left: bool, right: bool) -> &'a str {
    let pred = |c: char| match chars {
        Some(cs) => cs.contains(c),
        None => format::py_isspace(c),
    };
    let mut r = s;
    if left {
        r = r.trim_start_matches(pred);
    }
    if right {
        r = r.trim_end_matches(pred);
    }
    r
}

/// `str.splitlines`: Python's line boundaries are `\r\n` and each of `\n \r \x0b \x0c \x1c
/// \x1d \x1e \x85 \u2028 \u2029` (Rust's `lines()` knows only the first two).
fn split_lines(s: &str, keepends: bool) -> Vec<Value> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((k, c)) = chars.next() {
        let end = match c {
            '\r' if matches!(chars.peek(), Some((_, '\n'))) => {
                chars.next();
                k + 2
            }
            '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}'
            | '\u{2029}' => k + c.len_utf8(),
            _ => continue,
        };
        out.push(Value::str(&s[start..if keepends { end } else { k }]));
        start = end;
    }
    if start < s.len() {
        out.push(Value::str(&s[start..]));
    }
    out
}

/// `str.split()` with no separator: runs of Python whitespace (`str.isspace`) separate.
fn split_ws(s: &str, maxsplit: i64) -> Vec<Value> {
    let mut out = Vec::new();
    let mut rest = s.trim_start_matches(format::py_isspace);
    while !rest.is_empty() {
        if maxsplit >= 0 && out.len() as i64 >= maxsplit {
            out.push(Value::str(rest));
            return out;
        }
        let end = rest.find(format::py_isspace).unwrap_or(rest.len());
        out.push(Value::str(&rest[..end]));
        rest = rest[end..].trim_start_matches(format::py_isspace);
    }
    out
}

/// Slice bounds for str.find/count (start, end) in characters → byte range.
fn char_range(s: &str, a: &Args, from: usize) -> PyResult<(usize, usize)> {
    let n = s.chars().count() as i64;
    let clamp = |v: Option<&Value>, d: i64| -> PyResult<i64> {
        Ok(match v {
            None | Some(Value::None) => d,
            Some(x) => {
                let i = to_index(x)?;
                if i < 0 {
                    (i + n).max(0)
                } else {
                    i.min(n)
                }
            }
        })
    };
    let st = clamp(a.pos.get(from), 0)?;
    let en = clamp(a.pos.get(from + 1), n)?;
    let byte = |k: i64| s.char_indices().nth(k as usize).map_or(s.len(), |(b, _)| b);
    Ok((byte(st), byte(en.max(st))))
}

fn str_method(name: &str) -> Option<M> {
    let f: NativeFn = match name {
        "upper" => |_, t, _| Ok(Value::from(this_str(t).to_uppercase())),
        "lower" => |_, t, _| Ok(Value::from(this_str(t).to_lowercase())),
        "strip" => |_, t, a| {
            let s = this_str(t);
            let c = str_arg(a.pos.first(), "strip arg ")?;
            Ok(Value::str(py_strip(&s, c.as_deref(), true, true)))
        },
        "lstrip" => |_, t, a| {
            let s = this_str(t);
            let c = str_arg(a.pos.first(), "lstrip arg ")?;
            Ok(Value::str(py_strip(&s, c.as_deref(), true, false)))
        },
        "rstrip" => |_, t, a| {
            let s = this_str(t);
            let c = str_arg(a.pos.first(), "rstrip arg ")?;
            Ok(Value::str(py_strip(&s, c.as_deref(), false, true)))
        },
        "split" | "rsplit" => |_, t, a| {
            let s = this_str(t);
            let sep = str_arg(a.pos.first().or(kwarg(&a, "sep").as_ref()), "")?;
            let maxsplit = match a.pos.get(1).cloned().or(kwarg(&a, "maxsplit")) {
                Some(v) => to_index(&v)?,
                None => -1,
            };
            match sep {
                None => Ok(Value::list(split_ws(&s, maxsplit))),
                Some(sep) => {
                    if sep.is_empty() {
                        return Err(value_error("empty separator"));
                    }
                    let parts: Vec<Value> = if maxsplit < 0 {
                        s.split(&*sep).map(Value::str).collect()
                    } else {
                        s.splitn(maxsplit as usize + 1, &*sep)
                            .map(Value::str)
                            .collect()
                    };
                    Ok(Value::list(parts))
                }
            }
        },
        "splitlines" => |i, t, a| {
            check_kwargs("splitlines", &a, &["keepends"])?;
            if a.pos.len() > 1 {
                return Err(type_error(format!(
                    "splitlines() takes at most 1 argument ({} given)",
                    a.pos.len()
                )));
            }
            let keep = match a.pos.first().cloned().or(kwarg(&a, "keepends")) {
                Some(k) => i.truthy(&k)?,
                None => false,
            };
            Ok(Value::list(split_lines(&this_str(t), keep)))
        },
        "join" => |i, t, a| {
            arity("str.join", &a, 1, 1)?;
            let sep = this_str(t);
            // A list or tuple is read in place (no Python code runs while it is joined).
            match &a.pos[0] {
                Value::List(l) => join_strs(&sep, &l.borrow()),
                Value::Tuple(items) => join_strs(&sep, items),
                other => {
                    let items = i.collect(other)?;
                    join_strs(&sep, &items)
                }
            }
        },
        "replace" => |_, t, a| {
            arity("replace", &a, 2, 3)?;
            let s = this_str(t);
            let (Value::Str(old), Value::Str(new)) = (&a.pos[0], &a.pos[1]) else {
                return Err(type_error("replace() argument must be str"));
            };
            Ok(Value::from(match a.pos.get(2) {
                Some(c) if to_index(c)? >= 0 => s.replacen(&**old, new, to_index(c)? as usize),
                _ => s.replace(&**old, new),
            }))
        },
        "find" | "index" | "rfind" | "rindex" | "count" => return None,
        "format" => |i, t, a| {
            let s = this_str(t);
            str_format(i, &s, &a)
        },
        "center" | "ljust" | "rjust" => return None,
        "zfill" => |_, t, a| {
            arity("zfill", &a, 1, 1)?;
            let s = this_str(t);
            let w = to_index(&a.pos[0])?;
            check_str_size(w)?;
            Ok(Value::from(zfill(&s, w)))
        },
        "partition" | "rpartition" => return None,
        _ => return str_class_method(name).map(|f| (f, leak_name(name))),
    };
    Some((f, leak_name(name)))
}

/// The str methods that test or change character classes (`isdigit`, `title`, `swapcase`...).
fn str_class_method(name: &str) -> Option<NativeFn> {
    let f: NativeFn = match name {
        "isdigit" | "isdecimal" | "isnumeric" => |_, t, _| {
            let s = this_str(t);
            Ok(Value::bool(
                !s.is_empty() && s.chars().all(|c| c.is_numeric()),
            ))
        },
        "isalpha" => |_, t, _| {
            let s = this_str(t);
            Ok(Value::bool(
                !s.is_empty() && s.chars().all(char::is_alphabetic),
            ))
        },
        "isalnum" => |_, t, _| {
            let s = this_str(t);
            Ok(Value::bool(
                !s.is_empty() && s.chars().all(char::is_alphanumeric),
            ))
        },
        "isspace" => |_, t, _| {
            let s = this_str(t);
            Ok(Value::bool(
                !s.is_empty() && s.chars().all(format::py_isspace),
            ))
        },
        "isupper" => |_, t, _| {
            let s = this_str(t);
            Ok(Value::bool(
                s.chars().any(char::is_uppercase) && !s.chars().any(char::is_lowercase),
            ))
        },
        "islower" => |_, t, _| {
            let s = this_str(t);
            Ok(Value::bool(
                s.chars().any(char::is_lowercase) && !s.chars().any(char::is_uppercase),
            ))
        },
        "title" => |_, t, _| {
            let s = this_str(t);
            let mut out = String::new();
            let mut prev_cased = false;
            for c in s.chars() {
                if prev_cased {
                    out.extend(c.to_lowercase());
                } else {
                    out.extend(c.to_uppercase());
                }
                prev_cased = c.is_alphabetic();
            }
            Ok(Value::from(out))
        },
        "capitalize" => |_, t, _| {
            let s = this_str(t);
            let mut cs = s.chars();
            Ok(Value::from(match cs.next() {
                Some(c) => c
                    .to_uppercase()
                    .chain(cs.flat_map(|c| c.to_lowercase()))
                    .collect::<String>(),
                None => String::new(),
            }))
        },
        "swapcase" => |_, t, _| {
            let s = this_str(t);
            Ok(Value::from(
                s.chars()
                    .flat_map(|c| {
                        if c.is_uppercase() {
                            c.to_lowercase().collect::<Vec<_>>()
                        } else {
                            c.to_uppercase().collect::<Vec<_>>()
                        }
                    })
                    .collect::<String>(),
            ))
        },
        _ => return None,
    };
    Some(f)
}

fn leak_name(name: &str) -> &'static str {
    // Method names come from a fixed set; map to the static spelling.
    STR_NAMES
        .iter()
        .chain(LIST_NAMES)
        .chain(DICT_NAMES)
        .chain(SET_NAMES)
        .chain(TUPLE_NAMES)
        .copied()
        .find(|n| *n == name)
        .unwrap_or("method")
}

/// Strings past this many characters raise MemoryError instead of exhausting the machine.
pub const MAX_STR: i64 = 1 << 28;

fn check_str_size(n: i64) -> PyResult<()> {
    if n > MAX_STR {
        return Err(PyErr::new(ExcKind::MemoryError, ""));
    }
    Ok(())
}

fn zfill(s: &str, w: i64) -> String {
    let n = s.chars().count() as i64;
    if w <= n {
        return s.to_string();
    }
    let pad = "0".repeat((w - n) as usize);
    match s.chars().next() {
        Some(c @ ('+' | '-')) => format!("{c}{pad}{}", &s[1..]),
        _ => format!("{pad}{s}"),
    }
}

fn str_find(t: &Value, a: &Args, name: &str) -> PyResult<Value> {
    arity(name, a, 1, 3)?;
    let s = this_str(t);
    let Value::Str(sub) = &a.pos[0] else {
        return Err(type_error(format!(
            "must be str, not {}",
            a.pos[0].type_name()
        )));
    };
    let (b, e) = char_range(&s, a, 1)?;
    let hay = &s[b..e];
    let to_chars = |byte: usize| s[..b + byte].chars().count() as i64;
    Ok(Value::Int(match name {
        "count" => {
            if sub.is_empty() {
                hay.chars().count() as i64 + 1
            } else {
                hay.matches(&**sub).count() as i64
            }
        }
        "find" | "index" => match hay.find(&**sub) {
            Some(p) => to_chars(p),
            None if name == "index" => return Err(value_error("substring not found")),
            None => -1,
        },
        _ => match hay.rfind(&**sub) {
            Some(p) => to_chars(p),
            None if name == "rindex" => return Err(value_error("substring not found")),
            None => -1,
        },
    }))
}

fn str_pad(t: &Value, a: &Args, name: &str) -> PyResult<Value> {
    arity(name, a, 1, 2)?;
    let s = this_str(t);
    let w = to_index(&a.pos[0])?;
    let fill = match a.pos.get(1) {
        Some(Value::Str(f)) if f.chars().count() == 1 => f.chars().next().unwrap_or(' '),
        Some(_) => {
            return Err(type_error(
                "The fill character must be exactly one character long",
            ))
        }
        None => ' ',
    };
    let n = s.chars().count() as i64;
    if w <= n {
        return Ok(Value::Str(s));
    }
    check_str_size(w)?;
    let total = (w - n) as usize;
    let (l, r) = match name {
        "ljust" => (0, total),
        "rjust" => (total, 0),
        // CPython's center puts the odd space on the left when the width is odd.
        _ => {
            let left = total / 2 + (total & w as usize & 1);
            (left, total - left)
        }
    };
    let f = |k: usize| std::iter::repeat_n(fill, k).collect::<String>();
    Ok(Value::from(format!("{}{s}{}", f(l), f(r))))
}

fn str_partition(t: &Value, a: &Args, rev: bool) -> PyResult<Value> {
    arity("partition", a, 1, 1)?;
    let s = this_str(t);
    let Value::Str(sep) = &a.pos[0] else {
        return Err(type_error(format!(
            "must be str, not {}",
            a.pos[0].type_name()
        )));
    };
    if sep.is_empty() {
        return Err(value_error("empty separator"));
    }
    let found = if rev { s.rfind(&**sep) } else { s.find(&**sep) };
    Ok(Value::tuple(match found {
        Some(p) => vec![
            Value::str(&s[..p]),
            Value::Str(sep.clone()),
            Value::str(&s[p + sep.len()..]),
        ],
        None if rev => vec![Value::str(""), Value::str(""), Value::Str(s)],
        None => vec![Value::Str(s), Value::str(""), Value::str("")],
    }))
}

fn starts_ends(t: &Value, a: &Args, ends: bool) -> PyResult<Value> {
    let fname = if ends { "endswith" } else { "startswith" };
    arity(fname, a, 1, 3)?;
    let s = this_str(t);
    let (b, e) = char_range(&s, a, 1)?;
    let sub = &s[b..e];
    let check = |p: &Value| match p {
        Value::Str(p) => Ok(if ends {
            sub.ends_with(&**p)
        } else {
            sub.starts_with(&**p)
        }),
        other => Err(type_error(format!(
            "{fname} first arg must be str or a tuple of str, not {}",
            other.type_name()
        ))),
    };
    match &a.pos[0] {
        Value::Tuple(ps) => {
            for p in ps.iter() {
                if check(p)? {
                    return Ok(Value::Bool(PyBool::True));
                }
            }
            Ok(Value::Bool(PyBool::False))
        }
        p => Ok(Value::bool(check(p)?)),
    }
}

/// `str.format`.
pub fn str_format(i: &mut Interp, template: &str, a: &Args) -> PyResult<Value> {
    let pieces = parsed_template(template);
    let mut out = String::with_capacity(template.len() + 8 * a.pos.len());
    for p in pieces.iter() {
        match p {
            format::FmtPiece::Literal(s) => out.push_str(s),
            format::FmtPiece::Field(f) => {
                // `{}` of an int or str: written straight into the result.
                if let (format::FieldArg::Index(k), true) = (&f.arg, plain_field(f)) {
                    match a.pos.get(*k) {
                        Some(Value::Int(n)) => {
                            out.push_str(format::int_text(*n, &mut [0; 20]));
                            continue;
                        }
                        Some(Value::Str(s)) => {
                            out.push_str(s);
                            continue;
                        }
                        _ => {}
                    }
                }
                out.push_str(&format_field(i, f, a)?)
            }
            format::FmtPiece::Error(e) => return Err(value_error(e.clone())),
        }
    }
    Ok(Value::from(out))
}

/// A field with no attribute or item steps, conversion or spec.
fn plain_field(f: &format::FmtField) -> bool {
    f.path.is_empty() && f.path_error.is_none() && f.conversion.is_none() && f.spec.is_empty()
}

/// A `str.format` template, parsed.
type Parsed = Rc<Vec<format::FmtPiece>>;

thread_local! {
    /// The templates `str.format` parsed last (a loop formats with the same few).
    static TEMPLATES: RefCell<Vec<(PyStr, Parsed)>> = const { RefCell::new(Vec::new()) };
}

fn parsed_template(template: &str) -> Parsed {
    if let Some(p) = TEMPLATES.with(|c| {
        c.borrow()
            .iter()
            .find(|(t, _)| &**t == template)
            .map(|(_, p)| p.clone())
    }) {
        return p;
    }
    let p = Rc::new(format::parse_format_string(template));
    TEMPLATES.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 8 {
            c.remove(0);
        }
        c.push((PyStr::from(template), p.clone()));
    });
    p
}

fn format_field(i: &mut Interp, f: &format::FmtField, a: &Args) -> PyResult<String> {
    let mut v = match &f.arg {
        format::FieldArg::Index(k) => a.pos.get(*k).cloned().ok_or_else(|| {
            index_error(format!(
                "Replacement index {k} out of range for positional args tuple"
            ))
        })?,
        format::FieldArg::Name(n) => {
            kwarg(a, n).ok_or_else(|| PyErr::with_args(ExcKind::KeyError, vec![Value::str(n)]))?
        }
    };
    for step in &f.path {
        v = match step {
            format::FieldAccess::Attr(n) => i.get_attr(&v, super::symbol::Sym::new(n))?,
            format::FieldAccess::Index(k) => i.get_item(&v, &Value::Int(*k as i64))?,
            format::FieldAccess::Key(k) => i.get_item(&v, &Value::str(k))?,
        };
    }
    if let Some(e) = &f.path_error {
        return Err(value_error(e.clone()));
    }
    let mut spec = String::new();
    for p in &f.spec {
        match p {
            format::FmtPiece::Literal(s) => spec.push_str(s),
            format::FmtPiece::Field(inner) => spec.push_str(&format_field(i, inner, a)?),
            format::FmtPiece::Error(e) => return Err(value_error(e.clone())),
        }
    }
    let v = match f.conversion {
        Some('r') | Some('a') => Value::from(i.repr(&v)?),
        Some('s') => Value::from(i.to_str(&v)?),
        Some(c) => return Err(value_error(format::conversion_error(c))),
        None => v,
    };
    i.format_value(&v, &spec)
}

/// The fast form of a few hot builtin methods (as CPython's METH_O and METH_FASTCALL): the
/// positional arguments as a slice, no `Args` to build, copy and drop, no arity check. It
/// gives `None`, having touched nothing, when the call is not its common form (another
/// arity, an index out of range or not an int): the call then goes the full way
/// (`list_method` and the rest), which raises Python's errors. An argument it keeps is
/// moved out of the slice.
pub type FastFn = fn(&mut Interp, &Value, &mut [Value]) -> Option<PyResult<Value>>;

pub fn fast_method(obj: &Value, name: &str) -> Option<FastFn> {
    Some(match (obj, name) {
        (Value::List(_), "append") => |_, t, a| match a {
            [x] => {
                this_list(t)
                    .borrow_mut()
                    .push(std::mem::replace(x, Value::None));
                Some(Ok(Value::None))
            }
            _ => None,
        },
        (Value::List(_), "pop") => |_, t, a| {
            let l = this_list(t);
            let n = l.borrow().len();
            let k = match a {
                [] if n > 0 => n - 1,
                [Value::Int(k)] => norm_index(*k, n, "pop").ok()?,
                _ => return None,
            };
            let v = l.borrow_mut().remove(k);
            Some(Ok(v))
        },
        (Value::List(_), "insert") => |_, t, a| match a {
            [Value::Int(k), x] => {
                list_insert(t, *k, std::mem::replace(x, Value::None));
                Some(Ok(Value::None))
            }
            _ => None,
        },
        (Value::Set(_), "add") => |i, t, a| match a {
            [x] => Some(set_add(i, t, std::mem::replace(x, Value::None))),
            _ => None,
        },
        (Value::Dict(_), "get") => |i, t, a| match a {
            [k] => Some(
                i.dict_lookup(this_dict(t), k)
                    .map(|v| v.unwrap_or(Value::None)),
            ),
            [k, d] => Some(
                i.dict_lookup(this_dict(t), k)
                    .map(|v| v.unwrap_or_else(|| std::mem::replace(d, Value::None))),
            ),
            _ => None,
        },
        _ => return None,
    })
}

/// `xs.insert(k, v)`: a `k` out of range puts `v` at the nearer end, as Python does.
fn list_insert(t: &Value, k: i64, v: Value) {
    let l = this_list(t);
    let n = l.borrow().len() as i64;
    let k = if k < 0 { (k + n).max(0) } else { k }.min(n);
    l.borrow_mut().insert(k as usize, v);
}

/// `s.add(v)`.
fn set_add(i: &mut Interp, t: &Value, v: Value) -> PyResult<Value> {
    let s = this_set(t);
    let k = i.key_in(v, s)?;
    s.borrow_mut().insert(k);
    Ok(Value::None)
}

fn list_method(name: &str) -> Option<NativeFn> {
    Some(match name {
        "append" => |_, t, a| {
            arity("list.append", &a, 1, 1)?;
            this_list(t).borrow_mut().push(a.pos[0].clone());
            Ok(Value::None)
        },
        "extend" => |i, t, a| {
            arity("list.extend", &a, 1, 1)?;
            let items = i.collect(&a.pos[0])?;
            this_list(t).borrow_mut().extend(items);
            Ok(Value::None)
        },
        "insert" => |_, t, a| {
            arity("insert", &a, 2, 2)?;
            let k = to_index(&a.pos[0])?;
            list_insert(t, k, a.pos.into_iter().nth(1).unwrap_or(Value::None));
            Ok(Value::None)
        },
        "pop" => |_, t, a| {
            arity("pop", &a, 0, 1)?;
            let l = this_list(t);
            let n = l.borrow().len();
            if n == 0 {
                return Err(index_error("pop from empty list"));
            }
            let k = match a.pos.first() {
                Some(v) => norm_index(to_index(v)?, n, "pop")
                    .map_err(|_| index_error("pop index out of range"))?,
                None => n - 1,
            };
            let v = l.borrow_mut().remove(k);
            Ok(v)
        },
        "remove" => |i, t, a| {
            arity("list.remove", &a, 1, 1)?;
            let l = this_list(t);
            let items = l.borrow().clone();
            for (k, x) in items.iter().enumerate() {
                if x.is(&a.pos[0]) || i.eq(x, &a.pos[0])? {
                    l.borrow_mut().remove(k);
                    return Ok(Value::None);
                }
            }
            Err(value_error("list.remove(x): x not in list"))
        },
        "index" => |i, t, a| {
            arity("index", &a, 1, 3)?;
            let items = this_list(t).borrow().clone();
            for (k, x) in items.iter().enumerate() {
                if x.is(&a.pos[0]) || i.eq(x, &a.pos[0])? {
                    return Ok(Value::Int(k as i64));
                }
            }
            let r = i.repr(&a.pos[0])?;
            Err(value_error(format!("{r} is not in list")))
        },
        "count" => |i, t, a| {
            arity("list.count", &a, 1, 1)?;
            let items = this_list(t).borrow().clone();
            let mut c = 0;
            for x in &items {
                if x.is(&a.pos[0]) || i.eq(x, &a.pos[0])? {
                    c += 1;
                }
            }
            Ok(Value::Int(c))
        },
        "sort" => |i, t, a| {
            if !a.pos.is_empty() {
                return Err(type_error("sort() takes no positional arguments"));
            }
            let key = kwarg(&a, "key").filter(|k| !matches!(k, Value::None));
            let reverse = match kwarg(&a, "reverse") {
                Some(r) => i.truthy(&r)?,
                None => false,
            };
            let l = this_list(t);
            let mut items = l.borrow().clone();
            sort_values(i, &mut items, key.as_ref(), reverse)?;
            *l.borrow_mut() = items;
            Ok(Value::None)
        },
        "reverse" => |_, t, _| {
            this_list(t).borrow_mut().reverse();
            Ok(Value::None)
        },
        "copy" => |_, t, _| Ok(Value::list(this_list(t).borrow().clone())),
        "clear" => |_, t, _| {
            this_list(t).borrow_mut().clear();
            Ok(Value::None)
        },
        _ => return None,
    })
}

fn dict_method(name: &str) -> Option<NativeFn> {
    Some(match name {
        "get" => |i, t, a| {
            arity("get", &a, 1, 2)?;
            let found = i.dict_lookup(this_dict(t), &a.pos[0])?;
            // (The default is moved out of the arguments, not cloned.)
            Ok(found.unwrap_or_else(|| a.pos.into_iter().nth(1).unwrap_or(Value::None)))
        },
        "keys" => |_, t, _| Ok(dict_view(t, DictPart::Keys)),
        "values" => |_, t, _| Ok(dict_view(t, DictPart::Values)),
        "items" => |_, t, _| Ok(dict_view(t, DictPart::Items)),
        "pop" => |i, t, a| {
            arity("pop", &a, 1, 2)?;
            let k = i.key_in(a.pos[0].clone(), this_dict(t))?;
            match this_dict(t).borrow_mut().shift_remove(&k) {
                Some(v) => Ok(v),
                None => a
                    .pos
                    .get(1)
                    .cloned()
                    .ok_or_else(|| PyErr::with_args(ExcKind::KeyError, vec![a.pos[0].clone()])),
            }
        },
        "popitem" => |_, t, _| match this_dict(t).borrow_mut().pop() {
            Some((k, v)) => Ok(Value::tuple(vec![k.0, v])),
            None => Err(PyErr::new(
                ExcKind::KeyError,
                "popitem(): dictionary is empty",
            )),
        },
        "setdefault" => |i, t, a| {
            arity("setdefault", &a, 1, 2)?;
            let d = this_dict(t);
            let k = i.key_in(a.pos[0].clone(), d)?;
            let mut d = d.borrow_mut();
            Ok(
                d.get_or_insert_with(k, || a.pos.get(1).cloned().unwrap_or(Value::None))
                    .clone(),
            )
        },
        "update" => |i, t, a| {
            let d = this_dict(t);
            if let Some(other) = a.pos.first() {
                let built =
                    super::builtins::construct(i, TypeTag::Dict, Args::of([other.clone()]))?;
                if let Value::Dict(o) = built {
                    i.merge_dict(d, &o)?;
                }
            }
            for (k, v) in a.kw {
                super::interp::dict_insert_pub(&mut d.borrow_mut(), Key(Value::Str(k.as_str())), v);
            }
            Ok(Value::None)
        },
        "copy" => |_, t, _| {
            Ok(Value::Dict(Rc::new(RefCell::new(
                this_dict(t).borrow().clone(),
            ))))
        },
        "clear" => |_, t, _| {
            this_dict(t).borrow_mut().clear();
            Ok(Value::None)
        },
        _ => return None,
    })
}

fn set_method(name: &str) -> Option<NativeFn> {
    Some(match name {
        "add" => |i, t, a| {
            arity("set.add", &a, 1, 1)?;
            set_add(i, t, a.pos.into_iter().next().unwrap_or(Value::None))
        },
        "remove" => |i, t, a| {
            arity("set.remove", &a, 1, 1)?;
            let s = this_set(t);
            let k = i.key_in(a.pos[0].clone(), s)?;
            if s.borrow_mut().shift_remove(&k) {
                Ok(Value::None)
            } else {
                Err(PyErr::with_args(ExcKind::KeyError, vec![a.pos[0].clone()]))
            }
        },
        "discard" => |i, t, a| {
            arity("set.discard", &a, 1, 1)?;
            let s = this_set(t);
            let k = i.key_in(a.pos[0].clone(), s)?;
            s.borrow_mut().shift_remove(&k);
            Ok(Value::None)
        },
        "pop" => |_, t, _| match this_set(t).borrow_mut().shift_remove_index(0) {
            Some(k) => Ok(k.0),
            None => Err(PyErr::new(ExcKind::KeyError, "pop from an empty set")),
        },
        "union" => |i, t, a| set_combine(i, t, a, 0),
        // The `_update` forms store the result in the set itself.
        "update" => |i, t, a| set_update(i, t, a, 0),
        "intersection_update" => |i, t, a| set_update(i, t, a, 1),
        "difference_update" => |i, t, a| set_update(i, t, a, 2),
        "symmetric_difference_update" => |i, t, a| set_update(i, t, a, 3),
        "intersection" => |i, t, a| set_combine(i, t, a, 1),
        "difference" => |i, t, a| set_combine(i, t, a, 2),
        "symmetric_difference" => |i, t, a| set_combine(i, t, a, 3),
        "issubset" => |i, t, a| {
            let other = set_of(i, a.pos.first())?;
            Ok(Value::bool(
                this_set(t).borrow().iter().all(|k| other.contains(k)),
            ))
        },
        "isdisjoint" => |i, t, a| {
            let name = match t {
                Value::FrozenSet(_) => "frozenset.isdisjoint",
                _ => "set.isdisjoint",
            };
            arity(name, &a, 1, 1)?;
            let other = set_of(i, a.pos.first())?;
            let s = this_set(t);
            let s = s.borrow();
            Ok(Value::bool(!other.iter().any(|k| s.contains(k))))
        },
        "issuperset" => |i, t, a| {
            let other = set_of(i, a.pos.first())?;
            let s = this_set(t);
            let s = s.borrow();
            Ok(Value::bool(other.iter().all(|k| s.contains(k))))
        },
        "copy" => |_, t, _| {
            Ok(Value::Set(Rc::new(RefCell::new(
                this_set(t).borrow().clone(),
            ))))
        },
        "clear" => |_, t, _| {
            this_set(t).borrow_mut().clear();
            Ok(Value::None)
        },
        _ => return None,
    })
}

fn set_of(i: &mut Interp, v: Option<&Value>) -> PyResult<SetMap> {
    let items = i.collect(v.unwrap_or(&Value::None))?;
    let mut s = SetMap::default();
    for x in items {
        let k = i.key_in_local(x, &s)?;
        s.insert(k);
    }
    Ok(s)
}

fn set_update(i: &mut Interp, t: &Value, a: Args, mode: u8) -> PyResult<Value> {
    if let Value::Set(s) = set_combine(i, t, a, mode)? {
        let combined = s.borrow().clone();
        *this_set(t).borrow_mut() = combined;
    }
    Ok(Value::None)
}

fn set_combine(i: &mut Interp, t: &Value, a: Args, mode: u8) -> PyResult<Value> {
    let mut acc = this_set(t).borrow().clone();
    for other in &a.pos {
        let mut o = set_of(i, Some(other))?;
        // Elements equal by a user `__eq__` become the ones `acc` already holds.
        if o.iter().any(|k| needs_user_eq(&k.0)) {
            let mut same = SetMap::default();
            for k in o {
                let k = i.key_in_local(k.0, &acc)?;
                same.insert(k);
            }
            o = same;
        }
        acc = match mode {
            0 => acc.into_iter().chain(o).collect(),
            1 => acc.into_iter().filter(|k| o.contains(k)).collect(),
            2 => acc.into_iter().filter(|k| !o.contains(k)).collect(),
            _ => {
                let left: SetMap = acc.iter().filter(|k| !o.contains(*k)).cloned().collect();
                left.into_iter()
                    .chain(o.into_iter().filter(|k| !acc.contains(k)))
                    .collect()
            }
        };
    }
    Ok(if matches!(t, Value::FrozenSet(_)) {
        Value::FrozenSet(Rc::new(RefCell::new(acc)))
    } else {
        Value::Set(Rc::new(RefCell::new(acc)))
    })
}

/// A frozenset's methods: the set methods that make a new set (of the frozenset's type)
/// or answer a question; `copy` is the frozenset itself.
fn frozenset_method(name: &str) -> Option<NativeFn> {
    match name {
        "copy" => Some(|_, t, _| Ok(t.clone())),
        _ if FROZENSET_NAMES.contains(&name) => set_method(name),
        _ => None,
    }
}

fn tuple_method(name: &str) -> Option<NativeFn> {
    Some(match name {
        "index" => |i, t, a| {
            arity("index", &a, 1, 3)?;
            let items = i.collect(t)?;
            for (k, x) in items.iter().enumerate() {
                if x.is(&a.pos[0]) || i.eq(x, &a.pos[0])? {
                    return Ok(Value::Int(k as i64));
                }
            }
            Err(value_error("tuple.index(x): x not in tuple"))
        },
        "count" => |i, t, a| {
            arity("tuple.count", &a, 1, 1)?;
            let items = i.collect(t)?;
            let mut c = 0;
            for x in &items {
                if x.is(&a.pos[0]) || i.eq(x, &a.pos[0])? {
                    c += 1;
                }
            }
            Ok(Value::Int(c))
        },
        _ => return None,
    })
}

const STR_NAMES: &[&str] = &[
    "capitalize",
    "center",
    "count",
    "endswith",
    "find",
    "format",
    "index",
    "isalnum",
    "isalpha",
    "isdecimal",
    "isdigit",
    "islower",
    "isnumeric",
    "isspace",
    "isupper",
    "join",
    "ljust",
    "lower",
    "lstrip",
    "partition",
    "replace",
    "rfind",
    "rindex",
    "rjust",
    "rpartition",
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "swapcase",
    "title",
    "upper",
    "zfill",
];
const LIST_NAMES: &[&str] = &[
    "append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove", "reverse",
    "sort",
];
const DICT_NAMES: &[&str] = &[
    "clear",
    "copy",
    "get",
    "items",
    "keys",
    "pop",
    "popitem",
    "setdefault",
    "update",
    "values",
];
const SET_NAMES: &[&str] = &[
    "add",
    "clear",
    "copy",
    "difference",
    "difference_update",
    "discard",
    "intersection",
    "intersection_update",
    "isdisjoint",
    "issubset",
    "issuperset",
    "pop",
    "remove",
    "symmetric_difference",
    "symmetric_difference_update",
    "union",
    "update",
];
const FROZENSET_NAMES: &[&str] = &[
    "copy",
    "difference",
    "intersection",
    "isdisjoint",
    "issubset",
    "issuperset",
    "symmetric_difference",
    "union",
];
const TUPLE_NAMES: &[&str] = &["count", "index"];
const INT_NAMES: &[&str] = &[
    "bit_length",
    "conjugate",
    "denominator",
    "imag",
    "numerator",
    "real",
];
const FLOAT_NAMES: &[&str] = &["conjugate", "imag", "is_integer", "real"];

/// The method `name` of a builtin-typed value, if it has one.
pub fn method(obj: &Value, name: &str) -> Option<M> {
    let f: NativeFn = match obj {
        Value::Str(_) => match name {
            "find" => |_, t, a| str_find(t, &a, "find"),
            "index" => |_, t, a| str_find(t, &a, "index"),
            "rfind" => |_, t, a| str_find(t, &a, "rfind"),
            "rindex" => |_, t, a| str_find(t, &a, "rindex"),
            "count" => |_, t, a| str_find(t, &a, "count"),
            "center" => |_, t, a| str_pad(t, &a, "center"),
            "ljust" => |_, t, a| str_pad(t, &a, "ljust"),
            "rjust" => |_, t, a| str_pad(t, &a, "rjust"),
            "partition" => |_, t, a| str_partition(t, &a, false),
            "rpartition" => |_, t, a| str_partition(t, &a, true),
            "startswith" => |_, t, a| starts_ends(t, &a, false),
            "endswith" => |_, t, a| starts_ends(t, &a, true),
            "rsplit" => |_, t, a| {
                let s = this_str(t);
                let sep = str_arg(a.pos.first().or(kwarg(&a, "sep").as_ref()), "")?;
                let maxsplit = match a.pos.get(1).cloned().or(kwarg(&a, "maxsplit")) {
                    Some(v) => to_index(&v)?,
                    None => -1,
                };
                let mut parts: Vec<Value> = match sep {
                    None => {
                        let rev: String = s.chars().rev().collect();
                        let mut p = split_ws(&rev, maxsplit);
                        for v in p.iter_mut() {
                            if let Value::Str(x) = v {
                                *v = Value::from(x.chars().rev().collect::<String>());
                            }
                        }
                        p
                    }
                    Some(sep) if maxsplit < 0 => s.rsplit(&*sep).map(Value::str).collect(),
                    Some(sep) => s
                        .rsplitn(maxsplit as usize + 1, &*sep)
                        .map(Value::str)
                        .collect(),
                };
                parts.reverse();
                Ok(Value::list(parts))
            },
            _ => return str_method(name),
        },
        Value::List(_) => list_method(name)?,
        Value::Dict(_) => dict_method(name)?,
        Value::Set(_) => set_method(name)?,
        Value::FrozenSet(_) => frozenset_method(name)?,
        Value::Tuple(_) => tuple_method(name)?,
        Value::Int(_) | Value::Bool(_) => match name {
            "bit_length" => |_, t, _| {
                Ok(Value::Int(
                    64 - t.as_int().unwrap_or(0).unsigned_abs().leading_zeros() as i64,
                ))
            },
            "conjugate" => |_, t, _| Ok(Value::Int(t.as_int().unwrap_or(0))),
            _ => return None,
        },
        Value::Float(_) => match name {
            "is_integer" => |_, t, _| {
                Ok(Value::bool(
                    matches!(t, Value::Float(f) if f.get().fract() == 0.0),
                ))
            },
            "conjugate" => |_, t, _| Ok(t.clone()),
            _ => return None,
        },
        Value::Iter(it) => iter_method(&it.borrow(), name)?,
        _ => return None,
    };
    Some((f, leak_name(name)))
}

/// The generator inside an iterator value, if it is one.
fn as_gen(v: &Value) -> Option<Rc<Generator>> {
    match v {
        Value::Iter(it) => match &*it.borrow() {
            Iter::Gen(g) => Some(g.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Methods of iterators: `__next__` and `__iter__`, and a generator's `send`, `throw`, `close`.
fn iter_method(it: &Iter, name: &str) -> Option<NativeFn> {
    let is_gen = matches!(it, Iter::Gen(_));
    let f: NativeFn = match name {
        "__iter__" => |_, t, _| Ok(t.clone()),
        "__next__" => |i, t, _| match as_gen(t) {
            Some(g) => i.gen_send(&g, Ok(Value::None)),
            None => match i.next(t)? {
                Some(v) => Ok(v),
                None => Err(PyErr::with_args(ExcKind::StopIteration, Vec::new())),
            },
        },
        "send" if is_gen => |i, t, a| {
            if a.pos.len() != 1 || !a.kw.is_empty() {
                return Err(type_error(format!(
                    "generator.send() takes exactly one argument ({} given)",
                    a.pos.len() + a.kw.len()
                )));
            }
            let g = as_gen(t).ok_or_else(|| type_error("send() needs a generator"))?;
            i.gen_send(&g, Ok(a.pos[0].clone()))
        },
        "throw" if is_gen => |i, t, a| {
            let Some(exc) = a.pos.first() else {
                return Err(type_error(
                    "throw expected at least 1 argument, got 0".to_string(),
                ));
            };
            let g = as_gen(t).ok_or_else(|| type_error("throw() needs a generator"))?;
            i.gen_throw(&g, exc)
        },
        "close" if is_gen => |i, t, _| {
            let g = as_gen(t).ok_or_else(|| type_error("close() needs a generator"))?;
            i.gen_close(&g)
        },
        _ => return None,
    };
    Some(f)
}

pub fn method_names(obj: &Value) -> &'static [&'static str] {
    match obj {
        Value::Str(_) => STR_NAMES,
        Value::List(_) => LIST_NAMES,
        Value::Dict(_) => DICT_NAMES,
        Value::Set(_) => SET_NAMES,
        Value::FrozenSet(_) => FROZENSET_NAMES,
        Value::Tuple(_) => TUPLE_NAMES,
        Value::Int(_) | Value::Bool(_) => INT_NAMES,
        Value::Float(_) => FLOAT_NAMES,
        _ => &[],
    }
}

/// Data attributes of builtin values (`(3).real`, `range(5).stop`, `slice.start`).
pub fn value_attr(_i: &mut Interp, obj: &Value, name: &str) -> Option<Value> {
    match (obj, name) {
        (Value::Int(_) | Value::Bool(_), "real" | "numerator") => obj.as_int().map(Value::Int),
        (Value::Int(_) | Value::Bool(_), "imag") => Some(Value::Int(0)),
        (Value::Int(_) | Value::Bool(_), "denominator") => Some(Value::Int(1)),
        (Value::Float(_), "real") => Some(obj.clone()),
        (Value::Float(_), "imag") => Some(Value::float(0.0)),
        (Value::Range(r), "start") => Some(Value::Int(r.start)),
        (Value::Range(r), "stop") => Some(Value::Int(r.stop)),
        (Value::Range(r), "step") => Some(Value::Int(r.step)),
        (Value::Slice(s), "start") => Some(s[0].clone()),
        (Value::Slice(s), "stop") => Some(s[1].clone()),
        (Value::Slice(s), "step") => Some(s[2].clone()),
        (Value::Builtin(b), "__name__") => Some(Value::str(b.name)),
        (Value::Builtin(b), "__qualname__") => Some(Value::str(b.name)),
        _ => None,
    }
}

/// `dict.keys()` / `values()` / `items()`: live views of the dict.
struct DictView {
    dict: Rc<RefCell<DictMap>>,
    part: DictPart,
}

fn dict_view(t: &Value, part: DictPart) -> Value {
    Value::Native(NativeRc::new(DictView {
        dict: this_dict(t).clone(),
        part,
    }))
}

impl DictView {
    fn items(&self) -> Vec<Value> {
        self.dict
            .borrow()
            .iter()
            .map(|(k, v)| match self.part {
                DictPart::Keys => k.0.clone(),
                DictPart::Values => v.clone(),
                DictPart::Items => Value::tuple(vec![k.0.clone(), v.clone()]),
            })
            .collect()
    }
}

impl Native for DictView {
    fn type_name(&self) -> &str {
        match self.part {
            DictPart::Keys => "dict_keys",
            DictPart::Values => "dict_values",
            DictPart::Items => "dict_items",
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, i: &mut Interp) -> PyResult<String> {
        let inner = i.repr(&Value::list(self.items()))?;
        Ok(format!("{}({inner})", self.type_name()))
    }
    fn len(&self, _i: &mut Interp) -> PyResult<Option<usize>> {
        Ok(Some(self.dict.borrow().len()))
    }
    fn iter(&self, _this: &Value, _i: &mut Interp) -> PyResult<Option<Value>> {
        Ok(Some(Value::Iter(Rc::new(RefCell::new(Iter::over_dict(
            &self.dict, self.part,
        ))))))
    }
    fn hashable(&self) -> bool {
        false
    }
    fn eq(&self, _this: &Value, other: &Value, i: &mut Interp) -> PyResult<Option<Value>> {
        if let Value::Native(n) = other {
            if let Some(o) = n.as_any().downcast_ref::<DictView>() {
                let (a, b) = (Value::list(self.items()), Value::list(o.items()));
                if self.part == DictPart::Values {
                    return Ok(Some(Value::Bool(PyBool::False)));
                }
                let sa = super::builtins::construct(i, TypeTag::Set, Args::of([a]))?;
                let sb = super::builtins::construct(i, TypeTag::Set, Args::of([b]))?;
                return Ok(Some(Value::bool(i.eq(&sa, &sb)?)));
            }
        }
        Ok(Some(Value::Bool(PyBool::False)))
    }
    fn get_attr(
        &self,
        _this: &Value,
        name: super::symbol::Sym,
        _i: &mut Interp,
    ) -> PyResult<Option<Value>> {
        let _ = name;
        Ok(None)
    }
}

/// `sep.join(items)`: the length is summed first, so the text is copied once, as CPython's.
fn join_strs(sep: &str, items: &[Value]) -> PyResult<Value> {
    let mut len = sep.len() * items.len().saturating_sub(1);
    for (k, v) in items.iter().enumerate() {
        match super::interp::unwrap_builtin(v) {
            Value::Str(s) => len += s.len(),
            other => {
                return Err(type_error(format!(
                    "sequence item {k}: expected str instance, {} found",
                    other.type_name()
                )))
            }
        }
    }
    let mut out = String::with_capacity(len);
    for (k, v) in items.iter().enumerate() {
        if let Value::Str(s) = super::interp::unwrap_builtin(v) {
            if k > 0 {
                out.push_str(sep);
            }
            out.push_str(s);
        }
    }
    Ok(Value::from(out))
}

//! Parsing `str.format` strings into literal text and fields (Objects/stringlib/unicode_format.h).
use super::*;

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
pub(super) enum AutoState {
    Init,
    Auto,
    Manual,
}

pub(super) struct AutoNumber {
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
pub(super) fn parse_markup(chars: &[char], depth: i32, auto: &mut AutoNumber) -> Vec<FmtPiece> {
    let mut pieces = Vec::new();
    if let Err(e) = parse_markup_into(chars, depth, auto, &mut pieces) {
        pieces.push(FmtPiece::Error(e));
    }
    pieces
}

pub(super) fn parse_markup_into(
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

pub(super) fn flush_literal(pieces: &mut Vec<FmtPiece>, lit: &mut String) {
    if !lit.is_empty() {
        pieces.push(FmtPiece::Literal(std::mem::take(lit)));
    }
}

/// `parse_field`, then the parts of `get_field_object`/`output_markup` that need no values.
pub(super) fn parse_field(
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
pub(super) fn field_integer(s: &[char]) -> Result<Option<usize>, String> {
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
pub(super) fn split_field_name(
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
pub(super) fn field_path(
    name: &[char],
    mut i: usize,
    path: &mut Vec<FieldAccess>,
) -> Result<(), String> {
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

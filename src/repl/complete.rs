//! Tab completion: names in scope, keywords, `:` commands, and the attributes of the object
//! before a dot. The object is found by looking names up, never by running code: only a plain
//! dotted name (`model.fc`) is followed, and attribute lookup reads dictionaries directly so no
//! property, `__getattr__` or call can run while the user presses Tab.
use crate::lang::lexer::is_keyword;
use crate::lang::symbol::Sym;
use crate::lang::value::PyStr;
use crate::lang::value::Value;
use crate::lang::Interp;

/// Keywords as Python's rlcompleter completes them (`try:`, `import `, `None`).
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

fn keyword_completion(k: &str) -> String {
    match k {
        "finally" | "try" => format!("{k}:"),
        "False" | "None" | "True" | "break" | "continue" | "pass" | "else" => k.to_string(),
        _ => format!("{k} "),
    }
}

/// The REPL's `:` commands, for completing them too.
pub const COMMANDS: &[&str] = &[":help", ":vars", ":time ", ":reset", ":quit"];

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c == '_' || c.is_alphabetic()) && cs.all(is_ident_char)
}

/// Completions for the text before the cursor: the byte offset where the replaced word starts,
/// and the replacements.
pub fn complete(interp: &mut Interp, line: &str, pos: usize) -> (usize, Vec<String>) {
    let pos = floor_char_boundary(line, pos);
    let before = &line[..pos];
    if before.trim().is_empty() {
        // Tab at the start of a line indents, as in Python's REPL.
        return (pos, vec!["    ".to_string()]);
    }
    if before.trim_start().starts_with(':') && !before.trim_start().contains(' ') {
        let start = before.len() - before.trim_start().len();
        let word = &before[start..];
        let found = COMMANDS
            .iter()
            .filter(|c| c.starts_with(word))
            .map(|c| c.to_string())
            .collect();
        return (start, found);
    }
    if in_string_or_comment(before) {
        return (pos, Vec::new());
    }
    // The dotted word before the cursor: `xs.app`, `torch.nn.Lin`, `pri`.
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_ident_char(c) || c == '.')
        .last()
        .map_or(pos, |(i, _)| i);
    let word = &before[start..];
    match word.rfind('.') {
        None => (start, names(interp, word)),
        Some(dot) => {
            let base = &word[..dot];
            let partial = &word[dot + 1..];
            let found = match lookup_dotted(interp, base) {
                Some(obj) => attributes(interp, &obj, partial),
                None => Vec::new(),
            };
            (start + dot + 1, found)
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Whether the cursor sits inside a string or a comment (nothing to complete there).
fn in_string_or_comment(before: &str) -> bool {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in before.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '#' => return true,
            None if c == '"' || c == '\'' => quote = Some(c),
            None => {}
        }
    }
    quote.is_some()
}

fn hidden(name: &str, partial: &str) -> bool {
    if partial.starts_with("__") {
        false
    } else if partial.starts_with('_') {
        name.starts_with("__")
    } else {
        name.starts_with('_')
    }
}

/// What Python's `callable()` says (rlcompleter adds `(` to exactly these).
fn callable(v: &Value) -> bool {
    match v {
        Value::Func(_) | Value::Builtin(_) | Value::Method(_) | Value::Class(_) => true,
        Value::Instance(i) => i.class.lookup(Sym::new("__call__")).is_some(),
        Value::Native(n) => n.callable() || is_native_callable(v),
        _ => false,
    }
}

/// Keywords, globals and builtins starting with `partial`; callables get `(`.
fn names(interp: &Interp, partial: &str) -> Vec<String> {
    let mut out: Vec<String> = KEYWORDS
        .iter()
        .filter(|k| k.starts_with(partial))
        .map(|k| keyword_completion(k))
        .collect();
    let scopes = [
        (interp.global_names(), true),
        (interp.builtin_names(), false),
    ];
    for (syms, global) in scopes {
        for s in syms {
            let name = s.as_str();
            if !name.starts_with(partial) || hidden(&name, partial) || is_keyword(&name).is_some() {
                continue;
            }
            let value = if global {
                interp.get_global(s)
            } else {
                interp.builtins.get(s.index()).and_then(|v| v.as_ref())
            };
            out.push(match value {
                Some(v) if callable(v) => format!("{name}("),
                _ => name.to_string(),
            });
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The value of a plain dotted name (`a`, `a.b.c`), found without running any code.
fn lookup_dotted(interp: &mut Interp, base: &str) -> Option<Value> {
    let mut parts = base.split('.');
    let first = parts.next()?;
    if !is_ident(first) || is_keyword(first).is_some() {
        return None;
    }
    let sym = Sym::lookup(first)?;
    let mut v = interp
        .get_global(sym)
        .or_else(|| interp.builtins.get(sym.index()).and_then(|v| v.as_ref()))?
        .clone();
    for part in parts {
        if !is_ident(part) {
            return None;
        }
        v = peek_attr(interp, &v, part)?;
    }
    Some(v)
}

/// An attribute read straight from the object's dictionaries (or a Rust-implemented object's
/// own lookup): never a property, `__getattr__` or other Python code.
fn peek_attr(interp: &mut Interp, obj: &Value, name: &str) -> Option<Value> {
    let sym = Sym::lookup(name)?;
    match obj {
        Value::Instance(i) => {
            let own = i.dict.borrow().get(&sym).cloned();
            own.or_else(|| i.class.lookup(sym))
        }
        Value::Class(c) => c.lookup(sym),
        Value::Module(m) => m.attrs.borrow().get(&sym).cloned(),
        Value::Native(n) => n.get_attr(obj, sym, interp).ok().flatten(),
        _ => None,
    }
}

/// Attributes of `obj` starting with `partial`; methods get `(`.
fn attributes(interp: &mut Interp, obj: &Value, partial: &str) -> Vec<String> {
    let names: Vec<PyStr> = interp.dir(obj);
    let mut out = Vec::new();
    for name in names {
        if !name.starts_with(partial) || hidden(&name, partial) {
            continue;
        }
        let is_callable = match obj {
            Value::Instance(_) | Value::Class(_) | Value::Module(_) | Value::Native(_) => {
                peek_attr(interp, obj, &name).is_some_and(|v| callable(&v))
            }
            // Builtin values list their methods only.
            _ => crate::lang::methods::method_names(obj).contains(&&*name),
        };
        out.push(if is_callable {
            format!("{name}(")
        } else {
            name.to_string()
        });
    }
    out
}

/// Rust-implemented bound methods show up as natives whose type name says so.
fn is_native_callable(v: &Value) -> bool {
    match v {
        Value::Native(n) => {
            let t = n.type_name();
            t.contains("method") || t.contains("function")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Source;

    fn interp_with(code: &str) -> Interp {
        let mut i = Interp::new();
        i.out = crate::lang::interp::Output::Capture(String::new());
        i.run(Source::new("<test>", code), false).unwrap();
        i
    }

    #[test]
    fn completes_names_keywords_and_builtins() {
        let mut i = interp_with("counter = 1\ndef compute(): pass\n");
        assert_eq!(complete(&mut i, "pri", 3), (0, vec!["print(".to_string()]));
        let (_, got) = complete(&mut i, "x = co", 6);
        assert!(got.contains(&"counter".to_string()), "{got:?}");
        assert!(got.contains(&"compute(".to_string()), "{got:?}");
        assert!(got.contains(&"continue".to_string()), "{got:?}");
        assert_eq!(complete(&mut i, "whi", 3).1, vec!["while ".to_string()]);
        assert_eq!(complete(&mut i, "    ", 4), (4, vec!["    ".to_string()]));
        assert_eq!(complete(&mut i, ":va", 3), (0, vec![":vars".to_string()]));
        assert!(complete(&mut i, "print('pri", 10).1.is_empty());
    }

    #[test]
    fn completes_attributes_of_plain_dotted_names() {
        let mut i = interp_with(
            "xs = [1]\nclass P:\n    def __init__(self):\n        self.inner = [2]\n    def go(self): pass\np = P()\n",
        );
        assert_eq!(
            complete(&mut i, "xs.app", 6),
            (3, vec!["append(".to_string()])
        );
        assert_eq!(
            complete(&mut i, "p.inner.app", 11).1,
            vec!["append(".to_string()]
        );
        let (_, got) = complete(&mut i, "p.", 2);
        assert_eq!(got, vec!["go(".to_string(), "inner".to_string()]);
        // Calls are never evaluated during completion.
        assert!(complete(&mut i, "P().g", 5).1.is_empty());
        assert!(complete(&mut i, "nothing.x", 9).1.is_empty());
    }

    #[test]
    fn odd_cursor_positions_do_not_panic() {
        let mut i = interp_with("");
        for (line, pos) in [
            ("é", 1),
            ("", 5),
            ("a.", 2),
            (".", 1),
            ("..x", 3),
            ("1.re", 4),
        ] {
            let _ = complete(&mut i, line, pos);
        }
    }
}

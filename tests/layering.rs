//! The engine's layers depend one way: `lang` (and the rest of the crate) → `tensor` (with its
//! autograd) → `backend` → `core`. This reads every file under `src/core`, `src/backend` and
//! `src/tensor`, finds each path into the crate (`crate::x`, `$crate::x`, `crate::{x, y}`, a
//! `super::` chain that climbs to the crate root, `crate::m!` for an exported macro) and fails
//! on any that names a higher layer.
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Each checked layer and the top-level modules it may name.
const LAYERS: &[(&str, &[&str])] = &[
    ("core", &["core"]),
    ("backend", &["core", "backend"]),
    ("tensor", &["core", "backend", "tensor"]),
];

/// Every top-level module of the crate, from `src/lib.rs`.
fn top_modules(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("pub mod ")
                .or(l.trim().strip_prefix("mod "))
        })
        .map(|m| m.trim_end_matches(';').trim().to_string())
        .collect()
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code without comments and string literals (whose text may mention any path).
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'"' && (i == 0 || b[i - 1] != b'\'') {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn ident_at(s: &str) -> Option<&str> {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// The first segment of each path of a `{a, b::c, d::{e}}` group.
fn group_heads(s: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let (mut depth, mut start) = (0, 1);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                if let Some(id) = ident_at(&s[start..i]) {
                    heads.push(id.to_string());
                }
                start = i + 1;
                if c == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    heads
}

/// The module path of a file under `src/` (`src/a/b.rs` and `src/a/b/mod.rs` are `[a, b]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut p: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if p.last().is_some_and(|l| l == "mod" || l == "lib") {
        p.pop();
    }
    p
}

/// Each top-level item a file's code names through the crate root: `(line, name)`. `macros`
/// maps an exported macro (`crate::with_buffer!`) to the module that defines it.
fn crate_refs(
    code: &str,
    module: &[String],
    macros: &HashMap<String, String>,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for name in rooted_refs(line, macros)
            .into_iter()
            .chain(super_refs(line, module))
        {
            out.push((n + 1, name));
        }
    }
    out
}

/// Whether the character before a match continues an identifier or path (`notcrate::`).
fn glued(before: Option<char>) -> bool {
    before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
}

/// The heads of `crate::x`, `$crate::x`, `crate::{x, y}` and `crate::m!` paths on one line.
fn rooted_refs(line: &str, macros: &HashMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(k) = rest.find("crate") {
        let before = rest[..k].chars().last();
        let after = rest[k + 5..].trim_start();
        rest = &rest[k + 5..];
        let Some(path) = after.strip_prefix("::").filter(|_| !glued(before)) else {
            continue;
        };
        let path = path.trim_start();
        if path.starts_with('{') {
            out.extend(group_heads(path));
        } else if let Some(id) = ident_at(path) {
            let is_macro = path[id.len()..].trim_start().starts_with('!');
            out.push(match macros.get(id) {
                Some(m) if is_macro => m.clone(),
                _ => id.to_string(),
            });
        }
    }
    out
}

/// The item after a `super::super::...` chain long enough to climb from `module` to the crate
/// root (an inline `mod tests` is one level deeper, so this errs towards reporting).
fn super_refs(line: &str, module: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(k) = rest.find("super::") {
        let before = rest[..k].chars().last();
        let mut t = &rest[k..];
        rest = &rest[k + 7..];
        if glued(before) {
            continue;
        }
        let mut ups = 0;
        while let Some(r) = t.strip_prefix("super::") {
            ups += 1;
            t = r.trim_start();
        }
        if ups >= module.len() {
            out.extend(ident_at(t).map(str::to_string));
        }
    }
    out
}

/// The macros exported at the crate root, each with the top-level module defining it.
fn exported_macros(src: &Path, files: &[PathBuf]) -> HashMap<String, String> {
    let mut m = HashMap::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let module = module_path(src, f);
        let mut exported = false;
        for line in text.lines() {
            let l = line.trim();
            if l.starts_with("#[macro_export]") {
                exported = true;
            } else if let Some(r) = l.strip_prefix("macro_rules!") {
                if exported {
                    if let (Some(id), Some(top)) = (ident_at(r), module.first()) {
                        m.insert(id.to_string(), top.clone());
                    }
                }
                exported = false;
            }
        }
    }
    m
}

/// Every reference from a checked layer to a module above it: `file:line: layer -> name`.
fn upward_refs(src: &Path) -> Vec<String> {
    let tops = top_modules(src);
    let mut all = Vec::new();
    rs_files(src, &mut all);
    let macros = exported_macros(src, &all);
    let mut bad = Vec::new();
    for (layer, allowed) in LAYERS {
        let mut files = Vec::new();
        rs_files(&src.join(layer), &mut files);
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let module = module_path(src, &f);
            for (line, name) in crate_refs(&code_of(&text), &module, &macros) {
                if tops.contains(&name) && !allowed.contains(&name.as_str()) {
                    bad.push(format!("{}:{line}: {layer} -> {name}", f.display()));
                }
            }
        }
    }
    bad
}

#[test]
fn no_layer_refers_to_a_higher_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = upward_refs(&src);
    assert!(
        bad.is_empty(),
        "{} upward reference(s):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_kind_of_path_is_seen() {
    let macros: HashMap<String, String> = [("with_buffer".to_string(), "core".to_string())].into();
    let core_file = ["core".to_string(), "shape".to_string()];
    let refs = |code: &str| -> Vec<String> {
        crate_refs(&code_of(code), &core_file, &macros)
            .into_iter()
            .map(|r| r.1)
            .collect()
    };
    assert_eq!(refs("use crate::tensor::Tensor;"), ["tensor"]);
    assert_eq!(
        refs("use crate::{backend::View, core::DType};"),
        ["backend", "core"]
    );
    assert_eq!(refs("use crate::{a::{b, c}, lang};"), ["a", "lang"]);
    assert_eq!(refs("let x = $crate::tensor::DType::F32;"), ["tensor"]);
    assert_eq!(refs("crate::with_buffer!(b, v, T => 1)"), ["core"]);
    assert_eq!(refs("use super::super::lang::Value;"), ["lang"]);
    assert!(refs("use super::error::Result;").is_empty());
    assert!(refs("// see crate::lang\nlet s = \"crate::lang\";").is_empty());
    assert!(refs("fn mycrate() {} let x = notcrate::y;").is_empty());
}

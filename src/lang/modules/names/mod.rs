//! Honest gaps: names that exist in PyTorch 2.15 or CPython 3.11 but not in cudalearn.
//!
//! `torch.txt` and `python.txt` list the real libraries' public names per namespace, generated
//! by `gen.py` from the libraries themselves; `hints.txt` says what to use instead, where
//! something exists. They are consulted only after cudalearn's own lookup has failed, so a name
//! that cudalearn gains (another module, an op added later) is found first and never reported.
//! A real name then raises `NotImplementedError: cudalearn does not implement torch.X yet`
//! instead of an `AttributeError` whose "Did you mean" would point at a different function.
use crate::lang::error::{ExcKind, PyErr};
use crate::lang::value::PyStr;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

const TORCH: &str = include_str!("torch.txt");
const PYTHON: &str = include_str!("python.txt");
const HINTS: &str = include_str!("hints.txt");

type Spaces = HashMap<&'static str, HashSet<&'static str>>;

fn spaces() -> &'static Spaces {
    static S: OnceLock<Spaces> = OnceLock::new();
    S.get_or_init(|| {
        let mut m: Spaces = HashMap::new();
        for text in [TORCH, PYTHON] {
            let mut cur: Option<&'static str> = None;
            for line in text.lines() {
                if line.starts_with('#') || line.is_empty() {
                    continue;
                }
                if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                    cur = Some(s);
                    m.entry(s).or_default();
                } else if let Some(s) = cur {
                    m.entry(s).or_default().insert(line);
                }
            }
        }
        m
    })
}

fn hints() -> &'static HashMap<&'static str, &'static str> {
    static H: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    H.get_or_init(|| {
        HINTS
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .collect()
    })
}

/// Whether the real library has `name` in namespace `space` (`torch`, `torch.Tensor`,
/// `builtins`, `builtins.str`, `math`, `stdlib-modules`, ...).
pub fn exists(space: &str, name: &str) -> bool {
    spaces().get(space).is_some_and(|s| s.contains(name))
}

/// The namespace cudalearn's module `module` stands for in the lists. Embedded modules name
/// themselves as PyTorch's files do (`torch.nn.modules.module`), so those map back.
fn space_of_module(module: &str) -> &str {
    match module {
        "torch.nn.modules.module" => "torch.nn.Module",
        _ => module,
    }
}

/// The error for `space.name` when the real library has it, else `None`.
pub fn missing(space: &str, name: &str) -> Option<PyErr> {
    let space = space_of_module(space);
    if !exists(space, name) {
        return None;
    }
    // `builtins.str.casefold` reads as `str.casefold`; a builtin function as just its name.
    let shown = match space {
        "builtins" => name.to_string(),
        _ => format!(
            "{}.{name}",
            space.strip_prefix("builtins.").unwrap_or(space)
        ),
    };
    let key = format!("{space}.{name}");
    let mut e = PyErr::new(
        ExcKind::NotImplementedError,
        format!("cudalearn does not implement {shown} yet"),
    )
    .hint(hint_for(&key, space));
    // Marks it as a failed lookup for `hasattr`/`getattr` (no "Did you mean": not a NameError).
    e.0.missing_name = Some(PyStr::from(name));
    Some(e)
}

/// `import name` of a standard-library module cudalearn does not have.
pub fn missing_module(name: &str) -> Option<PyErr> {
    let top = name.split('.').next().unwrap_or(name);
    let known = if top == "torch" {
        let (parent, last) = name.rsplit_once('.')?;
        exists(parent, last)
    } else {
        exists("stdlib-modules", top)
    };
    if !known {
        return None;
    }
    let key = format!("stdlib.{top}");
    let hint = hints().get(key.as_str()).map_or_else(
        || {
            if top == "torch" {
                "cudalearn has torch, torch.nn, torch.nn.functional, torch.optim, \
                 torch.utils.data, torch.cuda and torch.amp."
                    .to_string()
            } else {
                "cudalearn's Python has math, random, time, collections, itertools, functools, \
                 dataclasses and typing from the standard library."
                    .to_string()
            }
        },
        |h| h.to_string(),
    );
    Some(
        PyErr::new(
            ExcKind::NotImplementedError,
            format!("cudalearn does not implement the {name} module yet"),
        )
        .hint(hint),
    )
}

fn hint_for(key: &str, space: &str) -> String {
    if let Some(h) = hints().get(key) {
        return h.to_string();
    }
    match space {
        "torch.Tensor" => {
            "cudalearn has the tensor methods the course uses; dir(x) lists them.".to_string()
        }
        s if s.starts_with("torch") => {
            let module = match s {
                "torch.nn.Module" => "torch.nn",
                s if s.starts_with("torch.optim") => "torch.optim",
                s => s,
            };
            format!("cudalearn has the parts of PyTorch the course uses; dir({module}) lists them.")
        }
        s if s.starts_with("builtins") => {
            "cudalearn runs a subset of Python 3.11; the names it has work as in CPython."
                .to_string()
        }
        s => format!("cudalearn has part of the {s} module; dir({s}) lists it."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::error::Exc;
    use crate::lang::value::Value;

    fn msg(e: &PyErr) -> String {
        match &e.0.exc {
            Exc::Builtin(_, args) => match args.first() {
                Some(Value::Str(s)) => s.to_string(),
                _ => String::new(),
            },
            Exc::Object(_) => String::new(),
        }
    }

    #[test]
    fn lists_hold_the_real_libraries_names() {
        assert!(exists("torch", "sort"));
        assert!(exists("torch.Tensor", "masked_fill"));
        assert!(exists("torch.nn", "Conv2d"));
        assert!(exists("builtins", "memoryview"));
        assert!(exists("builtins.str", "casefold"));
        assert!(exists("stdlib-modules", "json"));
        assert!(!exists("torch", "sortt"));
        assert!(!exists("torch", "_C"));
    }

    #[test]
    fn a_real_name_is_not_implemented_with_a_hint() {
        let e = missing("torch.Tensor", "index_put_").unwrap();
        assert_eq!(e.kind(), Some(ExcKind::NotImplementedError));
        assert_eq!(
            msg(&e),
            "cudalearn does not implement torch.Tensor.index_put_ yet"
        );
        assert!(e.0.hint.as_deref().unwrap().contains("x[idx] = values"));
        let e = missing("builtins.str", "casefold").unwrap();
        assert_eq!(msg(&e), "cudalearn does not implement str.casefold yet");
        assert!(missing("torch", "no_such_thing").is_none());
        assert!(missing_module("json").is_some());
        assert!(missing_module("numpy").is_none());
    }

    #[test]
    fn every_hint_names_a_real_name() {
        for k in hints().keys() {
            let (space, name) = k.rsplit_once('.').unwrap();
            let ok = match space {
                "stdlib" => exists("stdlib-modules", name),
                _ => exists(space, name),
            };
            assert!(ok, "hint for {k}, which the real library lacks");
        }
    }
}

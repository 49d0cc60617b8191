//! `help(obj)`: a short page in pydoc's shape — what the object is and where it lives, its
//! signature, and one sentence about it. For the engine's functions and classes the signature
//! and sentence are PyTorch's and CPython's own (`modules/names/docs.txt`, generated from the
//! real docstrings by `modules/names/gen.py docs`); a function or class written by the learner
//! shows its own docstring.
use crate::lang::error::PyResult;
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

const DOCS: &str = include_str!("modules/names/docs.txt");

/// Qualified name → (signature, summary).
fn docs() -> &'static HashMap<&'static str, (&'static str, &'static str)> {
    static D: OnceLock<HashMap<&'static str, (&'static str, &'static str)>> = OnceLock::new();
    D.get_or_init(|| {
        DOCS.lines()
            .filter_map(|l| {
                let mut parts = l.splitn(3, '\t');
                Some((parts.next()?, (parts.next()?, parts.next().unwrap_or(""))))
            })
            .collect()
    })
}

/// What `help()` knows about one object.
struct Page {
    /// "built-in function", "class", "function", "method", "module".
    kind: &'static str,
    name: String,
    module: Option<String>,
    /// The key into `docs()` (`torch.tensor`, `torch.Tensor.view`, `builtins.len`).
    key: Option<String>,
    /// The object's own docstring (learners' functions and classes).
    own_doc: Option<String>,
    signature: Option<String>,
}

/// The text `help(v)` prints.
pub fn help_text(i: &mut Interp, v: &Value) -> PyResult<String> {
    let page = page_of(i, v)?;
    let mut out = format!("Help on {} {}", page.kind, page.name);
    if let Some(m) = &page.module {
        out.push_str(&format!(" in module {m}"));
    }
    out.push_str(":\n\n");
    let found = page.key.as_deref().and_then(|k| docs().get(k));
    let class_word = if page.kind == "class" { "class " } else { "" };
    match (found, &page.own_doc) {
        (_, Some(doc)) => {
            let sig = page.signature.clone().unwrap_or_else(|| page.name.clone());
            out.push_str(&format!("{class_word}{sig}\n"));
            for line in doc.trim().lines() {
                match line.trim() {
                    "" => out.push('\n'),
                    l => out.push_str(&format!("    {l}\n")),
                }
            }
        }
        (Some((sig, summary)), None) => {
            out.push_str(&format!("{class_word}{sig}\n"));
            if !summary.is_empty() {
                out.push_str(&format!("    {summary}\n"));
            }
        }
        (None, None) => {
            let sig = page.signature.clone().unwrap_or_else(|| page.name.clone());
            out.push_str(&format!("{class_word}{sig}\n"));
        }
    }
    if matches!(page.kind, "class" | "module") {
        let names: Vec<String> = i
            .dir(v)
            .iter()
            .filter(|n| !n.starts_with('_'))
            .map(|n| n.to_string())
            .collect();
        if !names.is_empty() {
            out.push_str(&format!("\n    attributes: {}\n", names.join(", ")));
        }
    }
    out.push('\n');
    Ok(out)
}

fn page_of(i: &mut Interp, v: &Value) -> PyResult<Page> {
    Ok(match v {
        Value::Builtin(b) => builtin_page(i, b),
        Value::Class(c) => class_page(i, c),
        Value::Func(f) => {
            // A method: found through its class (`torch.nn.Module.zero_grad`).
            let owner = f.class.borrow().as_ref().and_then(|w| w.upgrade());
            let (module, key) = match owner {
                Some(c) => {
                    let m = module_holding(i, &Value::Class(c.clone()))
                        .unwrap_or_else(|| c.module.to_string());
                    let key = format!("{m}.{}.{}", c.name, f.name);
                    (m, key)
                }
                None => {
                    let m = module_holding(i, v).unwrap_or_else(|| "__main__".to_string());
                    let key = format!("{m}.{}", f.name);
                    (m, key)
                }
            };
            let doc = match i.get_attr(v, Sym::new("__doc__"))? {
                Value::Str(s) => Some(s.to_string()),
                _ => None,
            };
            Page {
                kind: "function",
                name: f.name.to_string(),
                key: Some(key),
                module: Some(module),
                own_doc: doc,
                signature: Some(signature(f)),
            }
        }
        Value::Method(m) => {
            let mut p = page_of(i, &m.1)?;
            p.kind = "method";
            if let Some(Value::Native(n)) = Some(&m.0) {
                if matches!(n.type_name(), "Tensor" | "Parameter") {
                    p.key = Some(format!("torch.Tensor.{}", p.name));
                }
            }
            p
        }
        Value::Module(m) => Page {
            kind: "module",
            name: m.name.to_string(),
            module: None,
            key: None,
            own_doc: None,
            signature: Some(m.name.to_string()),
        },
        Value::Instance(inst) => class_page(i, &inst.class),
        Value::Native(n) => {
            // `torch.Tensor`, `torch.device`, `nn.Parameter`: the types torch exposes natively.
            let name = match i.get_attr(v, Sym::new("__name__")) {
                Ok(Value::Str(s)) => s.to_string(),
                _ => n.type_name().to_string(),
            };
            let module = module_holding(i, v).unwrap_or_else(|| n.module().to_string());
            // An instance (a tensor, a dtype) gets its type's page, as pydoc gives.
            Page {
                kind: "class",
                key: Some(format!("{module}.{name}")),
                name,
                module: Some(module),
                own_doc: None,
                signature: None,
            }
        }
        other => {
            let t = crate::lang::builtins::type_of(i, other);
            let mut p = page_of(i, &t)?;
            p.kind = "class";
            p
        }
    })
}

fn builtin_page(i: &mut Interp, b: &Builtin) -> Page {
    if let Some(this) = &b.this {
        let owner = if matches!(&*this.type_name(), "Tensor" | "Parameter") {
            "torch.Tensor".to_string()
        } else {
            format!("builtins.{}", this.type_name())
        };
        return Page {
            kind: "built-in method",
            name: b.name.to_string(),
            key: Some(format!("{owner}.{}", b.name)),
            module: None,
            own_doc: None,
            signature: Some(format!("{}(...)", b.name)),
        };
    }
    let module = module_holding(
        i,
        &Value::Builtin(Rc::new(Builtin {
            name: b.name,
            f: b.f,
            this: None,
        })),
    )
    .unwrap_or_else(|| "builtins".to_string());
    Page {
        kind: "built-in function",
        name: b.name.to_string(),
        key: Some(format!("{module}.{}", b.name)),
        module: Some(module),
        own_doc: None,
        signature: Some(format!("{}(...)", b.name)),
    }
}

fn class_page(i: &mut Interp, c: &Rc<Class>) -> Page {
    let v = Value::Class(c.clone());
    let module = module_holding(i, &v).unwrap_or_else(|| {
        if c.builtin.is_some() {
            "builtins".to_string()
        } else {
            c.module.to_string()
        }
    });
    let own_doc = match c.dict.borrow().get(&Sym::new("__doc__")) {
        Some(Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    Page {
        kind: "class",
        name: c.name.to_string(),
        key: Some(format!("{module}.{}", c.name)),
        module: Some(module),
        own_doc,
        signature: Some(c.name.to_string()),
    }
}

/// The shortest-named imported module with `v` as an attribute (`torch.nn` for `nn.Linear`,
/// whose class says `torch.nn.modules.linear`).
fn module_holding(i: &Interp, v: &Value) -> Option<String> {
    let mut names: Vec<&String> = i.modules.keys().collect();
    names.sort_by_key(|n| (n.len(), n.as_str()));
    for name in names {
        if name.starts_with('_') {
            continue;
        }
        let Some(Value::Module(m)) = i.modules.get(name) else {
            continue;
        };
        if m.attrs.borrow().values().any(|x| same(x, v)) {
            return Some(name.clone());
        }
    }
    None
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Builtin(x), Value::Builtin(y)) => {
            x.name == y.name && std::ptr::fn_addr_eq(x.f, y.f) && x.this.is_none()
        }
        (Value::Class(x), Value::Class(y)) => Rc::ptr_eq(x, y),
        (Value::Func(x), Value::Func(y)) => Rc::ptr_eq(x, y),
        (Value::Native(x), Value::Native(y)) => NativeRc::ptr_eq(x, y),
        _ => false,
    }
}

/// `f(a, b=1, *args, c, **kw)`, defaults by their repr where known.
fn signature(f: &Function) -> String {
    use crate::lang::ast::ParamKind;
    let mut parts = Vec::new();
    let mut star_done = false;
    for (k, p) in f.def.params.iter().enumerate() {
        let name = p.name.as_str();
        match p.kind {
            ParamKind::VarArgs => {
                star_done = true;
                parts.push(format!("*{name}"));
            }
            ParamKind::VarKw => parts.push(format!("**{name}")),
            ParamKind::KwOnly | ParamKind::Normal => {
                if p.kind == ParamKind::KwOnly && !star_done {
                    star_done = true;
                    parts.push("*".to_string());
                }
                match f.defaults.get(k).cloned().flatten() {
                    Some(d) => parts.push(format!("{name}={}", default_repr(&d))),
                    None => parts.push(name.to_string()),
                }
            }
        }
    }
    format!("{}({})", f.name, parts.join(", "))
}

fn default_repr(v: &Value) -> String {
    match v {
        Value::None => "None".into(),
        Value::Bool(b) => if b.get() { "True" } else { "False" }.into(),
        Value::Int(n) => n.to_string(),
        Value::Float(x) => crate::lang::format::float_repr(x.get()),
        Value::Str(s) => crate::lang::format::str_repr(s),
        _ => "...".into(),
    }
}

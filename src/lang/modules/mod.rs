//! Importable modules. `torch` and friends register here in later issues.
pub mod math;
pub mod names;
pub mod os_environ;
pub mod random;
pub mod stdlib;
pub mod time;
pub mod torch;

use crate::lang::error::{ExcKind, PyErr, PyResult, Source};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

/// A module value from (name, function) pairs and constants.
pub fn make_module(
    name: &str,
    fns: &[(&'static str, NativeFn)],
    consts: &[(&str, Value)],
) -> Value {
    let m = Module {
        name: PyStr::from(name),
        attrs: RefCell::new(AttrMap::default()),
    };
    for (n, f) in fns {
        m.attrs.borrow_mut().insert(
            Sym::new(n),
            Value::Builtin(Rc::new(Builtin {
                name: n,
                f: *f,
                this: None,
            })),
        );
    }
    for (n, v) in consts {
        m.attrs.borrow_mut().insert(Sym::new(n), v.clone());
    }
    Value::Module(Rc::new(m))
}

impl Interp {
    /// `torch.a.b` when `a.b` is a chain of module attributes of `torch` (`torch.amp`,
    /// `torch.cuda.amp`, `torch.cpu.amp`).
    fn torch_submodule(&mut self, name: &str) -> Option<Value> {
        let mut m = self.import("torch").ok()?;
        for part in name.split('.').skip(1) {
            let next = match &m {
                Value::Module(md) => md.attrs.borrow().get(&Sym::new(part)).cloned()?,
                _ => return None,
            };
            m = next;
        }
        matches!(m, Value::Module(_)).then_some(m)
    }

    /// `import name`: a cached module, created on first import.
    pub fn import(&mut self, name: &str) -> PyResult<Value> {
        if let Some(m) = self.modules.get(name) {
            return Ok(m.clone());
        }
        let m = match name {
            "math" => math::module(),
            "time" => time::module(),
            "random" => random::module(self),
            "torch" => {
                let m = torch::module();
                torch::cuda::install(self, &m);
                torch::amp::install(&m);
                m
            }
            "torch.nn.functional" => torch::functional::module(),
            "torch.distributed" => torch::distributed::module(),
            "os" => os_environ::module(),
            "_cudalearn_nn" => torch::nn::module(),
            _ if crate::nn::prelude(name).is_some() => return self.import_prelude(name),
            _ if name.starts_with("torch.") && self.torch_submodule(name).is_some() => {
                self.torch_submodule(name).unwrap_or(Value::None)
            }
            _ => {
                if let Some(e) = names::missing_module(name) {
                    return Err(e);
                }
                let top = name.split('.').next().unwrap_or(name);
                let hint = match top {
                    "numpy" | "pandas" | "matplotlib" | "sklearn" | "scipy" => {
                        format!("cudalearn runs Python without third-party packages; '{top}' is not available here. Tensors cover what the lessons need (x.tolist(), x.numpy() for display).")
                    }
                    "torchvision" | "torchaudio" => format!("cudalearn has torch but not '{top}'."),
                    "torch" => "this part of torch is not in cudalearn yet; `import torch` works.".to_string(),
                    _ => "cudalearn can import math, time, random, os (os.environ: the launcher's variables) and the torch modules of the course.".to_string(),
                };
                return Err(PyErr::new(
                    ExcKind::ModuleNotFoundError,
                    format!("No module named '{name}'"),
                )
                .hint(hint));
            }
        };
        self.modules.insert(name.to_string(), m.clone());
        self.link_to_parent(name, &m)?;
        Ok(m)
    }

    /// `import a.b` makes `b` an attribute of `a`, as Python does.
    fn link_to_parent(&mut self, name: &str, m: &Value) -> PyResult<()> {
        if let Some((parent, last)) = name.rsplit_once('.') {
            if let Value::Module(p) = self.import(parent)? {
                p.attrs.borrow_mut().insert(Sym::new(last), m.clone());
            }
        }
        Ok(())
    }

    /// An embedded Python module (`crate::nn`): registered before its code runs (so its
    /// submodules can import it back), run in a namespace of its own, then given every name
    /// that code defined.
    fn import_prelude(&mut self, name: &str) -> PyResult<Value> {
        let sources = crate::nn::prelude(name).unwrap_or(&[]);
        let module = Rc::new(Module {
            name: PyStr::from(name),
            attrs: RefCell::new(AttrMap::default()),
        });
        let m = Value::Module(module.clone());
        self.modules.insert(name.to_string(), m.clone());
        let globals: Globals = Default::default();
        let prev = self.switch_globals(globals.clone());
        self.set_global(Sym::new("__name__"), Value::str(name));
        let mut r = Ok(());
        for text in sources {
            let src = Rc::new(Source {
                name: format!("<{name}>"),
                text: text.to_string(),
                show_lines: true,
                prelude: true,
            });
            r = self.run(src, false);
            if r.is_err() {
                break;
            }
        }
        self.switch_globals(prev);
        if let Err(e) = r {
            self.modules.remove(name);
            return Err(e);
        }
        let data = globals.borrow();
        let mut attrs = module.attrs.borrow_mut();
        for s in &data.order {
            if let Some(Some(v)) = data.values.get(s.index()) {
                attrs.insert(*s, v.clone());
            }
        }
        drop(attrs);
        drop(data);
        self.link_to_parent(name, &m)?;
        Ok(m)
    }
}

/// Names of a native module defined by an embedded Python one, which loads on first use
/// (`torch.autograd.Function` is a Python class, as in PyTorch): (module, name, defined in).
const LAZY_ATTRS: &[(&str, &str, &str)] = &[
    ("torch.autograd", "Function", "torch.autograd.function"),
    ("torch.autograd", "gradcheck", "torch.autograd.function"),
];

impl Interp {
    /// `module.name` from `LAZY_ATTRS`, imported and kept in the module on first use.
    pub fn lazy_attr(&mut self, m: &Module, name: Sym) -> PyResult<Option<Value>> {
        let Some((_, _, from)) = LAZY_ATTRS
            .iter()
            .find(|(p, n, _)| *p == &*m.name && *n == &*name.as_str())
        else {
            return Ok(None);
        };
        let Value::Module(src) = self.import(from)? else {
            return Ok(None);
        };
        let v = src.attrs.borrow().get(&name).cloned();
        if let Some(v) = &v {
            m.attrs.borrow_mut().insert(name, v.clone());
        }
        Ok(v)
    }
}

/// Whether `parent.name` is a module that loads on first attribute access (`torch.nn` after
/// `import torch`).
pub fn is_submodule(parent: &str, name: &str) -> bool {
    let full = format!("{parent}.{name}");
    crate::nn::prelude(&full).is_some() || NATIVE_SUBMODULES.contains(&full.as_str())
}

/// Submodules written in Rust (the import arms above) that also load on attribute access.
const NATIVE_SUBMODULES: &[&str] = &["torch.autograd", "torch.nn.functional", "torch.distributed"];

/// The submodules of `parent` that load on first use (for `dir()` and completion).
pub fn submodule_names(parent: &str) -> Vec<PyStr> {
    crate::nn::module_names()
        .chain(NATIVE_SUBMODULES.iter().copied())
        .filter_map(|n| n.strip_prefix(parent)?.strip_prefix('.'))
        .filter(|rest| !rest.contains('.'))
        .map(PyStr::from)
        .collect()
}

//! Importable modules. `torch` and friends register here in later issues.
pub mod math;
pub mod random;
pub mod time;
pub mod torch;

use crate::lang::error::{ExcKind, PyErr, PyResult};
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
        name: Rc::from(name),
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
                m
            }
            "torch.autograd" => torch::autograd::module(),
            "torch.nn.functional" => torch::functional::module(),
            _ => {
                let top = name.split('.').next().unwrap_or(name);
                let hint = match top {
                    "numpy" | "pandas" | "matplotlib" | "sklearn" | "scipy" => {
                        format!("cudalearn runs Python without third-party packages; '{top}' is not available here. Tensors cover what the lessons need (x.tolist(), x.numpy() for display).")
                    }
                    "torchvision" | "torchaudio" => format!("cudalearn has torch but not '{top}'."),
                    "torch" => "this part of torch is not in cudalearn yet; `import torch` works.".to_string(),
                    _ => "cudalearn can import math, time, random and the torch modules of the course.".to_string(),
                };
                return Err(PyErr::new(
                    ExcKind::ModuleNotFoundError,
                    format!("No module named '{name}'"),
                )
                .hint(hint));
            }
        };
        self.modules.insert(name.to_string(), m.clone());
        Ok(m)
    }
}

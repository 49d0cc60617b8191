//! `torch.Generator`: the default CPU generator (returned by `torch.manual_seed`) and private ones.
use crate::lang::error::{type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::random::{with_default, Generator};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// A `torch.Generator`: the default one (`None` inside; every value of it is the one object,
/// as in PyTorch) or one made by `torch.Generator()`, with its own state.
pub struct PyGenerator(Option<RefCell<Generator>>);

thread_local! {
    static DEFAULT: Value = Value::Native(NativeRc::new(PyGenerator(None)));
}

pub fn default_generator() -> Value {
    DEFAULT.with(|v| v.clone())
}

/// `torch.manual_seed(seed)`.
pub fn seed_default(a: &Args) -> PyResult<Value> {
    manual_seed(None, a)?;
    Ok(default_generator())
}

fn manual_seed(g: Option<&Value>, a: &Args) -> PyResult<()> {
    let seed = super::methods::arg(a, 0, "seed")
        .and_then(|v| v.as_int())
        .ok_or_else(|| type_error("manual_seed expected an int"))?;
    with_gen(g, |g| g.manual_seed(seed as u64))
}

/// Runs `f` on the generator `g` names: `None` (or None) is the default generator.
pub fn with_gen<R>(g: Option<&Value>, f: impl FnOnce(&mut Generator) -> R) -> PyResult<R> {
    match g {
        None | Some(Value::None) => Ok(with_default(f)),
        Some(Value::Native(n)) if n.as_any().is::<PyGenerator>() => {
            match &n.as_any().downcast_ref::<PyGenerator>().expect("checked").0 {
                None => Ok(with_default(f)),
                Some(own) => Ok(f(&mut own.borrow_mut())),
            }
        }
        Some(v) => Err(type_error(format!(
            "expected a torch.Generator, but got {}",
            v.type_name()
        ))),
    }
}

/// `torch.Generator(device='cpu')`, with PyTorch's default seed.
pub fn new_generator(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    if let Some(d) = super::methods::arg(&a, 0, "device") {
        if super::convert::device_arg(&d)? != crate::tensor::Device::Cpu {
            return Err(crate::lang::error::not_implemented(
                "torch.Generator on a CUDA device",
            ));
        }
    }
    Ok(Value::Native(NativeRc::new(PyGenerator(Some(
        RefCell::new(Generator::new(67280421310721)),
    )))))
}

impl Native for PyGenerator {
    fn module(&self) -> &str {
        "torch"
    }
    fn type_name(&self) -> &str {
        "Generator"
    }
    fn tp_name(&self) -> String {
        "torch._C.Generator".to_string()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!(
            "<torch._C.Generator object at {:#x}>",
            self as *const PyGenerator as usize
        ))
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let (name, f): (&'static str, NativeFn) = match &*name.as_str() {
            "manual_seed" => ("manual_seed", |_, this, a| {
                manual_seed(Some(this), &a)?;
                Ok(this.clone())
            }),
            "initial_seed" => ("initial_seed", |_, this, _| {
                Ok(Value::Int(
                    with_gen(Some(this), |g| g.initial_seed())? as i64
                ))
            }),
            "seed" => ("seed", |_, this, _| {
                Ok(Value::Int(with_gen(Some(this), |g| g.seed())? as i64))
            }),
            "device" => {
                return Ok(Some(super::objects::device_value(
                    super::objects::PyDevice {
                        cuda: false,
                        index: None,
                    },
                )))
            }
            _ => return Ok(None),
        };
        Ok(Some(Value::Builtin(Rc::new(Builtin {
            name,
            f,
            this: Some(this.clone()),
        }))))
    }
    fn attr_names(&self) -> Vec<PyStr> {
        ["device", "initial_seed", "manual_seed", "seed"]
            .iter()
            .map(|s| PyStr::from(*s))
            .collect()
    }
}

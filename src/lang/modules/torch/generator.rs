//! `torch.Generator`: the default CPU generator, returned by `torch.manual_seed`.
use crate::lang::error::{type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::random::with_default;
use std::any::Any;
use std::rc::Rc;

/// The default generator; every value of it is the one object, as in PyTorch.
pub struct PyGenerator;

thread_local! {
    static DEFAULT: Value = Value::Native(Rc::new(PyGenerator));
}

pub fn default_generator() -> Value {
    DEFAULT.with(|v| v.clone())
}

/// `torch.manual_seed(seed)` and `Generator.manual_seed(seed)`.
pub fn seed_default(a: &Args) -> PyResult<Value> {
    let seed = super::methods::arg(a, 0, "seed")
        .and_then(|v| v.as_int())
        .ok_or_else(|| type_error("manual_seed expected an int"))?;
    with_default(|g| g.manual_seed(seed as u64));
    Ok(default_generator())
}

impl Native for PyGenerator {
    fn module(&self) -> &str {
        "torch"
    }
    fn type_name(&self) -> &str {
        "Generator"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!(
            "<torch._C.Generator object at {:#x}>",
            default_generator().ptr_id()
        ))
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        let (name, f): (&'static str, NativeFn) = match &*name.as_str() {
            "manual_seed" => ("manual_seed", |_, _, a| seed_default(&a)),
            "initial_seed" => ("initial_seed", |_, _, _| {
                Ok(Value::Int(with_default(|g| g.initial_seed()) as i64))
            }),
            "seed" => ("seed", |_, _, _| {
                Ok(Value::Int(with_default(|g| g.seed()) as i64))
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
    fn attr_names(&self) -> Vec<Rc<str>> {
        ["device", "initial_seed", "manual_seed", "seed"]
            .iter()
            .map(|s| Rc::from(*s))
            .collect()
    }
}

//! The `torch` module: tensors on the engine of `crate::tensor`.
pub mod amp;
pub mod autograd;
pub mod convert;
pub mod cuda;
pub mod custom_function;
pub mod distributed;
pub mod functional;
pub mod functional_conv;
pub mod functions;
pub mod functions_extra;
pub mod generator;
pub mod hooks;
pub mod linalg_svd;
pub mod methods;
pub mod methods_extra;
pub mod nn;
pub mod numpy;
pub mod objects;
pub mod optim;
pub mod profiler;
pub mod return_types;
pub mod save;
mod save_objects;
pub mod serialization;
pub mod size;
pub mod tensor;
pub mod tensor_dir;

use super::make_module;
use crate::lang::error::{type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use crate::tensor::DType;
use convert::*;
use objects::{device_value, dtype_value, PyDType, PyDevice};
use std::any::Any;
use std::rc::Rc;

/// `torch.device`, `torch.dtype`, `torch.Tensor`, `torch.Size`: callable where PyTorch's are,
/// and usable with `isinstance`.
struct TorchType {
    name: &'static str,
}

impl Native for TorchType {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "type"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!("<class 'torch.{}'>", self.name))
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        match self.name {
            "device" => {
                let d = match (
                    a.pos.first(),
                    a.pos
                        .get(1)
                        .or(crate::lang::builtins::kwarg(&a, "index").as_ref()),
                ) {
                    (Some(Value::Str(s)), None) => PyDevice::parse(s)?,
                    (Some(Value::Str(s)), Some(Value::Int(idx))) => {
                        let mut d = PyDevice::parse(s)?;
                        if d.index.is_some() {
                            return Err(crate::lang::error::runtime_error(format!(
                                "type (string) must not include an index because index was passed explicitly: {s}"
                            )));
                        }
                        if *idx < 0 {
                            return Err(crate::lang::error::runtime_error(
                                "Device index must not be negative",
                            ));
                        }
                        d.index = Some(*idx as u32);
                        d
                    }
                    (Some(Value::Int(idx)), None) if *idx >= 0 => PyDevice {
                        cuda: true,
                        index: Some(*idx as u32),
                    },
                    (Some(v), _) if v.type_name().as_ref() == "device" => return Ok(v.clone()),
                    _ => {
                        return Err(type_error(
                            "device() received an invalid combination of arguments",
                        ))
                    }
                };
                Ok(device_value(d))
            }
            "Tensor" => functions::tensor(i, &Value::None, a).and_then(|t| {
                // torch.Tensor(data) makes float32 tensors.
                match as_tensor(&t) {
                    Some(x) => Ok(wrap(x.to_dtype(DType::F32).py()?)),
                    None => Ok(t),
                }
            }),
            "Size" => {
                let items = match a.pos.first() {
                    Some(v) => int_list(i, v)?,
                    None => Vec::new(),
                };
                Ok(Value::Native(NativeRc::new(size::TorchSize(items))))
            }
            _ => Err(type_error(format!(
                "cannot create 'torch.{}' instances",
                self.name
            ))),
        }
    }
    fn get_attr(&self, this: &Value, name: Sym, _i: &mut Interp) -> PyResult<Option<Value>> {
        if &*name.as_str() == "__instancecheck__" {
            return Ok(Some(Value::Builtin(Rc::new(Builtin {
                name: "__instancecheck__",
                f: |_, this, a| {
                    let want = match this {
                        Value::Native(n) => n
                            .as_any()
                            .downcast_ref::<TorchType>()
                            .map(|t| t.name)
                            .unwrap_or(""),
                        _ => "",
                    };
                    let v = a.pos.first().cloned().unwrap_or(Value::None);
                    let is = match &v {
                        Value::Native(n) => match want {
                            "Tensor" => n.as_any().is::<tensor::PyTensor>(),
                            "device" => n.as_any().is::<PyDevice>(),
                            "dtype" => n.as_any().is::<PyDType>(),
                            "Size" => n.as_any().is::<size::TorchSize>(),
                            _ => false,
                        },
                        _ => false,
                    };
                    Ok(Value::bool(is))
                },
                this: Some(this.clone()),
            }))));
        }
        match &*name.as_str() {
            "__name__" | "__qualname__" => return Ok(Some(Value::str(self.name))),
            "__module__" => return Ok(Some(Value::str("torch"))),
            _ => {}
        }
        let n = name.as_str();
        if self.name == "Tensor" {
            // `torch.Tensor.sort`: the method unbound, `torch.Tensor.sort(x)` == `x.sort()`
            let found = methods::tensor_method(&n).or_else(|| methods_extra::tensor_method(&n));
            if let Some((_, name)) = found {
                return Ok(Some(Value::Native(NativeRc::new(UnboundMethod { name }))));
            }
            // a real Tensor method that tensors here lack says so
            if let Some(e) = crate::lang::modules::names::missing("torch.Tensor", &n) {
                return Err(e);
            }
        }
        Err(crate::lang::error::attr_error(format!(
            "type object '{}' has no attribute '{n}'",
            match self.name {
                "Tensor" => "Tensor".to_string(),
                t => format!("torch.{t}"),
            }
        )))
    }
}

/// `torch.Tensor.NAME`: a tensor method not bound to a tensor; calling it with the tensor
/// first is calling the method.
struct UnboundMethod {
    name: &'static str,
}

impl Native for UnboundMethod {
    fn callable(&self) -> bool {
        true
    }
    fn type_name(&self) -> &str {
        "method_descriptor"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn repr(&self, _i: &mut Interp) -> PyResult<String> {
        Ok(format!(
            "<method '{}' of 'torch._C.TensorBase' objects>",
            self.name
        ))
    }
    fn call(&self, _this: &Value, a: Args, i: &mut Interp) -> PyResult<Value> {
        functions::method_form(i, self.name, a)
    }
}

/// `torch.f(x, ...)` for each tensor method `x.f(...)` that PyTorch also offers as a function.
macro_rules! forwarded {
    ($($n:literal),* $(,)?) => {
        const FORWARDED: &[(&str, NativeFn)] = &[$(($n, |i, _, a| functions::method_form(i, $n, a))),*];
    };
}

forwarded!(
    "abs",
    "sqrt",
    "rsqrt",
    "exp",
    "log",
    "log2",
    "log10",
    "log1p",
    "sin",
    "cos",
    "tanh",
    "sigmoid",
    "relu",
    "floor",
    "ceil",
    "round",
    "trunc",
    "sign",
    "square",
    "reciprocal",
    "isnan",
    "signbit",
    "logical_not",
    "neg",
    "sum",
    "mean",
    "prod",
    "argmax",
    "argmin",
    "amax",
    "amin",
    "all",
    "any",
    "softmax",
    "log_softmax",
    "matmul",
    "mm",
    "bmm",
    "dot",
    "mv",
    "add",
    "sub",
    "mul",
    "div",
    "pow",
    "maximum",
    "minimum",
    "fmod",
    "remainder",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "equal",
    "reshape",
    "transpose",
    "permute",
    "unsqueeze",
    "squeeze",
    "flatten",
    "t",
    "clone",
    "numel",
    "detach",
    "clamp",
    "clip",
);

/// `torch.zeros(..., out=t)` and the other creation functions: the result takes `out`'s
/// dtype and device unless given, and is written into `out`, which is returned.
fn creation_out(
    i: &mut Interp,
    this: &Value,
    mut a: Args,
    name: &str,
    f: NativeFn,
) -> PyResult<Value> {
    let Some(k) = a.kw.iter().position(|(k, _)| &*k.as_str() == "out") else {
        return f(i, this, a);
    };
    let out = a.kw.remove(k).1;
    if let Some(o) = as_tensor(&out) {
        let given = |a: &Args, n: &str| a.kw.iter().any(|(k, _)| &*k.as_str() == n);
        if !given(&a, "dtype") {
            a.kw.push((Sym::new("dtype"), objects::dtype_value(o.dtype())));
        }
        if !given(&a, "device") {
            a.kw.push((
                Sym::new("device"),
                objects::device_value(PyDevice::from_device(o.device())),
            ));
        }
    }
    let r = f(i, this, a)?;
    functions_extra::write_out_resizing(i, name, r, &out, false)
}

macro_rules! creation_with_out {
    ($n:literal, $f:path) => {
        ($n, |i, t, a| creation_out(i, t, a, $n, $f))
    };
}

pub fn module() -> Value {
    let mut fns: Vec<(&'static str, NativeFn)> = vec![
        ("tensor", functions::tensor),
        creation_with_out!("zeros", functions::zeros),
        creation_with_out!("ones", functions::ones),
        creation_with_out!("empty", functions::empty),
        creation_with_out!("full", functions::full),
        creation_with_out!("arange", functions::arange),
        creation_with_out!("linspace", functions::linspace),
        creation_with_out!("eye", functions::eye),
        ("zeros_like", functions::zeros_like),
        ("ones_like", functions::ones_like),
        ("empty_like", functions::empty_like),
        ("rand_like", functions::rand_like),
        ("randn_like", functions::randn_like),
        creation_with_out!("rand", functions::rand),
        creation_with_out!("randn", functions::randn),
        creation_with_out!("randint", functions::randint),
        creation_with_out!("randperm", functions::randperm),
        ("manual_seed", functions::manual_seed),
        ("cat", functions::cat),
        ("concat", functions::cat),
        ("stack", functions::stack),
        ("where", functions::where_),
        ("allclose", functions::allclose),
        ("max", functions::max),
        ("min", functions::min),
        ("set_printoptions", functions::set_printoptions),
        ("is_tensor", |_, _, a| {
            Ok(Value::bool(a.pos.first().and_then(as_tensor).is_some()))
        }),
        ("get_default_dtype", |_, _, _| {
            Ok(dtype_value(crate::tensor::default_dtype()))
        }),
        ("set_default_dtype", |_, _, a| {
            let d = a
                .pos
                .first()
                .and_then(dtype_of)
                .ok_or_else(|| type_error("set_default_dtype expects a dtype"))?;
            if !matches!(d, DType::F32 | DType::F64) {
                return Err(type_error(
                    "only floating-point types are supported as the default type",
                ));
            }
            crate::tensor::set_default_dtype(d);
            Ok(Value::None)
        }),
        ("initial_seed", |_, _, _| {
            Ok(Value::Int(
                crate::tensor::random::with_default(|g| g.initial_seed()) as i64,
            ))
        }),
        ("seed", |_, _, _| {
            Ok(Value::Int(
                crate::tensor::random::with_default(|g| g.seed()) as i64,
            ))
        }),
    ];
    fns.extend_from_slice(FORWARDED);
    fns.extend(functions_extra::torch_fns());
    fns.extend_from_slice(amp::TORCH_FUNCTIONS);
    let autocast = amp::autocast_type(amp::Flavor::Amp);
    fns.extend(autograd::torch_fns());
    let mut consts: Vec<(&str, Value)> = vec![
        ("__version__", Value::str("2.15.0")),
        (
            "device",
            Value::Native(NativeRc::new(TorchType { name: "device" })),
        ),
        (
            "dtype",
            Value::Native(NativeRc::new(TorchType { name: "dtype" })),
        ),
        (
            "Tensor",
            Value::Native(NativeRc::new(TorchType { name: "Tensor" })),
        ),
        (
            "Size",
            Value::Native(NativeRc::new(TorchType { name: "Size" })),
        ),
        ("default_generator", generator::default_generator()),
        (
            "Generator",
            Value::Builtin(Rc::new(Builtin {
                name: "Generator",
                f: generator::new_generator,
                this: None,
            })),
        ),
        ("autocast", autocast.clone()),
        ("amp", amp::amp_module(&autocast)),
        ("cpu", amp::cpu_module()),
        ("profiler", profiler::module()),
        ("serialization", serialization::module()),
        ("linalg", functions_extra::linalg_module()),
    ];
    let dtypes: &[(&str, DType)] = &[
        ("float32", DType::F32),
        ("float", DType::F32),
        ("float64", DType::F64),
        ("double", DType::F64),
        ("float16", DType::F16),
        ("half", DType::F16),
        ("bfloat16", DType::BF16),
        ("int64", DType::I64),
        ("long", DType::I64),
        ("int32", DType::I32),
        ("int", DType::I32),
        ("int8", DType::I8),
        ("uint8", DType::U8),
        ("bool", DType::Bool),
    ];
    for (n, d) in dtypes {
        consts.push((n, dtype_value(*d)));
    }
    consts.extend(autograd::torch_consts());
    make_module("torch", &fns, &consts)
}

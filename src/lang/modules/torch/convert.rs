//! Conversions between interpreter values and the tensor engine's types, and its errors.
use super::objects::{PyDType, PyDevice};
use super::tensor::PyTensor;
use crate::lang::error::{type_error, ExcKind, PyErr, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::{DType, Device, ErrorKind, NestedData, Scalar, Tensor, TensorError};

/// A tensor engine error as the Python exception PyTorch raises.
pub fn terr(e: TensorError) -> PyErr {
    let kind = match e.kind {
        ErrorKind::Runtime => ExcKind::RuntimeError,
        ErrorKind::Index => ExcKind::IndexError,
        ErrorKind::Value => ExcKind::ValueError,
        ErrorKind::Type => ExcKind::TypeError,
        ErrorKind::NotImplemented => ExcKind::NotImplementedError,
        ErrorKind::OutOfMemory => ExcKind::OutOfMemoryError,
        ErrorKind::Accelerator => ExcKind::AcceleratorError,
    };
    let err = PyErr::new(kind, e.msg);
    match e.hint {
        Some(h) => err.hint(h),
        None => err,
    }
}

pub trait TResult<T> {
    fn py(self) -> PyResult<T>;
}
impl<T> TResult<T> for crate::tensor::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(terr)
    }
}

pub fn wrap(t: Tensor) -> Value {
    Value::Native(NativeRc::new(PyTensor(t)))
}

pub fn as_tensor(v: &Value) -> Option<&Tensor> {
    match v {
        Value::Native(n) => n.as_any().downcast_ref::<PyTensor>().map(|p| &p.0),
        _ => None,
    }
}

pub fn scalar_of(v: &Value) -> Option<Scalar> {
    match v {
        Value::Bool(b) => Some(Scalar::Bool(b.get())),
        Value::Int(i) => Some(Scalar::Int(*i)),
        Value::Float(f) => Some(Scalar::Float(f.get())),
        _ => None,
    }
}

pub fn scalar_value(s: Scalar) -> Value {
    match s {
        Scalar::Bool(b) => Value::bool(b),
        Scalar::Int(i) => Value::Int(i),
        Scalar::Float(f) => Value::float(f),
    }
}

pub fn dtype_of(v: &Value) -> Option<DType> {
    match v {
        Value::Native(n) => n.as_any().downcast_ref::<PyDType>().map(|d| d.0),
        _ => None,
    }
}

/// A `dtype=` keyword argument (absent or None: the op's default).
pub fn dtype_kw(a: &Args) -> PyResult<Option<DType>> {
    match crate::lang::builtins::kwarg(a, "dtype") {
        None | Some(Value::None) => Ok(None),
        Some(v) => dtype_of(&v)
            .map(Some)
            .ok_or_else(|| type_error(format!("dtype must be torch.dtype, not {}", v.type_name()))),
    }
}

/// A `device=` argument: a torch.device, a string, or an int (a CUDA ordinal). Tensors can
/// only be placed where a device exists: without a GPU, CUDA fails as in PyTorch.
pub fn device_arg(v: &Value) -> PyResult<Device> {
    let d = parse_device_arg(v)?;
    check_available(d)?;
    Ok(d)
}

/// A CUDA device must exist: without any GPU (real or simulated) PyTorch's no-driver error,
/// past the last one its invalid-ordinal error (both with a hint).
pub fn check_available(d: Device) -> PyResult<()> {
    if let Device::Cuda(i) = d {
        crate::backend::gpu::check_device(i).map_err(terr)?;
    }
    Ok(())
}

fn parse_device_arg(v: &Value) -> PyResult<Device> {
    match v {
        Value::Native(n) => match n.as_any().downcast_ref::<PyDevice>() {
            Some(d) => Ok(d.resolved()),
            None => Err(type_error(format!(
                "expected a device, not {}",
                v.type_name()
            ))),
        },
        Value::Str(s) => Ok(PyDevice::parse(s)?.resolved()),
        Value::Int(i) if *i >= 0 => Ok(Device::Cuda(*i as u32)),
        other => Err(type_error(format!(
            "to() received an invalid combination of arguments - got ({}), but expected a device",
            other.type_name()
        ))),
    }
}

/// Nested Python data (`[[1, 2], [3, 4]]`, tuples, tensors, scalars) for `torch.tensor`.
pub fn nested(interp: &mut Interp, v: &Value, depth: usize) -> PyResult<NestedData> {
    if depth > 64 {
        return Err(PyErr::new(ExcKind::ValueError, "too many dimensions"));
    }
    // A list, tuple or number subclass (`class L(list)`, a namedtuple) is its value.
    let v = match v {
        Value::Instance(i) => match &i.base {
            Some(b @ (Value::List(_) | Value::Tuple(_) | Value::Int(_) | Value::Float(_))) => b,
            _ => v,
        },
        _ => v,
    };
    if let Some(s) = scalar_of(v) {
        return Ok(NestedData::Scalar(s));
    }
    if let Some(t) = as_tensor(v) {
        return Ok(NestedData::Tensor(t.clone()));
    }
    // an array from `t.numpy()` is data like a tensor's (torch.tensor copies it)
    if let Value::Native(n) = v {
        if let Some(a) = n.as_any().downcast_ref::<super::numpy::NdArray>() {
            return Ok(NestedData::Tensor(a.0.clone()));
        }
    }
    match v {
        Value::List(_) | Value::Tuple(_) => {
            let items = interp.collect(v)?;
            let mut out = Vec::with_capacity(items.len());
            for it in &items {
                out.push(nested(interp, it, depth + 1)?);
            }
            Ok(NestedData::List(out))
        }
        Value::Native(n) if n.as_any().is::<super::size::TorchSize>() => {
            let items = interp.collect(v)?;
            Ok(NestedData::List(
                items
                    .iter()
                    .map(|i| NestedData::Scalar(scalar_of(i).unwrap_or(Scalar::Int(0))))
                    .collect(),
            ))
        }
        other => Err(type_error(format!(
            "new(): invalid data type '{}'",
            other.type_name()
        ))),
    }
}

/// Engine nested data back to Python lists (`tolist()`).
pub fn nested_value(d: NestedData) -> Value {
    match d {
        NestedData::Scalar(s) => scalar_value(s),
        NestedData::List(items) => Value::list(items.into_iter().map(nested_value).collect()),
        NestedData::Tensor(t) => wrap(t),
    }
}

/// Sizes given as `f(2, 3)`, `f((2, 3))`, `f([2, 3])` or `f(torch.Size(...))`.
pub fn sizes(interp: &mut Interp, args: &[Value], fname: &str) -> PyResult<Vec<i64>> {
    let items: Vec<Value> = match args {
        [one] if !matches!(one, Value::Int(_) | Value::Bool(_)) => interp.collect(one).map_err(|_| {
            type_error(format!(
                "{fname}(): argument 'size' (position 1) must be tuple of ints, but found element of type {} at pos 0",
                one.type_name()
            ))
        })?,
        _ => args.to_vec(),
    };
    items
        .iter()
        .enumerate()
        .map(|(k, v)| match v {
            Value::Int(i) => Ok(*i),
            other => Err(type_error(format!(
                "{fname}(): argument 'size' (position 1) must be tuple of ints, but found element of type {} at pos {k}",
                other.type_name()
            ))),
        })
        .collect()
}

pub fn int_list(interp: &mut Interp, v: &Value) -> PyResult<Vec<i64>> {
    match v {
        Value::Int(i) => Ok(vec![*i]),
        _ => interp
            .collect(v)?
            .iter()
            .map(|x| {
                x.as_int()
                    .ok_or_else(|| type_error("expected a sequence of integers"))
            })
            .collect(),
    }
}

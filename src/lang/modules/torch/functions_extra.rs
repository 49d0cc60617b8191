//! `torch` functions added for issue 17 that are not tensor methods: `einsum`,
//! `torch.linalg.norm`/`vector_norm`, `from_numpy`, `as_tensor` (sharing memory where PyTorch
//! does), and `out=` for the function forms of methods (`torch.add(a, b, out=c)`).
use super::convert::*;
use super::methods::arg;
use super::methods_extra::dims;
use crate::lang::builtins::kwarg;
use crate::lang::error::{not_implemented, runtime_error, type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::ops::extra::{einsum, stats};
use crate::tensor::Tensor;

fn einsum_f(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let eq = match a.pos.first() {
        Some(Value::Str(s)) => s.to_string(),
        _ => return Err(type_error("einsum(): argument 'equation' must be str")),
    };
    let rest: Vec<Value> = match a.pos.get(1..) {
        Some([one]) if as_tensor(one).is_none() => i.collect(one)?,
        Some(r) => r.to_vec(),
        None => vec![],
    };
    let ops = rest
        .iter()
        .map(|v| {
            as_tensor(v).cloned().ok_or_else(|| {
                type_error(format!(
                    "einsum(): operands must be Tensors, not {}",
                    v.type_name()
                ))
            })
        })
        .collect::<PyResult<Vec<Tensor>>>()?;
    Ok(wrap(einsum::einsum(&eq, &ops).py()?))
}

fn tensor0(a: &Args, f: &str) -> PyResult<Tensor> {
    match arg(a, 0, "input").or_else(|| kwarg(a, "x")) {
        Some(v) => as_tensor(&v).cloned().ok_or_else(|| {
            type_error(format!(
                "linalg.{f}(): argument 'input' (position 1) must be Tensor, not {}",
                v.type_name()
            ))
        }),
        None => Err(type_error(format!(
            "linalg.{f}() missing required argument 'input'"
        ))),
    }
}

fn ord_of(v: Option<Value>) -> PyResult<Option<f64>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(Value::Str(s)) if &*s == "fro" => Ok(Some(2.0)),
        Some(Value::Str(s)) => Err(not_implemented(format!(
            "cudalearn does not implement the '{s}' matrix norm yet"
        ))
        .hint("'fro' and vector norms (torch.linalg.vector_norm) are supported")),
        Some(v) => scalar_of(&v).map(|s| Some(s.to_f64())).ok_or_else(|| {
            type_error(format!(
                "linalg.norm(): argument 'ord' must be a number or str, not {}",
                v.type_name()
            ))
        }),
    }
}

/// `torch.linalg.norm(x, ord=None, dim=None, keepdim=False)`: vector norms, and the
/// Frobenius norm of a matrix; other matrix norms are not implemented.
fn linalg_norm(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = tensor0(&a, "norm")?;
    let fro = matches!(arg(&a, 1, "ord"), Some(Value::Str(ref s)) if &**s == "fro");
    let ord = ord_of(arg(&a, 1, "ord"))?;
    let d = dims(i, arg(&a, 2, "dim"))?;
    let keep = arg(&a, 3, "keepdim")
        .map(|v| i.truthy(&v))
        .transpose()?
        .unwrap_or(false);
    let matrix = match &d {
        Some(d) => d.len() == 2,
        None => x.ndim() == 2,
    };
    if matrix && ord.is_some() && !fro {
        return Err(not_implemented(
            "cudalearn does not implement matrix norms other than 'fro' in torch.linalg.norm yet",
        )
        .hint("torch.linalg.vector_norm(x, ord) treats the matrix as a vector"));
    }
    Ok(wrap(
        stats::vector_norm(&x, ord.unwrap_or(2.0), d.as_deref(), keep).py()?,
    ))
}

fn vector_norm(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = tensor0(&a, "vector_norm")?;
    let ord = ord_of(arg(&a, 1, "ord"))?.unwrap_or(2.0);
    let d = dims(i, arg(&a, 2, "dim"))?;
    let keep = arg(&a, 3, "keepdim")
        .map(|v| i.truthy(&v))
        .transpose()?
        .unwrap_or(false);
    Ok(wrap(stats::vector_norm(&x, ord, d.as_deref(), keep).py()?))
}

/// `torch.linalg`.
pub fn linalg_module() -> Value {
    crate::lang::modules::make_module(
        "torch.linalg",
        &[("norm", linalg_norm), ("vector_norm", vector_norm)],
        &[],
    )
}

/// The tensor behind an array from `t.numpy()`.
fn ndarray(v: &Value) -> Option<Tensor> {
    match v {
        Value::Native(n) => n
            .as_any()
            .downcast_ref::<super::numpy::NdArray>()
            .map(|a| a.0.clone()),
        _ => None,
    }
}

/// `torch.from_numpy(arr)`: a tensor sharing the array's memory.
fn from_numpy(_: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let v = a.pos.first().cloned().unwrap_or(Value::None);
    match ndarray(&v) {
        Some(t) => Ok(wrap(t.detach())),
        None => Err(type_error(format!(
            "expected np.ndarray (got {})",
            v.type_name()
        ))),
    }
}

/// `torch.as_tensor(data, dtype=None, device=None)`: the same tensor when nothing changes, a
/// tensor sharing an array's memory, else a copy (`torch.tensor`).
fn as_tensor_f(i: &mut Interp, this: &Value, a: Args) -> PyResult<Value> {
    let v = a.pos.first().cloned().unwrap_or(Value::None);
    let base = match (as_tensor(&v), ndarray(&v)) {
        (Some(t), _) => Some((t.clone(), true)),
        (None, Some(t)) => Some((t.detach(), false)),
        _ => None,
    };
    let Some((t, same)) = base else {
        return super::functions::tensor(i, this, a);
    };
    let dtype = dtype_kw(&a)?.unwrap_or(t.dtype());
    let device = match kwarg(&a, "device").filter(|d| !matches!(d, Value::None)) {
        Some(d) => device_arg(&d)?,
        None => t.device(),
    };
    if dtype == t.dtype() && device == t.device() {
        return Ok(if same { v } else { wrap(t) });
    }
    check_available(device)?;
    Ok(wrap(t.to_dtype_device(dtype, device).py()?))
}

/// `torch.f(..., out=t)`: the result copied into `t`, which is returned. `t` must already
/// have the result's shape (cudalearn cannot resize a tensor in place).
pub fn write_out(name: &str, r: Value, out: &Value) -> PyResult<Value> {
    if matches!(out, Value::None) {
        return Ok(r);
    }
    let (Some(o), Some(rt)) = (as_tensor(out), as_tensor(&r)) else {
        return Err(type_error(format!(
            "{name}(): argument 'out' must be Tensor, not {}",
            out.type_name()
        )));
    };
    if o.shape() != rt.shape() {
        return Err(runtime_error(format!(
            "cudalearn cannot resize the out= tensor of {name}(): it has shape {} and the result has shape {}",
            crate::tensor::shape::fmt_list(o.shape()),
            crate::tensor::shape::fmt_list(rt.shape())
        ))
        .hint("make it with the result's shape (torch.empty(...) of that size), or drop out= and assign the result"));
    }
    if !crate::tensor::promote::can_cast(rt.dtype(), o.dtype()) {
        return Err(runtime_error(format!(
            "result type {} can't be cast to the desired output type {}",
            rt.dtype().c10_name(),
            o.dtype().c10_name()
        )));
    }
    if (o.requires_grad() || rt.requires_grad()) && crate::tensor::autograd::is_enabled() {
        return Err(runtime_error(format!(
            "{name}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
        )));
    }
    crate::tensor::ops::inplace::copy_(o, rt).py()?;
    Ok(out.clone())
}

pub fn torch_fns() -> Vec<(&'static str, NativeFn)> {
    let mut v: Vec<(&'static str, NativeFn)> = vec![
        ("einsum", einsum_f),
        ("from_numpy", from_numpy),
        ("as_tensor", as_tensor_f),
        ("save", super::save::save),
        ("load", super::save::load),
    ];
    v.extend_from_slice(super::methods_extra::TORCH_FORMS);
    v
}

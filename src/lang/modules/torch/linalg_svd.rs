//! `torch.linalg.svd`, `torch.svd` and `Tensor.svd`, binding `tensor::ops::extra::svd`; their
//! results are `torch.return_types` named tuples (`linalg_svd(U, S, Vh)`, `svd(U, S, V)`).
use super::convert::*;
use super::methods::{arg, this};
use super::return_types::NamedResult;
use crate::lang::builtins::kwarg;
use crate::lang::error::{runtime_error, type_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::value::*;
use crate::tensor::ops::extra::svd;
use crate::tensor::Tensor;

fn named(name: &'static str, fields: &'static [&'static str], ts: [Tensor; 3]) -> Value {
    Value::Native(NativeRc::new(NamedResult {
        name,
        fields,
        values: ts.into_iter().map(wrap).collect(),
    }))
}

fn input(a: &Args, f: &str) -> PyResult<Tensor> {
    match arg(a, 0, "input").or_else(|| kwarg(a, "A")) {
        Some(v) => as_tensor(&v).cloned().ok_or_else(|| {
            type_error(format!(
                "{f}(): argument 'input' (position 1) must be Tensor, not {}",
                v.type_name()
            ))
        }),
        None => Err(type_error(format!(
            "{f}() missing 1 required positional arguments: \"input\""
        ))),
    }
}

fn flag(i: &mut Interp, a: &Args, k: usize, name: &str, default: bool) -> PyResult<bool> {
    match arg(a, k, name) {
        None => Ok(default),
        Some(v) => i.truthy(&v),
    }
}

/// `torch.linalg.svd(A, full_matrices=True, *, driver=None)`.
pub fn linalg_svd(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = input(&a, "linalg_svd")?;
    let full = flag(i, &a, 1, "full_matrices", true)?;
    if kwarg(&a, "driver").is_some_and(|d| !matches!(d, Value::None)) {
        return Err(runtime_error(
            "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.",
        ));
    }
    let (u, s, vh) = svd::linalg_svd(&x, full).py()?;
    Ok(named("linalg_svd", &["U", "S", "Vh"], [u, s, vh]))
}

/// `torch.svd(input, some=True, compute_uv=True)` and `input.svd(...)`.
fn svd_of(i: &mut Interp, x: &Tensor, a: &Args, at: usize) -> PyResult<Value> {
    let some = flag(i, a, at, "some", true)?;
    let uv = flag(i, a, at + 1, "compute_uv", true)?;
    let (u, s, v) = svd::svd(x, some, uv).py()?;
    Ok(named("svd", &["U", "S", "V"], [u, s, v]))
}

/// `torch.svd(input, some=True, compute_uv=True)`.
pub fn torch_svd(i: &mut Interp, _: &Value, a: Args) -> PyResult<Value> {
    let x = input(&a, "svd")?;
    svd_of(i, &x, &a, 1)
}

/// `Tensor.svd(some=True, compute_uv=True)`.
pub fn tensor_svd(i: &mut Interp, t: &Value, a: Args) -> PyResult<Value> {
    svd_of(i, &this(t)?, &a, 0)
}

//! Reductions: `sum`, `mean`, `prod`, `max`/`min` (whole tensor, or along a dim with indices),
//! `amax`/`amin`, `argmax`/`argmin`, `all`/`any`, and `softmax`/`log_softmax`.
use crate::tensor::autocast::{self, AmpOp};
use crate::tensor::error::{index_err, not_impl, not_impl_for, runtime, Result};
use crate::tensor::promote::default_dtype;
use crate::tensor::shape::wrap_dim;
use crate::tensor::{DType, Scalar, Tensor};

pub use crate::core::op::ReduceOp;

/// Normalise a `dim=` argument: `None` or `()` means every dim; duplicates are an error.
pub fn reduce_dims(dims: Option<&[i64]>, ndim: usize) -> Result<Vec<usize>> {
    let dims = match dims {
        None | Some([]) => return Ok((0..ndim).collect()),
        Some(d) => d,
    };
    let mut out: Vec<usize> = Vec::with_capacity(dims.len());
    for &d in dims {
        let w = wrap_dim(d, ndim)?;
        if out.contains(&w) {
            return runtime(format!(
                "dim {w} appears multiple times in the list of dims"
            ));
        }
        out.push(w);
    }
    // a 0-dim tensor has no dim to reduce (dim 0 / -1 name the tensor itself)
    out.retain(|&d| d < ndim);
    out.sort_unstable();
    Ok(out)
}

/// The dtype integer sums accumulate in.
fn sum_dtype(dt: DType) -> DType {
    if dt.is_floating() {
        dt
    } else {
        DType::I64
    }
}

fn run(op: ReduceOp, x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    crate::tensor::dispatch::on(x.device()).reduce(op, x, dims, keepdim, x.dtype())
}

/// `t.sum(dim=None, keepdim=False, dtype=None)`.
pub fn sum(
    x: &Tensor,
    dims: Option<&[i64]>,
    keepdim: bool,
    dtype: Option<DType>,
) -> Result<Tensor> {
    let dtype = autocast::opt_dtype(AmpOp::Sum, x, dtype);
    let d = reduce_dims(dims, x.ndim())?;
    let x2 = x.to_dtype(dtype.unwrap_or_else(|| sum_dtype(x.dtype())))?;
    let out = run(ReduceOp::Sum, &x2, &d, keepdim)?;
    if crate::tensor::autograd::is_recording1(&x2) {
        let name = if dims.is_none() {
            "SumBackward0"
        } else {
            "SumBackward1"
        };
        grad::record_sum(name, &x2, &d, keepdim, 1.0, &out)?;
    }
    Ok(out)
}

/// `t.mean(dim=None, keepdim=False, dtype=None)`: sum, then divide (as PyTorch's CPU path does).
pub fn mean(
    x: &Tensor,
    dims: Option<&[i64]>,
    keepdim: bool,
    dtype: Option<DType>,
) -> Result<Tensor> {
    autocast::excluded(|| mean_uncast(x, dims, keepdim, dtype))
}

/// `mean` itself: not an autocast op (in PyTorch one kernel), so the `sum` it runs is not cast.
fn mean_uncast(
    x: &Tensor,
    dims: Option<&[i64]>,
    keepdim: bool,
    dtype: Option<DType>,
) -> Result<Tensor> {
    match dtype {
        Some(dt) if !dt.is_floating() => {
            return not_impl(format!(
                "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: {}",
                dt.c10_name()
            ))
        }
        None if !x.dtype().is_floating() => {
            return not_impl(format!(
                "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                x.dtype().c10_name()
            ))
        }
        _ => {}
    }
    if crate::tensor::autograd::is_recording1(x) {
        let x2 = x.to_dtype(dtype.unwrap_or(x.dtype()))?;
        let out = crate::tensor::autograd::mode::without(|| mean(&x2, dims, keepdim, None))?;
        let d = reduce_dims(dims, x.ndim())?;
        let count: usize = d.iter().map(|&i| x.shape()[i]).product();
        let name = if dims.is_none() {
            "MeanBackward0"
        } else {
            "MeanBackward1"
        };
        grad::record_sum(name, &x2, &d, keepdim, count as f64, &out)?;
        return Ok(out);
    }
    let d = reduce_dims(dims, x.ndim())?;
    let count: usize = d.iter().map(|&i| x.shape()[i]).product();
    let out = dtype.unwrap_or(x.dtype());
    if matches!(out, DType::F16 | DType::BF16) {
        // half types: summed and divided in float, rounded once
        let s = sum(x, dims, keepdim, Some(DType::F32))?;
        let m = super::binary::binary_scalar(
            super::binary::BinaryOp::Div,
            &s,
            Scalar::Int(count as i64),
            false,
        )?;
        return m.to_dtype(out);
    }
    let s = sum(x, dims, keepdim, dtype)?;
    super::binary::binary_scalar(
        super::binary::BinaryOp::Div,
        &s,
        Scalar::Int(count as i64),
        false,
    )
}

/// `t.prod(dim=None, keepdim=False, dtype=None)`.
pub fn prod(x: &Tensor, dim: Option<i64>, keepdim: bool, dtype: Option<DType>) -> Result<Tensor> {
    // autocast: float32 on the CPU, `dtype=float32` on CUDA
    let x = &autocast::cast1(AmpOp::Prod, x)?;
    let dtype = autocast::opt_dtype(AmpOp::Prod, x, dtype);
    let dims = dim.map(|d| vec![d]);
    let d = reduce_dims(dims.as_deref(), x.ndim())?;
    let x2 = x.to_dtype(dtype.unwrap_or_else(|| sum_dtype(x.dtype())))?;
    let out = run(ReduceOp::Prod, &x2, &d, keepdim)?;
    if crate::tensor::autograd::is_recording1(&x2) {
        let name = if dim.is_none() {
            "ProdBackward0"
        } else {
            "ProdBackward1"
        };
        grad::record_prod(name, &x2, &d, keepdim, &out)?;
    }
    Ok(out)
}

fn minmax_name(max: bool) -> &'static str {
    if max {
        "max"
    } else {
        "min"
    }
}

/// `t.max()` / `t.min()` over every element (a 0-dim tensor).
pub fn max_all(x: &Tensor, max: bool) -> Result<Tensor> {
    if x.numel() == 0 {
        return runtime(format!(
            "{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
            minmax_name(max)
        ));
    }
    let d: Vec<usize> = (0..x.ndim()).collect();
    let out = crate::tensor::dispatch::on(x.device()).max_all(max, x)?;
    if crate::tensor::autograd::is_recording1(x) {
        let name = if max { "MaxBackward1" } else { "MinBackward1" };
        grad::record_amax(name, x, &d, false, &out)?;
    }
    Ok(out)
}

fn check_nonempty_dim(x: &Tensor, d: usize, name: &str) -> Result<()> {
    if x.ndim() > 0 && x.shape()[d] == 0 {
        return index_err(format!(
            "{name}(): Expected reduction dim {d} to have non-zero size."
        ));
    }
    Ok(())
}

/// `t.max(dim, keepdim)` / `t.min(dim, keepdim)`: (values, indices).
pub fn max_dim(x: &Tensor, dim: i64, keepdim: bool, max: bool) -> Result<(Tensor, Tensor)> {
    let d = wrap_dim(dim, x.ndim())?;
    check_nonempty_dim(x, d, minmax_name(max))?;
    if x.ndim() == 0 {
        let idx = Tensor::scalar(Scalar::Int(0), DType::I64, x.device())?;
        return Ok((x.clone_tensor()?, idx));
    }
    let (v, i) = crate::tensor::dispatch::on(x.device()).arg_reduce(max, x, Some(d), keepdim)?;
    if crate::tensor::autograd::is_recording1(x) {
        let name = if max { "MaxBackward0" } else { "MinBackward0" };
        grad::record_select_dim(name, x, d, keepdim, &i, &v)?;
    }
    Ok((v, i))
}

/// `t.amax(dim)` / `t.amin(dim)`: values only, over one or more dims.
pub fn amax(x: &Tensor, dims: Option<&[i64]>, keepdim: bool, max: bool) -> Result<Tensor> {
    let d = reduce_dims(dims, x.ndim())?;
    for &i in &d {
        if x.shape()[i] == 0 {
            let name = if max { "amax" } else { "amin" };
            return index_err(format!(
                "{name}(): Expected reduction dim {i} to have non-zero size."
            ));
        }
    }
    let out = run(
        if max { ReduceOp::Max } else { ReduceOp::Min },
        x,
        &d,
        keepdim,
    )?;
    if crate::tensor::autograd::is_recording1(x) {
        let name = if max {
            "AmaxBackward0"
        } else {
            "AminBackward0"
        };
        grad::record_amax(name, x, &d, keepdim, &out)?;
    }
    Ok(out)
}

/// `t.argmax(dim=None, keepdim=False)` / `argmin`.
pub fn argmax(x: &Tensor, dim: Option<i64>, keepdim: bool, max: bool) -> Result<Tensor> {
    let name = if max { "argmax" } else { "argmin" };
    if x.dtype() == DType::Bool {
        return not_impl(format!("{name}(): does not support bool input"));
    }
    match dim {
        None => {
            if x.numel() == 0 {
                return index_err(format!(
                    "{name}(): Expected reduction dim to be specified for input.numel() == 0."
                ));
            }
            let (_, i) = crate::tensor::dispatch::on(x.device()).arg_reduce(max, x, None, false)?;
            if keepdim {
                let all: Vec<usize> = (0..x.ndim()).collect();
                let ones: Vec<i64> = crate::tensor::shape::reduced_shape(x.shape(), &all, true)
                    .iter()
                    .map(|&d| d as i64)
                    .collect();
                return i.reshape(&ones);
            }
            Ok(i)
        }
        Some(dim) => {
            let d = wrap_dim(dim, x.ndim())?;
            check_nonempty_dim(x, d, name)?;
            if x.ndim() == 0 {
                return Tensor::scalar(Scalar::Int(0), DType::I64, x.device());
            }
            Ok(crate::tensor::dispatch::on(x.device())
                .arg_reduce(max, x, Some(d), keepdim)?
                .1)
        }
    }
}

/// `t.all(dim=None)` / `t.any(dim=None)`. uint8 inputs give uint8, as in PyTorch.
pub fn all_any(x: &Tensor, dims: Option<&[i64]>, keepdim: bool, all: bool) -> Result<Tensor> {
    let d = reduce_dims(dims, x.ndim())?;
    let r = run(
        if all { ReduceOp::All } else { ReduceOp::Any },
        x,
        &d,
        keepdim,
    )?;
    if x.dtype() == DType::U8 {
        return r.to_dtype(DType::U8);
    }
    Ok(r)
}

/// Whether any element is true (internal checks).
pub(crate) fn any_true(x: &Tensor) -> Result<bool> {
    if x.numel() == 0 {
        return Ok(false);
    }
    Ok(all_any(x, None, false, false)?.item()?.to_bool())
}

/// `t.softmax(dim, dtype=None)` and `log_softmax`.
pub fn softmax(x: &Tensor, dim: i64, dtype: Option<DType>, log: bool) -> Result<Tensor> {
    let amp = if log {
        AmpOp::LogSoftmax
    } else {
        AmpOp::Softmax
    };
    let dtype = autocast::opt_dtype(amp, x, dtype);
    let d = wrap_dim(dim, x.ndim())?;
    let x2 = match dtype {
        Some(dt) => x.to_dtype(dt)?,
        None => x.clone(),
    };
    if !x2.dtype().is_floating() {
        let k = if log {
            "log_softmax_lastdim_kernel_impl"
        } else {
            "softmax_lastdim_kernel_impl"
        };
        return not_impl_for(k, x2.dtype());
    }
    let out = if x2.ndim() == 0 {
        let one = if log { 0.0 } else { 1.0 };
        Tensor::scalar(Scalar::Float(one), x2.dtype(), x2.device())?
    } else {
        crate::tensor::dispatch::on(x.device()).softmax(&x2, d, log)?
    };
    if crate::tensor::autograd::is_recording1(&x2) {
        grad::record_softmax(&x2, d, log, &out)?;
    }
    Ok(out)
}

/// The autograd rules of this file.
mod grad;

/// The default float dtype, for callers promoting integer inputs.
pub fn float_dtype_for(dt: DType) -> DType {
    if dt.is_floating() {
        dt
    } else {
        default_dtype()
    }
}

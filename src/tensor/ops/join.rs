//! `cat`, `stack` and `where`.
use super::{common_device, operand, same_device};
use crate::tensor::autocast::{self, AmpOp};
use crate::tensor::error::{runtime, value_err, Result};
use crate::tensor::promote::{result_type, Operand};
use crate::tensor::scalar::checked_scalar;
use crate::tensor::shape::{broadcast_shapes, contiguous_strides, fmt_list, wrap_dim, Dims};
use crate::tensor::{DType, Scalar, Tensor};

/// A `where` branch: a tensor or a Python number.
#[derive(Clone, Debug)]
pub enum TensorOrScalar {
    Tensor(Tensor),
    Scalar(Scalar),
}

/// `torch.cat(tensors, dim)`.
pub fn cat(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    let ts = autocast::cast_list(AmpOp::Cat, ts)?;
    autocast::excluded(|| cat_uncast(&ts, dim))
}

/// `cat` past autocast (its inputs already cast, nested ops not cast again).
fn cat_uncast(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    let refs: Vec<&Tensor> = ts.iter().collect();
    if !crate::tensor::autograd::is_recording(&refs) {
        return cat_raw(ts, dim);
    }
    let out = crate::tensor::autograd::mode::without(|| cat_raw(ts, dim))?;
    grad::record_cat(&refs, dim, &out)?;
    Ok(out)
}

fn cat_raw(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    if ts.is_empty() {
        return value_err("torch.cat(): expected a non-empty list of Tensors");
    }
    let refs: Vec<&Tensor> = ts.iter().collect();
    let device = same_device(&refs)?;
    for (i, t) in ts.iter().enumerate() {
        if t.ndim() == 0 {
            return runtime(format!(
                "zero-dimensional tensor (at position {i}) cannot be concatenated"
            ));
        }
    }
    let dtype = result_type(
        &ts.iter()
            .map(|t| Operand::Dim(t.dtype()))
            .collect::<Vec<_>>(),
    )?;
    // legacy rule: 1-D empty tensors are skipped
    let skip = |t: &Tensor| t.ndim() == 1 && t.numel() == 0;
    let Some(first) = ts.iter().find(|t| !skip(t)) else {
        return crate::tensor::create::empty(&[0], Some(dtype), device);
    };
    let d = wrap_dim(dim, first.ndim())?;
    let mut total = 0usize;
    for (i, t) in ts.iter().enumerate() {
        if skip(t) {
            continue;
        }
        if t.ndim() != first.ndim() {
            return runtime(format!(
                "Tensors must have same number of dimensions: got {} and {}",
                first.ndim(),
                t.ndim()
            ));
        }
        for k in 0..t.ndim() {
            if k != d && t.shape()[k] != first.shape()[k] {
                return runtime(format!(
                    "Sizes of tensors must match except in dimension {d}. Expected size {} but got size {} for tensor number {i} in the list.",
                    first.shape()[k],
                    t.shape()[k]
                ));
            }
        }
        total += t.shape()[d];
    }
    let mut shape = first.dims().clone();
    shape[d] = total;
    let be = crate::tensor::dispatch::on(device);
    let n = crate::tensor::shape::checked_numel(&shape)?;
    // every element is one input's copy below (the skipped inputs fill none of it)
    let storage = be.empty(dtype, n, device)?;
    let out = Tensor::from_parts(storage, shape.clone(), contiguous_strides(&shape), 0);
    let mut at = 0usize;
    for t in ts.iter().filter(|t| !skip(t)) {
        let len = t.shape()[d];
        let part = out.narrow(d as i64, at as i64, len as i64)?;
        be.copy(&part, t)?;
        at += len;
    }
    Ok(out)
}

/// `torch.stack(tensors, dim)`.
pub fn stack(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    let ts = autocast::cast_list(AmpOp::Stack, ts)?;
    autocast::excluded(|| stack_uncast(&ts, dim))
}

/// `stack` past autocast (its inputs already cast, nested ops not cast again).
fn stack_uncast(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    if ts.is_empty() {
        return runtime("stack expects a non-empty TensorList");
    }
    let d = wrap_dim(dim, ts[0].ndim() + 1)?;
    for (i, t) in ts.iter().enumerate() {
        if t.shape() != ts[0].shape() {
            return runtime(format!(
                "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {i}",
                fmt_list(ts[0].shape()),
                fmt_list(t.shape())
            ));
        }
    }
    let refs: Vec<&Tensor> = ts.iter().collect();
    let rec = crate::tensor::autograd::is_recording(&refs);
    let out = crate::tensor::autograd::mode::without(|| {
        let us: Vec<Tensor> = ts
            .iter()
            .map(|t| t.unsqueeze_raw(d as i64))
            .collect::<Result<_>>()?;
        cat_raw(&us, d as i64)
    })?;
    if rec {
        grad::record_stack(&refs, d, &out)?;
    }
    Ok(out)
}

/// `torch.where(cond, a, b)` with tensors on both sides.
pub fn where_tensors(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    where_(
        cond,
        &TensorOrScalar::Tensor(a.clone()),
        &TensorOrScalar::Tensor(b.clone()),
    )
}

/// `torch.where(cond, a, b)`.
pub fn where_(cond: &Tensor, a: &TensorOrScalar, b: &TensorOrScalar) -> Result<Tensor> {
    if cond.dtype() != DType::Bool {
        return runtime(format!(
            "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
            cond.dtype().c10_name()
        ));
    }
    let op = |x: &TensorOrScalar| match x {
        TensorOrScalar::Tensor(t) => operand(t),
        TensorOrScalar::Scalar(s) => Operand::Scalar(*s),
    };
    let dtype = result_type(&[op(a), op(b)])?;
    let mut devs: Vec<&Tensor> = vec![cond];
    for x in [a, b] {
        if let TensorOrScalar::Tensor(t) = x {
            devs.push(t);
        }
    }
    let device = common_device(&devs)?;
    let mut shape: Dims = cond.dims().clone();
    let as_tensor = |x: &TensorOrScalar| -> Result<Tensor> {
        match x {
            TensorOrScalar::Tensor(t) => t.to_dtype_device(dtype, device),
            TensorOrScalar::Scalar(s) => Tensor::scalar(checked_scalar(*s, dtype)?, dtype, device),
        }
    };
    let (ta, tb) = (as_tensor(a)?, as_tensor(b)?);
    shape = broadcast_shapes(&shape, ta.shape())?;
    shape = broadcast_shapes(&shape, tb.shape())?;
    let c = cond.to_device(device)?;
    let out = crate::tensor::dispatch::on(device).where_(&c, &ta, &tb, &shape)?;
    let ins: Vec<&Tensor> = [a, b]
        .into_iter()
        .filter_map(|x| match x {
            TensorOrScalar::Tensor(t) => Some(t),
            TensorOrScalar::Scalar(_) => None,
        })
        .collect();
    if crate::tensor::autograd::is_recording(&ins) {
        grad::record_where(&c, a, b, &out)?;
    }
    Ok(out)
}

/// The autograd rules of this file.
mod grad;

//! In-place ops (`add_`, `x += y`, `fill_`, `zero_`, `copy_`): they write through the tensor's
//! storage, so every view of it sees the change. PyTorch's rules: the result must be castable to
//! the destination's dtype, must not need a bigger shape, and the destination must not have two
//! elements at one address; a source that partially overlaps the destination is refused.
use super::binary::{check_alpha, check_scalar_operand, compute_dtype, BinaryOp};
use super::{check_no_partial_overlap, check_writable, common_device, operand};
use crate::tensor::autograd;
use crate::tensor::error::{runtime, Result};
use crate::tensor::promote::{can_cast, result_type, Operand};
use crate::tensor::shape::{broadcast_shapes, fmt_list};
use crate::tensor::{DType, Scalar, Tensor};

fn cast_check(result: DType, dst: DType) -> Result<()> {
    if !can_cast(result, dst) {
        return Err(crate::tensor::TensorError::new(
            crate::tensor::ErrorKind::Runtime,
            format!("result type {} can't be cast to the desired output type {}", result.c10_name(), dst.c10_name()),
        )
        .with_hint(format!(
            "an in-place op keeps the tensor's dtype ({}); convert first (e.g. x = x.float()) or use the out-of-place form",
            dst.name()
        )));
    }
    Ok(())
}

fn shape_check(dst: &Tensor, src_shape: &[usize]) -> Result<()> {
    let shape = broadcast_shapes(dst.shape(), src_shape)?;
    if &*shape != dst.shape() {
        return runtime(format!(
            "output with shape {} doesn't match the broadcast shape {}",
            fmt_list(dst.shape()),
            fmt_list(&shape)
        ));
    }
    Ok(())
}

/// `dst = op(dst, src)` in place (`dst.add_(src)`, `dst *= src`).
pub fn binary_inplace(op: BinaryOp, dst: &Tensor, src: &Tensor) -> Result<()> {
    crate::tensor::autocast::excluded(|| binary_inplace_uncast(op, dst, src))
}

/// The in-place op itself: not an autocast op (PyTorch lists `pow`, not `pow_`), so the
/// out-of-place op it runs here is not cast.
fn binary_inplace_uncast(op: BinaryOp, dst: &Tensor, src: &Tensor) -> Result<()> {
    if autograd::is_recording(&[dst, src]) {
        autograd::node::check_inplace(dst)?;
        let old = autograd::node::history_of(dst)?;
        let r = super::binary::binary(op, &old, src)?;
        shape_check(dst, r.shape())?;
        return write_result_tracked(dst, &r);
    }
    binary_inplace_raw(op, dst, src)?;
    dst.bump_version();
    Ok(())
}

fn binary_inplace_raw(op: BinaryOp, dst: &Tensor, src: &Tensor) -> Result<()> {
    let device = common_device(&[dst, src])?;
    check_writable(dst)?;
    check_no_partial_overlap(dst, src)?;
    let common = result_type(&[operand(dst), operand(src)])?;
    let compute = compute_dtype(
        op,
        common,
        dst.dtype() == DType::Bool && src.dtype() == DType::Bool,
    )?;
    let out = if op.returns_bool() {
        DType::Bool
    } else {
        compute
    };
    cast_check(out, dst.dtype())?;
    shape_check(dst, src.shape())?;
    if out == dst.dtype() && compute == dst.dtype() {
        let src2 = src.to_dtype_device(compute, device)?;
        if matches!(
            op,
            BinaryOp::FloorDiv | BinaryOp::TruncDiv | BinaryOp::Rem | BinaryOp::Fmod
        ) && compute.is_integral()
        {
            // reuse the out-of-place path's zero-divisor check
            let r = super::binary::binary(op, dst, &src2)?;
            return crate::tensor::dispatch::on(device).copy(dst, &r);
        }
        return crate::tensor::dispatch::on(device).binary_inplace(op, dst, &src2);
    }
    let r = super::binary::binary(op, dst, src)?;
    crate::tensor::dispatch::on(device).copy(dst, &r)
}

/// `dst = op(dst, s)` in place with a Python number (`x += 1`, `x.mul_(0.5)`).
pub fn binary_scalar_inplace(op: BinaryOp, dst: &Tensor, s: Scalar) -> Result<()> {
    crate::tensor::autocast::excluded(|| binary_scalar_inplace_uncast(op, dst, s))
}

/// The in-place op itself: not an autocast op (PyTorch lists `pow`, not `pow_`), so the
/// out-of-place op it runs here is not cast.
fn binary_scalar_inplace_uncast(op: BinaryOp, dst: &Tensor, s: Scalar) -> Result<()> {
    if autograd::is_recording1(dst) {
        autograd::node::check_inplace(dst)?;
        let old = autograd::node::history_of(dst)?;
        let r = super::binary::binary_scalar(op, &old, s, false)?;
        return write_result_tracked(dst, &r);
    }
    binary_scalar_inplace_raw(op, dst, s)?;
    dst.bump_version();
    Ok(())
}

fn binary_scalar_inplace_raw(op: BinaryOp, dst: &Tensor, s: Scalar) -> Result<()> {
    check_writable(dst)?;
    let common = result_type(&[operand(dst), Operand::Scalar(s)])?;
    let compute = compute_dtype(op, common, dst.dtype() == DType::Bool && s.is_bool())?;
    let out = if op.returns_bool() {
        DType::Bool
    } else {
        compute
    };
    cast_check(out, dst.dtype())?;
    check_scalar_operand(op, compute, dst, s, false)?;
    if out == dst.dtype() && compute == dst.dtype() {
        return crate::tensor::dispatch::on(dst.device()).binary_scalar_inplace(op, dst, s);
    }
    let r = super::binary::binary_scalar(op, dst, s, false)?;
    crate::tensor::dispatch::on(dst.device()).copy(dst, &r)
}

/// `dst.add_(src, alpha=alpha)` / `sub_`.
pub fn add_alpha_(dst: &Tensor, src: &Tensor, alpha: Scalar, subtract: bool) -> Result<()> {
    let common = result_type(&[operand(dst), operand(src)])?;
    check_alpha(common, alpha)?;
    let op = if subtract {
        BinaryOp::Sub
    } else {
        BinaryOp::Add
    };
    if alpha.to_f64() == 1.0 {
        return binary_inplace(op, dst, src);
    }
    let scaled = super::binary::binary_scalar(BinaryOp::Mul, src, alpha, false)?;
    binary_inplace(op, dst, &scaled)
}

/// `dst.fill_(v)`.
pub fn fill_(dst: &Tensor, v: Scalar) -> Result<()> {
    check_writable(dst)?;
    if autograd::is_recording1(dst) {
        autograd::node::check_inplace(dst)?;
        let old = autograd::node::history_of(dst)?;
        crate::tensor::dispatch::on(dst.device()).fill(dst, v)?;
        dst.bump_version();
        autograd::record("FillBackward0", &[&old], dst, &[], |g, _| {
            Ok(vec![Some(autograd::util::zeros_like(g)?)])
        })?;
        return autograd::views::rebase(dst);
    }
    crate::tensor::dispatch::on(dst.device()).fill(dst, v)?;
    dst.bump_version();
    Ok(())
}

/// `dst.fill_(t)` with a tensor value: it must be 0-dim.
pub fn fill_tensor_(dst: &Tensor, v: &Tensor) -> Result<()> {
    if v.ndim() != 0 {
        return runtime(format!(
            "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.",
            v.ndim()
        ));
    }
    fill_(dst, v.item()?)
}

/// `dst.zero_()`.
pub fn zero_(dst: &Tensor) -> Result<()> {
    fill_(dst, Scalar::Int(0))
}

/// `dst.copy_(src)`: broadcast and cast `src` into `dst` (any devices).
pub fn copy_(dst: &Tensor, src: &Tensor) -> Result<()> {
    if autograd::is_recording(&[dst, src]) {
        autograd::node::check_inplace(dst)?;
        let old = autograd::node::history_of(dst)?;
        copy_raw(dst, src)?;
        dst.bump_version();
        autograd::record("CopyBackwards", &[&old, src], dst, &[], |g, c| {
            Ok(vec![
                autograd::util::when(c.needs(0), || autograd::util::zeros_like(g))?,
                Some(g.clone()),
            ])
        })?;
        return autograd::views::rebase(dst);
    }
    copy_raw(dst, src)?;
    dst.bump_version();
    Ok(())
}

fn copy_raw(dst: &Tensor, src: &Tensor) -> Result<()> {
    check_writable(dst)?;
    check_no_partial_overlap(dst, src)?;
    shape_check(dst, src.shape())?;
    let src = if src.device() != dst.device() {
        src.to_device(dst.device())?
    } else {
        src.clone()
    };
    crate::tensor::dispatch::on(dst.device()).copy(dst, &src)
}

/// Write an op's result into `dst` (the tail of in-place forms computed out of place).
pub fn write_result(dst: &Tensor, r: &Tensor) -> Result<()> {
    cast_check(r.dtype(), dst.dtype())?;
    copy_(dst, r)
}

/// `write_result` for an in-place op whose result `r` was computed (and recorded) from
/// `dst`'s history: `dst` takes over `r`'s `grad_fn`.
pub fn write_result_tracked(dst: &Tensor, r: &Tensor) -> Result<()> {
    cast_check(r.dtype(), dst.dtype())?;
    copy_raw(dst, r)?;
    dst.bump_version();
    if r.requires_grad() && dst.dtype().is_floating() {
        dst.set_requires_grad(true);
        if let Some((n, nr)) = r.grad_edge() {
            n.rebind_output(r, dst);
            dst.set_grad_edge(Some((n, nr)));
        }
        crate::tensor::autograd::views::rebase(dst)?;
    }
    Ok(())
}

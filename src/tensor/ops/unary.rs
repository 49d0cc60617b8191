//! Elementwise unary ops with PyTorch's dtype rules: math functions turn integer and bool inputs
//! into the default float dtype; sign-like ops keep the dtype; predicates give bool.
use crate::tensor::error::{not_impl, not_impl_for, type_err, Result};
use crate::tensor::promote::default_dtype;
use crate::tensor::{DType, Tensor};

pub use crate::core::op::{UnaryOp, ALL_UNARY};

/// The dtype `op` computes in for an input of `dt`, or PyTorch's refusal.
fn compute_dtype(op: UnaryOp, dt: DType) -> Result<DType> {
    use UnaryOp::*;
    let b = dt == DType::Bool;
    if op.float_only() {
        return Ok(if dt.is_floating() {
            dt
        } else {
            default_dtype()
        });
    }
    match op {
        Neg if b => not_impl("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."),
        Abs if b => not_impl_for("abs_cpu", dt),
        Relu if b => not_impl("Boolean inputs not supported for relu"),
        Floor if b => not_impl_for("floor_vml_cpu", dt),
        Ceil if b => not_impl_for("ceil_vml_cpu", dt),
        Round if b => not_impl_for("round_vml_cpu", dt),
        Trunc if b => not_impl_for("trunc_vml_cpu", dt),
        Frac if !dt.is_floating() => not_impl_for("frac_cpu", dt),
        Square if b => Ok(DType::I64),
        BitwiseNot if dt.is_floating() => type_err("~ (operator.invert) is only implemented on integer and Boolean-type tensors"),
        _ => Ok(dt),
    }
}

/// `op(x)`, e.g. `unary(UnaryOp::Exp, &x)` for `torch.exp(x)`.
pub fn unary(op: UnaryOp, x: &Tensor) -> Result<Tensor> {
    // autocast: the unary ops PyTorch lists run in float32 on CUDA
    let cast;
    let x = match crate::tensor::autocast::AmpOp::of_unary(op) {
        Some(amp) => {
            cast = crate::tensor::autocast::cast1(amp, x)?;
            &cast
        }
        None => x,
    };
    let out = unary_raw(op, x)?;
    if crate::tensor::autograd::is_recording1(x) {
        grad::record_unary(op, x, &out)?;
    }
    Ok(out)
}

/// `unary` without autograd recording.
pub(crate) fn unary_raw(op: UnaryOp, x: &Tensor) -> Result<Tensor> {
    let dt = compute_dtype(op, x.dtype())?;
    let x2 = x.to_dtype(dt)?;
    crate::tensor::dispatch::on(x.device()).unary(op, &x2)
}

/// In-place form (`x.relu_()`, `x.neg_()`): computed out of place, then written back; in a
/// graph the tensor's history becomes the op applied to its old self.
pub fn unary_(op: UnaryOp, x: &Tensor) -> Result<()> {
    if !crate::tensor::autograd::is_recording1(x) {
        return super::inplace::write_result(x, &unary_raw(op, x)?);
    }
    crate::tensor::autograd::node::check_inplace(x)?;
    let old = crate::tensor::autograd::node::history_of(x)?;
    let r = unary(op, &old)?;
    super::inplace::write_result_tracked(x, &r)
}

/// The autograd rules of this file.
mod grad;

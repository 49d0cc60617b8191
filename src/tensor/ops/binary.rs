//! Elementwise binary ops (`+ - * / // % **`, bitwise, max/min, comparisons and logical ops)
//! between tensors or a tensor and a Python number, with PyTorch's promotion and messages.
use super::{common_device, operand};
use crate::tensor::autograd;
use crate::tensor::error::{not_impl, not_impl_for, runtime, Result};
use crate::tensor::promote::{default_dtype, result_type, Operand};
use crate::tensor::shape::broadcast_shapes;
use crate::tensor::{DType, Scalar, Tensor};

pub use crate::core::op::BinaryOp;

/// The dtype `op` computes in, given the promoted dtype of its inputs, or PyTorch's refusal.
/// `both_bool` is whether both inputs are bool (the subtraction check looks at the inputs).
pub(crate) fn compute_dtype(op: BinaryOp, common: DType, both_bool: bool) -> Result<DType> {
    use BinaryOp::*;
    let is_bool = common == DType::Bool;
    match op {
        Sub if both_bool => not_impl(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.",
        ),
        Div => Ok(if common.is_floating() { common } else { default_dtype() }),
        FloorDiv if is_bool => not_impl_for("div_floor_cpu", common),
        TruncDiv if is_bool => not_impl_for("div_trunc_cpu", common),
        Rem if is_bool => not_impl_for("remainder_cpu", common),
        Fmod if is_bool => not_impl_for("fmod_cpu", common),
        Pow if is_bool => not_impl_for("pow", common),
        BitAnd if common.is_floating() => not_impl_for("bitwise_and_cpu", common),
        BitOr if common.is_floating() => not_impl_for("bitwise_or_cpu", common),
        BitXor if common.is_floating() => not_impl_for("bitwise_xor_cpu", common),
        _ => Ok(common),
    }
}

fn is_int_division(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::FloorDiv | BinaryOp::TruncDiv | BinaryOp::Rem | BinaryOp::Fmod
    )
}

/// Integer `//` and `%` by zero raise, as in PyTorch.
fn check_int_divisor(op: BinaryOp, dtype: DType, divisor: &Tensor) -> Result<()> {
    if matches!(
        op,
        BinaryOp::FloorDiv | BinaryOp::TruncDiv | BinaryOp::Rem | BinaryOp::Fmod
    ) && dtype.is_integral()
    {
        let zero = Tensor::scalar(Scalar::Int(0), dtype, divisor.device())?;
        let hit = crate::tensor::dispatch::on(divisor.device()).binary(
            BinaryOp::Eq,
            divisor,
            &zero,
            divisor.shape(),
        )?;
        if super::reduce::any_true(&hit)? {
            return runtime("ZeroDivisionError");
        }
    }
    Ok(())
}

/// `op(a, b)` for two tensors.
pub fn binary(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if op == BinaryOp::Pow && crate::tensor::autocast::state::applies() {
        // autocast: pow runs in float32 on CUDA
        let (a, b) = crate::tensor::autocast::cast2(crate::tensor::autocast::AmpOp::Pow, a, b)?;
        return crate::tensor::autocast::excluded(|| binary(op, &a, &b));
    }
    let out = binary_raw(op, a, b)?;
    if autograd::is_recording(&[a, b]) {
        grad::record_binary(op, a, b, &out)?;
    }
    Ok(out)
}

/// `binary` without autograd recording.
pub(crate) fn binary_raw(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    // Fast path for the common case (`x + y` of one dtype, shape and device): promotion and
    // broadcasting are the identity, so go straight to the kernel.
    let dt = a.dtype();
    if dt == b.dtype()
        && a.device() == b.device()
        && a.shape() == b.shape()
        && !(dt.is_integral() && is_int_division(op))
    {
        let compute = compute_dtype(op, dt, dt == DType::Bool)?;
        if compute == dt {
            return crate::tensor::dispatch::on(a.device()).binary(op, a, b, a.shape());
        }
    }
    let device = common_device(&[a, b])?;
    let common = result_type(&[operand(a), operand(b)])?;
    let compute = compute_dtype(
        op,
        common,
        a.dtype() == DType::Bool && b.dtype() == DType::Bool,
    )?;
    let shape = broadcast_shapes(a.shape(), b.shape())?;
    let a2 = a.to_dtype_device(compute, device)?;
    let b2 = b.to_dtype_device(compute, device)?;
    check_int_divisor(op, compute, &b2)?;
    crate::tensor::dispatch::on(device).binary(op, &a2, &b2, &shape)
}

/// `op(a, s)`, or `op(s, a)` when `reversed` (`2 - x`, `2 ** x`).
pub fn binary_scalar(op: BinaryOp, a: &Tensor, s: Scalar, reversed: bool) -> Result<Tensor> {
    if op == BinaryOp::Pow && crate::tensor::autocast::state::applies() {
        // autocast: pow runs in float32 on CUDA
        let a = crate::tensor::autocast::cast1(crate::tensor::autocast::AmpOp::Pow, a)?;
        return crate::tensor::autocast::excluded(|| binary_scalar(op, &a, s, reversed));
    }
    if autograd::is_recording1(a) {
        if reversed && op == BinaryOp::Div {
            // PyTorch's `2 / x` is `x.reciprocal() * 2`: two nodes
            let r = super::unary::unary(super::unary::UnaryOp::Reciprocal, a)?;
            return binary_scalar(BinaryOp::Mul, &r, s, false);
        }
        let out = binary_scalar_raw(op, a, s, reversed)?;
        grad::record_binary_scalar(op, a, s, reversed, &out)?;
        return Ok(out);
    }
    binary_scalar_raw(op, a, s, reversed)
}

/// `binary_scalar` without autograd recording.
pub(crate) fn binary_scalar_raw(
    op: BinaryOp,
    a: &Tensor,
    s: Scalar,
    reversed: bool,
) -> Result<Tensor> {
    // a number of the tensor's category or lower leaves the tensor's dtype (`x * 2.0` on floats)
    let dt = a.dtype();
    let same_kind = dt.is_floating()
        || (dt.is_integral() && !s.is_float())
        || (dt == DType::Bool && s.is_bool());
    let common = if same_kind {
        dt
    } else {
        result_type(&[operand(a), Operand::Scalar(s)])?
    };
    let compute = compute_dtype(op, common, a.dtype() == DType::Bool && s.is_bool())?;
    check_scalar_operand(op, compute, a, s, reversed)?;
    let a2 = a.to_dtype(compute)?;
    if reversed {
        check_int_divisor(op, compute, &a2)?;
    }
    crate::tensor::dispatch::on(a.device()).binary_scalar(op, &a2, s, reversed)
}

/// Checks specific to a Python-number operand.
pub(crate) fn check_scalar_operand(
    op: BinaryOp,
    compute: DType,
    _a: &Tensor,
    s: Scalar,
    reversed: bool,
) -> Result<()> {
    if !compute.is_integral() {
        return Ok(());
    }
    match op {
        BinaryOp::Pow if !reversed && s.to_i64() < 0 && !s.is_float() => {
            runtime("Integers to negative integer powers are not allowed.")
        }
        BinaryOp::FloorDiv | BinaryOp::TruncDiv | BinaryOp::Rem | BinaryOp::Fmod
            if !reversed && s.to_i64() == 0 =>
        {
            runtime("ZeroDivisionError")
        }
        _ => Ok(()),
    }
}

/// `torch.add(a, b, alpha=alpha)`: `a + alpha * b`.
pub fn add_alpha(a: &Tensor, b: &Tensor, alpha: Scalar, subtract: bool) -> Result<Tensor> {
    let common = result_type(&[operand(a), operand(b)])?;
    check_alpha(common, alpha)?;
    let scaled = if alpha.to_f64() == 1.0 {
        b.clone()
    } else {
        binary_scalar(BinaryOp::Mul, b, alpha, false)?
    };
    binary(
        if subtract {
            BinaryOp::Sub
        } else {
            BinaryOp::Add
        },
        a,
        &scaled,
    )
}

pub(crate) fn check_alpha(common: DType, alpha: Scalar) -> Result<()> {
    if alpha.is_bool() && common != DType::Bool {
        return runtime("Boolean alpha only supported for Boolean results.");
    }
    if alpha.is_float() && !common.is_floating() {
        return runtime(
            "For integral input tensors, argument alpha must not be a floating point number.",
        );
    }
    Ok(())
}

macro_rules! binary_fns {
    ($($name:ident => $op:ident),* $(,)?) => {
        $(
            #[doc = concat!("`torch.", stringify!($name), "(a, b)` for two tensors.")]
            pub fn $name(a: &Tensor, b: &Tensor) -> Result<Tensor> {
                binary(BinaryOp::$op, a, b)
            }
        )*
    };
}
binary_fns!(
    add => Add, sub => Sub, mul => Mul, div => Div, floor_divide => FloorDiv, remainder => Rem,
    fmod => Fmod, pow => Pow, maximum => Maximum, minimum => Minimum, bitwise_and => BitAnd,
    bitwise_or => BitOr, bitwise_xor => BitXor, logical_and => LogicalAnd, logical_or => LogicalOr,
    logical_xor => LogicalXor,
);

/// `x + 2` and friends.
pub fn add_scalar(a: &Tensor, s: Scalar) -> Result<Tensor> {
    binary_scalar(BinaryOp::Add, a, s, false)
}
pub fn mul_scalar(a: &Tensor, s: Scalar) -> Result<Tensor> {
    binary_scalar(BinaryOp::Mul, a, s, false)
}

/// `torch.div(a, b, rounding_mode=...)`: `None`, `"trunc"` or `"floor"`.
pub fn div_mode(a: &Tensor, b: &Tensor, mode: Option<&str>) -> Result<Tensor> {
    binary(rounding_op(mode)?, a, b)
}

pub fn rounding_op(mode: Option<&str>) -> Result<BinaryOp> {
    match mode {
        None => Ok(BinaryOp::Div),
        Some("trunc") => Ok(BinaryOp::TruncDiv),
        Some("floor") => Ok(BinaryOp::FloorDiv),
        Some(m) => crate::tensor::error::value_err(format!(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{m}'"
        )),
    }
}

/// `torch.clamp(x, min=None, max=None)`: `minimum(maximum(x, min), max)`; the result dtype
/// follows promotion with the bounds (`int_tensor.clamp(min=1.5)` is float).
pub fn clamp(x: &Tensor, min: Option<Scalar>, max: Option<Scalar>) -> Result<Tensor> {
    if min.is_none() && max.is_none() {
        return runtime("torch.clamp: At least one of 'min' or 'max' must not be None");
    }
    // bounds that leave the dtype: one pass where the backend has it (the CPU)
    let keeps = |s: &Scalar| x.dtype().is_floating() || x.dtype().is_integral() && !s.is_float();
    let fused = if [min, max].iter().flatten().all(keeps) {
        crate::tensor::dispatch::on(x.device()).clamp(x, min, max)?
    } else {
        None
    };
    let mut r = match fused {
        Some(r) => r,
        None => {
            let mut r = x.clone();
            if let Some(lo) = min {
                r = binary_scalar_raw(BinaryOp::Maximum, &r, lo, false)?;
            }
            if let Some(hi) = max {
                r = binary_scalar_raw(BinaryOp::Minimum, &r, hi, false)?;
            }
            r
        }
    };
    if r.ptr_eq(x) {
        r = x.clone_tensor()?;
    }
    if autograd::is_recording1(x) {
        grad::record_clamp(x, min, max, &r)?;
    }
    Ok(r)
}

/// `torch.clamp(x, min_tensor, max_tensor)` with tensor bounds (`ClampBackward0`).
pub fn clamp_tensor(x: &Tensor, min: Option<&Tensor>, max: Option<&Tensor>) -> Result<Tensor> {
    if min.is_none() && max.is_none() {
        return runtime("torch.clamp: At least one of 'min' or 'max' must not be None");
    }
    let mut r = x.clone();
    if let Some(lo) = min {
        r = binary_raw(BinaryOp::Maximum, &r, lo)?;
    }
    if let Some(hi) = max {
        r = binary_raw(BinaryOp::Minimum, &r, hi)?;
    }
    if r.ptr_eq(x) {
        r = x.clone_tensor()?;
    }
    let mut ins = vec![x];
    ins.extend(min);
    ins.extend(max);
    if autograd::is_recording(&ins) {
        grad::record_clamp_tensor(x, min, max, &r)?;
    }
    Ok(r)
}

/// `x.clamp_(min, max)` in place.
pub fn clamp_(x: &Tensor, min: Option<Scalar>, max: Option<Scalar>) -> Result<()> {
    if !autograd::is_recording1(x) {
        return super::inplace::write_result(x, &clamp(x, min, max)?);
    }
    autograd::node::check_inplace(x)?;
    let old = autograd::node::history_of(x)?;
    let r = clamp(&old, min, max)?;
    super::inplace::write_result_tracked(x, &r)
}

/// The autograd rules of this file.
mod grad;

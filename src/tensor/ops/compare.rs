//! Comparisons (`== != < <= > >=`, giving bool tensors) and the whole-tensor tests `equal`,
//! `allclose` and `isclose`.
use super::binary::{binary, binary_scalar, BinaryOp};
use super::reduce::all_any;
use super::unary::{unary, UnaryOp};
use crate::tensor::error::{runtime, Result};
use crate::tensor::{DType, Scalar, Tensor};

pub fn eq(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Eq, a, b)
}
pub fn ne(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Ne, a, b)
}
pub fn lt(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Lt, a, b)
}
pub fn le(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Le, a, b)
}
pub fn gt(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Gt, a, b)
}
pub fn ge(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Ge, a, b)
}
/// `t == 2`, `t < 0.5`, ...: `op` must be a comparison.
pub fn compare_scalar(op: BinaryOp, a: &Tensor, s: Scalar) -> Result<Tensor> {
    binary_scalar(op, a, s, false)
}

/// `torch.equal(a, b)`: same shape and the same values (after promotion).
pub fn equal(a: &Tensor, b: &Tensor) -> Result<bool> {
    super::same_device(&[a, b])?;
    if a.shape() != b.shape() {
        return Ok(false);
    }
    if a.numel() == 0 {
        return Ok(true);
    }
    Ok(all_any(&binary(BinaryOp::Eq, a, b)?, None, false, true)?
        .item()?
        .to_bool())
}

/// `torch.isclose(a, b, rtol, atol, equal_nan)`: |a - b| <= atol + rtol * |b|, elementwise.
pub fn isclose(a: &Tensor, b: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    super::same_device(&[a, b])?;
    if a.dtype() != b.dtype() {
        return runtime(format!(
            "{} did not match {}",
            a.dtype().c10_name(),
            b.dtype().c10_name()
        ));
    }
    let (a, b) = if a.dtype().is_floating() {
        (a.clone(), b.clone())
    } else {
        (a.to_dtype(DType::F64)?, b.to_dtype(DType::F64)?)
    };
    let mut close = binary(BinaryOp::Eq, &a, &b)?;
    if equal_nan {
        let both = binary(
            BinaryOp::LogicalAnd,
            &unary(UnaryOp::IsNan, &a)?,
            &unary(UnaryOp::IsNan, &b)?,
        )?;
        close = binary(BinaryOp::LogicalOr, &close, &both)?;
    }
    let diff = unary(UnaryOp::Abs, &binary(BinaryOp::Sub, &a, &b)?)?;
    let allowed = binary_scalar(
        BinaryOp::Add,
        &unary(
            UnaryOp::Abs,
            &binary_scalar(BinaryOp::Mul, &b, Scalar::Float(rtol), false)?,
        )?,
        Scalar::Float(atol),
        false,
    )?;
    let finite = binary_scalar(BinaryOp::Lt, &diff, Scalar::Float(f64::INFINITY), false)?;
    let within = binary(BinaryOp::Le, &diff, &allowed)?;
    let ok = binary(BinaryOp::LogicalAnd, &finite, &within)?;
    binary(BinaryOp::LogicalOr, &close, &ok)
}

/// `torch.allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)`.
pub fn allclose(a: &Tensor, b: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<bool> {
    let c = isclose(a, b, rtol, atol, equal_nan)?;
    if c.numel() == 0 {
        return Ok(true);
    }
    Ok(all_any(&c, None, false, true)?.item()?.to_bool())
}

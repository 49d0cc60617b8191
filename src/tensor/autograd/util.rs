//! Helpers shared by backward formulas.
use crate::tensor::error::Result;
use crate::tensor::ops::reduce::sum;
use crate::tensor::Tensor;

/// `at::sum_to`: sums `g` down to `shape` (leading dims, then dims of size 1), or `None` when
/// `shape` does not broadcast to `g`'s shape.
pub fn sum_to(g: &Tensor, shape: &[usize]) -> Option<Result<Tensor>> {
    let gs = g.shape();
    if shape.len() > gs.len() {
        return None;
    }
    let lead = gs.len() - shape.len();
    for (i, &s) in shape.iter().enumerate() {
        if s != 1 && s != gs[lead + i] {
            return None;
        }
    }
    Some((|| {
        let mut r = g.clone();
        if lead > 0 {
            let dims: Vec<i64> = (0..lead as i64).collect();
            r = sum(&r, Some(&dims), false, None)?;
        }
        let dims: Vec<i64> = shape
            .iter()
            .enumerate()
            .filter(|&(i, &s)| s == 1 && r.shape()[i] != 1)
            .map(|(i, _)| i as i64)
            .collect();
        if !dims.is_empty() {
            r = sum(&r, Some(&dims), true, None)?;
        }
        Ok(r)
    })())
}

/// A gradient for input `i` only when the input wants one.
pub fn when(need: bool, f: impl FnOnce() -> Result<Tensor>) -> Result<Option<Tensor>> {
    if need {
        f().map(Some)
    } else {
        Ok(None)
    }
}

use crate::tensor::ops::binary::{binary, binary_scalar, BinaryOp};
use crate::tensor::ops::unary::{unary, UnaryOp};
use crate::tensor::Scalar;

pub fn mul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Mul, a, b)
}
pub fn div(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Div, a, b)
}
pub fn add(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Add, a, b)
}
pub fn sub(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Sub, a, b)
}
pub fn neg(a: &Tensor) -> Result<Tensor> {
    unary(UnaryOp::Neg, a)
}
pub fn scale(a: &Tensor, s: f64) -> Result<Tensor> {
    binary_scalar(BinaryOp::Mul, a, Scalar::Float(s), false)
}
pub fn scalar_op(op: BinaryOp, a: &Tensor, s: f64) -> Result<Tensor> {
    binary_scalar(op, a, Scalar::Float(s), false)
}
/// A float mask (1 where `op(a, b)`, else 0) in `like`'s dtype.
pub fn mask(op: BinaryOp, a: &Tensor, b: &Tensor, like: &Tensor) -> Result<Tensor> {
    binary(op, a, b)?.to_dtype(like.dtype())
}
pub fn mask_scalar(op: BinaryOp, a: &Tensor, s: f64, like: &Tensor) -> Result<Tensor> {
    binary_scalar(op, a, Scalar::Float(s), false)?.to_dtype(like.dtype())
}
pub fn zeros_like(t: &Tensor) -> Result<Tensor> {
    crate::tensor::create::zeros_like(t, None)
}
/// Ones shaped and typed like `t`.
pub fn ones_mask(t: &Tensor) -> Result<Tensor> {
    crate::tensor::create::ones_like(t, None)
}

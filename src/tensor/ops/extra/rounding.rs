//! `torch.round(x, decimals=d)`: ATen's `round_decimals` kernel, `nearbyint(x · 10^d) / 10^d`
//! (for negative `d`, `nearbyint(x / 10^-d) · 10^-d`), each step in the dtype's arithmetic as
//! the kernel's, composed of elementwise ops; gradient `RoundBackward1` (zero).
use crate::tensor::autograd::util::zeros_like;
use crate::tensor::autograd::{is_recording1, record, NoGrad};
use crate::tensor::error::{not_impl_for, Result};
use crate::tensor::ops::binary::{binary_scalar, BinaryOp};
use crate::tensor::ops::unary::{unary, UnaryOp};
use crate::tensor::{Scalar, Tensor};

pub fn round_decimals(x: &Tensor, decimals: i64) -> Result<Tensor> {
    if !x.dtype().is_floating() {
        return not_impl_for("round_cpu", x.dtype());
    }
    let out = {
        let _g = NoGrad::new();
        let p = Scalar::Float(10f64.powi(decimals.unsigned_abs().min(400) as i32));
        let (into, back) = if decimals < 0 {
            (BinaryOp::Div, BinaryOp::Mul)
        } else {
            (BinaryOp::Mul, BinaryOp::Div)
        };
        let r = unary(UnaryOp::Round, &binary_scalar(into, x, p, false)?)?;
        binary_scalar(back, &r, p, false)?
    };
    if is_recording1(x) {
        record("RoundBackward1", &[x], &out, &[], |g, _| {
            Ok(vec![Some(zeros_like(g)?)])
        })?;
    }
    Ok(out)
}

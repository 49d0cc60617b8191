//! Autograd rules for the unary ops (derivatives.yaml).
use super::UnaryOp;
use crate::tensor::autograd::record;
use crate::tensor::autograd::util::{div, mask_scalar, mul, neg, scalar_op, scale, zeros_like};
use crate::tensor::ops::binary::BinaryOp;
use crate::tensor::ops::unary::unary;
use crate::tensor::{DType, Tensor};

/// `1 - t`, as ATen's derivative formulas write it (an integer 1, so `t`'s dtype is kept).
fn one_minus(t: &Tensor) -> crate::tensor::Result<Tensor> {
    crate::tensor::ops::binary::binary_scalar(BinaryOp::Sub, t, crate::tensor::Scalar::Int(1), true)
}

/// `f(g, x)` as ATen's activation backward kernels compute it: in float32 for float16 and
/// bfloat16 (widened, then rounded once to the input's dtype).
fn widened(
    g: &Tensor,
    x: &Tensor,
    f: impl Fn(&Tensor, &Tensor) -> crate::tensor::Result<Tensor>,
) -> crate::tensor::Result<Vec<Option<Tensor>>> {
    let dt = x.dtype();
    let r = if matches!(dt, DType::F16 | DType::BF16) {
        f(&g.to_dtype(DType::F32)?, &x.to_dtype(DType::F32)?)?.to_dtype(dt)?
    } else {
        f(g, x)?
    };
    Ok(vec![Some(r)])
}

pub(super) fn record_unary(op: UnaryOp, x: &Tensor, out: &Tensor) -> crate::tensor::Result<()> {
    use UnaryOp::*;
    let i = [x];
    let so = [Some(out)];
    let sx = [Some(x)];
    match op {
        Neg => record("NegBackward0", &i, out, &[], |g, _| Ok(vec![Some(neg(g)?)])),
        Exp => record("ExpBackward0", &i, out, &so, |g, c| {
            Ok(vec![Some(mul(g, c.saved(0))?)])
        }),
        Expm1 => record("Expm1Backward0", &i, out, &so, |g, c| {
            Ok(vec![Some(mul(
                g,
                &scalar_op(BinaryOp::Add, c.saved(0), 1.0)?,
            )?)])
        }),
        Log => record("LogBackward0", &i, out, &sx, |g, c| {
            Ok(vec![Some(div(g, c.saved(0))?)])
        }),
        Log2 => record("Log2Backward0", &i, out, &sx, |g, c| {
            Ok(vec![Some(div(
                g,
                &scale(c.saved(0), std::f64::consts::LN_2)?,
            )?)])
        }),
        Log10 => record("Log10Backward0", &i, out, &sx, |g, c| {
            Ok(vec![Some(div(
                g,
                &scale(c.saved(0), std::f64::consts::LN_10)?,
            )?)])
        }),
        Log1p => record("Log1pBackward0", &i, out, &sx, |g, c| {
            Ok(vec![Some(div(
                g,
                &scalar_op(BinaryOp::Add, c.saved(0), 1.0)?,
            )?)])
        }),
        Sqrt => record("SqrtBackward0", &i, out, &so, |g, c| {
            // grad / (2 * result)
            Ok(vec![Some(div(g, &scale(c.saved(0), 2.0)?)?)])
        }),
        Rsqrt => record("RsqrtBackward0", &i, out, &so, |g, c| {
            // -0.5 * grad * result^3
            let r = c.saved(0);
            let r3 = mul(&mul(r, r)?, r)?;
            Ok(vec![Some(mul(&scale(g, -0.5)?, &r3)?)])
        }),
        Abs => record("AbsBackward0", &i, out, &sx, |g, c| {
            Ok(vec![Some(mul(g, &unary(Sign, c.saved(0))?)?)])
        }),
        Sign => record("SignBackward0", &i, out, &[], |g, _| {
            Ok(vec![Some(zeros_like(g)?)])
        }),
        Sin => record("SinBackward0", &i, out, &sx, |g, c| {
            Ok(vec![Some(mul(g, &unary(Cos, c.saved(0))?)?)])
        }),
        Cos => record("CosBackward0", &i, out, &sx, |g, c| {
            Ok(vec![Some(mul(g, &neg(&unary(Sin, c.saved(0))?)?)?)])
        }),
        Tan => record("TanBackward0", &i, out, &so, |g, c| {
            // grad * (1 + result^2)
            let r = c.saved(0);
            Ok(vec![Some(mul(
                g,
                &scalar_op(BinaryOp::Add, &mul(r, r)?, 1.0)?,
            )?)])
        }),
        Tanh => record("TanhBackward0", &i, out, &so, |g, c| {
            // grad * (1 - result^2)
            let r = c.saved(0);
            let one_minus = one_minus(&mul(r, r)?)?;
            Ok(vec![Some(mul(g, &one_minus)?)])
        }),
        Sigmoid => record("SigmoidBackward0", &i, out, &so, |g, c| {
            // grad * result * (1 - result)
            let r = c.saved(0);
            let one_minus = one_minus(r)?;
            Ok(vec![Some(mul(&mul(g, r)?, &one_minus)?)])
        }),
        Relu => record("ReluBackward0", &i, out, &so, |g, c| {
            Ok(vec![Some(mul(
                g,
                &mask_scalar(BinaryOp::Gt, c.saved(0), 0.0, g)?,
            )?)])
        }),
        Reciprocal => record("ReciprocalBackward0", &i, out, &so, |g, c| {
            // -grad * result^2
            let r = c.saved(0);
            Ok(vec![Some(mul(&neg(g)?, &mul(r, r)?)?)])
        }),
        Square => record("PowBackward0", &i, out, &sx, |g, c| {
            Ok(vec![Some(mul(g, &scale(c.saved(0), 2.0)?)?)])
        }),
        Floor | Ceil | Round | Trunc => {
            let name = match op {
                Floor => "FloorBackward0",
                Ceil => "CeilBackward0",
                Round => "RoundBackward0",
                _ => "TruncBackward0",
            };
            record(name, &i, out, &[], |g, _| Ok(vec![Some(zeros_like(g)?)]))
        }
        Frac => record("FracBackward0", &i, out, &[], |g, _| {
            Ok(vec![Some(g.clone())])
        }),
        Silu => record("SiluBackward0", &i, out, &sx, |g, c| {
            let x = c.saved(0);
            // (the backend takes the operands it has a kernel for, and no mixed devices)
            if g.device() == x.device() {
                let on = crate::tensor::dispatch::on(x.device());
                if let Some(d) = on.silu_backward(g, x)? {
                    return Ok(vec![Some(d)]);
                }
            }
            // ATen's formula: grad * s * (1 + x * (1 - s)), s = sigmoid(x) (its kernel fuses
            // the inner multiply-add)
            widened(g, x, |g, x| {
                let s = unary(Sigmoid, x)?;
                let one_minus = one_minus(&s)?;
                let inner = scalar_op(BinaryOp::Add, &mul(x, &one_minus)?, 1.0)?;
                mul(&mul(g, &s)?, &inner)
            })
        }),
        Gelu | GeluTanh => record("GeluBackward0", &i, out, &sx, move |g, c| {
            let d = if op == Gelu { GeluGrad } else { GeluTanhGrad };
            widened(g, c.saved(0), |g, x| mul(g, &unary(d, x)?))
        }),
        GeluGrad | GeluTanhGrad => Ok(()),
        LogicalNot | BitwiseNot | IsNan | Signbit => Ok(()),
    }
}

//! Autograd rules for the binary ops (derivatives.yaml). Broadcasting is undone by the engine,
//! which sums each gradient back to its input's shape.
use super::BinaryOp;
use crate::tensor::autograd::util::{
    div, mask, mask_scalar, mul, neg, scalar_op, scale, when, zeros_like,
};
use crate::tensor::autograd::{record, Ctx};
use crate::tensor::ops::binary::binary;
use crate::tensor::ops::unary::{unary, UnaryOp};
use crate::tensor::{Scalar, Tensor};

fn no_grad_op(op: BinaryOp) -> bool {
    op.returns_bool()
        || matches!(
            op,
            BinaryOp::FloorDiv
                | BinaryOp::TruncDiv
                | BinaryOp::BitAnd
                | BinaryOp::BitOr
                | BinaryOp::BitXor
        )
}

/// `pow(a, b)`'s gradient for the exponent: `grad * result * log(a)`, 0 where `a == 0` and `b >= 0`.
fn pow_exponent_grad(
    g: &Tensor,
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
) -> crate::tensor::Result<Tensor> {
    let la = unary(UnaryOp::Log, a)?;
    let t = mul(out, &la)?;
    let zero_base = binary(
        BinaryOp::LogicalAnd,
        &crate::tensor::ops::binary::binary_scalar(BinaryOp::Eq, a, Scalar::Int(0), false)?,
        &crate::tensor::ops::binary::binary_scalar(BinaryOp::Ge, b, Scalar::Int(0), false)?,
    )?;
    let z = zeros_like(&t)?;
    let t = crate::tensor::ops::join::where_(
        &zero_base,
        &crate::tensor::ops::join::TensorOrScalar::Tensor(z),
        &crate::tensor::ops::join::TensorOrScalar::Tensor(t),
    )?;
    mul(g, &t)
}

pub(super) fn record_binary(
    op: BinaryOp,
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    if no_grad_op(op) || !out.dtype().is_floating() {
        return Ok(());
    }
    let (na, nb) = (a.requires_grad(), b.requires_grad());
    let ins = [a, b];
    match op {
        BinaryOp::Add => record("AddBackward0", &ins, out, &[], |g, _| {
            Ok(vec![Some(g.clone()), Some(g.clone())])
        }),
        BinaryOp::Sub => record("SubBackward0", &ins, out, &[], |g, c| {
            Ok(vec![Some(g.clone()), when(c.needs(1), || neg(g))?])
        }),
        BinaryOp::Mul => record(
            "MulBackward0",
            &ins,
            out,
            &[nb.then_some(a), na.then_some(b)],
            |g, c: &Ctx| {
                Ok(vec![
                    when(c.needs(0), || mul(g, c.saved(1)))?,
                    when(c.needs(1), || mul(g, c.saved(0)))?,
                ])
            },
        ),
        BinaryOp::Div => record(
            "DivBackward0",
            &ins,
            out,
            &[nb.then_some(a), Some(b)],
            |g, c| {
                let b = c.saved(1);
                Ok(vec![
                    when(c.needs(0), || div(g, b))?,
                    when(c.needs(1), || {
                        // -grad * a / (b * b)
                        div(&mul(&neg(g)?, c.saved(0))?, &mul(b, b)?)
                    })?,
                ])
            },
        ),
        BinaryOp::Pow => record(
            "PowBackward1",
            &ins,
            out,
            &[Some(a), Some(b), nb.then_some(out)],
            |g, c| {
                let (a, b) = (c.saved(0), c.saved(1));
                Ok(vec![
                    when(c.needs(0), || {
                        // grad * b * a^(b-1), 0 where b == 0
                        let p = binary(BinaryOp::Pow, a, &scalar_op(BinaryOp::Sub, b, 1.0)?)?;
                        let t = mul(&mul(b, &p)?, g)?;
                        let nz = mask_scalar(BinaryOp::Ne, b, 0.0, &t)?;
                        mul(&t, &nz)
                    })?,
                    when(c.needs(1), || pow_exponent_grad(g, a, b, c.saved(2)))?,
                ])
            },
        ),
        BinaryOp::Maximum | BinaryOp::Minimum => {
            let name = if op == BinaryOp::Maximum {
                "MaximumBackward0"
            } else {
                "MinimumBackward0"
            };
            let lose = if op == BinaryOp::Maximum {
                BinaryOp::Lt
            } else {
                BinaryOp::Gt
            };
            record(name, &ins, out, &[Some(a), Some(b)], move |g, c| {
                let (a, b) = (c.saved(0), c.saved(1));
                // ties split the gradient evenly, as in PyTorch
                let tie = mask(BinaryOp::Eq, a, b, g)?;
                let half = scale(&tie, 0.5)?;
                let wa = crate::tensor::autograd::util::add(&mask(op_win(lose), a, b, g)?, &half)?;
                let wb = crate::tensor::autograd::util::add(&mask(lose, a, b, g)?, &half)?;
                Ok(vec![
                    when(c.needs(0), || mul(g, &wa))?,
                    when(c.needs(1), || mul(g, &wb))?,
                ])
            })
        }
        BinaryOp::Rem | BinaryOp::Fmod => {
            let name = if op == BinaryOp::Rem {
                "RemainderBackward0"
            } else {
                "FmodBackward1"
            };
            let round = if op == BinaryOp::Rem {
                BinaryOp::FloorDiv
            } else {
                BinaryOp::TruncDiv
            };
            record(name, &ins, out, &[Some(a), Some(b)], move |g, c| {
                Ok(vec![
                    Some(g.clone()),
                    when(c.needs(1), || {
                        let q = binary(round, c.saved(0), c.saved(1))?;
                        mul(&neg(g)?, &q)
                    })?,
                ])
            })
        }
        _ => Ok(()),
    }
}

/// The comparison that means "a wins" for max (`>`) or min (`<`).
fn op_win(lose: BinaryOp) -> BinaryOp {
    if lose == BinaryOp::Lt {
        BinaryOp::Gt
    } else {
        BinaryOp::Lt
    }
}

pub(super) fn record_binary_scalar(
    op: BinaryOp,
    a: &Tensor,
    s: Scalar,
    reversed: bool,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    if no_grad_op(op) || !out.dtype().is_floating() {
        return Ok(());
    }
    let f = s.to_f64();
    let ins = [a];
    // `x op 2` keeps a second, empty edge for the number, as PyTorch's wrapped scalar does
    let rec2 = |name: &'static str,
                saved: &[Option<&Tensor>],
                fun: crate::tensor::autograd::node::BackwardFn| {
        crate::tensor::autograd::node::record_padded(name, &ins, 1, out, saved, fun)
    };
    match (op, reversed) {
        (BinaryOp::Add, _) => rec2(
            "AddBackward0",
            &[],
            Box::new(|g, _| Ok(vec![Some(g.clone())])),
        ),
        (BinaryOp::Sub, false) => rec2(
            "SubBackward0",
            &[],
            Box::new(|g, _| Ok(vec![Some(g.clone())])),
        ),
        (BinaryOp::Sub, true) => record("RsubBackward1", &ins, out, &[], |g, _| {
            Ok(vec![Some(neg(g)?)])
        }),
        (BinaryOp::Mul, _) => rec2(
            "MulBackward0",
            &[],
            Box::new(move |g, _| Ok(vec![Some(scale(g, f)?)])),
        ),
        (BinaryOp::Div, false) => rec2(
            "DivBackward0",
            &[],
            Box::new(move |g, _| Ok(vec![Some(scalar_op(BinaryOp::Div, g, f)?)])),
        ),
        (BinaryOp::Pow, false) => record("PowBackward0", &ins, out, &[Some(a)], move |g, c| {
            if f == 0.0 {
                return Ok(vec![Some(zeros_like(g)?)]);
            }
            // grad * (s * a^(s-1))
            let p = crate::tensor::ops::binary::binary_scalar(
                BinaryOp::Pow,
                c.saved(0),
                Scalar::Float(f - 1.0),
                false,
            )?;
            Ok(vec![Some(mul(g, &scale(&p, f)?)?)])
        }),
        (BinaryOp::Pow, true) => record("PowBackward2", &ins, out, &[Some(out)], move |g, c| {
            // grad * result * log(s), 0 where s == 0 and the exponent >= 0
            if f == 0.0 {
                let neg_exp = mask_scalar(BinaryOp::Lt, c.saved(0), 0.0, g)?;
                let t = mul(&mul(c.saved(0), &neg_exp)?, &scale(g, f64::NEG_INFINITY)?)?;
                return Ok(vec![Some(t)]);
            }
            Ok(vec![Some(mul(g, &scale(c.saved(0), f.ln())?)?)])
        }),
        (BinaryOp::Rem, false) | (BinaryOp::Fmod, false) => {
            let name = if op == BinaryOp::Rem {
                "RemainderBackward0"
            } else {
                "FmodBackward0"
            };
            record(name, &ins, out, &[], |g, _| Ok(vec![Some(g.clone())]))
        }
        (BinaryOp::Maximum, false) | (BinaryOp::Minimum, false) => {
            // clamp_min / clamp_max
            let (name, keep) = if op == BinaryOp::Maximum {
                ("ClampMinBackward0", BinaryOp::Ge)
            } else {
                ("ClampMaxBackward0", BinaryOp::Le)
            };
            record(name, &ins, out, &[Some(a)], move |g, c| {
                Ok(vec![Some(mul(g, &mask_scalar(keep, c.saved(0), f, g)?)?)])
            })
        }
        _ => Ok(()),
    }
}

/// `clamp(x, min, max)` with numbers: `ClampBackward1`, gradient where `min <= x <= max`.
pub(super) fn record_clamp(
    x: &Tensor,
    min: Option<Scalar>,
    max: Option<Scalar>,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    if !out.dtype().is_floating() {
        return Ok(());
    }
    let (lo, hi) = (min.map(|s| s.to_f64()), max.map(|s| s.to_f64()));
    record("ClampBackward1", &[x], out, &[Some(x)], move |g, c| {
        let x = c.saved(0);
        let mut m = crate::tensor::autograd::util::ones_mask(g)?;
        if let Some(lo) = lo {
            m = mul(&m, &mask_scalar(BinaryOp::Gt, x, lo, g)?)?;
        }
        if let Some(hi) = hi {
            m = mul(&m, &mask_scalar(BinaryOp::Lt, x, hi, g)?)?;
        }
        Ok(vec![Some(mul(g, &m)?)])
    })?;
    Ok(())
}

/// `clamp(x, min_t, max_t)` with tensors: `ClampBackward0`.
pub(super) fn record_clamp_tensor(
    x: &Tensor,
    min: Option<&Tensor>,
    max: Option<&Tensor>,
    out: &Tensor,
) -> crate::tensor::Result<()> {
    if !out.dtype().is_floating() {
        return Ok(());
    }
    let (hl, hh) = (min.is_some(), max.is_some());
    let mut ins = vec![x];
    ins.extend(min);
    ins.extend(max);
    let pad = 3 - ins.len();
    crate::tensor::autograd::node::record_padded(
        "ClampBackward0",
        &ins,
        pad,
        out,
        &[Some(x), min, max],
        Box::new(move |g, c| {
            let x = c.saved(0);
            let mut keep = crate::tensor::autograd::util::ones_mask(g)?;
            let mut outs = vec![];
            let mut k = 1;
            if hl {
                let lo = c.saved(1);
                keep = mul(&keep, &mask(BinaryOp::Ge, x, lo, g)?)?;
                let below = mask(BinaryOp::Lt, x, lo, g)?;
                outs.push((k, below));
                k += 1;
            }
            if hh {
                let hi = c.saved(2);
                keep = mul(&keep, &mask(BinaryOp::Le, x, hi, g)?)?;
                let above = mask(BinaryOp::Gt, x, hi, g)?;
                outs.push((k, above));
            }
            let mut r = vec![Some(mul(g, &keep)?)];
            for (i, m) in outs {
                r.push(when(c.needs(i), || mul(g, &m))?);
            }
            Ok(r)
        }),
    )?;
    Ok(())
}

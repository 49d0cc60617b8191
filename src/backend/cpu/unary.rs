//! Unary elementwise kernels, by dtype family (the op layer has already promoted the input).
use super::elementwise::drive_grain;
use super::math::FloatMath;
use super::{exp_table, gelu, sleef, tanh_table, vmath, widen};
use super::{internal, map_keep};
use crate::backend::storage::output_vec;
use crate::backend::storage::{Arith, Buffer, Element};
use crate::backend::View;
use crate::core::error::Result;
use crate::core::shape::Dims;
use crate::core::UnaryOp;
use half::{bf16, f16};

/// A result buffer and its strides when not row-major.
type Laid = (Buffer, Option<Dims>);

fn float_kernel<E: Element>(op: UnaryOp, v: &[E], x: &View) -> Result<Laid>
where
    E::M: FloatMath,
{
    use UnaryOp::*;
    macro_rules! go {
        ($f:expr) => {{
            let f = $f;
            Ok(map_keep(v, x, |a: E| E::store(f(a.load())))?.wrap())
        }};
    }
    let one = <E::M as Arith>::one();
    let zero = <E::M as Arith>::zero();
    match op {
        Neg => go!(|a: E::M| Arith::neg(a)),
        Abs => go!(|a: E::M| Arith::abs(a)),
        Sqrt => go!(|a: E::M| FloatMath::sqrt(a)),
        Rsqrt => go!(|a: E::M| one.div(FloatMath::sqrt(a))),
        Exp => go!(|a: E::M| a.exp()),
        Expm1 => go!(|a: E::M| a.exp_m1()),
        Log => go!(|a: E::M| a.ln_faithful()),
        Log2 => go!(|a: E::M| FloatMath::log2(a)),
        Log10 => go!(|a: E::M| FloatMath::log10(a)),
        Log1p => go!(|a: E::M| a.ln_1p()),
        Sin => go!(|a: E::M| FloatMath::sin(a)),
        Cos => go!(|a: E::M| FloatMath::cos(a)),
        Tan => go!(|a: E::M| FloatMath::tan(a)),
        Tanh => go!(|a: E::M| FloatMath::tanh(a)),
        // ATen: 1 / (1 + exp(-x)) and x / (1 + exp(-x))
        Sigmoid => go!(|a: E::M| one.div(one.add(Arith::neg(a).exp()))),
        Silu => go!(|a: E::M| a.div(one.add(Arith::neg(a).exp()))),
        Gelu => go!(gelu::gelu::<E::M>),
        GeluTanh => go!(gelu::gelu_tanh::<E::M>),
        GeluGrad => go!(gelu::gelu_grad::<E::M>),
        GeluTanhGrad => go!(gelu::gelu_tanh_grad::<E::M>),
        // clamp_min(x, 0): NaN and -0.0 pass through
        Relu => go!(|a: E::M| if a < zero { zero } else { a }),
        Floor => go!(|a: E::M| FloatMath::floor(a)),
        Ceil => go!(|a: E::M| FloatMath::ceil(a)),
        Round => go!(|a: E::M| a.round_even()),
        Trunc => go!(|a: E::M| FloatMath::trunc(a)),
        Frac => go!(|a: E::M| a.sub(FloatMath::trunc(a))),
        Sign => go!(|a: E::M| Arith::sign(a)),
        Reciprocal => go!(|a: E::M| one.div(a)),
        Square => go!(|a: E::M| a.mul(a)),
        LogicalNot => Ok(map_keep::<_, bool>(v, x, |a: E| !a.load().truthy())?.wrap()),
        IsNan => Ok(map_keep::<_, bool>(v, x, |a: E| Arith::is_nan(a.load()))?.wrap()),
        // widening to f64 keeps the sign bit, a NaN's included
        Signbit => {
            Ok(map_keep::<_, bool>(v, x, |a: E| a.load().to_f64().is_sign_negative())?.wrap())
        }
        BitwiseNot => internal("bitwise_not on a float tensor"),
    }
}

fn int_kernel<E: Element<M = i64>>(op: UnaryOp, v: &[E], x: &View) -> Result<Laid> {
    use UnaryOp::*;
    macro_rules! go {
        ($f:expr) => {{
            let f = $f;
            Ok(map_keep(v, x, |a: E| E::store(f(a.load())))?.wrap())
        }};
    }
    match op {
        Neg => go!(|a: i64| a.wrapping_neg()),
        Abs => go!(|a: i64| a.wrapping_abs()),
        Sign => go!(|a: i64| a.signum()),
        Square => go!(|a: i64| a.wrapping_mul(a)),
        Relu => go!(|a: i64| std::cmp::max(a, 0)),
        BitwiseNot => go!(|a: i64| !a),
        Floor | Ceil | Round | Trunc => go!(|a: i64| a),
        LogicalNot => Ok(map_keep::<_, bool>(v, x, |a: E| a.load() == 0)?.wrap()),
        IsNan => Ok(map_keep::<_, bool>(v, x, |_: E| false)?.wrap()),
        Signbit => Ok(map_keep::<_, bool>(v, x, |a: E| a.load() < 0)?.wrap()),
        _ => internal("float-only unary op on an integer tensor"),
    }
}

fn bool_kernel(op: UnaryOp, v: &[bool], x: &View) -> Result<Laid> {
    use UnaryOp::*;
    Ok(match op {
        LogicalNot | BitwiseNot => map_keep(v, x, |a: bool| !a)?.wrap(),
        Sign => map_keep(v, x, |a: bool| a)?.wrap(),
        IsNan | Signbit => map_keep(v, x, |_: bool| false)?.wrap(),
        _ => return internal("unsupported unary op on a bool tensor"),
    })
}

/// ATen's `vectorized_loop` runs the vector op on whole pairs of vectors and the scalar op on
/// the rest: 32 floats a step in the AVX-512 kernels PyTorch picks on the machines its digits
/// are checked on (a smaller tail on AVX2-only ones).
pub(super) const VEC_STEP: usize = 32;

/// `x` into `out` by `body` up to the last whole `step` of the buffer of `n` elements that `x`
/// is the part from `at` of, then by `tail` one element at a time: ATen's vectorised loop and its
/// scalar remainder.
fn split_tail(
    x: &[f32],
    at: usize,
    n: usize,
    step: usize,
    out: &mut [f32],
    body: impl Fn(&[f32], &mut [f32]),
    tail: impl Fn(f32) -> f32,
) {
    let k = (n / step * step).clamp(at, at + out.len()) - at;
    body(&x[..k], &mut out[..k]);
    for (o, &v) in out[k..].iter_mut().zip(&x[k..]) {
        *o = tail(v);
    }
}

/// `exp`, `log`, `tanh`, `sigmoid`, `silu` or a gelu op of `x` into `out`, the part from `at` of a buffer of `n`
/// elements whose vectorised loop steps by `step` (which only the scalar tails of sigmoid and
/// silu see).
pub(super) fn transcendental(
    op: UnaryOp,
    x: &[f32],
    at: usize,
    n: usize,
    step: usize,
    out: &mut [f32],
) {
    match op {
        UnaryOp::Exp => exp_table::exp_slice(x, out),
        UnaryOp::Log => vmath::ln_faithful_slice(x, out),
        UnaryOp::Tanh => tanh_table::tanh_slice(x, out),
        // the scalar tails: glibc's expf, whose correctly rounded value `vmath::exp` is
        UnaryOp::Silu => split_tail(x, at, n, step, out, sleef::silu_slice, |v| {
            v / (1.0 + vmath::exp(-v))
        }),
        UnaryOp::Gelu | UnaryOp::GeluGrad => gelu::gelu_slice(x, out, op == UnaryOp::GeluGrad),
        UnaryOp::GeluTanh | UnaryOp::GeluTanhGrad => {
            gelu::gelu_tanh_slice(x, out, op == UnaryOp::GeluTanhGrad)
        }
        _ => split_tail(x, at, n, step, out, sleef::sigmoid_slice, vmath::sigmoid),
    }
}

/// Elements per part of the team for the ops of `transcendental` (any float type).
pub(super) const TRANSCENDENTAL_GRAIN: usize = 4096;

/// The contiguous source of a transcendental op with a vectorised kernel, else `None` (a
/// one-element erf-form gelu too: PyTorch computes it by the scalar formula, `gelu::gelu`).
fn transcendental_src<'a, E>(op: UnaryOp, v: &'a [E], x: &View) -> Option<&'a [E]> {
    use UnaryOp::*;
    let vectorised = matches!(
        op,
        Exp | Log | Tanh | Sigmoid | Silu | GeluTanh | GeluTanhGrad
    ) || matches!(op, Gelu | GeluGrad) && x.numel() > 1;
    if !vectorised || !x.is_contiguous() || x.numel() == 0 {
        return None;
    }
    Some(&v[x.offset()..x.offset() + x.numel()])
}

/// The vectorised f32 kernels on a contiguous tensor, split over the team when large.
fn fast_f32(op: UnaryOp, v: &[f32], x: &View) -> Option<Result<Laid>> {
    let src = transcendental_src(op, v, x)?;
    Some(output_vec::<f32>(src.len()).map(|mut out| {
        // ATen's VML kernels (exp/log/tanh) split from 2 x 2048 elements and its sigmoid from
        // 2 x 32K; these cost ~0.5-1.2 ns an element, so two parts pay from 2 x 4096 when the
        // helper is awake (it spins a moment after each job, so a loop of ops keeps it so) and
        // cost little when it is not (the caller takes the helper's part: see `team`)
        drive_grain(&mut out, TRANSCENDENTAL_GRAIN, |start, o| {
            let s = &src[start..start + o.len()];
            transcendental(op, s, start, src.len(), VEC_STEP, o)
        });
        (Buffer::F32(out), None)
    }))
}

/// float16/bfloat16 `exp`, `log`, `tanh`, `sigmoid`, `silu` and gelu: ATen runs the float kernels on each
/// widened vector (`Vectorized<Half>` holds 32, so the sigmoid and silu loops step by 64). Its
/// exp and log there are SLEEF's (MKL serves only float32/float64); tanh is float32's table
/// (SLEEF's tanhf is not ported: a rare last-bit difference after rounding to the half type).
fn fast_half<H: Element<M = f32>>(op: UnaryOp, v: &[H], x: &View) -> Option<Result<Laid>> {
    let src = transcendental_src(op, v, x)?;
    Some(output_vec::<H>(src.len()).map(|mut out| {
        drive_grain(&mut out, TRANSCENDENTAL_GRAIN, |start, o| {
            let mut s = &src[start..start + o.len()];
            let mut o = o;
            if op == UnaryOp::Exp {
                // whole steps widened, exponentiated and narrowed in registers
                let done = sleef::exp_half(s, o);
                (s, o) = (&s[done..], &mut o[done..]);
            }
            widen::blockwise(s, o, |at, w, r| match op {
                UnaryOp::Exp => sleef::exp_shifted(w, 0.0, r),
                UnaryOp::Log => r.iter_mut().zip(w).for_each(|(r, &v)| *r = sleef::ln(v)),
                _ => transcendental(op, w, start + at, src.len(), 2 * VEC_STEP, r),
            })
        });
        (H::wrap(out), None)
    }))
}

pub fn unary(op: UnaryOp, x: &View) -> Result<Laid> {
    let b = x.storage().borrow();
    let fast = match &*b {
        Buffer::F32(v) => fast_f32(op, v, x),
        Buffer::F16(v) => fast_half(op, v, x),
        Buffer::BF16(v) => fast_half(op, v, x),
        _ => None,
    };
    if let Some(r) = fast {
        return r;
    }
    match &*b {
        // strided float32 exp and tanh: the contiguous kernels' functions, so a layout never
        // shows
        Buffer::F32(v) if op == UnaryOp::Exp => Ok(map_keep(v, x, exp_table::exp)?.wrap()),
        Buffer::F32(v) if op == UnaryOp::Tanh => Ok(map_keep(v, x, tanh_table::tanh)?.wrap()),
        Buffer::F32(v) => float_kernel::<f32>(op, v, x),
        Buffer::F64(v) => float_kernel::<f64>(op, v, x),
        Buffer::F16(v) => float_kernel::<f16>(op, v, x),
        Buffer::BF16(v) => float_kernel::<bf16>(op, v, x),
        Buffer::I64(v) => int_kernel::<i64>(op, v, x),
        Buffer::I32(v) => int_kernel::<i32>(op, v, x),
        Buffer::I8(v) => int_kernel::<i8>(op, v, x),
        Buffer::U8(v) => int_kernel::<u8>(op, v, x),
        Buffer::Bool(v) => bool_kernel(op, v, x),
    }
}

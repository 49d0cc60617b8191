//! Binary elementwise kernels: one generic loop per op, chosen once per call (not per element).
use super::elementwise::{drive_grain, map2, update, Src};
use super::iter::PAR_THRESHOLD;
use super::iter::{output_order, permuted, strides_for_order};
use super::unary::TRANSCENDENTAL_GRAIN;
use super::{scalar_m, typed, vmath, Laid};
use crate::backend::storage::{check_alloc, output_vec, Arith, Buffer, Element};
use crate::backend::View;
use crate::core::error::Result;
use crate::core::shape::{broadcast_strides, numel, Dims};
use crate::core::BinaryOp;
use crate::core::Scalar;
use crate::with_buffer;

/// A result buffer and its strides when not row-major.
type Out = (Buffer, Option<Dims>);

/// `f(a, b)` over the broadcast `shape` into a new vector, with a fast path for two dense
/// operands of the result's shape (the common `x + y`).
fn run2<E: Element, O: Element>(
    av: &[E],
    a: &View,
    bv: &[E],
    b: &View,
    shape: &[usize],
    f: impl Fn(E, E) -> O + Sync,
) -> Result<Laid<O>> {
    let n = numel(shape);
    let row_major = |data: Vec<O>| {
        Ok(Laid {
            data,
            strides: None,
        })
    };
    if n == 0 {
        return row_major(Vec::new());
    }
    if a.is_contiguous() && b.is_contiguous() && a.shape() == shape && b.shape() == shape {
        let x = &av[a.offset()..a.offset() + n];
        let y = &bv[b.offset()..b.offset() + n];
        if n < PAR_THRESHOLD {
            check_alloc(n, O::DTYPE)?;
            let mut out: Vec<O> = Vec::with_capacity(n);
            dense2(&mut out.spare_capacity_mut()[..n], x, y, &f);
            // SAFETY: `dense2` wrote all `n` elements (the slices have `n` each).
            unsafe { out.set_len(n) };
            return row_major(out);
        }
        let mut out = output_vec::<O>(n)?;
        super::elementwise::drive(&mut out, |start, o| {
            let (x, y) = (&x[start..start + o.len()], &y[start..start + o.len()]);
            // SAFETY: `MaybeUninit<O>` has `O`'s layout, and every element written through
            // it is a valid `O`; initialised elements stay initialised.
            let o = unsafe { &mut *(o as *mut [O] as *mut [std::mem::MaybeUninit<O>]) };
            dense2(o, x, y, &f);
        });
        return row_major(out);
    }
    let sa = broadcast_strides(a.shape(), a.strides(), shape);
    let sb = broadcast_strides(b.shape(), b.strides(), shape);
    let mut out = output_vec::<O>(n)?;
    // iterate in the output's memory order (row-major unless the inputs are permuted)
    let order = output_order(shape, &[&sa, &sb]);
    let id: Dims = (0..shape.len()).collect();
    let ord = order.as_deref().unwrap_or(&id);
    let (ps, pa, pb) = (permuted(shape, ord), permuted(&sa, ord), permuted(&sb, ord));
    map2(
        &mut out,
        &ps,
        Src {
            data: av,
            offset: a.offset(),
            strides: &pa,
        },
        Src {
            data: bv,
            offset: b.offset(),
            strides: &pb,
        },
        f,
    );
    Ok(Laid {
        data: out,
        strides: order.map(|o| strides_for_order(shape, &o)),
    })
}

simd_build! {
    /// `out[i] = f(x[i], y[i])` over slices of one length, in the widest SIMD build the CPU
    /// has (8 or 16 floats per instruction; the same bits at any width).
    fn dense2<E: Copy, O>(
        out: &mut [std::mem::MaybeUninit<O>],
        x: &[E],
        y: &[E],
        f: &impl Fn(E, E) -> O,
    ) {
        for ((o, &p), &q) in out.iter_mut().zip(x).zip(y) {
            o.write(f(p, q));
        }
    }
}

/// Calls `$go!(closure)` with the arithmetic closure of `$op` over compute type `$M`, or
/// `$pred!(closure)` for ops that give bool.
macro_rules! dispatch_op {
    ($op:expr, $M:ty, $go:ident, $pred:ident) => {{
        match $op {
            BinaryOp::Add => $go!(|x: $M, y: $M| Arith::add(x, y)),
            BinaryOp::Sub => $go!(|x: $M, y: $M| Arith::sub(x, y)),
            BinaryOp::Mul => $go!(|x: $M, y: $M| Arith::mul(x, y)),
            BinaryOp::Div => $go!(|x: $M, y: $M| Arith::div(x, y)),
            BinaryOp::FloorDiv => $go!(|x: $M, y: $M| Arith::floor_div(x, y)),
            BinaryOp::TruncDiv => $go!(|x: $M, y: $M| Arith::trunc_div(x, y)),
            BinaryOp::Rem => $go!(|x: $M, y: $M| Arith::rem(x, y)),
            BinaryOp::Fmod => $go!(|x: $M, y: $M| Arith::fmod(x, y)),
            BinaryOp::Pow => $go!(|x: $M, y: $M| Arith::pow(x, y)),
            BinaryOp::Maximum => $go!(|x: $M, y: $M| Arith::max(x, y)),
            BinaryOp::Minimum => $go!(|x: $M, y: $M| Arith::min(x, y)),
            BinaryOp::BitAnd => $go!(|x: $M, y: $M| Arith::bitand(x, y)),
            BinaryOp::BitOr => $go!(|x: $M, y: $M| Arith::bitor(x, y)),
            BinaryOp::BitXor => $go!(|x: $M, y: $M| Arith::bitxor(x, y)),
            BinaryOp::Eq => $pred!(|x: $M, y: $M| x == y),
            BinaryOp::Ne => $pred!(|x: $M, y: $M| x != y),
            BinaryOp::Lt => $pred!(|x: $M, y: $M| x < y),
            BinaryOp::Le => $pred!(|x: $M, y: $M| x <= y),
            BinaryOp::Gt => $pred!(|x: $M, y: $M| x > y),
            BinaryOp::Ge => $pred!(|x: $M, y: $M| x >= y),
            BinaryOp::LogicalAnd => $pred!(|x: $M, y: $M| x.truthy() && y.truthy()),
            BinaryOp::LogicalOr => $pred!(|x: $M, y: $M| x.truthy() || y.truthy()),
            BinaryOp::LogicalXor => $pred!(|x: $M, y: $M| x.truthy() != y.truthy()),
        }
    }};
}

fn binary_typed<E: Element>(
    op: BinaryOp,
    av: &[E],
    a: &View,
    bv: &[E],
    b: &View,
    shape: &[usize],
) -> Result<Out> {
    macro_rules! go {
        ($f:expr) => {{
            let f = $f;
            Ok(run2(av, a, bv, b, shape, |x: E, y: E| {
                E::store(f(x.load(), y.load()))
            })?
            .wrap())
        }};
    }
    macro_rules! pred {
        ($f:expr) => {{
            let f = $f;
            Ok(run2(av, a, bv, b, shape, |x: E, y: E| f(x.load(), y.load()))?.wrap())
        }};
    }
    dispatch_op!(op, E::M, go, pred)
}

pub fn binary(op: BinaryOp, a: &View, b: &View, shape: &[usize]) -> Result<Out> {
    let ab = a.storage().borrow();
    let bb = b.storage().borrow();
    let half = match (&*ab, &*bb) {
        (Buffer::F16(av), Buffer::F16(bv)) => half_arith(op, av, a, bv, b, shape),
        (Buffer::BF16(av), Buffer::BF16(bv)) => half_arith(op, av, a, bv, b, shape),
        _ => None,
    };
    if let Some(r) = half {
        return r;
    }
    with_buffer!(&*ab, av, T => binary_typed::<T>(op, av, a, typed::<T>(&bb)?, b, shape))
}

/// float16/bfloat16 `+ - * /` of two dense operands of the result's shape in one pass, each
/// vector widened, the float32 op, one rounding back (`widen::zip_half`) — the element loop
/// converts one value at a time (3x slower than PyTorch's vector kernels) and rounds every
/// bfloat16 NaN as the scalar conversion does.
fn half_arith<H: Element<M = f32>>(
    op: BinaryOp,
    av: &[H],
    a: &View,
    bv: &[H],
    b: &View,
    shape: &[usize],
) -> Option<Result<Out>> {
    let n = numel(shape);
    let dense = |t: &View| t.is_contiguous() && t.shape() == shape;
    if n == 0 || !dense(a) || !dense(b) {
        return None;
    }
    let (x, y) = (
        &av[a.offset()..a.offset() + n],
        &bv[b.offset()..b.offset() + n],
    );
    Some(match op {
        BinaryOp::Add => half_zip(x, y, |p, q| p + q),
        BinaryOp::Sub => half_zip(x, y, |p, q| p - q),
        BinaryOp::Mul => half_zip(x, y, |p, q| p * q),
        BinaryOp::Div => half_zip(x, y, |p, q| p / q),
        _ => return None,
    })
}

/// `f` of half-precision slices of one length, each value widened and the result rounded once.
fn half_zip<H: Element<M = f32>>(
    x: &[H],
    y: &[H],
    f: impl Fn(f32, f32) -> f32 + Sync,
) -> Result<Out> {
    let mut out = output_vec::<H>(x.len())?;
    super::elementwise::drive(&mut out, |start, o| {
        let (x, y) = (&x[start..start + o.len()], &y[start..start + o.len()]);
        super::widen::zip_half(x, y, o, &f);
    });
    Ok((H::wrap(out), None))
}

/// `Backend::clamp` on the CPU, any dtype but bool (`None`): ATen's kernel, each float bound
/// first rounded to the dtype, then `lo > x ? lo : x` and `hi < r ? hi : r` (`std::max`/`std::min`,
/// and `vmaxps`/`vminps` with the bound first, agree on these), so a NaN `x` and an `x` equal
/// to a bound come through as they are; a NaN bound fills the result with NaN, as
/// `at::clamp` does before its kernel.
pub fn clamp(x: &View, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Option<Out>> {
    fn go<E: Element>(v: &[E], x: &View, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Out> {
        let nan = [lo, hi].iter().flatten().any(|s| s.to_f64().is_nan());
        // (integers compare in int64: `uint8.clamp(-5, 300)` leaves every element)
        let float = E::DTYPE.is_floating();
        let bound = |s: Option<Scalar>| {
            s.map(|s| match scalar_m::<E>(s) {
                m if float => E::store(m).load(),
                m => m,
            })
        };
        let (lo, hi) = (bound(lo), bound(hi));
        let r = if nan {
            run1(v, x, |_: E| E::from_f64(f64::NAN))?
        } else {
            run1(v, x, |e: E| {
                let a = e.load();
                let r = match lo {
                    Some(l) if l > a => l,
                    _ => a,
                };
                E::store(match hi {
                    Some(h) if h < r => h,
                    _ => r,
                })
            })?
        };
        Ok(r.wrap())
    }
    let xb = x.storage().borrow();
    if matches!(&*xb, Buffer::Bool(_)) {
        return Ok(None);
    }
    with_buffer!(&*xb, v, T => go::<T>(v, x, lo, hi)).map(Some)
}

/// `a op s` over a tensor's elements into a new vector.
fn run1<E: Element, O: Element>(av: &[E], a: &View, f: impl Fn(E) -> O + Sync) -> Result<Laid<O>> {
    super::map_keep(av, a, f)
}

/// PyTorch's `pow(tensor, scalar)` shortcuts for common float exponents.
fn pow_scalar<E: Element>(av: &[E], a: &View, e: f64) -> Result<Out> {
    let one = <E::M as Arith>::one();
    let v = if e == 2.0 {
        run1(av, a, |x: E| E::store(x.load().mul(x.load())))?
    } else if e == 3.0 {
        run1(av, a, |x: E| E::store(x.load().mul(x.load()).mul(x.load())))?
    } else if e == -2.0 {
        run1(av, a, |x: E| E::store(one.div(x.load().mul(x.load()))))?
    } else if e == 0.5 {
        run1(av, a, |x: E| E::store(Arith::sqrt(x.load())))?
    } else if e == -0.5 {
        run1(av, a, |x: E| E::store(one.div(Arith::sqrt(x.load()))))?
    } else if e == -1.0 {
        run1(av, a, |x: E| E::store(one.div(x.load())))?
    } else if let Some(out) = pow_f32(a, e) {
        return out;
    } else {
        // ATen: std::pow(base, (double)exp), computed in double and rounded once
        run1(av, a, |x: E| {
            E::store(<E::M as Arith>::of_scalar(Scalar::Float(
                x.to_f64().powf(e),
            )))
        })?
    };
    Ok(v.wrap())
}

/// `pow_scalar`'s general case for a contiguous float32 tensor: `vmath::pow_slice`, split
/// over the team as the transcendental ops are (libm's double pow cost ~6 ns an element);
/// `None` for other tensors.
fn pow_f32(a: &View, e: f64) -> Option<Result<Out>> {
    let b = a.storage().borrow();
    let Buffer::F32(v) = &*b else {
        return None;
    };
    if !a.is_contiguous() {
        return None;
    }
    let x = &v[a.offset()..a.offset() + a.numel()];
    Some(output_vec::<f32>(x.len()).map(|mut out| {
        drive_grain(&mut out, TRANSCENDENTAL_GRAIN, |start, o| {
            vmath::pow_slice(&x[start..start + o.len()], e, o)
        });
        (Buffer::F32(out), None)
    }))
}

fn binary_scalar_typed<E: Element>(
    op: BinaryOp,
    av: &[E],
    a: &View,
    s: Scalar,
    reversed: bool,
) -> Result<Out> {
    if op == BinaryOp::Pow && !reversed && E::DTYPE.is_floating() {
        return pow_scalar(av, a, s.to_f64());
    }
    let sm = scalar_m::<E>(s);
    macro_rules! go {
        ($f:expr) => {{
            let f = $f;
            let v = if reversed {
                run1(av, a, |x: E| E::store(f(sm, x.load())))?
            } else {
                run1(av, a, |x: E| E::store(f(x.load(), sm)))?
            };
            Ok(v.wrap())
        }};
    }
    macro_rules! pred {
        ($f:expr) => {{
            let f = $f;
            let v = if reversed {
                run1(av, a, |x: E| f(sm, x.load()))?
            } else {
                run1(av, a, |x: E| f(x.load(), sm))?
            };
            Ok(v.wrap())
        }};
    }
    dispatch_op!(op, E::M, go, pred)
}

pub fn binary_scalar(op: BinaryOp, a: &View, s: Scalar, reversed: bool) -> Result<Out> {
    let ab = a.storage().borrow();
    with_buffer!(&*ab, av, T => binary_scalar_typed::<T>(op, av, a, s, reversed))
}

fn inplace_typed<E: Element>(
    op: BinaryOp,
    dv: &mut [E],
    dst: &View,
    sv: &[E],
    src: &View,
) -> Result<()> {
    let st = broadcast_strides(src.shape(), src.strides(), dst.shape());
    let s = Src {
        data: sv,
        offset: src.offset(),
        strides: &st,
    };
    let n = dst.numel();
    if n == 0 {
        return Ok(());
    }
    // small dense same-shape operands (`x += y`): a plain zip, no layout walk
    let small_dense = n < PAR_THRESHOLD
        && dst.is_contiguous()
        && src.is_contiguous()
        && src.shape() == dst.shape();
    macro_rules! go {
        ($f:expr) => {{
            let f = $f;
            if small_dense {
                let d = &mut dv[dst.offset()..dst.offset() + n];
                for (d, x) in d.iter_mut().zip(&sv[src.offset()..src.offset() + n]) {
                    *d = E::store(f(d.load(), x.load()));
                }
                return Ok(());
            }
            update(
                dv,
                dst.offset(),
                dst.strides(),
                dst.shape(),
                s,
                |d: E, x: E| E::store(f(d.load(), x.load())),
            );
            Ok(())
        }};
    }
    macro_rules! pred {
        ($f:expr) => {{
            let f = $f;
            update(
                dv,
                dst.offset(),
                dst.strides(),
                dst.shape(),
                s,
                |d: E, x: E| E::from_bool(f(d.load(), x.load())),
            );
            Ok(())
        }};
    }
    dispatch_op!(op, E::M, go, pred)
}

/// `dst = op(dst, src)`; `src` has `dst`'s dtype and does not share its storage.
pub fn binary_inplace(op: BinaryOp, dst: &View, src: &View) -> Result<()> {
    let sb = src.storage().borrow();
    let mut db = dst.storage().borrow_mut();
    with_buffer!(&mut *db, dv, T => inplace_typed::<T>(op, dv, dst, typed::<T>(&sb)?, src))
}

fn scalar_inplace_typed<E: Element>(
    op: BinaryOp,
    dv: &mut [E],
    dst: &View,
    s: Scalar,
) -> Result<()> {
    let sm = scalar_m::<E>(s);
    macro_rules! go {
        ($f:expr) => {{
            let f = $f;
            update_each(dv, dst, |d: E| E::store(f(d.load(), sm)));
            Ok(())
        }};
    }
    macro_rules! pred {
        ($f:expr) => {{
            let f = $f;
            update_each(dv, dst, |d: E| E::from_bool(f(d.load(), sm)));
            Ok(())
        }};
    }
    dispatch_op!(op, E::M, go, pred)
}

/// `x = g(x)` over the elements of `dst` in `dv`: a contiguous one as a slice, split over the
/// team (`dense_update` vectorises it), any other through `update`'s walk.
fn update_each<E: Element>(dv: &mut [E], dst: &View, g: impl Fn(E) -> E + Sync) {
    if dst.numel() == 0 {
        // an empty view's offset may lie past the end of its storage
        return;
    }
    if dst.is_contiguous() {
        let region = &mut dv[dst.offset()..dst.offset() + dst.numel()];
        return super::elementwise::drive(region, |_, part| {
            super::elementwise::dense_update(part, &g)
        });
    }
    let zeros = Dims::filled(dst.ndim(), 0);
    let unit = Src {
        data: &[()],
        offset: 0,
        strides: &zeros,
    };
    update(
        dv,
        dst.offset(),
        dst.strides(),
        dst.shape(),
        unit,
        |d: E, _| g(d),
    );
}

pub fn binary_scalar_inplace(op: BinaryOp, dst: &View, s: Scalar) -> Result<()> {
    let mut db = dst.storage().borrow_mut();
    with_buffer!(&mut *db, dv, T => scalar_inplace_typed::<T>(op, dv, dst, s))
}

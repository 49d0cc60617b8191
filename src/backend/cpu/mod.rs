//! The CPU backend: host memory, kernels written over `Element` types, the `team` for large work,
//! `gemm` for matrix products.
#[macro_use]
pub(crate) mod simd;
mod binary;
#[cfg(target_arch = "x86_64")]
mod conv;
mod convert;
pub mod elementwise;
mod exp_table;
mod extremes;
mod gelu;
mod im2col;
mod index;
pub mod iter;
pub mod layer_norm;
mod leaky_relu;
pub mod math;
mod matmul;
mod norm;
pub mod optim;
mod reduce;
mod scan;
#[cfg(target_arch = "x86_64")]
mod sgemm;
#[cfg(target_arch = "x86_64")]
mod sgemm_avx2;
#[cfg(target_arch = "x86_64")]
mod sgemm_pack;
mod silu_grad;
pub mod sleef;
mod softmax;
mod softmax_grad;
mod sum;
#[cfg(target_arch = "x86_64")]
mod table32;
mod tanh_table;
pub mod team;
mod transpose;
mod unary;
mod var;
pub mod vmath;
mod vreg;
mod widen;

use super::storage::{output_vec, Arith, Buffer, Element, Storage};
use super::{Backend, NormGrads, Normed, Owned, View};
use crate::core::error::{runtime, Result};
use crate::core::shape::{broadcast_strides, numel, Dims};
use crate::core::window::Columns;
use crate::core::{BinaryOp, DType, Device, Layout, ReduceOp, Scalar, UnaryOp};
use crate::with_buffer;
use elementwise::{map1, update, Src};

pub struct Cpu;

/// The one CPU backend instance.
pub static CPU: Cpu = Cpu;

pub(crate) fn internal<T>(what: &str) -> Result<T> {
    runtime(format!("cudalearn internal error: {what}"))
}

/// The typed slice of a buffer that must have element type `T`.
pub(crate) fn typed<T: Element>(b: &Buffer) -> Result<&[T]> {
    match T::slice(b) {
        Some(s) => Ok(s),
        None => internal("operand dtypes differ inside a CPU kernel"),
    }
}

/// A layout source for operand `t` over its own shape.
pub(crate) fn src_of<'a, T>(data: &'a [T], t: &View<'a>) -> Src<'a, T> {
    Src {
        data,
        offset: t.offset(),
        strides: t.strides(),
    }
}

/// A new contiguous result on `device` owning `buf`.
#[inline(always)]
pub(crate) fn tensor_of(buf: Buffer, shape: &[usize], device: Device) -> Result<Owned> {
    Ok(Owned::contiguous(Storage::new(buf, device)?, shape))
}

/// `dst` = the first `dst.len()` elements of `src`, in fixed-size pieces: for runs of tens of
/// floats (an image row, a packed strip), where a `memcpy` call costs more than the copy.
#[inline(always)]
pub(crate) fn copy_run(dst: &mut [f32], src: &[f32]) {
    // (the pieces of both from their starts: `src`'s remainder must follow its last piece)
    let src = &src[..dst.len().min(src.len())];
    let mut d = dst.chunks_exact_mut(16);
    let mut s = src.chunks_exact(16);
    for (d, s) in (&mut d).zip(&mut s) {
        let s: &[f32; 16] = s.try_into().unwrap_or(&[0.0; 16]);
        d.copy_from_slice(s);
    }
    let (d, s) = (d.into_remainder(), s.remainder());
    for (d, s) in d.iter_mut().zip(s) {
        *d = *s;
    }
}

/// `f` over the float32 elements of `ops` when they are contiguous float32 operands of one
/// shape, and its result as a new tensor of that shape on their device; `None` (the caller
/// composes the op another way) for any other operands. The fused kernels' common entry.
pub(crate) fn f32_operands<const N: usize>(
    ops: [&View; N],
    f: impl FnOnce([&[f32]; N]) -> Result<Vec<f32>>,
) -> Result<Option<Owned>> {
    let Some(first) = ops.first() else {
        return Ok(None);
    };
    let (shape, device) = (first.shape(), first.device());
    f32_slices(ops, f)?
        .map(|v| tensor_of(Buffer::F32(v), shape, device))
        .transpose()
}

/// `f` of the float32 elements of `ops` when they are contiguous float32 operands of one
/// shape; `None` for any other operands (`f32_operands` without the result's shape, for the
/// row kernels, whose result has another).
pub(crate) fn f32_slices<const N: usize, R>(
    ops: [&View; N],
    f: impl FnOnce([&[f32]; N]) -> Result<R>,
) -> Result<Option<R>> {
    let Some(first) = ops.first() else {
        return Ok(None);
    };
    let (shape, n) = (first.shape(), first.numel());
    if ops.iter().any(|o| o.shape() != shape || !o.is_contiguous()) {
        return Ok(None);
    }
    let guards = ops.map(|o| o.storage().borrow());
    let slices: Option<Vec<&[f32]>> = guards
        .iter()
        .zip(ops)
        .map(|(g, o)| match &**g {
            Buffer::F32(v) => Some(&v[o.offset()..][..n]),
            _ => None,
        })
        .collect();
    let Some(Ok(slices)) = slices.map(<[&[f32]; N]>::try_from) else {
        return Ok(None);
    };
    f(slices).map(Some)
}

/// A snapshot of `src` when it shares storage with `dst` (so the kernel can borrow both).
fn unaliased(dst: View, src: View) -> Result<Option<Owned>> {
    if dst.same_storage(&src) {
        CPU.contiguous_copy(src).map(Some)
    } else {
        Ok(None)
    }
}

/// A copy between tensors of one dtype laid out alike over dense memory (`clone()` of a
/// transposed or contiguous tensor): the whole span at once, as PyTorch's clone is a memcpy.
/// False (nothing done) for any other pair.
fn copy_same_layout(dst: View, src: View) -> bool {
    let same = dst.dtype() == src.dtype()
        && dst.shape() == src.shape()
        && dst.strides() == src.strides()
        && crate::core::shape::is_dense(dst.shape(), dst.strides());
    let n = dst.numel();
    if !same || n == 0 {
        return false;
    }
    let sb = src.storage().borrow();
    let mut db = dst.storage().borrow_mut();
    let (so, d_o) = (src.offset(), dst.offset());
    with_buffer!(&mut *db, dv, D => {
        with_buffer!(&*sb, sv, S => {
            if let Some(sv) = sum::slice_as::<S, D>(&sv[so..so + n]) {
                // split over the team as PyTorch's copy is (a core's share stays in its L2)
                elementwise::drive(&mut dv[d_o..d_o + n], |start, o| {
                    o.copy_from_slice(&sv[start..start + o.len()])
                });
                return true;
            }
        })
    });
    false
}

/// `out[i] = f(t[i])` for every element of `t` into a new dense vector.
pub(crate) fn map_tensor<A: Element, O: Element>(
    data: &[A],
    t: &View,
    f: impl Fn(A) -> O + Sync,
) -> Result<Vec<O>> {
    let n = t.numel();
    if n == 0 {
        // an empty view's offset may lie past the end of its storage
        return Ok(Vec::new());
    }
    if t.is_contiguous() && n < iter::PAR_THRESHOLD {
        super::storage::check_alloc(n, O::DTYPE)?;
        let mut out: Vec<O> = Vec::with_capacity(n);
        elementwise::dense1(
            &mut out.spare_capacity_mut()[..n],
            &data[t.offset()..t.offset() + n],
            &f,
        );
        // SAFETY: `dense1` wrote all `n` elements (both slices have `n`).
        unsafe { out.set_len(n) };
        return Ok(out);
    }
    let mut out = output_vec::<O>(n)?;
    if t.is_contiguous() {
        let src = Src {
            data: &data[t.offset()..t.offset() + n],
            offset: 0,
            strides: &[1],
        };
        map1(&mut out, &[n], src, f);
    } else {
        map1(&mut out, t.shape(), src_of(data, t), f);
    }
    Ok(out)
}

/// An elementwise result: elements in memory order, and the strides giving that order when it
/// is not row-major (see `iter::output_order`).
pub(crate) struct Laid<T> {
    pub data: Vec<T>,
    pub strides: Option<Dims>,
}

impl<T: Element> Laid<T> {
    pub fn wrap(self) -> (Buffer, Option<Dims>) {
        (T::wrap(self.data), self.strides)
    }
}

/// `map_tensor`, but laid out like `t` (PyTorch's TensorIterator keeps a transposed input's
/// layout in the output).
pub(crate) fn map_keep<A: Element, O: Element>(
    data: &[A],
    t: &View,
    f: impl Fn(A) -> O + Sync,
) -> Result<Laid<O>> {
    if !t.is_contiguous() && t.numel() > 0 {
        if let Some(order) = iter::output_order(t.shape(), &[t.strides()]) {
            let mut out = output_vec::<O>(t.numel())?;
            let (ps, pst) = (
                iter::permuted(t.shape(), &order),
                iter::permuted(t.strides(), &order),
            );
            map1(
                &mut out,
                &ps,
                Src {
                    data,
                    offset: t.offset(),
                    strides: &pst,
                },
                f,
            );
            return Ok(Laid {
                data: out,
                strides: Some(iter::strides_for_order(t.shape(), &order)),
            });
        }
    }
    Ok(Laid {
        data: map_tensor(data, t, f)?,
        strides: None,
    })
}

/// Whether ATen converts float32 to bfloat16 with its vector kernel (`convert_float_bfloat16`),
/// which writes every NaN as `0xFFFF`, a negative NaN, where c10's scalar conversion writes
/// `0x7FC0`: it does when the loop's inner dimension (the destination's densest one longer
/// than 1) is a run of neighbours in the destination and in the source (or a broadcast source
/// element), and never for a 0-dim tensor. `x.bfloat16().signbit()` shows which ran.
fn aten_vectorizes_bf16(shape: &[usize], dst_strides: &[usize], src_strides: &[usize]) -> bool {
    if shape.is_empty() {
        return false;
    }
    let inner = (0..shape.len())
        .filter(|&d| shape[d] > 1)
        .min_by_key(|&d| dst_strides[d]);
    inner.is_none_or(|d| dst_strides[d] == 1 && src_strides[d] <= 1)
}

/// float32 to bfloat16 as ATen's vector conversion does it (a NaN becomes `0xFFFF`).
pub(crate) fn bf16_vectorized(x: f32) -> half::bf16 {
    if x.is_nan() {
        half::bf16::from_bits(0xFFFF)
    } else {
        <half::bf16 as Element>::cast_from(x)
    }
}

/// A new result owning `buf` laid out with `strides` (row-major when `None`).
#[inline(always)]
pub(crate) fn tensor_laid(
    buf: (Buffer, Option<Dims>),
    shape: &[usize],
    device: Device,
) -> Result<Owned> {
    match buf.1 {
        None => tensor_of(buf.0, shape, device),
        Some(st) => Ok(Owned::new(
            Storage::new(buf.0, device)?,
            Layout::new(Dims::from_slice(shape), st, 0),
        )),
    }
}

fn scalar_as<T: Element>(s: Scalar) -> T {
    match s {
        Scalar::Bool(b) => T::from_bool(b),
        Scalar::Int(i) => T::from_i64(i),
        Scalar::Float(f) => T::from_f64(f),
    }
}

impl Backend for Cpu {
    fn zeros(&self, dtype: DType, numel: usize, device: Device) -> Result<Storage> {
        let block = Storage::reserve(device, numel.saturating_mul(dtype.size()))?;
        Ok(Storage::with_block(
            Buffer::zeros(dtype, numel)?,
            device,
            block,
        ))
    }

    fn empty(&self, dtype: DType, numel: usize, device: Device) -> Result<Storage> {
        let block = Storage::reserve(device, numel.saturating_mul(dtype.size()))?;
        // a recycled buffer of this size when there is one (PyTorch's `empty`: no zeroing)
        let buf = crate::with_dtype!(dtype, T => <T as Element>::wrap(output_vec::<T>(numel)?));
        Ok(Storage::with_block(buf, device, block))
    }

    fn upload(&self, buf: Buffer, device: Device) -> Result<Storage> {
        Storage::new(buf, device)
    }

    fn to_host(&self, t: View) -> Result<Buffer> {
        let b = t.storage().borrow();
        with_buffer!(&*b, v, T => Ok(<T as Element>::wrap(map_tensor::<T, T>(v, &t, |x| x)?)))
    }

    fn copy(&self, dst: View, src: View) -> Result<()> {
        let copy = unaliased(dst, src)?;
        let src = copy.as_ref().map_or(src, Owned::view);
        if copy_same_layout(dst, src) {
            return Ok(());
        }
        let st = broadcast_strides(src.shape(), src.strides(), dst.shape());
        let sb = src.storage().borrow();
        let mut db = dst.storage().borrow_mut();
        if let (Buffer::BF16(dv), Buffer::F32(sv)) = (&mut *db, &*sb) {
            if aten_vectorizes_bf16(dst.shape(), dst.strides(), &st) {
                let s = Src {
                    data: &sv[..],
                    offset: src.offset(),
                    strides: &st,
                };
                update(dv, dst.offset(), dst.strides(), dst.shape(), s, |_, x| {
                    bf16_vectorized(x)
                });
                return Ok(());
            }
        }
        with_buffer!(&mut *db, dv, D => {
            with_buffer!(&*sb, sv, S => {
                let s = Src { data: &sv[..], offset: src.offset(), strides: &st };
                update(dv, dst.offset(), dst.strides(), dst.shape(), s, |_, x: S| <D as Element>::cast_from(x));
            })
        });
        Ok(())
    }

    fn fill(&self, dst: View, v: Scalar) -> Result<()> {
        let mut db = dst.storage().borrow_mut();
        with_buffer!(&mut *db, dv, D => {
            let x: D = scalar_as(v);
            elementwise::fill(dv, dst.offset(), dst.strides(), dst.shape(), x);
        });
        Ok(())
    }

    fn cast(&self, src: View, dtype: DType) -> Result<Owned> {
        // `to(dtype)` keeps the strides of a dense tensor (preserve_format), else row-major
        let keep = crate::core::shape::is_dense(src.shape(), src.strides());
        let sb = src.storage().borrow();
        // (a 0-d float32 → bfloat16 cast takes ATen's scalar conversion, below; an empty
        // view's offset may lie past the end of its storage)
        if src.is_contiguous() && !src.shape().is_empty() && src.numel() > 0 {
            let n = src.numel();
            let buf = convert::contiguous(&sb, src.offset(), n, dtype)?;
            return tensor_of(buf, src.shape(), src.device());
        }
        if let (Buffer::F32(sv), DType::BF16) = (&*sb, dtype) {
            // the result is dense: the source's strides when kept, else row-major
            let dst = match keep {
                true => Dims::from_slice(src.strides()),
                false => crate::core::shape::contiguous_strides(src.shape()),
            };
            if aten_vectorizes_bf16(src.shape(), &dst, src.strides()) {
                let buf = match keep {
                    true => map_keep(sv, &src, bf16_vectorized)?.wrap(),
                    false => (
                        <half::bf16 as Element>::wrap(map_tensor(sv, &src, bf16_vectorized)?),
                        None,
                    ),
                };
                return tensor_laid(buf, src.shape(), src.device());
            }
        }
        let buf = crate::with_dtype!(dtype, D => {
            with_buffer!(&*sb, sv, S => {
                if keep {
                    map_keep::<S, D>(sv, &src, <D as Element>::cast_from)?.wrap()
                } else {
                    (<D as Element>::wrap(map_tensor::<S, D>(sv, &src, <D as Element>::cast_from)?), None)
                }
            })
        });
        tensor_laid(buf, src.shape(), src.device())
    }

    fn contiguous_copy(&self, src: View) -> Result<Owned> {
        let sb = src.storage().borrow();
        let (sh, st) = (src.shape(), src.strides());
        // a transposed f32 matrix (`x.t().contiguous()`): 8x8 register transposes
        if let (Buffer::F32(v), [rows, cols], [1, sc]) = (&*sb, sh, st) {
            if *rows > 1 && *sc >= *rows {
                let mut out = output_vec::<f32>(rows * cols)?;
                transpose::transpose_f32(&mut out, v, src.offset(), *rows, *cols, *sc);
                return tensor_of(Buffer::F32(out), sh, src.device());
            }
        }
        let buf =
            with_buffer!(&*sb, sv, S => <S as Element>::wrap(map_tensor::<S, S>(sv, &src, |x| x)?));
        tensor_of(buf, src.shape(), src.device())
    }

    fn unary(&self, op: UnaryOp, x: View) -> Result<Owned> {
        tensor_laid(unary::unary(op, &x)?, x.shape(), x.device())
    }

    fn binary(&self, op: BinaryOp, a: View, b: View, shape: &[usize]) -> Result<Owned> {
        tensor_laid(binary::binary(op, &a, &b, shape)?, shape, a.device())
    }

    fn binary_scalar(&self, op: BinaryOp, a: View, s: Scalar, reversed: bool) -> Result<Owned> {
        tensor_laid(
            binary::binary_scalar(op, &a, s, reversed)?,
            a.shape(),
            a.device(),
        )
    }

    fn binary_inplace(&self, op: BinaryOp, dst: View, src: View) -> Result<()> {
        let copy = unaliased(dst, src)?;
        binary::binary_inplace(op, &dst, &copy.as_ref().map_or(src, Owned::view))
    }

    fn binary_scalar_inplace(&self, op: BinaryOp, dst: View, s: Scalar) -> Result<()> {
        binary::binary_scalar_inplace(op, &dst, s)
    }

    fn where_(&self, cond: View, a: View, b: View, shape: &[usize]) -> Result<Owned> {
        let n = numel(shape);
        let (sc, sa, sb) = (
            broadcast_strides(cond.shape(), cond.strides(), shape),
            broadcast_strides(a.shape(), a.strides(), shape),
            broadcast_strides(b.shape(), b.strides(), shape),
        );
        let cb = cond.storage().borrow();
        let ab = a.storage().borrow();
        let bb = b.storage().borrow();
        let cv = typed::<bool>(&cb)?;
        let order = iter::output_order(shape, &[&sc, &sa, &sb]);
        let id: Dims = (0..shape.len()).collect();
        let ord = order.clone().unwrap_or(id);
        let (ps, psc, psa, psb) = (
            iter::permuted(shape, &ord),
            iter::permuted(&sc, &ord),
            iter::permuted(&sa, &ord),
            iter::permuted(&sb, &ord),
        );
        let buf = with_buffer!(&*ab, av, T => {
            let bv = typed::<T>(&bb)?;
            let mut out = output_vec::<T>(n)?;
            elementwise::map3(
                &mut out,
                &ps,
                Src { data: cv, offset: cond.offset(), strides: &psc },
                Src { data: &av[..], offset: a.offset(), strides: &psa },
                Src { data: bv, offset: b.offset(), strides: &psb },
                |c, x, y| if c { x } else { y },
            );
            <T as Element>::wrap(out)
        });
        tensor_laid(
            (buf, order.map(|o| iter::strides_for_order(shape, &o))),
            shape,
            a.device(),
        )
    }

    fn reduce(
        &self,
        op: ReduceOp,
        x: View,
        dims: &[usize],
        keepdim: bool,
        _out: DType,
    ) -> Result<Owned> {
        reduce::reduce(op, &x, dims, keepdim)
    }

    fn arg_reduce(
        &self,
        max: bool,
        x: View,
        dim: Option<usize>,
        keepdim: bool,
    ) -> Result<(Owned, Owned)> {
        reduce::arg_reduce(max, &x, dim, keepdim)
    }

    fn softmax(&self, x: View, dim: usize, log: bool) -> Result<Owned> {
        softmax::softmax(&x, dim, log)
    }

    fn softmax_backward(&self, g: View, y: View, dim: usize, log: bool) -> Result<Option<Owned>> {
        softmax_grad::softmax_backward(&g, &y, dim, log)
    }
    fn silu_backward(&self, g: View, x: View) -> Result<Option<Owned>> {
        silu_grad::silu_backward(&g, &x)
    }
    fn leaky_relu(&self, x: View, v: View, slope: f64, _: bool) -> Result<Option<Owned>> {
        leaky_relu::leaky_relu(&x, &v, slope)
    }

    fn clamp(&self, x: View, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Option<Owned>> {
        let Some(buf) = binary::clamp(&x, lo, hi)? else {
            return Ok(None);
        };
        tensor_laid(buf, x.shape(), x.device()).map(Some)
    }

    fn im2col(&self, x: View, cols: &Columns, fill: f64) -> Result<Option<Owned>> {
        im2col::im2col(&x, cols, fill as f32)
    }

    fn col2im(&self, g: View, shape: [usize; 4], cols: &Columns) -> Result<Option<Owned>> {
        im2col::col2im(&g, shape, cols)
    }

    #[cfg(target_arch = "x86_64")]
    fn conv2d(&self, x: View, w: View, cols: &Columns) -> Result<Option<Owned>> {
        conv::conv2d(&x, &w, cols)
    }

    fn var_rows(
        &self,
        x: View,
        groups: [usize; 2],
        correction: f64,
        std: bool,
        mean: Option<f64>,
        shape: &[usize],
    ) -> Result<Option<Owned>> {
        var::var_rows(&x, groups, correction, std, mean, shape)
    }

    fn scan(&self, x: View, dim: usize, prod: bool) -> Result<Option<Owned>> {
        scan::scan(&x, dim, prod)
    }

    fn vector_norm(
        &self,
        x: View,
        p: f64,
        dims: &[usize],
        shape: &[usize],
    ) -> Result<Option<Owned>> {
        norm::vector_norm(&x, p, dims, shape)
    }

    fn layer_norm_rows(
        &self,
        x: View,
        inner: usize,
        affine: Option<(View, View)>,
        eps: f64,
    ) -> Result<Option<Normed>> {
        layer_norm::layer_norm_rows(&x, inner, affine, eps)
    }

    fn layer_norm_backward_rows(
        &self,
        g: View,
        xhat: View,
        w: Option<View>,
        rstd: View,
        params: bool,
    ) -> Result<Option<NormGrads>> {
        layer_norm::layer_norm_backward_rows(&g, &xhat, w.as_ref(), &rstd, params)
    }

    fn max_all(&self, max: bool, x: View) -> Result<Owned> {
        reduce::max_all(max, &x)
    }

    fn bmm(&self, a: View, b: View) -> Result<Owned> {
        matmul::bmm(&a, &b)
    }

    fn gather(
        &self,
        src: View,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
    ) -> Result<Owned> {
        index::gather(&src, bases, shape, strides)
    }

    fn scatter(
        &self,
        dst: View,
        bases: &[usize],
        shape: &[usize],
        strides: &[usize],
        values: View,
    ) -> Result<()> {
        let copy = unaliased(dst, values)?;
        let values = copy.as_ref().map_or(values, Owned::view);
        index::scatter(&dst, bases, shape, strides, &values)
    }
}

/// Apply `f` to the compute-type value of a Python number for element type `E`.
pub(crate) fn scalar_m<E: Element>(s: Scalar) -> E::M {
    <E::M as Arith>::of_scalar(s)
}

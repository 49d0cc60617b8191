//! Vector norms (`torch.linalg.vector_norm`, `Tensor.norm`) of float tensors as ATen's CPU
//! `norm_stub` computes them, so the norms carry PyTorch's bits:
//! - the 2-norm over one contiguous run per output (the last dims of a contiguous float32 or
//!   float64 tensor, the first of a transposed one): the vectorised last-dim kernel
//!   (`binary_kernel_reduce_lastdim`, built for AVX2: 8 floats or 4 doubles a vector);
//! - every other norm: `binary_kernel_reduce`, one serial chain per output in the accumulate
//!   type (float for float32 and the 16-bit floats, double for float64) over the output's
//!   elements in memory order (ATen's iterator runs the reduced dim of smallest stride
//!   innermost). A whole-tensor norm of 32K elements and more is one chain per thread over
//!   `parallel_for`'s equal chunks, the chains then combined in thread order.
//!
//! Here the chains of up to 64 outputs run side by side, one per vector lane when the outputs
//! are adjacent in memory (`x.norm(dim=0)`): each lane is one output's chain in its own order,
//! so the serial bits come at vector speed.
use super::iter::{coalesce, for_rows, PAR_THRESHOLD};
use super::reduce::{split, two_pass_chunks, Bases};
use super::sum::{slice_as, slice_as_mut};

use super::{team, tensor_of, Owned, View};
use crate::backend::storage::{output_vec, Arith, Buffer, Element};
use crate::core::error::Result;
use crate::core::shape::{numel, Dims};
use crate::core::Scalar;

/// The `p` of `vector_norm` over `dims` of `x` (sorted, distinct; all dims for a whole-tensor
/// norm), shaped `shape`; `None` for operands without a kernel here (integers, and the
/// bfloat16 2-norm over a contiguous run, whose 16-lane kernel is not modelled).
pub fn vector_norm(x: &View, p: f64, dims: &[usize], shape: &[usize]) -> Result<Option<Owned>> {
    let b = x.storage().borrow();
    let buf = match &*b {
        Buffer::F32(v) => norm_typed(v, x, p, dims)?,
        Buffer::F64(v) => norm_typed(v, x, p, dims)?,
        Buffer::F16(v) => norm_typed(v, x, p, dims)?,
        Buffer::BF16(v) => norm_typed(v, x, p, dims)?,
        _ => None,
    };
    buf.map(|buf| tensor_of(buf, shape, x.device())).transpose()
}

/// ATen's norm ops (`NormZeroOps`, `NormOneOps`, `NormTwoOps`, `AbsMaxOps`, `AbsMinOps`,
/// `NormOps`), chosen by `p` as `norm_kernel_cpu_impl` chooses them.
const ZERO: u8 = 0;
const ONE: u8 = 1;
const TWO: u8 = 2;
const INF: u8 = 3;
const NEG_INF: u8 = 4;
const POW: u8 = 5;

fn ord_of(p: f64) -> u8 {
    match p {
        0.0 => ZERO,
        1.0 => ONE,
        2.0 => TWO,
        f64::INFINITY => INF,
        f64::NEG_INFINITY => NEG_INF,
        _ => POW,
    }
}

/// One norm's reduce, combine and project steps in the accumulate type `M`; `p` is the
/// exponent in `M` (ATen's `acc_t(val)`).
#[derive(Clone, Copy)]
struct Ops<M, const O: u8> {
    p: M,
}

impl<M: Arith, const O: u8> Ops<M, O> {
    fn init(self) -> M {
        if O == NEG_INF {
            M::of_scalar(Scalar::Float(f64::INFINITY))
        } else {
            M::zero()
        }
    }

    #[inline(always)]
    fn step(self, acc: M, d: M) -> M {
        match O {
            ZERO if d == M::zero() => acc,
            ZERO => acc.add(M::one()),
            ONE => acc.add(d.abs()),
            // rounded, then added: ATen's scalar `acc + data * data` is not contracted here
            TWO => acc.add(d.mul(d)),
            INF => acc.max(d.abs()),
            NEG_INF => acc.min(d.abs()),
            _ => acc.add(d.abs().pow(self.p)),
        }
    }

    fn combine(self, a: M, b: M) -> M {
        match O {
            INF => a.max(b),
            NEG_INF => a.min(b),
            _ => a.add(b),
        }
    }

    fn project(self, a: M) -> M {
        match O {
            TWO => a.sqrt(),
            POW => a.pow(M::one().div(self.p)),
            _ => a,
        }
    }
}

fn norm_typed<E: Element>(v: &[E], x: &View, p: f64, dims: &[usize]) -> Result<Option<Buffer>> {
    let s = split(x, dims, false);
    let mut out = output_vec::<E>(numel(&s.kept_shape))?;
    if x.numel() == 0 {
        out.fill(E::from_f64(if p < 0.0 { f64::INFINITY } else { 0.0 }));
        return Ok(Some(E::wrap(out)));
    }
    // the reduced dims outermost first by stride, as ATen's iterator orders them
    let mut red: Vec<(usize, usize)> = s
        .red_shape
        .iter()
        .copied()
        .zip(s.red_strides.iter().copied())
        .collect();
    red.sort_by_key(|&(_, stride)| std::cmp::Reverse(stride));
    let (sizes, strides): (Vec<usize>, Vec<usize>) = red.into_iter().unzip();
    let (rs, rst) = coalesce(&sizes, [&strides]);
    let region = Region {
        v,
        rs,
        rst,
        bases: Bases::new(&s, x.offset()),
    };
    if region.n_red() == 1 {
        // one element per output: PyTorch takes `abs(x)`, or `x != 0` for p = 0
        for (j, o) in out.iter_mut().enumerate() {
            let d = v[region.bases.at(j)].load();
            *o = E::store(match p {
                0.0 if d == E::M::zero() => E::M::zero(),
                0.0 => E::M::one(),
                _ => d.abs(),
            });
        }
        return Ok(Some(E::wrap(out)));
    }
    if p == 2.0 && region.rs.len() == 1 && region.rst[0][0] == 1 {
        let done = region.runs_norm2(&mut out);
        return Ok(done.then(|| E::wrap(out)));
    }
    let pm = E::M::of_scalar(Scalar::Float(p));
    match ord_of(p) {
        ZERO => region.chains(Ops::<_, ZERO> { p: pm }, &mut out),
        ONE => region.chains(Ops::<_, ONE> { p: pm }, &mut out),
        TWO => region.chains(Ops::<_, TWO> { p: pm }, &mut out),
        INF => region.chains(Ops::<_, INF> { p: pm }, &mut out),
        NEG_INF => region.chains(Ops::<_, NEG_INF> { p: pm }, &mut out),
        _ => region.chains(Ops::<_, POW> { p: pm }, &mut out),
    }
    Ok(Some(E::wrap(out)))
}

/// The elements each output reduces: its base offset in `v`, plus the offsets of the reduced
/// dims `rs`/`rst` (coalesced, outermost first).
struct Region<'a, E> {
    v: &'a [E],
    rs: Dims,
    rst: [Dims; 1],
    bases: Bases,
}

/// Outputs whose chains run together.
const BLOCK: usize = 64;
/// Outputs that are not adjacent in memory run this many chains together (for the overlap).
const GATHERED: usize = 8;

impl<E: Element> Region<'_, E> {
    fn n_red(&self) -> usize {
        numel(&self.rs)
    }

    /// Every output's serial chain (`binary_kernel_reduce`).
    fn chains<const O: u8>(&self, ops: Ops<E::M, O>, out: &mut [E]) {
        if out.len() == 1 {
            return self.whole(ops, &mut out[0]);
        }
        let parts = team::parts_for(out.len() * self.n_red(), PAR_THRESHOLD).min(out.len());
        team::for_pieces(out, parts, 1, &|start, piece| {
            let mut j = 0;
            while j < piece.len() {
                let mut bs = [0usize; BLOCK];
                let w = (piece.len() - j).min(BLOCK);
                for (k, b) in bs[..w].iter_mut().enumerate() {
                    *b = self.bases.at(start + j + k);
                }
                let adjacent = (1..w).all(|k| bs[k] == bs[0] + k);
                let w = if adjacent { w } else { w.min(GATHERED) };
                self.block(ops, &bs[..w], adjacent, &mut piece[j..j + w]);
                j += w;
            }
        });
    }

    /// The chains of the outputs based at `bs` side by side (`adjacent`: `bs` is consecutive,
    /// so each step loads one run of `bs.len()` elements).
    #[inline(always)]
    fn block<const O: u8>(&self, ops: Ops<E::M, O>, bs: &[usize], adjacent: bool, out: &mut [E]) {
        let mut acc = [ops.init(); BLOCK];
        let acc = &mut acc[..bs.len()];
        let inner = self.rst[0].last().copied().unwrap_or(0);
        let (v, w) = (self.v, bs.len());
        if adjacent {
            for_rows(
                &self.rs,
                &self.rst,
                [bs[0]],
                0,
                self.n_red(),
                |_, len, [o]| {
                    for i in 0..len {
                        let run = &v[o + i * inner..][..w];
                        for (a, e) in acc.iter_mut().zip(run) {
                            *a = ops.step(*a, e.load());
                        }
                    }
                },
            );
        } else {
            for_rows(&self.rs, &self.rst, [0], 0, self.n_red(), |_, len, [o]| {
                for i in 0..len {
                    let off = o + i * inner;
                    for (a, &b) in acc.iter_mut().zip(bs) {
                        *a = ops.step(*a, v[b + off].load());
                    }
                }
            });
        }
        for (o, &a) in out.iter_mut().zip(acc.iter()) {
            *o = E::store(ops.project(a));
        }
    }

    /// A whole-tensor norm: one chain per `parallel_for` chunk, combined in order from the
    /// identity over every thread's slot (unused threads hold the identity).
    fn whole<const O: u8>(&self, ops: Ops<E::M, O>, out: &mut E) {
        let n = self.n_red();
        let (used, chunk) = two_pass_chunks(n);
        let mut partial = vec![ops.init(); team::threads()];
        let inner = self.rst[0].last().copied().unwrap_or(0);
        let base = self.bases.at(0);
        team::for_pieces(&mut partial[..used], used, 1, &|t, p| {
            let mut acc = ops.init();
            let (from, to) = ((t * chunk).min(n), ((t + 1) * chunk).min(n));
            for_rows(&self.rs, &self.rst, [base], from, to, |_, len, [o]| {
                for i in 0..len {
                    acc = ops.step(acc, self.v[o + i * inner].load());
                }
            });
            p[0] = acc;
        });
        let total = partial.iter().fold(ops.init(), |a, &b| ops.combine(a, b));
        *out = E::store(ops.project(total));
    }

    /// The vectorised last-dim 2-norm of each output's contiguous run; `false` for a dtype it
    /// does not model.
    fn runs_norm2(&self, out: &mut [E]) -> bool {
        if let (Some(v), Some(out)) = (slice_as::<E, f32>(self.v), slice_as_mut::<E, f32>(out)) {
            self.each_run(v, out, norm2_f32);
        } else if let (Some(v), Some(out)) =
            (slice_as::<E, f64>(self.v), slice_as_mut::<E, f64>(out))
        {
            self.each_run(v, out, norm2_f64);
        } else {
            return false;
        }
        true
    }

    fn each_run<T: Send + Sync + Copy>(
        &self,
        v: &[T],
        out: &mut [T],
        f: impl Fn(&[T]) -> T + Sync,
    ) {
        let n = self.n_red();
        let parts = team::parts_for(out.len() * n, PAR_THRESHOLD).min(out.len());
        team::for_pieces(out, parts, 1, &|start, piece| {
            for (k, o) in piece.iter_mut().enumerate() {
                *o = f(&v[self.bases.at(start + k)..][..n]);
            }
        });
    }
}

simd_build! {
    /// A float32 run's 2-norm (8 lanes, as ATen's AVX2 build), in the widest SIMD build.
    fn norm2_f32<>(x: &[f32]) -> f32 {
        norm2_run::<f32, 8>(x)
    }
}

simd_build! {
    /// A float64 run's 2-norm (4 lanes), in the widest SIMD build (the tail's fused adds one
    /// instruction each).
    fn norm2_f64<>(x: &[f64]) -> f64 {
        norm2_run::<f64, 4>(x)
    }
}

/// A float type's fused multiply-add.
trait Fused: Arith {
    fn fused(self, a: Self, b: Self) -> Self;
}
impl Fused for f32 {
    #[inline(always)]
    fn fused(self, a: f32, b: f32) -> f32 {
        self.mul_add(a, b)
    }
}
impl Fused for f64 {
    #[inline(always)]
    fn fused(self, a: f64, b: f64) -> f64 {
        self.mul_add(a, b)
    }
}

/// Lane `l` of `L` adds `x * x` (rounded, then added: `Vectorized`'s operators are not
/// contracted) over elements `l, l + L, ...` of the whole vectors; the lanes are added in
/// order into lane 0, the tail's squares added to it one at a time (fused: GCC contracts the
/// scalar `acc += x * x`), and the square root taken. (Read off PyTorch 2.15's bits: the other
/// three ways of fusing miss some of 55 rows of 1 to 1000 floats, this one none.)
#[inline(always)]
fn norm2_run<T: Fused, const L: usize>(x: &[T]) -> T {
    let whole = x.len() / L * L;
    let mut acc = [T::zero(); L];
    for c in x[..whole].chunks_exact(L) {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a = a.add(v.mul(v));
        }
    }
    let s = acc[1..].iter().fold(acc[0], |s, &a| s.add(a));
    x[whole..].iter().fold(s, |s, &v| v.fused(v, s)).sqrt()
}

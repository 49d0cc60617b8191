//! The float32 backward of `softmax` and `log_softmax` (`_softmax_backward_data`,
//! `_log_softmax_backward_data`) as ATen's CPU kernels compute it (`SoftMaxKernel.cpp`, built
//! for AVX-512, which PyTorch picks on such CPUs), so the gradients carry PyTorch's bits:
//!
//! - Over the last dim (`_vec_host_softmax_backward_lastdim`), row by row: log-softmax sums `g`
//!   with `vec::reduce_all` (16 lane sums, the shuffle tree; in order below one vector) and
//!   maps `g - exp(y) * sum` with SLEEF's `exp` on every element (`vec::map2` loads the partial
//!   last vector); softmax sums `g * y` with `vec::map2_reduce_all` (products rounded, then
//!   added into the lanes) and maps `(g - sum) * y`.
//! - Over another dim (`_vec_log_softmax_backward`, `_vec_softmax_backward`), for each position
//!   of the dims after it: the sum runs along the dim in order from 0, then `g - exp(y) * sum`
//!   or `y * (g - sum)`; the positions in whole 16-lane vectors take SLEEF's `exp`, the last
//!   `inner % 16` (the scalar tail) glibc's `std::exp`.
//!
//! Which multiply-adds PyTorch's build fuses (GCC contracts by default) was read off real
//! PyTorch 2.15's bits, all of them matched over rows of 1 to 1000 and inner sizes 1, 5, 20
//! and 37: `g - exp(y) * sum` is one fused operation in every kernel, vector and scalar tail;
//! the other-dim softmax's `sum += g * y` is one too; `map2_reduce_all`'s products are rounded
//! before they are added. Each fused operation here is an explicit `mul_add` (one rounding
//! whatever the CPU) and the rest plain f32 arithmetic in the kernels' order, so the code is one
//! portable loop nest giving the same bits on every CPU; only the exponentials go through
//! `sleef`'s lane code (AVX-512 or AVX2 where there is one, its scalar twin elsewhere).
use super::iter::PAR_THRESHOLD;
use super::reduce::LANES;
use super::softmax::{lane_sum, lane_tree};
use super::{sleef, team, vmath};
use super::{tensor_of, Owned, View};
use crate::backend::storage::Buffer;
use crate::core::error::Result;

/// `Backend::softmax_backward` on the CPU: float32 operands of one shape, both row-major
/// (the caller makes them so, as ATen's `.contiguous()` does); `None` for anything else.
pub fn softmax_backward(g: &View, y: &View, dim: usize, log: bool) -> Result<Option<Owned>> {
    let shape = g.shape();
    if g.dtype() != crate::core::DType::F32
        || y.dtype() != crate::core::DType::F32
        || shape != y.shape()
        || dim >= shape.len()
        || !g.is_contiguous()
        || !y.is_contiguous()
    {
        return Ok(None);
    }
    let n = g.numel();
    let (gb, yb) = (g.storage().borrow(), y.storage().borrow());
    let (Buffer::F32(gv), Buffer::F32(yv)) = (&*gb, &*yb) else {
        return Ok(None);
    };
    let gs = &gv[g.offset()..g.offset() + n];
    let ys = &yv[y.offset()..y.offset() + n];
    let inner: usize = shape[dim + 1..].iter().product();
    let last = dim + 1 == shape.len();
    let out = softmax_backward_f32(gs, ys, shape[dim], inner, last, log)?;
    Ok(Some(tensor_of(Buffer::F32(out), shape, g.device())?))
}

/// `g - e * s` as the kernels compute it: one rounding (`vfnmadd`, GCC's contraction).
#[inline(always)]
fn sub_prod(g: f32, e: f32, s: f32) -> f32 {
    (-e).mul_add(s, g)
}

/// The gradient of `softmax` (`log = false`) or `log_softmax` along the middle dim of
/// contiguous `[outer, dim, inner]` float32 `g` (the incoming gradient) and `y` (the forward's
/// output); `last`: the dim is the tensor's last (ATen's last-dim kernel, even where later
/// dims of size 1 would make `inner` 1 too, is chosen by the dim alone).
///
/// Over another dim, two passes that each read rows front to back: each position's sum (the
/// positions split over the team), then the output rows (the rows split).
pub fn softmax_backward_f32(
    g: &[f32],
    y: &[f32],
    dim: usize,
    inner: usize,
    last: bool,
    log: bool,
) -> Result<Vec<f32>> {
    let mut out = crate::backend::storage::output_vec::<f32>(g.len())?;
    let slab = dim * inner;
    if slab == 0 || g.len() != y.len() {
        return Ok(out);
    }
    let (parts, shape) = (team::parts_for(g.len(), PAR_THRESHOLD), (dim, inner));
    if last {
        // (pieces of whole rows: `for_pieces` rounds each up to a multiple of `slab`)
        team::for_pieces(&mut out, parts.min(g.len() / slab), slab, &|start, out| {
            run(Part::LastRows { out, start }, g, y, shape, log)
        });
        return Ok(out);
    }
    let cols = g.len() / dim;
    let mut sums = crate::backend::storage::output_vec::<f32>(cols)?;
    team::for_pieces(&mut sums, parts.min(cols), 1, &|start, sums| {
        run(Part::Sums { sums, start }, g, y, shape, log)
    });
    let rows = cols / inner * dim;
    team::for_pieces(&mut out, parts.min(rows), inner, &|start, out| {
        let sums = &sums;
        run(Part::Rows { out, start, sums }, g, y, shape, log)
    });
    Ok(out)
}

/// One thread's share of `softmax_backward_f32` (`start`: its first element of the output or
/// of `sums`).
enum Part<'a> {
    /// Whole rows of the last-dim kernel.
    LastRows { out: &'a mut [f32], start: usize },
    /// Other dims: the sums of positions `start..` (one per position of the dims after `dim`).
    Sums { sums: &'a mut [f32], start: usize },
    /// Other dims: output rows (of `inner`) from the element `start`.
    Rows {
        out: &'a mut [f32],
        start: usize,
        sums: &'a [f32],
    },
}

/// Runs `part` built for AVX2+FMA where the CPU has them, so each `mul_add` is one
/// instruction rather than a call into libm; the same bits either way.
fn run(part: Part, g: &[f32], y: &[f32], shape: (usize, usize), log: bool) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,fma")]
        fn fast(part: Part, g: &[f32], y: &[f32], shape: (usize, usize), log: bool) {
            body(part, g, y, shape, log)
        }
        if sleef::has_avx2() {
            // SAFETY: the CPU has AVX2 and FMA (checked just above).
            return unsafe { fast(part, g, y, shape, log) };
        }
    }
    body(part, g, y, shape, log)
}

#[inline(always)]
fn body(part: Part, g: &[f32], y: &[f32], (dim, inner): (usize, usize), log: bool) {
    let slab = dim * inner;
    match part {
        Part::LastRows { out, start } => {
            let (g, y) = (&g[start..][..out.len()], &y[start..][..out.len()]);
            let mut tmp = vec![0f32; dim];
            for ((o, g), y) in out
                .chunks_exact_mut(dim)
                .zip(g.chunks_exact(dim))
                .zip(y.chunks_exact(dim))
            {
                last_dim_row(o, g, y, log, &mut tmp);
            }
        }
        Part::Sums { sums, start } => {
            // each outer index's positions in `start..end`, its rows read in order
            let end = start + sums.len();
            for o in start / inner..end.div_ceil(inner) {
                let (a, b) = (start.max(o * inner), end.min((o + 1) * inner));
                let s = &mut sums[a - start..b - start];
                s.fill(0.0);
                for d in 0..dim {
                    let k = o * slab + d * inner + a - o * inner;
                    let (g, y) = (&g[k..][..b - a], &y[k..][..b - a]);
                    if log {
                        s.iter_mut().zip(g).for_each(|(s, &g)| *s += g);
                    } else {
                        for ((s, &g), &y) in s.iter_mut().zip(g).zip(y) {
                            *s = g.mul_add(y, *s);
                        }
                    }
                }
            }
        }
        Part::Rows { out, start, sums } => {
            // positions from `whole` on are the scalar tail after the whole vectors
            let whole = inner / LANES * LANES;
            let mut e = vec![0f32; if log { inner } else { 0 }];
            for (r, o) in out.chunks_exact_mut(inner).enumerate() {
                let row = start / inner + r;
                let (g, y) = (&g[row * inner..][..inner], &y[row * inner..][..inner]);
                let s = &sums[row / dim * inner..][..inner];
                if log {
                    sleef::exp_shifted(&y[..whole], 0.0, &mut e[..whole]);
                    if whole < inner {
                        vmath::exp_slice(&y[whole..], &mut e[whole..]);
                    }
                    for (((o, &g), &e), &s) in o.iter_mut().zip(g).zip(&e).zip(s) {
                        *o = sub_prod(g, e, s);
                    }
                } else {
                    for (((o, &g), &y), &s) in o.iter_mut().zip(g).zip(y).zip(s) {
                        *o = y * (g - s);
                    }
                }
            }
        }
    }
}

/// One row of the last-dim kernel.
#[inline(always)]
fn last_dim_row(o: &mut [f32], g: &[f32], y: &[f32], log: bool, e: &mut [f32]) {
    if log {
        let s = lane_sum(g);
        sleef::exp_shifted(y, 0.0, e);
        for ((o, &g), &e) in o.iter_mut().zip(g).zip(e.iter()) {
            *o = sub_prod(g, e, s);
        }
    } else {
        let s = products_sum(g, y);
        for ((o, &g), &y) in o.iter_mut().zip(g).zip(y) {
            *o = (g - s) * y;
        }
    }
}

/// `map2_reduce_all(g * y, +)`: below one vector the products summed in order; else lane `l`
/// starts at `g[l] * y[l]` and adds `g[l + 16j] * y[l + 16j]` for `j = 1, 2, ...` (the partial
/// last vector into its first lanes), then the shuffle tree. The products are rounded first.
#[inline(always)]
fn products_sum(g: &[f32], y: &[f32]) -> f32 {
    let n = g.len();
    if n < LANES {
        return (1..n).fold(g[0] * y[0], |a, i| a + g[i] * y[i]);
    }
    let mut acc = [0f32; LANES];
    for (l, a) in acc.iter_mut().enumerate() {
        *a = g[l] * y[l];
    }
    for i in LANES..n {
        acc[i % LANES] += g[i] * y[i];
    }
    lane_tree(acc)
}

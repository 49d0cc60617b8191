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
    let parts = team::parts_for(g.len(), PAR_THRESHOLD).min(g.len() / slab);
    // (pieces of whole slabs: `for_pieces` rounds each up to a multiple of `slab`)
    team::for_pieces(&mut out, parts, slab, &|start, piece| {
        let (g, y) = (
            &g[start..start + piece.len()],
            &y[start..start + piece.len()],
        );
        let mut tmp = vec![0f32; if last { dim } else { 0 }];
        for ((o, g), y) in piece
            .chunks_exact_mut(slab)
            .zip(g.chunks_exact(slab))
            .zip(y.chunks_exact(slab))
        {
            if last {
                last_dim_row(o, g, y, log, &mut tmp);
            } else {
                other_dim_slab(o, g, y, dim, inner, log);
            }
        }
    });
    Ok(out)
}

/// One row of the last-dim kernel.
#[inline]
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
#[inline]
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

/// One `[dim, inner]` slab of the other-dim kernels.
#[inline]
fn other_dim_slab(o: &mut [f32], g: &[f32], y: &[f32], dim: usize, inner: usize, log: bool) {
    // positions from here on are the scalar tail after the whole vectors
    let tail = inner / LANES * LANES;
    for j in 0..inner {
        let mut s = 0f32;
        for d in 0..dim {
            let k = d * inner + j;
            s = if log { s + g[k] } else { g[k].mul_add(y[k], s) };
        }
        for d in 0..dim {
            let k = d * inner + j;
            o[k] = if log {
                let e = if j < tail {
                    sleef::exp(y[k])
                } else {
                    vmath::exp(y[k])
                };
                sub_prod(g[k], e, s)
            } else {
                y[k] * (g[k] - s)
            };
        }
    }
}

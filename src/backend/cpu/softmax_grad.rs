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
//! portable loop nest giving the same bits on every CPU; the exponentials go through `sleef`'s
//! lane code (AVX-512 or AVX2 where there is one, its scalar twin elsewhere), and with AVX-512
//! the log-softmax map runs in registers (`vfnmadd`, the same single rounding).
use super::iter::PAR_THRESHOLD;
use super::reduce::LANES;
use super::softmax::{lane_sum, lane_tree};
use super::{f32_operands, Owned, View};
use super::{sleef, team, vmath};
use crate::core::error::Result;

/// `Backend::softmax_backward` on the CPU: float32 operands of one shape, both row-major
/// (the caller makes them so, as ATen's `.contiguous()` does); `None` for anything else.
pub fn softmax_backward(g: &View, y: &View, dim: usize, log: bool) -> Result<Option<Owned>> {
    let shape = g.shape();
    if dim >= shape.len() {
        return Ok(None);
    }
    let inner: usize = shape[dim + 1..].iter().product();
    let last = dim + 1 == shape.len();
    f32_operands([g, y], |[gs, ys]| {
        softmax_backward_f32(gs, ys, shape[dim], inner, last, log)
    })
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
/// With AVX-512 it is built for that too, and the log-softmax maps `g - exp(y) * sum` run 16
/// lanes in registers (`exp_sub_prod_avx512`) instead of storing the exponentials first.
fn run(part: Part, g: &[f32], y: &[f32], shape: (usize, usize), log: bool) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx2,fma")]
        fn wide(part: Part, g: &[f32], y: &[f32], shape: (usize, usize), log: bool) {
            body(part, g, y, shape, log, true)
        }
        #[target_feature(enable = "avx2,fma")]
        fn fast(part: Part, g: &[f32], y: &[f32], shape: (usize, usize), log: bool) {
            body(part, g, y, shape, log, false)
        }
        if sleef::has_avx512() {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
            return unsafe { wide(part, g, y, shape, log) };
        }
        if sleef::has_avx2() {
            // SAFETY: the CPU has AVX2 and FMA (checked just above).
            return unsafe { fast(part, g, y, shape, log) };
        }
    }
    body(part, g, y, shape, log, false)
}

/// `o = g - exp(y) * s` over the log-softmax paths' SLEEF positions: through
/// `exp_sub_prod_avx512` where `avx512` (true only when the CPU has it), else the
/// exponentials stored in `e` first.
#[inline(always)]
fn exp_sub_prod(o: &mut [f32], g: &[f32], y: &[f32], s: Sums, e: &mut [f32], avx512: bool) {
    #[cfg(target_arch = "x86_64")]
    if avx512 {
        // SAFETY: `avx512` is set only by `run` after `has_avx512()`.
        return unsafe { exp_sub_prod_avx512(o, g, y, s) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = avx512;
    let e = &mut e[..o.len()];
    sleef::exp_shifted(&y[..o.len()], 0.0, e);
    for (i, ((o, &g), &e)) in o.iter_mut().zip(g).zip(e.iter()).enumerate() {
        *o = sub_prod(g, e, s.at(i));
    }
}

/// The sum(s) `exp_sub_prod` subtracts with: one per row (the last-dim kernel) or one per
/// position.
#[derive(Clone, Copy)]
enum Sums<'a> {
    One(f32),
    Each(&'a [f32]),
}

impl Sums<'_> {
    #[inline(always)]
    fn at(self, i: usize) -> f32 {
        match self {
            Sums::One(s) => s,
            Sums::Each(s) => s[i],
        }
    }
}

/// `g - exp(y) * s` (`vfnmadd(exp16(y), s, g)`) over inputs `[y, g]` with the one sum held
/// here, or `[y, g, s]` with a sum a lane.
#[cfg(target_arch = "x86_64")]
struct ExpSubProd(Option<std::arch::x86_64::__m512>);

#[cfg(target_arch = "x86_64")]
impl<const K: usize> sleef::avx512::LaneMap<K> for ExpSubProd {
    #[inline(always)]
    unsafe fn apply<const N: usize>(
        &self,
        v: [[std::arch::x86_64::__m512; N]; K],
    ) -> [std::arch::x86_64::__m512; N] {
        use std::arch::x86_64::*;
        debug_assert_eq!(self.0.is_none(), K == 3, "a sum held here or a sum a lane");
        // SAFETY: the CPU's features are the caller's promise.
        unsafe {
            let mut g = v[1];
            for (i, (g, e)) in g.iter_mut().zip(sleef::avx512::exp16n(v[0])).enumerate() {
                *g = _mm512_fnmadd_ps(e, self.0.unwrap_or(v[K - 1][i]), *g);
            }
            g
        }
    }
}

/// `exp_sub_prod` 16 lanes at a time, `WAYS` vectors a step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
fn exp_sub_prod_avx512(o: &mut [f32], g: &[f32], y: &[f32], s: Sums) {
    use sleef::avx512::{zip_map, WAYS};
    use std::arch::x86_64::*;
    // SAFETY (both): this function's target features are `zip_map`'s.
    match s {
        Sums::One(s) => unsafe {
            zip_map::<2, WAYS>([y, g], o, ExpSubProd(Some(_mm512_set1_ps(s))))
        },
        Sums::Each(s) => unsafe { zip_map::<3, WAYS>([y, g, s], o, ExpSubProd(None)) },
    }
}

#[inline(always)]
fn body(part: Part, g: &[f32], y: &[f32], (dim, inner): (usize, usize), log: bool, avx512: bool) {
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
                last_dim_row(o, g, y, log, &mut tmp, avx512);
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
                    let (o, tail) = o.split_at_mut(whole);
                    exp_sub_prod(o, g, y, Sums::Each(s), &mut e, avx512);
                    if whole < inner {
                        let e = &mut e[whole..];
                        vmath::exp_slice(&y[whole..], e);
                        for (i, o) in tail.iter_mut().enumerate() {
                            *o = sub_prod(g[whole + i], e[i], s[whole + i]);
                        }
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
fn last_dim_row(o: &mut [f32], g: &[f32], y: &[f32], log: bool, e: &mut [f32], avx512: bool) {
    if log {
        exp_sub_prod(o, g, y, Sums::One(lane_sum(g)), e, avx512);
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
    let mut acc: [f32; LANES] = std::array::from_fn(|l| g[l] * y[l]);
    let (mut gs, mut ys) = (
        g[LANES..].chunks_exact(LANES),
        y[LANES..].chunks_exact(LANES),
    );
    for (gc, yc) in (&mut gs).zip(&mut ys) {
        for ((a, &g), &y) in acc.iter_mut().zip(gc).zip(yc) {
            *a += g * y;
        }
    }
    for ((a, &g), &y) in acc.iter_mut().zip(gs.remainder()).zip(ys.remainder()) {
        *a += g * y;
    }
    lane_tree(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Floats of mixed sign and size (a fixed LCG), some large enough that `exp` overflows
    /// or underflows.
    fn floats(n: usize, seed: u32) -> Vec<f32> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                ((s >> 8) as f32 / (1u32 << 24) as f32 - 0.5) * 240.0
            })
            .collect()
    }

    /// The whole backward on one thread without the AVX-512 maps (the exponentials stored
    /// first), the path CPUs without AVX-512 take.
    fn plain(
        g: &[f32],
        y: &[f32],
        (dim, inner): (usize, usize),
        last: bool,
        log: bool,
    ) -> Vec<f32> {
        let mut out = vec![0f32; g.len()];
        if last {
            body(
                Part::LastRows {
                    out: &mut out,
                    start: 0,
                },
                g,
                y,
                (dim, inner),
                log,
                false,
            );
            return out;
        }
        let mut sums = vec![0f32; g.len() / dim];
        body(
            Part::Sums {
                sums: &mut sums,
                start: 0,
            },
            g,
            y,
            (dim, inner),
            log,
            false,
        );
        let sums = &sums;
        body(
            Part::Rows {
                out: &mut out,
                start: 0,
                sums,
            },
            g,
            y,
            (dim, inner),
            log,
            false,
        );
        out
    }

    #[test]
    fn the_avx512_maps_give_the_plain_paths_bits() {
        // (outer, dim, inner): rows under, at and over 16 lanes, a partial last vector, and
        // inner sizes with and without a scalar tail; large enough to split over the team
        for (outer, dim, inner) in [
            (3, 7, 1),
            (2, 16, 1),
            (5, 33, 1),
            (300, 1000, 1),
            (4, 9, 37),
            (2, 500, 48),
            (2, 40, 300),
            (1, 3000, 20),
        ] {
            let n = outer * dim * inner;
            let (g, y) = (floats(n, 1), floats(n, 2));
            for log in [true, false] {
                let last = inner == 1;
                let got = softmax_backward_f32(&g, &y, dim, inner, last, log).unwrap();
                let want = plain(&g, &y, (dim, inner), last, log);
                let same = got
                    .iter()
                    .zip(&want)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{outer}x{dim}x{inner} log={log}");
            }
        }
    }
}

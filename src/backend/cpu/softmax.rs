//! Softmax and log-softmax forward. Float32 follows ATen's CPU kernels (`SoftMaxKernel.cpp`,
//! built for AVX-512, so 16-lane vectors) operation for operation, so the bits are PyTorch's:
//! over the last dim row by row (`softmax_rows_f32`), over another dim for each position of
//! the dims after it (`other_dim_f32`). Float16/bfloat16 go through the same float32 kernels
//! on a widened copy; float64 runs in order, slab by slab.
use super::extremes::minmax_avx512;
use super::iter::PAR_THRESHOLD;
use super::reduce::{extreme_f32, LANES};
use super::{internal, sleef, team, tensor_of, vmath, CPU};
use crate::backend::cpu::math::FloatMath;
use crate::backend::storage::{output_vec, zeroed_vec, Arith, Buffer, Element};
use crate::backend::Backend;
use crate::backend::{Owned, View};
use crate::core::error::Result;

/// Softmax or log-softmax along `dim` of a floating tensor.
pub fn softmax(x: &View, dim: usize, log: bool) -> Result<Owned> {
    if x.numel() == 0 {
        return tensor_of(Buffer::zeros(x.dtype(), 0)?, x.shape(), x.device());
    }
    let copy = (!x.is_contiguous())
        .then(|| CPU.contiguous_copy(*x))
        .transpose()?;
    let x = copy.as_ref().map_or(*x, Owned::view);
    let (len, inner) = (x.shape()[dim], x.shape()[dim + 1..].iter().product());
    let last = dim + 1 == x.ndim();
    let b = x.storage().borrow();
    let range = x.offset()..x.offset() + x.numel();
    let buf = match &*b {
        Buffer::F32(v) if last => Buffer::F32(softmax_rows_f32(&v[range], len, log)?),
        Buffer::F32(v) => Buffer::F32(other_dim_f32(&v[range], len, inner, log)?),
        Buffer::F64(v) => softmax_typed::<f64>(&v[range], len, inner, last, log)?,
        Buffer::F16(v) => Buffer::F16(widened(&v[range], len, inner, last, log)?),
        Buffer::BF16(v) => Buffer::BF16(widened(&v[range], len, inner, last, log)?),
        _ => return internal("softmax of a non-float tensor"),
    };
    tensor_of(buf, x.shape(), x.device())
}

/// Float16/bfloat16 softmax as ATen's kernels compute it for them: in float32, by the float32
/// kernels here, each result rounded once to the half type. (Element by element in the
/// generic path it took 15-35 ms over a million values against PyTorch's 0.25.) Over the last
/// dim a few rows at a time, widened into a buffer that stays in cache and narrowed from
/// another: a whole float32 copy each way cost twice the softmax (4096x1024: 3.9 ms).
fn widened<H: Element<M = f32>>(
    xs: &[H],
    len: usize,
    inner: usize,
    last: bool,
    log: bool,
) -> Result<Vec<H>> {
    if last {
        let mut out = output_vec::<H>(xs.len())?;
        // about 32 KB of floats a block (whole rows)
        let block = (8192 / len).max(1) * len;
        row_pieces(&mut out, len, &|start, piece| {
            let n = block.min(piece.len());
            let (mut wide, mut y) = (vec![0f32; n], vec![0f32; n]);
            for (o, x) in piece.chunks_mut(block).zip(xs[start..].chunks(block)) {
                let (wide, y) = (&mut wide[..x.len()], &mut y[..x.len()]);
                super::widen::widen(x, wide);
                if log {
                    half_log_rows::<H>(wide, y, len);
                } else {
                    half_softmax_rows(wide, y, len);
                }
                super::widen::narrow(y, o);
            }
        });
        return Ok(out);
    }
    let wide = super::convert::widened(xs)?;
    super::convert::narrowed(&other_dim_f32(&wide, len, inner, log)?)
}

/// ATen's last-dim softmax of a half type (`_vec_softmax_lastdim` for reduced floats), on
/// widened rows into `out` (for the caller to round once): SLEEF's `exp(x - max)` over the
/// whole 16-float vectors, their sum in lanes and the lane tree, then the tail's exponentials
/// by libm's `expf` (ATen's scalar `std::exp`) added in order, then `e * (1 / sum)`.
fn half_softmax_rows(wide: &[f32], out: &mut [f32], len: usize) {
    let whole = len / LANES * LANES;
    for (o, x) in out.chunks_exact_mut(len).zip(wide.chunks_exact(len)) {
        let mx = row_max(x);
        let (body, tail) = o.split_at_mut(whole);
        sleef::exp_shifted(&x[..whole], mx, body);
        let mut sum = if whole > 0 { lane_sum(body) } else { 0.0 };
        for (e, &v) in tail.iter_mut().zip(&x[whole..]) {
            *e = (v - mx).exp();
            sum += *e;
        }
        let r = 1.0 / sum;
        o.iter_mut().for_each(|v| *v *= r);
    }
}

/// ATen's last-dim log-softmax of a half type (`serial_vec_log_softmax_lastdim_range`, whose
/// per-row buffers are of the half type): each widened row's max and exp-sum in float, the sum
/// stored as the half type, its log (SLEEF's, in float) stored so again, then `(x - max) - log`
/// in float, into `out` (for the caller to round once). (With the float kernel's unrounded
/// log, 1 in 4 rows of 5 values printed another last digit.)
fn half_log_rows<H: Element<M = f32>>(wide: &[f32], out: &mut [f32], len: usize) {
    #[inline(always)]
    fn rows<H: Element<M = f32>>(
        wide: &[f32],
        out: &mut [f32],
        len: usize,
        max_and_sum: impl Fn(&[f32], &mut [f32]) -> (f32, f32),
    ) {
        let half = |v: f32| H::store(v).load();
        for (o, x) in out.chunks_exact_mut(len).zip(wide.chunks_exact(len)) {
            let (mx, sum) = max_and_sum(x, o);
            let ls = half(sleef::ln(half(sum)));
            for (o, &v) in o.iter_mut().zip(x) {
                *o = (v - mx) - ls;
            }
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx2,fma")]
        fn avx512<H: Element<M = f32>>(wide: &[f32], out: &mut [f32], len: usize) {
            rows::<H>(wide, out, len, |x, o| {
                let (m, nan) = minmax_avx512(true, x);
                let mx = if nan { f32::NAN } else { m };
                (
                    mx,
                    lane_tree(sleef::avx512::exp_shifted_lanes(x, mx, Some(o))),
                )
            })
        }
        if len >= LANES && sleef::has_avx512() {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
            return unsafe { avx512::<H>(wide, out, len) };
        }
    }
    rows::<H>(wide, out, len, |x, o| {
        let mx = row_max(x);
        sleef::exp_shifted(x, mx, o);
        (mx, lane_sum(o))
    })
}

/// Softmax along the middle dim of contiguous `[outer, len, inner]` in the compute type (the
/// float64 path): the max, `exp(x - max)` summed in order, then each divided by the sum
/// (`last`: multiplied by its reciprocal, as PyTorch's last-dim kernel does), or for log
/// `(x - max) - ln(sum)`. Slabs (`[len, inner]`) are split over the team.
fn softmax_typed<E: Element>(
    xs: &[E],
    len: usize,
    inner: usize,
    last: bool,
    log: bool,
) -> Result<Buffer>
where
    E::M: FloatMath,
{
    let mut out = zeroed_vec::<E>(xs.len())?;
    let slab = len * inner;
    let parts = team::parts_for(xs.len(), PAR_THRESHOLD).min(xs.len() / slab.max(1));
    team::for_pieces(&mut out, parts, slab, &|start, out| {
        softmax_slabs(&xs[start..][..out.len()], out, len, inner, last, log)
    });
    Ok(E::wrap(out))
}

/// `softmax_typed` over whole slabs of `xs` into `out`.
fn softmax_slabs<E: Element>(
    xs: &[E],
    out: &mut [E],
    len: usize,
    inner: usize,
    last: bool,
    log: bool,
) where
    E::M: FloatMath,
{
    let mut tmp: Vec<E::M> = Vec::with_capacity(len);
    let slab = len * inner;
    for (o, x) in out.chunks_exact_mut(slab).zip(xs.chunks_exact(slab)) {
        for j in 0..inner {
            let col = (0..len).map(|d| d * inner + j);
            let mx = col
                .clone()
                .map(|k| x[k].load())
                .fold(x[j].load(), Arith::max);
            tmp.clear();
            let mut sum = E::M::zero();
            for k in col.clone() {
                let e = x[k].load().sub(mx).exp();
                sum = sum.add(e);
                tmp.push(e);
            }
            if log {
                let ls = sum.ln();
                for k in col {
                    o[k] = E::store(x[k].load().sub(mx).sub(ls));
                }
            } else if last {
                let r = E::M::one().div(sum);
                for (k, e) in col.zip(&tmp) {
                    o[k] = E::store(e.mul(r));
                }
            } else {
                for (k, e) in col.zip(&tmp) {
                    o[k] = E::store(e.div(sum));
                }
            }
        }
    }
}

/// Softmax or log-softmax of contiguous f32 rows of `len`, as ATen's last-dim kernels
/// (`_vec_softmax_lastdim`, `_vec_log_softmax_lastdim`) compute them: the max, SLEEF's
/// `exp(x - max)` on every element (`vec::map` loads partial vectors, so no scalar tail), their
/// sum in `reduce_all`'s lane order, then `e * (1 / sum)`, or `(x - max) - log(sum)` with
/// SLEEF's log. Rows are split over the team.
fn softmax_rows_f32(xs: &[f32], len: usize, log: bool) -> Result<Vec<f32>> {
    let mut out = crate::backend::storage::output_vec::<f32>(xs.len())?;
    row_pieces(&mut out, len, &|start, piece| {
        rows_here(&xs[start..start + piece.len()], piece, len, log)
    });
    Ok(out)
}

/// `f(start, piece)` over pieces of whole rows of `len` of `out`, split over the team.
fn row_pieces<T: Send>(out: &mut [T], len: usize, f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    let rows = out.len() / len;
    let parts = team::parts_for(out.len(), PAR_THRESHOLD).min(rows);
    team::for_pieces(out, parts, rows.div_ceil(parts.max(1)) * len, f);
}

/// `softmax_rows_f32` of the rows `rows` into `out` on this thread, in the widest SIMD build
/// the CPU has.
fn rows_here(rows: &[f32], out: &mut [f32], len: usize, log: bool) {
    let tmp_len = if log && !(len >= LANES && sleef::has_avx512()) {
        len
    } else {
        0
    };
    let mut tmp = vec![0f32; tmp_len];
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx2,fma")]
        fn avx512(xs: &[f32], out: &mut [f32], len: usize, log: bool) {
            softmax_piece_avx512(xs, out, len, log)
        }
        #[target_feature(enable = "avx2,fma")]
        fn avx2(xs: &[f32], out: &mut [f32], len: usize, log: bool, tmp: &mut [f32]) {
            softmax_piece(xs, out, len, log, tmp)
        }
        if len >= LANES && sleef::has_avx512() {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
            return unsafe { avx512(rows, out, len, log) };
        }
        if sleef::has_avx2() {
            // SAFETY: the CPU has AVX2 and FMA (checked just above). The loops are the
            // same lane-wise operations in either build (no FMA is formed implicitly), so
            // the bits are too.
            return unsafe { avx2(rows, out, len, log, &mut tmp) };
        }
    }
    softmax_piece(rows, out, len, log, &mut tmp)
}

/// `softmax_rows_f32`'s rows `xs` into `out` (`tmp`: one row of scratch for log).
#[inline(always)]
fn softmax_piece(xs: &[f32], out: &mut [f32], len: usize, log: bool, tmp: &mut [f32]) {
    for (o, x) in out.chunks_exact_mut(len).zip(xs.chunks_exact(len)) {
        let mx = row_max(x);
        if log {
            sleef::exp_shifted(x, mx, tmp);
            let ls = sleef::ln(lane_sum(tmp));
            for (o, &v) in o.iter_mut().zip(x) {
                *o = (v - mx) - ls;
            }
        } else {
            sleef::exp_shifted(x, mx, o);
            let r = 1.0 / lane_sum(o);
            o.iter_mut().for_each(|v| *v *= r);
        }
    }
}

/// `softmax_piece` with ATen's 16-lane kernels as AVX-512 runs them (rows of at least one
/// vector): the exponentials' sum in the pass that makes them (`map_reduce_all`), so
/// log-softmax needs no scratch row. The same operations in the same order: the same bits.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn softmax_piece_avx512(xs: &[f32], out: &mut [f32], len: usize, log: bool) {
    for (o, x) in out.chunks_exact_mut(len).zip(xs.chunks_exact(len)) {
        // SAFETY: as for the calls below.
        let (m, nan) = unsafe { minmax_avx512(true, x) };
        let mx = if nan { f32::NAN } else { m };
        if log {
            // SAFETY: only called from a function built for AVX-512F, AVX2 and FMA, which the
            // caller checked the CPU has.
            let lanes = unsafe { sleef::avx512::exp_shifted_lanes(x, mx, None) };
            let ls = sleef::ln(lane_tree(lanes));
            for (o, &v) in o.iter_mut().zip(x) {
                *o = (v - mx) - ls;
            }
        } else {
            // SAFETY: as above.
            let lanes = unsafe { sleef::avx512::exp_shifted_lanes(x, mx, Some(o)) };
            let r = 1.0 / lane_tree(lanes);
            o.iter_mut().for_each(|v| *v *= r);
        }
    }
}

/// Positions `start..end` of the flattened `[outer, inner]` grid (one row of `inner` per outer
/// index, never crossing one) whose exponentials ATen takes with SLEEF in whole 16-lane
/// vectors (`vector`), or one at a time with glibc's `expf`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Run {
    start: usize,
    end: usize,
    vector: bool,
}

/// Appends `start..end`, split at the ends of rows of `inner` and merged into the last run
/// when it continues it.
fn push_run(runs: &mut Vec<Run>, inner: usize, mut start: usize, end: usize, vector: bool) {
    while start < end {
        let stop = end.min((start / inner + 1) * inner);
        match runs.last_mut() {
            Some(r) if r.end == start && r.vector == vector && !start.is_multiple_of(inner) => {
                r.end = stop
            }
            _ => runs.push(Run {
                start,
                end: stop,
                vector,
            }),
        }
        start = stop;
    }
}

/// `_vec_softmax`'s runs. `parallel_for` splits the `outer * inner` positions into equal chunks,
/// one per thread (at most one per `32768 / dim` positions; one chunk when that is all), and
/// each chunk is walked from its first position: 16 at a time where they stay inside both the
/// chunk and the row, else the rest of the chunk or of the row one at a time. So which
/// positions are vectors depends on the thread count, as PyTorch's own bits do.
fn softmax_runs(outer: usize, inner: usize, dim: usize, threads: usize) -> Vec<Run> {
    let total = outer * inner;
    let grain = (32768 / dim).max(1);
    let used = if total > grain && threads > 1 {
        total.div_ceil(grain).min(threads)
    } else {
        1
    };
    let chunk = total.div_ceil(used);
    let mut runs = Vec::new();
    for t in 0..used {
        let (begin, end) = (t * chunk, ((t + 1) * chunk).min(total));
        let mut idx = begin;
        while idx < end {
            let j = idx % inner;
            if j + LANES <= inner && idx + LANES <= end {
                push_run(&mut runs, inner, idx, idx + LANES, true);
                idx += LANES;
            } else {
                let n = if idx + LANES > end {
                    end - idx
                } else {
                    inner - j
                };
                push_run(&mut runs, inner, idx, idx + n, false);
                idx += n;
            }
        }
    }
    runs
}

/// `_vec_logsoftmax`'s runs: it walks each row in blocks of a multiple of 16 positions, so
/// the row's whole vectors come first and its last `inner % 16` positions are scalar.
fn log_softmax_runs(outer: usize, inner: usize) -> Vec<Run> {
    let mut runs = Vec::new();
    for o in 0..outer {
        let (row, whole) = (o * inner, inner / LANES * LANES);
        push_run(&mut runs, inner, row, row + whole, true);
        push_run(&mut runs, inner, row + whole, row + inner, false);
    }
    runs
}

/// `e = exp(t)`: SLEEF's where ATen has a vector (`vector`), glibc's where it goes one at a time.
fn exps(t: &[f32], e: &mut [f32], vector: bool) {
    if vector {
        sleef::exp_shifted(t, 0.0, e);
    } else {
        vmath::exp_slice(t, e);
    }
}

/// `_vec_softmax` or `_vec_logsoftmax` on the `k` adjacent positions from `j` of one slab `x`
/// (`dim` rows of `inner`): `k <= 16` vector positions at once in the registers `fast` names,
/// else (`Regs::Scalar`) one position (`k == 1`), vector or scalar as `vector` says. Writes each position's
/// `[max, sum]` (for log `[max, log(sum)]`) to `st`, and with `out` (the slab's output) the
/// finished results: `exp(x - max) / sum` (the exponentials stored, then divided, as ATen
/// does) or `(x - max) - log(sum)`. `col`: scratch for one column.
#[allow(clippy::too_many_arguments)]
fn positions(
    x: &[f32],
    inner: usize,
    (j, k): (usize, usize),
    (vector, fast): (bool, Regs),
    log: bool,
    col: &mut Vec<f32>,
    st: &mut [f32],
    out: Option<&mut [f32]>,
) {
    #[cfg(target_arch = "x86_64")]
    match fast {
        // SAFETY (both): `Regs::here()` chose each only where the CPU has its features.
        Regs::Avx512 => return unsafe { block_avx512(x, inner, j, k, log, st, out) },
        Regs::Avx2 => return unsafe { block_avx2(x, inner, j, k, log, st, out) },
        Regs::Scalar => {}
    }
    let dim = x.len() / inner;
    col.resize(2 * dim, 0.0);
    let (t, e) = col.split_at_mut(dim);
    for (t, &v) in t.iter_mut().zip(x[j..].iter().step_by(inner)) {
        *t = v;
    }
    let m = t
        .iter()
        .fold(f32::NEG_INFINITY, |m, &v| if v > m { v } else { m });
    t.iter_mut().for_each(|t| *t -= m);
    exps(t, e, vector);
    let mut s = e.iter().fold(0.0, |s, &e| s + e);
    if log {
        s = sleef::ln(s);
    }
    st[0] = m;
    st[1] = s;
    if let Some(out) = out {
        let column = out[j..].iter_mut().step_by(inner);
        if log {
            column.zip(t.iter()).for_each(|(o, &t)| *o = t - s);
        } else {
            column.zip(e.iter()).for_each(|(o, &e)| *o = e / s);
        }
    }
}

/// The rows of a register block's slab `x`, after checking what its loads and stores rely
/// on: positions `j..j + k` inside each row, room for `k` statistics pairs, an output as long
/// as `x`.
fn block_rows(
    x: &[f32],
    inner: usize,
    (j, k): (usize, usize),
    st: &[f32],
    out: &Option<&mut [f32]>,
) -> usize {
    let dim = x.len() / inner;
    assert!(dim > 0 && j + k <= inner && x.len() == dim * inner && st.len() >= 2 * k);
    assert!(out.as_ref().is_none_or(|o| o.len() == x.len()));
    dim
}

/// `positions` for `k <= 16` vector positions in AVX-512 registers: ATen's own vector step
/// (`vmaxps v, max` is `v > max ? v : max`; masked lanes beyond `k` are never stored).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
fn block_avx512(
    x: &[f32],
    inner: usize,
    j: usize,
    k: usize,
    log: bool,
    st: &mut [f32],
    mut out: Option<&mut [f32]>,
) {
    use std::arch::x86_64::*;
    let dim = block_rows(x, inner, (j, k), st, &out);
    let mask = sleef::avx512::first(k);
    // SAFETY (loads and stores): each touches lanes `mask` (the first `k`) of `[d * inner +
    // j..]` for `d < dim`, inside `x` and `out` (`block_rows` checks).
    let at = |d: usize| d * inner + j;
    let load = |d: usize| unsafe { _mm512_maskz_loadu_ps(mask, x.as_ptr().add(at(d))) };
    let mut m = _mm512_set1_ps(f32::NEG_INFINITY);
    for d in 0..dim {
        m = _mm512_max_ps(load(d), m);
    }
    let mut s = _mm512_setzero_ps();
    for d in 0..dim {
        let e = sleef::avx512::exp16(_mm512_sub_ps(load(d), m));
        if let (Some(o), false) = (out.as_deref_mut(), log) {
            unsafe { _mm512_mask_storeu_ps(o.as_mut_ptr().add(at(d)), mask, e) };
        }
        s = _mm512_add_ps(s, e);
    }
    let (mut ms, mut ss) = ([0f32; 16], [0f32; 16]);
    // SAFETY: both arrays are 16 writable floats.
    unsafe {
        _mm512_storeu_ps(ms.as_mut_ptr(), m);
        _mm512_storeu_ps(ss.as_mut_ptr(), s);
    }
    if log {
        ss.iter_mut().for_each(|s| *s = sleef::ln(*s));
        // SAFETY: 16 readable floats.
        s = unsafe { _mm512_loadu_ps(ss.as_ptr()) };
    }
    for (i, st) in st[..2 * k].chunks_exact_mut(2).enumerate() {
        st[0] = ms[i];
        st[1] = ss[i];
    }
    if let Some(o) = out {
        for d in 0..dim {
            let p = unsafe { o.as_mut_ptr().add(at(d)) };
            let r = if log {
                _mm512_sub_ps(_mm512_sub_ps(load(d), m), s)
            } else {
                _mm512_div_ps(unsafe { _mm512_maskz_loadu_ps(mask, p) }, s)
            };
            unsafe { _mm512_mask_storeu_ps(p, mask, r) };
        }
    }
}

/// `block_avx512` in AVX2 registers: the 16 positions as two halves of 8 lanes, each lane the
/// same operations in the same order, so the same bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn block_avx2(
    x: &[f32],
    inner: usize,
    j: usize,
    k: usize,
    log: bool,
    st: &mut [f32],
    mut out: Option<&mut [f32]>,
) {
    use std::arch::x86_64::*;
    let dim = block_rows(x, inner, (j, k), st, &out);
    // SAFETY: this function's CPU has AVX2.
    let masks = unsafe {
        [
            sleef::avx2::first(k),
            sleef::avx2::first(k.saturating_sub(8)),
        ]
    };
    // `k > 8 * h` for the halves `0..halves`: the others are never touched.
    let halves = k.div_ceil(8);
    // SAFETY (loads and stores): each touches the lanes of `masks[h]` of `[d * inner + j +
    // 8 * h..]` for `d < dim` and `h < halves`: positions below `j + k`, inside `x` and `out`
    // (`block_rows` checks); the pointer itself stays inside the row since `8 * h < k`.
    let at = |d: usize, h: usize| d * inner + j + 8 * h;
    let load =
        |d: usize, h: usize| unsafe { _mm256_maskload_ps(x.as_ptr().add(at(d, h)), masks[h]) };
    let mut m = [_mm256_set1_ps(f32::NEG_INFINITY); 2];
    for d in 0..dim {
        for (h, m) in m.iter_mut().enumerate().take(halves) {
            *m = _mm256_max_ps(load(d, h), *m);
        }
    }
    let mut s = [_mm256_setzero_ps(); 2];
    for d in 0..dim {
        let t = [0usize, 1].map(|h| _mm256_sub_ps(load(d, h.min(halves - 1)), m[h]));
        // SAFETY: this function's CPU has AVX2 and FMA.
        let e = unsafe { sleef::avx2::exp8n(t) };
        for h in 0..halves {
            if let (Some(o), false) = (out.as_deref_mut(), log) {
                unsafe { _mm256_maskstore_ps(o.as_mut_ptr().add(at(d, h)), masks[h], e[h]) };
            }
            s[h] = _mm256_add_ps(s[h], e[h]);
        }
    }
    let (mut ms, mut ss) = ([0f32; 16], [0f32; 16]);
    // SAFETY: both arrays are 16 writable floats.
    unsafe {
        for h in 0..2 {
            _mm256_storeu_ps(ms.as_mut_ptr().add(8 * h), m[h]);
            _mm256_storeu_ps(ss.as_mut_ptr().add(8 * h), s[h]);
        }
    }
    if log {
        ss.iter_mut().for_each(|s| *s = sleef::ln(*s));
        // SAFETY: 16 readable floats.
        s = [0, 1].map(|h| unsafe { _mm256_loadu_ps(ss.as_ptr().add(8 * h)) });
    }
    for (i, st) in st[..2 * k].chunks_exact_mut(2).enumerate() {
        st[0] = ms[i];
        st[1] = ss[i];
    }
    if let Some(o) = out {
        for d in 0..dim {
            for h in 0..halves {
                let p = unsafe { o.as_mut_ptr().add(at(d, h)) };
                let r = if log {
                    _mm256_sub_ps(_mm256_sub_ps(load(d, h), m[h]), s[h])
                } else {
                    _mm256_div_ps(unsafe { _mm256_maskload_ps(p, masks[h]) }, s[h])
                };
                unsafe { _mm256_maskstore_ps(p, masks[h], r) };
            }
        }
    }
}

/// Which registers run ATen's 16-lane vector steps here: AVX-512's 16 lanes, AVX2's two
/// halves of 8, or none (one position at a time).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Regs {
    Scalar,
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx2,
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx512,
}

impl Regs {
    fn here() -> Regs {
        if sleef::has_avx512() {
            Regs::Avx512
        } else if sleef::has_avx2() {
            Regs::Avx2
        } else {
            Regs::Scalar
        }
    }
}

/// The runs of each row of the grid, and which registers run ATen's vector steps here.
struct Grid {
    runs: Vec<Run>,
    /// Row `o`'s runs are `runs[first[o]..first[o + 1]]`.
    first: Vec<usize>,
    inner: usize,
    regs: Regs,
}

impl Grid {
    fn new(outer: usize, inner: usize, dim: usize, log: bool) -> Grid {
        let runs = if log {
            log_softmax_runs(outer, inner)
        } else {
            softmax_runs(outer, inner, dim, team::threads())
        };
        let mut first: Vec<usize> = (0..runs.len())
            .filter(|&i| runs[i].start.is_multiple_of(inner))
            .collect();
        first.push(runs.len());
        Grid {
            runs,
            first,
            inner,
            regs: Regs::here(),
        }
    }

    fn row(&self, o: usize) -> &[Run] {
        &self.runs[self.first[o]..self.first[o + 1]]
    }

    /// `f((j, k), (vector, fast))` for the steps of `positions` that cover positions `p0..p1`
    /// of row `o` (`j`: the first one's column).
    fn steps(
        &self,
        o: usize,
        p0: usize,
        p1: usize,
        mut f: impl FnMut((usize, usize), (bool, Regs)),
    ) {
        for r in self.row(o) {
            let (mut q, b) = (r.start.max(p0), r.end.min(p1));
            let fast = if r.vector { self.regs } else { Regs::Scalar };
            while q < b {
                let k = if fast != Regs::Scalar {
                    (b - q).min(LANES)
                } else {
                    1
                };
                f((q - o * self.inner, k), (r.vector, fast));
                q += k;
            }
        }
    }
}

/// Softmax or log-softmax along the middle dim of contiguous f32 `[outer, dim, inner]`, as
/// ATen's `_vec_softmax` and `_vec_logsoftmax` compute each position of the dims after `dim`
/// (see `positions`; which exponentials are SLEEF's is `softmax_runs`/`log_softmax_runs`).
///
/// With a slab (`[dim, inner]`) or more per thread, each thread finishes whole slabs as ATen
/// does. Otherwise (one slab: softmax over dim 0 of a matrix) two passes: the first splits
/// the positions over the team and keeps each one's max and sum, the second splits the output
/// rows and writes them front to back, taking the exponentials again rather than storing
/// them from the first pass, whose threads own columns, not rows.
fn other_dim_f32(xs: &[f32], dim: usize, inner: usize, log: bool) -> Result<Vec<f32>> {
    let mut out = output_vec::<f32>(xs.len())?;
    let (slab, outer) = (dim * inner, xs.len() / (dim * inner));
    let grid = Grid::new(outer, inner, dim, log);
    let parts = team::parts_for(xs.len(), PAR_THRESHOLD);
    if outer >= parts {
        team::for_pieces(&mut out, parts, slab, &|start, piece| {
            let (mut col, mut st) = (Vec::new(), [0f32; 2 * LANES]);
            let xs = xs[start..].chunks_exact(slab);
            for (i, (out, x)) in piece.chunks_exact_mut(slab).zip(xs).enumerate() {
                let o = start / slab + i;
                grid.steps(o, o * inner, (o + 1) * inner, |jk, kind| {
                    positions(x, inner, jk, kind, log, &mut col, &mut st, Some(out));
                });
            }
        });
        return Ok(out);
    }

    // per position: [max, sum] (for log, [max, log(sum)])
    let mut stats = output_vec::<f32>(2 * outer * inner)?;
    let parts = parts.min(outer * inner);
    team::for_pieces(&mut stats, parts, 2, &|start, piece| {
        let (p0, p1) = (start / 2, (start + piece.len()) / 2);
        let mut col = Vec::new();
        for o in p0 / inner..p1.div_ceil(inner) {
            let x = &xs[o * slab..(o + 1) * slab];
            grid.steps(o, p0, p1, |(j, k), kind| {
                let st = &mut piece[2 * (o * inner + j - p0)..];
                positions(x, inner, (j, k), kind, log, &mut col, st, None);
            });
        }
    });
    let (mut maxs, mut sums) = (
        Vec::with_capacity(stats.len() / 2),
        Vec::with_capacity(stats.len() / 2),
    );
    for p in stats.chunks_exact(2) {
        maxs.push(p[0]);
        sums.push(p[1]);
    }

    let parts = parts.min(outer * dim);
    team::for_pieces(&mut out, parts, inner, &|start, piece| {
        let (r0, r1) = (start / inner, (start + piece.len()) / inner);
        let mut col = Vec::new();
        // the piece's rows of one outer index at a time
        let mut row = r0;
        while row < r1 {
            let o = row / dim;
            let end = r1.min((o + 1) * dim);
            let x = &xs[row * inner..end * inner];
            let out = &mut piece[(row - r0) * inner..(end - r0) * inner];
            let (m, s) = (&maxs[o * inner..][..inner], &sums[o * inner..][..inner]);
            if log {
                for (orow, x) in out.chunks_exact_mut(inner).zip(x.chunks_exact(inner)) {
                    for (((o, &v), &m), &ls) in orow.iter_mut().zip(x).zip(m).zip(s) {
                        *o = (v - m) - ls;
                    }
                }
            } else {
                for run in grid.row(o) {
                    let (a, b) = (run.start - o * inner, run.end - o * inner);
                    #[cfg(target_arch = "x86_64")]
                    if run.vector && grid.regs != Regs::Scalar {
                        for (orow, x) in out.chunks_exact_mut(inner).zip(x.chunks_exact(inner)) {
                            let (x, m, s, o) = (&x[a..b], &m[a..b], &s[a..b], &mut orow[a..b]);
                            // SAFETY: `Regs::here()` chose each only where the CPU has its
                            // features.
                            unsafe {
                                if grid.regs == Regs::Avx512 {
                                    exp_div_avx512(x, m, s, o)
                                } else {
                                    exp_div_avx2(x, m, s, o)
                                }
                            };
                        }
                        continue;
                    }
                    for j in a..b {
                        column_exp_div(x, inner, j, (m[j], s[j]), run.vector, &mut col, out);
                    }
                }
            }
            row = end;
        }
    });
    Ok(out)
}

/// `out = exp(x - m) / s` down column `j` of the rows `x` (`inner` wide), SLEEF's `exp` for
/// `vector`, glibc's otherwise: a column at a time, so each `exp` call has a whole column.
fn column_exp_div(
    x: &[f32],
    inner: usize,
    j: usize,
    (m, s): (f32, f32),
    vector: bool,
    col: &mut Vec<f32>,
    out: &mut [f32],
) {
    let rows = x.len() / inner;
    col.resize(2 * rows, 0.0);
    let (t, e) = col.split_at_mut(rows);
    for (t, &v) in t.iter_mut().zip(x[j..].iter().step_by(inner)) {
        *t = v - m;
    }
    exps(t, e, vector);
    for (o, &e) in out[j..].iter_mut().step_by(inner).zip(e.iter()) {
        *o = e / s;
    }
}

/// `exp(x - m) / s`.
#[cfg(target_arch = "x86_64")]
struct ExpDiv;

#[cfg(target_arch = "x86_64")]
impl sleef::avx512::LaneMap<3> for ExpDiv {
    #[inline(always)]
    unsafe fn apply<const N: usize>(
        &self,
        [mut x, m, s]: [[std::arch::x86_64::__m512; N]; 3],
    ) -> [std::arch::x86_64::__m512; N] {
        use std::arch::x86_64::*;
        // SAFETY: the CPU's features are the caller's promise.
        unsafe {
            for (x, m) in x.iter_mut().zip(m) {
                *x = _mm512_sub_ps(*x, m);
            }
            let mut e = sleef::avx512::exp16n(x);
            for (e, s) in e.iter_mut().zip(s) {
                *e = _mm512_div_ps(*e, s);
            }
            e
        }
    }
}

/// `o = exp(x - m) / s` lane by lane with SLEEF's 16-lane `exp`, `WAYS` vectors a step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
fn exp_div_avx512(x: &[f32], m: &[f32], s: &[f32], o: &mut [f32]) {
    use sleef::avx512::{zip_map, WAYS};
    // SAFETY: this function's target features are `zip_map`'s.
    unsafe { zip_map::<3, WAYS>([x, m, s], o, ExpDiv) }
}

/// `exp_div_avx512` in AVX2 registers, four vectors of 8 a step (the last on a zero-padded
/// copy): lane by lane the same operations, so the same bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn exp_div_avx2(x: &[f32], m: &[f32], s: &[f32], o: &mut [f32]) {
    use std::arch::x86_64::*;
    const STEP: usize = 32;
    let n = o.len();
    assert!(x.len() == n && m.len() == n && s.len() == n);
    let step = |[x, m, s]: [&[f32]; 3], o: &mut [f32]| {
        // SAFETY: each slice holds `STEP` floats (the callers below); `loadu`/`storeu` have
        // no alignment requirement; this function's CPU has AVX2 and FMA.
        unsafe {
            let ld = |v: &[f32], w: usize| _mm256_loadu_ps(v.as_ptr().add(8 * w));
            let t = [0, 1, 2, 3].map(|w| _mm256_sub_ps(ld(x, w), ld(m, w)));
            let e = sleef::avx2::exp8n(t);
            for (w, e) in e.into_iter().enumerate() {
                _mm256_storeu_ps(o.as_mut_ptr().add(8 * w), _mm256_div_ps(e, ld(s, w)));
            }
        }
    };
    let whole = n / STEP * STEP;
    for i in (0..whole).step_by(STEP) {
        let r = i..i + STEP;
        step([&x[r.clone()], &m[r.clone()], &s[r.clone()]], &mut o[r]);
    }
    if whole < n {
        let pad = |v: &[f32]| {
            let mut p = [1f32; STEP];
            p[..n - whole].copy_from_slice(&v[whole..]);
            p
        };
        let mut out = [0f32; STEP];
        step([&pad(x), &pad(m), &pad(s)], &mut out);
        o[whole..].copy_from_slice(&out[..n - whole]);
    }
}

/// The max of a non-empty row, NaN if any element is NaN (`vec::maximum`). Which zero a
/// row of zeros gives does not matter here: `x - max` is then a zero and `exp` of it is 1.
#[inline(always)]
fn row_max(x: &[f32]) -> f32 {
    match extreme_f32(true, x) {
        (_, true) => f32::NAN,
        (m, false) => m,
    }
}

/// A row's sum in `vec::reduce_all`'s order: in order below one vector; else lane `l` sums
/// elements `l, l + 16, ...` (the partial last vector adds into its first lanes), then the
/// lanes combine as the shuffle tree (`i + (i ^ 8)`, then `^ 4`, `^ 2`, `^ 1`).
#[inline(always)]
pub(super) fn lane_sum(e: &[f32]) -> f32 {
    if e.len() < LANES {
        return e[1..].iter().fold(e[0], |a, &v| a + v);
    }
    let mut acc: [f32; LANES] = e[..LANES].try_into().expect("one vector");
    let mut chunks = e[LANES..].chunks_exact(LANES);
    for c in &mut chunks {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a += v;
        }
    }
    for (a, &v) in acc.iter_mut().zip(chunks.remainder()) {
        *a += v;
    }
    lane_tree(acc)
}

/// `reduce_all`'s shuffle tree over its 16 lane sums: `i + (i ^ 8)`, then `^ 4`, `^ 2`, `^ 1`.
#[inline(always)]
pub(super) fn lane_tree(mut acc: [f32; LANES]) -> f32 {
    for m in [8, 4, 2, 1] {
        let v = acc;
        for (i, a) in acc.iter_mut().enumerate() {
            *a = v[i] + v[i ^ m];
        }
    }
    acc[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(start: usize, end: usize, vector: bool) -> Run {
        Run { start, end, vector }
    }

    #[test]
    fn softmax_runs_follow_atens_thread_chunks() {
        // 3 rows of 37, 1000 deep: two chunks, 0..56 and 56..111
        let v = |a, b| run(a, b, true);
        let s = |a, b| run(a, b, false);
        assert_eq!(
            softmax_runs(3, 37, 1000, 2),
            vec![
                v(0, 32),
                s(32, 37),
                v(37, 53),
                s(53, 56),
                v(56, 72),
                s(72, 74),
                v(74, 106),
                s(106, 111)
            ]
        );
        // one thread, or too little work for two: each row's whole vectors, then its tail
        let serial = vec![
            v(0, 32),
            s(32, 37),
            v(37, 69),
            s(69, 74),
            v(74, 106),
            s(106, 111),
        ];
        assert_eq!(softmax_runs(3, 37, 1000, 1), serial);
        assert_eq!(softmax_runs(3, 37, 200, 2), serial);
        assert_eq!(log_softmax_runs(3, 37), serial);
        // rows narrower than a vector are all scalar
        assert_eq!(softmax_runs(2, 5, 10, 2), vec![s(0, 5), s(5, 10)]);
    }

    /// Each position in order, one at a time: the definition `other_dim_f32` must match.
    fn reference(xs: &[f32], dim: usize, inner: usize, log: bool) -> Vec<f32> {
        let outer = xs.len() / (dim * inner);
        let runs = if log {
            log_softmax_runs(outer, inner)
        } else {
            softmax_runs(outer, inner, dim, team::threads())
        };
        let mut out = vec![0f32; xs.len()];
        for r in &runs {
            for q in r.start..r.end {
                let (o, j) = (q / inner, q % inner);
                let at = |d: usize| o * dim * inner + d * inner + j;
                let m = (0..dim).fold(
                    f32::NEG_INFINITY,
                    |m, d| if xs[at(d)] > m { xs[at(d)] } else { m },
                );
                let exp = if r.vector { sleef::exp } else { vmath::exp };
                let s = (0..dim).fold(0f32, |s, d| s + exp(xs[at(d)] - m));
                for d in 0..dim {
                    let t = xs[at(d)] - m;
                    out[at(d)] = if log { t - sleef::ln(s) } else { exp(t) / s };
                }
            }
        }
        out
    }

    #[test]
    fn other_dims_match_the_position_by_position_definition() {
        // (outer, dim, inner): one slab split by columns, many slabs, ragged rows, narrow rows,
        // one slab in two chunks of 512 positions at any thread count above one, so that
        // `exp_div_avx512` runs whole eight-vector steps
        for (outer, dim, inner) in [
            (1, 3000, 37),
            (1, 500, 100),
            (1, 64, 1024),
            (40, 130, 20),
            (3, 1000, 37),
            (700, 9, 3),
            (2, 4, 70),
        ] {
            let n = outer * dim * inner;
            let mut xs: Vec<f32> = (0..n)
                .map(|i| ((i * 7919) % 1013) as f32 * 0.011 - 5.0)
                .collect();
            xs[n / 2] = f32::NAN;
            xs[n / 3] = f32::NEG_INFINITY;
            for log in [false, true] {
                let got = other_dim_f32(&xs, dim, inner, log).unwrap();
                let want = reference(&xs, dim, inner, log);
                for (k, (a, b)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(
                        a.to_bits(),
                        b.to_bits(),
                        "{outer}x{dim}x{inner} log {log} at {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn register_blocks_match_single_positions() {
        let here = match Regs::here() {
            Regs::Avx512 => vec![Regs::Avx512, Regs::Avx2],
            Regs::Avx2 => vec![Regs::Avx2],
            Regs::Scalar => return,
        };
        for regs in here {
            blocks_match_single_positions(regs);
        }
    }

    fn blocks_match_single_positions(regs: Regs) {
        let (dim, inner) = (50, 21);
        let xs: Vec<f32> = (0..dim * inner)
            .map(|i| ((i * 613) % 997) as f32 * 0.02 - 9.0)
            .collect();
        for log in [false, true] {
            for k in [1, 5, 8, 9, 16] {
                let (mut a, mut b) = (vec![0f32; xs.len()], vec![0f32; xs.len()]);
                let (mut sa, mut sb) = ([0f32; 32], [0f32; 32]);
                let mut col = Vec::new();
                positions(
                    &xs,
                    inner,
                    (2, k),
                    (true, regs),
                    log,
                    &mut col,
                    &mut sa,
                    Some(&mut a),
                );
                for i in 0..k {
                    let st = &mut sb[2 * i..];
                    positions(
                        &xs,
                        inner,
                        (2 + i, 1),
                        (true, Regs::Scalar),
                        log,
                        &mut col,
                        st,
                        Some(&mut b),
                    );
                }
                assert_eq!(sa.map(f32::to_bits), sb.map(f32::to_bits));
                assert_eq!(
                    a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    b.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn register_exp_divs_match_the_scalar_lanes() {
        for n in [1usize, 7, 8, 31, 32, 33, 70] {
            let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.37 - 9.0).collect();
            let m: Vec<f32> = (0..n).map(|i| (i % 5) as f32 - 2.0).collect();
            let s: Vec<f32> = (0..n).map(|i| 1.0 + i as f32 * 0.25).collect();
            let want: Vec<u32> = (0..n)
                .map(|i| (sleef::exp(x[i] - m[i]) / s[i]).to_bits())
                .collect();
            let mut got = vec![0f32; n];
            #[cfg(target_arch = "x86_64")]
            for regs in [Regs::Avx2, Regs::Avx512] {
                let ok = match regs {
                    Regs::Avx512 => sleef::has_avx512(),
                    _ => sleef::has_avx2(),
                };
                if !ok {
                    continue;
                }
                // SAFETY: the CPU has each build's features (checked just above).
                unsafe {
                    if regs == Regs::Avx512 {
                        exp_div_avx512(&x, &m, &s, &mut got)
                    } else {
                        exp_div_avx2(&x, &m, &s, &mut got)
                    }
                };
                let bits: Vec<u32> = got.iter().map(|v| v.to_bits()).collect();
                assert_eq!(bits, want, "{regs:?} n {n}");
            }
        }
    }

    #[test]
    fn softmax_lane_sum_is_reduce_alls_order() {
        let e: Vec<f32> = (0..37).map(|i| 1.0 + i as f32 * 1e-7).collect();
        let mut acc: Vec<f32> = e[..16].to_vec();
        for (i, &v) in e[16..].iter().enumerate() {
            acc[i % 16] += v;
        }
        let t1: Vec<f32> = (0..8).map(|i| acc[i] + acc[i + 8]).collect();
        let t2: Vec<f32> = (0..4).map(|i| t1[i] + t1[i + 4]).collect();
        let want = (t2[0] + t2[2]) + (t2[1] + t2[3]);
        assert_eq!(lane_sum(&e).to_bits(), want.to_bits());
        assert_eq!(lane_sum(&e[..5]), (((e[0] + e[1]) + e[2]) + e[3]) + e[4]);
    }

    #[test]
    fn avx512_softmax_rows_match_the_avx2_order() {
        if !sleef::has_avx512() {
            return;
        }
        for len in [16usize, 17, 31, 33, 100, 1029] {
            let rows = 5;
            let xs: Vec<f32> = (0..rows * len)
                .map(|i| ((i * 7919) % 1013) as f32 * 0.013 - 6.0)
                .collect();
            for log in [false, true] {
                let mut want = vec![0f32; xs.len()];
                let mut tmp = vec![0f32; len];
                softmax_piece(&xs, &mut want, len, log, &mut tmp);
                let got = softmax_rows_f32(&xs, len, log).unwrap();
                for (a, b) in got.iter().zip(&want) {
                    assert_eq!(a.to_bits(), b.to_bits(), "len {len} log {log}");
                }
            }
        }
    }
}

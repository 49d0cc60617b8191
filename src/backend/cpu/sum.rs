//! PyTorch's CPU summation order (`SumKernel.cpp`, "cascade sum"): sums are built from chunks so
//! that only numbers of similar size are added, and — what matters for matching printed
//! results digit for digit — in the same order as PyTorch adds them: four interleaved partial
//! sums (`row_sum`), multi-level chunk accumulators (`multi_row_sum`), and for contiguous rows a
//! first pass in vector lanes (8 floats / 4 doubles, as PyTorch's AVX2 kernels).
use crate::backend::storage::{Arith, Element};
use crate::core::DType;

#[derive(Clone, Copy)]
pub struct Lanes<M, const L: usize>(pub [M; L]);

impl<M: Arith, const L: usize> Lanes<M, L> {
    #[inline(always)]
    fn zero_lanes() -> Self {
        Lanes([M::zero(); L])
    }
}

/// ATen `utils::CeilLog2`.
fn ceil_log2(x: usize) -> u32 {
    if x <= 2 {
        1
    } else {
        usize::BITS - (x - 1).leading_zeros()
    }
}

/// ATen `multi_row_sum` for `NROWS` interleaved sums over `size` rows; `load(i, k)` is element
/// `k` of row `i`.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // mirrors ATen's indexing
fn multi_row_sum<V: Copy, const NROWS: usize>(
    size: usize,
    zero: V,
    add: impl Fn(V, V) -> V,
    load: impl Fn(usize, usize) -> V,
) -> [V; NROWS] {
    const NUM_LEVELS: usize = 4;
    let level_power = (ceil_log2(size) / NUM_LEVELS as u32).max(4);
    let level_step = 1usize << level_power;
    let level_mask = level_step - 1;
    let mut acc = [[zero; NROWS]; NUM_LEVELS];
    let mut i = 0usize;
    while i + level_step <= size {
        for _ in 0..level_step {
            for k in 0..NROWS {
                acc[0][k] = add(acc[0][k], load(i, k));
            }
            i += 1;
        }
        for j in 1..NUM_LEVELS {
            for k in 0..NROWS {
                acc[j][k] = add(acc[j][k], acc[j - 1][k]);
                acc[j - 1][k] = zero;
            }
            let mask = level_mask << (j as u32 * level_power);
            if i & mask != 0 {
                break;
            }
        }
    }
    while i < size {
        for k in 0..NROWS {
            acc[0][k] = add(acc[0][k], load(i, k));
        }
        i += 1;
    }
    for j in 1..NUM_LEVELS {
        for k in 0..NROWS {
            acc[0][k] = add(acc[0][k], acc[j][k]);
        }
    }
    acc[0]
}

/// ATen `row_sum`: four interleaved partial sums, then the tail, then the partials in order.
#[inline(always)]
fn row_sum<V: Copy>(
    size: usize,
    zero: V,
    add: impl Fn(V, V) -> V + Copy,
    load: impl Fn(usize) -> V,
) -> V {
    const ILP: usize = 4;
    let size_ilp = size / ILP;
    let mut p = multi_row_sum::<V, ILP>(size_ilp, zero, add, |i, k| load(i * ILP + k));
    for i in size_ilp * ILP..size {
        p[0] = add(p[0], load(i));
    }
    for k in 1..ILP {
        p[0] = add(p[0], p[k]);
    }
    p[0]
}

/// Sum of values read by `load(i)` for `i < n`, PyTorch's scalar (`scalar_inner_sum`) order.
pub fn scalar_row_sum<M: Arith>(n: usize, load: impl Fn(usize) -> M) -> M {
    row_sum(n, M::zero(), |a: M, b: M| a.add(b), load)
}

/// Sum by pure chunk cascade (`multi_row_sum` on one column): the order PyTorch uses for a
/// column of an outer reduction handled four (or 64) columns at a time.
pub fn cascade_column_sum<M: Arith>(n: usize, load: impl Fn(usize) -> M) -> M {
    multi_row_sum::<M, 1>(n, M::zero(), |a: M, b: M| a.add(b), |i, _| load(i))[0]
}

#[inline(always)]
fn lanes_inner_sum<E: Element, const L: usize>(
    xs: &[E],
    per_lane: usize,
    bf16_split: bool,
) -> E::M {
    let vec_numel = L * per_lane;
    let n = xs.len();
    let vec_size = n / vec_numel;
    let add = |a: Lanes<E::M, L>, b: Lanes<E::M, L>| {
        let mut r = a;
        for (x, y) in r.0.iter_mut().zip(b.0) {
            *x = x.add(y);
        }
        r
    };
    let load_vec = |i: usize| {
        let chunk = &xs[i * vec_numel..(i + 1) * vec_numel];
        let mut acc = Lanes::<E::M, L>::zero_lanes();
        if per_lane == 1 {
            // one element per lane: the lane is the element (0 + x == x up to the sign of zero)
            for (a, x) in acc.0.iter_mut().zip(chunk) {
                *a = x.load();
            }
        } else if bf16_split {
            // load_fp32_from_bf16: first and second half of the vector, added lane by lane
            for l in 0..L {
                acc.0[l] = chunk[l].load().add(chunk[L + l].load());
            }
        } else {
            for l in 0..L {
                for k in 0..per_lane {
                    acc.0[l] = acc.0[l].add(chunk[l * per_lane + k].load());
                }
            }
        }
        acc
    };
    let vacc = row_sum(vec_size, Lanes::<E::M, L>::zero_lanes(), add, load_vec);
    let mut fin = <E::M as Arith>::zero();
    for x in &xs[vec_size * vec_numel..] {
        fin = fin.add(x.load());
    }
    for l in 0..L {
        fin = fin.add(vacc.0[l]);
    }
    fin
}

/// Elements per vector load for `dtype` (`Vectorized<T>::size()` of the AVX2 kernels, which
/// PyTorch's reductions run even on AVX-512 machines).
pub fn vec_size(dtype: DType) -> usize {
    match dtype {
        DType::F32 | DType::I32 => 8,
        DType::F64 | DType::I64 => 4,
        DType::F16 | DType::BF16 => 16,
        _ => 32,
    }
}

/// Sum of a contiguous row, as `vectorized_inner_sum` (rows shorter than a vector use the
/// scalar order). Long float rows run the same additions in AVX registers where the CPU has
/// AVX2 (lane-wise adds, no FMA: the same bits).
pub fn contiguous_sum<E: Element>(xs: &[E]) -> E::M {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn avx2<E: Element>(xs: &[E]) -> E::M {
            contiguous_sum_in_order(xs)
        }
        if xs.len() >= 8 && E::DTYPE.is_floating() && std::is_x86_feature_detected!("avx2") {
            // SAFETY (all three): the CPU has AVX2 (detected just above), the only requirement
            // of a `target_feature` function.
            if let Some(v) = slice_as::<E, f32>(xs) {
                return E::from_f64(unsafe { avx::lanes_sum_f32(v) } as f64).load();
            }
            if let Some(v) = slice_as::<E, f64>(xs) {
                return E::from_f64(unsafe { avx::lanes_sum_f64(v) }).load();
            }
            if xs.len() >= 16 && std::is_x86_feature_detected!("f16c") {
                // SAFETY: the CPU has AVX2 and F16C (detected above).
                if let Some(v) = slice_as::<E, half::f16>(xs) {
                    return E::from_f64(unsafe {
                        avx::lanes_sum_half(super::widen::as_bits(v), true)
                    } as f64)
                    .load();
                }
                if let Some(v) = slice_as::<E, half::bf16>(xs) {
                    return E::from_f64(unsafe {
                        avx::lanes_sum_half(super::widen::as_bits(v), false)
                    } as f64)
                    .load();
                }
            }
            return unsafe { avx2(xs) };
        }
    }
    contiguous_sum_in_order(xs)
}

/// `out[k] = contiguous_sum(&v[base(k)..base(k) + n])` for every row `k` (`sum(dim=-1)` of
/// a contiguous matrix): the same sums, with the CPU check and dispatch made once rather than
/// per row (a row of a few vectors costs less than a call's overhead).
pub fn contiguous_sums<E: Element>(
    v: &[E],
    base: impl Fn(usize) -> usize,
    n: usize,
    out: &mut [E],
) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn rows_f32(v: &[f32], base: impl Fn(usize) -> usize, n: usize, out: &mut [f32]) {
            for (k, o) in out.iter_mut().enumerate() {
                let b = base(k);
                *o = if n < 16 {
                    one_vector_sum(&v[b..b + n])
                } else if n < avx::SHORT {
                    avx::short_lanes_sum_f32(&v[b..b + n])
                } else {
                    avx::lanes_sum_f32(&v[b..b + n])
                };
            }
        }
        if n >= 8 && std::is_x86_feature_detected!("avx2") {
            if let (Some(vf), Some(of)) = (slice_as::<E, f32>(v), slice_as_mut::<E, f32>(out)) {
                // SAFETY: the CPU has AVX2 (detected just above).
                return unsafe { rows_f32(vf, base, n, of) };
            }
        }
    }
    for (k, o) in out.iter_mut().enumerate() {
        let b = base(k);
        *o = E::store(contiguous_sum(&v[b..b + n]));
    }
}

/// `plain_lanes_sum::<f32, 8>` of 8 to 15 floats written out: one vector, so each lane is
/// `0 + x[l]` (a -0 becomes +0, which adds as it would), and the sum is the tail's, from 0,
/// plus the lanes in order; a plain chain the CPU overlaps across rows, without the lane
/// array's round trip through memory.
#[inline(always)]
fn one_vector_sum(xs: &[f32]) -> f32 {
    let tail = xs[8..].iter().fold(0f32, |a, &x| a + x);
    xs[..8].iter().fold(tail, |a, &x| a + (0.0 + x))
}

/// `xs` itself as a `&mut [T]` when `E` is `T`.
pub(crate) fn slice_as_mut<E: 'static, T: 'static>(xs: &mut [E]) -> Option<&mut [T]> {
    if std::any::TypeId::of::<E>() == std::any::TypeId::of::<T>() {
        // SAFETY: `E` and `T` are the same type, so the memory is `xs.len()` valid `T`s, and
        // the exclusive borrow of `xs` passes to the result.
        Some(unsafe { std::slice::from_raw_parts_mut(xs.as_mut_ptr().cast::<T>(), xs.len()) })
    } else {
        None
    }
}

/// `xs` itself as a `&[T]` when `E` is `T`.
pub(crate) fn slice_as<E: 'static, T: 'static>(xs: &[E]) -> Option<&[T]> {
    if std::any::TypeId::of::<E>() == std::any::TypeId::of::<T>() {
        // SAFETY: `E` and `T` are the same type, so the memory is `xs.len()` valid `T`s.
        Some(unsafe { std::slice::from_raw_parts(xs.as_ptr().cast::<T>(), xs.len()) })
    } else {
        None
    }
}

/// `plain_lanes_sum` with its lane arrays held in AVX registers:
/// `multi_row_sum` and `row_sum` run unchanged on `__m256`/`__m256d` values (lane-wise adds,
/// so every lane gets the additions of the array code in its order), which the array code
/// does not get from the compiler (it keeps the level accumulators in memory: ~14x slower).
#[cfg(target_arch = "x86_64")]
mod avx {
    use super::row_sum;
    use std::arch::x86_64::*;

    /// `plain_lanes_sum::<f32, 8>`.
    #[target_feature(enable = "avx2")]
    pub fn lanes_sum_f32(xs: &[f32]) -> f32 {
        let nvec = xs.len() / 8;
        let load = |i: usize| {
            // (Unchecked: a bounds check per load cost a compare and branch per vector add.)
            // SAFETY: `row_sum` loads only `i < nvec`, 8 readable floats from `i * 8`;
            // `loadu` has no alignment requirement.
            unsafe { _mm256_loadu_ps(xs.as_ptr().add(i * 8)) }
        };
        let vacc = row_sum(nvec, _mm256_setzero_ps(), |a, b| _mm256_add_ps(a, b), load);
        let mut lanes = [0f32; 8];
        // SAFETY: 8 writable floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), vacc) };
        let tail = xs[nvec * 8..].iter().fold(0f32, |a, &x| a + x);
        lanes.iter().fold(tail, |a, &l| a + l)
    }

    /// Rows shorter than this (fewer than 64 vectors: under 16 per partial) never reach
    /// `multi_row_sum`'s level step, so each partial is a plain chain.
    pub const SHORT: usize = 64 * 8;

    /// `lanes_sum_f32` of a row of 16 to `SHORT - 1` floats written out: `row_sum`'s four
    /// partials as plain chains from +0 (its level accumulators stay +0, and adding +0 to a sum
    /// from +0 changes nothing: such a sum is never -0), the leftover vectors into the first,
    /// the partials in order, then the lanes after the scalar tail. The general code's level
    /// bookkeeping cost as much as the adds for `sum(dim=1)` of 10000x100.
    #[target_feature(enable = "avx2")]
    pub fn short_lanes_sum_f32(xs: &[f32]) -> f32 {
        let nvec = xs.len() / 8;
        assert!(nvec < 64);
        // SAFETY: every `i` below is under `nvec`: 8 readable floats from `i * 8`.
        let load = |i: usize| unsafe { _mm256_loadu_ps(xs.as_ptr().add(i * 8)) };
        let mut p = [_mm256_setzero_ps(); 4];
        let quads = nvec / 4;
        for i in 0..quads {
            for (k, p) in p.iter_mut().enumerate() {
                *p = _mm256_add_ps(*p, load(4 * i + k));
            }
        }
        for i in 4 * quads..nvec {
            p[0] = _mm256_add_ps(p[0], load(i));
        }
        let v = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(p[0], p[1]), p[2]), p[3]);
        let mut lanes = [0f32; 8];
        // SAFETY: 8 writable floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), v) };
        let tail = xs[nvec * 8..].iter().fold(0f32, |a, &x| a + x);
        lanes.iter().fold(tail, |a, &l| a + l)
    }

    /// Sums of the `out.len()` (at most 8) columns from `c0` of a row-major region (element
    /// `v[base + i * row_stride + c]` for row `i < n`), lane `c` one column: `row_sum`
    /// (`scalar_row_sum`'s order) or one-row `multi_row_sum` (`cascade_column_sum`'s) on
    /// masked row loads, so every column gets exactly those additions in their order.
    #[target_feature(enable = "avx2")]
    pub fn columns_f32(
        v: &[f32],
        base: usize,
        row_stride: usize,
        n: usize,
        c0: usize,
        out: &mut [f32],
        row_order: bool,
    ) {
        let w = out.len();
        // every element a load reads: rows below `n`, columns below `c0 + w`
        assert!(w <= 8 && n > 0 && base + (n - 1) * row_stride + c0 + w <= v.len());
        let lanes: [i32; 8] = std::array::from_fn(|c| if c < w { -1 } else { 0 });
        // SAFETY: 8 readable i32s.
        let mask = unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
        let load = |i: usize| {
            // SAFETY: row `i < n`; lanes from `w` on are masked off (not read, cannot fault)
            // and the rest lie in `v` (checked above).
            unsafe { _mm256_maskload_ps(v.as_ptr().add(base + i * row_stride + c0), mask) }
        };
        let add = |a, b| _mm256_add_ps(a, b);
        let zero = _mm256_setzero_ps();
        let sums = if row_order {
            row_sum(n, zero, add, load)
        } else {
            super::multi_row_sum::<__m256, 1>(n, zero, add, |i, _| load(i))[0]
        };
        let mut all = [0f32; 8];
        // SAFETY: 8 writable floats.
        unsafe { _mm256_storeu_ps(all.as_mut_ptr(), sums) };
        out.copy_from_slice(&all[..w]);
    }

    /// `lanes_inner_sum::<f16, 8>(xs, 2, false)` (`f16`) or `lanes_inner_sum::<bf16, 8>(xs,
    /// 2, true)` on the bit patterns: each 16 values widen to two float vectors, which make
    /// one vector of lanes as ATen's loads do (float16: lane `l` is `0 + x[2l] + x[2l + 1]`;
    /// bfloat16: `x[l] + x[8 + l]`), summed by `row_sum` in registers.
    #[target_feature(enable = "avx2,f16c")]
    pub fn lanes_sum_half(xs: &[u16], f16: bool) -> f32 {
        let nvec = xs.len() / 16;
        let zero = _mm256_setzero_ps();
        let load = |i: usize| {
            // SAFETY: `row_sum` loads only `i < nvec`: 16 readable values from `i * 16`.
            let (a, b) = unsafe {
                let p = xs.as_ptr().add(i * 16);
                (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(8).cast()))
            };
            if f16 {
                let (lo, hi) = (_mm256_cvtph_ps(a), _mm256_cvtph_ps(b));
                // even and odd elements, each in order: [x0, x2, .., x14] and [x1, x3, .., x15]
                let ev = _mm256_permute4x64_pd::<0xD8>(_mm256_castps_pd(
                    _mm256_shuffle_ps::<0x88>(lo, hi),
                ));
                let od = _mm256_permute4x64_pd::<0xD8>(_mm256_castps_pd(
                    _mm256_shuffle_ps::<0xDD>(lo, hi),
                ));
                _mm256_add_ps(
                    _mm256_add_ps(zero, _mm256_castpd_ps(ev)),
                    _mm256_castpd_ps(od),
                )
            } else {
                let wide =
                    |h| _mm256_castsi256_ps(_mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(h)));
                _mm256_add_ps(wide(a), wide(b))
            }
        };
        let vacc = row_sum(nvec, zero, |a, b| _mm256_add_ps(a, b), load);
        let mut lanes = [0f32; 8];
        // SAFETY: 8 writable floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), vacc) };
        let widen = |h: u16| match f16 {
            true => crate::core::half_bits::f16_to_f32(h),
            false => crate::core::half_bits::bf16_to_f32(h),
        };
        let tail = xs[nvec * 16..].iter().fold(0f32, |a, &h| a + widen(h));
        lanes.iter().fold(tail, |a, &l| a + l)
    }

    /// `plain_lanes_sum::<f64, 4>`.
    #[target_feature(enable = "avx2")]
    pub fn lanes_sum_f64(xs: &[f64]) -> f64 {
        let nvec = xs.len() / 4;
        let load = |i: usize| {
            // SAFETY: `row_sum` loads only `i < nvec`, 4 readable doubles from `i * 4`.
            unsafe { _mm256_loadu_pd(xs.as_ptr().add(i * 4)) }
        };
        let vacc = row_sum(nvec, _mm256_setzero_pd(), |a, b| _mm256_add_pd(a, b), load);
        let mut lanes = [0f64; 4];
        // SAFETY: 4 writable doubles.
        unsafe { _mm256_storeu_pd(lanes.as_mut_ptr(), vacc) };
        let tail = xs[nvec * 4..].iter().fold(0f64, |a, &x| a + x);
        lanes.iter().fold(tail, |a, &l| a + l)
    }
}

/// `lanes_inner_sum` for one element per lane, over plain arrays (`[M; L]` adds are lane-wise,
/// so they vectorise): the same additions in the same order.
#[inline(always)]
fn plain_lanes_sum<E: Element, const L: usize>(xs: &[E]) -> E::M {
    let add = |a: [E::M; L], b: [E::M; L]| {
        let mut r = a;
        for (x, y) in r.iter_mut().zip(b) {
            *x = x.add(y);
        }
        r
    };
    let nvec = xs.len() / L;
    let load = |i: usize| -> [E::M; L] { std::array::from_fn(|l| xs[i * L + l].load()) };
    let vacc = row_sum(nvec, [<E::M as Arith>::zero(); L], add, load);
    let mut fin = <E::M as Arith>::zero();
    for x in &xs[nvec * L..] {
        fin = fin.add(x.load());
    }
    for v in vacc {
        fin = fin.add(v);
    }
    fin
}

#[inline(always)]
fn contiguous_sum_in_order<E: Element>(xs: &[E]) -> E::M {
    let n = xs.len();
    match E::DTYPE {
        DType::F32 if n >= 8 => return plain_lanes_sum::<E, 8>(xs),
        DType::F64 if n >= 4 => return plain_lanes_sum::<E, 4>(xs),
        _ => {}
    }
    if E::DTYPE.is_floating() && n >= vec_size(E::DTYPE) {
        return match E::DTYPE {
            DType::F64 => lanes_inner_sum::<E, 4>(xs, 1, false),
            DType::F32 => lanes_inner_sum::<E, 8>(xs, 1, false),
            DType::F16 => lanes_inner_sum::<E, 8>(xs, 2, false),
            _ => lanes_inner_sum::<E, 8>(xs, 2, true),
        };
    }
    scalar_row_sum(n, |i| xs[i].load())
}

/// `multi_row_sum::<NR>` run for `w` columns at once, reading the region row by row: partial
/// `k` of column `c` adds element `v[base + (i * NR + k) * row_stride + c0 + c]` for
/// `i < size`, with the level carries at the same `i` as `multi_row_sum` (they depend on `i`
/// only), so every column gets exactly its additions in its order. `acc` holds the
/// accumulators, `[level][k][column]`; on return level 0 holds the `NR` partials.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn streamed_multi_row<E: Element, const NR: usize>(
    v: &[E],
    base: usize,
    row_stride: usize,
    size: usize,
    c0: usize,
    w: usize,
    acc: &mut [E::M],
) {
    const NUM_LEVELS: usize = 4;
    let zero = <E::M as Arith>::zero();
    acc[..NUM_LEVELS * NR * w].fill(zero);
    let level_power = (ceil_log2(size) / NUM_LEVELS as u32).max(4);
    let level_step = 1usize << level_power;
    let level_mask = level_step - 1;
    let add_rows = |acc: &mut [E::M], i: usize| {
        for k in 0..NR {
            let row = &v[base + (i * NR + k) * row_stride + c0..][..w];
            for (a, x) in acc[k * w..(k + 1) * w].iter_mut().zip(row) {
                *a = a.add(x.load());
            }
        }
    };
    // level j's accumulators += level j - 1's, which restart at zero
    let carry = |acc: &mut [E::M], j: usize| {
        let (lo, hi) = acc.split_at_mut(j * NR * w);
        for (a, b) in hi[..NR * w].iter_mut().zip(&mut lo[(j - 1) * NR * w..]) {
            *a = a.add(*b);
            *b = zero;
        }
    };
    let mut i = 0usize;
    while i + level_step <= size {
        for _ in 0..level_step {
            add_rows(acc, i);
            i += 1;
        }
        for j in 1..NUM_LEVELS {
            carry(acc, j);
            let mask = level_mask << (j as u32 * level_power);
            if i & mask != 0 {
                break;
            }
        }
    }
    while i < size {
        add_rows(acc, i);
        i += 1;
    }
    let (l0, rest) = acc.split_at_mut(NR * w);
    for j in 1..NUM_LEVELS {
        for (a, b) in l0.iter_mut().zip(&rest[(j - 1) * NR * w..j * NR * w]) {
            *a = a.add(*b);
        }
    }
}

/// Columns handled per pass of `column_sums` (their accumulators stay in L1).
const COL_BLOCK: usize = 128;
/// Columns per pass of the cascade path, whose carries (3 levels × 512 floats, 6 KB) still fit
/// in L1: wider passes read longer runs of each row (2 KB rather than 512 bytes), which the
/// hardware prefetcher streams better.
const CASCADE_BLOCK: usize = 512;
const _: () = assert!(
    3 * CASCADE_BLOCK <= 4 * 4 * COL_BLOCK,
    "carries fit column_sums' buffer"
);
/// Columns whose chunk sums `cascade_chunked` keeps in registers at once: 64 floats are eight
/// AVX2 (four AVX-512) accumulators, enough independent additions to hide the adder's latency
/// (16 columns, two chains, waited on it: ~3x slower); 16 for the columns left after those.
const REG_COLS: usize = 64;
const REG_COLS_TAIL: usize = 16;

/// `rows` rows of `W` columns from `start` summed in order from zero (one level-0 run of
/// `multi_row_sum`), in registers.
#[inline(always)]
fn chunk_sum<E: Element, const W: usize>(
    v: &[E],
    start: usize,
    row_stride: usize,
    rows: usize,
) -> [E::M; W] {
    let mut s = [<E::M as Arith>::zero(); W];
    for r in 0..rows {
        let row: &[E; W] = v[start + r * row_stride..][..W]
            .try_into()
            .expect("W columns");
        for k in 0..W {
            s[k] = s[k].add(row[k].load());
        }
    }
    s
}

/// `cascade_column_sum` of `w` columns from `c0` (`w` a multiple of `W`), in chunks of
/// `multi_row_sum`'s level step: each chunk's level-0 sums in registers, `W` columns at
/// a time over a chunk that stays in cache, then the carries into levels 1-3 (in `hi`) that
/// `multi_row_sum` makes after that row. The same additions in the same order per column.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn cascade_chunked<E: Element, const W: usize>(
    v: &[E],
    base: usize,
    row_stride: usize,
    n: usize,
    c0: usize,
    w: usize,
    out: &mut [E],
    hi: &mut [E::M],
) {
    const NUM_LEVELS: usize = 4;
    let zero = <E::M as Arith>::zero();
    let hi = &mut hi[..(NUM_LEVELS - 1) * w];
    hi.fill(zero);
    let level_power = (ceil_log2(n) / NUM_LEVELS as u32).max(4);
    let level_step = 1usize << level_power;
    let level_mask = level_step - 1;
    let mut i = 0usize;
    while i + level_step <= n {
        for g in (0..w).step_by(W) {
            let s = chunk_sum::<E, W>(v, base + i * row_stride + c0 + g, row_stride, level_step);
            // level 1 += level 0 (which restarts at zero: the next chunk's sum starts there)
            for (a, x) in hi[g..g + W].iter_mut().zip(s) {
                *a = a.add(x);
            }
        }
        i += level_step;
        for j in 2..NUM_LEVELS {
            if i & (level_mask << ((j as u32 - 1) * level_power)) != 0 {
                break;
            }
            // level j += level j - 1, which restarts at zero (`hi[l]` is level l + 1)
            let (lo, up) = hi.split_at_mut((j - 1) * w);
            for (a, b) in up[..w].iter_mut().zip(&mut lo[(j - 2) * w..]) {
                *a = a.add(*b);
                *b = zero;
            }
        }
    }
    for g in (0..w).step_by(W) {
        let s = chunk_sum::<E, W>(v, base + i * row_stride + c0 + g, row_stride, n - i);
        for (k, mut a) in s.into_iter().enumerate() {
            for l in 0..NUM_LEVELS - 1 {
                a = a.add(hi[l * w + g + k]);
            }
            out[g + k] = E::store(a);
        }
    }
}

/// Fewer columns than this go to `narrow_columns`: summed in memory a row at a time, a few
/// columns (a tall matrix of ten, split over two threads) cost a scalar load, add and store
/// per element, 2.3x PyTorch's time.
const NARROW: usize = 32;

/// `column_sums` of the `out.len()` (under `NARROW`) float32 columns from `c0` in AVX
/// registers, eight columns to a vector, when the CPU has AVX2; false (nothing done) otherwise.
fn narrow_columns<E: Element>(
    v: &[E],
    base: usize,
    row_stride: usize,
    n: usize,
    c0: usize,
    out: &mut [E],
    row_order: bool,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let (Some(vf), Some(of)) = (slice_as::<E, f32>(v), slice_as_mut::<E, f32>(out)) {
        if n > 0 && std::is_x86_feature_detected!("avx2") {
            for (k, o) in of.chunks_mut(8).enumerate() {
                // SAFETY: the CPU has AVX2 (detected just above).
                unsafe { avx::columns_f32(vf, base, row_stride, n, c0 + 8 * k, o, row_order) };
            }
            return true;
        }
    }
    false
}

simd_build! {
    /// Column sums of columns `cols` of a row-major region (element `v[base + i * row_stride + c]`
    /// for row `i < n`) into `out`: by pure cascade (`cascade_column_sum`), or with `row_order` in
    /// `scalar_row_sum`'s order. Each column gets exactly the additions of those functions, in
    /// their order (bit-identical), but the rows are read contiguously, a block of columns at a
    /// time, so a tall matrix streams through the cache once instead of once per column group.
    pub fn column_sums<E: Element>(
        v: &[E],
        base: usize,
        row_stride: usize,
        n: usize,
        cols: std::ops::Range<usize>,
        out: &mut [E],
        row_order: bool,
    ) {
        let mut acc = vec![<E::M as Arith>::zero(); 4 * 4 * COL_BLOCK];
        let mut c0 = cols.start;
        if !row_order {
            // whole register groups, a block at a time; the few columns left go below
            let end = cols.start + (cols.end - cols.start) / REG_COLS * REG_COLS;
            while c0 < end {
                let w = CASCADE_BLOCK.min(end - c0);
                let o = &mut out[c0 - cols.start..][..w];
                cascade_chunked::<E, REG_COLS>(v, base, row_stride, n, c0, w, o, &mut acc);
                c0 += w;
            }
            let end = c0 + (cols.end - c0) / REG_COLS_TAIL * REG_COLS_TAIL;
            if c0 < end {
                let w = end - c0;
                let o = &mut out[c0 - cols.start..][..w];
                cascade_chunked::<E, REG_COLS_TAIL>(v, base, row_stride, n, c0, w, o, &mut acc);
                c0 = end;
            }
        }
        while c0 < cols.end {
            let w = COL_BLOCK.min(cols.end - c0);
            let o = &mut out[c0 - cols.start..][..w];
            if w < NARROW && narrow_columns(v, base, row_stride, n, c0, o, row_order) {
                c0 += w;
                continue;
            }
            if row_order {
                // `row_sum`: four interleaved partials, the tail rows into the first, then in order
                let size_ilp = n / 4;
                streamed_multi_row::<E, 4>(v, base, row_stride, size_ilp, c0, w, &mut acc);
                for r in size_ilp * 4..n {
                    let row = &v[base + r * row_stride + c0..][..w];
                    for (a, x) in acc[..w].iter_mut().zip(row) {
                        *a = a.add(x.load());
                    }
                }
                for (c, o) in o.iter_mut().enumerate() {
                    let p = &acc;
                    *o = E::store(p[c].add(p[w + c]).add(p[2 * w + c]).add(p[3 * w + c]));
                }
            } else {
                streamed_multi_row::<E, 1>(v, base, row_stride, n, c0, w, &mut acc);
                for (o, a) in o.iter_mut().zip(&acc[..w]) {
                    *o = E::store(*a);
                }
            }
            c0 += w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_lanes_give_the_array_codes_bits() {
        let short = 8usize..200;
        for n in short.chain([1000, 4097, 65_536 + 13, 1_000_003]) {
            let xs: Vec<f32> = (0..n)
                .map(|i| ((i * 7919) % 1000) as f32 * 1e-3 + (i % 7) as f32 * 1e-7)
                .collect();
            let want = plain_lanes_sum::<f32, 8>(&xs);
            assert_eq!(contiguous_sum(&xs).to_bits(), want.to_bits(), "n={n}");
            let xd: Vec<f64> = xs.iter().map(|&x| x as f64 * 1.1).collect();
            let want = plain_lanes_sum::<f64, 4>(&xd);
            assert_eq!(contiguous_sum(&xd).to_bits(), want.to_bits(), "n={n}");
        }
        // 300 columns (more than one block; 64-column groups, a 16-column group and a few
        // left) of row-stride 310, several row counts (level carries, the row order's tail rows)
        // (and narrow regions: a few columns, ending at the buffer's last element)
        let regions = [
            (310usize, 3usize, 2usize..302usize),
            (10, 0, 0..10),
            (10, 0, 3..10),
            (7, 0, 6..7),
            (40, 0, 5..36),
        ];
        for rows in [1usize, 5, 17, 300, 4099, 70_001] {
            for (stride, b, cols) in regions.clone() {
                let v: Vec<f32> = (0..b + rows * stride)
                    .map(|i| (i % 97) as f32 * 0.37 + (i % 13) as f32 * 1e-6)
                    .collect();
                let mut out = vec![0f32; cols.len()];
                for row_order in [false, true] {
                    column_sums(&v, b, stride, rows, cols.clone(), &mut out, row_order);
                    for (c, o) in out.iter().enumerate() {
                        let load = |i: usize| v[b + i * stride + cols.start + c];
                        let want = if row_order {
                            scalar_row_sum(rows, load)
                        } else {
                            cascade_column_sum(rows, load)
                        };
                        assert_eq!(o.to_bits(), want.to_bits(), "rows {rows} column {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn one_vector_sums_are_the_lanes_sum() {
        for n in 8..16 {
            for seed in 0..50usize {
                let xs: Vec<f32> = (0..n)
                    .map(|i| match (i * 7 + seed * 13) % 11 {
                        0 => -0.0,
                        1 => 0.0,
                        2 if seed % 5 == 0 => f32::INFINITY,
                        _ => ((i * 7919 + seed * 104_729) % 2001) as f32 * 1e-3 - 1.0,
                    })
                    .collect();
                let want = plain_lanes_sum::<f32, 8>(&xs);
                assert_eq!(one_vector_sum(&xs).to_bits(), want.to_bits(), "{xs:?}");
            }
            let zeros = vec![-0.0f32; n];
            assert_eq!(
                one_vector_sum(&zeros).to_bits(),
                plain_lanes_sum::<f32, 8>(&zeros).to_bits()
            );
        }
    }

    #[test]
    fn row_sums_are_each_rows_contiguous_sum() {
        let v: Vec<f32> = (0..20_000)
            .map(|i| ((i * 7919) % 1000) as f32 * 1e-3 + 1e-7)
            .collect();
        for n in [1usize, 7, 8, 9, 15, 16, 33, 63, 64, 1000, 1003] {
            let bases: Vec<usize> = (0..15).map(|j| 5 + j * (n + 3)).collect();
            let mut out = vec![0f32; bases.len()];
            contiguous_sums(&v, |k| bases[k], n, &mut out);
            for (o, &b) in out.iter().zip(&bases) {
                assert_eq!(o.to_bits(), contiguous_sum(&v[b..b + n]).to_bits(), "n={n}");
            }
        }
    }

    #[test]
    fn small_rows_use_four_partials() {
        // ((x0+x4+x8+x9) + (x1+x5)) + (x2+x6) + (x3+x7)
        let xs: Vec<f32> = (0..10).map(|i| i as f32 * 0.1).collect();
        let p0 = ((xs[0] + xs[4]) + xs[8]) + xs[9];
        let expect = ((p0 + (xs[1] + xs[5])) + (xs[2] + xs[6])) + (xs[3] + xs[7]);
        assert_eq!(contiguous_sum(&xs), expect);
    }
}

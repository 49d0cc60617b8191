//! Float32 and float64 max/min kernels in SIMD registers (AVX-512 or AVX2, one generic body
//! over `vreg::Reg`): a whole run's extreme (`minmax`) and the per-column extremes of a matrix
//! read row by row (`column_extremes`). `reduce.rs` decides which layout goes where and settles
//! signed zeros; here NaNs are only flagged, so any grouping of lanes gives the same result.
use super::reduce::in_order_extreme;
use super::sleef;
use super::vreg::Float;
#[cfg(target_arch = "x86_64")]
use super::vreg::Reg;
use crate::backend::storage::Element;

/// The layout of `sum(dim=0)` / `amax(dim=0)` of a matrix (one strided reduced dim, the kept
/// elements one contiguous run: one kept dim, as `sum_order` counts columns along it): column
/// `c`'s element in row `r` is `v[base + r * row_stride + c]`.
#[derive(Clone, Copy)]
pub(super) struct Columns {
    pub base: usize,
    pub row_stride: usize,
    pub rows: usize,
}

/// `out[k]` = the max (min) of column `k` of `c` over its rows, NaN if the column holds one;
/// on a tie the later value if `later`, else the earlier. In AVX-512 or AVX2 registers where
/// the CPU has them (`column_rows`), else a row at a time.
pub(super) fn column_extremes<T: Float + Element<M = T>>(
    max: bool,
    later: bool,
    out: &mut [T],
    v: &[T],
    c: Columns,
) {
    if out.is_empty() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY (both): the CPU has the features each is built for (checked just before).
        if sleef::has_avx512() {
            return unsafe { column_rows_avx512(max, later, out, v, c) };
        }
        if sleef::has_avx2() {
            return unsafe { column_rows_avx2(max, later, out, v, c) };
        }
    }
    column_rows_plain(max, later, out, v, c)
}

/// `column_extremes` a row at a time: compares and selects, a NaN sticking once taken, then
/// the canonical NaN for every NaN (the one `settled` gives).
pub(super) fn column_rows_plain<T: Float + Element<M = T>>(
    max: bool,
    later: bool,
    out: &mut [T],
    v: &[T],
    c: Columns,
) {
    let w = out.len();
    out.copy_from_slice(&v[c.base..][..w]);
    let beats = |p: T, q: T| if max { p > q } else { p < q };
    for row in (1..c.rows).map(|r| &v[c.base + r * c.row_stride..][..w]) {
        for (a, &x) in out.iter_mut().zip(row) {
            let keep = if later {
                beats(*a, x)
            } else {
                !beats(x, *a) && !x.is_nan()
            };
            *a = if keep || a.is_nan() { *a } else { x };
        }
    }
    for a in out.iter_mut().filter(|a| a.is_nan()) {
        *a = T::NAN;
    }
}

/// `column_rows` built for AVX-512 (16 floats or 8 doubles a register).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
pub(super) fn column_rows_avx512<T: Float>(
    max: bool,
    later: bool,
    out: &mut [T],
    v: &[T],
    c: Columns,
) {
    // SAFETY: this function's CPU has AVX-512F.
    unsafe { column_rows::<T::Z>(max, later, out, v, c) }
}

/// `column_rows` built for AVX2 (8 floats or 4 doubles a register).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn column_rows_avx2<T: Float>(
    max: bool,
    later: bool,
    out: &mut [T],
    v: &[T],
    c: Columns,
) {
    // SAFETY: this function's CPU has AVX2.
    unsafe { column_rows::<T::Y>(max, later, out, v, c) }
}

/// `column_extremes`' row loop in registers `R`: four registers of columns at a time (the last
/// ones masked) down all the rows, so each row's step depends on registers rather than on the
/// store of the row before.
///
/// # Safety
/// The CPU has `R`'s features (inlined into the builds above).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn column_rows<R: Reg>(max: bool, later: bool, out: &mut [R::T], v: &[R::T], c: Columns) {
    let Columns {
        base: first,
        row_stride,
        rows: n,
    } = c;
    let (w, l) = (out.len(), R::LANES);
    assert!(n >= 1 && first + (n - 1) * row_stride + w <= v.len());
    for b in (0..w).step_by(4 * l) {
        let mask = |k: usize| {
            let left = (w - b).saturating_sub(l * k).min(l);
            ((1u64 << left) - 1) as u32
        };
        let m = [mask(0), mask(1), mask(2), mask(3)];
        // SAFETY (loads): each mask's lanes lie in row `r`'s `w` columns from `b`, inside `v`
        // (asserted above); masked-off lanes are not accessed. The CPU has `R`'s features.
        let load = |r: usize, k: usize| unsafe {
            R::load_masked(m[k], v.as_ptr().add(first + r * row_stride + b + l * k))
        };
        let mut acc = [load(0, 0), load(0, 1), load(0, 2), load(0, 3)];
        // SAFETY: the CPU has `R`'s features.
        let unord = |x: R| unsafe { R::nan_lanes(x) };
        let mut nan = acc.map(unord);
        for r in 1..n {
            for (k, (a, f)) in acc.iter_mut().zip(&mut nan).enumerate() {
                let x = load(r, k);
                *f |= unord(x);
                // `R::max(p, q)` is `p > q ? p : q`, so with the new value second it wins ties
                // (`later`), first it loses them. NaNs are noted apart (in the masks), which
                // keeps the chain from row to row one instruction long.
                let (p, q) = if later { (*a, x) } else { (x, *a) };
                // SAFETY: as above.
                *a = unsafe {
                    if max {
                        R::max(p, q)
                    } else {
                        R::min(p, q)
                    }
                };
            }
        }
        for (k, (a, f)) in acc.into_iter().zip(nan).enumerate() {
            // SAFETY: the mask's lanes are `out[b + l * k..]`, inside `out` (`mask` stops at
            // `w`); the CPU has `R`'s features.
            unsafe {
                let a = R::blend(f, a, R::splat(R::T::NAN));
                R::store_masked(out.as_mut_ptr().add(b + l * k), m[k], a);
            }
        }
    }
}

/// `minmax` built for AVX-512 (16 floats or 8 doubles a register).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
pub(super) fn minmax_avx512<T: Float + Element<M = T>>(max: bool, x: &[T]) -> (T, bool) {
    // SAFETY: this function's CPU has AVX-512F.
    unsafe { minmax::<T::Z>(max, x) }
}

/// `minmax` built for AVX2 (8 floats or 4 doubles a register).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn minmax_avx2<T: Float + Element<M = T>>(max: bool, x: &[T]) -> (T, bool) {
    // SAFETY: this function's CPU has AVX2.
    unsafe { minmax::<T::Y>(max, x) }
}

/// `extreme_f32` of a non-empty float32 or float64 run, from one register's lanes on wholly
/// in registers `R`: four accumulators over blocks of four registers, one over the
/// whole registers left, and the last register's worth (overlapping elements already seen: a
/// repeat changes no extreme) for a ragged end; then
/// the lanes' extreme. `vmaxps v, acc` is `v > acc ? v : acc`, as the in-order fold; NaNs are
/// flagged apart (and decided by `settled`), so any grouping gives the same extreme. Written
/// with intrinsics: the generic lanes fold compiles to shuffles here and ran at a third of
/// this speed (max over dim 1 of 4096×1024), and a scalar tail after the blocks made a row of
/// 100 floats cost 10x PyTorch's.
///
/// # Safety
/// The CPU has `R`'s features (inlined into the builds above).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn minmax<R: Reg>(max: bool, x: &[R::T]) -> (R::T, bool)
where
    R::T: Element<M = R::T>,
{
    let (n, l) = (x.len(), R::LANES);
    if n < l {
        return in_order_extreme(max, x);
    }
    // SAFETY (the register ops): the CPU has `R`'s features.
    let pick = |v: R, a: R| unsafe {
        if max {
            R::max(v, a)
        } else {
            R::min(v, a)
        }
    };
    let load = |i: usize| {
        // SAFETY: every caller below passes `i + l <= n`.
        unsafe { R::load(x.as_ptr().add(i)) }
    };
    let mut acc = [load(0); 4];
    let mut nan = 0u32;
    let mut take = |a: &mut R, i: usize| {
        let v = load(i);
        // SAFETY: as for `pick`.
        nan |= unsafe { R::nan_lanes(v) };
        *a = pick(v, *a);
    };
    let mut i = 0;
    while i + 4 * l <= n {
        for (k, a) in acc.iter_mut().enumerate() {
            take(a, i + l * k);
        }
        i += 4 * l;
    }
    while i + l <= n {
        take(&mut acc[0], i);
        i += l;
    }
    if i < n {
        take(&mut acc[1], n - l);
    }
    let v = pick(pick(acc[0], acc[1]), pick(acc[2], acc[3]));
    // SAFETY: as for `pick`.
    let m = unsafe {
        if max {
            R::reduce_max(v)
        } else {
            R::reduce_min(v)
        }
    };
    (m, nan != 0)
}

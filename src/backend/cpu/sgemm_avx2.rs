//! `sgemm`'s kernel for CPUs with AVX2 and FMA but not AVX-512 (Zen 3, Intel before Ice
//! Lake): a 6×16 tile, twelve 8-float accumulators, two B registers and a broadcast of A, 15
//! of the 16 vector registers. Its packing mirrors `sgemm_pack.rs` at 8 lanes: lines side by
//! side are copied a depth at a time, lines along the depth are transposed 8×8 in registers,
//! other strides go one element at a time.
use super::sgemm::Kernel;
use super::sleef::avx2::first;
use std::arch::x86_64::*;

/// The AVX2 tile: 6 rows by two 8-float registers.
pub(in crate::backend::cpu) struct Avx2;

impl Kernel for Avx2 {
    const MR: usize = 6;
    const NR: usize = 16;
    /// Half of a 512 KB L2 cache.
    const A_BLOCK: usize = 1 << 16;

    unsafe fn pack(
        dst: &mut [f32],
        base: *const f32,
        strides: (usize, usize),
        k: usize,
        lines: usize,
        width: usize,
    ) {
        // SAFETY: the caller's promises (widths up to 16, AVX2).
        unsafe { pack_strip(dst, base, strides, k, lines, width) }
    }

    unsafe fn tile(
        k: usize,
        ap: *const f32,
        bp: *const f32,
        c: *mut f32,
        c_rs: usize,
        h: usize,
        w: usize,
    ) {
        // SAFETY: the caller's promises.
        unsafe { tile(k, ap, bp, c, c_rs, h, w) }
    }
}

/// `Kernel::tile` on AVX2.
///
/// # Safety
/// As `Kernel::tile`; the CPU has AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
unsafe fn tile(
    k: usize,
    ap: *const f32,
    bp: *const f32,
    c: *mut f32,
    c_rs: usize,
    h: usize,
    w: usize,
) {
    let mut acc = [[_mm256_setzero_ps(); 2]; Avx2::MR];
    for p in 0..k {
        let b0 = _mm256_loadu_ps(bp.add(p * Avx2::NR));
        let b1 = _mm256_loadu_ps(bp.add(p * Avx2::NR + 8));
        for (i, row) in acc.iter_mut().enumerate() {
            let x = _mm256_broadcast_ss(&*ap.add(p * Avx2::MR + i));
            row[0] = _mm256_fmadd_ps(x, b0, row[0]);
            row[1] = _mm256_fmadd_ps(x, b1, row[1]);
        }
    }
    let rows = acc.iter().enumerate().take(h);
    if w == Avx2::NR {
        for (i, row) in rows {
            let out = c.add(i * c_rs);
            _mm256_storeu_ps(out, row[0]);
            _mm256_storeu_ps(out.add(8), row[1]);
        }
    } else {
        let (m0, m1) = (first(w), first(w.saturating_sub(8)));
        for (i, row) in rows {
            let out = c.add(i * c_rs);
            _mm256_maskstore_ps(out, m0, row[0]);
            _mm256_maskstore_ps(out.add(8), m1, row[1]);
        }
    }
}

/// `Kernel::pack` on AVX2.
///
/// # Safety
/// As `Kernel::pack`, with `width <= 16`; the CPU has AVX2.
#[target_feature(enable = "avx2,fma")]
unsafe fn pack_strip(
    dst: &mut [f32],
    base: *const f32,
    (ls, ps): (usize, usize),
    k: usize,
    lines: usize,
    width: usize,
) {
    let dst = &mut dst[..k * width];
    // the vector paths write every lane up to `width`, the zeros past `lines` included
    if ls == 1 {
        let loads = [first(lines), first(lines.saturating_sub(8))];
        let stores = [first(width), first(width.saturating_sub(8))];
        let vectors = width.div_ceil(8);
        for p in 0..k {
            let (from, to) = (base.add(p * ps), dst.as_mut_ptr().add(p * width));
            for v in 0..vectors {
                let x = _mm256_maskload_ps(from.add(8 * v), loads[v]);
                _mm256_maskstore_ps(to.add(8 * v), stores[v], x);
            }
        }
    } else if ps == 1 {
        transposed(dst, base, ls, k, lines, width);
    } else {
        if lines < width {
            dst.fill(0.0);
        }
        for l in 0..lines {
            for p in 0..k {
                dst[p * width + l] = *base.add(l * ls + p * ps);
            }
        }
    }
}

/// `pack_strip` of lines each contiguous along the depth: blocks of 8 lines by 8 depths
/// loaded as rows, transposed, stored as depths (the lanes up to `width`).
#[target_feature(enable = "avx2,fma")]
unsafe fn transposed(
    dst: &mut [f32],
    base: *const f32,
    ls: usize,
    k: usize,
    lines: usize,
    width: usize,
) {
    for g in (0..width).step_by(8) {
        let (span, live) = (width - g, lines.saturating_sub(g).min(8));
        let store = first(span);
        for p0 in (0..k).step_by(8) {
            let depths = (k - p0).min(8);
            let load = first(depths);
            let mut r = [_mm256_setzero_ps(); 8];
            for (l, r) in r.iter_mut().enumerate().take(live) {
                let from = base.add((g + l) * ls + p0);
                *r = if depths == 8 {
                    _mm256_loadu_ps(from)
                } else {
                    _mm256_maskload_ps(from, load)
                };
            }
            transpose8(&mut r);
            for (p, r) in r.iter().enumerate().take(depths) {
                let to = dst.as_mut_ptr().add((p0 + p) * width + g);
                if span >= 8 {
                    _mm256_storeu_ps(to, *r);
                } else {
                    _mm256_maskstore_ps(to, store, *r);
                }
            }
        }
    }
}

/// Transposes the 8×8 matrix whose rows are `r`: pairs of rows interleaved, then pairs of
/// pairs, then the 128-bit halves exchanged.
#[inline(always)]
unsafe fn transpose8(r: &mut [__m256; 8]) {
    let (t0, t1) = (
        _mm256_unpacklo_ps(r[0], r[1]),
        _mm256_unpackhi_ps(r[0], r[1]),
    );
    let (t2, t3) = (
        _mm256_unpacklo_ps(r[2], r[3]),
        _mm256_unpackhi_ps(r[2], r[3]),
    );
    let (t4, t5) = (
        _mm256_unpacklo_ps(r[4], r[5]),
        _mm256_unpackhi_ps(r[4], r[5]),
    );
    let (t6, t7) = (
        _mm256_unpacklo_ps(r[6], r[7]),
        _mm256_unpackhi_ps(r[6], r[7]),
    );
    // columns 0|4, 1|5, 2|6, 3|7 of rows 0-3 and of rows 4-7
    let low = [
        _mm256_shuffle_ps::<0x44>(t0, t2),
        _mm256_shuffle_ps::<0xEE>(t0, t2),
        _mm256_shuffle_ps::<0x44>(t1, t3),
        _mm256_shuffle_ps::<0xEE>(t1, t3),
    ];
    let high = [
        _mm256_shuffle_ps::<0x44>(t4, t6),
        _mm256_shuffle_ps::<0xEE>(t4, t6),
        _mm256_shuffle_ps::<0x44>(t5, t7),
        _mm256_shuffle_ps::<0xEE>(t5, t7),
    ];
    for c in 0..4 {
        r[c] = _mm256_permute2f128_ps::<0x20>(low[c], high[c]);
        r[c + 4] = _mm256_permute2f128_ps::<0x31>(low[c], high[c]);
    }
}

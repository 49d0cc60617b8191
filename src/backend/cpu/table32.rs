//! What the table kernels (`exp_table`, `tanh_table`) share: 32-entry f32 tables read into
//! registers and looked up per lane, the dispatch to their 16- and 8-lane loops with the scalar
//! function for the tail, and the lanes a loop hands back to the scalar function. x86-64 only:
//! elsewhere the kernels map their scalar function.
use std::arch::x86_64::*;

/// A lane loop: whole vectors from the start of `x` into `out`; returns how many it did.
pub type Lanes = unsafe fn(&[f32], &mut [f32]) -> usize;

/// `out[i] = f(x[i])` (equal lengths): `lanes16` on an AVX-512 F/DQ CPU, else `lanes8` on an
/// AVX2+FMA one, then `f` for what they left. Both loops give `f`'s bits, so the CPU never shows.
pub fn map(x: &[f32], out: &mut [f32], f: fn(f32) -> f32, lanes16: Lanes, lanes8: Lanes) {
    let n = x.len().min(out.len());
    let mut done = 0;
    if super::sleef::has_avx512() && std::is_x86_feature_detected!("avx512dq") {
        // SAFETY: the CPU has AVX-512F/DQ, AVX2 and FMA (detected just above), all that a
        // 16-lane loop's `target_feature` asks.
        done = unsafe { lanes16(&x[..n], &mut out[..n]) };
    } else if super::sleef::has_avx2() {
        // SAFETY: the CPU has AVX2 and FMA (detected just above).
        done = unsafe { lanes8(&x[..n], &mut out[..n]) };
    }
    for (o, &v) in out[done..n].iter_mut().zip(&x[done..n]) {
        *o = f(v);
    }
}

/// The lanes of a vector that its loop's fast path does not cover, redone by `f`.
#[inline]
pub fn redo(x: &[f32], y: &mut [f32], covered: impl Fn(f32) -> bool, f: fn(f32) -> f32) {
    for (y, &v) in y.iter_mut().zip(x) {
        if !covered(v) {
            *y = f(v);
        }
    }
}

/// A 32-float table (bit patterns) as two vectors of 16, for `_mm512_permutex2var_ps`.
#[inline]
#[target_feature(enable = "avx512f")]
pub fn halves(t: &[u32; 32]) -> (__m512, __m512) {
    let p = t.as_ptr() as *const f32;
    // SAFETY: the table holds 32 floats, read as two vectors of 16.
    unsafe { (_mm512_loadu_ps(p), _mm512_loadu_ps(p.add(16))) }
}

/// A 32-float table (bit patterns) as four vectors of 8, for `lookup`.
#[inline]
#[target_feature(enable = "avx2")]
pub fn quarters(t: &[u32; 32]) -> [__m256; 4] {
    let p = t.as_ptr() as *const f32;
    // SAFETY: the table holds 32 floats, read as four vectors of 8.
    std::array::from_fn(|i| unsafe { _mm256_loadu_ps(p.add(8 * i)) })
}

/// Bits 3 and 4 of each lane of `k` moved to the sign bit, as `lookup` reads them.
#[inline]
#[target_feature(enable = "avx2")]
pub fn quarter_bits(k: __m256i) -> (__m256, __m256) {
    (
        _mm256_castsi256_ps(_mm256_slli_epi32::<28>(k)),
        _mm256_castsi256_ps(_mm256_slli_epi32::<27>(k)),
    )
}

/// Entry `k & 31` of a table held as four vectors of 8: a permute within each quarter,
/// then bits 3 and 4 of `k` (from `quarter_bits`) pick the quarter (blendv reads a lane's
/// sign bit).
#[inline]
#[target_feature(enable = "avx2")]
pub fn lookup(q: &[__m256; 4], k: __m256i, (bit3, bit4): (__m256, __m256)) -> __m256 {
    let low = _mm256_blendv_ps(
        _mm256_permutevar8x32_ps(q[0], k),
        _mm256_permutevar8x32_ps(q[1], k),
        bit3,
    );
    let high = _mm256_blendv_ps(
        _mm256_permutevar8x32_ps(q[2], k),
        _mm256_permutevar8x32_ps(q[3], k),
        bit3,
    );
    _mm256_blendv_ps(low, high, bit4)
}

/// Test support: `map` and, where the CPU has AVX2, the 8-lane loop alone (its tail by `f`)
/// give `f`'s bits on `xs` (NaN for NaN).
#[cfg(test)]
pub fn assert_builds_agree(
    name: &str,
    xs: &[f32],
    f: fn(f32) -> f32,
    lanes16: Lanes,
    lanes8: Lanes,
) {
    let want: Vec<u32> = xs.iter().map(|&x| f(x).to_bits()).collect();
    let mut out = vec![0f32; xs.len()];
    let check = |out: &[f32]| {
        for ((&o, &w), &x) in out.iter().zip(&want).zip(xs) {
            assert!(
                o.to_bits() == w || o.is_nan() && x.is_nan(),
                "{name}({x:e})"
            );
        }
    };
    map(xs, &mut out, f, lanes16, lanes8);
    check(&out);
    if super::sleef::has_avx2() {
        out.fill(0.0);
        // SAFETY: the CPU has AVX2 and FMA.
        let done = unsafe { lanes8(xs, &mut out) };
        for (o, &v) in out[done..].iter_mut().zip(&xs[done..]) {
            *o = f(v);
        }
        check(&out);
    }
}

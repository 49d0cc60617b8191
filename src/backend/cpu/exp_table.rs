//! `torch.exp` of float32 tensors: Tang's table method computed in f32, 16 lanes a vector.
//!
//! `e^x = 2^m * 2^(j/32) * e^r` with `k = 32m + j` the integer nearest `x * 32/ln 2` and
//! `|r| <= ln(2)/64`. `2^(j/32)` is a table entry held as two floats (`HI + LO`, 48 bits), and
//! the sum `HI + (HI * (e^r - 1) + LO)` is rounded once at the end, so the result is within
//! 0.525 ulp of e^x and is the correctly rounded value for all but 0.04% of floats (checked
//! against libm over every 13th float of the fast range). PyTorch's own kernel (MKL's VML,
//! closed code) is within 1 ulp; on its sampled outputs (`tests/data/vmath_golden.txt`) this
//! agrees within a few in 9000 as often as the correctly rounded value does.
//!
//! Why not `vmath::exp` (f64, correctly rounded): 8 lanes and a degree-12 polynomial cost
//! 1.8 cycles an element, twice MKL's on a core with two FMA pipes; this is 16 vector
//! operations for 16 elements (it was 24 with `r` carried as two floats and a longer
//! polynomial, for 0.035% instead of 0.04% not correctly rounded).
//!
//! The fast path covers `[-87, 88]`, where the result is a normal float; beyond it infinities
//! and zeros are set directly, and NaN and the two narrow bands between go to `vmath::exp`. Every
//! build (AVX-512, AVX2, scalar) runs the same operations, so the bits never depend on the CPU.

/// 2^(j/32) rounded to f32, and the remainder `2^(j/32) - HI[j]` rounded to f32 (bit
/// patterns, from a 60-digit computation).
const HI: [u32; 32] = [
    0x3f800000, 0x3f82cd87, 0x3f85aac3, 0x3f88980f, 0x3f8b95c2, 0x3f8ea43a, 0x3f91c3d3, 0x3f94f4f0,
    0x3f9837f0, 0x3f9b8d3a, 0x3f9ef532, 0x3fa27043, 0x3fa5fed7, 0x3fa9a15b, 0x3fad583f, 0x3fb123f6,
    0x3fb504f3, 0x3fb8fbaf, 0x3fbd08a4, 0x3fc12c4d, 0x3fc5672a, 0x3fc9b9be, 0x3fce248c, 0x3fd2a81e,
    0x3fd744fd, 0x3fdbfbb8, 0x3fe0ccdf, 0x3fe5b907, 0x3feac0c7, 0x3fefe4ba, 0x3ff5257d, 0x3ffa83b3,
];
const LO: [u32; 32] = [
    0x00000000, 0xb34ea7a9, 0x334f9891, 0xb37eda4b, 0xb260aba1, 0xb3697465, 0x33675624, 0xb32e0212,
    0x33231b71, 0xb30c5563, 0x33412342, 0x30c3125a, 0xb32c9d5e, 0xb3162b08, 0xb22deaf6, 0xb37c5aa8,
    0x32cfe77a, 0x330ec5f7, 0xb3414fe8, 0xb2d6663e, 0x320aa837, 0xb37323a2, 0x3228fc24, 0xb35c1daa,
    0xb2d4a58a, 0xb3504a1c, 0xb21eab59, 0xb2441be6, 0xb24116de, 0xb348464a, 0x32292436, 0xb2923758,
];
/// 1.5 * 2^23: adding it rounds to an integer, which the low mantissa bits then hold.
const MAGIC: f32 = 12_582_912.0;
/// 32 / ln 2.
const SCALE: f32 = f32::from_bits(0x4238_aa3b);
/// ln(2)/32 = C_HI + C_LO; C_HI has 12 significant bits, so `k * C_HI` is exact for the
/// |k| < 4096 of the fast range (Cody and Waite's reduction).
const C_HI: f32 = f32::from_bits(0x3cb1_7000);
const C_LO: f32 = f32::from_bits(0x3585_fdf4);
/// e^r - 1 - r = r^2 (1/2 + r/6 + r^2/24) + O(r^5): the rest is below 2^-39 at
/// |r| <= ln(2)/64, against e^x's half ulp of 2^-25 relative.
const P: [f32; 3] = [1.0 / 24.0, 1.0 / 6.0, 0.5];
/// The fast path's range: results there are normal floats and `m` stays in [-126, 126].
const FAST_MIN: f32 = -87.0;
const FAST_MAX: f32 = 88.0;
/// Beyond these, e^x rounds to 0 and to infinity (as `vmath::exp` gives it: tested).
const ZERO_BELOW: f32 = -104.0;
const INF_ABOVE: f32 = 89.0;

/// e^x as the tensor kernel computes it: the fast path, set infinities and zeros beyond its
/// range (so a tensor of -inf costs no libm calls), `vmath::exp` in the bands between (NaN
/// passes through it).
#[inline]
pub fn exp(x: f32) -> f32 {
    if (FAST_MIN..=FAST_MAX).contains(&x) {
        fast(x)
    } else if x > INF_ABOVE {
        f32::INFINITY
    } else if x < ZERO_BELOW {
        0.0
    } else {
        super::vmath::exp(x)
    }
}

/// The table method for `x` in the fast range, step for step as the vector kernels do it.
#[inline(always)]
fn fast(x: f32) -> f32 {
    let t = x.mul_add(SCALE, MAGIC);
    let kf = t - MAGIC;
    let k = (t.to_bits() as i32).wrapping_sub(MAGIC.to_bits() as i32);
    let (th, tl) = (
        f32::from_bits(HI[(k & 31) as usize]),
        f32::from_bits(LO[(k & 31) as usize]),
    );
    // x - k C_HI is exact; then one rounding, within 2^-25 of |r| <= 0.0109
    let r = kf.mul_add(-C_LO, kf.mul_add(-C_HI, x));
    let q = (r * r).mul_add(P[0].mul_add(r, P[1]).mul_add(r, P[2]), r); // e^r - 1
    let y = th + th.mul_add(q, tl);
    f32::from_bits((y.to_bits() as i32).wrapping_add((k >> 5) << 23) as u32)
}

/// `out[i] = exp(x[i])` (equal lengths).
pub fn exp_slice(x: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    super::table32::map(x, out, exp, lanes16::exp, lanes8::exp);
    #[cfg(not(target_arch = "x86_64"))]
    out.iter_mut().zip(x).for_each(|(o, &v)| *o = exp(v));
}

/// Whether the vector loops' fast path covers `x`.
#[cfg(target_arch = "x86_64")]
fn covered(x: f32) -> bool {
    (FAST_MIN..=FAST_MAX).contains(&x)
}

#[cfg(target_arch = "x86_64")]
mod lanes16 {
    use super::super::table32::{halves, redo};
    use super::*;
    use std::arch::x86_64::*;

    /// `fast` on whole vectors of 16 from the start of `x`; returns how many it did.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn exp(x: &[f32], out: &mut [f32]) -> usize {
        let ((h0, h1), (l0, l1)) = (halves(&HI), halves(&LO));
        let s = _mm512_set1_ps;
        let (magic, scale, nc_hi, nc_lo) = (s(MAGIC), s(SCALE), s(-C_HI), s(-C_LO));
        let (p0, p1, p2, to_m) = (s(P[0]), s(P[1]), s(P[2]), s(1.0 / 32.0));
        let (lo, hi) = (s(FAST_MIN), s(FAST_MAX));
        let whole = x.len() / 16 * 16;
        for (xs, os) in x[..whole]
            .chunks_exact(16)
            .zip(out[..whole].chunks_exact_mut(16))
        {
            // SAFETY: `xs` and `os` hold 16 floats each.
            let v = unsafe { _mm512_loadu_ps(xs.as_ptr()) };
            let t = _mm512_fmadd_ps(v, scale, magic);
            let kf = _mm512_sub_ps(t, magic);
            // the permutes read the low 5 bits of each lane, which are j (MAGIC's are 0)
            let k = _mm512_castps_si512(t);
            let th = _mm512_permutex2var_ps(h0, k, h1);
            let tl = _mm512_permutex2var_ps(l0, k, l1);
            let r = _mm512_fmadd_ps(kf, nc_lo, _mm512_fmadd_ps(kf, nc_hi, v));
            let p = _mm512_fmadd_ps(_mm512_fmadd_ps(p0, r, p1), r, p2);
            let q = _mm512_fmadd_ps(_mm512_mul_ps(r, r), p, r);
            let y = _mm512_add_ps(th, _mm512_fmadd_ps(th, q, tl));
            // y * 2^floor(k/32): exact, the result being a normal float in the fast range
            let y = _mm512_scalef_ps(y, _mm512_mul_ps(kf, to_m));
            let fast = _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(
                _mm512_cmp_ps_mask::<_CMP_GE_OQ>(v, lo),
                v,
                hi,
            );
            // SAFETY: as above.
            unsafe { _mm512_storeu_ps(os.as_mut_ptr(), y) };
            if fast != 0xffff {
                redo(xs, os, covered, super::exp);
            }
        }
        whole
    }
}

#[cfg(target_arch = "x86_64")]
mod lanes8 {
    use super::super::table32::{lookup, quarter_bits, quarters, redo};
    use super::*;
    use std::arch::x86_64::*;

    /// `fast` on whole vectors of 8 from the start of `x`; returns how many it did.
    #[target_feature(enable = "avx2,fma")]
    pub fn exp(x: &[f32], out: &mut [f32]) -> usize {
        let (hq, lq) = (quarters(&HI), quarters(&LO));
        let s = _mm256_set1_ps;
        let (magic, scale, nc_hi, nc_lo) = (s(MAGIC), s(SCALE), s(-C_HI), s(-C_LO));
        let (p0, p1, p2) = (s(P[0]), s(P[1]), s(P[2]));
        let (lo, hi) = (s(FAST_MIN), s(FAST_MAX));
        let whole = x.len() / 8 * 8;
        for (xs, os) in x[..whole]
            .chunks_exact(8)
            .zip(out[..whole].chunks_exact_mut(8))
        {
            // SAFETY: `xs` and `os` hold 8 floats each.
            let v = unsafe { _mm256_loadu_ps(xs.as_ptr()) };
            let t = _mm256_fmadd_ps(v, scale, magic);
            let kf = _mm256_sub_ps(t, magic);
            let k = _mm256_sub_epi32(_mm256_castps_si256(t), _mm256_castps_si256(magic));
            let bits = quarter_bits(k);
            let (th, tl) = (lookup(&hq, k, bits), lookup(&lq, k, bits));
            let r = _mm256_fmadd_ps(kf, nc_lo, _mm256_fmadd_ps(kf, nc_hi, v));
            let p = _mm256_fmadd_ps(_mm256_fmadd_ps(p0, r, p1), r, p2);
            let q = _mm256_fmadd_ps(_mm256_mul_ps(r, r), p, r);
            let y = _mm256_add_ps(th, _mm256_fmadd_ps(th, q, tl));
            let m = _mm256_slli_epi32::<23>(_mm256_srai_epi32::<5>(k));
            let y = _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(y), m));
            let fast = _mm256_movemask_ps(_mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GE_OQ>(v, lo),
                _mm256_cmp_ps::<_CMP_LE_OQ>(v, hi),
            ));
            // SAFETY: as above.
            unsafe { _mm256_storeu_ps(os.as_mut_ptr(), y) };
            if fast != 0xff {
                redo(xs, os, covered, super::exp);
            }
        }
        whole
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A float's distance from e^x in units of the last place of the correctly rounded value.
    fn ulps(y: f32, x: f32) -> f64 {
        let e = (x as f64).exp();
        let c = e as f32;
        let ulp = (f32::from_bits(c.to_bits() + 1) - c) as f64;
        (y as f64 - e).abs() / ulp
    }

    /// Every 61st float of the fast range (37 million): within 0.53 ulp, and correctly
    /// rounded for all but 0.05%.
    #[test]
    fn within_half_an_ulp_and_nearly_always_correctly_rounded() {
        let (mut n, mut off, mut worst) = (0u64, 0u64, 0f64);
        for b in (0u32..0x42b0_0000).step_by(61) {
            for x in [f32::from_bits(b), -f32::from_bits(b)] {
                if !(FAST_MIN..=FAST_MAX).contains(&x) {
                    continue;
                }
                let y = exp(x);
                worst = worst.max(ulps(y, x));
                off += (y != (x as f64).exp() as f32) as u64;
                n += 1;
            }
        }
        assert!(worst < 0.53, "{worst} ulp");
        assert!(off * 2000 < n, "{off} of {n} not correctly rounded");
    }

    /// PyTorch's sampled exp bits: this agrees with them as often as the correctly rounded
    /// value does, give or take a few of the ~9900 (10 fewer today).
    #[test]
    fn agrees_with_pytorch_as_often_as_the_correctly_rounded_value() {
        let golden = include_str!("../../../tests/data/vmath_golden.txt");
        let (mut ours, mut cr) = (0i32, 0i32);
        for l in golden.lines().filter(|l| !l.starts_with('#')) {
            let mut w = l.split(' ').map(|h| u32::from_str_radix(h, 16).unwrap());
            let (x, want) = (f32::from_bits(w.next().unwrap()), w.next().unwrap());
            let same = |y: f32| y.to_bits() == want || y.is_nan() && f32::from_bits(want).is_nan();
            ours += same(exp(x)) as i32;
            cr += same(super::super::vmath::exp(x)) as i32;
        }
        assert!(ours >= cr - 20, "{ours} against {cr}");
    }

    /// The vector builds give the scalar function's bits, the edges included: whole vectors,
    /// tails, and lanes outside the fast range among fast ones.
    #[test]
    fn every_build_gives_the_scalar_bits() {
        let mut xs: Vec<f32> = (0..40_000)
            .map(|i| ((i as f32 * 0.618_034).fract() - 0.5) * 220.0)
            .collect();
        xs.extend([
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            88.0,
            88.72283,
            88.72284,
            -87.0,
            -87.5,
            -103.9,
            -104.5,
            1e-30,
            -1e-30,
            f32::MAX,
            f32::MIN,
        ]);
        #[cfg(target_arch = "x86_64")]
        super::super::table32::assert_builds_agree("exp", &xs, exp, lanes16::exp, lanes8::exp);
        // beyond the fast range, the correctly rounded route's values
        for x in [
            88.5f32, 88.72283, 88.72284, 89.0, 89.5, 1e30, -87.5, -103.9, -104.0, -104.5,
        ] {
            let want = super::super::vmath::exp(x);
            assert_eq!(exp(x).to_bits(), want.to_bits(), "exp({x:e})");
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-0.0), 1.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert!(exp(f32::NAN).is_nan());
    }
}

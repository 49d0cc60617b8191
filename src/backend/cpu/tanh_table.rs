//! `torch.tanh` of float32 tensors: a table of 32 polynomials computed in f32, 16 lanes a vector.
//!
//! For `a = |x|` in bin `k` (`|a - k/4| <= 1/8`, k = 0..31, so `a < 7.875`) the result is
//! `m*HI + m*(LO + r*P(r))` with `r = a - k/4` and `m = min(a, 9/8)`: a degree-6 polynomial in
//! `r` whose constant term is two floats, fitted to `tanh(a)/a` below 9/8 (smooth, `F(0) = 1`,
//! so tiny `a` keep their relative accuracy) and to `tanh(a)/(9/8)` above (flatter there, so
//! the correction after `HI` is smaller). It is rounded once at the end (one fused
//! multiply-add): within 0.6 ulp, and the correctly rounded value for all but 0.03% of floats
//! (1.5% at worst in one bin; every float of the range was checked). PyTorch's kernel (MKL's
//! VML, closed code) is within 1 ulp and not correctly rounded either: on a million sampled
//! floats this agrees with it 99.37% of the time, the correctly rounded value 99.42%.
//! `tests/data/gen_tanh_table.py` made the tables (each coefficient rounded to f32 in turn and
//! the later ones refitted; the fits are within 2^-31 relative).
//!
//! Why not `vmath::tanh` (f64, correctly rounded): its f64 division and 8 lanes cost 3 cycles an
//! element, four times MKL's; this is eight permutes, eight fused multiply-adds and a few more
//! operations for 16 elements.
//!
//! From 7.875 on the lanes are redone one by one: ±1 from where the correctly rounded value is
//! 1, `vmath::tanh` between (and for NaN). Every build (AVX-512, AVX2, scalar) runs the same
//! operations, so the bits never depend on the CPU.

/// Coefficients of bin k's polynomial (f32 bit patterns): `HI[k] + LO[k]` the constant term,
/// `C1[k]` .. `C6[k]` those of `r` .. `r^6`.
const HI: [u32; 32] = [
    0x3f800000, 0x3f7acbf5, 0x3f6c9a9f, 0x3f58cc2a, 0x3f42f7d6, 0x3f41081b, 0x3f4df8b5, 0x3f56371a,
    0x3f5b5ead, 0x3f5e8e27, 0x3f608273, 0x3f61b404, 0x3f626e24, 0x3f62df52, 0x3f632414, 0x3f634dd2,
    0x3f636727, 0x3f637685, 0x3f637fd9, 0x3f638581, 0x3f6388ef, 0x3f638b04, 0x3f638c47, 0x3f638d0b,
    0x3f638d82, 0x3f638dca, 0x3f638df5, 0x3f638e10, 0x3f638e20, 0x3f638e2a, 0x3f638e30, 0x3f638e33,
];
const LO: [u32; 32] = [
    0xad3115d7, 0x32532a21, 0xb28a92d5, 0xb2e3b686, 0xb2aeaaab, 0xb2ebd4c2, 0x31fbf434, 0xb2e528ef,
    0x328fc349, 0xb2e10050, 0xb22981a5, 0x329b17e9, 0x30fab4a7, 0x32c4a11a, 0xb28af7f7, 0xb2c09878,
    0xb2a2ff5f, 0x32e2c7ea, 0xb2fed223, 0xb2f93e05, 0xb21f03a8, 0xb2ca4919, 0xb2803731, 0xb27fdb8a,
    0xb2bc8c27, 0xb28660cd, 0x32f1b5e0, 0xaec4f151, 0x31b36752, 0xb21d8d15, 0xb270a3f3, 0x32b5be94,
];
const C1: [u32; 32] = [
    0x00000000, 0xbe227250, 0xbe8d17ed, 0xbeaadb82, 0xbeaee8cb, 0x3e7f3d66, 0x3e247bb3, 0x3dcf3048,
    0x3d809dac, 0x3d1e403e, 0x3cc1a381, 0x3c6c233e, 0x3c0faf41, 0x3baea34a, 0x3b5418cf, 0x3b00bc4d,
    0x3a9c3b6a, 0x3a3d91b2, 0x39e5feeb, 0x398b8356, 0x39293f72, 0x38cd50ba, 0x387910c4, 0x3817115e,
    0x37b7418b, 0x375e4d47, 0x3706d553, 0x36a38fb4, 0x36466900, 0x35f0af10, 0x3591fb70, 0x353115dc,
];
const C2: [u32; 32] = [
    0xbeaaaaaa, 0xbe929cb7, 0xbe33eece, 0xbd76ef04, 0x3cb25699, 0xbe58840a, 0xbe14e1b6, 0xbdc30ad2,
    0xbd77fa82, 0xbd1ac607, 0xbcbf0bf4, 0xbc6a3727, 0xbc0ef95a, 0xbbae1d10, 0xbb53b5e0, 0xbb0097de,
    0xba9c2096, 0xba3d7df3, 0xb9e5f063, 0xb98b7dfe, 0xb9293b83, 0xb8cd4dd5, 0xb8790ea3, 0xb8171096,
    0xb7b740f7, 0xb75e4cdb, 0xb706d52b, 0xb6a38f97, 0xb64668ea, 0xb5f0af01, 0xb591fb6b, 0xb53115d7,
];
const C3: [u32; 32] = [
    0x00000000, 0x3df0d651, 0x3e26f070, 0x3e0b65f6, 0x3da79a0b, 0x3dc52d44, 0x3d9fdd62, 0x3d65172f,
    0x3d195016, 0x3cc53e03, 0x3c77e2ad, 0x3c1998af, 0x3bbcbde6, 0x3b66c1f2, 0x3b0ca00e, 0x3aab14ad,
    0x3a4fe2fc, 0x39fc725c, 0x399937b3, 0x3939efab, 0x38e19a92, 0x3888dac0, 0x3826070c, 0x37c969a6,
    0x37745424, 0x3714328a, 0x36b3c5b7, 0x365a1478, 0x36044576, 0x35a0746e, 0x3542a50f, 0x34ec1c76,
];
const C4: [u32; 32] = [
    0x3e0886d7, 0x3db4cf71, 0x3b581031, 0xbd46a886, 0xbd5daf9a, 0xbc3755db, 0xbcb5c853, 0xbcab45a4,
    0xbc82483a, 0xbc337646, 0xbbea690e, 0xbb948c8c, 0xbb38fc70, 0xbae3f9c4, 0xba8b98dc, 0xba2a5246,
    0xb9cf55d6, 0xb97c09c5, 0xb919116a, 0xb8b9d1e6, 0xb86185d3, 0xb808d330, 0xb7a60141, 0xb7496434,
    0xb6f451dc, 0xb69430b1, 0xb633c4eb, 0xb5da12e8, 0xb5844581, 0xb5207343, 0xb4c2a3c5, 0xb46c1dba,
];
const C5: [u32; 32] = [
    0x00000000, 0xbd811e2b, 0xbd78a409, 0xbcabd90f, 0x3bf7e353, 0xbc8ceebb, 0xbb1f5f14, 0x3b5525c5,
    0x3b8b6fa3, 0x3b6911d6, 0x3b26b1a2, 0x3addec10, 0x3a8ea9ad, 0x3a31f900, 0x39dc99fd, 0x3986d565,
    0x3925eee6, 0x38c9f92d, 0x38749ed7, 0x38144c01, 0x37b45148, 0x375b1c5e, 0x3704e61e, 0x36a126eb,
    0x36446ff7, 0x35edae12, 0x3590986a, 0x352ec1e4, 0x34d48407, 0x3480affb, 0x341b9213, 0x33bda560,
];
const C6: [u32; 32] = [
    0xbd5a4db8, 0xbcb47bde, 0x3cabeb49, 0x3cd65669, 0x3c368cd1, 0x3c5d85da, 0x3bce81b4, 0x3aee36cd,
    0xb8fa0b43, 0xba270973, 0xba268277, 0xb9fda317, 0xb9af0715, 0xb961c1d1, 0xb90f0ecb, 0xb8b0e63c,
    0xb858d442, 0xb8057991, 0xb7a1b8fd, 0xb746a351, 0xb6ef866b, 0xb691a6a5, 0xb6312693, 0xb5d84bc9,
    0xb58280b2, 0xb51f5588, 0xb4c0cd71, 0xb46a2ed9, 0xb40d711d, 0xb3acc803, 0xb35063e2, 0xb2fb5714,
];
/// 1.5 * 2^23: `4a + MAGIC` rounds `4a` to the integer nearest, which its low mantissa bits
/// then hold (the permutes read its low 5 bits as the bin).
const MAGIC: f32 = 12_582_912.0;
/// The bins' range: `4a` rounds to at most 31 below it.
const FAST_MAX: f32 = 7.875;
/// Where the fitted function changes from `tanh(a)/a` to `tanh(a)/SPLIT`: bin 5's lower edge.
const SPLIT: f32 = 1.125;
/// From here on the result is ±1: the first float above `13 ln 2`, where tanh passes the
/// halfway point `1 - 2^-25` (and rounds to even, to 1), as `vmath::tanh` gives it (tested).
const ONE_FROM: f32 = f32::from_bits(0x4110_2cb4);

/// tanh x as the tensor kernel computes it: the table below 7.875, ±1 beyond `ONE_FROM` (so a
/// saturated tensor costs no f64 work), `vmath::tanh` between (NaN passes through it).
#[inline]
pub fn tanh(x: f32) -> f32 {
    let a = x.abs();
    if a < FAST_MAX {
        fast(a).copysign(x)
    } else if a >= ONE_FROM {
        1f32.copysign(x)
    } else {
        super::vmath::tanh(x)
    }
}

/// The table's polynomial for `0 <= a < 7.875`, step for step as the vector kernels do it.
#[inline(always)]
fn fast(a: f32) -> f32 {
    let t = a.mul_add(4.0, MAGIC);
    let k = (t.to_bits() & 31) as usize;
    let r = (t - MAGIC).mul_add(-0.25, a);
    let c = |table: &[u32; 32]| f32::from_bits(table[k]);
    let p = c(&C6)
        .mul_add(r, c(&C5))
        .mul_add(r, c(&C4))
        .mul_add(r, c(&C3));
    let lo = p.mul_add(r, c(&C2)).mul_add(r, c(&C1)).mul_add(r, c(&LO));
    let m = a.min(SPLIT);
    m.mul_add(c(&HI), m * lo)
}

/// `out[i] = tanh(x[i])` (equal lengths).
pub fn tanh_slice(x: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    super::table32::map(x, out, tanh, lanes16::tanh, lanes8::tanh);
    #[cfg(not(target_arch = "x86_64"))]
    out.iter_mut().zip(x).for_each(|(o, &v)| *o = tanh(v));
}

/// Whether the vector loops' table covers `x` (below 7.875; not NaN).
#[cfg(target_arch = "x86_64")]
fn covered(x: f32) -> bool {
    x.abs() < FAST_MAX
}

#[cfg(target_arch = "x86_64")]
mod lanes16 {
    use super::super::table32::{halves, redo};
    use super::*;
    use std::arch::x86_64::*;

    /// `fast` on whole vectors of 16 from the start of `x`; returns how many it did.
    #[target_feature(enable = "avx512f,avx512dq,avx2,fma")]
    pub fn tanh(x: &[f32], out: &mut [f32]) -> usize {
        let [hi, lo, c1, c2, c3, c4, c5, c6] =
            [&HI, &LO, &C1, &C2, &C3, &C4, &C5, &C6].map(|t| halves(t));
        let at = |(t0, t1): (__m512, __m512), k: __m512i| _mm512_permutex2var_ps(t0, k, t1);
        let s = _mm512_set1_ps;
        let (magic, four, split, fast_max) = (s(MAGIC), s(4.0), s(SPLIT), s(FAST_MAX));
        let whole = x.len() / 16 * 16;
        for (xs, os) in x[..whole]
            .chunks_exact(16)
            .zip(out[..whole].chunks_exact_mut(16))
        {
            // SAFETY: `xs` and `os` hold 16 floats each.
            let v = unsafe { _mm512_loadu_ps(xs.as_ptr()) };
            let a = _mm512_abs_ps(v);
            let k = _mm512_castps_si512(_mm512_fmadd_ps(a, four, magic));
            // a - round(4a)/4 (round to nearest even, 2 fraction bits kept; exact)
            let r = _mm512_reduce_ps::<0x28>(a);
            let p = _mm512_fmadd_ps(at(c6, k), r, at(c5, k));
            let p = _mm512_fmadd_ps(p, r, at(c4, k));
            let p = _mm512_fmadd_ps(p, r, at(c3, k));
            let p = _mm512_fmadd_ps(p, r, at(c2, k));
            let p = _mm512_fmadd_ps(p, r, at(c1, k));
            let l = _mm512_fmadd_ps(p, r, at(lo, k));
            // copysign(min(a, SPLIT), x), the result's sign then coming out of the products:
            // imm bits 1:0 = 10 pick the smaller magnitude, bits 3:2 = 00 the sign of `v`
            let m = _mm512_range_ps::<0b0010>(v, split);
            let y = _mm512_fmadd_ps(m, at(hi, k), _mm512_mul_ps(m, l));
            let slow = _mm512_cmp_ps_mask::<_CMP_NLT_UQ>(a, fast_max);
            // SAFETY: as above.
            unsafe { _mm512_storeu_ps(os.as_mut_ptr(), y) };
            if slow != 0 {
                redo(xs, os, covered, super::tanh);
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
    pub fn tanh(x: &[f32], out: &mut [f32]) -> usize {
        let [hi, lo, c1, c2, c3, c4, c5, c6] =
            [&HI, &LO, &C1, &C2, &C3, &C4, &C5, &C6].map(|t| quarters(t));
        let s = _mm256_set1_ps;
        let (magic, four, quarter) = (s(MAGIC), s(4.0), s(-0.25));
        let (split, fast_max, sign) = (s(SPLIT), s(FAST_MAX), s(-0.0));
        let whole = x.len() / 8 * 8;
        for (xs, os) in x[..whole]
            .chunks_exact(8)
            .zip(out[..whole].chunks_exact_mut(8))
        {
            // SAFETY: `xs` and `os` hold 8 floats each.
            let v = unsafe { _mm256_loadu_ps(xs.as_ptr()) };
            let a = _mm256_andnot_ps(sign, v);
            let t = _mm256_fmadd_ps(a, four, magic);
            let k = _mm256_castps_si256(t);
            let bits = quarter_bits(k);
            let at = |q: &[__m256; 4]| lookup(q, k, bits);
            let r = _mm256_fmadd_ps(_mm256_sub_ps(t, magic), quarter, a);
            let p = _mm256_fmadd_ps(at(&c6), r, at(&c5));
            let p = _mm256_fmadd_ps(p, r, at(&c4));
            let p = _mm256_fmadd_ps(p, r, at(&c3));
            let p = _mm256_fmadd_ps(p, r, at(&c2));
            let p = _mm256_fmadd_ps(p, r, at(&c1));
            let l = _mm256_fmadd_ps(p, r, at(&lo));
            let m = _mm256_min_ps(split, a);
            let y = _mm256_fmadd_ps(m, at(&hi), _mm256_mul_ps(m, l));
            let y = _mm256_or_ps(y, _mm256_and_ps(v, sign));
            let slow = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_NLT_UQ>(a, fast_max));
            // SAFETY: as above.
            unsafe { _mm256_storeu_ps(os.as_mut_ptr(), y) };
            if slow != 0 {
                redo(xs, os, covered, super::tanh);
            }
        }
        whole
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 29th float of the table's range (37 million): within 0.6 ulp of tanh, and the
    /// correctly rounded value (f64's tanh rounded once) for all but 0.05%.
    #[test]
    fn within_0_6_ulp_and_nearly_always_correctly_rounded() {
        let (mut n, mut off, mut worst) = (0u64, 0u64, 0f64);
        for b in (0u32..FAST_MAX.to_bits()).step_by(29) {
            let x = f32::from_bits(b);
            let (y, e) = (tanh(x), (x as f64).tanh());
            let c = e as f32;
            let ulp = (f32::from_bits(c.to_bits() + 1) - c) as f64;
            worst = worst.max((y as f64 - e).abs() / ulp);
            off += (y != c) as u64;
            n += 1;
            assert_eq!(tanh(-x).to_bits(), (-y).to_bits(), "odd at {x:e}");
        }
        assert!(worst < 0.6, "{worst} ulp");
        assert!(off * 2000 < n, "{off} of {n} not correctly rounded");
    }

    /// PyTorch's sampled tanh bits: this agrees with them as often as the correctly rounded
    /// value does (give or take a few of the 8000).
    #[test]
    fn agrees_with_pytorch_as_often_as_the_correctly_rounded_value() {
        let golden = include_str!("../../../tests/data/tanh_golden.txt");
        let (mut ours, mut cr) = (0i32, 0i32);
        for l in golden.lines().filter(|l| !l.starts_with('#')) {
            let mut w = l.split(' ').map(|h| u32::from_str_radix(h, 16).unwrap());
            let (x, want) = (f32::from_bits(w.next().unwrap()), w.next().unwrap());
            ours += (tanh(x).to_bits() == want) as i32;
            cr += (super::super::vmath::tanh(x).to_bits() == want) as i32;
        }
        assert!(ours >= cr - 10, "{ours} against {cr}");
    }

    /// The vector builds give the scalar function's bits, the edges included: whole vectors,
    /// tails, and lanes beyond the table among table ones.
    #[test]
    fn every_build_gives_the_scalar_bits() {
        let mut xs: Vec<f32> = (0..40_000)
            .map(|i| ((i as f32 * 0.618_034).fract() - 0.5) * 20.0)
            .collect();
        xs.extend([
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            7.875,
            -7.875,
            7.874_999_5,
            ONE_FROM,
            -ONE_FROM,
            1e-30,
            -1e-45,
            1.125,
            f32::MAX,
        ]);
        #[cfg(target_arch = "x86_64")]
        super::super::table32::assert_builds_agree("tanh", &xs, tanh, lanes16::tanh, lanes8::tanh);
    }

    /// The edges: ±1 from `ONE_FROM` (where the correctly rounded route turns 1), that route
    /// between 7.875 and it, zeros and tiny values kept, NaN passed on.
    #[test]
    fn the_edges_are_the_correctly_rounded_values() {
        let vm = super::super::vmath::tanh;
        assert_eq!(vm(ONE_FROM), 1.0);
        assert!(vm(f32::from_bits(ONE_FROM.to_bits() - 1)) < 1.0);
        for b in (FAST_MAX.to_bits()..ONE_FROM.to_bits() + 1000).step_by(7) {
            let x = f32::from_bits(b);
            assert_eq!(tanh(x), vm(x), "tanh({x})");
            assert_eq!(tanh(-x), vm(-x), "tanh(-{x})");
        }
        assert_eq!(tanh(f32::INFINITY), 1.0);
        assert_eq!(tanh(f32::NEG_INFINITY), -1.0);
        assert!(tanh(f32::NAN).is_nan());
        assert_eq!(tanh(-0.0).to_bits(), (-0.0f32).to_bits());
        for x in [1e-30f32, 1e-45, 2.4e-4, -3e-5] {
            assert_eq!(tanh(x), x);
        }
    }
}

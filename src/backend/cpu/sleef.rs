//! SLEEF's single-precision `expf` (`xexpf`, u10) and `logf` (`xlogf_u1`, PyTorch's
//! `Sleef_logf*_u10`), ported from `sleefsimdsp.c` as its FMA builds (AVX2, AVX-512) compute
//! them: every `vmla` is one fused multiply-add, and the double-float ("df") helpers are the
//! FMA variants.
//!
//! Why: PyTorch's `Vectorized<float>::exp()/log()` call these, and they decide the digits of what
//! PyTorch computes through them: sigmoid's vector body, softmax and log_softmax over the last
//! dim (and so cross_entropy). Checked bit for bit against PyTorch 2.15 (`tests/data/
//! sleef_golden.txt`). `torch.exp`/`torch.log`/`torch.tanh` themselves are NOT these on x86
//! wheels: they call MKL's VML (`vmsExp`/`vmsLn`/`vmsTanh`: the same bits under
//! `ATEN_CPU_CAPABILITY=default`, where no SLEEF runs), which no open code reproduces; `vmath`
//! approximates them by correct rounding (99.6% of MKL's exp bits, against SLEEF's 96%). SLEEF's
//! `tanhf` is not here: no PyTorch op was found whose bits expose it (tanhshrink's are glibc's).
//!
//! Each function exists as scalar code, with `f32::mul_add` (one rounding, as the instruction),
//! and as lanes chosen at run time: 8 of AVX2+FMA (`exp` also 16 of AVX-512, `avx512`); all give
//! identical bits (the lane code is the scalar code op for op; `cvtps2dq`'s round-to-nearest-
//! even and its 0x80000000 for NaN/out of range are spelled out in `rint`). The lane maps run
//! several vectors' exponentials side by side, each step for all of them before the next
//! (`exp8n`, `exp16n`): one exponential is a chain of dependent operations too long for the
//! out-of-order window to overlap with the next.

const L2U: f32 = 0.693_145_75;
const L2L: f32 = 1.428_606_8e-6;
const R_LN2: f32 = std::f32::consts::LOG2_E;
/// `exp`'s polynomial in the reduced argument, highest power first (Horner with FMA).
const EXP_POLY: [f32; 6] = [
    1.985_276_2e-4,
    1.393_043_6e-3,
    8.333_361e-3,
    4.166_648_5e-2,
    0.166_666_67,
    0.5,
];

/// A double-float: the unevaluated sum `x + y` (|y| below half an ulp of x).
#[derive(Clone, Copy)]
struct Df {
    x: f32,
    y: f32,
}

#[inline(always)]
fn df(x: f32, y: f32) -> Df {
    Df { x, y }
}

/// `cvtps2dq`: to the nearest integer, ties to even; NaN and out of range give `i32::MIN`.
#[inline(always)]
fn rint(x: f32) -> i32 {
    if x.is_nan() || !(-2_147_483_648.0..2_147_483_648.0).contains(&x) {
        i32::MIN
    } else {
        x.round_ties_even() as i32
    }
}

/// 2^q by building the exponent field (q in the normal range).
#[inline(always)]
fn pow2i(q: i32) -> f32 {
    f32::from_bits((q.wrapping_add(0x7f) as u32) << 23)
}

/// `d * 2^e` in two steps, so that results near the ends of the range stay exact.
#[inline(always)]
fn ldexp2(d: f32, e: i32) -> f32 {
    d * pow2i(e >> 1) * pow2i(e.wrapping_sub(e >> 1))
}

#[inline(always)]
fn add2_ff(x: f32, y: f32) -> Df {
    let rx = x + y;
    let v = rx - x;
    df(rx, (x - (rx - v)) + (y - v))
}

/// Needs |x| >= |y|.
#[inline(always)]
fn add_dfdf(x: Df, y: Df) -> Df {
    let rx = x.x + y.x;
    df(rx, (((x.x - rx) + y.x) + x.y) + y.y)
}

#[inline(always)]
fn add_dff(x: Df, y: f32) -> Df {
    let rx = x.x + y;
    df(rx, ((x.x - rx) + y) + x.y)
}

#[inline(always)]
fn mul_dff(x: Df, y: f32) -> Df {
    let rx = x.x * y;
    df(rx, x.y.mul_add(y, x.x.mul_add(y, -rx)))
}

#[inline(always)]
fn div(n: Df, d: Df) -> Df {
    let t = 1.0 / d.x;
    let qx = n.x * t;
    let u = t.mul_add(n.x, -qx);
    let qy = (-d.y).mul_add(t, (-d.x).mul_add(t, 1.0));
    df(qx, qx.mul_add(qy, n.y.mul_add(t, u)))
}

/// e^x (SLEEF `xexpf`): within 1 ulp; 0 below -104, inf above 100.
#[inline(always)]
pub fn exp(d: f32) -> f32 {
    let q = rint(d * R_LN2);
    let qf = q as f32;
    let s = qf.mul_add(-L2U, d);
    let s = qf.mul_add(-L2L, s);
    let mut u = EXP_POLY[0];
    for k in &EXP_POLY[1..] {
        u = u.mul_add(s, *k);
    }
    let u = 1.0 + (s * s).mul_add(u, s);
    let u = ldexp2(u, q);
    let u = if d < -104.0 { 0.0 } else { u };
    if 100.0 < d {
        f32::INFINITY
    } else {
        u
    }
}

/// ln x (SLEEF `xlogf_u1`, the AVX2 build's exponent extraction; AVX-512's getexp/getmant
/// give the same m and e).
#[inline(always)]
pub fn ln(d: f32) -> f32 {
    let o = d < f32::MIN_POSITIVE;
    let d = if o {
        d * 18_446_744_073_709_551_616.0
    } else {
        d
    }; // 2^64: subnormals to normal
    let e = ((d * (1.0 / 0.75)).to_bits() >> 23 & 0xff) as i32 - 0x7f;
    let m = f32::from_bits(d.to_bits().wrapping_add((e.wrapping_neg() as u32) << 23));
    let e = if o { e - 64 } else { e };
    let s = mul_dff(df(std::f32::consts::LN_2, -1.904_654_3e-9), e as f32);
    let x = div(add2_ff(-1.0, m), add2_ff(1.0, m));
    let x2 = x.x * x.x;
    let mut t: f32 = 0.302_729_5;
    t = t.mul_add(x2, 0.399_610_82);
    t = t.mul_add(x2, 0.666_669_5);
    let s = add_dfdf(s, df(x.x * 2.0, x.y * 2.0));
    let s = add_dff(s, x2 * x.x * t);
    let r = s.x + s.y;
    let r = if d == f32::INFINITY { f32::INFINITY } else { r };
    let r = if d < 0.0 || d.is_nan() { f32::NAN } else { r };
    if d == 0.0 {
        f32::NEG_INFINITY
    } else {
        r
    }
}

/// The AVX2+FMA lanes: the scalar functions op for op on 8 floats.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use super::{EXP_POLY, L2L, L2U, R_LN2};
    use std::arch::x86_64::*;

    /// The mask of the first `n` of 8 lanes (all of them from 8 up), for masked loads and
    /// stores (`maskload`/`maskstore`/`blendv` read each lane's top bit).
    #[inline(always)]
    pub unsafe fn first(n: usize) -> __m256i {
        let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        _mm256_cmpgt_epi32(_mm256_set1_epi32(n.min(8) as i32), lanes)
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn c(v: f32) -> __m256 {
        _mm256_set1_ps(v)
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn fma(a: __m256, b: __m256, c: __m256) -> __m256 {
        _mm256_fmadd_ps(a, b, c)
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn pow2i(q: __m256i) -> __m256 {
        _mm256_castsi256_ps(_mm256_slli_epi32::<23>(_mm256_add_epi32(
            q,
            _mm256_set1_epi32(0x7f),
        )))
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn ldexp2(d: __m256, e: __m256i) -> __m256 {
        let h = _mm256_srai_epi32::<1>(e);
        _mm256_mul_ps(_mm256_mul_ps(d, pow2i(h)), pow2i(_mm256_sub_epi32(e, h)))
    }

    /// `super::exp` on `N` vectors of 8 lanes, each step for all of them before the next (see
    /// `avx512::WAYS`).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA. (Not a `target_feature` function, so that it can be
    /// `inline(always)`.)
    #[inline(always)]
    pub unsafe fn exp8n<const N: usize>(d: [__m256; N]) -> [__m256; N] {
        let mut q = [_mm256_setzero_si256(); N];
        let mut s = [c(0.0); N];
        let mut u = [c(EXP_POLY[0]); N];
        for i in 0..N {
            q[i] = _mm256_cvtps_epi32(_mm256_mul_ps(d[i], c(R_LN2)));
        }
        for i in 0..N {
            let qf = _mm256_cvtepi32_ps(q[i]);
            s[i] = fma(qf, c(-L2L), fma(qf, c(-L2U), d[i]));
        }
        for k in &EXP_POLY[1..] {
            for i in 0..N {
                u[i] = fma(u[i], s[i], c(*k));
            }
        }
        for i in 0..N {
            let v = _mm256_add_ps(c(1.0), fma(_mm256_mul_ps(s[i], s[i]), u[i], s[i]));
            u[i] = ldexp2(v, q[i]);
        }
        for i in 0..N {
            let u0 = _mm256_andnot_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(d[i], c(-104.0)), u[i]);
            let over = _mm256_cmp_ps::<_CMP_LT_OQ>(c(100.0), d[i]);
            u[i] = _mm256_blendv_ps(u0, c(f32::INFINITY), over);
        }
        u
    }

    /// Vectors of 8 a step in `map`: with 16 registers, four exponentials side by side fit
    /// (sigmoid's AVX2 lanes on Zen 5, timed in isolation: 13.1 cycles a vector one at a
    /// time, 10.3 four at a time).
    const WAYS: usize = 4;

    /// `out[i] = f(x[i])`, `WAYS` vectors a step; the last part step runs on a zero-padded
    /// copy, so that `f` has one call site and is inlined (with a second, LLVM outlined it and
    /// passed the vectors through memory).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA (and `f` may need the callers' other target features).
    #[inline(always)]
    unsafe fn map(x: &[f32], out: &mut [f32], f: impl Fn([__m256; WAYS]) -> [__m256; WAYS]) {
        const STEP: usize = 8 * WAYS;
        let n = x.len().min(out.len());
        let whole = n / STEP * STEP;
        let (mut pad_in, mut pad_out) = ([0f32; STEP], [0f32; STEP]);
        pad_in[..n - whole].copy_from_slice(&x[whole..n]);
        let blocks = x[..whole]
            .chunks_exact(STEP)
            .zip(out[..whole].chunks_exact_mut(STEP));
        let last = (whole < n).then_some((&pad_in[..], &mut pad_out[..]));
        for (xs, os) in blocks.chain(last) {
            let mut v = [_mm256_setzero_ps(); WAYS];
            for (w, v) in v.iter_mut().enumerate() {
                // SAFETY: `xs` holds `STEP` floats; `loadu` has no alignment requirement. The
                // caller's CPU has AVX2.
                *v = unsafe { _mm256_loadu_ps(xs.as_ptr().add(8 * w)) };
            }
            for (w, r) in f(v).into_iter().enumerate() {
                // SAFETY: as for the loads, into `os`.
                unsafe { _mm256_storeu_ps(os.as_mut_ptr().add(8 * w), r) }
            }
        }
        out[whole..n].copy_from_slice(&pad_out[..n - whole]);
    }

    /// `super::exp_shifted` on 8 lanes, `WAYS` vectors a step.
    #[target_feature(enable = "avx2,fma")]
    pub fn exp_shifted(x: &[f32], m: f32, out: &mut [f32]) {
        let mv = _mm256_set1_ps(m);
        // SAFETY: this function's target features are the closure's, `map`'s and `exp8n`'s.
        unsafe {
            map(x, out, |mut v| {
                for v in &mut v {
                    *v = _mm256_sub_ps(*v, mv);
                }
                exp8n(v)
            })
        }
    }

    /// `super::silu_slice` on 8 lanes, `WAYS` vectors a step.
    #[target_feature(enable = "avx2,fma")]
    pub fn silu(x: &[f32], out: &mut [f32]) {
        let one = _mm256_set1_ps(1.0);
        let sign = _mm256_set1_ps(-0.0);
        // SAFETY: as in `exp_shifted`.
        unsafe {
            map(x, out, |v| {
                let mut e = v;
                for e in &mut e {
                    *e = _mm256_xor_ps(*e, sign);
                }
                let mut e = exp8n(e);
                for (e, v) in e.iter_mut().zip(v) {
                    *e = _mm256_div_ps(v, _mm256_add_ps(one, *e));
                }
                e
            })
        }
    }

    /// `super::sigmoid_slice` on 8 lanes, `WAYS` vectors a step.
    #[target_feature(enable = "avx2,fma")]
    pub fn sigmoid(x: &[f32], out: &mut [f32]) {
        let one = _mm256_set1_ps(1.0);
        // SAFETY: as in `exp_shifted`.
        unsafe {
            map(x, out, |mut v| {
                for v in &mut v {
                    *v = _mm256_sub_ps(_mm256_setzero_ps(), *v);
                }
                let mut e = exp8n(v);
                for e in &mut e {
                    *e = _mm256_div_ps(one, _mm256_add_ps(*e, one));
                }
                e
            })
        }
    }
}

/// The AVX-512 lanes: `avx2`'s code op for op on 16 floats (mask registers where AVX2 blends),
/// the width of the `Vectorized<float>` PyTorch's AVX-512 kernels run. `vcvtps2dq` rounds and
/// saturates as its AVX2 form does, so every lane gives the scalar function's bits.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use super::{EXP_POLY, L2L, L2U, R_LN2};
    use std::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    fn c(v: f32) -> __m512 {
        _mm512_set1_ps(v)
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    fn fma(a: __m512, b: __m512, c: __m512) -> __m512 {
        _mm512_fmadd_ps(a, b, c)
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    fn pow2i(q: __m512i) -> __m512 {
        _mm512_castsi512_ps(_mm512_slli_epi32::<23>(_mm512_add_epi32(
            q,
            _mm512_set1_epi32(0x7f),
        )))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    fn ldexp2(d: __m512, e: __m512i) -> __m512 {
        let h = _mm512_srai_epi32::<1>(e);
        _mm512_mul_ps(_mm512_mul_ps(d, pow2i(h)), pow2i(_mm512_sub_epi32(e, h)))
    }

    /// Vectors in one step of the interleaved loops. One exponential is a chain of ~25
    /// dependent ops that the out-of-order window cannot overlap with enough of the next ones;
    /// eight written step by step side by side keep the vector pipes busy (sigmoid on Zen 5:
    /// 13.3 cycles a vector one at a time, 10.7 four at a time, 9.1 eight at a time).
    pub const WAYS: usize = 8;

    /// How far ahead (in floats: 2 KB, four steps) `zip_map` asks for its inputs. Its steps
    /// are long chains of arithmetic that fill the out-of-order window, so few loads are in
    /// flight, and an input streaming from memory stalls each step: the log-softmax backward
    /// over 4096×1024 (48 MB, past the L3) went from 1,170–1,510 µs to mostly 830–950 with this
    /// (1 KB and 4 KB ahead measured the same); in-cache maps such as sigmoid over 1e6 are
    /// unchanged. (The AVX2 `map`, forced on here, measured no gain from the same prefetch.)
    const PREFETCH: usize = 4 * 16 * WAYS;

    /// `super::exp` on 16 lanes.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn exp16(d: __m512) -> __m512 {
        // SAFETY: this function's target features are `exp16n`'s requirement.
        unsafe { exp16n([d])[0] }
    }

    /// `exp16` on `N` vectors, each step done for all of them before the next.
    ///
    /// # Safety
    /// The CPU must have AVX-512F, AVX2 and FMA. (Not a `target_feature` function, so that it
    /// can be `inline(always)`: a call would pass the vectors through memory.)
    #[inline(always)]
    pub unsafe fn exp16n<const N: usize>(d: [__m512; N]) -> [__m512; N] {
        let mut q = [_mm512_setzero_si512(); N];
        let mut s = [c(0.0); N];
        let mut u = [c(EXP_POLY[0]); N];
        for i in 0..N {
            q[i] = _mm512_cvtps_epi32(_mm512_mul_ps(d[i], c(R_LN2)));
        }
        for i in 0..N {
            let qf = _mm512_cvtepi32_ps(q[i]);
            s[i] = fma(qf, c(-L2L), fma(qf, c(-L2U), d[i]));
        }
        for k in &EXP_POLY[1..] {
            for i in 0..N {
                u[i] = fma(u[i], s[i], c(*k));
            }
        }
        for i in 0..N {
            let v = _mm512_add_ps(c(1.0), fma(_mm512_mul_ps(s[i], s[i]), u[i], s[i]));
            u[i] = ldexp2(v, q[i]);
        }
        for i in 0..N {
            let under = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(d[i], c(-104.0));
            let over = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(c(100.0), d[i]);
            u[i] = _mm512_mask_blend_ps(over, _mm512_maskz_mov_ps(!under, u[i]), c(f32::INFINITY));
        }
        u
    }

    /// The first `k` of 16 lanes.
    #[inline]
    pub fn first(k: usize) -> __mmask16 {
        ((1u32 << k.min(16)) - 1) as __mmask16
    }

    /// Loads lanes `mask` of `x[i..]` (zeros elsewhere).
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn load(x: &[f32], i: usize, mask: __mmask16) -> __m512 {
        let n = (mask as u32).count_ones() as usize;
        assert!(mask as u32 == (1u32 << n) - 1 && i + n <= x.len());
        // SAFETY: the mask selects the first `n` lanes, and `x[i..i + n]` is readable (asserted
        // just above); masked-off lanes are not accessed.
        unsafe { _mm512_maskz_loadu_ps(mask, x.as_ptr().add(i)) }
    }

    /// Stores lanes `mask` of `v` to `out[i..]`.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn store(out: &mut [f32], i: usize, mask: __mmask16, v: __m512) {
        let n = (mask as u32).count_ones() as usize;
        assert!(mask as u32 == (1u32 << n) - 1 && i + n <= out.len());
        // SAFETY: as in `load`, for `out[i..i + n]`, which is writable.
        unsafe { _mm512_mask_storeu_ps(out.as_mut_ptr().add(i), mask, v) }
    }

    /// An elementwise op on 16-lane vectors of `K` inputs, written once for any number of
    /// vectors side by side (see `WAYS`).
    pub trait LaneMap<const K: usize> {
        /// `N` vectors of each input to `N` of the output.
        ///
        /// # Safety
        /// The CPU must have AVX-512F, AVX2 and FMA.
        unsafe fn apply<const N: usize>(&self, v: [[__m512; N]; K]) -> [__m512; N];
    }

    /// `out[i] = f(ins[0][i], ..)` (the inputs at least as long as `out`): `W` vectors a step
    /// over the whole steps, then one vector at a time.
    ///
    /// # Safety
    /// The CPU must have AVX-512F, AVX2 and FMA.
    #[inline(always)]
    pub unsafe fn zip_map<const K: usize, const W: usize>(
        ins: [&[f32]; K],
        out: &mut [f32],
        f: impl LaneMap<K>,
    ) {
        let n = out.len();
        assert!(ins.iter().all(|x| x.len() >= n));
        let whole = n / (16 * W) * (16 * W);
        for i in (0..whole).step_by(16 * W) {
            // SAFETY: `i + 16 * W <= n`; the features are the caller's promise.
            unsafe { zip_step::<K, W>(ins, out, i, &f) }
        }
        // the rest one vector at a time, whole ones unmasked (a masked load's mask arithmetic
        // costs as much as half the exponential), the last one masked
        let singles = n / 16 * 16;
        for i in (whole..singles).step_by(16) {
            // SAFETY: as above, for one vector.
            unsafe { zip_step::<K, 1>(ins, out, i, &f) }
        }
        if singles < n {
            let k = first(n - singles);
            // SAFETY: the CPU's features are the caller's promise.
            unsafe {
                let mut v = [[_mm512_setzero_ps(); 1]; K];
                for (v, x) in v.iter_mut().zip(ins) {
                    v[0] = load(x, singles, k);
                }
                let [r] = f.apply::<1>(v);
                store(out, singles, k, r);
            }
        }
    }

    /// `zip_map`'s step: `N` whole vectors from `i` (slices checked once a step: a bounds
    /// check per vector splits the step into blocks, and LLVM then sinks each vector's chain
    /// into its own block, one after the other, undoing the interleaving).
    ///
    /// # Safety
    /// As `zip_map`'s; `i + 16 * N` is at most `out.len()` and every input's length.
    #[inline(always)]
    unsafe fn zip_step<const K: usize, const N: usize>(
        ins: [&[f32]; K],
        out: &mut [f32],
        i: usize,
        f: &impl LaneMap<K>,
    ) {
        let os = &mut out[i..i + 16 * N];
        // SAFETY: each input's `[i..i + 16 * N]` and `os` hold `N` vectors; `loadu` and
        // `storeu` have no alignment requirement; a prefetch is only a hint, allowed at any
        // address (past the input or unmapped, it neither faults nor changes what the program
        // reads). The CPU's features are the caller's promise.
        unsafe {
            let mut v = [[_mm512_setzero_ps(); N]; K];
            for (v, x) in v.iter_mut().zip(ins) {
                if N > 1 {
                    // `wrapping_add`: the address may lie past the input, which a prefetch
                    // may name (it never faults) but pointer arithmetic may not.
                    let ahead = x.as_ptr().wrapping_add(i + PREFETCH);
                    for w in 0..N {
                        _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(16 * w).cast());
                    }
                }
                let x = x[i..i + 16 * N].as_ptr();
                for (w, v) in v.iter_mut().enumerate() {
                    *v = _mm512_loadu_ps(x.add(16 * w));
                }
            }
            for (w, r) in f.apply::<N>(v).into_iter().enumerate() {
                _mm512_storeu_ps(os.as_mut_ptr().add(16 * w), r);
            }
        }
    }

    /// `exp(x - m)`.
    struct ExpShifted(__m512);

    impl LaneMap<1> for ExpShifted {
        #[inline(always)]
        unsafe fn apply<const N: usize>(&self, [mut v]: [[__m512; N]; 1]) -> [__m512; N] {
            for v in &mut v {
                // SAFETY: the CPU's features are the caller's promise.
                *v = unsafe { _mm512_sub_ps(*v, self.0) };
            }
            // SAFETY: as above.
            unsafe { exp16n(v) }
        }
    }

    /// `1 / (1 + exp(0 - x))`.
    struct Sigmoid;

    impl LaneMap<1> for Sigmoid {
        #[inline(always)]
        unsafe fn apply<const N: usize>(&self, [mut v]: [[__m512; N]; 1]) -> [__m512; N] {
            // SAFETY: the CPU's features are the caller's promise.
            unsafe {
                let one = _mm512_set1_ps(1.0);
                for v in &mut v {
                    *v = _mm512_sub_ps(_mm512_setzero_ps(), *v);
                }
                let mut e = exp16n(v);
                for e in &mut e {
                    *e = _mm512_div_ps(one, _mm512_add_ps(*e, one));
                }
                e
            }
        }
    }

    /// `x / (1 + exp(-x))`, the negation a sign flip as ATen's `neg()` is.
    struct Silu;

    impl LaneMap<1> for Silu {
        #[inline(always)]
        unsafe fn apply<const N: usize>(&self, [v]: [[__m512; N]; 1]) -> [__m512; N] {
            // SAFETY: the CPU's features are the caller's promise.
            unsafe {
                let one = _mm512_set1_ps(1.0);
                let sign = _mm512_set1_epi32(i32::MIN);
                let mut e = v;
                for e in &mut e {
                    *e = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(*e), sign));
                }
                let mut e = exp16n(e);
                for (e, v) in e.iter_mut().zip(v) {
                    *e = _mm512_div_ps(v, _mm512_add_ps(one, *e));
                }
                e
            }
        }
    }

    /// `super::silu_slice` on 16 lanes, `WAYS` vectors a step.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn silu(x: &[f32], out: &mut [f32]) {
        let n = x.len().min(out.len());
        // SAFETY: as in `exp_shifted`.
        unsafe { zip_map::<1, WAYS>([x], &mut out[..n], Silu) }
    }

    /// `super::exp_half` on 16 lanes, `WAYS` vectors a step: each 16 two-byte values widened by
    /// `widen`, exponentiated and narrowed by `narrow` in registers; returns how many it did.
    /// The CPU must have AVX-512F, AVX2 and FMA (`inline(always)`, as `exp16n`).
    #[inline(always)]
    unsafe fn exp_halves<H>(
        x: &[H],
        out: &mut [H],
        widen: impl Fn(__m256i) -> __m512,
        narrow: impl Fn(__m512) -> __m256i,
    ) -> usize {
        const STEP: usize = 16 * WAYS;
        assert_eq!(std::mem::size_of::<H>(), 2);
        let n = x.len().min(out.len()) / STEP * STEP;
        for (xs, os) in x[..n]
            .chunks_exact(STEP)
            .zip(out[..n].chunks_exact_mut(STEP))
        {
            // SAFETY: `xs` and `os` hold `STEP` two-byte values (checked), read and written 16
            // at a time unaligned; the CPU's features are the caller's promise.
            unsafe {
                let mut v = [_mm512_setzero_ps(); WAYS];
                for (w, v) in v.iter_mut().enumerate() {
                    *v = widen(_mm256_loadu_si256(xs.as_ptr().add(16 * w).cast()));
                }
                for (w, e) in exp16n(v).into_iter().enumerate() {
                    _mm256_storeu_si256(os.as_mut_ptr().add(16 * w).cast(), narrow(e));
                }
            }
        }
        n
    }

    /// float16: the widening `vcvtph2ps` (exact), the rounding back `vcvtps2ph` (nearest even,
    /// F16C's NaN).
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn exp_f16(x: &[half::f16], out: &mut [half::f16]) -> usize {
        // SAFETY: this function's features are `exp_halves`'s.
        unsafe {
            exp_halves(
                x,
                out,
                |h| _mm512_cvtph_ps(h),
                |e| _mm512_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(e),
            )
        }
    }

    /// bfloat16: widened by a shift (exact; a NaN stays a NaN), rounded back as ATen's vector
    /// conversion (nearest even by adding 0x7FFF and the kept lowest bit; a NaN becomes 0xFFFF).
    #[target_feature(enable = "avx512f,avx512bw,avx2,fma")]
    pub fn exp_bf16(x: &[half::bf16], out: &mut [half::bf16]) -> usize {
        let (bias, one, all) = (
            _mm512_set1_epi32(0x7FFF),
            _mm512_set1_epi32(1),
            _mm512_set1_epi32(0xFFFF),
        );
        let widen = |h| _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(h)));
        let narrow = |e| {
            let b = _mm512_castps_si512(e);
            let lsb = _mm512_and_si512(_mm512_srli_epi32::<16>(b), one);
            let r = _mm512_srli_epi32::<16>(_mm512_add_epi32(b, _mm512_add_epi32(bias, lsb)));
            let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(e, e);
            _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(nan, r, all))
        };
        // SAFETY: this function's features include `exp_halves`'s.
        unsafe { exp_halves(x, out, widen, narrow) }
    }

    /// `super::exp_shifted` on 16 lanes, `WAYS` vectors a step.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn exp_shifted(x: &[f32], m: f32, out: &mut [f32]) {
        let n = x.len().min(out.len());
        // SAFETY: this function's target features are `zip_map`'s.
        unsafe { zip_map::<1, WAYS>([x], &mut out[..n], ExpShifted(_mm512_set1_ps(m))) }
    }

    /// `super::sigmoid_slice` on 16 lanes, `WAYS` vectors a step.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn sigmoid(x: &[f32], out: &mut [f32]) {
        let n = x.len().min(out.len());
        // SAFETY: as in `exp_shifted`.
        unsafe { zip_map::<1, WAYS>([x], &mut out[..n], Sigmoid) }
    }

    /// The 16 lane sums of ATen's `map_reduce_all(exp(x - m), +)` (`x.len() >= 16`): lane `l`
    /// adds `exp(x[l + 16j] - m)` for `j = 0, 1, ...`, the partial last vector into its first
    /// lanes. With `out`, each exponential is stored there too (softmax's `exp` pass). (One
    /// vector a step: `WAYS` side by side, as `zip_map` runs them, measured no faster in
    /// softmax over rows of 1024, at 64 rows or 4096.)
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn exp_shifted_lanes(x: &[f32], m: f32, mut out: Option<&mut [f32]>) -> [f32; 16] {
        let n = x.len();
        let mv = _mm512_set1_ps(m);
        let whole = n / 16 * 16;
        // (0 + e is e bit for bit: an exponential is never -0.)
        let mut acc = _mm512_setzero_ps();
        for (j, xs) in x[..whole].chunks_exact(16).enumerate() {
            // SAFETY: `xs` is 16 readable floats; `loadu` has no alignment requirement.
            let e = exp16(_mm512_sub_ps(unsafe { _mm512_loadu_ps(xs.as_ptr()) }, mv));
            if let Some(o) = out.as_deref_mut() {
                let os: &mut [f32; 16] = (&mut o[j * 16..j * 16 + 16]).try_into().expect("16");
                // SAFETY: `os` is 16 writable floats; `storeu` has no alignment requirement.
                unsafe { _mm512_storeu_ps(os.as_mut_ptr(), e) }
            }
            acc = _mm512_add_ps(acc, e);
        }
        if whole < n {
            let k = first(n - whole);
            let e = exp16(_mm512_sub_ps(load(x, whole, k), mv));
            if let Some(o) = out {
                store(o, whole, k, e);
            }
            acc = _mm512_mask_add_ps(acc, k, acc, e);
        }
        let all = first(16);
        let mut lanes = [0f32; 16];
        store(&mut lanes, 0, all, acc);
        lanes
    }
}

/// Whether the AVX-512 lanes can run here (std caches the CPU's answer).
#[inline]
pub fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") && has_avx2()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the AVX2+FMA lanes can run here (std caches the CPU's answer).
#[inline]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `out[i] = exp(x[i] - m)` (equal lengths): softmax's exponentials (`m = 0` gives plain exp,
/// since `x - 0` is `x`).
#[inline]
pub fn exp_shifted(x: &[f32], m: f32, out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
            return unsafe { avx512::exp_shifted(x, m, out) };
        }
        if has_avx2() {
            // SAFETY: the CPU has AVX2 and FMA (checked just above).
            return unsafe { avx2::exp_shifted(x, m, out) };
        }
    }
    for (o, &v) in out.iter_mut().zip(x) {
        *o = exp(v - m);
    }
}

/// float16/bfloat16 `exp` of the whole `16 * WAYS`-element steps of `x` into `out` in AVX-512
/// registers (the same bits as widening, `exp_shifted` and ATen's vector narrowing); returns
/// how many it did: 0 for other types, and without AVX-512 (BW too, for bfloat16).
pub fn exp_half<H: 'static>(x: &[H], out: &mut [H]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if has_avx512() {
        use super::sum::{slice_as, slice_as_mut};
        use half::{bf16, f16};
        if let (Some(x), Some(o)) = (slice_as::<H, f16>(x), slice_as_mut::<H, f16>(out)) {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked above).
            return unsafe { avx512::exp_f16(x, o) };
        }
        if let (Some(x), Some(o)) = (slice_as::<H, bf16>(x), slice_as_mut::<H, bf16>(out)) {
            if std::is_x86_feature_detected!("avx512bw") {
                // SAFETY: the CPU has AVX-512F/BW, AVX2 and FMA (checked above).
                return unsafe { avx512::exp_bf16(x, o) };
            }
        }
    }
    0
}

/// `out[i] = 1 / (1 + exp(0 - x[i]))`: ATen's vector sigmoid (`(0 - x).exp() + 1`, then the
/// reciprocal as a division).
pub fn sigmoid_slice(x: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
            return unsafe { avx512::sigmoid(x, out) };
        }
        if has_avx2() {
            // SAFETY: the CPU has AVX2 and FMA (checked just above).
            return unsafe { avx2::sigmoid(x, out) };
        }
    }
    for (o, &v) in out.iter_mut().zip(x) {
        *o = sigmoid(v);
    }
}

/// `out[i] = x[i] / (1 + exp(-x[i]))`: ATen's vector silu, its exp SLEEF's (the `exp` op's own
/// kernel is MKL's, rounded differently).
pub fn silu_slice(x: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
            return unsafe { avx512::silu(x, out) };
        }
        if has_avx2() {
            // SAFETY: the CPU has AVX2 and FMA (checked just above).
            return unsafe { avx2::silu(x, out) };
        }
    }
    for (o, &v) in out.iter_mut().zip(x) {
        *o = v / (1.0 + exp(-v));
    }
}

/// One lane of `sigmoid_slice`.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (exp(0.0 - x) + 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The in-register half exponentials give the bits of widening, `exp_shifted` and ATen's
    /// vector narrowing, over every bit pattern of both half types (NaNs and infinities too).
    #[test]
    fn half_exps_in_registers_match_the_widened_route() {
        use crate::backend::storage::Element;
        let all: Vec<u16> = (0..=u16::MAX).collect();
        let wide = |w: Vec<f32>| {
            let mut e = vec![0f32; w.len()];
            exp_shifted(&w, 0.0, &mut e);
            e
        };
        let b: Vec<half::bf16> = all.iter().map(|&h| half::bf16::from_bits(h)).collect();
        let mut out = vec![half::bf16::ZERO; b.len()];
        let done = exp_half(&b, &mut out);
        let want = wide(b.iter().map(|h| h.load()).collect());
        for i in 0..done {
            let w = super::super::bf16_vectorized(want[i]);
            assert_eq!(out[i].to_bits(), w.to_bits(), "exp(bf16 {:#06x})", all[i]);
        }
        let f: Vec<half::f16> = all.iter().map(|&h| half::f16::from_bits(h)).collect();
        let mut out = vec![half::f16::ZERO; f.len()];
        let done = exp_half(&f, &mut out);
        let want = wide(f.iter().map(|h| h.to_f32()).collect());
        for i in 0..done {
            let (o, w) = (out[i], half::f16::from_f32(want[i]));
            assert!(
                o == w || o.is_nan() && w.is_nan(),
                "exp(f16 {:#06x})",
                all[i]
            );
        }
    }

    const GOLDEN: &str = include_str!("../../../tests/data/sleef_golden.txt");

    /// Rows `fn x y` of PyTorch's bits (see tests/data/gen_sleef.py for where each comes from).
    fn golden() -> Vec<(String, u32, u32)> {
        GOLDEN
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                let h = |s: &str| u32::from_str_radix(s, 16).expect("hex");
                (w[0].to_string(), h(w[1]), h(w[2]))
            })
            .collect()
    }

    fn same(a: f32, b: u32) -> bool {
        a.to_bits() == b || (a.is_nan() && f32::from_bits(b).is_nan())
    }

    #[test]
    fn scalar_functions_are_pytorchs_bits() {
        let g = golden();
        assert!(g.len() > 14_000);
        for (f, x, want) in &g {
            let x = f32::from_bits(*x);
            let got = match f.as_str() {
                "sigmoid" => sigmoid(x),
                // log_softmax([x, 0])[1]: (0 - 0) - log(exp(x - 0) + 1), summed in lane order
                "logsm" => 0.0 - ln(exp(x - 0.0) + exp(0.0)),
                _ => panic!("unknown row {f}"),
            };
            assert!(
                same(got, *want),
                "{f}({x:e}) = {got:e}, PyTorch {:e}",
                f32::from_bits(*want)
            );
        }
    }

    #[test]
    fn lanes_match_the_scalar_functions() {
        // every 4097th bit pattern: all exponents, signs, NaNs, subnormals
        let xs: Vec<f32> = (0..1_048_576u32)
            .map(|i| f32::from_bits(i.wrapping_mul(4097)))
            .collect();
        let mut out = vec![0f32; xs.len()];
        exp_shifted(&xs, 0.0, &mut out);
        assert!(xs
            .iter()
            .zip(&out)
            .all(|(&x, &o)| same(o, exp(x).to_bits())));
        sigmoid_slice(&xs, &mut out);
        assert!(xs
            .iter()
            .zip(&out)
            .all(|(&x, &o)| same(o, sigmoid(x).to_bits())));
    }

    #[test]
    fn avx512_lanes_match_the_scalar_functions_at_every_length() {
        // odd lengths (masked last vectors) and offsets, over varied values
        let xs: Vec<f32> = (0..300u32)
            .map(|i| i as f32 * 0.37 - 55.0)
            .chain([
                f32::NAN,
                f32::INFINITY,
                -f32::INFINITY,
                0.0,
                -0.0,
                100.5,
                -104.5,
            ])
            .collect();
        for len in [1usize, 7, 8, 15, 16, 17, 31, 32, 33, 100, xs.len()] {
            for start in [0usize, 3] {
                let x = &xs[start..(start + len).min(xs.len())];
                let mut out = vec![0f32; x.len()];
                exp_shifted(x, 1.5, &mut out);
                for (&v, &o) in x.iter().zip(&out) {
                    assert!(same(o, exp(v - 1.5).to_bits()), "exp({v} - 1.5)");
                }
                sigmoid_slice(x, &mut out);
                for (&v, &o) in x.iter().zip(&out) {
                    assert!(same(o, sigmoid(v).to_bits()), "sigmoid({v})");
                }
                #[cfg(target_arch = "x86_64")]
                if has_avx512() && x.len() >= 16 {
                    let mut stored = vec![0f32; x.len()];
                    // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
                    let lanes = unsafe { avx512::exp_shifted_lanes(x, 1.5, Some(&mut stored)) };
                    let mut want = [0f32; 16];
                    for (i, &v) in x.iter().enumerate() {
                        let e = exp(v - 1.5);
                        assert!(same(stored[i], e.to_bits()));
                        want[i % 16] = if i < 16 { e } else { want[i % 16] + e };
                    }
                    for (a, b) in lanes.iter().zip(want) {
                        assert!(same(*a, b.to_bits()), "lane sum {a} {b}");
                    }
                }
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_lane_sums_add_in_order() {
        if !has_avx512() {
            return;
        }
        // exponentials of one magnitude, so that any other order of the adds moves a last bit
        let x: Vec<f32> = (0..1029u32)
            .map(|i| (i * 7919 % 1013) as f32 * 1e-3)
            .collect();
        let mut want = [0f32; 16];
        for (i, &v) in x.iter().enumerate() {
            want[i % 16] += exp(v - 0.25);
        }
        // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
        let got = unsafe { avx512::exp_shifted_lanes(&x, 0.25, None) };
        assert_eq!(got.map(f32::to_bits), want.map(f32::to_bits));
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_lanes_match_the_scalar_functions() {
        if !has_avx2() {
            return;
        }
        // every 4097th bit pattern, then sample lengths around the 32-float step
        let every: Vec<f32> = (0..1_048_576u32)
            .map(|i| f32::from_bits(i.wrapping_mul(4097)))
            .collect();
        let xs: Vec<f32> = (0..300u32)
            .map(|i| i as f32 * 0.37 - 55.0)
            .chain([f32::NAN, f32::INFINITY, -f32::INFINITY, -0.0, 100.5, -104.5])
            .collect();
        let lens = [1usize, 7, 8, 9, 31, 32, 33, 100, xs.len()];
        let cases = lens.iter().map(|&len| &xs[xs.len() - len..]);
        for x in std::iter::once(&every[..]).chain(cases) {
            let len = x.len();
            let mut out = vec![0f32; len];
            // SAFETY (both): the CPU has AVX2 and FMA (checked above).
            unsafe { avx2::exp_shifted(x, 1.5, &mut out) };
            for (&v, &o) in x.iter().zip(&out) {
                assert!(same(o, exp(v - 1.5).to_bits()), "exp({v} - 1.5)");
            }
            unsafe { avx2::sigmoid(x, &mut out) };
            for (&v, &o) in x.iter().zip(&out) {
                assert!(same(o, sigmoid(v).to_bits()), "sigmoid({v})");
            }
        }
    }
}

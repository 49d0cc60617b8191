//! Vectorisable f32 `exp`, `log` and `tanh`, and ATen's scalar `sigmoid`.
//!
//! `exp`, `ln` and `tanh` are computed in f64 from short polynomials and rounded once to f32:
//! the f64 result is within a few f64 ulps, so the f32 result is the correctly rounded one
//! except within ~1e-16 of a halfway point (never seen in testing). That is what ATen's scalar
//! code gets from glibc (`std::exp`, `std::log` in log_softmax). For the tensor ops PyTorch's
//! x86 wheels call MKL's VML (within 1 ulp, closed code): `torch.exp` is `exp_table`'s f32
//! table method (as often MKL's bits as the correctly rounded value, at a third of the cost);
//! MKL's `log` agrees with the correctly rounded one only for ~92%, so `torch.log` uses
//! `ln_faithful`, computed in f32, whose errors fall more often where MKL's do (and which
//! gives `log(2.7182817) == 1` as MKL does). `sigmoid` is ATen's scalar `1 / (1 + exp(-x))`
//! in f32 around `exp` (glibc's `expf`, near enough always correctly rounded): the tail after
//! its SLEEF vector body.
//!
//! The code is branch-free (selects, integer bit tricks that AVX2 has), so the loops
//! vectorise; the slice kernels are compiled three times, for the baseline, AVX2+FMA and
//! AVX-512, chosen at run time. Every fused multiply-add is an explicit `mul_add` (one rounding in both builds:
//! an instruction, or libm's exact fma), and LLVM never fuses on its own, so both builds give
//! identical bits.

const MAGIC: f64 = 6_755_399_441_055_744.0; // 1.5 * 2^52: adding it rounds to an integer
const LOG2E: f64 = std::f64::consts::LOG2_E;
// ln 2 split so that k * LN2_HI is exact for |k| < 2^20 (fdlibm's constants)
const LN2_HI: f64 = 0.693_147_180_369_123_8;
const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// e^x for x in f64 clamped to [-104, 89] (f32's range and a little more); NaN passes.
#[inline(always)]
fn exp_clamped(x: f64) -> f64 {
    let (r, scale) = exp_reduce(x);
    let mut p = EXP_TAYLOR[0];
    for c in &EXP_TAYLOR[1..] {
        p = p.mul_add(r, *c);
    }
    p * scale
}

/// `exp_clamped`'s argument reduction: `e^x = e^r * scale`, `scale = 2^k`, |r| <= ln(2)/2.
#[inline(always)]
fn exp_reduce(x: f64) -> (f64, f64) {
    let x = x.clamp(-104.0, 89.0);
    let t = x * LOG2E + MAGIC;
    let k = t - MAGIC;
    // low bits of t hold k + 2^51; (k + 1023) << 52 is 2^k (k is in [-151, 129])
    let scale = f64::from_bits(t.to_bits().wrapping_add(1023) << 52);
    ((x - k * LN2_HI) - k * LN2_LO, scale)
}

/// e^r's Taylor coefficients to r^12, highest first: the remainder is below 2e-16 relative.
const EXP_TAYLOR: [f64; 13] = [
    1.0 / 479_001_600.0,
    1.0 / 39_916_800.0,
    1.0 / 3_628_800.0,
    1.0 / 362_880.0,
    1.0 / 40_320.0,
    1.0 / 5_040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    0.5,
    1.0,
    1.0,
];

/// Elements in one block of `exp_block`.
const BLOCK: usize = 64;

/// `exp` of `BLOCK` elements, each step for all of them before the next: written one element
/// at a time, the vectorised loop runs one vector's chain of 12 dependent FMAs after another,
/// which the out-of-order window cannot overlap; a block is eight such vectors side by side
/// in the AVX-512 build (sixteen in the AVX2 one), which keeps the FMA pipes busy (30 -> 23
/// cycles per 16 floats on Zen 5). The same operations, so the same bits.
#[inline(always)]
fn exp_block(x: &[f32; BLOCK], out: &mut [f32; BLOCK]) {
    let (mut r, mut scale, mut p) = ([0f64; BLOCK], [0f64; BLOCK], [EXP_TAYLOR[0]; BLOCK]);
    for i in 0..BLOCK {
        (r[i], scale[i]) = exp_reduce(x[i] as f64);
    }
    for c in &EXP_TAYLOR[1..] {
        for i in 0..BLOCK {
            p[i] = p[i].mul_add(r[i], *c);
        }
    }
    for i in 0..BLOCK {
        out[i] = (p[i] * scale[i]) as f32;
    }
}

/// `out[i] = exp(x[i])` (equal lengths), `BLOCK` elements a step.
#[inline(always)]
fn exp_blocks(x: &[f32], out: &mut [f32]) {
    let n = x.len().min(out.len());
    let whole = n / BLOCK * BLOCK;
    let blocks = x[..whole]
        .chunks_exact(BLOCK)
        .zip(out[..whole].chunks_exact_mut(BLOCK));
    for (xs, os) in blocks {
        exp_block(xs.try_into().expect("BLOCK"), os.try_into().expect("BLOCK"));
    }
    for (o, &v) in out[whole..n].iter_mut().zip(&x[whole..n]) {
        *o = exp(v);
    }
}

/// e^x rounded to f32.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    exp_clamped(x as f64) as f32
}

/// e^x - 1 rounded to f32 (`torch.expm1`), computed in f64 like `exp`: near 0 (no reduction
/// step) the Taylor series without its constant term, so tiny x keep every digit (-0.0
/// included); elsewhere `scale * (e^r - 1) + (scale - 1)`.
#[inline(always)]
pub fn exp_m1(x: f32) -> f32 {
    let (r, scale) = exp_reduce(x as f64);
    let mut p = EXP_TAYLOR[0];
    for c in &EXP_TAYLOR[1..EXP_TAYLOR.len() - 1] {
        p = p.mul_add(r, *c);
    }
    let q = p * r; // e^r - 1
    let y = if scale == 1.0 {
        q
    } else {
        scale.mul_add(q, scale - 1.0)
    };
    y as f32
}

/// ln(1 + x) rounded to f32 (`torch.log1p`), in f64: `ln(u) * x / (u - 1)` with `u = 1 + x`
/// rounded, which cancels that rounding (Goldberg's formula); -inf at -1, NaN below it.
#[inline(always)]
pub fn ln_1p(x: f32) -> f32 {
    let d = x as f64;
    let u = 1.0 + d;
    let y = if u == 1.0 {
        d
    } else {
        ln_f64(u) * (d / (u - 1.0))
    };
    // 1 + x in f32 is exactly 0 at x = -1, negative below it, inf only at inf
    ln_edges(1.0 + x, y as f32)
}

/// ln x rounded to f32 (-inf at 0, NaN below 0 and for NaN, inf at inf).
#[inline(always)]
pub fn ln(x: f32) -> f32 {
    ln_edges(x, ln_f64(x as f64) as f32) // f32 subnormals are normal f64s
}

/// `r`, a logarithm of `x` computed for positive finite `x`, with the edges as libm's: inf at
/// inf, -inf at 0, NaN below 0 and for NaN (selects, so callers still vectorise).
#[inline(always)]
fn ln_edges(x: f32, r: f32) -> f32 {
    let r = if x == f32::INFINITY { x } else { r };
    let r = if x == 0.0 { f32::NEG_INFINITY } else { r };
    if x < 0.0 || x.is_nan() {
        f32::NAN
    } else {
        r
    }
}

/// ln d in f64 for a positive, finite, normal `d`, within a few f64 ulps.
#[inline(always)]
fn ln_f64(d: f64) -> f64 {
    let (s, k) = ln_reduce(d);
    let s2 = s * s;
    let mut p = LN_ATANH[0];
    for c in &LN_ATANH[1..] {
        p = p.mul_add(s2, *c);
    }
    ln_finish(s, s2, p, k)
}

/// `ln_f64`'s argument reduction: `d = 2^k z`, z in [sqrt(1/2), sqrt(2)), and
/// `s = (z - 1) / (z + 1)` (|s| <= 0.1716), so that ln z = 2 atanh s.
#[inline(always)]
fn ln_reduce(d: f64) -> (f64, f64) {
    let ix = d.to_bits();
    // bits of sqrt(1/2): z = d / 2^k lands in [sqrt(1/2), sqrt(2)); k biased by 1024 so the
    // shift is a logical one (AVX2 has no 64-bit arithmetic shift)
    const OFF: u64 = 0x3fe6_a09e_667f_3bcd;
    let tmp = ix.wrapping_sub(OFF).wrapping_add(1024 << 52);
    let kb = tmp >> 52; // k + 1024 (positive for every positive f32)
    let k = f64::from_bits(0x4330_0000_0000_0000 | kb) - 4_503_599_627_370_496.0 - 1024.0;
    let z = f64::from_bits(ix.wrapping_sub(kb.wrapping_sub(1024) << 52));
    let f = z - 1.0;
    (f / (2.0 + f), k)
}

/// 2 atanh s = 2s (1 + s^2/3 + s^4/5 + ...): the series' coefficients to s^20 (the remainder
/// is under 3e-17), highest first.
const LN_ATANH: [f64; 10] = [
    1.0 / 21.0,
    1.0 / 19.0,
    1.0 / 17.0,
    1.0 / 15.0,
    1.0 / 13.0,
    1.0 / 11.0,
    1.0 / 9.0,
    1.0 / 7.0,
    1.0 / 5.0,
    1.0 / 3.0,
];

/// ln d from `ln_reduce`'s `s` and `k` and the series `p` at `s2 = s * s`.
#[inline(always)]
fn ln_finish(s: f64, s2: f64, p: f64, k: f64) -> f64 {
    let lz = (2.0 * s).mul_add(s2 * p, 2.0 * s);
    k.mul_add(std::f64::consts::LN_2, lz)
}

/// ln x in f32 arithmetic, what `torch.log` computes: within 0.8 ulp (not always correctly
/// rounded, as MKL's VML, which PyTorch's x86 wheels call, is not). The shape is the classic
/// single-precision one: z = x / 2^k in [sqrt(1/2), sqrt(2)), ln(1 + f) = f - f^2/2 + f^3 P(f)
/// with our own least-squares fit P, and k ln 2 added last in two parts. Of the variants we
/// tried it agrees best with MKL's bits (95-97% of the floats in [1/2, 8), 98% of
/// `tests/data/vmath_golden.txt`, against 92% and 96% for the correctly rounded `ln`), and like
/// MKL it gives `log(2.7182817) == 1`, so `torch.log(torch.tensor(2.718281828))` prints `1.`.
/// Kept apart from `ln`: ATen's scalar code (log_softmax's `std::log`) rounds correctly.
#[inline(always)]
pub fn ln_faithful(x: f32) -> f32 {
    // subnormals are scaled by 2^23 into the normal range first
    let sub = x < f32::MIN_POSITIVE;
    let (f, k) = ln32_reduce(if sub { x * 8_388_608.0 } else { x });
    let k = k - if sub { 23.0 } else { 0.0 };
    ln_edges(x, ln32_finish(f, k, ln32_series(f)))
}

/// `x = 2^k (1 + f)` with `1 + f` in [sqrt(1/2), sqrt(2)), for a positive normal `x`.
#[inline(always)]
fn ln32_reduce(x: f32) -> (f32, f32) {
    let ix = x.to_bits() as i32;
    // k from the bits of x / sqrt(1/2); z keeps the mantissa with exponent 0 or -1 (exact)
    let k = ix.wrapping_sub(0x3f35_04f3) >> 23;
    let z = f32::from_bits(ix.wrapping_sub(k << 23) as u32);
    (z - 1.0, k as f32) // z - 1 is exact (Sterbenz)
}

const LN32_P: [f32; 9] = [
    6.675_272e-2,
    -1.164_643_5e-1,
    1.190_471_2e-1,
    -1.241_126_9e-1,
    1.421_789_1e-1,
    -1.666_764_3e-1,
    2.000_220_4e-1,
    -2.500_001_5e-1,
    3.333_331e-1,
];

/// P(f) of `ln(1 + f) = f - f^2/2 + f^3 P(f)`.
#[inline(always)]
fn ln32_series(f: f32) -> f32 {
    let mut p = LN32_P[0];
    for c in &LN32_P[1..] {
        p = p.mul_add(f, *c);
    }
    p
}

/// `k ln 2 + ln(1 + f)` from the series `p` at `f`.
#[inline(always)]
fn ln32_finish(f: f32, k: f32, p: f32) -> f32 {
    let f2 = f * f;
    // ln 2 = 355/512 + LN2_LO: k * 355/512 is exact for every k here
    const LN2_LO: f32 = -2.121_944_4e-4;
    // 0.5 f2 and 355/512 k are exact products (f2 is never subnormal: f is 0 or >= 2^-24),
    // so fusing them changes no bit and saves two operations
    let y = (-0.5f32).mul_add(f2, p * f * f2 + LN2_LO * k);
    (355.0f32 / 512.0).mul_add(k, f + y)
}

/// `ln_faithful` of `BLOCK` elements, each step for all of them before the next (as
/// `exp_block`), assuming positive normal finite inputs; the caller redoes any other.
#[inline(always)]
fn ln_faithful_block(x: &[f32; BLOCK], out: &mut [f32; BLOCK]) {
    let (mut f, mut k, mut p) = ([0f32; BLOCK], [0f32; BLOCK], [0f32; BLOCK]);
    for i in 0..BLOCK {
        (f[i], k[i]) = ln32_reduce(x[i]);
    }
    for i in 0..BLOCK {
        p[i] = ln32_series(f[i]);
    }
    for i in 0..BLOCK {
        out[i] = ln32_finish(f[i], k[i], p[i]);
    }
}

/// `out[i] = ln_faithful(x[i])` (equal lengths), `BLOCK` elements a step: the edges (zero,
/// subnormals, negatives, infinity, NaN) are found per block and redone one by one, which
/// took 0.43 -> 0.29 ns an element against selecting them in every lane.
#[inline(always)]
fn ln_faithful_blocks(x: &[f32], out: &mut [f32]) {
    let n = x.len().min(out.len());
    let whole = n / BLOCK * BLOCK;
    let normal = |v: f32| (f32::MIN_POSITIVE..=f32::MAX).contains(&v);
    let blocks = x[..whole]
        .chunks_exact(BLOCK)
        .zip(out[..whole].chunks_exact_mut(BLOCK));
    for (xs, os) in blocks {
        ln_faithful_block(xs.try_into().expect("BLOCK"), os.try_into().expect("BLOCK"));
        // a fold, not `all`: no early exit, so it vectorises
        if !xs.iter().fold(true, |all, &v| all & normal(v)) {
            for (o, &v) in os.iter_mut().zip(xs) {
                if !normal(v) {
                    *o = ln_faithful(v);
                }
            }
        }
    }
    for (o, &v) in out[whole..n].iter_mut().zip(&x[whole..n]) {
        *o = ln_faithful(v);
    }
}

/// tanh x rounded to f32.
#[inline(always)]
pub fn tanh(x: f32) -> f32 {
    let a = (x as f64).abs();
    let a = if a > 20.0 { 20.0 } else { a }; // tanh(20) is 1 in f64; NaN passes
    let e = exp_clamped(2.0 * a);
    let t = (e - 1.0) / (e + 1.0);
    // below 2^-12, x^3/3 is under half an f32 ulp of x: tanh rounds to x (and e - 1 would
    // have cancelled)
    let t = if a < 1.0 / 4096.0 { a } else { t };
    (t as f32).copysign(x)
}

/// A Python-number exponent as `pow` needs it: C's pow takes the sign of a negative base
/// from an odd integer exponent and gives NaN for a negative finite base under any other
/// non-integer one (an infinite exponent counts as an even integer).
#[derive(Clone, Copy)]
pub struct Exponent {
    e: f64,
    odd: bool,
    int: bool,
}

impl Exponent {
    pub fn new(e: f64) -> Self {
        let int = e.is_infinite() || e.trunc() == e;
        Exponent {
            e,
            odd: e.is_finite() && int && e % 2.0 != 0.0,
            int,
        }
    }
}

/// x^e rounded to f32, for an exponent other than 0 (`pow_slice` fills those with 1):
/// `e^(e ln|x|)` in f64 from `ln_f64` and `exp_clamped`, within ~1e-13 relative of the exact
/// power, so it rounds as ATen's scalar `std::pow(float, double)` (the double result rounded
/// once) does except within that distance of a halfway point. The special values are C's:
/// `pow(1, e) = 1`, zeros and infinities through `ln`'s -inf and inf, NaN passed on.
#[inline(always)]
pub fn pow(x: f32, p: Exponent) -> f32 {
    let a = (x as f64).abs(); // f32 subnormals are normal f64s
    pow_edges(x, p, exp_clamped(p.e * ln_abs_edges(a, ln_f64(a))) as f32)
}

/// `l`, `ln_f64(a)` for `a = |x|` of an f32, with the edges: -inf at 0, inf at inf, NaN for
/// NaN (selects, so callers still vectorise).
#[inline(always)]
fn ln_abs_edges(a: f64, l: f64) -> f64 {
    let l = if a == 0.0 { f64::NEG_INFINITY } else { l };
    if a == f64::INFINITY || a.is_nan() {
        a
    } else {
        l
    }
}

/// `r = |x|^e` with `pow`'s rules for a base of 1 and for negative bases.
#[inline(always)]
fn pow_edges(x: f32, p: Exponent, r: f32) -> f32 {
    let r = if x.abs() == 1.0 { 1.0 } else { r };
    let r = if x.is_sign_negative() && p.odd { -r } else { r };
    if x < 0.0 && x != f32::NEG_INFINITY && !p.int {
        f32::NAN
    } else {
        r
    }
}

/// `pow` of `BLOCK` elements, each step for all of them before the next, as in `exp_block`
/// (the logarithm's and the exponential's chains of dependent FMAs, eight vectors side by
/// side). The same operations, so the same bits.
#[inline(always)]
fn pow_block(x: &[f32; BLOCK], p: Exponent, out: &mut [f32; BLOCK]) {
    let (mut s, mut k, mut s2, mut q) = (
        [0f64; BLOCK],
        [0f64; BLOCK],
        [0f64; BLOCK],
        [LN_ATANH[0]; BLOCK],
    );
    for i in 0..BLOCK {
        (s[i], k[i]) = ln_reduce((x[i] as f64).abs());
        s2[i] = s[i] * s[i];
    }
    for c in &LN_ATANH[1..] {
        for i in 0..BLOCK {
            q[i] = q[i].mul_add(s2[i], *c);
        }
    }
    let (mut r, mut scale, mut e) = ([0f64; BLOCK], [0f64; BLOCK], [EXP_TAYLOR[0]; BLOCK]);
    for i in 0..BLOCK {
        let l = ln_finish(s[i], s2[i], q[i], k[i]);
        (r[i], scale[i]) = exp_reduce(p.e * ln_abs_edges((x[i] as f64).abs(), l));
    }
    for c in &EXP_TAYLOR[1..] {
        for i in 0..BLOCK {
            e[i] = e[i].mul_add(r[i], *c);
        }
    }
    for i in 0..BLOCK {
        out[i] = pow_edges(x[i], p, (e[i] * scale[i]) as f32);
    }
}

/// `out[i] = x[i]^e` (equal lengths), with the AVX-512 or AVX2+FMA build where the CPU has it.
pub fn pow_slice(x: &[f32], e: f64, out: &mut [f32]) {
    if e == 0.0 {
        // pow(x, 0) is 1 for every x, NaN included (e * ln x would be NaN at 0 and inf)
        out.fill(1.0);
        return;
    }
    pow_tiers(x, Exponent::new(e), out)
}

/// ATen's scalar sigmoid, `1 / (1 + exp(-x))` in f32 (the tail after its vector body, which is
/// `sleef::sigmoid_slice`).
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp(-x))
}

macro_rules! slice_kernel {
    // `f` applied element by element
    ($name:ident, $f:path) => {
        slice_kernel!(@body $name (), |x, out| {
            for (o, &v) in out.iter_mut().zip(x) {
                *o = $f(v);
            }
        });
    };
    // `g(x, out)` over the whole slices
    ($name:ident, slice $g:path) => {
        slice_kernel!(@body $name (), |x, out| { $g(x, out) });
    };
    // `body` with parameters `$p` besides the slices
    (@body $name:ident ($($p:ident: $t:ty),*), |$x:ident, $out:ident| $body:block) => {
        /// `out[i] = f(x[i])` (the lengths are equal), with the AVX2+FMA build where the CPU
        /// has it.
        pub fn $name(x: &[f32], $($p: $t,)* out: &mut [f32]) {
            #[inline(always)]
            fn body($x: &[f32], $($p: $t,)* $out: &mut [f32]) $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx2,fma")]
                unsafe fn avx512(x: &[f32], $($p: $t,)* out: &mut [f32]) {
                    body(x, $($p,)* out)
                }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn avx2(x: &[f32], $($p: $t,)* out: &mut [f32]) {
                    body(x, $($p,)* out)
                }
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512dq")
                    && std::is_x86_feature_detected!("avx512vl")
                {
                    // SAFETY: the CPU has AVX-512 F/DQ/VL, and with them AVX2 and FMA
                    // (detected just above), the only requirement of a `target_feature`
                    // function. Eight f64 lanes and AVX-512's 64-bit integer conversions; the
                    // same operations, so the same bits.
                    unsafe { avx512(x, $($p,)* out) };
                    return;
                }
                if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                    // SAFETY: the CPU has AVX2 and FMA (detected just above), the only
                    // requirement of a `target_feature` function.
                    unsafe { avx2(x, $($p,)* out) };
                    return;
                }
            }
            body(x, $($p,)* out)
        }
    };
}
slice_kernel!(exp_slice, slice exp_blocks);

slice_kernel!(ln_faithful_slice, slice ln_faithful_blocks);
slice_kernel!(tanh_slice, tanh);
slice_kernel!(@body pow_tiers (p: Exponent), |x, out| {
    let whole = x.len() / BLOCK * BLOCK;
    let blocks = x[..whole].chunks_exact(BLOCK).zip(out[..whole].chunks_exact_mut(BLOCK));
    for (xs, os) in blocks {
        pow_block(xs.try_into().expect("BLOCK"), p, os.try_into().expect("BLOCK"));
    }
    for (o, &v) in out[whole..].iter_mut().zip(&x[whole..]) {
        *o = pow(v, p);
    }
});

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN: &str = include_str!("../../../tests/data/vmath_golden.txt");

    /// (x, PyTorch's exp(x), PyTorch's log(x)) as f32 bit patterns.
    fn golden() -> Vec<[u32; 3]> {
        GOLDEN
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let mut w = l.split(' ').map(|h| u32::from_str_radix(h, 16).unwrap());
                [w.next().unwrap(), w.next().unwrap(), w.next().unwrap()]
            })
            .collect()
    }

    fn same(a: f32, b: u32) -> bool {
        a.to_bits() == b || (a.is_nan() && f32::from_bits(b).is_nan())
    }

    /// expm1 and log1p round as f64's libm results rounded to f32 do (correctly, but within
    /// ~1e-16 of a halfway point), over a sweep of magnitudes with both signs and the edges.
    #[test]
    fn expm1_and_log1p_are_correctly_rounded() {
        let mut xs = vec![
            0.0f32,
            -0.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            88.7,
            89.5,
            -104.5,
            1e-40,
            -1e-40,
        ];
        let mut v = 1e-30f32;
        while v < 1e4 {
            xs.extend([v, -v, v * 1.37, -v * 0.71]);
            v *= 1.09;
        }
        for &x in &xs {
            let want = (x as f64).exp_m1() as f32;
            assert!(
                same(exp_m1(x), want.to_bits()),
                "expm1({x:e}) = {:e}, not {want:e}",
                exp_m1(x)
            );
            let want = (x as f64).ln_1p() as f32;
            assert!(
                same(ln_1p(x), want.to_bits()),
                "log1p({x:e}) = {:e}, not {want:e}",
                ln_1p(x)
            );
        }
        assert!(exp_m1(f32::NAN).is_nan() && ln_1p(f32::NAN).is_nan() && ln_1p(-2.0).is_nan());
    }

    #[test]
    fn exp_and_log_are_correctly_rounded_and_mostly_pytorchs() {
        let g = golden();
        assert!(g.len() > 9000);
        let (mut same_e, mut same_l) = (0, 0);
        for &[x, e, l] in &g {
            let x = f32::from_bits(x);
            let ce = (x as f64).exp() as f32;
            assert!(same(exp(x), ce.to_bits()), "exp({x:e})");
            let cl = (x as f64).ln() as f32;
            assert!(same(ln(x), cl.to_bits()), "log({x:e})");
            same_e += same(exp(x), e) as usize;
            same_l += same(ln(x), l) as usize;
        }
        // PyTorch (MKL) is within 1 ulp and usually the correctly rounded value too
        assert!(same_e * 100 > g.len() * 97, "{same_e} of {}", g.len());
        assert!(same_l * 100 > g.len() * 93, "{same_l} of {}", g.len());
    }

    #[test]
    fn ln_faithful_is_within_an_ulp_and_mostly_pytorchs() {
        let g = golden();
        let same_l = g
            .iter()
            .filter(|r| same(ln_faithful(f32::from_bits(r[0])), r[2]))
            .count();
        // measured 9731 of 9906; the correctly rounded `ln` gets 9536
        assert!(same_l * 100 > g.len() * 97, "{same_l} of {}", g.len());
        // every binade from subnormals to the top, 4096 floats each
        for b in (0u32..0x7f80_0000).step_by(0x800) {
            let x = f32::from_bits(b | 1);
            let exact = (x as f64).ln();
            let cr = exact as f32;
            let ulp = (f32::from_bits(cr.abs().to_bits() + 1) - cr.abs()) as f64;
            let err = (ln_faithful(x) as f64 - exact).abs() / ulp;
            assert!(err < 0.85, "ln_faithful({x:e}): {err} ulp");
        }
        assert_eq!(ln_faithful(2.718_281_7), 1.0); // as MKL: the exact value is 0.99999997
        assert_eq!(ln_faithful(1.0), 0.0);
        assert_eq!(ln_faithful(0.0), f32::NEG_INFINITY);
        assert_eq!(ln_faithful(-0.0), f32::NEG_INFINITY);
        assert_eq!(ln_faithful(f32::INFINITY), f32::INFINITY);
        assert!(ln_faithful(-1.0).is_nan() && ln_faithful(f32::NAN).is_nan());
    }

    #[test]
    fn tanh_is_correctly_rounded_on_a_grid() {
        let mut xs: Vec<f32> = (0..200_000)
            .map(|i| (i as f32 - 100_000.0) * 1e-3)
            .collect();
        xs.extend(
            (0..2000u32)
                .map(|i| f32::from_bits(0x0000_1000u32.wrapping_add(i.wrapping_mul(0x0040_1001)))),
        );
        for x in xs {
            let t = (x as f64).tanh() as f32;
            assert_eq!(tanh(x).to_bits(), t.to_bits(), "tanh({x})");
        }
        assert_eq!(tanh(f32::INFINITY), 1.0);
        assert_eq!(tanh(f32::NEG_INFINITY), -1.0);
        assert!(tanh(f32::NAN).is_nan());
        assert_eq!(tanh(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(sigmoid(0.0), 0.5);
    }

    #[test]
    fn slice_kernels_match_the_scalar_functions() {
        let xs: Vec<f32> = golden().iter().map(|r| f32::from_bits(r[0])).collect();
        let mut out = vec![0f32; xs.len()];
        let check = |out: &[f32], f: fn(f32) -> f32| {
            xs.iter().zip(out).all(|(&x, &o)| same(o, f(x).to_bits()))
        };
        exp_slice(&xs, &mut out);
        assert!(check(&out, exp));
        ln_faithful_slice(&xs, &mut out);
        assert!(check(&out, ln_faithful));
        tanh_slice(&xs, &mut out);
        assert!(check(&out, tanh));
    }

    /// `pow_slice` (its blocks and its tail) gives libm's double pow rounded to f32, what
    /// ATen's scalar loop gives, with C's rules at the edges: a sweep of magnitudes with both
    /// signs and the special values, under integer, odd, fractional and infinite exponents.
    #[test]
    fn pow_is_the_double_pow_rounded() {
        let mut xs: Vec<f32> = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-40,
            -1e-40,
            f32::MAX,
            -f32::MAX,
            0.999,
            1.001,
        ];
        for i in 0..20_000 {
            let m = 10f32.powf(i as f32 / 20_000.0 * 16.0 - 8.0);
            xs.extend([m, -m]);
        }
        for e in [
            1.5,
            -1.5,
            2.5,
            3.0001,
            1.0 / 3.0,
            7.0,
            -3.0,
            1.0,
            100.0,
            -0.1,
            1e-5,
        ] {
            for e in [e, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 0.0] {
                let mut out = vec![0f32; xs.len()];
                pow_slice(&xs, e, &mut out);
                for (&x, &o) in xs.iter().zip(&out) {
                    let want = (x as f64).powf(e) as f32;
                    assert!(same(o, want.to_bits()), "{x}^{e}: {o} vs {want}");
                }
            }
        }
    }
}

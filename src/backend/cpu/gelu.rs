//! GELU (`F.gelu`) and its derivative, both forms, in the element type's own arithmetic.
//!
//! The scalar formulas are ATen's (`GeluKernelImpl`, `GeluBackwardKernelImpl`) with a
//! correctly rounded `erf`/`tanh`: what PyTorch computes for one element or a strided input.
//! A contiguous float32 input of two or more elements PyTorch hands to oneDNN, whose JIT erf
//! is its own approximation (it agrees with the scalar path in about two thirds of the
//! elements, within an ulp or two elsewhere); `erf_lanes` here is a vectorised erf within
//! about an ulp of the correctly rounded one, so the erf form is fast without reproducing
//! oneDNN's bits. The tanh form has no oneDNN path: its vectorised loop below is the scalar
//! formula over blocks, through `vmath`'s tanh.
use super::math::FloatMath;
use super::{sleef, vmath};

/// `1/√2`, `√(2/π)`, the tanh form's cubic coefficient, `1/√(2π)`: ATen's constants.
const ALPHA: f64 = std::f64::consts::FRAC_1_SQRT_2;
const BETA: f64 = std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5;
const KAPPA: f64 = 0.044715;
const PDF: f64 = std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2 * 0.5;

fn k<M: FloatMath>(v: f64) -> M {
    M::from_f64(v)
}

/// `x * 0.5 * (1 + erf(x / √2))`.
#[inline(always)]
pub fn gelu<M: FloatMath>(x: M) -> M {
    let half = x.mul(k(0.5));
    half.mul(M::one().add(x.mul(k(ALPHA)).erf()))
}

/// The tanh form: `0.5 * x * (1 + tanh(β (x + κ x³)))`.
#[inline(always)]
pub fn gelu_tanh<M: FloatMath>(x: M) -> M {
    let cube = x.mul(x).mul(x);
    let inner = k::<M>(BETA).mul(x.add(k::<M>(KAPPA).mul(cube)));
    k::<M>(0.5).mul(x).mul(M::one().add(inner.tanh()))
}

/// d gelu / dx: `cdf + x * pdf`, `cdf = 0.5 (1 + erf(x / √2))`, `pdf = exp(-x²/2) / √(2π)`.
#[inline(always)]
pub fn gelu_grad<M: FloatMath>(x: M) -> M {
    let cdf = k::<M>(0.5).mul(M::one().add(x.mul(k(ALPHA)).erf()));
    let pdf = k::<M>(PDF).mul(x.mul(x).mul(k(-0.5)).exp());
    cdf.add(x.mul(pdf))
}

/// d gelu_tanh / dx, term by term as ATen writes it.
#[inline(always)]
pub fn gelu_tanh_grad<M: FloatMath>(x: M) -> M {
    let sq = x.mul(x);
    let inner = k::<M>(BETA).mul(x.add(k::<M>(KAPPA).mul(sq.mul(x))));
    let t = inner.tanh();
    let left = k::<M>(0.5).mul(x);
    let right = M::one().add(t);
    let left_d = k::<M>(0.5).mul(right);
    let tanh_d = M::one().sub(t.mul(t));
    let inner_d = k::<M>(BETA).mul(M::one().add(k::<M>(3.0).mul(k(KAPPA)).mul(sq)));
    left_d.add(left.mul(tanh_d).mul(inner_d))
}

/// erf on |u| <= 1: `u * P(u²)`, the Maclaurin series to u²³ (the next term is under 1e-10).
const TAYLOR: [f32; 12] = [
    std::f32::consts::FRAC_2_SQRT_PI,
    -0.376_126_4,
    0.112_837_92,
    -0.026_866_17,
    0.005_223_977_6,
    -0.000_854_832_7,
    0.000_120_553_33,
    -1.492_565e-5,
    1.646_211_4e-6,
    -1.636_584_5e-7,
    1.480_719_3e-8,
    -1.229_055_5e-9,
];

/// erfc on |u| > 1: `t exp(-u² + P(t))`, `t = 1 / (1 + |u|/2)`, Numerical Recipes' Chebyshev
/// fit (`erfcc`, relative error under 1.2e-7), highest coefficient first.
const ERFC: [f32; 10] = [
    0.170_872_77,
    -0.822_152_23,
    1.488_515_9,
    -1.135_204,
    0.278_868_07,
    -0.186_288_06,
    0.096_784_18,
    0.374_091_96,
    1.000_023_7,
    -1.265_512_2,
];

/// One lane of `erf_lanes`: the same operations (the FMAs as FMAs), so every CPU gives the
/// AVX-512 lanes' bits.
#[inline]
pub fn erf_lane(u: f32) -> f32 {
    let a = u.abs();
    if a <= 1.0 {
        let z = u * u;
        let p = TAYLOR[1..]
            .iter()
            .rev()
            .fold(0.0f32, |p, &c| p.mul_add(z, c));
        return u * p.mul_add(z, TAYLOR[0]);
    }
    let t = 1.0 / (0.5f32.mul_add(a, 1.0));
    let p = ERFC[1..].iter().fold(ERFC[0], |p, &c| p.mul_add(t, c));
    let erfc = t * sleef::exp((-a).mul_add(a, p));
    (1.0 - erfc).copysign(u)
}

/// `gelu` (float32) of a contiguous run of two or more elements: `erf_lane`'s erf.
#[inline]
pub fn gelu_lane(x: f32) -> f32 {
    (x * 0.5) * (1.0 + erf_lane(x * ALPHA as f32))
}

/// `gelu_grad` (float32) with `erf_lane`'s erf and SLEEF's exp.
#[inline]
pub fn gelu_grad_lane(x: f32) -> f32 {
    let cdf = 0.5 * (1.0 + erf_lane(x * ALPHA as f32));
    let pdf = PDF as f32 * sleef::exp(x * x * -0.5);
    cdf + x * pdf
}

/// `out[i] = gelu(x[i])` (or its derivative, `grad`) over a contiguous float32 run.
pub fn gelu_slice(x: &[f32], out: &mut [f32], grad: bool) {
    #[cfg(target_arch = "x86_64")]
    if sleef::has_avx512() {
        // SAFETY: the CPU has AVX-512F, AVX2 and FMA (checked just above).
        return unsafe { lanes::gelu(x, out, grad) };
    }
    let f = if grad { gelu_grad_lane } else { gelu_lane };
    for (o, &v) in out.iter_mut().zip(x) {
        *o = f(v);
    }
}

/// `out[i] = gelu_tanh(x[i])` (or its derivative) over a contiguous float32 run: the scalar
/// formula a stack block at a time, its tanh through `vmath`'s vectorised one, saturated as
/// SLEEF's.
pub fn gelu_tanh_slice(x: &[f32], out: &mut [f32], grad: bool) {
    let (beta, kappa) = (BETA as f32, KAPPA as f32);
    let mut t = [0f32; 256];
    for (xs, os) in x.chunks(t.len()).zip(out.chunks_mut(t.len())) {
        let t = &mut t[..xs.len()];
        for (i, &v) in t.iter_mut().zip(xs) {
            *i = beta * (v + kappa * (v * v * v));
        }
        vmath::tanh_slice(t, os);
        for ((o, &v), &inner) in os.iter_mut().zip(xs).zip(t.iter()) {
            let th = sleef_tanh_range(inner, *o);
            *o = if grad {
                let left_d = 0.5 * (1.0 + th);
                let inner_d = beta * (1.0 + 3.0 * kappa * (v * v));
                left_d + 0.5 * v * (1.0 - th * th) * inner_d
            } else {
                0.5 * v * (1.0 + th)
            };
        }
    }
}

/// SLEEF's vector tanh (ATen's) is ±1 beyond |x| = 8.664339742, where the correctly rounded
/// one is still an ulp short of it: `tanh` of `inner` as SLEEF gives it.
#[inline(always)]
fn sleef_tanh_range(inner: f32, tanh: f32) -> f32 {
    if inner.abs() > 8.664_34 {
        1f32.copysign(inner)
    } else {
        tanh
    }
}

/// The AVX-512 lanes of `erf_lane`, `gelu_lane` and `gelu_grad_lane`.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use super::super::sleef::avx512::{exp16n, zip_map, LaneMap, WAYS};
    use super::{ALPHA, ERFC, PDF, TAYLOR};
    use std::arch::x86_64::*;

    /// erf of `N` vectors (`erf_lane` op for op).
    ///
    /// # Safety
    /// The CPU must have AVX-512F, AVX2 and FMA.
    #[inline(always)]
    unsafe fn erf16n<const N: usize>(u: [__m512; N]) -> [__m512; N] {
        // SAFETY: the CPU's features are the caller's promise.
        unsafe {
            let c = _mm512_set1_ps;
            let mut small = [c(0.0); N];
            let mut arg = [c(0.0); N];
            let mut t = [c(0.0); N];
            for i in 0..N {
                let z = _mm512_mul_ps(u[i], u[i]);
                let mut p = c(0.0);
                for &k in TAYLOR[1..].iter().rev() {
                    p = _mm512_fmadd_ps(p, z, c(k));
                }
                small[i] = _mm512_mul_ps(u[i], _mm512_fmadd_ps(p, z, c(TAYLOR[0])));
                let a = _mm512_abs_ps(u[i]);
                t[i] = _mm512_div_ps(c(1.0), _mm512_fmadd_ps(c(0.5), a, c(1.0)));
                let mut q = c(ERFC[0]);
                for &k in &ERFC[1..] {
                    q = _mm512_fmadd_ps(q, t[i], c(k));
                }
                arg[i] = _mm512_fnmadd_ps(a, a, q);
            }
            let e = exp16n(arg);
            let sign = _mm512_set1_epi32(i32::MIN);
            for i in 0..N {
                let big = _mm512_sub_ps(c(1.0), _mm512_mul_ps(t[i], e[i]));
                // the sign of `u` copied in integer lanes: `_mm512_or_ps` is AVX-512DQ, which
                // this function does not enable, so it would be an out-of-line call spilling
                // every register (gelu ran at a third of this speed)
                let signed = _mm512_and_si512(_mm512_castps_si512(u[i]), sign);
                let big = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(big), signed));
                let a = _mm512_abs_ps(u[i]);
                // `a <= 1` is false for NaN, which the large branch passes on
                let in_small = _mm512_cmp_ps_mask::<_CMP_LE_OQ>(a, c(1.0));
                small[i] = _mm512_mask_blend_ps(in_small, big, small[i]);
            }
            small
        }
    }

    /// gelu or its derivative on 16-lane vectors.
    struct Gelu {
        grad: bool,
    }

    impl LaneMap<1> for Gelu {
        #[inline(always)]
        unsafe fn apply<const N: usize>(&self, [x]: [[__m512; N]; 1]) -> [__m512; N] {
            // SAFETY: the CPU's features are the caller's promise.
            unsafe {
                let c = _mm512_set1_ps;
                let mut u = [c(0.0); N];
                for i in 0..N {
                    u[i] = _mm512_mul_ps(x[i], c(ALPHA as f32));
                }
                let mut e = erf16n(u);
                if !self.grad {
                    for i in 0..N {
                        let one_plus = _mm512_add_ps(c(1.0), e[i]);
                        e[i] = _mm512_mul_ps(_mm512_mul_ps(x[i], c(0.5)), one_plus);
                    }
                    return e;
                }
                let mut arg = [c(0.0); N];
                for i in 0..N {
                    arg[i] = _mm512_mul_ps(_mm512_mul_ps(x[i], x[i]), c(-0.5));
                }
                let p = exp16n(arg);
                for i in 0..N {
                    let cdf = _mm512_mul_ps(c(0.5), _mm512_add_ps(c(1.0), e[i]));
                    let pdf = _mm512_mul_ps(c(PDF as f32), p[i]);
                    e[i] = _mm512_add_ps(cdf, _mm512_mul_ps(x[i], pdf));
                }
                e
            }
        }
    }

    /// `super::gelu_slice` on 16 lanes.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub fn gelu(x: &[f32], out: &mut [f32], grad: bool) {
        let n = x.len().min(out.len());
        // SAFETY: this function's target features are `zip_map`'s.
        unsafe { zip_map::<1, { WAYS / 2 }>([x], &mut out[..n], Gelu { grad }) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ulps between two floats of one sign (or both zero).
    fn ulps(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    #[test]
    fn erf_lane_is_within_two_ulps_of_the_rounded_erf() {
        let mut worst = 0;
        for i in -400_000..=400_000 {
            let u = i as f32 * 1e-5;
            let want = libm::erf(u as f64) as f32;
            let got = erf_lane(u);
            worst = worst.max(ulps(got, want));
        }
        assert!(worst <= 2, "worst {worst} ulps");
        assert_eq!(erf_lane(f32::INFINITY), 1.0);
        assert_eq!(erf_lane(f32::NEG_INFINITY), -1.0);
        assert!(erf_lane(f32::NAN).is_nan());
        assert_eq!(erf_lane(-0.0).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn the_avx512_lanes_give_the_scalar_lanes_bits() {
        let x: Vec<f32> = (0..5000)
            .map(|i| (i as f32 - 2500.0) * 3.7e-3)
            .chain([
                0.0,
                -0.0,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                1e-30,
                3e38,
            ])
            .collect();
        for grad in [false, true] {
            let mut out = vec![0f32; x.len()];
            gelu_slice(&x, &mut out, grad);
            let f = if grad { gelu_grad_lane } else { gelu_lane };
            for (&v, &o) in x.iter().zip(&out) {
                assert_eq!(o.to_bits(), f(v).to_bits(), "x = {v}, grad {grad}");
            }
        }
    }

    #[test]
    fn the_lanes_agree_with_the_scalar_formula_within_an_ulp_of_erf() {
        for i in -60_000..=60_000 {
            let x = i as f32 * 1e-4;
            let (a, b) = (gelu_lane(x), gelu::<f32>(x));
            // two ulps of 1 + erf (1.2e-7) apart at most, which is many of the result's where
            // it cancels (x below about -1)
            let tol = 0.5 * x.abs() * 1.2e-7 + 2.5e-7 * b.abs();
            assert!((a - b).abs() <= tol, "gelu({x}) {a} vs {b}");
            let (a, b) = (gelu_grad_lane(x), gelu_grad::<f32>(x));
            // (cdf is two ulps of 1 + erf apart at most, x * pdf an ulp of its own: 1e-7 where
            // they cancel)
            assert!(
                (a - b).abs() <= 1e-7 + 2.5e-7 * b.abs(),
                "grad({x}) {a} vs {b}"
            );
        }
    }

    #[test]
    fn the_tanh_slices_are_the_scalar_formula() {
        // |x| < 4.5: the tanh's argument stays under SLEEF's saturation point
        let x: Vec<f32> = (0..3000).map(|i| (i as f32 - 1500.0) * 3e-3).collect();
        for grad in [false, true] {
            let mut out = vec![0f32; x.len()];
            gelu_tanh_slice(&x, &mut out, grad);
            let f = if grad {
                gelu_tanh_grad::<f32>
            } else {
                gelu_tanh::<f32>
            };
            for (&v, &o) in x.iter().zip(&out) {
                assert_eq!(o.to_bits(), f(v).to_bits(), "x = {v}, grad {grad}");
            }
        }
        // beyond it, 1 + tanh is 0 (SLEEF's -1), not an ulp of 1
        let mut out = [1f32; 2];
        gelu_tanh_slice(&[-6.0, 6.0], &mut out, false);
        assert_eq!(out, [-0.0, 6.0]);
    }
}

//! float16/bfloat16 through the float32 kernels, as ATen computes them: each vector widened to
//! floats, the float kernel, one rounding back. `widen` and `narrow` convert whole slices
//! (float16 by F16C, 8 a step, where the CPU has it; the `half` crate's slice conversions call
//! a function per 8 values); `blockwise` runs a float32 kernel through stack blocks, so the wide
//! copy never leaves the L1 cache (element by element, the conversions cost more than the op);
//! `zip_half` runs a binary op widened, computed and narrowed in one pass.
use super::sum::{slice_as, slice_as_mut};
use crate::backend::storage::Element;
use crate::core::DType;
use half::{bf16, f16};

/// Elements a block: small enough that zeroing the two stack buffers costs little per call.
const BLOCK: usize = 256;

/// `out = narrow(f(widen(xs)))` block by block (`xs` and `out` have one length); `f(at, x, y)`
/// gets each block's offset in `xs`.
pub fn blockwise<H: Element<M = f32>>(
    xs: &[H],
    out: &mut [H],
    f: impl Fn(usize, &[f32], &mut [f32]),
) {
    let mut wide = [0f32; BLOCK];
    let mut res = [0f32; BLOCK];
    for (k, (x, o)) in xs.chunks(BLOCK).zip(out.chunks_mut(BLOCK)).enumerate() {
        let n = x.len();
        widen(x, &mut wide[..n]);
        f(k * BLOCK, &wide[..n], &mut res[..n]);
        narrow(&res[..n], o);
    }
}

/// `out[i] = f(xs[i], ys[i])` on half-precision slices of one length, each value widened, `f`
/// in float32 and rounded back once, in one pass: float16 by F16C (8 lanes widened, `f`,
/// narrowed) where the CPU has it; bfloat16 rounded as ATen's binary loop rounds, whole vectors
/// of 32 by its vector conversion (a NaN becomes `0xFFFF`) and the rest by c10's scalar one
/// (`0x7FC0`) — `xs` must start on a vector boundary of the tensor.
pub fn zip_half<H: Element<M = f32>>(
    xs: &[H],
    ys: &[H],
    out: &mut [H],
    f: impl Fn(f32, f32) -> f32,
) {
    #[cfg(target_arch = "x86_64")]
    if let (Some(x), Some(y), Some(o)) = (
        slice_as::<H, f16>(xs),
        slice_as::<H, f16>(ys),
        slice_as_mut::<H, f16>(out),
    ) {
        if std::is_x86_feature_detected!("f16c") {
            // SAFETY: the CPU has F16C and AVX (detected just above).
            return unsafe { f16c::zip(x, y, o, f) };
        }
    }
    let mut whole = 0;
    if let Some(o) = slice_as_mut::<H, bf16>(out) {
        whole = o.len() / 32 * 32;
        bf16_zip(
            as_bits(&xs[..whole]),
            as_bits(&ys[..whole]),
            &mut o[..whole],
            &f,
        );
    }
    for ((o, x), y) in out[whole..].iter_mut().zip(&xs[whole..]).zip(&ys[whole..]) {
        *o = H::store(f(x.load(), y.load()));
    }
}

simd_build! {
    /// `zip_half`'s bfloat16 vector part on the values' bits: the widening a shift (bfloat16
    /// is a float's upper half), the narrowing ATen's vector rounding.
    fn bf16_zip<>(xs: &[u16], ys: &[u16], out: &mut [bf16], f: &impl Fn(f32, f32) -> f32) {
        for ((o, &x), &y) in out.iter_mut().zip(xs).zip(ys) {
            let (p, q) = (f32::from_bits((x as u32) << 16), f32::from_bits((y as u32) << 16));
            *o = super::bf16_vectorized(f(p, q));
        }
    }
}

/// `out[i] = xs[i]` as float32 (exact; the lengths are equal).
pub fn widen<H: Element<M = f32>>(xs: &[H], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(h) = slice_as::<H, f16>(xs) {
        if std::is_x86_feature_detected!("f16c") {
            // SAFETY: the CPU has F16C and AVX (detected just above; F16C implies AVX).
            return unsafe { f16c::widen(h, out) };
        }
    }
    loads(xs, out)
}

/// `out[i] = xs[i]` rounded to the half type as ATen's vector conversions round (nearest even;
/// a NaN becomes bfloat16 `0xFFFF`, float16 F16C's quiet NaN; the lengths are equal).
pub fn narrow<H: Element<M = f32>>(xs: &[f32], out: &mut [H]) {
    #[cfg(target_arch = "x86_64")]
    if H::DTYPE == DType::F16 && std::is_x86_feature_detected!("f16c") {
        if let Some(h) = slice_as_mut::<H, f16>(out) {
            // SAFETY: the CPU has F16C and AVX (detected just above).
            return unsafe { f16c::narrow(xs, h) };
        }
    }
    if let Some(b) = slice_as_mut::<H, bf16>(out) {
        return bf16_stores(xs, b);
    }
    stores(xs, out)
}

simd_build! {
    /// `narrow` to bfloat16.
    fn bf16_stores<>(xs: &[f32], out: &mut [bf16]) {
        for (o, &x) in out.iter_mut().zip(xs) {
            *o = super::bf16_vectorized(x);
        }
    }
}

/// A half-precision slice as its bit patterns.
pub(crate) fn as_bits<H: Element>(xs: &[H]) -> &[u16] {
    assert_eq!(std::mem::size_of::<H>(), 2);
    // SAFETY: a two-byte element type (checked) is a `u16` bit pattern in memory.
    unsafe { std::slice::from_raw_parts(xs.as_ptr().cast(), xs.len()) }
}

simd_build! {
    /// `widen` by `half_bits`' branch-free conversion (bfloat16: a shift).
    fn loads<H: Element<M = f32>>(xs: &[H], out: &mut [f32]) {
        for (o, &x) in out.iter_mut().zip(xs) {
            *o = x.load();
        }
    }
}

simd_build! {
    /// `narrow` by `half_bits`' branch-free conversion.
    fn stores<H: Element<M = f32>>(xs: &[f32], out: &mut [H]) {
        for (o, &x) in out.iter_mut().zip(xs) {
            *o = H::store(x);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod f16c {
    use half::f16;
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx,f16c")]
    pub fn widen(xs: &[f16], out: &mut [f32]) {
        let n = xs.len().min(out.len());
        let body = n / 8 * 8;
        for i in (0..body).step_by(8) {
            // SAFETY: elements `i..i + 8` lie in both slices (`i + 8 <= body <= n`; `f16` is a
            // `u16` in memory); unaligned loads and stores.
            unsafe {
                let h = _mm_loadu_si128(xs.as_ptr().add(i).cast());
                _mm256_storeu_ps(out.as_mut_ptr().add(i), _mm256_cvtph_ps(h));
            }
        }
        for i in body..n {
            out[i] = xs[i].to_f32();
        }
    }

    /// `super::zip_half` on float16, 8 lanes a step (`f` is inlined into the step, and its 8 calls on the
    /// widened lanes become one AVX instruction).
    #[target_feature(enable = "avx,f16c")]
    pub fn zip(xs: &[f16], ys: &[f16], out: &mut [f16], f: impl Fn(f32, f32) -> f32) {
        let n = xs.len().min(ys.len()).min(out.len());
        let body = n / 8 * 8;
        let (mut p, mut q) = ([0f32; 8], [0f32; 8]);
        for i in (0..body).step_by(8) {
            // SAFETY: elements `i..i + 8` lie in all three slices (`i + 8 <= body <= n`; `f16`
            // is a `u16` in memory), and `p`, `q` and `r` hold 8 floats; unaligned loads and
            // stores.
            unsafe {
                let a = _mm_loadu_si128(xs.as_ptr().add(i).cast());
                let b = _mm_loadu_si128(ys.as_ptr().add(i).cast());
                _mm256_storeu_ps(p.as_mut_ptr(), _mm256_cvtph_ps(a));
                _mm256_storeu_ps(q.as_mut_ptr(), _mm256_cvtph_ps(b));
                let r: [f32; 8] = std::array::from_fn(|k| f(p[k], q[k]));
                let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm256_loadu_ps(r.as_ptr()));
                _mm_storeu_si128(out.as_mut_ptr().add(i).cast(), h);
            }
        }
        for i in body..n {
            out[i] = f16::from_f32(f(xs[i].to_f32(), ys[i].to_f32()));
        }
    }

    #[target_feature(enable = "avx,f16c")]
    pub fn narrow(xs: &[f32], out: &mut [f16]) {
        let n = xs.len().min(out.len());
        let body = n / 8 * 8;
        for i in (0..body).step_by(8) {
            // SAFETY: as in `widen`.
            unsafe {
                let v = _mm256_loadu_ps(xs.as_ptr().add(i));
                let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v);
                _mm_storeu_si128(out.as_mut_ptr().add(i).cast(), h);
            }
        }
        for i in body..n {
            out[i] = f16::from_f32(xs[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::half_bits;

    /// Every float16 and bfloat16 value widens exactly, and narrowing a sweep of floats rounds
    /// as the scalar conversions do, over lengths that leave every tail size.
    #[test]
    fn slices_convert_as_the_scalar_conversions() {
        let all: Vec<u16> = (0..=u16::MAX).collect();
        let floats: Vec<f32> = (0..200_003u32)
            .map(|i| f32::from_bits(i.wrapping_mul(21_467)))
            .collect();
        for len in [0, 1, 7, 8, 9, 15, 17, 65_536] {
            let h: Vec<f16> = all[..len].iter().map(|&b| f16::from_bits(b)).collect();
            let b: Vec<bf16> = all[..len].iter().map(|&b| bf16::from_bits(b)).collect();
            let mut w = vec![0f32; len];
            widen(&h, &mut w);
            for (x, y) in h.iter().zip(&w) {
                assert!(x.to_f32().to_bits() == y.to_bits() || y.is_nan(), "{x:?}");
            }
            widen(&b, &mut w);
            for (x, y) in b.iter().zip(&w) {
                assert_eq!(x.to_f32().to_bits(), y.to_bits());
            }
            let mut hn = vec![f16::ZERO; len];
            let mut bn = vec![bf16::ZERO; len];
            narrow(&floats[..len], &mut hn);
            narrow(&floats[..len], &mut bn);
            for (k, &x) in floats[..len].iter().enumerate() {
                if !x.is_nan() {
                    assert_eq!(hn[k].to_bits(), half_bits::f32_to_f16(x), "{x:?}");
                }
                let want = if x.is_nan() {
                    0xFFFF
                } else {
                    half_bits::f32_to_bf16(x)
                };
                assert_eq!(bn[k].to_bits(), want, "{x:?}");
            }
        }
    }
}

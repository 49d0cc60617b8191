//! dtype conversion of a contiguous tensor (`x.float()`, `x.half()`, `x.long()`, ...): one flat
//! loop in the widest SIMD build (`dense1`), split over the team when large; float16 ⇄ float32
//! through F16C where the CPU has it (`widen`); float32 → int64 by AVX-512DQ where it has that.
use super::elementwise::{dense1, drive, uninit};
use super::widen::{narrow, widen};
use crate::backend::storage::{output_vec, Buffer, Element};
use crate::core::error::Result;
use crate::core::DType;
use crate::with_buffer;

/// The `n` elements of `src` from `offset`, converted to `dtype` with PyTorch's cast rules
/// (half types ⇄ float32 as ATen's vector conversions: `widen`/`narrow`).
pub fn contiguous(src: &Buffer, offset: usize, n: usize, dtype: DType) -> Result<Buffer> {
    let r = offset..offset + n;
    Ok(match (src, dtype) {
        (Buffer::F16(v), DType::F32) => Buffer::F32(widened(&v[r])?),
        (Buffer::BF16(v), DType::F32) => Buffer::F32(widened(&v[r])?),
        (Buffer::F32(v), DType::F16) => Buffer::F16(narrowed(&v[r])?),
        (Buffer::F32(v), DType::BF16) => Buffer::BF16(narrowed(&v[r])?),
        (Buffer::F32(v), DType::I64) => Buffer::I64(split(n, |at, o| {
            float_to_long(&v[r.start + at..r.start + at + o.len()], o)
        })?),
        _ => crate::with_dtype!(dtype, D => {
            with_buffer!(src, sv, S => {
                <D as Element>::wrap(each(&sv[r], <D as Element>::cast_from::<S>)?)
            })
        }),
    })
}

/// `v` as float32, split over the team when large.
pub(super) fn widened<H: Element<M = f32>>(v: &[H]) -> Result<Vec<f32>> {
    split(v.len(), |at, o| widen(&v[at..at + o.len()], o))
}

/// `v` rounded to a half type, split over the team when large.
pub(super) fn narrowed<H: Element<M = f32>>(v: &[f32]) -> Result<Vec<H>> {
    split(v.len(), |at, o| narrow(&v[at..at + o.len()], o))
}

/// A new vector of `n` elements, `fill(at, part)` writing each part from `at`.
fn split<D: Element>(n: usize, fill: impl Fn(usize, &mut [D]) + Sync) -> Result<Vec<D>> {
    let mut out = output_vec::<D>(n)?;
    drive(&mut out, fill);
    Ok(out)
}

/// `f` of each element of `xs`.
fn each<S: Element, D: Element>(xs: &[S], f: impl Fn(S) -> D + Sync) -> Result<Vec<D>> {
    split(xs.len(), |at, o| {
        let x = &xs[at..at + o.len()];
        // SAFETY: `dense1` writes `f`'s results, valid `D`s, and nothing else.
        dense1(unsafe { uninit(o) }, x, &f)
    })
}

/// `x.long()` of float32: truncation toward zero, a NaN or a value outside int64's range
/// becoming `i64::MIN` (x86's "integer indefinite", what ATen's `static_cast` compiles to).
/// AVX-512DQ converts 8 a step (`vcvttps2qq`, which gives exactly that); without it, or for
/// the tail, one at a time.
fn float_to_long(xs: &[f32], out: &mut [i64]) {
    let scalar = |x: &[f32], o: &mut [i64]| {
        for (o, &x) in o.iter_mut().zip(x) {
            *o = <i64 as Element>::cast_from(x);
        }
    };
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq") {
        #[target_feature(enable = "avx512f,avx512dq")]
        fn lanes(xs: &[f32], out: &mut [i64]) -> usize {
            use std::arch::x86_64::*;
            let n = xs.len().min(out.len()) / 8 * 8;
            for (x, o) in xs[..n].chunks_exact(8).zip(out[..n].chunks_exact_mut(8)) {
                // SAFETY: `x` holds 8 floats and `o` 8 longs; unaligned load and store.
                unsafe {
                    let v = _mm256_loadu_ps(x.as_ptr());
                    _mm512_storeu_si512(o.as_mut_ptr().cast(), _mm512_cvttps_epi64(v));
                }
            }
            n
        }
        // SAFETY: the CPU has AVX-512F and AVX-512DQ (detected just above).
        let done = unsafe { lanes(xs, out) };
        return scalar(&xs[done..], &mut out[done..]);
    }
    scalar(xs, out)
}

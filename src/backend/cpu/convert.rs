//! dtype conversion of a contiguous tensor (`x.float()`, `x.half()`, `x.long()`, ...): one flat
//! loop in the widest SIMD build (`dense1`), split over the team when large; float16 ⇄ float32
//! through F16C where the CPU has it (`widen`).
use super::bf16_vectorized;
use super::elementwise::{dense1, drive, uninit};
use super::widen::{narrow, widen};
use crate::backend::storage::{output_vec, Buffer, Element};
use crate::core::error::Result;
use crate::core::DType;
use crate::with_buffer;

/// The `n` elements of `src` from `offset`, converted to `dtype` with PyTorch's cast rules.
pub fn contiguous(src: &Buffer, offset: usize, n: usize, dtype: DType) -> Result<Buffer> {
    Ok(match (src, dtype) {
        (Buffer::F16(v), DType::F32) => {
            let v = &v[offset..offset + n];
            Buffer::F32(split(n, |at, o| widen(&v[at..at + o.len()], o))?)
        }
        (Buffer::F32(v), DType::F16) => {
            let v = &v[offset..offset + n];
            Buffer::F16(split(n, |at, o| narrow(&v[at..at + o.len()], o))?)
        }
        // ATen's vector conversion (a contiguous float tensor takes it) makes a NaN 0xFFFF
        (Buffer::F32(v), DType::BF16) => {
            Buffer::BF16(each(&v[offset..offset + n], bf16_vectorized)?)
        }
        _ => crate::with_dtype!(dtype, D => {
            with_buffer!(src, sv, S => {
                <D as Element>::wrap(each(&sv[offset..offset + n], <D as Element>::cast_from::<S>)?)
            })
        }),
    })
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

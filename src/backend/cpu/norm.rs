//! The float32 2-norm over the last dim, as ATen's vectorised `norm_cpu` path computes it
//! (`norm_kernel_tensor_iterator_impl` where the reduction is the contiguous last dim; built
//! for AVX2, so 8 lanes), so the norms carry PyTorch's bits.
use super::iter::PAR_THRESHOLD;
use super::{f32_slices, sleef, team, tensor_of, Owned, View};
use crate::backend::storage::{output_vec, Buffer};
use crate::core::error::Result;

/// The 2-norm of each row of `len` of a contiguous float32 `x` (the rows: all of `x`'s
/// elements in order), shaped `shape`; `None` for other operands.
pub fn norm2_rows(x: &View, len: usize, shape: &[usize]) -> Result<Option<Owned>> {
    if len == 0 || !x.numel().is_multiple_of(len) {
        return Ok(None);
    }
    f32_slices([x], |[xs]| {
        let rows = xs.len() / len;
        let mut out = output_vec::<f32>(rows)?;
        let parts = team::parts_for(xs.len(), PAR_THRESHOLD).min(rows);
        team::for_pieces(&mut out, parts, 1, &|start, piece| {
            let xs = &xs[start * len..(start + piece.len()) * len];
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2,fma")]
                fn fast(out: &mut [f32], xs: &[f32], len: usize) {
                    rows_norm2(out, xs, len)
                }
                if sleef::has_avx2() {
                    // SAFETY: the CPU has AVX2 and FMA (checked just above).
                    return unsafe { fast(piece, xs, len) };
                }
            }
            rows_norm2(piece, xs, len)
        });
        Ok(out)
    })?
    .map(|out| tensor_of(Buffer::F32(out), shape, x.device()))
    .transpose()
}

/// Lane `l` adds `x * x` (rounded, then added: `Vectorized`'s operators are not contracted)
/// over elements `l, l + 8, ...` of the whole vectors; the lanes are added in order into lane
/// 0, the tail's squares added to it one at a time (fused: GCC contracts the scalar
/// `acc += x * x`), and the square root taken. (Read off PyTorch 2.15's bits: the other
/// three ways of fusing miss some of 55 rows of 1 to 1000 floats, this one none.)
#[inline(always)]
fn rows_norm2(out: &mut [f32], xs: &[f32], len: usize) {
    let whole = len / 8 * 8;
    for (o, x) in out.iter_mut().zip(xs.chunks_exact(len)) {
        let mut acc = [0f32; 8];
        for c in x[..whole].chunks_exact(8) {
            for (a, &v) in acc.iter_mut().zip(c) {
                *a += v * v;
            }
        }
        let s = acc[1..].iter().fold(acc[0], |s, &a| s + a);
        *o = x[whole..].iter().fold(s, |s, &v| v.mul_add(v, s)).sqrt();
    }
}

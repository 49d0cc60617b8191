//! Convolution in one pass on AVX-512: the product of the weights with the image's columns
//! on `sgemm`'s tiles, each strip of the columns (32 output positions, every channel and
//! kernel offset) built from the image just before its tiles instead of written out whole by
//! `im2col` and packed again (which cost more than the tiles' arithmetic: a 32×16×32×32 batch
//! has 4.7 MB of columns).
//!
//! Same tiles, so the same bits as `im2col` followed by the batched product, wherever each of
//! that product's tasks runs on `sgemm` (`matmul::sgemm_throughout`); elsewhere `None`, and the
//! caller composes the convolution as before.
use super::im2col::write_span;
use super::matmul::sgemm_throughout;
use super::sgemm::{sgemm_packed, Operand, NR};
use super::{f32_slices, team, tensor_of};
use crate::backend::storage::{output_vec, Buffer};
use crate::backend::{Owned, View};
use crate::core::error::Result;
use crate::core::window::Columns;

/// `x` (a contiguous float32 `[N, C, H, W]`) convolved with `w` (contiguous float32
/// `[O, K]`, `K = C * kh * kw` in the order of `cols`' rows) as `[N, O, OH * OW]`, without a
/// bias; `None` for other operands, CPUs without AVX-512 and products `sgemm` would not take.
pub fn conv2d(x: &View, w: &View, cols: &Columns) -> Result<Option<Owned>> {
    let (s, ws) = (x.shape(), w.shape());
    if s.len() != 4 || ws.len() != 2 {
        return Ok(None);
    }
    let [n, c, h, wd] = [s[0], s[1], s[2], s[3]];
    let (o, k, len) = (ws[0], ws[1], cols.out[0] * cols.out[1]);
    if n == 0 || k != c * cols.offsets() || !sgemm_throughout(n, o, len, k) {
        return Ok(None);
    }
    let out = f32_slices([x], |[xs]| {
        f32_slices([w], |[wv]| {
            let mut out = output_vec::<f32>(n * o * len)?;
            // tasks: whole images, or blocks of strips of one image when there are fewer
            // images than threads (any split gives the same bits: each element is its own sum)
            let blocks = team::threads().div_ceil(n).min(len.div_ceil(NR));
            let per_block = len.div_ceil(NR).div_ceil(blocks) * NR;
            let tasks = n * blocks;
            let (dst, weights) = (out.as_mut_ptr() as usize, wv.as_ptr() as usize);
            let task = |t: usize| {
                let (img, b) = (t / blocks, t % blocks);
                let j0 = (b * per_block).min(len);
                let j1 = (j0 + per_block).min(len);
                if j0 == j1 {
                    return;
                }
                let plane = &xs[img * c * h * wd..][..c * h * wd];
                let strip = |buf: &mut [f32], at: usize, width: usize| {
                    strip_of(buf, plane, [c, h, wd], cols, j0 + at, width)
                };
                let a = Operand {
                    ptr: weights as *const f32,
                    rs: k,
                    cs: 1,
                };
                // SAFETY: `sgemm_throughout` checked `routes` (AVX-512) for these shapes; the
                // weights are `o * k` floats; tasks write disjoint column blocks j0..j1 of
                // image `img`'s `[o, len]` matrix, and `run` returns after every task.
                unsafe {
                    let c0 = (dst as *mut f32).add(img * o * len + j0);
                    sgemm_packed(o, j1 - j0, k, a, strip, c0, len);
                }
            };
            let workers = tasks.min(team::threads());
            team::run(workers, &|p| {
                for t in (p..tasks).step_by(workers) {
                    task(t);
                }
            });
            Ok(out)
        })
    })?
    .flatten();
    out.map(|out| tensor_of(Buffer::F32(out), &[n, o, len], x.device()))
        .transpose()
}

/// Columns `j0..j0 + width` of one image's `im2col` matrix (`[K, OH * OW]`, rows in `cols`'
/// order), packed k-major as `sgemm` takes a strip: `buf[p * NR + j]`, zero past `width`.
fn strip_of(
    buf: &mut [f32],
    plane: &[f32],
    [c, h, wd]: [usize; 3],
    cols: &Columns,
    j0: usize,
    width: usize,
) {
    let ow = cols.out[1];
    for (p, dst) in buf.chunks_exact_mut(NR).enumerate() {
        // (one image: `place` of row p of image 0)
        let [_, off, ch] = cols.place(c, p);
        let src = &plane[ch * h * wd..][..h * wd];
        let mut j = 0;
        while j < width {
            // the rest of output row `oy` from column `ox`, as far as the strip goes
            let (oy, ox) = ((j0 + j) / ow, (j0 + j) % ow);
            let run = (ow - ox).min(width - j);
            write_span(&mut dst[j..j + run], src, [h, wd], cols, off, oy, ox, 0.0);
            j += run;
        }
        dst[width..].fill(0.0);
    }
}

//! Convolution in one pass on AVX-512: the product of the weights with the image's columns
//! on `sgemm`'s tiles, each strip of the columns (32 output positions, every channel and
//! kernel offset) built from the image just before its tiles instead of written out whole by
//! `im2col` and packed again (which cost more than the tiles' arithmetic: a 32×16×32×32 batch
//! has 4.7 MB of columns).
//!
//! Same tiles, so the same bits as `im2col` followed by the batched product, wherever each of
//! that product's tasks runs on `sgemm` (`matmul::sgemm_throughout`); elsewhere `None`, and the
//! caller composes the convolution as before.
use super::matmul::sgemm_throughout;
use super::sgemm::{sgemm_packed, Avx512, Kernel, Operand};
use super::sleef::has_avx512;
use super::{copy_run, f32_slices, team, tensor_of};
use crate::backend::storage::{output_vec, Buffer};
use crate::backend::{Owned, View};
use crate::core::error::Result;
use crate::core::window::Columns;

/// Columns of a strip: the AVX-512 tile's.
const NR: usize = Avx512::NR;

/// `x` (a contiguous float32 `[N, C, H, W]`) convolved with `w` (contiguous float32
/// `[O, C, kh, kw]`) as `[N, O, OH * OW]`, without a bias; `None` for other operands, CPUs
/// without AVX-512 and products `sgemm` would not take.
pub fn conv2d(x: &View, w: &View, cols: &Columns) -> Result<Option<Owned>> {
    let (s, ws) = (x.shape(), w.shape());
    if s.len() != 4 || ws.len() != 4 || ws[1] != s[1] || ws[2..] != cols.window.kernel {
        return Ok(None);
    }
    let [n, c, h, wd] = [s[0], s[1], s[2], s[3]];
    let (o, k, len) = (ws[0], c * cols.offsets(), cols.out[0] * cols.out[1]);
    if n == 0 || !has_avx512() || !sgemm_throughout(n, o, len, k) {
        return Ok(None);
    }
    let out = f32_slices([x], |[xs]| {
        f32_slices([w], |[wv]| {
            let mut out = output_vec::<f32>(n * o * len)?;
            let taps = taps(cols, [c, h, wd]);
            // the weights as `[O, K]`, K in the order of the columns' rows
            let kk = cols.offsets();
            let wv: Vec<f32> = (0..o * k)
                .map(|i| {
                    let [_, off, ch] = cols.place(c, i % k);
                    wv[(i / k * c + ch) * kk + off]
                })
                .collect();
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
                let image = &xs[img * c * h * wd..][..c * h * wd];
                let strip = |buf: &mut [f32], at: usize, width: usize| {
                    // SAFETY: checked above: the CPU has AVX-512F.
                    unsafe { strip_of(buf, image, &taps, cols, [h, wd], j0 + at, width) }
                };
                let a = Operand {
                    ptr: weights as *const f32,
                    rs: k,
                    cs: 1,
                };
                // SAFETY: `sgemm_throughout` checked `routes` for the product's pieces (a
                // block's tiles give the same sums at any width) and AVX-512F is checked above; the
                // weights are `o * k` floats; tasks write disjoint column blocks j0..j1 of
                // image `img`'s `[o, len]` matrix, and `run` returns after every task.
                unsafe {
                    let c0 = (dst as *mut f32).add(img * o * len + j0);
                    sgemm_packed::<Avx512>(o, j1 - j0, k, a, strip, c0, len);
                }
            };
            team::run_tasks(tasks, team::threads(), &task);
            Ok(out)
        })
    })?
    .flatten();
    out.map(|out| tensor_of(Buffer::F32(out), &[n, o, len], x.device()))
        .transpose()
}

/// Where one row of an image's columns (a kernel offset of a channel) reads: its channel's
/// plane, the input row and column that output position (0, 0) reads (negative in the
/// padding), and the output columns `lo..hi` whose input column lies inside the image.
#[derive(Clone, Copy)]
struct Tap {
    plane: usize,
    dy: isize,
    dx: isize,
    lo: usize,
    hi: usize,
}

impl Tap {
    /// For a run of output row `oy` (input row `oy * stride` before this tap's offset) from
    /// output column `ox`, `run` long: the input row this tap reads there and the run's
    /// columns `lo..hi` (from `ox`) that read inside the image; `None` where none do.
    #[inline(always)]
    fn span(&self, y0: usize, h: usize, ox: usize, run: usize) -> Option<(usize, usize, usize)> {
        let y = y0 as isize + self.dy;
        let (lo, hi) = (self.lo.max(ox), self.hi.min(ox + run));
        (y >= 0 && y < h as isize && lo < hi).then(|| (y as usize, lo - ox, hi - ox))
    }
}

/// The taps of the `K` rows of an image's columns, in `cols`' order.
fn taps(cols: &Columns, [c, h, wd]: [usize; 3]) -> Vec<Tap> {
    let w = &cols.window;
    let at = |k: usize, d: usize| (k * w.dilation[d]) as isize - w.padding[d] as isize;
    (0..c * cols.offsets())
        .map(|p| {
            let [_, off, ch] = cols.place(c, p);
            let (dy, dx) = (at(off / w.kernel[1], 0), at(off % w.kernel[1], 1));
            // the first output column whose input column is at least x
            let first = |x: isize| {
                ((x - dx).max(0) as usize)
                    .div_ceil(w.stride[1])
                    .min(cols.out[1])
            };
            Tap {
                plane: ch * h * wd,
                dy,
                dx,
                lo: first(0),
                hi: first(wd as isize),
            }
        })
        .collect()
}

/// Columns `j0..j0 + width` of one image's `im2col` matrix (`[K, OH * OW]`, a row a tap),
/// packed k-major as `sgemm` takes a strip: `buf[p * NR + j]`, zero past `width` and in the
/// padding.
///
/// # Safety
/// The CPU has AVX-512F.
unsafe fn strip_of(
    buf: &mut [f32],
    image: &[f32],
    taps: &[Tap],
    cols: &Columns,
    [h, wd]: [usize; 2],
    j0: usize,
    width: usize,
) {
    let (ow, sy, sx) = (cols.out[1], cols.window.stride[0], cols.window.stride[1]);
    // the strip's pieces of output rows: (first column in the strip, length, oy, ox)
    let mut pieces = [(0, 0, 0, 0); NR];
    let (mut n, mut j) = (0, 0);
    while j < width {
        let (oy, ox) = ((j0 + j) / ow, (j0 + j) % ow);
        let run = (ow - ox).min(width - j);
        pieces[n] = (j, run, oy, ox);
        (n, j) = (n + 1, j + run);
    }
    if n == 1 && sx == 1 {
        let (_, run, oy, ox) = pieces[0];
        // SAFETY: AVX-512F is the caller's promise; `row_runs` reads only inside each row.
        return unsafe { row_runs(buf, image, taps, [h, wd], (oy * sy, ox), run) };
    }
    for (dst, t) in buf.chunks_exact_mut(NR).zip(taps) {
        // (a fixed-size clear is two vector stores; the padding stays 0)
        let dst: &mut [f32; NR] = dst.try_into().expect("strips are NR wide");
        *dst = [0.0; NR];
        for &(j, run, oy, ox) in &pieces[..n] {
            let Some((y, lo, hi)) = t.span(oy * sy, h, ox, run) else {
                continue;
            };
            let row = &image[t.plane + y * wd..][..wd];
            let x = (((ox + lo) * sx) as isize + t.dx) as usize;
            let out = &mut dst[j + lo..j + hi];
            if sx == 1 {
                copy_run(out, &row[x..]);
            } else {
                for (d, s) in out.iter_mut().zip(row[x..].iter().step_by(sx)) {
                    *d = *s;
                }
            }
        }
    }
}

/// `strip_of` for a strip that lies in one output row (from column `ox`, `run` long) with a
/// column stride of 1: each tap's row of the strip is one run of an input row, read by two
/// masked loads (the lanes outside the image read nothing and give 0) and written by two
/// stores, where copying and clearing by pieces cost more than the tiles' arithmetic.
///
/// # Safety
/// The CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn row_runs(
    buf: &mut [f32],
    image: &[f32],
    taps: &[Tap],
    [h, wd]: [usize; 2],
    (y0, ox): (usize, usize),
    run: usize,
) {
    use std::arch::x86_64::*;
    for (dst, t) in buf.chunks_exact_mut(NR).zip(taps) {
        let dst: &mut [f32; NR] = dst.try_into().expect("strips are NR wide");
        // the strip's columns that read inside the image: q in lo..hi reads x = ox + q + dx
        let Some((y, lo, hi)) = t.span(y0, h, ox, run) else {
            *dst = [0.0; NR];
            continue;
        };
        let row = &image[t.plane + y * wd..][..wd];
        // where column 0 of the strip would read (outside the row when lo > 0: never read)
        let base = row.as_ptr().wrapping_offset(ox as isize + t.dx);
        let lanes = ((1u64 << hi) - 1) & !((1u64 << lo) - 1);
        for half in 0..NR / 16 {
            let mask = (lanes >> (16 * half)) as __mmask16;
            // SAFETY: the lanes set in `mask` are columns lo..hi, whose x lie in 0..wd of
            // `row`; the store writes 16 of `dst`'s 32 floats.
            unsafe {
                let v = _mm512_maskz_loadu_ps(mask, base.wrapping_add(16 * half));
                _mm512_storeu_ps(dst.as_mut_ptr().add(16 * half), v);
            }
        }
    }
}

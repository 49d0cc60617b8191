//! `im2col`: the windows of a contiguous float32 image batch `[N, C, H, W]`, written out in one
//! pass as the rows a convolution multiplies (or a pooling reduces). Each output row is one
//! (image, kernel offset, channel), `OH * OW` long: the input elements that offset reads for
//! every output position, and `fill` where it reads the padding. `col2im` is its adjoint (the
//! gradient): each column element added back onto the input element it was read from.
use super::{f32_slices, team, tensor_of};
use crate::backend::storage::{output_vec, zeroed_vec, Buffer};
use crate::backend::{Owned, View};
use crate::core::error::Result;
use crate::core::window::Window;

/// The columns of `x` as `[N, kh*kw, C, OH*OW]` (`offsets_outer`) or `[N, C, kh*kw, OH*OW]`;
/// `None` unless `x` is a contiguous 4-d float32 tensor.
pub fn im2col(
    x: &View,
    w: &Window,
    out: [usize; 2],
    fill: f32,
    offsets_outer: bool,
) -> Result<Option<Owned>> {
    let s = x.shape();
    if s.len() != 4 {
        return Ok(None);
    }
    let (n, c) = (s[0], s[1]);
    let kk = w.kernel[0] * w.kernel[1];
    let len = out[0] * out[1];
    let shape = if offsets_outer {
        [n, kk, c, len]
    } else {
        [n, c, kk, len]
    };
    f32_slices([x], |[xs]| {
        let mut cols = output_vec::<f32>(n * kk * c * len)?;
        if len == 0 {
            return Ok(cols);
        }
        let rows = Rows {
            xs,
            plane: [s[2], s[3]],
            w,
            out,
            fill,
            c,
            kk,
            offsets_outer,
        };
        let parts = team::parts_for(cols.len(), 1 << 15);
        team::for_pieces(&mut cols, parts, len, &|start, piece| {
            for (i, row) in piece.chunks_mut(len).enumerate() {
                rows.write(start / len + i, row);
            }
        });
        Ok(cols)
    })?
    .map(|cols| tensor_of(Buffer::F32(cols), &shape, x.device()))
    .transpose()
}

/// The adjoint of `im2col`: `g` (contiguous float32, `im2col`'s shape for an input shaped
/// `shape`) summed onto the input positions its elements were read from, from +0 in kernel
/// offsets from the last to the first: the order in which the autograd engine adds the
/// gradients of the composed slices (`conv.rs`), so both give the same bits. `None` unless
/// `g` is a contiguous float32 tensor.
pub fn col2im(
    g: &View,
    shape: [usize; 4],
    w: &Window,
    out: [usize; 2],
    offsets_outer: bool,
) -> Result<Option<Owned>> {
    let [n, c, h, wd] = shape;
    let (kk, len) = (w.kernel[0] * w.kernel[1], out[0] * out[1]);
    if g.numel() != n * kk * c * len {
        return Ok(None);
    }
    f32_slices([g], |[gs]| {
        let mut gx = zeroed_vec::<f32>(n * c * h * wd)?;
        if gx.is_empty() {
            return Ok(gx);
        }
        let parts = team::parts_for(gs.len(), 1 << 15);
        // each thread sums whole planes (image, channel), so no two write one element
        team::for_pieces(&mut gx, parts, h * wd, &|start, piece| {
            for (i, plane) in piece.chunks_mut(h * wd).enumerate() {
                let p = start / (h * wd) + i;
                let (img, ch) = (p / c, p % c);
                for off in (0..kk).rev() {
                    let row = if offsets_outer {
                        (img * kk + off) * c + ch
                    } else {
                        (img * c + ch) * kk + off
                    };
                    add_row(plane, [h, wd], &gs[row * len..][..len], w, out, off);
                }
            }
        });
        Ok(gx)
    })?
    .map(|gx| tensor_of(Buffer::F32(gx), &shape, g.device()))
    .transpose()
}

/// Adds the column row of kernel offset `off` onto the input `plane` it was read from.
fn add_row(
    plane: &mut [f32],
    [h, wd]: [usize; 2],
    row: &[f32],
    w: &Window,
    out: [usize; 2],
    off: usize,
) {
    let (ki, kj) = (off / w.kernel[1], off % w.kernel[1]);
    for (oy, src) in row.chunks(out[1]).enumerate() {
        let y = (oy * w.stride[0] + ki * w.dilation[0]) as isize - w.padding[0] as isize;
        if y < 0 || y >= h as isize {
            continue;
        }
        let dst = &mut plane[y as usize * wd..][..wd];
        for (ox, &v) in src.iter().enumerate() {
            let x = (ox * w.stride[1] + kj * w.dilation[1]) as isize - w.padding[1] as isize;
            if x >= 0 && x < wd as isize {
                dst[x as usize] += v;
            }
        }
    }
}

/// What every output row needs to know.
struct Rows<'a> {
    xs: &'a [f32],
    plane: [usize; 2],
    w: &'a Window,
    out: [usize; 2],
    fill: f32,
    c: usize,
    kk: usize,
    offsets_outer: bool,
}

impl Rows<'_> {
    /// Output row `r` (image, then offset and channel in the output's order).
    fn write(&self, r: usize, row: &mut [f32]) {
        let (img, rest) = (r / (self.kk * self.c), r % (self.kk * self.c));
        let (off, ch) = if self.offsets_outer {
            (rest / self.c, rest % self.c)
        } else {
            (rest % self.kk, rest / self.kk)
        };
        let [h, wd] = self.plane;
        let w = self.w;
        let (ki, kj) = (off / w.kernel[1], off % w.kernel[1]);
        let plane = &self.xs[(img * self.c + ch) * h * wd..][..h * wd];
        // the output columns whose input column lies in 0..wd: lo..hi
        let first =
            |ox: usize| (ox * w.stride[1] + kj * w.dilation[1]) as isize - w.padding[1] as isize;
        let lo = (0..self.out[1])
            .find(|&ox| first(ox) >= 0)
            .unwrap_or(self.out[1]);
        let hi = (lo..self.out[1])
            .find(|&ox| first(ox) >= wd as isize)
            .unwrap_or(self.out[1]);
        for (oy, dst) in row.chunks_mut(self.out[1]).enumerate() {
            let y = (oy * w.stride[0] + ki * w.dilation[0]) as isize - w.padding[0] as isize;
            if y < 0 || y >= h as isize {
                dst.fill(self.fill);
                continue;
            }
            let src = &plane[y as usize * wd..][..wd];
            dst[..lo].fill(self.fill);
            dst[hi..].fill(self.fill);
            if lo < hi {
                let x0 = first(lo) as usize;
                if w.stride[1] == 1 {
                    copy_run(&mut dst[lo..hi], &src[x0..]);
                } else {
                    for (d, s) in dst[lo..hi]
                        .iter_mut()
                        .zip(src[x0..].iter().step_by(w.stride[1]))
                    {
                        *d = *s;
                    }
                }
            }
        }
    }
}

/// `dst` = the first `dst.len()` elements of `src`, in fixed-size pieces: the runs here are a
/// row of an image (tens of floats), where a `memcpy` call costs more than the copy itself.
#[inline(always)]
pub(super) fn copy_run(dst: &mut [f32], src: &[f32]) {
    let mut d = dst.chunks_exact_mut(16);
    let mut s = src.chunks_exact(16);
    for (d, s) in (&mut d).zip(&mut s) {
        let s: &[f32; 16] = s.try_into().unwrap_or(&[0.0; 16]);
        d.copy_from_slice(s);
    }
    let (d, s) = (d.into_remainder(), s.remainder());
    for (d, s) in d.iter_mut().zip(s) {
        *d = *s;
    }
}

//! `im2col`: the windows of a contiguous float32 image batch `[N, C, H, W]`, written out in one
//! pass as the rows a convolution multiplies (or a pooling reduces). Each output row is one
//! (image, kernel offset, channel), `OH * OW` long: the input elements that offset reads for
//! every output position, and `fill` where it reads the padding. `col2im` is its adjoint (the
//! gradient): each column element added back onto the input element it was read from.
use super::{copy_run, f32_slices, team, tensor_of};
use crate::backend::storage::{output_vec, zeroed_vec, Buffer};
use crate::backend::{Owned, View};
use crate::core::error::Result;
use crate::core::window::Columns;

/// The columns of `x` laid out as `cols` says; `None` unless `x` is a contiguous 4-d float32
/// tensor.
pub fn im2col(x: &View, cols: &Columns, fill: f32) -> Result<Option<Owned>> {
    let s = x.shape();
    if s.len() != 4 {
        return Ok(None);
    }
    let shape = cols.shape(s[0], s[1]);
    let len = shape[3];
    f32_slices([x], |[xs]| {
        let mut out = output_vec::<f32>(shape.iter().product())?;
        if len == 0 {
            return Ok(out);
        }
        let parts = team::parts_for(out.len(), 1 << 15);
        team::for_pieces(&mut out, parts, len, &|start, piece| {
            for (i, row) in piece.chunks_mut(len).enumerate() {
                let [img, off, ch] = cols.place(s[1], start / len + i);
                let plane = &xs[(img * s[1] + ch) * s[2] * s[3]..][..s[2] * s[3]];
                write_row(row, plane, [s[2], s[3]], cols, off, fill);
            }
        });
        Ok(out)
    })?
    .map(|out| tensor_of(Buffer::F32(out), &shape, x.device()))
    .transpose()
}

/// The adjoint of `im2col`: `g` (contiguous float32, `im2col`'s columns of an input shaped
/// `shape`) summed onto the input positions its elements were read from, from +0 in kernel
/// offsets from the last to the first: the order in which the autograd engine adds the
/// gradients of the composed slices (`conv.rs`), so both give the same bits. `None` unless
/// `g` is a contiguous float32 tensor.
pub fn col2im(g: &View, shape: [usize; 4], cols: &Columns) -> Result<Option<Owned>> {
    let [n, c, h, wd] = shape;
    let len = cols.out[0] * cols.out[1];
    if g.numel() != n * cols.offsets() * c * len {
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
                for off in (0..cols.offsets()).rev() {
                    let row = cols.row(c, [img, off, ch]);
                    add_row(plane, [h, wd], &gs[row * len..][..len], cols, off);
                }
            }
        });
        Ok(gx)
    })?
    .map(|gx| tensor_of(Buffer::F32(gx), &shape, g.device()))
    .transpose()
}

/// The input row and column that output position (`oy`, `ox`) of kernel offset `off` reads
/// (negative or past the plane in the padding).
fn source(cols: &Columns, off: usize) -> impl Fn(usize, usize) -> (isize, isize) + '_ {
    let w = &cols.window;
    let (ki, kj) = (off / w.kernel[1], off % w.kernel[1]);
    move |oy, ox| {
        let at = |o: usize, k: usize, d: usize| {
            (o * w.stride[d] + k * w.dilation[d]) as isize - w.padding[d] as isize
        };
        (at(oy, ki, 0), at(ox, kj, 1))
    }
}

/// One column row: kernel offset `off` of the input `plane` (`[h, wd]`), `fill` in the padding.
fn write_row(
    row: &mut [f32],
    plane: &[f32],
    [h, wd]: [usize; 2],
    cols: &Columns,
    off: usize,
    fill: f32,
) {
    let (ow, stride) = (cols.out[1], cols.window.stride[1]);
    let at = source(cols, off);
    // the output columns whose input column lies in 0..wd: lo..hi
    let lo = (0..ow).find(|&ox| at(0, ox).1 >= 0).unwrap_or(ow);
    let hi = (lo..ow)
        .find(|&ox| at(0, ox).1 >= wd as isize)
        .unwrap_or(ow);
    for (oy, dst) in row.chunks_mut(ow).enumerate() {
        let y = at(oy, 0).0;
        if y < 0 || y >= h as isize {
            dst.fill(fill);
            continue;
        }
        let src = &plane[y as usize * wd..][..wd];
        dst[..lo].fill(fill);
        dst[hi..].fill(fill);
        if lo < hi {
            let x0 = at(0, lo).1 as usize;
            if stride == 1 {
                copy_run(&mut dst[lo..hi], &src[x0..]);
            } else {
                for (d, s) in dst[lo..hi].iter_mut().zip(src[x0..].iter().step_by(stride)) {
                    *d = *s;
                }
            }
        }
    }
}

/// Adds the column row of kernel offset `off` onto the input `plane` (`[h, wd]`) it was read
/// from.
fn add_row(plane: &mut [f32], [h, wd]: [usize; 2], row: &[f32], cols: &Columns, off: usize) {
    let at = source(cols, off);
    for (oy, src) in row.chunks(cols.out[1]).enumerate() {
        let y = at(oy, 0).0;
        if y < 0 || y >= h as isize {
            continue;
        }
        let dst = &mut plane[y as usize * wd..][..wd];
        for (ox, &v) in src.iter().enumerate() {
            let x = at(oy, ox).1;
            if x >= 0 && x < wd as isize {
                dst[x as usize] += v;
            }
        }
    }
}

//! Elementwise kernels: map one, two or three strided operands into a dense output, or update a
//! strided destination in place. Large work is split over the CPU `team` (one piece per
//! thread, as PyTorch's `parallel_for` with its 32K grain).
use super::iter::{coalesce, for_rows, permuted, PAR_THRESHOLD};
use super::{team, transpose};
use crate::core::shape::Dims;
use std::mem::MaybeUninit;

/// One operand: its elements and a layout (offset, strides broadcast to the iteration shape).
#[derive(Clone, Copy)]
pub struct Src<'a, T> {
    pub data: &'a [T],
    pub offset: usize,
    pub strides: &'a [usize],
}

#[inline]
fn inner(st: &Dims) -> usize {
    st.last().copied().unwrap_or(0)
}

/// Run `body(start, chunk)` over `out` in parallel pieces when it is large.
#[inline]
pub(crate) fn drive<O: Send>(out: &mut [O], body: impl Fn(usize, &mut [O]) + Sync) {
    if out.len() >= PAR_THRESHOLD {
        let parts = team::parts_for(out.len(), PAR_THRESHOLD);
        team::for_pieces(out, parts, 64, &body);
    } else {
        body(0, out);
    }
}

/// `drive` for work costly enough per element to split from `grain` elements a part.
#[inline]
pub(crate) fn drive_grain<O: Send>(
    out: &mut [O],
    grain: usize,
    body: impl Fn(usize, &mut [O]) + Sync,
) {
    let parts = team::parts_for(out.len(), grain);
    if parts > 1 {
        team::for_pieces(out, parts, 64, &body);
    } else {
        body(0, out);
    }
}

/// `out[i] = f(a[i])` over `shape`; `out` is dense with `numel(shape)` elements.
pub fn map1<A: Copy + Sync, O: Copy + Send>(
    out: &mut [O],
    shape: &[usize],
    a: Src<A>,
    f: impl Fn(A) -> O + Sync,
) {
    let (cs, st) = coalesce(shape, [a.strides]);
    let sa = inner(&st[0]);
    if transpose::worth_it(&cs, &st[0]) {
        let a = transpose::Strided {
            data: a.data,
            offset: a.offset,
            shape: &cs,
            strides: &st[0],
        };
        return transpose::map_blocked(out, a, |o, x| *o = f(x));
    }
    drive(out, |start, chunk| {
        for_rows(
            &cs,
            &st,
            [a.offset],
            start,
            start + chunk.len(),
            |pos, len, [ia]| {
                let o = &mut chunk[pos - start..pos - start + len];
                if sa == 1 {
                    // SAFETY: `dense1` writes `f`'s results, valid `O`s, and nothing else.
                    dense1(unsafe { uninit(o) }, &a.data[ia..ia + len], &f);
                } else {
                    for (i, o) in o.iter_mut().enumerate() {
                        *o = f(a.data[ia + i * sa]);
                    }
                }
            },
        )
    });
}

/// `out[i] = f(a[i], b[i])` over `shape`.
pub fn map2<A: Copy + Sync, B: Copy + Sync, O: Send>(
    out: &mut [O],
    shape: &[usize],
    a: Src<A>,
    b: Src<B>,
    f: impl Fn(A, B) -> O + Sync,
) {
    let (cs, st) = coalesce(shape, [a.strides, b.strides]);
    let (sa, sb) = (inner(&st[0]), inner(&st[1]));
    drive(out, |start, chunk| {
        for_rows(
            &cs,
            &st,
            [a.offset, b.offset],
            start,
            start + chunk.len(),
            |pos, len, [ia, ib]| {
                let o = &mut chunk[pos - start..pos - start + len];
                match (sa, sb) {
                    (1, 1) => {
                        for ((o, x), y) in o
                            .iter_mut()
                            .zip(&a.data[ia..ia + len])
                            .zip(&b.data[ib..ib + len])
                        {
                            *o = f(*x, *y);
                        }
                    }
                    (1, 0) => {
                        let y = b.data[ib];
                        for (o, x) in o.iter_mut().zip(&a.data[ia..ia + len]) {
                            *o = f(*x, y);
                        }
                    }
                    (0, 1) => {
                        let x = a.data[ia];
                        for (o, y) in o.iter_mut().zip(&b.data[ib..ib + len]) {
                            *o = f(x, *y);
                        }
                    }
                    _ => {
                        for (i, o) in o.iter_mut().enumerate() {
                            *o = f(a.data[ia + i * sa], b.data[ib + i * sb]);
                        }
                    }
                }
            },
        )
    });
}

/// `out[i] = f(a[i], b[i], c[i])` over `shape` (`where`).
pub fn map3<A: Copy + Sync, B: Copy + Sync, C: Copy + Sync, O: Send>(
    out: &mut [O],
    shape: &[usize],
    a: Src<A>,
    b: Src<B>,
    c: Src<C>,
    f: impl Fn(A, B, C) -> O + Sync,
) {
    let (cs, st) = coalesce(shape, [a.strides, b.strides, c.strides]);
    let (sa, sb, sc) = (inner(&st[0]), inner(&st[1]), inner(&st[2]));
    drive(out, |start, chunk| {
        for_rows(
            &cs,
            &st,
            [a.offset, b.offset, c.offset],
            start,
            start + chunk.len(),
            |pos, len, [ia, ib, ic]| {
                let o = &mut chunk[pos - start..pos - start + len];
                if (sa, sb, sc) == (1, 1, 1) {
                    // three dense runs (`torch.where` of same-shape tensors): a loop that
                    // vectorises, where the strided one below does not (10x slower)
                    let (x, y, z) = (
                        &a.data[ia..ia + len],
                        &b.data[ib..ib + len],
                        &c.data[ic..ic + len],
                    );
                    return dense3(o, x, y, z, &f);
                }
                for (i, o) in o.iter_mut().enumerate() {
                    *o = f(
                        a.data[ia + i * sa],
                        b.data[ib + i * sb],
                        c.data[ic + i * sc],
                    );
                }
            },
        )
    });
}

simd_build! {
    /// `out[i] = f(x[i])` over slices of one length (`clamp`'s max and min, `x / 3`, ...: the
    /// plain loop's baseline build left them 1.1-1.5x slower than PyTorch's).
    pub(crate) fn dense1<A: Copy, O>(out: &mut [MaybeUninit<O>], x: &[A], f: &impl Fn(A) -> O) {
        for (o, &p) in out.iter_mut().zip(x) {
            o.write(f(p));
        }
    }
}

simd_build! {
    /// `x[i] = f(x[i])` in place (a contiguous tensor's in-place scalar op).
    pub(crate) fn dense_update<A: Copy>(x: &mut [A], f: &impl Fn(A) -> A) {
        for v in x.iter_mut() {
            *v = f(*v);
        }
    }
}

/// Initialised elements seen as possibly uninitialised ones, for `dense1` to overwrite.
///
/// # Safety
/// Only initialised values may be written through the result (`o` is read as `O`s after), and
/// `O` must need no drop (the old values are overwritten without one).
pub(crate) unsafe fn uninit<O: Copy>(o: &mut [O]) -> &mut [MaybeUninit<O>] {
    // SAFETY: `MaybeUninit<O>` has `O`'s layout; the caller keeps the elements initialised.
    unsafe { &mut *(o as *mut [O] as *mut [MaybeUninit<O>]) }
}

simd_build! {
    /// `out[i] = f(a[i], b[i], c[i])` over slices of one length.
    fn dense3<A: Copy, B: Copy, C: Copy, O>(
        out: &mut [O],
        a: &[A],
        b: &[B],
        c: &[C],
        f: &impl Fn(A, B, C) -> O,
    ) {
        for (((o, &x), &y), &z) in out.iter_mut().zip(a).zip(b).zip(c) {
            *o = f(x, y, z);
        }
    }
}

/// `dst[i] = f(dst[i], src[i])` over `shape`, where `dst` is a strided view that has no two
/// elements at one address (checked by the caller) and `src` is broadcast to `shape`.
pub fn update<D: Copy + Send + Sync, S: Copy + Sync>(
    dst: &mut [D],
    dst_offset: usize,
    dst_strides: &[usize],
    shape: &[usize],
    src: Src<S>,
    f: impl Fn(D, S) -> D + Sync,
) {
    // Walk in the destination's memory order (a transposed `clone()` then copies one run).
    let mut order: Dims = (0..shape.len()).collect();
    order.sort_by_key(|&d| std::cmp::Reverse(dst_strides[d]));
    let (ps, pd, pss) = (
        permuted(shape, &order),
        permuted(dst_strides, &order),
        permuted(src.strides, &order),
    );
    let (cs, st) = coalesce(&ps, [&pd, &pss]);
    let n: usize = cs.iter().product();
    if n == 0 {
        return;
    }
    let dense = cs.len() <= 1 && inner(&st[0]) <= 1;
    if cs.len() >= 2 && inner(&st[0]) == 1 && transpose::worth_it(&cs, &st[1]) {
        // a dense destination block-copied from a transposed source
        let contiguous_dst = crate::core::shape::contiguous_strides(&cs)[..] == st[0][..];
        if contiguous_dst {
            let s = transpose::Strided {
                data: src.data,
                offset: src.offset,
                shape: &cs,
                strides: &st[1],
            };
            let region = &mut dst[dst_offset..dst_offset + n];
            return transpose::map_blocked(region, s, |o, x| *o = f(*o, x));
        }
    }
    if dense {
        // The destination is one dense run: hand out disjoint slices of it.
        let region = &mut dst[dst_offset..dst_offset + n];
        let sst = [st[1].clone()];
        let ss = inner(&st[1]);
        drive(region, |start, chunk| {
            for_rows(
                &cs,
                &sst,
                [src.offset],
                start,
                start + chunk.len(),
                |pos, len, [is]| {
                    let o = &mut chunk[pos - start..pos - start + len];
                    if ss == 1 {
                        for (o, x) in o.iter_mut().zip(&src.data[is..is + len]) {
                            *o = f(*o, *x);
                        }
                    } else {
                        for (i, o) in o.iter_mut().enumerate() {
                            *o = f(*o, src.data[is + i * ss]);
                        }
                    }
                },
            )
        });
        return;
    }
    let (sd, ss) = (inner(&st[0]), inner(&st[1]));
    // elements `start..end` (row-major over `cs`) into `part`, the slice of `dst` from `base`
    let run = |part: &mut [D], base: usize, start: usize, end: usize| {
        for_rows(
            &cs,
            &st,
            [dst_offset, src.offset],
            start,
            end,
            |_, len, [id, is]| {
                let id = id - base;
                if sd == 1 && ss == 1 {
                    let o = &mut part[id..id + len];
                    for (o, x) in o.iter_mut().zip(&src.data[is..is + len]) {
                        *o = f(*o, *x);
                    }
                } else {
                    for i in 0..len {
                        let p = id + i * sd;
                        part[p] = f(part[p], src.data[is + i * ss]);
                    }
                }
            },
        );
    };
    // Over the team, a block of outer indices each, when each outer index's elements lie
    // below the next one's (then the blocks' address ranges are disjoint slices of `dst`).
    let (outer, s0) = (cs[0], st[0][0]);
    let extent: usize = (1..cs.len()).map(|d| (cs[d] - 1) * st[0][d]).sum();
    let parts = team::parts_for(n, PAR_THRESHOLD).min(outer);
    if parts < 2 || extent >= s0 {
        return run(dst, 0, 0, n);
    }
    let (per_row, rows_per) = (n / outer, outer.div_ceil(parts));
    let mut blocks = Vec::with_capacity(parts);
    let mut rest = &mut dst[dst_offset..];
    let mut at = dst_offset;
    for a in (0..outer).step_by(rows_per) {
        let b = (a + rows_per).min(outer);
        let (lo, hi) = (dst_offset + a * s0, dst_offset + (b - 1) * s0 + extent + 1);
        let (_, r) = std::mem::take(&mut rest).split_at_mut(lo - at);
        let (block, r) = r.split_at_mut(hi - lo);
        rest = r;
        at = hi;
        blocks.push((block, lo, a * per_row, b * per_row));
    }
    let count = blocks.len();
    team::for_pieces(&mut blocks, count, 1, &|_, piece| {
        for (block, lo, start, end) in piece.iter_mut() {
            run(block, *lo, *start, *end);
        }
    });
}

/// `dst[i] = v` over a strided view.
pub fn fill<D: Copy + Send + Sync>(
    dst: &mut [D],
    offset: usize,
    strides: &[usize],
    shape: &[usize],
    v: D,
) {
    let strides0 = Dims::filled(shape.len(), 0);
    update(
        dst,
        offset,
        strides,
        shape,
        Src {
            data: &[v],
            offset: 0,
            strides: &strides0,
        },
        |_, s| s,
    );
}

#[cfg(test)]
mod tests {
    use super::{update, Src};

    /// `update` against a plain loop over the multi-index, for strided destinations large
    /// enough to split over the team.
    fn check(rows: usize, cols: usize, dst_strides: [usize; 2], offset: usize) {
        let len = offset + (rows - 1) * dst_strides[0] + (cols - 1) * dst_strides[1] + 1;
        let src: Vec<f32> = (0..rows * cols).map(|i| i as f32).collect();
        let mut got = vec![-1f32; len];
        let strides = [cols, 1];
        let s = Src {
            data: &src,
            offset: 0,
            strides: &strides,
        };
        update(&mut got, offset, &dst_strides, &[rows, cols], s, |_, x| x);
        let mut want = vec![-1f32; len];
        for r in 0..rows {
            for c in 0..cols {
                want[offset + r * dst_strides[0] + c * dst_strides[1]] = src[r * cols + c];
            }
        }
        assert_eq!(got, want, "{rows}x{cols} strides {dst_strides:?}");
    }

    #[test]
    fn strided_destinations_match_the_plain_loop() {
        // every other column: each row's elements lie below the next row's (split over rows)
        check(300, 400, [800, 2], 3);
        // rows interleaved with the next ones, no address twice (a row reaches past the next
        // row's start: one thread)
        check(20_000, 4, [7, 3], 0);
        // a slab of a stacked output, as `stack(dim=1)` writes it
        check(64, 4096, [4 * 4096, 1], 4096);
    }
}

//! Blocked copies for transposed layouts (`x.t().contiguous()`, `clone()` of a transpose, and
//! any elementwise op reading one): the matrix is walked in 32×32 tiles, so each tile's reads
//! and writes stay in L1 instead of touching a new cache line per element.
use super::iter::PAR_THRESHOLD;
use super::team;

const TILE: usize = 32;

/// A strided operand whose last two (coalesced) dims are a transposed-looking matrix.
pub struct Strided<'a, T> {
    pub data: &'a [T],
    pub offset: usize,
    /// Coalesced shape (at least two dims) and the operand's strides over it.
    pub shape: &'a [usize],
    pub strides: &'a [usize],
}

/// Whether the blocked walk pays: the innermost stride is not 1 but the next dim's is smaller
/// (reading down columns is where the data is contiguous).
pub fn worth_it(shape: &[usize], strides: &[usize]) -> bool {
    let nd = shape.len();
    nd >= 2 && strides[nd - 1] > 1 && strides[nd - 2] < strides[nd - 1] && shape[nd - 1] >= 4
}

/// `f(&mut out[i], a[i])` over `a.shape` (row-major `out`) in tiles, split over the team by
/// blocks of rows when large.
pub fn map_blocked<A: Copy + Sync, O: Send>(
    out: &mut [O],
    a: Strided<A>,
    f: impl Fn(&mut O, A) + Sync,
) {
    let nd = a.shape.len();
    let (rows_per_mat, cols) = (a.shape[nd - 2], a.shape[nd - 1]);
    let (sr, sc) = (a.strides[nd - 2], a.strides[nd - 1]);
    let outer = &a.shape[..nd - 2];
    let outer_strides = &a.strides[..nd - 2];
    // the storage offset of global row g (matrix g / rows_per_mat, row g % rows_per_mat)
    let row_base = |g: usize| {
        let (mut m, r) = (g / rows_per_mat, g % rows_per_mat);
        let mut off = a.offset + r * sr;
        for d in (0..outer.len()).rev() {
            off += (m % outer[d]) * outer_strides[d];
            m /= outer[d];
        }
        off
    };
    let body = |start: usize, chunk: &mut [O]| {
        let (g0, g1) = (start / cols, (start + chunk.len()) / cols);
        let mut gb = g0;
        while gb < g1 {
            // a block of rows inside one matrix
            let ge = (gb + TILE)
                .min(g1)
                .min((gb / rows_per_mat + 1) * rows_per_mat);
            let base = row_base(gb);
            for cb in (0..cols).step_by(TILE) {
                let ce = (cb + TILE).min(cols);
                for c in cb..ce {
                    let col = base + c * sc;
                    for g in gb..ge {
                        f(&mut chunk[(g - g0) * cols + c], a.data[col + (g - gb) * sr]);
                    }
                }
            }
            gb = ge;
        }
    };
    if out.len() >= PAR_THRESHOLD {
        let parts = team::parts_for(out.len(), PAR_THRESHOLD);
        team::for_pieces(out, parts, TILE * cols, &body);
    } else {
        body(0, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposed_and_batched_copies_are_exact() {
        for &(b, r, c) in &[(1, 3, 5), (1, 70, 33), (3, 40, 37), (2, 300, 200)] {
            // a [b, c, r] row-major source read as [b, r, c] (transposed last two dims)
            let src: Vec<u32> = (0..(b * r * c) as u32).collect();
            let shape = [b, r, c];
            let strides = [r * c, 1, r];
            let mut out = vec![0u32; b * r * c];
            map_blocked(
                &mut out,
                Strided {
                    data: &src,
                    offset: 0,
                    shape: &shape,
                    strides: &strides,
                },
                |o, x| *o = x,
            );
            for i in 0..b {
                for j in 0..r {
                    for k in 0..c {
                        assert_eq!(out[(i * r + j) * c + k], src[i * r * c + k * r + j]);
                    }
                }
            }
        }
    }
}

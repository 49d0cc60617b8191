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

/// `out` (row-major `rows x cols`) = the matrix whose element (r, c) is `data[offset + r + c *
/// sc]` (`x.t().contiguous()` of a row-major f32 matrix): 8x8 blocks transposed in AVX
/// registers where the CPU has AVX2, the edges and other CPUs by `map_blocked`'s tiles; split
/// over the team by blocks of rows when large.
pub fn transpose_f32(
    out: &mut [f32],
    data: &[f32],
    offset: usize,
    rows: usize,
    cols: usize,
    sc: usize,
) {
    let body = |start: usize, chunk: &mut [f32]| {
        let (r0, r1) = (start / cols, (start + chunk.len()) / cols);
        let mut done = false;
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (detected just above).
            unsafe { avx::blocks(chunk, data, offset + r0, r1 - r0, cols, sc) };
            done = true;
        }
        let (fr, fc) = if done {
            ((r1 - r0) / 8 * 8, cols / 8 * 8)
        } else {
            (0, 0)
        };
        for r in 0..r1 - r0 {
            let c_from = if r < fr { fc } else { 0 };
            for c in c_from..cols {
                chunk[r * cols + c] = data[offset + r0 + r + c * sc];
            }
        }
    };
    if out.len() >= PAR_THRESHOLD && rows >= 16 {
        let parts = team::parts_for(out.len(), PAR_THRESHOLD);
        team::for_pieces(out, parts, 8 * cols, &body);
    } else {
        body(0, out);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::*;

    /// The whole 8x8 blocks of `transpose_f32`'s piece (rows `0..rows / 8 * 8`, columns
    /// `0..cols / 8 * 8`; element (r, c) read at `data[base + r + c * sc]`).
    #[target_feature(enable = "avx2")]
    pub fn blocks(out: &mut [f32], data: &[f32], base: usize, rows: usize, cols: usize, sc: usize) {
        for rb in (0..rows / 8 * 8).step_by(8) {
            for cb in (0..cols / 8 * 8).step_by(8) {
                let mut v = [_mm256_setzero_ps(); 8];
                for (k, v) in v.iter_mut().enumerate() {
                    let at = base + rb + (cb + k) * sc;
                    let src: &[f32; 8] = data[at..at + 8].try_into().expect("8 floats");
                    // SAFETY: 8 readable floats; `loadu` has no alignment requirement.
                    *v = unsafe { _mm256_loadu_ps(src.as_ptr()) };
                }
                let w = transpose8(v);
                for (k, w) in w.iter().enumerate() {
                    let at = (rb + k) * cols + cb;
                    let dst: &mut [f32; 8] = (&mut out[at..at + 8]).try_into().expect("8 floats");
                    // SAFETY: 8 writable floats; `storeu` has no alignment requirement.
                    unsafe { _mm256_storeu_ps(dst.as_mut_ptr(), *w) };
                }
            }
        }
    }

    /// Rows of an 8x8 matrix in, its columns out.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn transpose8(v: [__m256; 8]) -> [__m256; 8] {
        let t0 = _mm256_unpacklo_ps(v[0], v[1]);
        let t1 = _mm256_unpackhi_ps(v[0], v[1]);
        let t2 = _mm256_unpacklo_ps(v[2], v[3]);
        let t3 = _mm256_unpackhi_ps(v[2], v[3]);
        let t4 = _mm256_unpacklo_ps(v[4], v[5]);
        let t5 = _mm256_unpackhi_ps(v[4], v[5]);
        let t6 = _mm256_unpacklo_ps(v[6], v[7]);
        let t7 = _mm256_unpackhi_ps(v[6], v[7]);
        let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let s5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let s7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        [
            _mm256_permute2f128_ps::<0x20>(s0, s4),
            _mm256_permute2f128_ps::<0x20>(s1, s5),
            _mm256_permute2f128_ps::<0x20>(s2, s6),
            _mm256_permute2f128_ps::<0x20>(s3, s7),
            _mm256_permute2f128_ps::<0x31>(s0, s4),
            _mm256_permute2f128_ps::<0x31>(s1, s5),
            _mm256_permute2f128_ps::<0x31>(s2, s6),
            _mm256_permute2f128_ps::<0x31>(s3, s7),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_transposes_are_exact() {
        for &(r, c, off) in &[
            (3, 5, 0),
            (8, 8, 1),
            (17, 33, 2),
            (70, 41, 0),
            (300, 200, 5),
        ] {
            // a row-major c x r matrix (row stride sc = r + 3) read transposed as r x c
            let sc = r + 3;
            let data: Vec<f32> = (0..off + c * sc).map(|i| i as f32).collect();
            let mut out = vec![0f32; r * c];
            transpose_f32(&mut out, &data, off, r, c, sc);
            for i in 0..r {
                for j in 0..c {
                    assert_eq!(
                        out[i * c + j],
                        data[off + i + j * sc],
                        "({r}, {c}) at ({i}, {j})"
                    );
                }
            }
        }
    }

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

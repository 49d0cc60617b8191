//! `sgemm`'s packing: a strip of up to 32 lines of an operand (rows of A, columns of B) into a
//! k-major panel, `dst[p * width + l]` = line `l` at depth `p`, the lines past the operand's
//! zero. Three layouts: lines side by side in memory (B's rows, a transposed A's columns) are
//! one copy per depth; lines each contiguous along the depth (A's rows, and the B of `x @ W.T`,
//! every `nn.Linear`) are transposed 16×16 in registers; any other strides go one element at a
//! time. The scalar loops they replace took 20% of an MLP training step's samples (B's 11.6%,
//! A's inlined into the caller); these take 15%.
use super::sleef::avx512::first;
use std::arch::x86_64::*;

/// Packs `lines` lines of depth `k` starting at `base` (line `l`, depth `p` at
/// `base + l * ls + p * ps`) into `dst[..k * width]`.
///
/// # Safety
/// Every such element is readable; `dst` holds `k * width` floats; `lines <= width <= 32`;
/// the CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn pack_strip(
    dst: &mut [f32],
    base: *const f32,
    (ls, ps): (usize, usize),
    k: usize,
    lines: usize,
    width: usize,
) {
    let dst = &mut dst[..k * width];
    // the vector paths write every lane up to `width`, the zeros past `lines` included
    if ls == 1 {
        // (two masked vectors, not `copy_from_slice`: a call into memmove per 12 or 32 floats)
        let (m0, m1) = (first(lines), first(lines.saturating_sub(16)));
        let (s0, s1) = (first(width), first(width.saturating_sub(16)));
        for p in 0..k {
            let (from, to) = (base.add(p * ps), dst.as_mut_ptr().add(p * width));
            _mm512_mask_storeu_ps(to, s0, _mm512_maskz_loadu_ps(m0, from));
            if width > 16 {
                _mm512_mask_storeu_ps(to.add(16), s1, _mm512_maskz_loadu_ps(m1, from.add(16)));
            }
        }
    } else if ps == 1 {
        transposed(dst, base, ls, k, lines, width);
    } else {
        if lines < width {
            dst.fill(0.0);
        }
        for l in 0..lines {
            for p in 0..k {
                dst[p * width + l] = *base.add(l * ls + p * ps);
            }
        }
    }
}

/// `pack_strip` of lines each contiguous along the depth: blocks of 16 lines by 16 depths
/// loaded as rows, transposed, stored as depths (the lanes up to `width`).
#[target_feature(enable = "avx512f")]
unsafe fn transposed(
    dst: &mut [f32],
    base: *const f32,
    ls: usize,
    k: usize,
    lines: usize,
    width: usize,
) {
    for g in (0..width).step_by(16) {
        let store = first(width - g);
        for p0 in (0..k).step_by(16) {
            let depths = (k - p0).min(16);
            let mut r = [_mm512_setzero_ps(); 16];
            for (l, r) in r.iter_mut().enumerate().take(lines.saturating_sub(g)) {
                *r = _mm512_maskz_loadu_ps(first(depths), base.add((g + l) * ls + p0));
            }
            transpose16(&mut r);
            for (p, r) in r.iter().enumerate().take(depths) {
                _mm512_mask_storeu_ps(dst.as_mut_ptr().add((p0 + p) * width + g), store, *r);
            }
        }
    }
}

/// The two-source permutes of `transpose16`'s stages (blocks of 8, 4, 2, 1): row `i` keeps its
/// lanes with bit `b` clear and takes row `i + b`'s below them; row `i + b` takes row `i`'s
/// lanes with bit `b` set and keeps its own (lanes 16.. name the second source).
const SWAPS: [[[i32; 16]; 2]; 4] = {
    let mut t = [[[0; 16]; 2]; 4];
    let mut s = 0;
    while s < 4 {
        let b = 8 >> s;
        let mut l = 0;
        while l < 16 {
            let set = l & b != 0;
            t[s][0][l] = if set { 16 + l - b } else { l } as i32;
            t[s][1][l] = if set { 16 + l } else { l + b } as i32;
            l += 1;
        }
        s += 1;
    }
    t
};

/// Transposes the 16×16 matrix whose rows are `r`: the off-diagonal blocks of 8, then of 4, 2
/// and 1 within each block, swapped (two permutes a pair of rows per stage).
#[inline(always)]
unsafe fn transpose16(r: &mut [__m512; 16]) {
    for (stage, [lo, hi]) in SWAPS.iter().enumerate() {
        let b = 8 >> stage;
        let (lo, hi) = (
            _mm512_loadu_si512(lo.as_ptr().cast()),
            _mm512_loadu_si512(hi.as_ptr().cast()),
        );
        for i in (0..16).filter(|i| i & b == 0) {
            let (x, y) = (r[i], r[i + b]);
            r[i] = _mm512_permutex2var_ps(x, lo, y);
            r[i + b] = _mm512_permutex2var_ps(x, hi, y);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::backend::cpu::sgemm::{Avx2, Avx512, Kernel};
    use crate::backend::cpu::sleef::{has_avx2, has_avx512};

    /// Every layout, widths of each kernel's A and B strips, partial strips and depths that are
    /// not a multiple of the transposes' blocks: the panel holds each element where the
    /// definition puts it.
    fn strips_pack_as_defined<K: Kernel>() {
        let src: Vec<f32> = (0..4096).map(|i| i as f32 + 0.5).collect();
        let (mr, nr) = (K::MR, K::NR);
        let cases = [
            (mr, mr),
            (mr, mr / 2 + 1),
            (nr, nr),
            (nr, nr / 2 + 1),
            (nr, 3),
        ];
        for (width, lines) in cases {
            for k in [1, 7, 16, 33] {
                // (line stride, depth stride): lines side by side, lines along the depth, neither
                for (ls, ps) in [(1, 40), (40, 1), (2, 80)] {
                    let mut got = vec![f32::NAN; k * width];
                    // SAFETY: the largest offset (31 * 2 + 32 * 80) is below 4096; the caller
                    // checked the kernel's instruction set.
                    unsafe { K::pack(&mut got, src.as_ptr(), (ls, ps), k, lines, width) };
                    let want: Vec<f32> = (0..k * width)
                        .map(|at| {
                            let (p, l) = (at / width, at % width);
                            if l < lines {
                                src[l * ls + p * ps]
                            } else {
                                0.0
                            }
                        })
                        .collect();
                    assert_eq!(
                        got, want,
                        "width {width} lines {lines} k {k} strides {ls},{ps}"
                    );
                }
            }
        }
    }

    #[test]
    fn avx512_strips_pack_as_defined() {
        if has_avx512() {
            strips_pack_as_defined::<Avx512>();
        }
    }

    #[test]
    fn avx2_strips_pack_as_defined() {
        if has_avx2() {
            strips_pack_as_defined::<Avx2>();
        }
    }
}

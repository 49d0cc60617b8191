//! Float32 matrix products on AVX-512. The `gemm` crate has no AVX-512 kernels on stable Rust,
//! so on such CPUs it runs at half the width the hardware has; this is the product at full
//! width. The operands are packed into panels (A as strips of `MR` rows, B as strips of `NR`
//! columns, both k-major and zero-padded), and a 12×32 tile of accumulators in registers takes
//! one fused multiply-add per (row, column, k), in k order, from +0.
//!
//! That order is also the order of gemm's own kernels when they take the whole depth in one
//! pass, so the results are gemm's to the bit (`the_tiles_give_gemms_bits` below). `routes`
//! admits only the shapes where gemm runs that pass: it splits a deeper product into blocks
//! whose sums it adds, takes tiny outputs as dot products, and has vector kernels for a row or
//! a column. Every other shape, and every CPU without AVX-512, stays on gemm.
use super::sgemm_pack::pack_strip;
use std::arch::x86_64::*;
use std::cell::RefCell;

/// Rows of the register tile.
const MR: usize = 12;
/// Columns of the register tile (two 16-float registers).
pub(super) const NR: usize = 32;
/// Packed A blocks up to this many floats (half of a 1 MB L2 cache).
const A_BLOCK: usize = 1 << 17;
/// Packed B blocks up to this many floats (2 MB, shared through L3).
const B_BLOCK: usize = 1 << 19;
/// Up to this many rows of A, B is packed a strip at a time.
const FEW_ROWS: usize = 48;

/// Whether an `m`×`k` by `k`×`n` product runs here: AVX-512, one pass over k (gemm's blocks
/// are at least 512 deep; 1024 on CPUs with 48 KB L1 caches, but only above 64×64 outputs),
/// and none of gemm's special cases (depth 1–2, a single row or column, up to 256 outputs).
pub(super) fn routes(m: usize, n: usize, k: usize) -> bool {
    let one_pass = k <= 512 || (k <= 1024 && (m > 64 || n > 64));
    k > 2 && m > 1 && n > 1 && m * n > 256 && one_pass && super::sleef::has_avx512()
}

/// A matrix operand: its first element and its row and column strides, in elements.
#[derive(Clone, Copy)]
pub(super) struct Operand {
    pub ptr: *const f32,
    pub rs: usize,
    pub cs: usize,
}

thread_local! {
    /// The packed panels of A and B, kept between calls (each team thread has its own).
    static PACKS: RefCell<(Vec<f32>, Vec<f32>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// `c` (`m`×`n`, rows `c_rs` apart) = `a` (`m`×`k`) @ `b` (`k`×`n`).
///
/// # Safety
/// `routes(m, n, k)` holds (so the CPU has AVX-512F); every element of `a` and `b` the strides
/// reach is readable and every element of `c` writable, and `c` overlaps neither.
pub(super) unsafe fn sgemm(
    m: usize,
    n: usize,
    k: usize,
    a: Operand,
    b: Operand,
    c: *mut f32,
    c_rs: usize,
) {
    // SAFETY: the columns `sgemm_packed` asks for are in `b` (caller); AVX-512F (routes).
    let strip = |dst: &mut [f32], j0: usize, w: usize| unsafe { pack_b(dst, b, k, j0, w) };
    // SAFETY: the caller's promises, with B packed by `pack_b`.
    unsafe { sgemm_packed(m, n, k, a, strip, c, c_rs) }
}

/// `sgemm` with B given as its packed strips: `strip(dst, j0, w)` writes columns
/// `j0..j0 + w` (`w <= NR`) into `dst` (`k * NR` floats) as `dst[p * NR + j]`, the columns
/// past `w` zero (a convolution builds them from the image, `conv.rs`).
///
/// # Safety
/// As `sgemm`, for `a` and `c`.
pub(super) unsafe fn sgemm_packed(
    m: usize,
    n: usize,
    k: usize,
    a: Operand,
    strip: impl Fn(&mut [f32], usize, usize),
    c: *mut f32,
    c_rs: usize,
) {
    let nc = (B_BLOCK / k / NR).max(1) * NR;
    let mc = (A_BLOCK / k / MR).max(1) * MR;
    // a strip of B serves every strip of A; with few of them (a convolution's output
    // channels) each strip is packed just before its tiles, into a buffer that stays in L1,
    // rather than the whole block first
    let one_strip = m <= FEW_ROWS;
    PACKS.with(|packs| {
        let (pa, pb) = &mut *packs.borrow_mut();
        for j0 in (0..n).step_by(nc) {
            let cols = nc.min(n - j0);
            let panels_b = cols.div_ceil(NR);
            pb.resize(if one_strip { NR * k } else { panels_b * NR * k }, 0.0);
            if !one_strip {
                for q in 0..panels_b {
                    let w = NR.min(cols - q * NR);
                    strip(&mut pb[q * NR * k..(q + 1) * NR * k], j0 + q * NR, w);
                }
            }
            for i0 in (0..m).step_by(mc) {
                let rows = mc.min(m - i0);
                let panels_a = rows.div_ceil(MR);
                pa.resize(panels_a * MR * k, 0.0);
                for r in 0..panels_a {
                    let h = MR.min(rows - r * MR);
                    // SAFETY: rows i0 + r*MR .. + h of `a` are in the matrix (caller); AVX-512F.
                    unsafe { pack_a(&mut pa[r * MR * k..(r + 1) * MR * k], a, k, i0 + r * MR, h) };
                }
                for q in 0..panels_b {
                    let w = NR.min(cols - q * NR);
                    let packed = if one_strip {
                        strip(&mut pb[..NR * k], j0 + q * NR, w);
                        0
                    } else {
                        q * NR * k
                    };
                    for r in 0..panels_a {
                        let h = MR.min(rows - r * MR);
                        let at = c.add((i0 + r * MR) * c_rs + j0 + q * NR);
                        let (ap, bp) = (pa[r * MR * k..].as_ptr(), pb[packed..].as_ptr());
                        // SAFETY: the panels hold k*MR and k*NR floats; the tile's h rows and
                        // w columns are inside `c` (caller); AVX-512F (routes).
                        unsafe { tile(k, ap, bp, at, c_rs, h, w) };
                    }
                }
            }
        }
    });
}

/// Rows `i0..i0 + h` of `a` into `dst` as `dst[p * MR + i]`, the rows past `h` zero.
///
/// # Safety
/// Those rows, over columns `0..k`, are readable through `a`; the CPU has AVX-512F.
unsafe fn pack_a(dst: &mut [f32], a: Operand, k: usize, i0: usize, h: usize) {
    pack_strip(dst, a.ptr.add(i0 * a.rs), (a.rs, a.cs), k, h, MR)
}

/// Columns `j0..j0 + w` of `b` into `dst` as `dst[p * NR + j]`, the columns past `w` zero.
///
/// # Safety
/// Those columns, over rows `0..k`, are readable through `b`; the CPU has AVX-512F.
unsafe fn pack_b(dst: &mut [f32], b: Operand, k: usize, j0: usize, w: usize) {
    pack_strip(dst, b.ptr.add(j0 * b.cs), (b.cs, b.rs), k, w, NR)
}

/// One `h`×`w` tile of `c` from a packed A strip and B strip of depth `k`.
///
/// # Safety
/// `ap` holds `k * MR` floats, `bp` `k * NR`; rows `0..h` and columns `0..w` at `c` (rows
/// `c_rs` apart) are writable; the CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn tile(
    k: usize,
    ap: *const f32,
    bp: *const f32,
    c: *mut f32,
    c_rs: usize,
    h: usize,
    w: usize,
) {
    let mask = |from: usize| -> __mmask16 {
        let n = w.saturating_sub(from).min(16);
        ((1u32 << n) - 1) as __mmask16
    };
    let (m0, m1) = (mask(0), mask(16));
    let mut acc = [[_mm512_setzero_ps(); 2]; MR];
    for p in 0..k {
        let b0 = _mm512_loadu_ps(bp.add(p * NR));
        let b1 = _mm512_loadu_ps(bp.add(p * NR + 16));
        for (i, row) in acc.iter_mut().enumerate() {
            let x = _mm512_set1_ps(*ap.add(p * MR + i));
            row[0] = _mm512_fmadd_ps(x, b0, row[0]);
            row[1] = _mm512_fmadd_ps(x, b1, row[1]);
        }
    }
    for (i, row) in acc.iter().enumerate().take(h) {
        let out = c.add(i * c_rs);
        _mm512_mask_storeu_ps(out, m0, row[0]);
        _mm512_mask_storeu_ps(out.add(16), m1, row[1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic spread of floats, with exact zeros of both signs among them.
    fn values(len: usize, seed: u64) -> Vec<f32> {
        let mut s = seed;
        (0..len)
            .map(|i| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match i % 97 {
                    0 => 0.0,
                    1 => -0.0,
                    _ => ((s >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 4.0,
                }
            })
            .collect()
    }

    /// Our tiles and gemm's single pass round every element alike, for contiguous and
    /// transposed operands and for edges of every width.
    #[test]
    fn the_tiles_give_gemms_bits() {
        if !super::super::sleef::has_avx512() {
            return;
        }
        let shapes = [
            (17, 33, 3),
            (64, 65, 100),
            (13, 100, 144),
            (130, 70, 512),
            (300, 40, 257),
            (25, 11, 5),
        ];
        for &(m, n, k) in &shapes {
            assert!(routes(m, n, k), "{m}x{n}x{k}");
            let (av, bv) = (values(m * k, 1), values(k * n, 2));
            // (row stride, column stride) of a and b: contiguous, and read transposed
            for (a_t, b_t) in [(false, false), (false, true), (true, false), (true, true)] {
                let a = Operand {
                    ptr: av.as_ptr(),
                    rs: if a_t { 1 } else { k },
                    cs: if a_t { m } else { 1 },
                };
                let b = Operand {
                    ptr: bv.as_ptr(),
                    rs: if b_t { 1 } else { n },
                    cs: if b_t { k } else { 1 },
                };
                let mut ours = vec![f32::NAN; m * n];
                let mut theirs = vec![f32::NAN; m * n];
                // SAFETY: the operands cover their vectors exactly; AVX-512 checked above.
                unsafe {
                    sgemm(m, n, k, a, b, ours.as_mut_ptr(), n);
                    gemm::gemm(
                        m,
                        n,
                        k,
                        theirs.as_mut_ptr(),
                        1,
                        n as isize,
                        false,
                        a.ptr,
                        a.cs as isize,
                        a.rs as isize,
                        b.ptr,
                        b.cs as isize,
                        b.rs as isize,
                        0.0,
                        1.0,
                        false,
                        false,
                        false,
                        gemm::Parallelism::None,
                    );
                }
                let differ = ours
                    .iter()
                    .zip(&theirs)
                    .filter(|(x, y)| x.to_bits() != y.to_bits())
                    .count();
                assert_eq!(differ, 0, "{m}x{n}x{k} a_t={a_t} b_t={b_t}");
            }
        }
    }
}

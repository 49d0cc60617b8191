//! Float32 matrix products on our own register tiles. The `gemm` crate has no AVX-512 kernels
//! on stable Rust, so on such CPUs it runs at half the width the hardware has, and on AVX2 its
//! kernels ran 89–125 GFLOP/s on two Zen 3 cores where PyTorch's ran 115–142. The
//! operands are packed into panels (A as strips of `MR` rows, B as strips of `NR` columns,
//! both k-major and zero-padded), and a tile of accumulators in registers (12×32 on AVX-512,
//! 6×16 on AVX2, `sgemm_avx2.rs`) takes one fused multiply-add per (row, column, k), in k
//! order, from +0.
//!
//! That order is also the order of gemm's own kernels when they take the whole depth in one
//! pass, so the results are gemm's to the bit (`the_tiles_give_gemms_bits` below), and the
//! same on either instruction set. `routes` admits only the shapes where gemm runs that pass:
//! it splits a deeper product into blocks whose sums it adds, takes tiny outputs as dot
//! products, and has vector kernels for a row or a column. Every other shape, and every CPU
//! without AVX2 and FMA, stays on gemm.
pub(super) use super::sgemm_avx2::Avx2;
use super::sgemm_pack::pack_strip;
use super::sleef::{has_avx2, has_avx512};
use std::arch::x86_64::*;
use std::cell::RefCell;

/// One instruction set's register tile: its shape, its packing and its multiply-adds.
pub(super) trait Kernel {
    /// Rows of the register tile.
    const MR: usize;
    /// Columns of the register tile.
    const NR: usize;
    /// Packed A blocks up to this many floats (half the L2 cache of a core of such CPUs).
    const A_BLOCK: usize;

    /// Packs `lines` lines of depth `k` starting at `base` (line `l`, depth `p` at
    /// `base + l * ls + p * ps`) into `dst[..k * width]` as `dst[p * width + l]`, the lanes
    /// past `lines` zero.
    ///
    /// # Safety
    /// Every such element is readable; `dst` holds `k * width` floats; `lines <= width`,
    /// `width` is `MR` or `NR`; the CPU has the kernel's instruction set.
    unsafe fn pack(
        dst: &mut [f32],
        base: *const f32,
        strides: (usize, usize),
        k: usize,
        lines: usize,
        width: usize,
    );

    /// One `h`×`w` tile of `c` from a packed A strip and B strip of depth `k`.
    ///
    /// # Safety
    /// `ap` holds `k * MR` floats, `bp` `k * NR`; rows `0..h` and columns `0..w` at `c` (rows
    /// `c_rs` apart) are writable; the CPU has the kernel's instruction set.
    unsafe fn tile(
        k: usize,
        ap: *const f32,
        bp: *const f32,
        c: *mut f32,
        c_rs: usize,
        h: usize,
        w: usize,
    );
}

/// The AVX-512 tile: 12 rows by two 16-float registers.
pub(super) struct Avx512;

impl Kernel for Avx512 {
    const MR: usize = 12;
    const NR: usize = 32;
    /// Half of a 1 MB L2 cache.
    const A_BLOCK: usize = 1 << 17;

    unsafe fn pack(
        dst: &mut [f32],
        base: *const f32,
        strides: (usize, usize),
        k: usize,
        lines: usize,
        width: usize,
    ) {
        // SAFETY: the caller's promises (widths up to 32, AVX-512F).
        unsafe { pack_strip(dst, base, strides, k, lines, width) }
    }

    unsafe fn tile(
        k: usize,
        ap: *const f32,
        bp: *const f32,
        c: *mut f32,
        c_rs: usize,
        h: usize,
        w: usize,
    ) {
        // SAFETY: the caller's promises.
        unsafe { tile512(k, ap, bp, c, c_rs, h, w) }
    }
}

/// Packed B blocks up to this many floats (2 MB, shared through L3).
const B_BLOCK: usize = 1 << 19;
/// Up to this many rows of A, B is packed a strip at a time.
const FEW_ROWS: usize = 48;

/// Whether an `m`×`k` by `k`×`n` product runs here: AVX-512 or AVX2 with FMA, one pass over k
/// (gemm's blocks are at least 512 deep; 1024 on CPUs with 48 KB L1 caches, but only above
/// 64×64 outputs), and none of gemm's special cases (depth 1–2, a single row or column, up to
/// 256 outputs). A debug build leaves AVX2 CPUs on gemm: our crate is compiled there without
/// optimisation and its AVX2 tiles are many times slower than gemm (an optimised dependency),
/// enough to push the lessons' tests past their time limits; the bits are the same either way.
pub(super) fn routes(m: usize, n: usize, k: usize) -> bool {
    let kernel = has_avx512() || (has_avx2() && !cfg!(debug_assertions));
    kernel && gemm_one_pass(m, n, k)
}

/// Whether gemm takes an `m`×`k` by `k`×`n` product as one pass of its general kernels.
fn gemm_one_pass(m: usize, n: usize, k: usize) -> bool {
    let one_pass = k <= 512 || (k <= 1024 && (m > 64 || n > 64));
    k > 2 && m > 1 && n > 1 && m * n > 256 && one_pass
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
/// `routes(m, n, k)` holds (so the CPU has AVX2 and FMA); every element of `a` and `b` the
/// strides reach is readable and every element of `c` writable, and `c` overlaps neither.
pub(super) unsafe fn sgemm(
    m: usize,
    n: usize,
    k: usize,
    a: Operand,
    b: Operand,
    c: *mut f32,
    c_rs: usize,
) {
    // SAFETY: the caller's promises; each kernel only where its instruction set is.
    unsafe {
        if has_avx512() {
            sgemm_on::<Avx512>(m, n, k, a, b, c, c_rs)
        } else {
            sgemm_on::<Avx2>(m, n, k, a, b, c, c_rs)
        }
    }
}

/// `sgemm` on kernel `K`.
///
/// # Safety
/// As `sgemm`, and the CPU has `K`'s instruction set.
unsafe fn sgemm_on<K: Kernel>(
    m: usize,
    n: usize,
    k: usize,
    a: Operand,
    b: Operand,
    c: *mut f32,
    c_rs: usize,
) {
    // SAFETY: the columns `sgemm_packed` asks for are in `b` (caller); `K`'s CPU (caller).
    let strip = |dst: &mut [f32], j0: usize, w: usize| unsafe { pack_b::<K>(dst, b, k, j0, w) };
    // SAFETY: the caller's promises, with B packed by `pack_b`.
    unsafe { sgemm_packed::<K>(m, n, k, a, strip, c, c_rs) }
}

/// `sgemm` on kernel `K` with B given as its packed strips: `strip(dst, j0, w)` writes columns
/// `j0..j0 + w` (`w <= NR`) into `dst` (`k * NR` floats) as `dst[p * NR + j]`, the columns
/// past `w` zero (a convolution builds them from the image, `conv.rs`).
///
/// # Safety
/// As `sgemm`, for `a` and `c`; the CPU has `K`'s instruction set.
pub(super) unsafe fn sgemm_packed<K: Kernel>(
    m: usize,
    n: usize,
    k: usize,
    a: Operand,
    strip: impl Fn(&mut [f32], usize, usize),
    c: *mut f32,
    c_rs: usize,
) {
    let (mr, nr) = (K::MR, K::NR);
    let nc = (B_BLOCK / k / nr).max(1) * nr;
    let mc = (K::A_BLOCK / k / mr).max(1) * mr;
    // a strip of B serves every strip of A; with few of them (a convolution's output
    // channels) each strip is packed just before its tiles, into a buffer that stays in L1,
    // rather than the whole block first
    let one_strip = m <= FEW_ROWS;
    PACKS.with(|packs| {
        let (pa, pb) = &mut *packs.borrow_mut();
        for j0 in (0..n).step_by(nc) {
            let cols = nc.min(n - j0);
            let panels_b = cols.div_ceil(nr);
            pb.resize(if one_strip { nr * k } else { panels_b * nr * k }, 0.0);
            if !one_strip {
                for q in 0..panels_b {
                    let w = nr.min(cols - q * nr);
                    strip(&mut pb[q * nr * k..(q + 1) * nr * k], j0 + q * nr, w);
                }
            }
            for i0 in (0..m).step_by(mc) {
                let rows = mc.min(m - i0);
                let panels_a = rows.div_ceil(mr);
                pa.resize(panels_a * mr * k, 0.0);
                for r in 0..panels_a {
                    let h = mr.min(rows - r * mr);
                    // SAFETY: rows i0 + r*mr .. + h of `a` are in the matrix (caller); `K`'s CPU.
                    unsafe {
                        pack_a::<K>(&mut pa[r * mr * k..(r + 1) * mr * k], a, k, i0 + r * mr, h)
                    };
                }
                for q in 0..panels_b {
                    let w = nr.min(cols - q * nr);
                    let packed = if one_strip {
                        strip(&mut pb[..nr * k], j0 + q * nr, w);
                        0
                    } else {
                        q * nr * k
                    };
                    for r in 0..panels_a {
                        let h = mr.min(rows - r * mr);
                        let at = c.add((i0 + r * mr) * c_rs + j0 + q * nr);
                        let (ap, bp) = (pa[r * mr * k..].as_ptr(), pb[packed..].as_ptr());
                        // SAFETY: the panels hold k*mr and k*nr floats; the tile's h rows and
                        // w columns are inside `c` (caller); `K`'s CPU (caller).
                        unsafe { K::tile(k, ap, bp, at, c_rs, h, w) };
                    }
                }
            }
        }
    });
}

/// Rows `i0..i0 + h` of `a` into `dst` as `dst[p * MR + i]`, the rows past `h` zero.
///
/// # Safety
/// Those rows, over columns `0..k`, are readable through `a`; the CPU has `K`'s instruction set.
unsafe fn pack_a<K: Kernel>(dst: &mut [f32], a: Operand, k: usize, i0: usize, h: usize) {
    K::pack(dst, a.ptr.add(i0 * a.rs), (a.rs, a.cs), k, h, K::MR)
}

/// Columns `j0..j0 + w` of `b` into `dst` as `dst[p * NR + j]`, the columns past `w` zero.
///
/// # Safety
/// Those columns, over rows `0..k`, are readable through `b`; the CPU has `K`'s instruction set.
unsafe fn pack_b<K: Kernel>(dst: &mut [f32], b: Operand, k: usize, j0: usize, w: usize) {
    K::pack(dst, b.ptr.add(j0 * b.cs), (b.cs, b.rs), k, w, K::NR)
}

/// `Kernel::tile` on AVX-512.
///
/// # Safety
/// As `Kernel::tile`; the CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn tile512(
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
    let mut acc = [[_mm512_setzero_ps(); 2]; Avx512::MR];
    for p in 0..k {
        let b0 = _mm512_loadu_ps(bp.add(p * Avx512::NR));
        let b1 = _mm512_loadu_ps(bp.add(p * Avx512::NR + 16));
        for (i, row) in acc.iter_mut().enumerate() {
            let x = _mm512_set1_ps(*ap.add(p * Avx512::MR + i));
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

    /// `sgemm` on one kernel.
    type Sgemm = unsafe fn(usize, usize, usize, Operand, Operand, *mut f32, usize);

    /// The kernels this CPU can run, as `sgemm` on each.
    fn kernels() -> Vec<(&'static str, Sgemm)> {
        let mut all = Vec::new();
        if has_avx2() {
            all.push(("avx2", sgemm_on::<Avx2> as Sgemm));
        }
        if has_avx512() {
            all.push(("avx512", sgemm_on::<Avx512> as Sgemm));
        }
        all
    }

    /// Our tiles (each kernel's) and gemm's single pass round every element alike, for
    /// contiguous and transposed operands and for edges of every width.
    #[test]
    fn the_tiles_give_gemms_bits() {
        let shapes = [
            (17, 33, 3),
            (64, 65, 100),
            (13, 100, 144),
            (130, 70, 512),
            (300, 40, 257),
            (25, 11, 5),
        ];
        for &(m, n, k) in &shapes {
            assert!(gemm_one_pass(m, n, k), "{m}x{n}x{k}");
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
                let mut theirs = vec![f32::NAN; m * n];
                // SAFETY: the operands cover their vectors exactly.
                unsafe {
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
                for (name, kernel) in kernels() {
                    let mut ours = vec![f32::NAN; m * n];
                    // SAFETY: as for gemm; `kernels` lists only what the CPU has.
                    unsafe { kernel(m, n, k, a, b, ours.as_mut_ptr(), n) };
                    let differ = ours
                        .iter()
                        .zip(&theirs)
                        .filter(|(x, y)| x.to_bits() != y.to_bits())
                        .count();
                    assert_eq!(differ, 0, "{name} {m}x{n}x{k} a_t={a_t} b_t={b_t}");
                }
            }
        }
    }
}

//! The AVX-512 registers of the float max/min kernels (`reduce.rs`), over either float type:
//! 16 float32 or 8 float64 lanes, so one kernel serves both. Masks are `u32`s of `LANES` bits.
//!
//! Every method is `unsafe`: the caller's CPU has AVX-512F (the kernels that use them are built
//! for it, and these inline into them), and pointers are valid for the lanes a mask selects.
//! Off x86 only the constants exist, for the portable kernels' bounds.
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

pub(super) trait Zmm: crate::backend::storage::Arith {
    const LANES: usize;
    const NAN: Self;
    #[cfg(target_arch = "x86_64")]
    type V: Copy;
    #[cfg(target_arch = "x86_64")]
    unsafe fn vload(p: *const Self) -> Self::V;
    #[cfg(target_arch = "x86_64")]
    unsafe fn vload_masked(m: u32, p: *const Self) -> Self::V;
    #[cfg(target_arch = "x86_64")]
    unsafe fn vstore_masked(p: *mut Self, m: u32, v: Self::V);
    #[cfg(target_arch = "x86_64")]
    unsafe fn vsplat(x: Self) -> Self::V;
    /// `a > b ? a : b` (`vmaxp*`: the second operand on a tie or a NaN).
    #[cfg(target_arch = "x86_64")]
    unsafe fn vmax(a: Self::V, b: Self::V) -> Self::V;
    #[cfg(target_arch = "x86_64")]
    unsafe fn vmin(a: Self::V, b: Self::V) -> Self::V;
    /// The lanes that hold a NaN.
    #[cfg(target_arch = "x86_64")]
    unsafe fn vnan_lanes(v: Self::V) -> u32;
    /// `b` in the lanes of `m`, `a` in the others.
    #[cfg(target_arch = "x86_64")]
    unsafe fn vblend(m: u32, a: Self::V, b: Self::V) -> Self::V;
    #[cfg(target_arch = "x86_64")]
    unsafe fn vreduce_max(v: Self::V) -> Self;
    #[cfg(target_arch = "x86_64")]
    unsafe fn vreduce_min(v: Self::V) -> Self;
}

/// `_mm512_{op}_{ps|pd}`.
macro_rules! zmm_op {
    (ps, loadu) => {
        _mm512_loadu_ps
    };
    (pd, loadu) => {
        _mm512_loadu_pd
    };
    (ps, maskz_loadu) => {
        _mm512_maskz_loadu_ps
    };
    (pd, maskz_loadu) => {
        _mm512_maskz_loadu_pd
    };
    (ps, mask_storeu) => {
        _mm512_mask_storeu_ps
    };
    (pd, mask_storeu) => {
        _mm512_mask_storeu_pd
    };
    (ps, set1) => {
        _mm512_set1_ps
    };
    (pd, set1) => {
        _mm512_set1_pd
    };
    (ps, max) => {
        _mm512_max_ps
    };
    (pd, max) => {
        _mm512_max_pd
    };
    (ps, min) => {
        _mm512_min_ps
    };
    (pd, min) => {
        _mm512_min_pd
    };
    (ps, unord) => {
        _mm512_cmp_ps_mask::<_CMP_UNORD_Q>
    };
    (pd, unord) => {
        _mm512_cmp_pd_mask::<_CMP_UNORD_Q>
    };
    (ps, mask_blend) => {
        _mm512_mask_blend_ps
    };
    (pd, mask_blend) => {
        _mm512_mask_blend_pd
    };
    (ps, reduce_max) => {
        _mm512_reduce_max_ps
    };
    (pd, reduce_max) => {
        _mm512_reduce_max_pd
    };
    (ps, reduce_min) => {
        _mm512_reduce_min_ps
    };
    (pd, reduce_min) => {
        _mm512_reduce_min_pd
    };
}

/// The impl for one float type; `$sfx` names its intrinsics (`ps`/`pd`).
macro_rules! zmm {
    ($t:ty, $v:ty, $lanes:expr, $mask:ty, $sfx:ident) => {
        impl Zmm for $t {
            const LANES: usize = $lanes;
            const NAN: Self = <$t>::NAN;
            #[cfg(target_arch = "x86_64")]
            type V = $v;
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vload(p: *const Self) -> $v {
                unsafe { zmm_op!($sfx, loadu)(p) }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vload_masked(m: u32, p: *const Self) -> $v {
                unsafe { zmm_op!($sfx, maskz_loadu)(m as $mask, p) }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vstore_masked(p: *mut Self, m: u32, v: $v) {
                unsafe { zmm_op!($sfx, mask_storeu)(p, m as $mask, v) }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vsplat(x: Self) -> $v {
                unsafe { zmm_op!($sfx, set1)(x) }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vmax(a: $v, b: $v) -> $v {
                unsafe { zmm_op!($sfx, max)(a, b) }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vmin(a: $v, b: $v) -> $v {
                unsafe { zmm_op!($sfx, min)(a, b) }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vnan_lanes(v: $v) -> u32 {
                unsafe { zmm_op!($sfx, unord)(v, v) as u32 }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vblend(m: u32, a: $v, b: $v) -> $v {
                unsafe { zmm_op!($sfx, mask_blend)(m as $mask, a, b) }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vreduce_max(v: $v) -> Self {
                unsafe { zmm_op!($sfx, reduce_max)(v) }
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn vreduce_min(v: $v) -> Self {
                unsafe { zmm_op!($sfx, reduce_min)(v) }
            }
        }
    };
}

zmm!(f32, __m512, 16, __mmask16, ps);
zmm!(f64, __m512d, 8, __mmask8, pd);

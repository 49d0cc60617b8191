//! The SIMD registers of the float max/min kernels (`reduce.rs`), so one kernel body serves
//! both float types and both x86 widths: AVX-512's `__m512`/`__m512d` (16 or 8 lanes) and
//! AVX2's `__m256`/`__m256d` (8 or 4). Masks are `u32`s of `LANES` bits; AVX2 has no mask
//! registers, so its impls turn them into lane vectors (`maskload`/`blendv` take those).
//!
//! Every method is `unsafe`: the caller's CPU has the register's features (the kernels that
//! use them are built for it, and these inline into them), and pointers are valid for the
//! lanes a mask selects. Off x86 only `Float` exists, for the portable kernels' bounds.
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// A float type the register kernels cover, with its register of each width.
pub(super) trait Float: crate::backend::storage::Arith {
    const NAN: Self;
    #[cfg(target_arch = "x86_64")]
    type Z: Reg<T = Self>;
    #[cfg(target_arch = "x86_64")]
    type Y: Reg<T = Self>;
}

/// One SIMD register of `LANES` floats of type `T`.
#[cfg(target_arch = "x86_64")]
pub(super) trait Reg: Copy {
    type T: Float;
    const LANES: usize;
    unsafe fn load(p: *const Self::T) -> Self;
    /// The lanes of `m` from `p` (the others zero and not accessed).
    unsafe fn load_masked(m: u32, p: *const Self::T) -> Self;
    unsafe fn store_masked(p: *mut Self::T, m: u32, v: Self);
    unsafe fn splat(x: Self::T) -> Self;
    /// `a > b ? a : b` (`maxp*`: the second operand on a tie or a NaN, at either width).
    unsafe fn max(a: Self, b: Self) -> Self;
    unsafe fn min(a: Self, b: Self) -> Self;
    /// The lanes that hold a NaN.
    unsafe fn nan_lanes(v: Self) -> u32;
    /// `b` in the lanes of `m`, `a` in the others.
    unsafe fn blend(m: u32, a: Self, b: Self) -> Self;
    /// The largest (smallest) lane of a register without NaNs.
    unsafe fn reduce_max(v: Self) -> Self::T;
    unsafe fn reduce_min(v: Self) -> Self::T;
}

/// `_mm512_{op}_{ps|pd}`.
#[cfg(target_arch = "x86_64")]
macro_rules! zmm_op {
    ($sfx:ident, $op:ident) => {
        paste_op!(_mm512_, $op, $sfx)
    };
}

/// `_mm256_{op}_{ps|pd}`.
#[cfg(target_arch = "x86_64")]
macro_rules! ymm_op {
    ($sfx:ident, $op:ident) => {
        paste_op!(_mm256_, $op, $sfx)
    };
}

/// The intrinsic `{prefix}{op}_{sfx}`, spelled out (no `paste` dependency for a dozen names).
#[cfg(target_arch = "x86_64")]
macro_rules! paste_op {
    (_mm512_, loadu, ps) => {
        _mm512_loadu_ps
    };
    (_mm512_, loadu, pd) => {
        _mm512_loadu_pd
    };
    (_mm512_, maskz_loadu, ps) => {
        _mm512_maskz_loadu_ps
    };
    (_mm512_, maskz_loadu, pd) => {
        _mm512_maskz_loadu_pd
    };
    (_mm512_, mask_storeu, ps) => {
        _mm512_mask_storeu_ps
    };
    (_mm512_, mask_storeu, pd) => {
        _mm512_mask_storeu_pd
    };
    (_mm512_, set1, ps) => {
        _mm512_set1_ps
    };
    (_mm512_, set1, pd) => {
        _mm512_set1_pd
    };
    (_mm512_, max, ps) => {
        _mm512_max_ps
    };
    (_mm512_, max, pd) => {
        _mm512_max_pd
    };
    (_mm512_, min, ps) => {
        _mm512_min_ps
    };
    (_mm512_, min, pd) => {
        _mm512_min_pd
    };
    (_mm512_, unord, ps) => {
        _mm512_cmp_ps_mask::<_CMP_UNORD_Q>
    };
    (_mm512_, unord, pd) => {
        _mm512_cmp_pd_mask::<_CMP_UNORD_Q>
    };
    (_mm512_, mask_blend, ps) => {
        _mm512_mask_blend_ps
    };
    (_mm512_, mask_blend, pd) => {
        _mm512_mask_blend_pd
    };
    (_mm512_, reduce_max, ps) => {
        _mm512_reduce_max_ps
    };
    (_mm512_, reduce_max, pd) => {
        _mm512_reduce_max_pd
    };
    (_mm512_, reduce_min, ps) => {
        _mm512_reduce_min_ps
    };
    (_mm512_, reduce_min, pd) => {
        _mm512_reduce_min_pd
    };
    (_mm256_, loadu, ps) => {
        _mm256_loadu_ps
    };
    (_mm256_, loadu, pd) => {
        _mm256_loadu_pd
    };
    (_mm256_, maskload, ps) => {
        _mm256_maskload_ps
    };
    (_mm256_, maskload, pd) => {
        _mm256_maskload_pd
    };
    (_mm256_, maskstore, ps) => {
        _mm256_maskstore_ps
    };
    (_mm256_, maskstore, pd) => {
        _mm256_maskstore_pd
    };
    (_mm256_, set1, ps) => {
        _mm256_set1_ps
    };
    (_mm256_, set1, pd) => {
        _mm256_set1_pd
    };
    (_mm256_, max, ps) => {
        _mm256_max_ps
    };
    (_mm256_, max, pd) => {
        _mm256_max_pd
    };
    (_mm256_, min, ps) => {
        _mm256_min_ps
    };
    (_mm256_, min, pd) => {
        _mm256_min_pd
    };
    (_mm256_, unord, ps) => {
        _mm256_cmp_ps::<_CMP_UNORD_Q>
    };
    (_mm256_, unord, pd) => {
        _mm256_cmp_pd::<_CMP_UNORD_Q>
    };
    (_mm256_, movemask, ps) => {
        _mm256_movemask_ps
    };
    (_mm256_, movemask, pd) => {
        _mm256_movemask_pd
    };
    (_mm256_, blendv, ps) => {
        _mm256_blendv_ps
    };
    (_mm256_, blendv, pd) => {
        _mm256_blendv_pd
    };
    (_mm256_, cast_mask, ps) => {
        _mm256_castsi256_ps
    };
    (_mm256_, cast_mask, pd) => {
        _mm256_castsi256_pd
    };
}

/// The AVX-512 impl for one float type.
#[cfg(target_arch = "x86_64")]
macro_rules! zmm {
    ($t:ty, $v:ty, $lanes:expr, $mask:ty, $sfx:ident) => {
        impl Reg for $v {
            type T = $t;
            const LANES: usize = $lanes;
            #[inline(always)]
            unsafe fn load(p: *const $t) -> $v {
                unsafe { zmm_op!($sfx, loadu)(p) }
            }
            #[inline(always)]
            unsafe fn load_masked(m: u32, p: *const $t) -> $v {
                unsafe { zmm_op!($sfx, maskz_loadu)(m as $mask, p) }
            }
            #[inline(always)]
            unsafe fn store_masked(p: *mut $t, m: u32, v: $v) {
                unsafe { zmm_op!($sfx, mask_storeu)(p, m as $mask, v) }
            }
            #[inline(always)]
            unsafe fn splat(x: $t) -> $v {
                unsafe { zmm_op!($sfx, set1)(x) }
            }
            #[inline(always)]
            unsafe fn max(a: $v, b: $v) -> $v {
                unsafe { zmm_op!($sfx, max)(a, b) }
            }
            #[inline(always)]
            unsafe fn min(a: $v, b: $v) -> $v {
                unsafe { zmm_op!($sfx, min)(a, b) }
            }
            #[inline(always)]
            unsafe fn nan_lanes(v: $v) -> u32 {
                unsafe { zmm_op!($sfx, unord)(v, v) as u32 }
            }
            #[inline(always)]
            unsafe fn blend(m: u32, a: $v, b: $v) -> $v {
                unsafe { zmm_op!($sfx, mask_blend)(m as $mask, a, b) }
            }
            #[inline(always)]
            unsafe fn reduce_max(v: $v) -> $t {
                unsafe { zmm_op!($sfx, reduce_max)(v) }
            }
            #[inline(always)]
            unsafe fn reduce_min(v: $v) -> $t {
                unsafe { zmm_op!($sfx, reduce_min)(v) }
            }
        }
    };
}

/// The AVX2 impl for one float type: `$bits(m)` is the lane vector of mask `m` (all ones in
/// its lanes), `$fold` folds a register's lanes with `$op` down to one (the register's
/// `max`/`min`, pairwise: no NaN is in it, so the order gives the same value).
#[cfg(target_arch = "x86_64")]
macro_rules! ymm {
    ($t:ty, $v:ty, $lanes:expr, $sfx:ident, $bits:ident, $fold:ident) => {
        impl Reg for $v {
            type T = $t;
            const LANES: usize = $lanes;
            #[inline(always)]
            unsafe fn load(p: *const $t) -> $v {
                unsafe { ymm_op!($sfx, loadu)(p) }
            }
            #[inline(always)]
            unsafe fn load_masked(m: u32, p: *const $t) -> $v {
                unsafe { ymm_op!($sfx, maskload)(p, $bits(m)) }
            }
            #[inline(always)]
            unsafe fn store_masked(p: *mut $t, m: u32, v: $v) {
                unsafe { ymm_op!($sfx, maskstore)(p, $bits(m), v) }
            }
            #[inline(always)]
            unsafe fn splat(x: $t) -> $v {
                unsafe { ymm_op!($sfx, set1)(x) }
            }
            #[inline(always)]
            unsafe fn max(a: $v, b: $v) -> $v {
                unsafe { ymm_op!($sfx, max)(a, b) }
            }
            #[inline(always)]
            unsafe fn min(a: $v, b: $v) -> $v {
                unsafe { ymm_op!($sfx, min)(a, b) }
            }
            #[inline(always)]
            unsafe fn nan_lanes(v: $v) -> u32 {
                unsafe { ymm_op!($sfx, movemask)(ymm_op!($sfx, unord)(v, v)) as u32 }
            }
            #[inline(always)]
            unsafe fn blend(m: u32, a: $v, b: $v) -> $v {
                unsafe { ymm_op!($sfx, blendv)(a, b, ymm_op!($sfx, cast_mask)($bits(m))) }
            }
            #[inline(always)]
            unsafe fn reduce_max(v: $v) -> $t {
                unsafe { $fold(v, |a, b| <$v as Reg>::max(a, b)) }
            }
            #[inline(always)]
            unsafe fn reduce_min(v: $v) -> $t {
                unsafe { $fold(v, |a, b| <$v as Reg>::min(a, b)) }
            }
        }
    };
}

/// Mask `m`'s lanes of eight 32-bit lanes, all ones.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn bits32(m: u32) -> __m256i {
    unsafe {
        let lane = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(m as i32), lane), lane)
    }
}

/// Mask `m`'s lanes of four 64-bit lanes, all ones.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn bits64(m: u32) -> __m256i {
    unsafe {
        let lane = _mm256_setr_epi64x(1, 2, 4, 8);
        _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(m as i64), lane), lane)
    }
}

/// `op` over the eight lanes of `v`: halves, then quarters, then pairs.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn fold8(v: __m256, op: impl Fn(__m256, __m256) -> __m256) -> f32 {
    unsafe {
        let v = op(v, _mm256_permute2f128_ps::<1>(v, v));
        let v = op(v, _mm256_permute_ps::<0b01_00_11_10>(v));
        let v = op(v, _mm256_permute_ps::<0b10_11_00_01>(v));
        _mm256_cvtss_f32(v)
    }
}

/// `op` over the four lanes of `v`: halves, then pairs.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn fold4(v: __m256d, op: impl Fn(__m256d, __m256d) -> __m256d) -> f64 {
    unsafe {
        let v = op(v, _mm256_permute2f128_pd::<1>(v, v));
        let v = op(v, _mm256_permute_pd::<0b0101>(v));
        _mm256_cvtsd_f64(v)
    }
}

#[cfg(target_arch = "x86_64")]
zmm!(f32, __m512, 16, __mmask16, ps);
#[cfg(target_arch = "x86_64")]
zmm!(f64, __m512d, 8, __mmask8, pd);
#[cfg(target_arch = "x86_64")]
ymm!(f32, __m256, 8, ps, bits32, fold8);
#[cfg(target_arch = "x86_64")]
ymm!(f64, __m256d, 4, pd, bits64, fold4);

impl Float for f32 {
    const NAN: Self = f32::NAN;
    #[cfg(target_arch = "x86_64")]
    type Z = __m512;
    #[cfg(target_arch = "x86_64")]
    type Y = __m256;
}

impl Float for f64 {
    const NAN: Self = f64::NAN;
    #[cfg(target_arch = "x86_64")]
    type Z = __m512d;
    #[cfg(target_arch = "x86_64")]
    type Y = __m256d;
}

//! Run-time SIMD builds: `simd_build!` compiles one function body three times (AVX-512 with
//! AVX2 and FMA, AVX2 with FMA, baseline) and picks the widest the CPU has at each call, so
//! plain loops vectorise without a global `target-cpu` flag. The bits never change with the
//! build: the bodies use lane-wise IEEE arithmetic, compares and selects, LLVM forms no FMA of
//! its own, and an explicit `mul_add` rounds once in every build (one instruction in the FMA
//! tiers, a call into libm in the baseline one).

/// `simd_build! { fn name<T: Bound, U>(args) -> R { body } }`: `name` with `body` built for
/// each tier (see the module documentation).
macro_rules! simd_build {
    ($(#[$m:meta])* $vis:vis fn $name:ident<$($g:ident $(: $b:path)?),*>($($a:ident: $t:ty),* $(,)?) $(-> $r:ty)? $body:block) => {
        $(#[$m])*
        $vis fn $name<$($g $(: $b)?),*>($($a: $t),*) $(-> $r)? {
            #[inline(always)]
            fn body<$($g $(: $b)?),*>($($a: $t),*) $(-> $r)? $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx2,fma")]
                fn avx512<$($g $(: $b)?),*>($($a: $t),*) $(-> $r)? {
                    body($($a),*)
                }
                #[target_feature(enable = "avx2,fma")]
                fn avx2<$($g $(: $b)?),*>($($a: $t),*) $(-> $r)? {
                    body($($a),*)
                }
                if $crate::backend::cpu::sleef::has_avx512() {
                    // SAFETY: the CPU has AVX-512F, AVX2 and FMA (detected just above), the
                    // only requirement of a `target_feature` function.
                    return unsafe { avx512($($a),*) };
                }
                if $crate::backend::cpu::sleef::has_avx2() {
                    // SAFETY: the CPU has AVX2 and FMA (detected just above).
                    return unsafe { avx2($($a),*) };
                }
            }
            body($($a),*)
        }
    };
}

/// For the kernels built above the backend (`tensor::create`).
pub(crate) use simd_build;

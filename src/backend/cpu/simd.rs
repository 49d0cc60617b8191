//! Run-time SIMD builds: `simd_build!` compiles one function body three times (AVX-512 with
//! AVX2, AVX2, baseline) and picks the widest the CPU has at each call, so plain loops
//! vectorise without a global `target-cpu` flag. The bits never change with the build: the
//! bodies use lane-wise IEEE arithmetic, compares and selects, and LLVM forms no FMA of its own.

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
                #[target_feature(enable = "avx512f,avx2")]
                fn avx512<$($g $(: $b)?),*>($($a: $t),*) $(-> $r)? {
                    body($($a),*)
                }
                #[target_feature(enable = "avx2")]
                fn avx2<$($g $(: $b)?),*>($($a: $t),*) $(-> $r)? {
                    body($($a),*)
                }
                if $crate::backend::cpu::sleef::has_avx512() {
                    // SAFETY: the CPU has AVX-512F and AVX2 (detected just above), the only
                    // requirement of a `target_feature` function.
                    return unsafe { avx512($($a),*) };
                }
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2 (detected just above).
                    return unsafe { avx2($($a),*) };
                }
            }
            body($($a),*)
        }
    };
}

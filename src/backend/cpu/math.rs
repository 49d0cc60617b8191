//! Transcendental and rounding functions in the float compute types (f32 for f16/bf16/f32).
use crate::backend::storage::Arith;

pub trait FloatMath: Arith {
    fn sqrt(self) -> Self;
    fn exp(self) -> Self;
    fn exp_m1(self) -> Self;
    fn ln(self) -> Self;
    /// `torch.log`'s ln: within an ulp in f32 (see `vmath::ln_faithful`), libm's in f64.
    fn ln_faithful(self) -> Self;
    fn log2(self) -> Self;
    fn log10(self) -> Self;
    fn ln_1p(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn tan(self) -> Self;
    fn tanh(self) -> Self;
    /// erf, correctly rounded in f32 (through f64), libm's in f64.
    fn erf(self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn round_even(self) -> Self;
    fn trunc(self) -> Self;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
}

macro_rules! float_math {
    ($t:ty, $exp:path, $exp_m1:path, $ln:path, $ln_1p:path, $ln_faithful:path, $tanh:path) => {
        impl FloatMath for $t {
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn exp(self) -> Self {
                $exp(self)
            }
            #[inline(always)]
            fn exp_m1(self) -> Self {
                $exp_m1(self)
            }
            #[inline(always)]
            fn ln(self) -> Self {
                $ln(self)
            }
            #[inline(always)]
            fn ln_faithful(self) -> Self {
                $ln_faithful(self)
            }
            fn log2(self) -> Self {
                <$t>::log2(self)
            }
            fn log10(self) -> Self {
                <$t>::log10(self)
            }
            #[inline(always)]
            fn ln_1p(self) -> Self {
                $ln_1p(self)
            }
            fn sin(self) -> Self {
                <$t>::sin(self)
            }
            fn cos(self) -> Self {
                <$t>::cos(self)
            }
            fn tan(self) -> Self {
                <$t>::tan(self)
            }
            fn tanh(self) -> Self {
                $tanh(self)
            }
            fn erf(self) -> Self {
                libm::erf(self as f64) as $t
            }
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
            fn ceil(self) -> Self {
                <$t>::ceil(self)
            }
            fn round_even(self) -> Self {
                <$t>::round_ties_even(self)
            }
            fn trunc(self) -> Self {
                <$t>::trunc(self)
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}
// f32 (and f16/bf16, computed in f32) through `vmath`, so every path (strided, fused,
// backward) gives the bits of the vectorised kernels; f64 through the platform libm.
float_math!(
    f32,
    super::vmath::exp,
    super::vmath::exp_m1,
    super::vmath::ln,
    super::vmath::ln_1p,
    super::vmath::ln_faithful,
    super::vmath::tanh
);
float_math!(
    f64,
    f64::exp,
    f64::exp_m1,
    f64::ln,
    f64::ln_1p,
    f64::ln,
    f64::tanh
);

//! Element types: `Element` (how each dtype is stored, loaded into its compute type and cast
//! with PyTorch's conversion rules) and `Arith` (arithmetic in the compute type with PyTorch's
//! semantics: floor division, Python-style remainder, NaN-propagating max/min).
use super::buffer::Buffer;
use super::half_bits;
use super::DType;
use half::{bf16, f16};

/// x86 `cvttsd2si` semantics, which PyTorch's float→integer casts inherit: NaN and
/// out-of-range values become the minimum value.
#[inline]
pub fn f64_to_i64(v: f64) -> i64 {
    if v.is_nan() || !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&v) {
        i64::MIN
    } else {
        v as i64
    }
}
#[inline]
fn f64_to_i32(v: f64) -> i32 {
    if v.is_nan() || v >= 2147483648.0 || v <= -2147483649.0 {
        i32::MIN
    } else {
        v as i32
    }
}

/// Arithmetic in the type an element is computed in (f16/bf16 in f32, integers in i64), with
/// PyTorch's semantics (floor division, Python-style remainder, NaN-propagating max/min).
pub trait Arith: Copy + PartialOrd + PartialEq + Send + Sync + 'static {
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn floor_div(self, o: Self) -> Self;
    fn trunc_div(self, o: Self) -> Self;
    fn rem(self, o: Self) -> Self;
    fn fmod(self, o: Self) -> Self;
    fn pow(self, o: Self) -> Self;
    fn max(self, o: Self) -> Self;
    fn min(self, o: Self) -> Self;
    fn bitand(self, o: Self) -> Self;
    fn bitor(self, o: Self) -> Self;
    fn bitxor(self, o: Self) -> Self;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn sign(self) -> Self;
    fn not(self) -> Self;
    fn zero() -> Self;
    fn one() -> Self;
    fn is_nan(self) -> bool;
    fn truthy(self) -> bool;
    /// A Python number in this compute type (floats rounded once, ints truncated).
    fn of_scalar(s: crate::core::Scalar) -> Self;
    fn sqrt(self) -> Self;
}

macro_rules! float_arith {
    ($t:ty) => {
        impl Arith for $t {
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self + o
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self - o
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self * o
            }
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                self / o
            }
            #[inline]
            fn floor_div(self, b: Self) -> Self {
                // ATen div_floor_floating
                let a = self;
                if b == 0.0 {
                    return a / b;
                }
                let m = a % b;
                let mut div = (a - m) / b;
                if m != 0.0 && (b < 0.0) != (m < 0.0) {
                    div -= 1.0;
                }
                if div != 0.0 {
                    let mut fd = div.floor();
                    if div - fd > 0.5 {
                        fd += 1.0;
                    }
                    fd
                } else {
                    (0.0 as $t).copysign(a / b)
                }
            }
            #[inline]
            fn trunc_div(self, o: Self) -> Self {
                (self / o).trunc()
            }
            #[inline]
            fn rem(self, b: Self) -> Self {
                let mut m = self % b;
                if m != 0.0 && (b < 0.0) != (m < 0.0) {
                    m += b;
                }
                m
            }
            #[inline]
            fn fmod(self, o: Self) -> Self {
                self % o
            }
            #[inline]
            fn pow(self, o: Self) -> Self {
                self.powf(o)
            }
            #[inline(always)]
            fn max(self, o: Self) -> Self {
                if self.is_nan() || o.is_nan() {
                    <$t>::NAN
                } else if self > o {
                    self
                } else {
                    o
                }
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                if self.is_nan() || o.is_nan() {
                    <$t>::NAN
                } else if self < o {
                    self
                } else {
                    o
                }
            }
            fn bitand(self, _o: Self) -> Self {
                <$t>::NAN
            }
            fn bitor(self, _o: Self) -> Self {
                <$t>::NAN
            }
            fn bitxor(self, _o: Self) -> Self {
                <$t>::NAN
            }
            #[inline(always)]
            fn neg(self) -> Self {
                -self
            }
            #[inline(always)]
            fn abs(self) -> Self {
                self.abs()
            }
            #[inline]
            fn sign(self) -> Self {
                ((self > 0.0) as i32 - (self < 0.0) as i32) as $t
            }
            fn not(self) -> Self {
                <$t>::NAN
            }
            #[inline(always)]
            fn zero() -> Self {
                0.0
            }
            #[inline(always)]
            fn one() -> Self {
                1.0
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                self.is_nan()
            }
            #[inline(always)]
            fn truthy(self) -> bool {
                self != 0.0
            }
            fn of_scalar(s: crate::core::Scalar) -> Self {
                s.to_f64() as $t
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
        }
    };
}
float_arith!(f32);
float_arith!(f64);

impl Arith for i64 {
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self.wrapping_mul(o)
    }
    /// Integer inputs are promoted to float before true division; this is only reached by
    /// internal callers and never divides by zero.
    fn div(self, o: Self) -> Self {
        if o == 0 {
            0
        } else {
            self.wrapping_div(o)
        }
    }
    #[inline]
    fn floor_div(self, b: Self) -> Self {
        if b == 0 {
            return 0; // the op checks for zero divisors first ("ZeroDivisionError")
        }
        if (self < 0) != (b < 0) {
            let q = self.wrapping_div(b);
            let r = self.wrapping_rem(b);
            if r != 0 {
                q - 1
            } else {
                q
            }
        } else {
            self.wrapping_div(b)
        }
    }
    fn trunc_div(self, b: Self) -> Self {
        if b == 0 {
            0
        } else {
            self.wrapping_div(b)
        }
    }
    #[inline]
    fn rem(self, b: Self) -> Self {
        if b == 0 {
            return 0;
        }
        let mut r = self.wrapping_rem(b);
        if r != 0 && (r < 0) != (b < 0) {
            r += b;
        }
        r
    }
    fn fmod(self, b: Self) -> Self {
        if b == 0 {
            0
        } else {
            self.wrapping_rem(b)
        }
    }
    /// ATen `powi`: negative exponents give 0 except for bases 1 and -1.
    fn pow(self, b: Self) -> Self {
        if b < 0 {
            return match self {
                1 => 1,
                -1 => {
                    if b % 2 == 0 {
                        1
                    } else {
                        -1
                    }
                }
                _ => 0,
            };
        }
        let (mut base, mut e, mut r) = (self, b as u64, 1i64);
        while e > 0 {
            if e & 1 == 1 {
                r = r.wrapping_mul(base);
            }
            base = base.wrapping_mul(base);
            e >>= 1;
        }
        r
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        std::cmp::max(self, o)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        std::cmp::min(self, o)
    }
    fn bitand(self, o: Self) -> Self {
        self & o
    }
    fn bitor(self, o: Self) -> Self {
        self | o
    }
    fn bitxor(self, o: Self) -> Self {
        self ^ o
    }
    fn neg(self) -> Self {
        self.wrapping_neg()
    }
    fn abs(self) -> Self {
        self.wrapping_abs()
    }
    fn sign(self) -> Self {
        self.signum()
    }
    fn not(self) -> Self {
        !self
    }
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn is_nan(self) -> bool {
        false
    }
    fn truthy(self) -> bool {
        self != 0
    }
    fn of_scalar(s: crate::core::Scalar) -> Self {
        s.to_i64()
    }
    fn sqrt(self) -> Self {
        (self as f64).sqrt() as i64
    }
}

/// Booleans: `+` is or, `*` is and (PyTorch's bool arithmetic); the rest is rejected by the ops.
impl Arith for bool {
    fn add(self, o: Self) -> Self {
        self | o
    }
    fn sub(self, o: Self) -> Self {
        self ^ o
    }
    fn mul(self, o: Self) -> Self {
        self & o
    }
    fn div(self, o: Self) -> Self {
        self & o
    }
    fn floor_div(self, o: Self) -> Self {
        self & o
    }
    fn trunc_div(self, o: Self) -> Self {
        self & o
    }
    fn rem(self, _o: Self) -> Self {
        false
    }
    fn fmod(self, _o: Self) -> Self {
        false
    }
    fn pow(self, o: Self) -> Self {
        self | !o
    }
    fn max(self, o: Self) -> Self {
        self | o
    }
    fn min(self, o: Self) -> Self {
        self & o
    }
    fn bitand(self, o: Self) -> Self {
        self & o
    }
    fn bitor(self, o: Self) -> Self {
        self | o
    }
    fn bitxor(self, o: Self) -> Self {
        self ^ o
    }
    fn neg(self) -> Self {
        self
    }
    fn abs(self) -> Self {
        self
    }
    fn sign(self) -> Self {
        self
    }
    fn not(self) -> Self {
        !self
    }
    fn zero() -> Self {
        false
    }
    fn one() -> Self {
        true
    }
    fn is_nan(self) -> bool {
        false
    }
    fn truthy(self) -> bool {
        self
    }
    fn of_scalar(s: crate::core::Scalar) -> Self {
        s.to_bool()
    }
    fn sqrt(self) -> Self {
        self
    }
}

/// A storable element type. `M` is the type arithmetic happens in; the conversions follow
/// PyTorch's (C++ `static_cast`, via x86) cast semantics.
pub trait Element: Copy + Send + Sync + PartialEq + Default + std::fmt::Debug + 'static {
    const DTYPE: DType;
    type M: Arith;
    fn load(self) -> Self::M;
    fn store(m: Self::M) -> Self;
    fn to_f64(self) -> f64;
    fn to_i64(self) -> i64;
    fn to_bool(self) -> bool;
    fn from_f64(v: f64) -> Self;
    fn from_i64(v: i64) -> Self;
    fn from_bool(v: bool) -> Self;
    fn slice(b: &Buffer) -> Option<&[Self]>;
    fn slice_mut(b: &mut Buffer) -> Option<&mut [Self]>;
    fn wrap(v: Vec<Self>) -> Buffer;
    fn unwrap_vec(b: Buffer) -> Option<Vec<Self>>;
    /// Convert from another element type with PyTorch's cast rules.
    #[inline(always)]
    fn cast_from<S: Element>(s: S) -> Self {
        if S::DTYPE.is_floating() {
            Self::from_f64(s.to_f64())
        } else if S::DTYPE == DType::Bool {
            Self::from_bool(s.to_bool())
        } else {
            Self::from_i64(s.to_i64())
        }
    }
}

macro_rules! buf_access {
    ($var:ident) => {
        fn slice(b: &Buffer) -> Option<&[Self]> {
            if let Buffer::$var(v) = b {
                Some(v)
            } else {
                None
            }
        }
        fn slice_mut(b: &mut Buffer) -> Option<&mut [Self]> {
            if let Buffer::$var(v) = b {
                Some(v)
            } else {
                None
            }
        }
        fn unwrap_vec(b: Buffer) -> Option<Vec<Self>> {
            if let Buffer::$var(v) = b {
                Some(v)
            } else {
                None
            }
        }
        fn wrap(v: Vec<Self>) -> Buffer {
            Buffer::$var(v)
        }
    };
}

macro_rules! int_element {
    ($t:ty, $var:ident, $dt:expr, $from_f:expr) => {
        impl Element for $t {
            const DTYPE: DType = $dt;
            type M = i64;
            #[inline(always)]
            fn load(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn store(m: i64) -> Self {
                m as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn to_bool(self) -> bool {
                self != 0
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                ($from_f)(v)
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn from_bool(v: bool) -> Self {
                v as $t
            }
            buf_access!($var);
        }
    };
}
int_element!(u8, U8, DType::U8, |v: f64| f64_to_i64(v) as u8);
int_element!(i8, I8, DType::I8, |v: f64| f64_to_i32(v) as i8);
int_element!(i32, I32, DType::I32, f64_to_i32);
int_element!(i64, I64, DType::I64, f64_to_i64);

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    type M = bool;
    #[inline(always)]
    fn load(self) -> bool {
        self
    }
    #[inline(always)]
    fn store(m: bool) -> Self {
        m
    }
    fn to_f64(self) -> f64 {
        self as i64 as f64
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
    fn to_bool(self) -> bool {
        self
    }
    fn from_f64(v: f64) -> Self {
        v != 0.0
    }
    fn from_i64(v: i64) -> Self {
        v != 0
    }
    fn from_bool(v: bool) -> Self {
        v
    }
    buf_access!(Bool);
}

impl Element for f32 {
    const DTYPE: DType = DType::F32;
    type M = f32;
    #[inline(always)]
    fn load(self) -> f32 {
        self
    }
    #[inline(always)]
    fn store(m: f32) -> Self {
        m
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_i64(self) -> i64 {
        f64_to_i64(self as f64)
    }
    fn to_bool(self) -> bool {
        self != 0.0
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v as f32
    }
    fn from_bool(v: bool) -> Self {
        v as i32 as f32
    }
    buf_access!(F32);
}

impl Element for f64 {
    const DTYPE: DType = DType::F64;
    type M = f64;
    #[inline(always)]
    fn load(self) -> f64 {
        self
    }
    #[inline(always)]
    fn store(m: f64) -> Self {
        m
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    fn to_i64(self) -> i64 {
        f64_to_i64(self)
    }
    fn to_bool(self) -> bool {
        self != 0.0
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v as f64
    }
    fn from_bool(v: bool) -> Self {
        v as i32 as f64
    }
    buf_access!(F64);
}

macro_rules! half_element {
    ($t:ty, $var:ident, $dt:expr, $widen:path, $narrow:path) => {
        /// Computed in f32 and rounded once on store, as PyTorch's CPU kernels do; doubles reach
        /// half precision through float, as c10's conversions do. The conversions are
        /// `half_bits`'s branch-free ones, so that loops over elements vectorise.
        impl Element for $t {
            const DTYPE: DType = $dt;
            type M = f32;
            #[inline(always)]
            fn load(self) -> f32 {
                $widen(self.to_bits())
            }
            #[inline(always)]
            fn store(m: f32) -> Self {
                <$t>::from_bits($narrow(m))
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self.load() as f64
            }
            fn to_i64(self) -> i64 {
                f64_to_i64(self.to_f64())
            }
            fn to_bool(self) -> bool {
                self.load() != 0.0
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                Self::store(v as f32)
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                Self::store(v as f32)
            }
            fn from_bool(v: bool) -> Self {
                Self::store(v as i32 as f32)
            }
            buf_access!($var);
        }
    };
}
half_element!(
    f16,
    F16,
    DType::F16,
    half_bits::f16_to_f32,
    half_bits::f32_to_f16
);
half_element!(
    bf16,
    BF16,
    DType::BF16,
    half_bits::bf16_to_f32,
    half_bits::f32_to_bf16
);

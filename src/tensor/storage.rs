//! Element storage. A `Buffer` is a vector typed by dtype; a `Storage` is a buffer plus the
//! device it lives on, shared (`Rc`) by every view of it. The `RefCell` lets in-place ops write
//! through any view; kernels never hold a borrow across a call that could borrow again, and
//! in-place ops whose source shares the destination's storage copy the source first.
//!
//! Device seam: a CPU tensor and a simulated-GPU tensor both hold host memory here and differ only
//! in `device` (and, later, in which allocator accounted for them). A real CUDA backend adds a
//! device-memory variant; every op already asks `backend::for_device` first, so nothing above the
//! backend needs to know where the bytes are.
use super::error::{runtime, Result};
use super::{DType, Device};
use half::{bf16, f16};
use std::cell::{Ref, RefCell, RefMut};

#[derive(Clone, Debug)]
pub enum Buffer {
    Bool(Vec<bool>),
    U8(Vec<u8>),
    I8(Vec<i8>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F16(Vec<f16>),
    BF16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// Run `$body` with `$v` bound to the typed vector inside a `Buffer` (by reference) and `$T`
/// naming its element type.
#[macro_export]
macro_rules! with_buffer {
    ($buf:expr, $v:ident, $T:ident => $body:expr) => {{
        use $crate::tensor::storage::Buffer as B_;
        match $buf {
            B_::Bool($v) => {
                #[allow(dead_code)]
                type $T = bool;
                $body
            }
            B_::U8($v) => {
                #[allow(dead_code)]
                type $T = u8;
                $body
            }
            B_::I8($v) => {
                #[allow(dead_code)]
                type $T = i8;
                $body
            }
            B_::I32($v) => {
                #[allow(dead_code)]
                type $T = i32;
                $body
            }
            B_::I64($v) => {
                #[allow(dead_code)]
                type $T = i64;
                $body
            }
            B_::F16($v) => {
                #[allow(dead_code)]
                type $T = half::f16;
                $body
            }
            B_::BF16($v) => {
                #[allow(dead_code)]
                type $T = half::bf16;
                $body
            }
            B_::F32($v) => {
                #[allow(dead_code)]
                type $T = f32;
                $body
            }
            B_::F64($v) => {
                #[allow(dead_code)]
                type $T = f64;
                $body
            }
        }
    }};
}

/// Run `$body` with `$T` bound to the Rust element type of a `DType`.
#[macro_export]
macro_rules! with_dtype {
    ($dt:expr, $T:ident => $body:expr) => {{
        use $crate::tensor::DType as D_;
        match $dt {
            D_::Bool => {
                #[allow(dead_code)]
                type $T = bool;
                $body
            }
            D_::U8 => {
                #[allow(dead_code)]
                type $T = u8;
                $body
            }
            D_::I8 => {
                #[allow(dead_code)]
                type $T = i8;
                $body
            }
            D_::I32 => {
                #[allow(dead_code)]
                type $T = i32;
                $body
            }
            D_::I64 => {
                #[allow(dead_code)]
                type $T = i64;
                $body
            }
            D_::F16 => {
                #[allow(dead_code)]
                type $T = half::f16;
                $body
            }
            D_::BF16 => {
                #[allow(dead_code)]
                type $T = half::bf16;
                $body
            }
            D_::F32 => {
                #[allow(dead_code)]
                type $T = f32;
                $body
            }
            D_::F64 => {
                #[allow(dead_code)]
                type $T = f64;
                $body
            }
        }
    }};
}

impl Buffer {
    pub fn dtype(&self) -> DType {
        crate::with_buffer!(self, _v, T => <T as Element>::DTYPE)
    }
    pub fn len(&self) -> usize {
        crate::with_buffer!(self, v, T => v.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// A zero-filled buffer; fails (instead of aborting) when the memory cannot be had.
    pub fn zeros(dtype: DType, n: usize) -> Result<Buffer> {
        crate::with_dtype!(dtype, T => Ok(T::wrap(zeroed_vec::<T>(n)?)))
    }
}

/// The most bytes one allocation may ask for: more than the machine has is refused up front,
/// because Linux overcommit would otherwise "succeed" and the process die later.
fn alloc_limit() -> usize {
    use std::sync::OnceLock;
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("MemTotal:"))?.to_string();
            let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb.saturating_mul(1024))
        });
        total.unwrap_or(isize::MAX as usize / 2)
    })
}

fn oom<T>(bytes: usize) -> Result<T> {
    runtime(format!(
        "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {bytes} bytes. Error code 12 (Cannot allocate memory)"
    ))
}

/// A vector of `n` zero elements. Every element type here has all-zero bits for zero, so the
/// allocator's zeroed memory (calloc: fresh pages for large sizes) is used directly.
pub fn zeroed_vec<T: Element>(n: usize) -> Result<Vec<T>> {
    let size = std::mem::size_of::<T>();
    let Some(bytes) = n.checked_mul(size) else {
        return oom(usize::MAX);
    };
    if bytes > alloc_limit() {
        return oom(bytes);
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let layout = match std::alloc::Layout::array::<T>(n) {
        Ok(l) => l,
        Err(_) => return oom(bytes),
    };
    // SAFETY: layout has non-zero size; the pointer comes from the global allocator with T's
    // layout, zero bits are a valid T for every Element type (bool, ints, IEEE floats), and the
    // capacity equals the allocated length.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut T;
        if p.is_null() {
            return oom(bytes);
        }
        advise_huge_pages(p as *mut u8, bytes);
        Ok(Vec::from_raw_parts(p, n, n))
    }
}

/// Large buffers come from fresh zero pages, and faulting them in 4 KiB at a time costs more
/// than the arithmetic (a 10M-element add touches 10,000 pages). Asking for transparent huge
/// pages makes that 20 faults.
#[cfg(target_os = "linux")]
fn advise_huge_pages(p: *mut u8, bytes: usize) {
    const HUGE: usize = 2 << 20;
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    if bytes < 2 * HUGE {
        return;
    }
    let start = (p as usize).next_multiple_of(4096);
    let end = (p as usize + bytes) & !4095;
    if end > start {
        // SAFETY: the range lies inside the allocation just made; madvise only changes how the
        // kernel backs it and reports failure through its return value, which is ignored.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_p: *mut u8, _bytes: usize) {}

/// Check the size of an output before `collect`ing into it.
pub fn check_alloc(n: usize, dtype: DType) -> Result<()> {
    match n.checked_mul(dtype.size()) {
        Some(b) if b <= alloc_limit() => Ok(()),
        Some(b) => oom(b),
        None => oom(usize::MAX),
    }
}

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
    fn of_scalar(s: crate::tensor::Scalar) -> Self;
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
            fn of_scalar(s: crate::tensor::Scalar) -> Self {
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
    fn of_scalar(s: crate::tensor::Scalar) -> Self {
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
    fn of_scalar(s: crate::tensor::Scalar) -> Self {
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
    ($t:ty, $var:ident, $dt:expr) => {
        /// Computed in f32 and rounded once on store, as PyTorch's CPU kernels do; doubles reach
        /// half precision through float, as c10's conversions do.
        impl Element for $t {
            const DTYPE: DType = $dt;
            type M = f32;
            #[inline(always)]
            fn load(self) -> f32 {
                self.to_f32()
            }
            #[inline(always)]
            fn store(m: f32) -> Self {
                <$t>::from_f32(m)
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self.to_f64()
            }
            fn to_i64(self) -> i64 {
                f64_to_i64(self.to_f64())
            }
            fn to_bool(self) -> bool {
                self.to_f32() != 0.0
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                <$t>::from_f32(v as f32)
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                <$t>::from_f32(v as f32)
            }
            fn from_bool(v: bool) -> Self {
                <$t>::from_f32(v as i32 as f32)
            }
            buf_access!($var);
        }
    };
}
half_element!(f16, F16, DType::F16);
half_element!(bf16, BF16, DType::BF16);

/// Shared element memory and the device it is on.
#[derive(Debug)]
pub struct Storage {
    device: Device,
    data: RefCell<Buffer>,
}

impl Storage {
    pub fn new(buf: Buffer, device: Device) -> Self {
        Storage {
            device,
            data: RefCell::new(buf),
        }
    }
    pub fn device(&self) -> Device {
        self.device
    }
    pub fn dtype(&self) -> DType {
        self.data.borrow().dtype()
    }
    /// Number of elements (not bytes).
    pub fn len(&self) -> usize {
        self.data.borrow().len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn nbytes(&self) -> usize {
        let b = self.data.borrow();
        b.len() * b.dtype().size()
    }
    /// Read access. Panics only if a kernel is writing the same storage, which the ops prevent
    /// by copying aliased sources first.
    pub fn borrow(&self) -> Ref<'_, Buffer> {
        self.data.borrow()
    }
    pub fn borrow_mut(&self) -> RefMut<'_, Buffer> {
        self.data.borrow_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_to_int_casts_follow_pytorch() {
        // torch.tensor([-1.0, 300.0, nan, 1e20]).to(uint8) == [255, 44, 0, 0]
        let v = [-1.0, 300.0, f64::NAN, 1e20];
        assert_eq!(v.map(u8::from_f64), [255, 44, 0, 0]);
        assert_eq!(v.map(i8::from_f64), [-1, 44, 0, 0]);
        assert_eq!(
            [-1.0, 3e9, f64::NAN, 1e20].map(i32::from_f64),
            [-1, i32::MIN, i32::MIN, i32::MIN]
        );
        assert_eq!(
            [-1.0, 3e9, f64::NAN, 1e20].map(i64::from_f64),
            [-1, 3000000000, i64::MIN, i64::MIN]
        );
    }

    #[test]
    fn floor_div_and_rem() {
        assert_eq!(7i64.floor_div(2), 3);
        assert_eq!((-7i64).floor_div(2), -4);
        assert_eq!(7i64.rem(-2), -1);
        assert_eq!((-7i64).rem(-2), -1);
        assert_eq!(7.5f32.floor_div(2.0), 3.0);
        assert_eq!((-7.5f32).floor_div(2.0), -4.0);
        assert_eq!(7.5f32.rem(-2.0), -0.5);
        assert_eq!((-7.5f32).rem(-2.0), -1.5);
    }

    #[test]
    fn huge_alloc_is_an_error() {
        let e = Buffer::zeros(DType::F32, 1 << 40).unwrap_err();
        assert!(
            e.msg.contains("you tried to allocate 4398046511104 bytes"),
            "{}",
            e.msg
        );
    }
}

//! Host element memory. A `Buffer` is a vector typed by dtype (`with_buffer!`/`with_dtype!`
//! bind its element type); `zeroed_vec`/`output_vec` make the vectors kernels write into, failing
//! with PyTorch's allocator message (instead of aborting) when the memory cannot be had, and
//! recycling large freed buffers for the next output of the same size.
use super::error::{runtime, Result};
use super::DType;
use half::{bf16, f16};

pub use super::element::{f64_to_i64, Arith, Element};

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
        use $crate::core::buffer::Buffer as B_;
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
        use $crate::core::DType as D_;
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
/// allocator's zeroed memory (calloc: fresh pages for large sizes, marked for huge pages by
/// `host_alloc`) is used directly.
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
        Ok(Vec::from_raw_parts(p, n, n))
    }
}

/// Large buffers freed recently on this thread, kept for the next output of the same dtype and
/// length. A loop of `z = x + y` on big tensors otherwise spends most of its time having the
/// kernel fault in and zero fresh pages (PyTorch's CUDA caching allocator exists for the same
/// reason); a few slots (below) bound the memory this holds. From 16 KiB: below 128 KiB malloc hands the
/// same block back but calloc clears it, on the caller's core, so a helper thread writing its
/// half of the output first had to pull those lines over from the caller's cache: `exp` of 1e4
/// floats took 7.2 µs on two threads against 3.5 on one, and 2.6 with the recycled buffer.
pub(crate) mod pool {
    use super::{Buffer, Element};
    use std::cell::RefCell;

    pub const MIN_BYTES: usize = 16 << 10;
    /// Buffers below this are "small": two large and four small ones are kept, each kind
    /// evicting only its own, so the small temporaries of an op (a row of maxima, a mask) never
    /// push out the big ones it will need again (logsumexp over 1e6 floats lost both of its
    /// big scratch buffers so: 420 -> 750 µs).
    const SMALL_BYTES: usize = 128 << 10;
    const SLOTS: usize = 2;
    const SMALL_SLOTS: usize = 4;

    thread_local! {
        static FREE: RefCell<Vec<Buffer>> = const { RefCell::new(Vec::new()) };
    }

    fn bytes(b: &Buffer) -> usize {
        b.len() * b.dtype().size()
    }

    /// Buffers beyond this are returned to the system at once (a freed giant tensor must not
    /// stay resident).
    const MAX_BYTES: usize = 256 << 20;

    pub fn recycle(b: Buffer) {
        if !(MIN_BYTES..=MAX_BYTES).contains(&bytes(&b)) {
            return;
        }
        let small = |b: &Buffer| bytes(b) < SMALL_BYTES;
        let kind = small(&b);
        let slots = if kind { SMALL_SLOTS } else { SLOTS };
        // during thread teardown the pool may be gone: then the buffer is simply freed
        let _ = FREE.try_with(|f| {
            let mut f = f.borrow_mut();
            f.push(b);
            if f.iter().filter(|b| small(b) == kind).count() > slots {
                if let Some(oldest) = f.iter().position(|b| small(b) == kind) {
                    f.remove(oldest);
                }
            }
        });
    }

    pub fn take<T: Element>(n: usize) -> Option<Vec<T>> {
        FREE.try_with(|f| {
            let mut f = f.borrow_mut();
            let i = f
                .iter()
                .position(|b| b.dtype() == T::DTYPE && b.len() == n)?;
            T::unwrap_vec(f.swap_remove(i))
        })
        .ok()
        .flatten()
    }
}

/// A vector of `n` elements for an output the kernel overwrites completely: a recycled large
/// buffer of the same shape when there is one (its old contents are garbage), else fresh zeros.
pub fn output_vec<T: Element>(n: usize) -> Result<Vec<T>> {
    if n.saturating_mul(std::mem::size_of::<T>()) >= pool::MIN_BYTES {
        if let Some(v) = pool::take::<T>(n) {
            return Ok(v);
        }
    }
    zeroed_vec(n)
}

/// Check the size of an output before `collect`ing into it.
pub fn check_alloc(n: usize, dtype: DType) -> Result<()> {
    match n.checked_mul(dtype.size()) {
        Some(b) if b <= alloc_limit() => Ok(()),
        Some(b) => oom(b),
        None => oom(usize::MAX),
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

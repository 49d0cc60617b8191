//! The global allocator: the system's, except that blocks of 4 KiB and more start on a 64-byte
//! boundary (one cache line, one AVX-512 vector). Tensor buffers are plain `Vec`s, and glibc's
//! malloc starts large blocks 16 bytes into a page, so every 64-byte load and store of a kernel
//! straddled two cache lines; PyTorch's CPU allocator aligns to 64 for the same reason.
//!
//! A large block is over-allocated by 64 bytes through malloc/calloc and the pointer to the
//! raw block is kept just below the aligned one (calloc, not an aligned allocation, so that
//! large zeroed buffers still come as untouched zero pages instead of being cleared by hand).
use std::alloc::{GlobalAlloc, Layout, System};

pub struct Aligned64;

const BIG: usize = 4096;
const ALIGN: usize = 64;

unsafe extern "C" {
    fn malloc(size: usize) -> *mut u8;
    fn calloc(n: usize, size: usize) -> *mut u8;
    fn free(p: *mut u8);
}

/// Whether this allocator places the block itself (else `System` does, with `l` as it is).
fn ours(l: Layout) -> bool {
    l.size() >= BIG && l.align() <= 16
}

/// A block of `size` bytes at a 64-byte boundary, the raw block's address stored below it.
///
/// # Safety
/// As `GlobalAlloc::alloc`; the result must be released with `release`.
unsafe fn place(size: usize, zeroed: bool) -> *mut u8 {
    let Some(total) = size.checked_add(ALIGN) else {
        return std::ptr::null_mut();
    };
    // SAFETY: plain C allocation calls; a null result is passed on as the failure it is.
    let raw = unsafe {
        if zeroed {
            calloc(total, 1)
        } else {
            malloc(total)
        }
    };
    if raw.is_null() {
        return raw;
    }
    // malloc's blocks are 16-aligned, so the aligned start is 16 to 64 bytes in: room for the
    // raw address below it, and `size` bytes after it within `total`.
    let p = (raw as usize + ALIGN) & !(ALIGN - 1);
    // SAFETY: `p - 8 >= raw + 8` lies inside the block and is 8-aligned.
    unsafe { *(p as *mut usize).sub(1) = raw as usize };
    p as *mut u8
}

/// Frees a block made by `place`.
///
/// # Safety
/// `p` came from `place` and is released once.
unsafe fn release(p: *mut u8) {
    // SAFETY: `place` stored the raw block's address just below `p`.
    unsafe { free(*(p as *const usize).sub(1) as *mut u8) }
}

// SAFETY: every block is at least `layout.size()` bytes aligned to at least `layout.align()`;
// each layout is routed by `ours` the same way when it is allocated and when it is released.
unsafe impl GlobalAlloc for Aligned64 {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY (all below): the caller upholds `GlobalAlloc`'s contract, passed on as it is.
        if ours(layout) {
            unsafe { place(layout.size(), false) }
        } else {
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if ours(layout) {
            unsafe { place(layout.size(), true) }
        } else {
            unsafe { System.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        if ours(layout) {
            unsafe { release(p) }
        } else {
            unsafe { System.dealloc(p, layout) }
        }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `GlobalAlloc::realloc` requires `new_size` to be a valid size for the align.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if !ours(layout) && !ours(new) {
            return unsafe { System.realloc(p, layout, new_size) };
        }
        let q = unsafe { self.alloc(new) };
        if !q.is_null() {
            unsafe {
                std::ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                self.dealloc(p, layout);
            }
        }
        q
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn large_blocks_start_on_a_cache_line() {
        for n in [1024usize, 4096, 1 << 20, 3_000_001] {
            let v = vec![1f32; n];
            assert_eq!(v.as_ptr() as usize % 64, 0, "{n}");
            // Grown by realloc from a small block to `4 n` bytes, which is at least `BIG`.
            let mut w: Vec<u8> = Vec::with_capacity(10);
            w.extend(std::iter::repeat_n(7u8, 4 * n));
            assert_eq!(w.as_ptr() as usize % 64, 0, "{n}");
            assert!(w.iter().all(|&b| b == 7));
            let z = crate::core::buffer::zeroed_vec::<f64>(n).unwrap();
            assert_eq!(z.as_ptr() as usize % 64, 0);
            assert!(z.iter().all(|&x| x == 0.0));
        }
    }
}

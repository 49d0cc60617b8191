//! The global allocator: the system's, except that blocks of 4 KiB and more start on a 64-byte
//! boundary (one cache line, one AVX-512 vector). Tensor buffers are plain `Vec`s, and glibc's
//! malloc starts large blocks 16 bytes into a page, so every 64-byte load and store of a kernel
//! straddled two cache lines; PyTorch's CPU allocator aligns to 64 for the same reason.
//!
//! A large block is over-allocated by 64 bytes through malloc/calloc and the pointer to the
//! raw block is kept just below the aligned one (calloc, not an aligned allocation, so that
//! large zeroed buffers still come as untouched zero pages instead of being cleared by hand).
//!
//! Blocks of 2 MiB and more are also marked for transparent huge pages (where the system
//! leaves them to `madvise`, as Debian does). Streaming a 40 MB tensor through 4 KiB pages
//! costs a TLB miss every 1,024 floats, which under a virtual machine's nested paging made
//! `sum` of 1e7 floats 1.5-2x slower (804-1,000 µs against 480-640 with huge pages); the first
//! touch of a fresh buffer also faults once per 2 MiB instead of once per 4 KiB.
use std::alloc::{GlobalAlloc, Layout, System};

pub struct Aligned64;

const BIG: usize = 4096;
const ALIGN: usize = 64;
/// The size of a transparent huge page, and the smallest block worth marking for them.
const HUGE: usize = 2 << 20;

unsafe extern "C" {
    fn malloc(size: usize) -> *mut u8;
    fn calloc(n: usize, size: usize) -> *mut u8;
    fn realloc(p: *mut u8, size: usize) -> *mut u8;
    fn free(p: *mut u8);
}

/// Keeps freed heap memory for reuse instead of handing it back to the system at once. glibc
/// returns the top of its heap as soon as 128 KiB there is free, so a program that builds and
/// drops a big list or dict in a loop (200,000 strings, a 500,000-key dict) faulted all its
/// pages in again on every round: `strbuild` ran 14% and `dicts` 8% slower for it. Up to
/// 64 MiB of free heap is kept; blocks from 32 MiB up (large tensors) are still mapped and
/// unmapped on their own, the largest threshold glibc itself would adapt its default to.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the C allocator's parameters, called before any thread
    // starts; a refused value leaves the default in place, which is all a failure means.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
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
    advise_huge(raw, total);
    // malloc's blocks are 16-aligned, so the aligned start is 16 to 64 bytes in: room for the
    // raw address below it, and `size` bytes after it within `total`.
    let p = (raw as usize + ALIGN) & !(ALIGN - 1);
    // SAFETY: `p - 8 >= raw + 8` lies inside the block and is 8-aligned.
    unsafe { *(p as *mut usize).sub(1) = raw as usize };
    p as *mut u8
}

/// Asks for huge pages over the whole 2 MiB pages inside a large block (the block's own
/// memory: pages it shares with other blocks at its ends are left alone).
fn advise_huge(raw: *mut u8, total: usize) {
    let start = (raw as usize).next_multiple_of(HUGE);
    let end = (raw as usize + total) & !(HUGE - 1);
    if total >= HUGE && end > start {
        // SAFETY: the range lies inside a block this allocator owns; MADV_HUGEPAGE only
        // changes how its pages are backed, never their contents. A failure (a kernel without
        // THP) leaves ordinary pages, so the result is ignored.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// Resizes a block made by `place` to `new_size` bytes keeping its first `keep` bytes, through
/// C realloc so that a large block grows in place or by mremap (copying into fresh pages made
/// growing a big list or dict several times slower). The data moves only when the new raw
/// block sits at another offset from a 64-byte boundary than the old one.
///
/// # Safety
/// `p` came from `place`; `keep` is at most both the old and the new size.
unsafe fn regrow(p: *mut u8, keep: usize, new_size: usize) -> *mut u8 {
    let Some(total) = new_size.checked_add(ALIGN) else {
        return std::ptr::null_mut();
    };
    // SAFETY: `place` stored the raw block's address just below `p`; on failure realloc
    // leaves the old block as it was, which is what a null result promises.
    unsafe {
        let raw = *(p as *const usize).sub(1) as *mut u8;
        let off = p as usize - raw as usize;
        let raw2 = realloc(raw, total);
        if raw2.is_null() {
            return raw2;
        }
        advise_huge(raw2, total);
        let p2 = (raw2 as usize + ALIGN) & !(ALIGN - 1);
        if p2 - raw2 as usize != off {
            // Both ranges lie within `total` bytes (offsets are at most 64, `keep <= new_size`).
            std::ptr::copy(raw2.add(off), p2 as *mut u8, keep);
        }
        *(p2 as *mut usize).sub(1) = raw2 as usize;
        p2 as *mut u8
    }
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
        match (ours(layout), ours(new)) {
            (false, false) => return unsafe { System.realloc(p, layout, new_size) },
            (true, true) => return unsafe { regrow(p, layout.size().min(new_size), new_size) },
            _ => {}
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
            // Shrunk and grown again in place: contents kept, still aligned.
            w.truncate(n);
            w.shrink_to_fit();
            w.extend(std::iter::repeat_n(7u8, 8 * n));
            assert_eq!(w.as_ptr() as usize % 64, 0, "{n}");
            assert!(w.len() == 9 * n && w.iter().all(|&b| b == 7));
            let z = crate::core::buffer::zeroed_vec::<f64>(n).unwrap();
            assert_eq!(z.as_ptr() as usize % 64, 0);
            assert!(z.iter().all(|&x| x == 0.0));
        }
    }

    #[test]
    fn regrown_blocks_keep_their_contents() {
        // Growing while other blocks come and go makes realloc move blocks to raw addresses
        // at other offsets from a cache line, which takes the moving path of `regrow`.
        let mut v: Vec<u32> = Vec::with_capacity(1024);
        let mut others = Vec::new();
        for i in 0..20_000u32 {
            v.push(i.wrapping_mul(2_654_435_761));
            if i % 97 == 0 {
                others.push(vec![0u8; 4096 + (i as usize % 1000) * 16]);
            }
            if v.len() == v.capacity() {
                v.reserve_exact(100);
            }
        }
        assert_eq!(v.as_ptr() as usize % 64, 0);
        assert!(v
            .iter()
            .enumerate()
            .all(|(i, &x)| x == (i as u32).wrapping_mul(2_654_435_761)));
        assert!(others
            .iter()
            .all(|o| (o.as_ptr() as usize).is_multiple_of(64)));
    }
}

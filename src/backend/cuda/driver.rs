//! What the CUDA backend asks of a device: copies between host and device memory, a memset, and
//! (on a real card) the compiled kernels and cuBLAS. Two drivers:
//! - `CudaDriver`: a real card through cudarc, on the default stream (so every copy and launch is
//!   ordered, as PyTorch's default stream orders them).
//! - `HostDriver`: a test double whose "device memory" is host memory from `HostMemory`, with no
//!   kernels (every op takes the backend's host route) or with the kernels' CPU emulation
//!   (`emulator.rs`). `cargo test` runs the backend's device-resident plumbing and launches
//!   through it without a GPU; it also checks that every copy stays inside a live segment.
use super::launch::Kernels;
use crate::backend::alloc::RawAllocator;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

pub trait Driver: Send + Sync {
    fn htod(&self, dst: u64, src: &[u8]) -> Result<(), String>;
    fn dtoh(&self, src: u64, dst: &mut [u8]) -> Result<(), String>;
    fn dtod(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String>;
    fn memset0(&self, dst: u64, bytes: usize) -> Result<(), String>;
    /// The compiled kernels and cuBLAS; `None` sends every op through the host route.
    fn kernels(&self) -> Option<&Kernels>;
    /// Wait for all queued work (`torch.cuda.synchronize()`).
    fn synchronize(&self) -> Result<(), String>;
    /// Page-lock host memory (`pin_memory()`) so copies from it run at full DMA speed.
    fn page_lock(&self, _ptr: *mut u8, _bytes: usize) -> bool {
        false
    }
    /// Undo `page_lock` (before the memory is freed).
    fn page_unlock(&self, _ptr: *mut u8) {}
}

/// A real card.
pub struct CudaDriver {
    ctx: Arc<cudarc::driver::CudaContext>,
    kernels: Option<Kernels>,
}

impl CudaDriver {
    /// Device `i`'s context and kernels. A kernel build failure leaves the driver usable (every op
    /// then takes the host route) and is reported once on stderr.
    pub fn new(i: u32) -> Result<CudaDriver, String> {
        let ctx = cudarc::driver::CudaContext::new(i as usize).map_err(|e| format!("{e:?}"))?;
        let kernels = match Kernels::load(i, &ctx) {
            Ok(k) => Some(k),
            Err(e) => {
                eprintln!(
                    "cudalearn: {e}; tensor ops on cuda:{i} will run on the CPU and be copied over"
                );
                None
            }
        };
        Ok(CudaDriver { ctx, kernels })
    }

    fn bind(&self) -> Result<(), String> {
        self.ctx.bind_to_thread().map_err(|e| format!("{e:?}"))
    }
}

fn cuda_err(e: cudarc::driver::DriverError) -> String {
    format!("CUDA error: {e:?}")
}

impl Driver for CudaDriver {
    fn htod(&self, dst: u64, src: &[u8]) -> Result<(), String> {
        self.bind()?;
        // SAFETY: `dst` is a live block of at least `src.len()` bytes (the backend only copies
        // within a storage's block); the context is current.
        unsafe { cudarc::driver::result::memcpy_htod_sync(dst, src) }.map_err(cuda_err)
    }
    fn dtoh(&self, src: u64, dst: &mut [u8]) -> Result<(), String> {
        self.bind()?;
        // SAFETY: as in `htod`, in the other direction.
        unsafe { cudarc::driver::result::memcpy_dtoh_sync(dst, src) }.map_err(cuda_err)
    }
    fn dtod(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String> {
        self.bind()?;
        // SAFETY: both ranges lie in live blocks of this device.
        unsafe { cudarc::driver::result::memcpy_dtod_sync(dst, src, bytes) }.map_err(cuda_err)
    }
    fn memset0(&self, dst: u64, bytes: usize) -> Result<(), String> {
        self.bind()?;
        // SAFETY: the range lies in a live block of this device.
        unsafe { cudarc::driver::result::memset_d8_sync(dst, 0, bytes) }.map_err(cuda_err)
    }
    fn kernels(&self) -> Option<&Kernels> {
        self.kernels.as_ref()
    }
    fn synchronize(&self) -> Result<(), String> {
        self.ctx.synchronize().map_err(cuda_err)
    }
    fn page_lock(&self, ptr: *mut u8, bytes: usize) -> bool {
        use cudarc::driver::sys;
        // SAFETY: `ptr..ptr+bytes` is a live host allocation that stays put until `page_unlock`
        // (a storage's buffer never moves); the context is current.
        self.bind().is_ok()
            && unsafe { sys::cuMemHostRegister_v2(ptr as *mut std::ffi::c_void, bytes, 0) }
                == sys::CUresult::CUDA_SUCCESS
    }
    fn page_unlock(&self, ptr: *mut u8) {
        if self.bind().is_ok() {
            // SAFETY: `ptr` was registered by `page_lock` and is still allocated.
            unsafe { cudarc::driver::sys::cuMemHostUnregister(ptr as *mut std::ffi::c_void) };
        }
    }
}

/// Live host segments of the host-backed test device: start → length.
type Segments = Arc<Mutex<BTreeMap<u64, u64>>>;

/// The test double's memory: real host allocations, so device addresses are host addresses.
pub struct HostMemory {
    segments: Segments,
    capacity: u64,
    used: u64,
}

impl HostMemory {
    /// The memory and its driver; with `kernels` (the CPU emulation) ops launch kernels on it.
    pub fn new(capacity: u64, kernels: Option<Kernels>) -> (HostMemory, HostDriver) {
        let segments = Segments::default();
        let mem = HostMemory {
            segments: segments.clone(),
            capacity,
            used: 0,
        };
        (mem, HostDriver { segments, kernels })
    }
}

fn host_layout(size: u64) -> Option<std::alloc::Layout> {
    std::alloc::Layout::from_size_align(size as usize, 512).ok()
}

impl RawAllocator for HostMemory {
    fn malloc(&mut self, size: u64) -> Option<u64> {
        if self.used + size > self.capacity {
            return None;
        }
        let layout = host_layout(size)?;
        // SAFETY: the caching allocator never asks for zero bytes; freed in `free` with the
        // same layout.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        if p.is_null() {
            return None;
        }
        self.used += size;
        let mut g = self.segments.lock().unwrap_or_else(|e| e.into_inner());
        g.insert(p as u64, size);
        Some(p as u64)
    }
    fn free(&mut self, ptr: u64, size: u64) {
        let mut g = self.segments.lock().unwrap_or_else(|e| e.into_inner());
        if g.remove(&ptr).is_some() {
            self.used -= size;
            if let Some(layout) = host_layout(size) {
                // SAFETY: `ptr` came from `malloc` with this size and is freed once.
                unsafe { std::alloc::dealloc(ptr as *mut u8, layout) };
            }
        }
    }
    fn mem_info(&self) -> (u64, u64) {
        (self.capacity - self.used, self.capacity)
    }
}

/// The test double's copies: `memcpy` between host addresses, each range checked first.
pub struct HostDriver {
    segments: Segments,
    kernels: Option<Kernels>,
}

impl HostDriver {
    fn check(&self, ptr: u64, bytes: usize) -> Result<(), String> {
        let g = self.segments.lock().unwrap_or_else(|e| e.into_inner());
        match g.range(..=ptr).next_back() {
            Some((&start, &len)) if ptr + bytes as u64 <= start + len => Ok(()),
            _ => Err(format!(
                "cudalearn internal error: device access of {bytes} bytes at {ptr:#x} is outside every live segment"
            )),
        }
    }
}

impl Driver for HostDriver {
    fn htod(&self, dst: u64, src: &[u8]) -> Result<(), String> {
        self.check(dst, src.len())?;
        // SAFETY: `dst..dst+len` lies in a live segment (checked); the source is a host slice.
        unsafe { std::ptr::copy(src.as_ptr(), dst as *mut u8, src.len()) };
        Ok(())
    }
    fn dtoh(&self, src: u64, dst: &mut [u8]) -> Result<(), String> {
        self.check(src, dst.len())?;
        // SAFETY: as in `htod`.
        unsafe { std::ptr::copy(src as *const u8, dst.as_mut_ptr(), dst.len()) };
        Ok(())
    }
    fn dtod(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String> {
        self.check(dst, bytes)?;
        self.check(src, bytes)?;
        // SAFETY: both ranges lie in live segments (checked); `copy` allows overlap.
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, bytes) };
        Ok(())
    }
    fn memset0(&self, dst: u64, bytes: usize) -> Result<(), String> {
        self.check(dst, bytes)?;
        // SAFETY: the range lies in a live segment (checked).
        unsafe { std::ptr::write_bytes(dst as *mut u8, 0, bytes) };
        Ok(())
    }
    fn kernels(&self) -> Option<&Kernels> {
        self.kernels.as_ref()
    }
    fn synchronize(&self) -> Result<(), String> {
        Ok(())
    }
}

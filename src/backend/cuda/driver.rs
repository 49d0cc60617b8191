//! What the CUDA backend asks of a device: copies between host and device memory, a memset, and
//! (on a real card) the compiled kernels and cuBLAS. Two drivers:
//! - `CudaDriver`: a real card through cudarc, on the default stream (so every copy and launch is
//!   ordered, as PyTorch's default stream orders them). Every call first makes the card's context
//!   current: with two GPUs the thread's current context is whichever was used last.
//! - `HostDriver`: a test double whose "device memory" is host memory from `HostMemory` and which
//!   has no kernels (every op takes the backend's host route); it checks that every copy stays
//!   inside a live segment. (The real driver path is tested through `tests/vgpu/`, a virtual
//!   NVIDIA driver.)
use super::blas::Gemm;
use super::launch::Kernels;
use crate::backend::alloc::{RawAllocator, RawError};
use cudarc::driver::{CudaContext, DriverError};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// What `page_lock` achieved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageLock {
    /// Registered by this call (to be unregistered when the buffer is freed).
    Locked,
    /// Already page-locked by someone else: pinned, but not ours to unregister.
    AlreadyLocked,
    /// Not pinned (no real card, or the driver refused, e.g. the memlock limit).
    Failed,
}

pub trait Driver: Send + Sync {
    fn htod(&self, dst: u64, src: &[u8]) -> Result<(), String>;
    fn dtoh(&self, src: u64, dst: &mut [u8]) -> Result<(), String>;
    fn dtod(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String>;
    fn memset0(&self, dst: u64, bytes: usize) -> Result<(), String>;
    /// The compiled kernels; `None` sends every op without cuBLAS through the host route.
    fn kernels(&self) -> Option<&Kernels>;
    /// Whether matrix products can run on cuBLAS (independent of the kernels).
    fn has_blas(&self) -> bool {
        false
    }
    /// One `cublasGemmStridedBatchedEx` (only called when `has_blas`).
    fn gemm(&self, _g: &Gemm) -> Result<(), String> {
        Err("cudalearn internal error: no cuBLAS on this device".into())
    }
    /// Wait for all queued work (`torch.cuda.synchronize()`).
    fn synchronize(&self) -> Result<(), String>;
    /// Page-lock host memory (`pin_memory()`) so copies from it run at full DMA speed.
    fn page_lock(&self, _ptr: *mut u8, _bytes: usize) -> PageLock {
        PageLock::Failed
    }
    /// Undo a `PageLock::Locked` (before the memory is freed).
    fn page_unlock(&self, _ptr: *mut u8) {}
}

/// A driver error as the learner should read it: the driver's own text and name.
pub fn describe(e: DriverError) -> String {
    let text = e.error_string().map(|s| s.to_string_lossy().into_owned());
    let name = e.error_name().map(|s| s.to_string_lossy().into_owned());
    match (text, name) {
        (Ok(t), Ok(n)) => format!("CUDA error: {t} ({n})"),
        _ => format!("CUDA error: {:?}", e.0),
    }
}

/// A real card.
pub struct CudaDriver {
    ctx: Arc<CudaContext>,
    kernels: Option<Kernels>,
    blas: Option<cudarc::cublas::CudaBlas>,
}

impl CudaDriver {
    /// Device `i`'s context, kernels and cuBLAS handle. Either of the last two may be missing:
    /// without kernels elementwise ops take the host route (said once on stderr), without
    /// cuBLAS so do matrix products; the card itself stays usable.
    pub fn new(i: u32) -> Result<CudaDriver, String> {
        let ctx = CudaContext::new(i as usize).map_err(describe)?;
        let kernels = match Kernels::load(i, &ctx) {
            Ok(k) => Some(k),
            Err(e) => {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| {
                    eprintln!("cudalearn: {e}; tensor ops on the GPU without a cuBLAS call will run on the CPU and be copied over")
                });
                None
            }
        };
        let blas = match super::probe().map(|p| p.cublas.is_some()) {
            Ok(true) => {
                ctx.bind_to_thread().map_err(describe)?;
                cudarc::cublas::CudaBlas::new(ctx.default_stream()).ok()
            }
            _ => None,
        };
        Ok(CudaDriver { ctx, kernels, blas })
    }

    fn bind(&self) -> Result<(), String> {
        self.ctx.bind_to_thread().map_err(describe)
    }
}

impl Driver for CudaDriver {
    fn htod(&self, dst: u64, src: &[u8]) -> Result<(), String> {
        self.bind()?;
        // SAFETY: `dst` is a live block of at least `src.len()` bytes (the backend only copies
        // within a storage's block); the context is current.
        unsafe { cudarc::driver::result::memcpy_htod_sync(dst, src) }.map_err(describe)
    }
    fn dtoh(&self, src: u64, dst: &mut [u8]) -> Result<(), String> {
        self.bind()?;
        // SAFETY: as in `htod`, in the other direction.
        unsafe { cudarc::driver::result::memcpy_dtoh_sync(dst, src) }.map_err(describe)
    }
    fn dtod(&self, dst: u64, src: u64, bytes: usize) -> Result<(), String> {
        self.bind()?;
        // SAFETY: both ranges lie in live blocks of this device.
        unsafe { cudarc::driver::result::memcpy_dtod_sync(dst, src, bytes) }.map_err(describe)
    }
    fn memset0(&self, dst: u64, bytes: usize) -> Result<(), String> {
        self.bind()?;
        // SAFETY: the range lies in a live block of this device.
        unsafe { cudarc::driver::result::memset_d8_sync(dst, 0, bytes) }.map_err(describe)
    }
    fn kernels(&self) -> Option<&Kernels> {
        self.kernels.as_ref()
    }
    fn has_blas(&self) -> bool {
        self.blas.is_some()
    }
    fn gemm(&self, g: &Gemm) -> Result<(), String> {
        let blas = self.blas.as_ref().ok_or("no cuBLAS")?;
        // the handle works in the context it was made in, which must be current
        self.bind()?;
        // SAFETY: `Gemm`'s invariants (checked where it is made): every pointer addresses a
        // live block of this device holding its operand under the (ld, batch stride) view.
        unsafe { g.run(*blas.handle()) }
    }
    fn synchronize(&self) -> Result<(), String> {
        self.ctx.synchronize().map_err(describe)
    }
    fn page_lock(&self, ptr: *mut u8, bytes: usize) -> PageLock {
        use cudarc::driver::sys;
        if self.bind().is_err() {
            return PageLock::Failed;
        }
        // PORTABLE: pinned for every context, so a copy to any GPU runs at full speed.
        // SAFETY: `ptr..ptr+bytes` is a live host allocation that stays put until `page_unlock`
        // (a storage's buffer never moves); the context is current.
        let r = unsafe {
            sys::cuMemHostRegister_v2(
                ptr as *mut std::ffi::c_void,
                bytes,
                sys::CU_MEMHOSTREGISTER_PORTABLE,
            )
        };
        match r {
            sys::CUresult::CUDA_SUCCESS => PageLock::Locked,
            sys::CUresult::CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED => PageLock::AlreadyLocked,
            _ => PageLock::Failed,
        }
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
    /// The memory and its driver.
    pub fn new(capacity: u64) -> (HostMemory, HostDriver) {
        let segments = Segments::default();
        let mem = HostMemory {
            segments: segments.clone(),
            capacity,
            used: 0,
        };
        (mem, HostDriver { segments })
    }
}

fn host_layout(size: u64) -> Option<std::alloc::Layout> {
    std::alloc::Layout::from_size_align(size as usize, 512).ok()
}

impl RawAllocator for HostMemory {
    fn malloc(&mut self, size: u64) -> Result<u64, RawError> {
        if self.used + size > self.capacity {
            return Err(RawError::OutOfMemory);
        }
        let layout = host_layout(size).ok_or(RawError::OutOfMemory)?;
        // SAFETY: the caching allocator never asks for zero bytes; freed in `free` with the
        // same layout.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        if p.is_null() {
            return Err(RawError::OutOfMemory);
        }
        self.used += size;
        let mut g = self.segments.lock().unwrap_or_else(|e| e.into_inner());
        g.insert(p as u64, size);
        Ok(p as u64)
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
        None
    }
    fn synchronize(&self) -> Result<(), String> {
        Ok(())
    }
}

//! Each card's memory and driver: cudaMalloc/cudaFree under PyTorch's caching allocator, and the
//! `Driver` the backend copies and launches through. Also the host-backed test device
//! (`install_host_device`), which stands in for a card in `cargo test`.
use super::driver::{describe, CudaDriver, Driver, HostMemory};
use crate::backend::alloc::{format_size, CachingAllocator, RawAllocator, RawError};
use crate::backend::gpu::DeviceMemory;
use cudarc::driver::{result, CudaContext};
use std::sync::{Arc, Mutex};

/// One card's raw memory: its context (made current before every driver call).
pub struct CudaMemory {
    ctx: Arc<CudaContext>,
    ordinal: u32,
}

impl RawAllocator for CudaMemory {
    fn malloc(&mut self, size: u64) -> Result<u64, RawError> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| RawError::Driver(describe(e)))?;
        // SAFETY: the context is current; a failed allocation is reported as an error.
        unsafe { result::malloc_sync(size as usize) }.map_err(|e| match e.0 {
            cudarc::driver::sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY => RawError::OutOfMemory,
            _ => RawError::Driver(describe(e)),
        })
    }
    fn free(&mut self, ptr: u64, _size: u64) {
        if self.ctx.bind_to_thread().is_ok() {
            // SAFETY: `ptr` came from malloc_sync in this context and is freed once (the caching
            // allocator releases a segment only when all of it is free).
            let _ = unsafe { result::free_sync(ptr) };
        }
    }
    fn mem_info(&self) -> (u64, u64) {
        if self.ctx.bind_to_thread().is_err() {
            return (0, 0);
        }
        result::mem_get_info()
            .map(|(f, t)| (f as u64, t as u64))
            .unwrap_or((0, 0))
    }
    fn process_info(&self) -> String {
        // PyTorch's reportProcessMemoryInfo: every process NVML lists on this GPU.
        let Some(procs) = super::nvml::processes(self.ordinal) else {
            return String::new();
        };
        let me = std::process::id();
        procs
            .iter()
            .map(|(pid, used)| {
                let who = if *pid == me {
                    "Including non-PyTorch memory, this process".to_string()
                } else {
                    format!("Process {pid}")
                };
                format!("{who} has {} memory in use. ", format_size(*used))
            })
            .collect()
    }
}

type Raw = Box<dyn RawAllocator + Send>;

/// A card's allocator once the card was first used, or why its context could not be made (that
/// card is then unusable; the others are not affected).
type Slot = Option<Result<CachingAllocator<Raw>, String>>;

static MEMORY: Mutex<Vec<Slot>> = Mutex::new(Vec::new());
static DRIVERS: Mutex<Vec<Option<Arc<dyn Driver>>>> = Mutex::new(Vec::new());

pub fn with_memory<T>(i: u32, f: impl FnOnce(&mut dyn DeviceMemory) -> T) -> Option<T> {
    let p = super::probe().ok()?;
    if i as usize >= p.devices.len() {
        return None;
    }
    let mut g = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    if g.len() < p.devices.len() {
        g.resize_with(p.devices.len(), || None);
    }
    let slot = g[i as usize].get_or_insert_with(|| {
        let ctx = CudaContext::new(i as usize).map_err(describe)?;
        let raw: Raw = Box::new(CudaMemory { ctx, ordinal: i });
        Ok(CachingAllocator::new(i, raw))
    });
    slot.as_mut().ok().map(|a| f(a))
}

/// Why card `i`'s memory cannot be used, if its context could not be made.
pub fn open_error(i: u32) -> Option<String> {
    let g = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    match g.get(i as usize) {
        Some(Some(Err(e))) => Some(format!("cuda:{i} cannot be used: {e}")),
        _ => None,
    }
}

/// Device `i`'s driver, made on first use (which compiles or loads the kernels).
pub fn driver(i: u32) -> Result<Arc<dyn Driver>, String> {
    let mut g = DRIVERS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(Some(d)) = g.get(i as usize) {
        return Ok(d.clone());
    }
    let p = super::probe().map_err(|e| e.reason())?;
    if i as usize >= p.devices.len() {
        return Err(format!("no CUDA device {i}"));
    }
    let d: Arc<dyn Driver> = Arc::new(CudaDriver::new(i)?);
    if g.len() <= i as usize {
        g.resize(i as usize + 1, None);
    }
    g[i as usize] = Some(d.clone());
    Ok(d)
}

/// Make this process see one "GPU" whose memory is host memory and which has no kernels: the
/// CUDA backend then runs every op through its host route, over device-resident storage. For
/// tests of the backend's plumbing on machines without a GPU; call before any tensor is made.
pub fn install_host_device(capacity: u64) {
    let (mem, drv) = HostMemory::new(capacity);
    super::probe::set_host_device(capacity);
    let raw: Raw = Box::new(mem);
    *MEMORY.lock().unwrap_or_else(|e| e.into_inner()) =
        vec![Some(Ok(CachingAllocator::new(0, raw)))];
    *DRIVERS.lock().unwrap_or_else(|e| e.into_inner()) = vec![Some(Arc::new(drv))];
}

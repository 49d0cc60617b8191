//! Device memory of a real card: cudaMalloc/cudaFree under PyTorch's caching allocator.
use crate::backend::alloc::{format_size, CachingAllocator, RawAllocator};
use crate::backend::gpu::DeviceMemory;
use cudarc::driver::{result, CudaContext};
use std::sync::{Arc, Mutex};

/// One card's raw memory: its context (made current before every driver call).
pub struct CudaMemory {
    ctx: Arc<CudaContext>,
    ordinal: u32,
}

impl RawAllocator for CudaMemory {
    fn malloc(&mut self, size: u64) -> Option<u64> {
        self.ctx.bind_to_thread().ok()?;
        // SAFETY: the context is current; a failed allocation is reported as an error.
        unsafe { result::malloc_sync(size as usize) }.ok()
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

static MEMORY: Mutex<Vec<CachingAllocator<CudaMemory>>> = Mutex::new(Vec::new());

/// The context of real device `i`, once the probe found it.
pub fn context(i: u32) -> Option<Arc<CudaContext>> {
    let p = super::probe().ok()?;
    if i as usize >= p.devices.len() {
        return None;
    }
    CudaContext::new(i as usize).ok()
}

pub fn with_memory<T>(i: u32, f: impl FnOnce(&mut dyn DeviceMemory) -> T) -> Option<T> {
    let p = super::probe().ok()?;
    let mut g = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_empty() {
        for d in 0..p.devices.len() as u32 {
            let ctx = CudaContext::new(d as usize).ok()?;
            g.push(CachingAllocator::new(d, CudaMemory { ctx, ordinal: d }));
        }
    }
    let a = g.get_mut(i as usize)?;
    Some(f(a))
}

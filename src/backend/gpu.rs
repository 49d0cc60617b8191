//! Which GPU this process has — none, the simulated one, or a real card — and the one door to
//! its devices for everything above the backend: device count and properties, the current
//! device, and each device's caching allocator (memory statistics, `empty_cache`, blocks owned
//! by tensor storage).
//!
//! The simulated GPU wins when it was asked for (`--sim-gpu`, `CUDALEARN_SIM_GPU`); otherwise a
//! real card found by `cuda::probe()` is used; otherwise there is no GPU and CUDA placements fail
//! with PyTorch's no-driver error.
use super::alloc::{AllocError, CachingAllocator, DeviceStats, RawAllocator};
use crate::core::error::{ErrorKind, TensorError};
use std::sync::atomic::{AtomicU32, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuKind {
    None,
    Simulated,
    Cuda,
}

/// The GPU kind of this process. The first call reads `CUDALEARN_SIM_GPU` and, without it,
/// probes for a real card (once; the probe caches its answer).
pub fn kind() -> GpuKind {
    if HIDDEN.load(Ordering::Relaxed) {
        return GpuKind::None;
    }
    if super::sim::is_enabled() {
        return GpuKind::Simulated;
    }
    if let Some(n) = super::sim::env_request() {
        super::sim::enable(n, None);
        return GpuKind::Simulated;
    }
    if super::cuda::probe().is_ok() {
        return GpuKind::Cuda;
    }
    GpuKind::None
}

static HIDDEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `--device cpu`: behave as a machine without a GPU (no simulated one, no real one).
pub fn hide_gpus(hidden: bool) {
    HIDDEN.store(hidden, Ordering::Relaxed);
}

pub fn is_available() -> bool {
    kind() != GpuKind::None
}

pub fn device_count() -> u32 {
    match kind() {
        GpuKind::None => 0,
        GpuKind::Simulated => super::sim::lock()
            .as_ref()
            .map_or(0, |s| s.devices.len() as u32),
        GpuKind::Cuda => super::cuda::probe().map_or(0, |p| p.devices.len() as u32),
    }
}

static CURRENT: AtomicU32 = AtomicU32::new(0);

/// `torch.cuda.current_device()`.
pub fn current_device() -> u32 {
    CURRENT.load(Ordering::Relaxed)
}

/// `torch.cuda.set_device(i)`.
pub fn set_current_device(i: u32) -> crate::core::Result<()> {
    check_device(i)?;
    CURRENT.store(i, Ordering::Relaxed);
    Ok(())
}

pub(crate) fn reset_current_device() {
    CURRENT.store(0, Ordering::Relaxed);
}

/// The error PyTorch 2.15 raises for a CUDA ordinal past the last device
/// (`c10_cuda_check_implementation` with `get_cuda_error_help(cudaErrorInvalidDevice)`).
pub fn invalid_ordinal(i: u32) -> TensorError {
    let n = device_count();
    TensorError::new(
        ErrorKind::Accelerator,
        "CUDA error: invalid device ordinal\nGPU device may be out of range, do you have enough GPUs?\n",
    )
    .with_hint(match n {
        1 => format!("this machine has one GPU, cuda:0; there is no cuda:{i}."),
        _ => format!("this machine has {n} GPUs, cuda:0 to cuda:{}; there is no cuda:{i}.", n - 1),
    })
}

/// The no-driver error of PyTorch (`torch.cuda._lazy_init`) when there is no GPU at all.
pub fn no_gpu() -> TensorError {
    TensorError::new(
        ErrorKind::Runtime,
        "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
    )
    .with_hint("this machine has no GPU that cudalearn can use (`cudalearn info` says why). Keep tensors on the CPU, or start cudalearn with --sim-gpu to practise on a simulated GPU.")
}

/// Device `i` exists (else PyTorch's error for it).
pub fn check_device(i: u32) -> crate::core::Result<()> {
    if !is_available() {
        return Err(no_gpu());
    }
    if i >= device_count() {
        return Err(invalid_ordinal(i));
    }
    Ok(())
}

/// What `torch.cuda.get_device_properties` reports: what the probe found for a real card,
/// or the simulated GPU's made-up values.
pub use super::cuda::DeviceInfo as DeviceProps;

impl DeviceProps {
    /// `repr(props)` as PyTorch 2.15 builds it (torch/csrc/cuda/Module.cpp).
    pub fn repr(&self) -> String {
        format!(
            "_CudaDeviceProperties(name='{}', major={}, minor={}, total_memory={}MB, multi_processor_count={}, uuid={}, pci_bus_id={}, pci_device_id={}, pci_domain_id={}, L2_cache_size={}MB)",
            self.name,
            self.major,
            self.minor,
            self.total_memory / (1024 * 1024),
            self.multi_processor_count,
            self.uuid,
            self.pci_bus_id,
            self.pci_device_id,
            self.pci_domain_id,
            self.l2_cache_size / (1024 * 1024)
        )
    }
}

pub fn properties(i: u32) -> crate::core::Result<DeviceProps> {
    check_device(i)?;
    match kind() {
        GpuKind::Cuda => super::cuda::properties(i),
        _ => {
            let cap = super::sim::lock().as_ref().map_or(0, |s| s.capacity);
            let p = super::sim_model::chosen();
            Ok(DeviceProps {
                name: super::sim::name(),
                major: p.major,
                minor: p.minor,
                total_memory: cap,
                multi_processor_count: p.sms,
                uuid: format!("00000000-0000-0000-0000-00000000000{i}"),
                pci_bus_id: i,
                pci_device_id: 0,
                pci_domain_id: 0,
                l2_cache_size: p.l2_bytes,
            })
        }
    }
}

/// One device's allocator, whatever its raw memory is.
pub trait DeviceMemory {
    fn malloc(&mut self, bytes: u64) -> Result<u64, AllocError>;
    fn free(&mut self, ptr: u64);
    fn stats(&self) -> DeviceStats;
    fn empty_cache(&mut self);
    fn set_fraction(&mut self, fraction: f64);
    fn fraction(&self) -> f64;
    fn reset_peak(&mut self);
    fn reset_accumulated(&mut self);
    /// `(free, total)` device bytes.
    fn mem_info(&self) -> (u64, u64);
    fn holds(&self, name: &str) -> bool;
    fn hold(&mut self, name: &'static str, bytes: u64) -> Result<(), AllocError>;
    fn release_held(&mut self);
}

impl<R: RawAllocator> DeviceMemory for CachingAllocator<R> {
    fn malloc(&mut self, bytes: u64) -> Result<u64, AllocError> {
        CachingAllocator::malloc(self, bytes)
    }
    fn free(&mut self, ptr: u64) {
        CachingAllocator::free(self, ptr)
    }
    fn stats(&self) -> DeviceStats {
        CachingAllocator::stats(self).clone()
    }
    fn empty_cache(&mut self) {
        self.release_cached_blocks()
    }
    fn set_fraction(&mut self, fraction: f64) {
        self.set_memory_fraction(fraction)
    }
    fn fraction(&self) -> f64 {
        self.memory_fraction()
    }
    fn reset_peak(&mut self) {
        self.reset_peak_stats()
    }
    fn reset_accumulated(&mut self) {
        self.reset_accumulated_stats()
    }
    fn mem_info(&self) -> (u64, u64) {
        self.raw().mem_info()
    }
    fn holds(&self, name: &str) -> bool {
        CachingAllocator::holds(self, name)
    }
    fn hold(&mut self, name: &'static str, bytes: u64) -> Result<(), AllocError> {
        CachingAllocator::hold(self, name, bytes)
    }
    fn release_held(&mut self) {
        CachingAllocator::release_held(self)
    }
}

/// Run `f` on device `i`'s allocator; `None` when there is no such device.
pub fn with_memory<T>(i: u32, f: impl FnOnce(&mut dyn DeviceMemory) -> T) -> Option<T> {
    match kind() {
        GpuKind::None => None,
        GpuKind::Simulated => {
            let mut g = super::sim::lock();
            let a = g.as_mut()?.devices.get_mut(i as usize)?;
            Some(f(a))
        }
        GpuKind::Cuda => super::cuda::with_memory(i, f),
    }
}

/// Device memory owned by a tensor's storage; returned to its allocator's cache on drop.
#[derive(Debug)]
pub struct GpuBlock {
    pub device: u32,
    pub ptr: u64,
    pub bytes: u64,
}

impl Drop for GpuBlock {
    fn drop(&mut self) {
        let ptr = self.ptr;
        with_memory(self.device, |m| m.free(ptr));
    }
}

/// Take `bytes` from device `i` (none for 0 bytes, as PyTorch's allocator returns no block).
/// Fails with `torch.OutOfMemoryError` as PyTorch does.
pub fn allocate(i: u32, bytes: u64) -> crate::core::Result<Option<GpuBlock>> {
    if bytes == 0 {
        check_device(i)?;
        return Ok(None);
    }
    match with_memory(i, |m| m.malloc(bytes)) {
        Some(Ok(ptr)) => Ok(Some(GpuBlock {
            device: i,
            ptr,
            bytes,
        })),
        Some(Err(e)) => Err(alloc_error(e)),
        None => {
            check_device(i)?;
            if let Some(e) = super::cuda::memory::open_error(i) {
                return Err(super::cuda::host_route::gpu_err(e));
            }
            Err(invalid_ordinal(i))
        }
    }
}

/// An allocator failure as the learner sees it: only CUDA_ERROR_OUT_OF_MEMORY is PyTorch's
/// out-of-memory error.
fn alloc_error(e: AllocError) -> TensorError {
    match e {
        AllocError::Driver(e) => super::cuda::host_route::gpu_err(e),
        AllocError::OutOfMemory(message) => TensorError::new(ErrorKind::OutOfMemory, message).with_hint(
            "the GPU's memory (or the share set_per_process_memory_fraction allows) is used up. Free tensors you no longer need (del x), use smaller batches or float16, then torch.cuda.empty_cache() returns cached blocks.",
        ),
    }
}

/// The workspaces PyTorch's first cuBLAS call on a device takes from the caching allocator and
/// keeps: cuBLAS's (`CUBLAS_WORKSPACE_CONFIG`'s default: 32 MiB on compute capability 9 to 12,
/// `:4096:2:16:8` = 8 MiB + 128 KiB before), and with `lt` (addmm with a bias, which runs on
/// cuBLASLt) also cuBLASLt's 1 MiB. They show in `memory_allocated()` after the first matrix
/// product, on a real card and on the simulated one alike.
pub fn blas_workspaces(i: u32, lt: bool) -> crate::core::Result<()> {
    let done = with_memory(i, |m| m.holds("cublas") && (!lt || m.holds("cublaslt")));
    if done != Some(false) {
        return Ok(());
    }
    let major = properties(i)?.major;
    let bytes = if (9..=12).contains(&major) {
        32 << 20
    } else {
        (4096 << 10) * 2 + (16 << 10) * 8
    };
    with_memory(i, |m| {
        m.hold("cublas", bytes)?;
        if lt {
            m.hold("cublaslt", 1 << 20)?;
        }
        Ok(())
    })
    .unwrap_or(Ok(()))
    .map_err(alloc_error)
}

/// Frees device `i`'s workspaces (`torch._C._cuda_clearCublasWorkspaces()`): for tests that
/// share one device across programs the way separate processes would not.
pub fn release_blas_workspaces(i: u32) {
    with_memory(i, |m| m.release_held());
}

/// `torch.cuda.synchronize(i)`: wait for the work queued on a real card, or, on the simulated
/// GPU (whose arithmetic is done when an op returns), for its modelled device clock.
pub fn synchronize(i: u32) -> crate::core::Result<()> {
    check_device(i)?;
    match kind() {
        GpuKind::Cuda => {
            let d = super::cuda::memory::driver(i).map_err(super::cuda::host_route::gpu_err)?;
            d.synchronize().map_err(super::cuda::host_route::gpu_err)?;
        }
        GpuKind::Simulated => {
            super::sim_model::with(|t| t.synchronize("cudaDeviceSynchronize", i));
        }
        GpuKind::None => {}
    }
    Ok(())
}

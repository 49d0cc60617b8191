//! The real CUDA backend (cudarc, loaded at run time; always compiled, never required).
//!
//! - `probe` is the only door to cudarc: it checks every library before the first call.
//! - `memory`: device memory through the caching allocator (`alloc.rs`) over cudaMalloc.
//! - `nvml`: the `nvidia-smi` numbers, from libnvidia-ml opened at run time.
//! - `backend`: the `Backend` over device memory: `kernels/*.cu` (`kernels`, `codes`,
//!   `launch`), cuBLAS (`blas`), and the host route for the rest (`host_route`), through a
//!   `driver` (a real card, or the host-backed test device). `tests/vgpu/` is a virtual NVIDIA
//!   driver under which the real-card path runs in `cargo test`.
pub mod backend;
pub mod blas;
pub mod codes;
pub mod driver;
pub mod host_route;
pub mod kernels;
pub mod launch;
pub mod launchers;
pub mod memory;
pub mod nvml;
pub mod optim;
pub mod probe;

pub use memory::install_host_device;

pub use probe::{probe, DeviceInfo, Probe, ProbeError};

use super::gpu::{DeviceMemory, DeviceProps};

/// `torch.cuda.get_device_properties(i)` of a real card.
pub fn properties(i: u32) -> crate::core::Result<DeviceProps> {
    let p = match probe() {
        Ok(p) => p,
        Err(_) => return Err(super::gpu::no_gpu()),
    };
    let Some(d) = p.devices.get(i as usize) else {
        return Err(super::gpu::invalid_ordinal(i));
    };
    Ok(d.clone())
}

/// Run `f` on real device `i`'s caching allocator (`None` without a GPU or for a bad ordinal).
pub fn with_memory<T>(i: u32, f: impl FnOnce(&mut dyn DeviceMemory) -> T) -> Option<T> {
    memory::with_memory(i, f)
}

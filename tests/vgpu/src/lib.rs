//! vgpu: a virtual NVIDIA driver, so cudalearn's real CUDA path (`CudaDriver` through cudarc's
//! dynamic loading) runs in `cargo test` on machines without a GPU. One shared library exports
//! the C symbols cudalearn reaches — the `cu*` driver API, cuBLAS's strided batched GEMM, NVML
//! and NVRTC, and NCCL across processes (`nccl.rs`) — and `run` links it under each library name
//! cudarc, NVML and cudalearn's NCCL loader open.
//!
//! - Device memory is host memory (`mmap`), range-checked on every copy; a freed block is made
//!   inaccessible, so a kernel that uses it faults instead of reading stale data.
//! - NVRTC "compiles" by building the program for the CPU with the system C++ compiler
//!   (`nvrtc.rs`, `shim.cpp`); `cuLaunchKernel` runs that build over the launch's grid, with
//!   real barriers (`launch.cpp`). cuBLAS's GEMM is a plain reference GEMM (`blas.rs`).
//! - It enforces what a real driver enforces (`state.rs`): initialisation, a current context on
//!   every call, balanced primary-context retain/release (the last release destroys the context
//!   and everything in it), launch limits, module/context ownership, no overlapping host
//!   registration, PTX versions the driver understands, cubins for the device's architecture.
//!   Each violation is returned as the real error code *and* written to `VGPU_LOG`, so a test
//!   can see a rule broken even where cudalearn recovers from the error.
//! - Configured by the environment (see `Config`): devices, memory, driver and NVRTC versions,
//!   the architecture; `VGPU_NVRTC_FAIL` makes every compilation fail with a compiler-style log. Its devices are named as virtual test devices, never as real cards.
#![allow(clippy::missing_safety_doc)] // the exported functions are NVIDIA's documented C API

mod blas;
mod driver;
mod nccl;
mod nvml;
mod nvrtc;
mod state;

use std::sync::OnceLock;

/// The virtual machine's settings, read once from the environment.
pub(crate) struct Config {
    /// `VGPU_DEVICES`: how many GPUs (default 1).
    pub devices: usize,
    /// `VGPU_MEMORY`: each GPU's memory, e.g. `16G`, `512M` (default 16 GiB).
    pub memory: u64,
    /// `VGPU_DRIVER`: the CUDA version the driver supports, e.g. `12.4` → 12040 (default 13.0).
    pub driver: i32,
    /// `VGPU_NVRTC`: the virtual NVRTC's version (default 13.0).
    pub nvrtc: (i32, i32),
    /// `VGPU_SM`: the devices' compute capability, e.g. `90` (default 90, an H100).
    pub sm: (i32, i32),
    /// `VGPU_FAIL_HOST_REGISTER`: page-locking fails (as when the memlock limit is reached).
    pub fail_host_register: bool,
    /// `VGPU_FAIL_MALLOC`: `cuMemAlloc` fails with `CUDA_ERROR_UNKNOWN` (a driver fault that
    /// is not an out-of-memory).
    pub fail_malloc: bool,
    /// `VGPU_BROKEN_DEVICE`: this device's context cannot be made (`CUDA_ERROR_UNKNOWN`).
    pub broken_device: Option<usize>,
}

pub(crate) fn config() -> &'static Config {
    static C: OnceLock<Config> = OnceLock::new();
    C.get_or_init(|| {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let version = |k: &str, d: (i32, i32)| {
            var(k)
                .and_then(|v| {
                    let (a, b) = v.split_once('.').unwrap_or((&v, "0"));
                    Some((a.parse().ok()?, b.parse().ok()?))
                })
                .unwrap_or(d)
        };
        let driver = version("VGPU_DRIVER", (13, 0));
        let sm = var("VGPU_SM")
            .and_then(|v| v.parse::<i32>().ok())
            .unwrap_or(90);
        Config {
            devices: var("VGPU_DEVICES")
                .and_then(|v| v.parse().ok())
                .unwrap_or(1),
            memory: var("VGPU_MEMORY")
                .and_then(|v| parse_size(&v))
                .unwrap_or(16 << 30),
            driver: driver.0 * 1000 + driver.1 * 10,
            nvrtc: version("VGPU_NVRTC", (13, 0)),
            sm: (sm / 10, sm % 10),
            fail_host_register: var("VGPU_FAIL_HOST_REGISTER").is_some(),
            fail_malloc: var("VGPU_FAIL_MALLOC").is_some(),
            broken_device: var("VGPU_BROKEN_DEVICE").and_then(|v| v.parse().ok()),
        }
    })
}

/// `16G`, `512M`, `4096K` or plain bytes.
fn parse_size(s: &str) -> Option<u64> {
    let (num, mult) = match s.as_bytes().last()? {
        b'G' | b'g' => (&s[..s.len() - 1], 1u64 << 30),
        b'M' | b'm' => (&s[..s.len() - 1], 1 << 20),
        b'K' | b'k' => (&s[..s.len() - 1], 1 << 10),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

/// The highest PTX ISA version a CUDA release understands (its NVRTC writes this version; its
/// driver loads PTX up to it): 12.0 → 8.0 … 12.4 → 8.4, 12.8 → 8.7, 13.0 → 9.0, 13.2 → 9.2.
pub(crate) fn ptx_isa(cuda: (i32, i32)) -> (i32, i32) {
    match cuda {
        (12, m) if m <= 5 => (8, m),
        (12, 6) | (12, 7) => (8, 5),
        (12, 8) => (8, 7),
        (12, m) if m >= 9 => (8, 8),
        (13, m) => (9, m),
        (11, m) => (7, m.min(8)),
        (a, _) if a > 13 => (9 + a - 13, 0),
        _ => (7, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_isa_versions() {
        assert_eq!(parse_size("16G"), Some(16 << 30));
        assert_eq!(parse_size("512M"), Some(512 << 20));
        assert_eq!(parse_size("100"), Some(100));
        assert_eq!(parse_size("x"), None);
        assert_eq!(ptx_isa((12, 4)), (8, 4));
        assert_eq!(ptx_isa((12, 8)), (8, 7));
        assert_eq!(ptx_isa((13, 2)), (9, 2));
    }
}

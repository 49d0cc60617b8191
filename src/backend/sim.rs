//! The simulated GPU (`--sim-gpu`, `--sim-gpu=2`, `--sim-gpu-memory 8GiB`, `CUDALEARN_SIM_GPU`).
//!
//! For learners without an NVIDIA card, and for deterministic transcripts: `cuda:0..N-1` exist,
//! each with its own memory pool of a fixed capacity (16 GiB unless told), accounted by the same
//! caching allocator as a real card (`alloc.rs`), so memory statistics and out-of-memory errors
//! read as they would on a GPU of that size. The bytes live in host memory and the kernels are the
//! CPU backend's, so results are deterministic and identical to the CPU; what the work would
//! cost on the imitated card is kept on a modelled clock (`sim_model`). It is never silent: its
//! name says "simulated", and so do the banner, `cudalearn info` and `!nvidia-smi`.
use super::alloc::{CachingAllocator, RawAllocator, RawError};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The start of the name `torch.cuda.get_device_name()` reports (`name()` adds the card the
/// modelled clock imitates).
pub const NAME: &str = "cudalearn simulated GPU";

/// `cudalearn simulated GPU (modelled A100-SXM4-40GB)`.
pub fn name() -> String {
    format!("{NAME} (modelled {})", super::sim_model::chosen().name)
}
/// The default capacity of each simulated device.
pub const DEFAULT_CAPACITY: u64 = 16 << 30;

/// Addresses handed out by every simulated device, never reused (even across `enable` calls), so
/// a block freed late can never be mistaken for a newer one.
static NEXT_ADDRESS: AtomicU64 = AtomicU64::new(0x7f00_0000_0000);

/// One simulated card's memory: a capacity and the segments taken from it.
pub struct SimMemory {
    capacity: u64,
    used: u64,
}

impl RawAllocator for SimMemory {
    fn malloc(&mut self, size: u64) -> Result<u64, RawError> {
        if self.used + size > self.capacity {
            return Err(RawError::OutOfMemory);
        }
        self.used += size;
        // keep segments 2 MiB-aligned and apart, as cudaMalloc's are
        let span = size.next_multiple_of(2 << 20) + (2 << 20);
        Ok(NEXT_ADDRESS.fetch_add(span, Ordering::Relaxed))
    }
    fn free(&mut self, _ptr: u64, size: u64) {
        self.used -= size;
    }
    fn mem_info(&self) -> (u64, u64) {
        (self.capacity - self.used, self.capacity)
    }
    fn process_info(&self) -> String {
        // NVML's line on a real card; here this process is the only one and holds what it reserved
        format!(
            "Including non-PyTorch memory, this process has {} memory in use. ",
            super::alloc::format_size(self.used)
        )
    }
}

impl SimMemory {
    /// Bytes of this device's memory taken by the process (what `nvidia-smi` shows).
    pub fn used(&self) -> u64 {
        self.used
    }
}

pub struct Sim {
    pub capacity: u64,
    pub devices: Vec<CachingAllocator<SimMemory>>,
}

pub static SIM: Mutex<Option<Sim>> = Mutex::new(None);

/// Whether `SIM` holds a simulated GPU, readable without the lock (every op on a GPU tensor
/// asks `gpu::kind()`, which asks this).
static ENABLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn lock() -> std::sync::MutexGuard<'static, Option<Sim>> {
    SIM.lock().unwrap_or_else(|e| e.into_inner())
}

/// Turn the simulated GPU on with `gpus` devices of `capacity` bytes each (default 16 GiB).
/// Called by `--sim-gpu`, `--device sim` and the lesson runner; calling it again starts fresh
/// pools (tensors still alive from before are simply no longer counted).
pub fn enable(gpus: u32, capacity: Option<u64>) {
    // a chosen card brings its memory size; the default stays 16 GiB
    let capacity = capacity.unwrap_or_else(|| {
        super::sim_model::explicit().map_or(DEFAULT_CAPACITY, |p| p.memory_bytes)
    });
    let gpus = gpus.max(1);
    let devices = (0..gpus)
        .map(|d| CachingAllocator::new(d, SimMemory { capacity, used: 0 }))
        .collect();
    *lock() = Some(Sim { capacity, devices });
    super::sim_model::reset(gpus as usize);
    ENABLED.store(true, std::sync::atomic::Ordering::Relaxed);
    super::gpu::reset_current_device();
}

/// Turn it off again (tests, `--device cpu`).
pub fn disable() {
    *lock() = None;
    ENABLED.store(false, std::sync::atomic::Ordering::Relaxed);
}

pub fn is_enabled() -> bool {
    ENABLED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The number of simulated devices `CUDALEARN_SIM_GPU` asks for (`1`, `2`, ...; `0` or empty: none).
/// Read once (every op on a GPU tensor asks through `gpu::kind()`); 0 is "none".
pub fn env_request() -> Option<u32> {
    let mut v = ENV_REQUEST.load(std::sync::atomic::Ordering::Relaxed);
    if v == u32::MAX {
        v = parse_env_request().unwrap_or(0);
        ENV_REQUEST.store(v, std::sync::atomic::Ordering::Relaxed);
    }
    (v > 0).then_some(v)
}

static ENV_REQUEST: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(u32::MAX);

/// `--device cuda`: a real GPU was asked for, so `CUDALEARN_SIM_GPU` must not replace it.
pub fn ignore_env_request() {
    ENV_REQUEST.store(0, std::sync::atomic::Ordering::Relaxed);
}

fn parse_env_request() -> Option<u32> {
    let v = std::env::var("CUDALEARN_SIM_GPU").ok()?;
    let v = v.trim();
    if v.is_empty() {
        return None;
    }
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" => Some(1),
        other => other.parse::<u32>().ok().filter(|&n| n > 0),
    }
}

/// Parse a memory size: `8GiB`, `8G`, `512MiB`, `1.5GB`, or a number of bytes.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: f64 = num.parse().ok()?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return None,
    };
    let bytes = n * mult as f64;
    (1.0..1e18).contains(&bytes).then_some(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("8GiB"), Some(8 << 30));
        assert_eq!(parse_size("8G"), Some(8 << 30));
        assert_eq!(parse_size("512MiB"), Some(512 << 20));
        assert_eq!(parse_size("1.5GB"), Some(3 << 29));
        assert_eq!(parse_size("1000"), Some(1000));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("0"), None);
    }
}

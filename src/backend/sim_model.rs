//! The modelled clock of the simulated GPU: what its work would cost on a real card.
//!
//! The simulated GPU computes on the host, so its real timings say nothing about a GPU. This
//! module keeps a *model* instead: one modelled host clock (the Python thread launching work) and
//! one modelled device clock per card. Every kernel queues on its device and costs a roofline
//! estimate — max(FLOPs / peak rate of the unit the dtype uses, bytes / memory bandwidth) divided
//! by a measured-typical efficiency — or the launch floor, whichever is larger; host↔device
//! copies cost bytes / PCIe bandwidth (pageable memory is staged, so slower than pinned) plus a
//! latency. Sync points (`synchronize`, `.item()`, `.cpu()`, printing) make the host wait for the
//! device. Both clocks are modelled, never read from the wall clock, so the same program gives
//! the same modelled times on every machine (the interpreter's own speed is not part of it).
//!
//! Everything here is labelled "modelled" where users see it: a model is not a measurement.
use crate::core::DType;
use std::sync::Mutex;

/// A card's published specification (dense rates, no sparsity).
///
/// Sources: NVIDIA T4 Tensor Core GPU datasheet (2019); NVIDIA A100 Tensor Core GPU datasheet
/// (2021, A100 40GB SXM column); NVIDIA H100 Tensor Core GPU datasheet (2023, H100 SXM column;
/// its tensor-core figures "with sparsity" halved for dense); NVIDIA Ada Lovelace GPU
/// architecture whitepaper v1.1, appendix A (GeForce RTX 4090; FP16/BF16 with FP32 accumulate,
/// the rate PyTorch's matmuls use). PCIe: 16 lanes of the named generation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    /// What `--sim-gpu-model` accepts (lower case).
    pub key: &'static str,
    pub name: &'static str,
    pub memory_bytes: u64,
    /// Memory bandwidth, GB/s (10^9 bytes).
    pub bandwidth_gbs: f64,
    /// Peak rates in TFLOP/s: FP32 and FP64 on the CUDA cores, TF32/FP16/BF16 on tensor cores
    /// (0 where the card has no such unit: it falls back to FP32).
    pub fp32_tflops: f64,
    pub fp64_tflops: f64,
    pub tf32_tflops: f64,
    pub fp16_tflops: f64,
    pub bf16_tflops: f64,
    pub sms: u32,
    pub pcie_gen: u32,
    pub major: u32,
    pub minor: u32,
    pub l2_bytes: u64,
}

const GB: u64 = 1 << 30;
const MB: u64 = 1 << 20;

pub const PROFILES: &[Profile] = &[
    Profile {
        key: "t4",
        name: "Tesla T4",
        memory_bytes: 16 * GB,
        bandwidth_gbs: 320.0,
        fp32_tflops: 8.1,
        fp64_tflops: 0.25,
        tf32_tflops: 0.0, // Turing has no TF32
        fp16_tflops: 65.0,
        bf16_tflops: 0.0, // nor BF16 tensor cores
        sms: 40,
        pcie_gen: 3,
        major: 7,
        minor: 5,
        l2_bytes: 4 * MB,
    },
    Profile {
        key: "a100",
        name: "A100-SXM4-40GB",
        memory_bytes: 40 * GB,
        bandwidth_gbs: 1555.0,
        fp32_tflops: 19.5,
        fp64_tflops: 9.7,
        tf32_tflops: 156.0,
        fp16_tflops: 312.0,
        bf16_tflops: 312.0,
        sms: 108,
        pcie_gen: 4,
        major: 8,
        minor: 0,
        l2_bytes: 40 * MB,
    },
    Profile {
        key: "h100",
        name: "H100 80GB HBM3",
        memory_bytes: 80 * GB,
        bandwidth_gbs: 3350.0,
        fp32_tflops: 67.0,
        fp64_tflops: 34.0,
        tf32_tflops: 494.7,
        fp16_tflops: 989.4,
        bf16_tflops: 989.4,
        sms: 132,
        pcie_gen: 5,
        major: 9,
        minor: 0,
        l2_bytes: 50 * MB,
    },
    Profile {
        key: "rtx4090",
        name: "GeForce RTX 4090",
        memory_bytes: 24 * GB,
        bandwidth_gbs: 1008.0,
        fp32_tflops: 82.6,
        fp64_tflops: 1.29,
        tf32_tflops: 82.6,
        fp16_tflops: 165.2,
        bf16_tflops: 165.2,
        sms: 128,
        pcie_gen: 4,
        major: 8,
        minor: 9,
        l2_bytes: 72 * MB,
    },
];

/// A100 40GB: the data-centre card most courses and clouds offer.
pub const DEFAULT_KEY: &str = "a100";

/// The profile for a `--sim-gpu-model` name (`h100`, `H100-SXM`, `A100-40GB`, `rtx-4090`, `T4`).
pub fn profile_named(name: &str) -> Option<&'static Profile> {
    let n: String = name
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let n = n
        .trim_start_matches("nvidia")
        .trim_start_matches("geforce")
        .trim_end_matches("sxm")
        .trim_end_matches("40gb")
        .trim_end_matches("80gb");
    let n = if n == "4090" { "rtx4090" } else { n };
    PROFILES.iter().find(|p| p.key == n)
}

/// The names accepted, for error messages.
pub fn profile_names() -> String {
    PROFILES
        .iter()
        .map(|p| p.key)
        .collect::<Vec<_>>()
        .join(", ")
}

// Model constants, from published measurements rather than specs.
/// The shortest a kernel takes, launch to completion on an idle device (a few microseconds is
/// what every empty-kernel benchmark shows).
pub const KERNEL_FLOOR_S: f64 = 3e-6;
/// What the host spends per op: PyTorch's Python → dispatcher → `cudaLaunchKernel` path, about
/// 5–10 µs in eager mode.
pub const HOST_DISPATCH_S: f64 = 7e-6;
/// Fraction of peak bandwidth a streaming kernel reaches (STREAM-like kernels on HBM/GDDR).
const BANDWIDTH_EFFICIENCY: f64 = 0.85;
/// Fraction of peak FLOP/s a large GEMM reaches (cuBLAS: ~90% on CUDA cores, ~75% on tensor cores).
const GEMM_EFFICIENCY_CUDA: f64 = 0.9;
const GEMM_EFFICIENCY_TENSOR: f64 = 0.75;
/// Output tile of one thread block of a GEMM: small matrices leave SMs idle.
const GEMM_TILE: usize = 64;
/// A `cudaMemcpy` costs this much before its first byte moves.
const COPY_LATENCY_S: f64 = 10e-6;
/// Pinned copies reach this share of the PCIe link; pageable ones are staged through a pinned
/// buffer by the driver and reach about half of that.
const PINNED_EFFICIENCY: f64 = 0.8;
const PAGEABLE_EFFICIENCY: f64 = 0.4;

/// PCIe x16 bandwidth per generation, GB/s per direction (PCI-SIG: 8, 16, 32 GT/s per lane with
/// 128b/130b encoding).
pub fn pcie_gbs(gen: u32) -> f64 {
    match gen {
        3 => 15.75,
        4 => 31.5,
        5 => 63.0,
        _ => 15.75,
    }
}

/// The hardware unit a piece of work runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    CudaCores,
    TensorCores,
}

/// One kernel's work, estimated from shapes and dtypes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Work {
    /// A batched matrix product [batch, m, k] @ [batch, k, n].
    Matmul {
        batch: usize,
        m: usize,
        n: usize,
        k: usize,
        dtype: DType,
    },
    /// Streaming work: elementwise ops, reductions, copies, fills.
    Stream {
        flops: f64,
        bytes: f64,
        dtype: DType,
    },
}

impl Work {
    pub fn flops(&self) -> f64 {
        match *self {
            Work::Matmul { batch, m, n, k, .. } => 2.0 * (batch * m * n) as f64 * k as f64,
            Work::Stream { flops, .. } => flops,
        }
    }
    pub fn bytes(&self) -> f64 {
        match *self {
            Work::Matmul {
                batch,
                m,
                n,
                k,
                dtype,
            } => (batch * (m * k + k * n + m * n)) as f64 * dtype.size() as f64,
            Work::Stream { bytes, .. } => bytes,
        }
    }
}

impl Profile {
    /// Peak FLOP/s for `dtype` on `unit`, and the unit actually used (a card without tensor
    /// cores for a dtype runs it on the CUDA cores).
    pub fn peak_flops(&self, dtype: DType, unit: Unit) -> (f64, Unit) {
        let tc = match dtype {
            DType::F16 => self.fp16_tflops,
            DType::BF16 => self.bf16_tflops,
            _ => 0.0,
        };
        if unit == Unit::TensorCores && tc > 0.0 {
            return (tc * 1e12, Unit::TensorCores);
        }
        let cuda = match dtype {
            DType::F64 => self.fp64_tflops,
            _ => self.fp32_tflops,
        };
        (cuda * 1e12, Unit::CudaCores)
    }

    /// Modelled seconds a kernel runs on an otherwise idle device.
    pub fn kernel_seconds(&self, w: &Work) -> f64 {
        let bw = self.bandwidth_gbs * 1e9 * BANDWIDTH_EFFICIENCY;
        let t = match *w {
            Work::Matmul {
                batch, m, n, dtype, ..
            } => {
                let (peak, unit) = self.peak_flops(dtype, Unit::TensorCores);
                let eff = if unit == Unit::TensorCores {
                    GEMM_EFFICIENCY_TENSOR
                } else {
                    GEMM_EFFICIENCY_CUDA
                };
                // blocks run in waves of one per SM: a partial last wave idles the rest
                let tiles = batch * m.div_ceil(GEMM_TILE) * n.div_ceil(GEMM_TILE);
                let sms = self.sms as usize;
                let fill = tiles as f64 / (tiles.div_ceil(sms) * sms) as f64;
                (w.flops() / (peak * eff * fill)).max(w.bytes() / bw)
            }
            Work::Stream { dtype, .. } => {
                let (peak, _) = self.peak_flops(dtype, Unit::CudaCores);
                (w.flops() / peak).max(w.bytes() / bw)
            }
        };
        t.max(0.0) + KERNEL_FLOOR_S
    }

    /// Modelled seconds of a host↔device copy of `bytes`.
    pub fn copy_seconds(&self, bytes: f64, pinned: bool) -> f64 {
        COPY_LATENCY_S + bytes / (self.copy_gbs(pinned) * 1e9)
    }

    /// The sustained PCIe bandwidth of a copy, GB/s.
    pub fn copy_gbs(&self, pinned: bool) -> f64 {
        let eff = if pinned {
            PINNED_EFFICIENCY
        } else {
            PAGEABLE_EFFICIENCY
        };
        pcie_gbs(self.pcie_gen) * eff
    }
}

/// What kind of step a profiler record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Kernel,
    HostToDevice,
    DeviceToHost,
    Sync,
}

/// The clocks, in modelled seconds since the simulated GPU was enabled.
pub struct Timeline {
    pub profile: &'static Profile,
    pub host: f64,
    pub devices: Vec<f64>,
}

impl Timeline {
    pub fn new(profile: &'static Profile, gpus: usize) -> Timeline {
        Timeline {
            profile,
            host: 0.0,
            devices: vec![0.0; gpus.max(1)],
        }
    }

    fn device(&mut self, d: u32) -> &mut f64 {
        let i = (d as usize).min(self.devices.len() - 1);
        &mut self.devices[i]
    }

    /// Queue a kernel: the host pays its dispatch, the device runs it when it is free.
    pub fn kernel(&mut self, name: &[&str], d: u32, w: Work) {
        let cost = self.profile.kernel_seconds(&w);
        self.host += HOST_DISPATCH_S;
        let host = self.host;
        let dev = self.device(d);
        *dev = dev.max(host) + cost;
        push(name, d, Step::Kernel, w.bytes(), HOST_DISPATCH_S, cost);
    }

    /// The host waits until device `d` has finished its queue; returns the modelled wait.
    pub fn synchronize(&mut self, name: &'static str, d: u32) -> f64 {
        let dev = *self.device(d);
        let wait = (dev - self.host).max(0.0);
        self.host += wait;
        push(&[name], d, Step::Sync, 0.0, wait, 0.0);
        wait
    }

    /// The host waits until the modelled time `t` (an event it synchronises on).
    pub fn wait_until(&mut self, name: &'static str, t: f64) {
        let wait = (t - self.host).max(0.0);
        self.host += wait;
        push(&[name], 0, Step::Sync, 0.0, wait, 0.0);
    }

    /// A `cudaMemcpy`: it starts when both sides are ready. The host waits for it (device→host
    /// copies are sync points), except for a non-blocking copy from pinned memory, which only
    /// queues.
    pub fn copy(&mut self, d: u32, bytes: f64, to_device: bool, pinned: bool, non_blocking: bool) {
        if !to_device {
            self.synchronize("cudaStreamSynchronize", d);
        }
        let (name, step) = copy_name(to_device, pinned);
        let cost = self.profile.copy_seconds(bytes, pinned);
        self.host += HOST_DISPATCH_S;
        let start = self.device(d).max(self.host);
        let end = start + cost;
        *self.device(d) = end;
        let waited = if non_blocking && pinned && to_device {
            0.0
        } else {
            let w = end - self.host;
            self.host = end;
            w
        };
        push(&[name], d, step, bytes, HOST_DISPATCH_S + waited, cost);
    }

    /// `Event.record()`: the device stamps it when it reaches it in its queue.
    pub fn event(&mut self, d: u32) -> f64 {
        self.host += 1e-6;
        let host = self.host;
        let dev = self.device(d);
        *dev = dev.max(host);
        *dev
    }
}

fn push(name: &[&str], d: u32, step: Step, bytes: f64, host_s: f64, device_s: f64) {
    if super::profile_log::active() {
        super::profile_log::push_modelled(&name.concat(), d, step, bytes, host_s, device_s);
    }
}

/// PyTorch's profiler names for a copy.
pub fn copy_name(to_device: bool, pinned: bool) -> (&'static str, Step) {
    if to_device && pinned {
        ("Memcpy HtoD (Pinned -> Device)", Step::HostToDevice)
    } else if to_device {
        ("Memcpy HtoD (Pageable -> Device)", Step::HostToDevice)
    } else {
        ("Memcpy DtoH (Device -> Pageable)", Step::DeviceToHost)
    }
}

static TIMELINE: Mutex<Option<Timeline>> = Mutex::new(None);

/// The profile `--sim-gpu-model` / `CUDALEARN_SIM_GPU_MODEL` chose (None: the default).
static CHOSEN: Mutex<Option<&'static Profile>> = Mutex::new(None);

/// Choose the imitated card before the simulated GPU is enabled.
pub fn choose(p: &'static Profile) {
    *CHOSEN.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
}

/// The imitated card: `--sim-gpu-model`, else `CUDALEARN_SIM_GPU_MODEL`, else the default.
pub fn chosen() -> &'static Profile {
    explicit()
        .or_else(|| profile_named(DEFAULT_KEY))
        .unwrap_or(&PROFILES[1])
}

/// The card named by `--sim-gpu-model` or `CUDALEARN_SIM_GPU_MODEL`, if any (then the simulated
/// GPU also takes that card's memory size, unless `--sim-gpu-memory` says otherwise).
pub fn explicit() -> Option<&'static Profile> {
    if let Some(p) = *CHOSEN.lock().unwrap_or_else(|e| e.into_inner()) {
        return Some(p);
    }
    std::env::var("CUDALEARN_SIM_GPU_MODEL")
        .ok()
        .and_then(|v| profile_named(&v))
}

/// Start fresh clocks for `gpus` simulated devices (called by `sim::enable`).
pub fn reset(gpus: usize) {
    *TIMELINE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Timeline::new(chosen(), gpus));
}

/// Run `f` on the timeline (None when the simulated GPU is off).
pub fn with<T>(f: impl FnOnce(&mut Timeline) -> T) -> Option<T> {
    TIMELINE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
        .map(f)
}

#[cfg(test)]
#[path = "sim_model_tests.rs"]
mod tests;

//! What this machine offers: `cudalearn info`, the REPL's `:device`, and the `!nvidia-smi` /
//! `:smi` table (the real one read through NVML, or the simulated GPU's). No shell is ever run.
use crate::backend::alloc::format_size;
use crate::backend::cuda::{self, probe::version};
use crate::backend::gpu::{self, GpuKind};
use crate::backend::sim;

/// `cudalearn info`.
pub fn report() -> String {
    let mut s = format!("cudalearn {}\n\n", env!("CARGO_PKG_VERSION"));
    let kind = gpu::kind();
    match cuda::probe() {
        Ok(p) => {
            s += &format!(
                "CUDA: available ({} GPU{})\n",
                p.devices.len(),
                if p.devices.len() == 1 { "" } else { "s" }
            );
            for (i, d) in p.devices.iter().enumerate() {
                s += &format!(
                    "  cuda:{i}  {}  {}  compute capability {}.{}  {} SMs\n",
                    d.name,
                    format_size(d.total_memory),
                    d.major,
                    d.minor,
                    d.multi_processor_count
                );
            }
            s += &format!("  libcuda   CUDA {}", version(p.driver_version));
            if let Some(v) = cuda::nvml::driver_version() {
                s += &format!(" (driver {v})");
            }
            s += &format!("  {}\n", p.driver_path);
            let lib = |l: &Option<cuda::probe::Loaded>, what: &str, without: &str| match l {
                Some(l) => format!("  {what} {}.{}  {}\n", l.version.0, l.version.1, l.path),
                None => format!("  {what} not found: {without}\n"),
            };
            s += &lib(
                &p.nvrtc,
                "NVRTC    ",
                &format!(
                    "no custom kernels, tensor ops run on the CPU and are copied over; {}",
                    cuda::probe::NVRTC_FIX
                ),
            );
            s += &lib(
                &p.cublas,
                "cuBLAS   ",
                "matrix products run on the CPU and are copied over",
            );
            s += &match cuda::nvml::library_path() {
                Some(path) => format!("  NVML      found  {path}\n"),
                None => "  NVML      not found: no `:smi` table or per-process memory in out-of-memory messages\n".into(),
            };
            s += "  tensors on 'cuda' live in device memory (PyTorch's caching allocator) and run on\n  cudalearn's kernels (kernels/*.cu, compiled once by NVRTC) and cuBLAS.\n";
        }
        Err(e) => {
            s += "CUDA: not available\n";
            s += &format!("  why: {}\n", e.reason());
            s += &format!("  fix: {}\n", e.fix());
        }
    }
    s += "\n";
    match kind {
        GpuKind::Simulated => {
            let g = sim::lock();
            if let Some(sm) = g.as_ref() {
                s += &format!(
                    "Simulated GPU: ON — {} device{} named \"{}\", {} each (host memory, CPU kernels)\n",
                    sm.devices.len(),
                    if sm.devices.len() == 1 { "" } else { "s" },
                    sim::name(),
                    format_size(sm.capacity)
                );
            }
            s += "  torch.cuda.is_available() is True and tensors on 'cuda' use the simulated GPU.\n";
        }
        _ => {
            s += "Simulated GPU: off (start with --sim-gpu or --sim-gpu=2, or set CUDALEARN_SIM_GPU=1)\n";
        }
    }
    s += &format!(
        "\ntorch.cuda.is_available(): {}\n",
        if gpu::is_available() { "True" } else { "False" }
    );
    s += &format!(
        "CPU: {} threads\n",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    s
}

/// The REPL's `:device` (and the banner's GPU line).
pub fn device_line() -> String {
    match gpu::kind() {
        GpuKind::None => {
            "device: cpu only — no GPU (`cudalearn info` says why; --sim-gpu simulates one)"
                .to_string()
        }
        GpuKind::Simulated => {
            let n = gpu::device_count();
            let cap = sim::lock().as_ref().map_or(0, |s| s.capacity);
            format!(
                "device: SIMULATED GPU — {n} × \"{}\" ({} each, computed on the CPU); current cuda:{}",
                sim::name(),
                format_size(cap),
                gpu::current_device()
            )
        }
        GpuKind::Cuda => {
            let names: Vec<String> = (0..gpu::device_count())
                .filter_map(|i| {
                    gpu::properties(i)
                        .ok()
                        .map(|p| format!("cuda:{i} {}", p.name))
                })
                .collect();
            format!(
                "device: CUDA — {}; current cuda:{}",
                names.join(", "),
                gpu::current_device()
            )
        }
    }
}

fn mib(b: u64) -> String {
    format!("{}MiB", b >> 20)
}

fn row(cells: &[(&str, usize)]) -> String {
    let mut s = String::from("|");
    for (text, width) in cells {
        let t: String = text.chars().take(*width).collect();
        s += &format!(" {t:<w$} |", w = width);
    }
    s + "\n"
}

fn rule(widths: &[usize], c: char) -> String {
    let mut s = String::from("+");
    for w in widths {
        s += &c.to_string().repeat(w + 2);
        s.push('+');
    }
    s + "\n"
}

/// `!nvidia-smi` / `:smi`: the GPUs, their memory and utilisation, and this process.
pub fn smi() -> String {
    let widths = [32, 22, 8];
    let total: usize = widths.iter().map(|w| w + 3).sum::<usize>() - 1;
    let mut s = String::new();
    let kind = gpu::kind();
    let title = match kind {
        GpuKind::None => {
            return "nvidia-smi: no GPU here (NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver).\nThis is cudalearn's built-in nvidia-smi; `cudalearn info` says why there is no GPU, and --sim-gpu gives a simulated one.\n".to_string();
        }
        GpuKind::Simulated => {
            "cudalearn nvidia-smi — SIMULATED GPU (host memory, CPU kernels)".to_string()
        }
        GpuKind::Cuda => match cuda::nvml::driver_version() {
            Some(v) => format!("cudalearn nvidia-smi (NVML)   Driver Version: {v}"),
            None => "cudalearn nvidia-smi (NVML not found: memory from CUDA)".to_string(),
        },
    };
    s += &format!("+{}+\n", "-".repeat(total));
    s += &format!("| {title:<w$} |\n", w = total - 2);
    s += &rule(&widths, '-');
    s += &row(&[("GPU  Name", 32), ("Memory-Usage", 22), ("GPU-Util", 8)]);
    s += &rule(&widths, '=');
    let mut procs = Vec::new();
    for i in 0..gpu::device_count() {
        let name = gpu::properties(i).map(|p| p.name).unwrap_or_default();
        let (used, total_mem, util, mine) = match kind {
            GpuKind::Simulated => {
                let g = sim::lock();
                let (used, cap) = g
                    .as_ref()
                    .and_then(|s| s.devices.get(i as usize))
                    .map(|a| (a.raw().used(), s_cap(a)))
                    .unwrap_or((0, 0));
                (used, cap, 0, used)
            }
            _ => match cuda::nvml::status(i) {
                Some(st) => {
                    let me = std::process::id();
                    let mine = cuda::nvml::processes(i)
                        .unwrap_or_default()
                        .iter()
                        .filter(|(p, _)| *p == me)
                        .map(|(_, b)| *b)
                        .sum();
                    (st.memory_used, st.memory_total, st.utilization, mine)
                }
                None => {
                    let (free, tot) = gpu::with_memory(i, |m| m.mem_info()).unwrap_or((0, 0));
                    let reserved = gpu::with_memory(i, |m| m.stats().reserved_bytes.all.current)
                        .unwrap_or(0) as u64;
                    (tot - free, tot, 0, reserved)
                }
            },
        };
        s += &row(&[
            (&format!("{i:>3}  {name}"), 32),
            (&format!("{:>9} / {:<9}", mib(used), mib(total_mem)), 22),
            (&format!("{util:>7}%"), 8),
        ]);
        procs.push((i, mine));
    }
    s += &rule(&widths, '-');
    s += "\n";
    s += &format!("+{}+\n", "-".repeat(total));
    s += &format!("| {:<w$} |\n", "Processes:", w = total - 2);
    s += &format!(
        "| {:<w$} |\n",
        "  GPU        PID   Process name                     GPU Memory Usage",
        w = total - 2
    );
    s += &format!("|{}|\n", "=".repeat(total));
    let pid = std::process::id();
    for (i, mine) in procs {
        let line = format!("  {i:>3}  {pid:>9}   {:<32} {:>16}", "cudalearn", mib(mine));
        s += &format!("| {line:<w$} |\n", w = total - 2);
    }
    s += &format!("+{}+\n", "-".repeat(total));
    s
}

fn s_cap(a: &crate::backend::alloc::CachingAllocator<sim::SimMemory>) -> u64 {
    use crate::backend::alloc::RawAllocator;
    a.raw().mem_info().1
}

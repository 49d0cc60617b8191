//! The GPU part of `cudalearn bench`, measured through the engine on cuda:0 the way
//! `benches/pytorch_gpu.py` measures PyTorch: matmul 4096³ in float32 and float16, an add of
//! 100M floats, host→device copies from pageable and pinned memory, the first-use kernel
//! compile, and start-to-first-CUDA-op of a fresh process with a warm kernel cache.
use crate::backend::cuda::probe;
use crate::bench::Row;
use crate::tensor::ops::{binary::binary, matmul::matmul};
use crate::tensor::{create, BinaryOp, DType, Device, Scalar, Tensor};
use std::time::Instant;

/// The report, or the reason there is no GPU to measure.
pub fn report() -> String {
    let p = match probe() {
        Ok(p) if !probe::is_host_device() => p,
        Ok(_) => return "GPU: the host-backed test device is not a GPU — skipped\n".into(),
        Err(e) => {
            return format!(
                "GPU: no GPU ({}) — skipped: matmul f32/f16 4096³, add of 100M floats, host→device GB/s pinned vs pageable, first-use kernel compile time, start-to-first-CUDA-op\n",
                e.reason()
            )
        }
    };
    let d = &p.devices[0];
    let mut s = format!(
        "GPU: {} (compute capability {}.{})\n",
        d.name, d.major, d.minor
    );
    match gpu_suite(d.major, d.minor) {
        Ok(rows) => {
            for r in rows {
                s += &format!("{:<42} {:>10.2} {}\n", r.name, r.value, r.unit);
            }
        }
        Err(e) => s += &format!("  GPU benchmarks failed: {}\n", e.msg),
    }
    s
}

fn sync() -> crate::core::Result<()> {
    crate::backend::gpu::synchronize(0)
}

/// Median seconds of `runs` synchronised calls of `f` after a warm-up call (the CPU suite's
/// timing, with the card waited for inside each timed call).
fn gpu_time(
    runs: usize,
    mut f: impl FnMut() -> crate::core::Result<()>,
) -> crate::core::Result<f64> {
    let mut failed = None;
    let t = crate::bench::median_time(runs, || {
        if let Err(e) = f().and_then(|()| sync()) {
            failed.get_or_insert(e);
        }
    });
    failed.map_or(Ok(t.as_secs_f64()), Err)
}

fn on_gpu(shape: &[i64], dtype: DType) -> crate::core::Result<Tensor> {
    create::full(shape, Scalar::Float(0.5), Some(dtype), Device::Cuda(0))
}

fn row(name: &str, value: f64, unit: &'static str) -> Row {
    Row {
        name: name.into(),
        value,
        unit,
    }
}

pub fn gpu_suite(major: u32, minor: u32) -> crate::core::Result<Vec<Row>> {
    let mut rows = Vec::new();
    // first use: NVRTC compiling every kernel for this GPU (the cache is bypassed here)
    let t = Instant::now();
    let compiled = crate::backend::cuda::kernels::compile(crate::backend::cuda::kernels::Target {
        arch: (major, minor),
        cubin: true,
    });
    if compiled.is_ok() {
        rows.push(row(
            "first-use kernel compile (NVRTC)",
            t.elapsed().as_secs_f64() * 1e3,
            "ms",
        ));
    }
    rows.push(row(
        "start to first CUDA op (warm cache)",
        start_to_first_op_ms(),
        "ms",
    ));
    let n = 4096usize;
    for (dt, name) in [
        (DType::F32, "matmul f32 4096x4096"),
        (DType::F16, "matmul f16 4096x4096"),
    ] {
        let a = on_gpu(&[n as i64, n as i64], dt)?;
        let b = on_gpu(&[n as i64, n as i64], dt)?;
        let s = gpu_time(10, || matmul(&a, &b).map(drop))?;
        rows.push(row(name, 2.0 * (n as f64).powi(3) / s / 1e12, "TFLOP/s"));
    }
    let m = 100_000_000usize;
    let a = on_gpu(&[m as i64], DType::F32)?;
    let b = on_gpu(&[m as i64], DType::F32)?;
    let s = gpu_time(10, || binary(BinaryOp::Add, &a, &b).map(drop))?;
    rows.push(row(
        "add f32, 100M elements",
        m as f64 / s / 1e9,
        "G elem/s",
    ));
    drop((a, b));
    let bytes = 256usize << 20;
    let host = create::full(
        &[(bytes / 4) as i64],
        Scalar::Float(1.0),
        Some(DType::F32),
        Device::Cpu,
    )?;
    let s = gpu_time(5, || host.to_device(Device::Cuda(0)).map(drop))?;
    rows.push(row(
        "host→device 256 MiB, pageable",
        bytes as f64 / s / 1e9,
        "GB/s",
    ));
    let pinned = host.clone_tensor()?;
    pinned.storage().set_pinned();
    let s = gpu_time(5, || pinned.to_device(Device::Cuda(0)).map(drop))?;
    rows.push(row(
        "host→device 256 MiB, pinned",
        bytes as f64 / s / 1e9,
        "GB/s",
    ));
    Ok(rows)
}

/// A fresh `cudalearn run` of a one-op CUDA script, timed from spawn to exit (median of 5).
fn start_to_first_op_ms() -> f64 {
    let Ok(exe) = std::env::current_exe() else {
        return f64::NAN;
    };
    let script = "import torch\nx = torch.ones(4, device='cuda')\nprint((x + 1).sum().item())\n";
    let mut ts: Vec<f64> = (0..5)
        .filter_map(|_| {
            use std::io::Write;
            let t = Instant::now();
            let mut c = std::process::Command::new(&exe)
                .args(["run", "-"])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn()
                .ok()?;
            c.stdin.take()?.write_all(script.as_bytes()).ok()?;
            c.wait()
                .ok()?
                .success()
                .then(|| t.elapsed().as_secs_f64() * 1e3)
        })
        .collect();
    ts.sort_by(f64::total_cmp);
    ts.get(ts.len() / 2).copied().unwrap_or(f64::NAN)
}

//! `cudalearn info` and the CUDA probe on a machine without a GPU (and, where the machine has
//! one, that it is found): nothing panics, and the output says what was found or why not.
use std::process::Command;

fn info(args: &[&str], envs: &[(&str, &str)]) -> (String, i32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cudalearn"));
    cmd.args(args).arg("info").env_remove("CUDALEARN_SIM_GPU");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("cudalearn info runs");
    assert!(
        out.stderr.is_empty() || !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Whether this machine has a usable GPU (decided by the same probe the binary uses).
fn has_gpu() -> bool {
    cudalearn::backend::cuda::probe().is_ok()
}

#[test]
fn probe_never_panics_and_explains() {
    match cudalearn::backend::cuda::probe() {
        Ok(p) => {
            eprintln!("GPU found: {} device(s)", p.devices.len());
            assert!(!p.devices.is_empty());
        }
        Err(e) => {
            eprintln!("no GPU here: {}", e.reason());
            assert!(!e.reason().is_empty() && !e.fix().is_empty());
        }
    }
    // asking twice gives the cached answer
    assert_eq!(
        cudalearn::backend::cuda::probe().is_ok(),
        cudalearn::backend::cuda::probe().is_ok()
    );
}

#[test]
fn info_without_gpu_says_why() {
    let (out, code) = info(&[], &[("CUDALEARN_NO_CUDA", "1")]);
    assert_eq!(code, 0);
    assert!(out.starts_with("cudalearn "), "{out}");
    assert!(
        out.contains("CUDA: not available\n  why: no NVIDIA driver"),
        "{out}"
    );
    assert!(out.contains("  fix: "), "{out}");
    assert!(out.contains("Simulated GPU: off"), "{out}");
    assert!(out.contains("torch.cuda.is_available(): False"), "{out}");
}

#[test]
fn info_on_this_machine() {
    let (out, code) = info(&[], &[]);
    assert_eq!(code, 0);
    if has_gpu() {
        assert!(out.contains("CUDA: available"), "{out}");
        assert!(out.contains("NVRTC: "), "{out}");
    } else {
        eprintln!("SKIP (no GPU): checking the no-GPU report instead");
        assert!(out.contains("CUDA: not available\n  why: "), "{out}");
    }
}

#[test]
fn info_with_simulated_gpus() {
    let (out, code) = info(
        &["--sim-gpu=2", "--sim-gpu-memory", "8GiB"],
        &[("CUDALEARN_NO_CUDA", "1")],
    );
    assert_eq!(code, 0);
    assert!(
        out.contains(
            "Simulated GPU: ON — 2 devices named \"cudalearn simulated GPU (modelled A100-SXM4-40GB)\", 8.00 GiB each"
        ),
        "{out}"
    );
    assert!(out.contains("torch.cuda.is_available(): True"), "{out}");
}

#[test]
fn bench_gpu_part_reports_no_gpu() {
    if has_gpu() {
        eprintln!("SKIP: this machine has a GPU");
        return;
    }
    let report = cudalearn::bench::gpu::report();
    assert!(report.starts_with("GPU: no GPU ("), "{report}");
}

#[test]
fn device_cuda_without_gpu_is_a_clear_usage_error() {
    if has_gpu() {
        eprintln!("SKIP: this machine has a GPU");
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_cudalearn"))
        .args(["--device", "cuda", "run", "-"])
        .env("CUDALEARN_NO_CUDA", "1")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--device cuda: no usable GPU"), "{err}");
}

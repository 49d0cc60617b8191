//! The CUDA backend against the CPU backend: every case of `tests/cuda/parity.py` runs with
//! `dev = 'cpu'` and with `dev = 'cuda'`, and the outputs must agree — every op × dtype × shape
//! there (broadcast, non-contiguous, scalars, reductions, softmax, matmul, indexing, autograd,
//! nn and optim). On a real card numbers may differ in the last digits (other summation orders,
//! cuBLAS), so numbers are compared within a tolerance; without a GPU the real-card test SKIPS
//! with a visible message. `tests/cuda_host_device.rs` runs the same cases exactly on the
//! host-backed test device.
mod common;
pub mod parity;

/// The real-card tests share the card and its allocator (the parity cases print memory
/// statistics), so they run one at a time.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn real_gpu_matches_cpu() {
    let _serial = serial();
    match cudalearn::backend::cuda::probe() {
        Err(e) => {
            eprintln!("SKIP cuda_parity: no GPU here ({})", e.reason());
            return;
        }
        Ok(p) => eprintln!("cuda_parity on {}", p.devices[0].name),
    }
    let failures = parity::compare_all(|got, want| parity::numbers_close(got, want, 2e-3));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// On a real card the optimizer steps of `tests/cuda/optim_bits.py` run `kernels/optim.cu`
/// and must give the CPU's bits exactly (same parameters, same gradients): the kernels use
/// explicitly rounded intrinsics, so NVRTC's FMA contraction cannot change a result.
#[test]
fn real_gpu_optimizer_steps_give_the_cpus_bits() {
    let _serial = serial();
    if let Err(e) = cudalearn::backend::cuda::probe() {
        eprintln!(
            "SKIP real_gpu_optimizer_steps: no GPU here ({})",
            e.reason()
        );
        return;
    }
    let code = include_str!("cuda/optim_bits.py");
    let out = common::run_case(&format!("DEV = 'cuda'\n{code}"));
    assert_eq!(out.lines().count(), 12, "{out}");
    for l in out.lines() {
        assert!(l.contains(" True ["), "CUDA and CPU steps differ: {l}");
    }
}

#[test]
fn without_gpu_the_skip_is_visible_and_nothing_panics() {
    if cudalearn::backend::cuda::probe().is_err() {
        // placing a tensor on the GPU is PyTorch's error, not a panic
        let out = common::run_case("import torch\ntorch.ones(2).cuda()\n");
        assert!(out.contains("Found no NVIDIA driver"), "{out}");
        assert!(cudalearn::backend::cuda::memory::driver(0).is_err());
    }
}

/// NVRTC compiles the kernels for the course's GPUs (H100/H200: sm_90, A100: sm_80, L4 and
/// RTX 40: sm_89), and the PTX defines exactly the kernels the backend can launch. NVRTC needs no
/// GPU, so this runs wherever libnvrtc is found (e.g. LD_LIBRARY_PATH pointing at a pip
/// `nvidia-cuda-nvrtc` wheel), and SKIPS otherwise.
#[test]
fn kernels_compile_with_nvrtc() {
    // SAFETY: only tries to dlopen NVRTC's library names.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        eprintln!("SKIP kernels_compile_with_nvrtc: NVRTC (libnvrtc.so) not found");
        return;
    }
    use cudalearn::backend::cuda::kernels::{compile, supported_archs, Target};
    // machine code for the device's own architecture: what a card loads without any PTX JIT
    assert!(supported_archs().contains(&90), "{:?}", supported_archs());
    let cubin = compile(Target {
        arch: (9, 0),
        cubin: true,
    })
    .unwrap_or_else(|e| panic!("NVRTC failed for an sm_90 cubin: {e}"));
    assert!(cubin.starts_with(b"\x7fELF"), "a cubin is an ELF image");
    let names = cudalearn::backend::cuda::codes::all_names();
    for (major, minor) in [(8, 0), (8, 9), (9, 0)] {
        let t = std::time::Instant::now();
        let ptx = compile(Target {
            arch: (major, minor),
            cubin: false,
        })
        .unwrap_or_else(|e| panic!("NVRTC failed for sm_{major}{minor}: {e}"));
        let text = String::from_utf8_lossy(&ptx);
        let mut entries: Vec<&str> = text
            .split(".entry ")
            .skip(1)
            .map(|s| s.split('(').next().unwrap_or("").trim())
            .collect();
        entries.sort();
        assert_eq!(
            entries, names,
            "sm_{major}{minor}: PTX entries vs the backend's kernel names"
        );
        eprintln!(
            "sm_{major}{minor}: {} kernels compiled in {:.1} s",
            entries.len(),
            t.elapsed().as_secs_f64()
        );
    }
}

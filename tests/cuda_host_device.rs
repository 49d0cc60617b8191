//! The CUDA backend's device-resident plumbing without a GPU: the host-backed test device
//! (`install_host_device`) is a "card" whose memory is host memory and which has no kernels, so
//! every op takes the backend's host route over device-resident storage. Every case of
//! `tests/cuda/parity.py` must print exactly what the CPU prints, and the memory statistics must
//! follow PyTorch's allocator as on a card. (Kernels and cuBLAS need a real GPU:
//! `tests/cuda_parity.rs`.)
mod common;
pub mod parity;

/// Install the device once; the tests share its allocator, so they run one at a time.
fn setup() -> std::sync::MutexGuard<'static, ()> {
    static ONCE: std::sync::Once = std::sync::Once::new();
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONCE.call_once(|| cudalearn::backend::cuda::install_host_device(8 << 30));
    let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // each test starts as a new process would, before any cuBLAS workspace was taken
    cudalearn::backend::gpu::release_blas_workspaces(0);
    serial
}

#[test]
fn every_parity_case_prints_what_the_cpu_prints() {
    let _serial = setup();
    let failures = parity::compare_all(|got, want| got == want);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn tensors_live_in_device_memory_and_are_accounted() {
    let _serial = setup();
    let out = common::run_case(
        // The device is shared with the other tests (one at a time): start from an empty cache,
        // whatever the lessons run before this left reserved.
        "import torch\n\
         torch.cuda.empty_cache()\n\
         print(torch.cuda.is_available(), torch.cuda.get_device_name(0))\n\
         x = torch.ones(1, device='cuda')\n\
         print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())\n\
         y = torch.zeros(1000, 1000, device='cuda')\n\
         print(torch.cuda.memory_allocated(), y.sum().item(), y.device)\n\
         del x, y\n\
         print(torch.cuda.memory_allocated())\n\
         torch.cuda.empty_cache()\n\
         print(torch.cuda.memory_reserved())\n",
    );
    assert_eq!(
        out,
        "True cudalearn host-backed test device\n512 2097152\n4000768 0.0 cuda:0\n0\n0\n"
    );
    let t = cudalearn::tensor::create::zeros(
        &[3],
        Some(cudalearn::tensor::DType::F32),
        cudalearn::tensor::Device::Cuda(0),
    )
    .unwrap();
    assert!(t.storage().is_device_resident());
    assert_eq!(t.storage().len(), 3);
    assert!(
        matches!(
            t.storage().memory(),
            cudalearn::backend::storage::Memory::Cuda(Some(_))
        ),
        "the bytes are device memory"
    );
    assert!(t.storage().host().is_none(), "no host copy of device data");
}

#[test]
fn out_of_memory_is_pytorchs_error_and_the_session_goes_on() {
    let _serial = setup();
    let out = common::run_case(
        "import torch\n\
         try:\n    x = torch.empty(4 * 2**30, device='cuda')\n\
         except torch.OutOfMemoryError as e:\n    print(str(e).split('.')[0])\n\
         print(torch.cuda.memory_allocated(), (torch.ones(2, device='cuda') * 3).tolist())\n",
    );
    assert_eq!(out, "CUDA out of memory\n0 [3.0, 3.0]\n", "{out}");
}

/// Every single-GPU lesson's `--check` on the "cuda" device, tensors living in device memory.
#[test]
fn every_lesson_checks_on_the_cuda_backend() {
    let _serial = setup();
    let (checked, failures) = parity::lessons_on_cuda();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 9, "only {checked} lessons checked");
}

/// Optimizer steps on the host-backed device (no kernels: the staged route through host
/// vectors) give the CPU's bits, for every SGD and Adam/AdamW variant of
/// `tests/cuda/optim_bits.py`; on a card the same script runs `kernels/optim.cu`
/// (`tests/cuda_vgpu.rs`).
#[test]
fn optimizer_steps_give_the_cpus_bits() {
    let _serial = setup();
    let code = include_str!("cuda/optim_bits.py");
    let out = common::run_case(&format!("DEV = 'cuda'\n{code}"));
    assert_eq!(out.lines().count(), 12, "{out}");
    for l in out.lines() {
        assert!(l.contains(" True ["), "CUDA and CPU steps differ: {l}");
    }
}

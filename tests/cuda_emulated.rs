//! The CUDA kernels themselves, run without a GPU: `kernels/*.cu` compiled for the CPU
//! (`backend::cuda::emulator`, one thread per launch) behind the host-backed test device, so every
//! elementwise, cast, reduction, softmax and indexing op of `tests/cuda/parity.py` goes through
//! the backend's real launches — kernel names, argument order, layouts, pointer offsets — and
//! must print what the CPU backend prints (numbers within 1e-4: summation orders differ). Skips
//! when there is no C++ compiler. Matmul takes the host route here (cuBLAS needs a GPU).
mod common;
pub mod parity;

fn setup() -> Option<std::sync::MutexGuard<'static, ()>> {
    static READY: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let r = READY.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("kernels_cpu");
        let lib = cudalearn::backend::cuda::emulator::build(&dir)?;
        cudalearn::backend::cuda::install_host_device_with_kernels(8 << 30, &lib)
    });
    match r {
        Ok(()) => Some(SERIAL.lock().unwrap_or_else(|e| e.into_inner())),
        Err(e) => {
            eprintln!("SKIP cuda_emulated: the kernels could not be built for the CPU: {e}");
            None
        }
    }
}

#[test]
fn kernels_print_what_the_cpu_prints() {
    let Some(_serial) = setup() else { return };
    let failures = parity::compare_all(|got, want| parity::numbers_close(got, want, 1e-4));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // every family of kernels ran, in every arithmetic dtype where the cases use one
    let ran = cudalearn::backend::cuda::emulator::launched();
    eprintln!("{} distinct kernels ran: {ran:?}", ran.len());
    for family in [
        "binary_",
        "binary_scalar_",
        "compare_",
        "compare_scalar_",
        "unary_",
        "fill_",
        "where_",
        "reduce_rows_",
        "arg_rows_",
        "softmax_",
        "gather_",
        "scatter_",
        "copy_",
        "cast_",
    ] {
        assert!(
            ran.iter().any(|k| k.starts_with(family)),
            "no {family}* kernel ran"
        );
    }
    for dt in ["f32", "f64", "f16", "bf16", "i64", "i32"] {
        assert!(
            ran.contains(&format!("binary_{dt}")),
            "binary_{dt} never ran"
        );
    }
}

#[test]
fn kernels_run_the_lessons() {
    let Some(_serial) = setup() else { return };
    let (checked, failures) = parity::lessons_on_cuda();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 9, "only {checked} lessons checked");
}

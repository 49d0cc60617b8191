//! Automatic mixed precision: GradScaler's update rule, the autocast policy tables and cast
//! rule, and the warnings' text on stderr (expected text from real PyTorch).
use cudalearn::amp::scaler::{unscale_grads, ScaleState};
use cudalearn::amp::{self, policy, state, AmpDevice, Policy};
use cudalearn::tensor::{DType, Tensor};

const G: f64 = 2.0;
const B: f64 = 0.5;
const N: i64 = 2000;

#[test]
fn inf_halves_the_scale_and_resets_the_tracker() {
    let mut s = ScaleState::new(65536.0);
    for _ in 0..5 {
        s.update(false, G, B, N);
    }
    assert_eq!(s.growth_tracker, 5);
    s.update(true, G, B, N);
    assert_eq!(s.scale, 32768.0);
    assert_eq!(s.growth_tracker, 0);
    s.update(true, G, B, N);
    assert_eq!(s.scale, 16384.0);
}

#[test]
fn growth_interval_clean_steps_double_the_scale() {
    let mut s = ScaleState::new(65536.0);
    for k in 1..N {
        s.update(false, G, B, N);
        assert_eq!(s.growth_tracker as i64, k);
        assert_eq!(s.scale, 65536.0);
    }
    s.update(false, G, B, N);
    assert_eq!(s.scale, 131072.0);
    assert_eq!(s.growth_tracker, 0);
    // an inf in the middle of the next interval restarts the count
    for _ in 0..1000 {
        s.update(false, G, B, N);
    }
    s.update(true, G, B, N);
    assert_eq!((s.scale, s.growth_tracker), (65536.0, 0));
    for _ in 0..1999 {
        s.update(false, G, B, N);
    }
    assert_eq!(s.scale, 65536.0);
    s.update(false, G, B, N);
    assert_eq!(s.scale, 131072.0);
}

#[test]
fn scale_never_grows_to_inf() {
    let mut s = ScaleState::new(f32::MAX as f64);
    s.update(false, G, B, 1);
    assert_eq!(s.scale, f32::MAX);
    assert_eq!(s.growth_tracker, 0);
}

#[test]
fn inv_scale_is_the_float_reciprocal() {
    assert_eq!(ScaleState::new(65536.0).inv_scale(), 1.0 / 65536.0);
    assert_eq!(ScaleState::new(3.0).inv_scale(), (1.0f64 / 3.0) as f32);
}

#[test]
fn unscale_multiplies_and_finds_inf_and_nan() {
    let g = Tensor::from_f64s(&[2.0, 4.0], &[2], DType::F32).unwrap();
    assert!(!unscale_grads(std::slice::from_ref(&g), 0.5).unwrap());
    assert_eq!(g.contiguous_values_f64().unwrap(), vec![1.0, 2.0]);
    let h = Tensor::from_f64s(&[1.0, f64::INFINITY], &[2], DType::F32).unwrap();
    assert!(unscale_grads(&[g.clone(), h], 1.0).unwrap());
    let n = Tensor::from_f64s(&[f64::NAN], &[1], DType::BF16).unwrap();
    assert!(unscale_grads(&[n], 0.25).unwrap());
}

#[test]
fn policies_follow_pytorch_lists() {
    use AmpDevice::*;
    assert_eq!(policy::policy(Cuda, "mm"), Some(Policy::LowerPrecision));
    assert_eq!(policy::policy(Cuda, "linear"), Some(Policy::LowerPrecision));
    assert_eq!(policy::policy(Cuda, "exp"), Some(Policy::Fp32));
    assert_eq!(policy::policy(Cuda, "mse_loss"), Some(Policy::Fp32));
    assert_eq!(
        policy::policy(Cuda, "softmax"),
        Some(Policy::Fp32SetOptDtype)
    );
    assert_eq!(policy::policy(Cuda, "sum"), Some(Policy::Fp32SetOptDtype));
    assert_eq!(policy::policy(Cuda, "dot"), Some(Policy::Promote));
    assert!(matches!(
        policy::policy(Cuda, "binary_cross_entropy"),
        Some(Policy::Banned(_))
    ));
    assert_eq!(policy::policy(Cuda, "cat"), None);
    assert_eq!(policy::policy(Cuda, "relu"), None);
    // the CPU lists differ: no exp/softmax/sum, but cross_entropy and cat/stack
    assert_eq!(policy::policy(Cpu, "matmul"), Some(Policy::LowerPrecision));
    assert_eq!(policy::policy(Cpu, "mv"), None);
    assert_eq!(policy::policy(Cpu, "exp"), None);
    assert_eq!(policy::policy(Cpu, "softmax"), None);
    assert_eq!(
        policy::policy(Cpu, "cross_entropy_loss"),
        Some(Policy::Fp32)
    );
    assert_eq!(policy::policy(Cpu, "prod"), Some(Policy::Fp32));
    assert_eq!(policy::policy(Cpu, "cat"), Some(Policy::Promote));
    // every listed op has exactly one policy per device
    for dev in [Cpu, Cuda] {
        let ops = policy::ops(dev);
        for (name, p) in &ops {
            assert_eq!(policy::policy(dev, name), Some(*p), "{name}");
        }
    }
}

/// Runs `f` on a fresh thread so the thread-local autocast state starts clean.
fn fresh<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().unwrap()
}

#[test]
fn cast_rule_touches_only_eligible_inputs_inside_a_region() {
    fresh(|| {
        let f = Tensor::from_f64s(&[1.0, 2.0], &[1, 2], DType::F32).unwrap();
        let d = Tensor::from_f64s(&[1.0, 2.0], &[1, 2], DType::F64).unwrap();
        let i = Tensor::from_i64s(&[1, 2], &[1, 2], DType::I64).unwrap();
        // outside autocast nothing happens
        assert!(amp::autocast_inputs("mm", &[&f]).unwrap().is_none());
        state::set_enabled(AmpDevice::Cpu, true);
        let v = amp::autocast_inputs("mm", &[&f, &d, &i]).unwrap().unwrap();
        let dts: Vec<DType> = v.iter().map(|t| t.dtype()).collect();
        assert_eq!(dts, vec![DType::BF16, DType::F64, DType::I64]);
        assert!(v[1].ptr_eq(&d) && v[2].ptr_eq(&i));
        // ops without a policy, and CUDA-only policies, leave inputs alone on the CPU
        assert!(amp::autocast_inputs("relu", &[&f]).unwrap().is_none());
        assert_eq!(amp::opt_dtype("softmax", &f, None), None);
        state::set_dtype(AmpDevice::Cpu, DType::F16);
        assert_eq!(amp::cast1("matmul", &f).unwrap().dtype(), DType::F16);
        state::set_enabled(AmpDevice::Cpu, false);
        assert_eq!(amp::cast1("matmul", &f).unwrap().dtype(), DType::F32);
    })
}

#[test]
fn weight_casts_are_cached_until_the_outermost_region_ends() {
    fresh(|| {
        let w = Tensor::from_f64s(&[1.0, 2.0, 3.0, 4.0], &[2, 2], DType::F32).unwrap();
        w.set_requires_grad(true);
        let x = Tensor::from_f64s(&[1.0, 2.0, 3.0, 4.0], &[2, 2], DType::F32).unwrap();
        state::set_enabled(AmpDevice::Cpu, true);
        state::increment_nesting();
        let a = amp::cast1("mm", &w).unwrap();
        let b = amp::cast1("mm", &w).unwrap();
        assert!(a.ptr_eq(&b), "the weight is cast once");
        let c = amp::cast1("mm", &x).unwrap();
        let e = amp::cast1("mm", &x).unwrap();
        assert!(
            !c.ptr_eq(&e),
            "tensors without requires_grad are not cached"
        );
        assert_eq!(state::cache_len(), 1);
        state::set_cache_enabled(false);
        assert!(!amp::cast1("mm", &w).unwrap().ptr_eq(&a));
        if state::decrement_nesting() == 0 {
            state::clear_cache();
        }
        assert_eq!(state::cache_len(), 0);
    })
}

#[test]
fn promote_mixing_half_types_is_an_error() {
    fresh(|| {
        let h = Tensor::from_f64s(&[1.0], &[1], DType::F16).unwrap();
        let b = Tensor::from_f64s(&[1.0], &[1], DType::BF16).unwrap();
        state::set_enabled(AmpDevice::Cpu, true);
        let e = amp::cast_list("cat", &[b, h]).unwrap_err();
        assert_eq!(
            e.msg,
            "Unexpected floating ScalarType in at::autocast::prioritize"
        );
    })
}

#[test]
fn warnings_text_matches_python() {
    if cudalearn::backend::gpu::is_available() {
        eprintln!("skipped: a GPU is present, so CUDA autocast does not warn");
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = dir.join("tests/amp/amp_warnings.py");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cudalearn"))
        .arg("run")
        .arg(&script)
        .env_remove("CUDALEARN_SIM_GPU")
        .env("NO_COLOR", "1")
        .output()
        .expect("run cudalearn");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr =
        String::from_utf8_lossy(&out.stderr).replace(&*script.to_string_lossy(), "{SCRIPT}");
    let want_out = std::fs::read_to_string(dir.join("tests/amp/amp_warnings.stdout")).unwrap();
    let want_err = std::fs::read_to_string(dir.join("tests/amp/amp_warnings.stderr")).unwrap();
    assert_eq!(stdout, want_out);
    assert_eq!(stderr, want_err);
}

#[test]
fn seed_amp_loop_runs_on_the_simulated_gpu() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cudalearn"))
        .arg("run")
        .arg(dir.join("tests/amp/sim_gpu_amp_loop.py"))
        .env("CUDALEARN_SIM_GPU", "1")
        .env("NO_COLOR", "1")
        .output()
        .expect("run cudalearn");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let steps: Vec<Vec<&str>> = stdout
        .lines()
        .filter(|l| l.split(' ').count() == 8)
        .map(|l| l.split(' ').collect())
        .collect();
    assert_eq!(steps.len(), 5, "{stdout}");
    let mut last = f64::INFINITY;
    for s in &steps {
        // hidden and output activations in float16, the loss and the weights in float32
        assert_eq!(
            &s[1..4],
            ["torch.float16", "torch.float16", "torch.float32"]
        );
        assert_eq!(&s[6..8], ["torch.float32", "torch.float32"]);
        assert_eq!(s[5], "65536.0", "no inf: the scale keeps its initial value");
        let loss: f64 = s[4].parse().unwrap();
        assert!(loss < last, "the loss goes down: {stdout}");
        last = loss;
    }
    // enabled on a (simulated) GPU: only the deprecation warnings, no "Disabling"
    assert!(stderr.contains("`torch.cuda.amp.GradScaler(args...)` is deprecated"));
    assert!(!stderr.contains("Disabling"), "{stderr}");
}

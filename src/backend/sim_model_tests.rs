//! The model against published numbers. No real GPU was available to calibrate against, so
//! these check the specs' peak rates and well-known measured results (cuBLAS GEMM efficiency,
//! STREAM-like bandwidth, `bandwidthTest` PCIe figures, empty-kernel launch costs).
use super::*;

fn card(key: &str) -> &'static Profile {
    profile_named(key).unwrap()
}

fn mm(n: usize, dtype: DType) -> Work {
    Work::Matmul {
        batch: 1,
        m: n,
        n,
        k: n,
        dtype,
    }
}

fn add(n: usize) -> Work {
    Work::Stream {
        flops: n as f64,
        bytes: 3.0 * 4.0 * n as f64,
        dtype: DType::F32,
    }
}

#[test]
fn names_and_default() {
    assert_eq!(card("H100-SXM").key, "h100");
    assert_eq!(card("A100-40GB").key, "a100");
    assert_eq!(card("rtx-4090").key, "rtx4090");
    assert_eq!(card("4090").key, "rtx4090");
    assert_eq!(card("T4").key, "t4");
    assert!(profile_named("v100").is_none());
    assert_eq!(card(DEFAULT_KEY).name, "A100-SXM4-40GB");
}

#[test]
fn peak_rates_are_the_datasheets() {
    let a = card("a100");
    assert_eq!(a.peak_flops(DType::F32, Unit::CudaCores).0, 19.5e12);
    assert_eq!(a.peak_flops(DType::F16, Unit::TensorCores).0, 312e12);
    assert_eq!(a.peak_flops(DType::BF16, Unit::TensorCores).0, 312e12);
    assert_eq!(a.peak_flops(DType::F64, Unit::CudaCores).0, 9.7e12);
    let h = card("h100");
    assert_eq!(h.peak_flops(DType::F16, Unit::TensorCores).0, 989.4e12);
    // T4 has no bf16 tensor cores: bf16 runs on the CUDA cores
    let t = card("t4");
    assert_eq!(
        t.peak_flops(DType::BF16, Unit::TensorCores),
        (8.1e12, Unit::CudaCores)
    );
    assert_eq!(t.peak_flops(DType::F16, Unit::TensorCores).0, 65e12);
}

#[test]
fn big_f16_matmul_on_h100_is_tensor_core_bound_and_about_10x_f32() {
    let h = card("h100");
    let f32_s = h.kernel_seconds(&mm(8192, DType::F32));
    let f16_s = h.kernel_seconds(&mm(8192, DType::F16));
    let w = mm(8192, DType::F16);
    // compute-bound: the FLOP time far exceeds the byte time
    assert!(w.flops() / 989.4e12 > 5.0 * w.bytes() / 3350e9);
    let speedup = f32_s / f16_s;
    assert!((8.0..16.0).contains(&speedup), "f16 speed-up {speedup}");
    // cuBLAS reaches roughly 650-800 TFLOP/s dense f16 on an H100 SXM
    let tflops = w.flops() / f16_s / 1e12;
    assert!((600.0..800.0).contains(&tflops), "{tflops} TFLOP/s");
    // f32 without TF32: about 60 TFLOP/s
    let tflops32 = w.flops() / f32_s / 1e12;
    assert!((50.0..67.0).contains(&tflops32), "{tflops32} TFLOP/s");
}

#[test]
fn big_add_is_bandwidth_bound() {
    let a = card("a100");
    let w = add(100_000_000);
    let s = a.kernel_seconds(&w);
    assert!(w.flops() / 19.5e12 < 0.01 * s, "not compute bound");
    // STREAM-like kernels reach about 1.3 TB/s of the A100's 1.555 TB/s
    let gbs = w.bytes() / s / 1e9;
    assert!((1200.0..1555.0).contains(&gbs), "{gbs} GB/s");
    assert!((0.8e-3..1.0e-3).contains(&s), "{s} s");
}

#[test]
fn small_ops_are_launch_bound() {
    let a = card("a100");
    let s = a.kernel_seconds(&add(10));
    assert!((s - KERNEL_FLOOR_S).abs() < 1e-9, "{s}");
    // a thousand tiny adds: the host's dispatch, not the device, sets the pace
    let mut t = Timeline::new(a, 1);
    for _ in 0..1000 {
        t.kernel(&["aten::add"], 0, add(10));
    }
    t.synchronize("sync", 0);
    let per_op = t.host / 1000.0;
    assert!((per_op - HOST_DISPATCH_S).abs() < 1e-8, "{per_op}");
}

#[test]
fn pinned_copies_beat_pageable() {
    let a = card("a100");
    let bytes = 64e6;
    let pinned = bytes / a.copy_seconds(bytes, true) / 1e9;
    let pageable = bytes / a.copy_seconds(bytes, false) / 1e9;
    // bandwidthTest on PCIe 4.0 x16: ~24-26 GB/s pinned, ~10-13 GB/s pageable
    assert!((22.0..27.0).contains(&pinned), "{pinned}");
    assert!((9.0..14.0).contains(&pageable), "{pageable}");
    // a tiny copy is all latency
    assert!(a.copy_seconds(4.0, true) < 11e-6);
    // each PCIe generation doubles the link
    assert!(card("h100").copy_gbs(true) > 1.9 * a.copy_gbs(true));
    assert!(card("t4").copy_gbs(true) < 0.6 * a.copy_gbs(true));
}

/// Milliseconds per call the way lesson 9's `time_ms` measures on a GPU: one warm-up call, an
/// event, ten calls, an event, synchronize.
fn lesson_time_ms(p: &'static Profile, w: Work) -> f64 {
    let mut t = Timeline::new(p, 1);
    t.kernel(&["aten::mm"], 0, w);
    let start = t.event(0);
    for _ in 0..10 {
        t.kernel(&["aten::mm"], 0, w);
    }
    let end = t.event(0);
    t.synchronize("sync", 0);
    (end - start) * 1e3 / 10.0
}

#[test]
fn f32_matmul_crossover_with_a_desktop_cpu_is_between_128_and_1024() {
    // The CPU side: PyTorch's MKL sgemm on an 8-core AVX2 desktop sustains roughly 300 GFLOP/s,
    // plus about 3 us of eager overhead per call.
    let cpu_ms = |n: usize| (2.0 * (n as f64).powi(3) / 300e9 + 3e-6) * 1e3;
    for key in ["a100", "h100"] {
        let p = card(key);
        let sizes = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
        let cross = sizes
            .iter()
            .copied()
            .find(|&n| lesson_time_ms(p, mm(n, DType::F32)) < cpu_ms(n))
            .unwrap();
        assert!((128..=1024).contains(&cross), "{key}: crossover at {cross}");
        // and past it the GPU keeps winning by more
        let gain = |n| cpu_ms(n) / lesson_time_ms(p, mm(n, DType::F32));
        assert!(gain(4096) > gain(1024) && gain(1024) > gain(256));
        assert!(gain(4096) > 30.0);
    }
    // tiny matmuls are launch bound: 16 and 64 cost the same on the GPU
    let a = card("a100");
    let t16 = lesson_time_ms(a, mm(16, DType::F32));
    let t64 = lesson_time_ms(a, mm(64, DType::F32));
    // (plus a share of the microsecond an event costs the host)
    assert!((t16 - t64).abs() < 1e-9 && (t16 - HOST_DISPATCH_S * 1e3).abs() < 2e-4);
}

#[test]
fn a100_sgemm_matches_measured_times() {
    // cuBLAS SGEMM on an A100: about 17-19 TFLOP/s at n = 4096, 12-15 TFLOP/s at n = 1024
    let a = card("a100");
    let tf = |n: usize| mm(n, DType::F32).flops() / a.kernel_seconds(&mm(n, DType::F32)) / 1e12;
    assert!((16.0..19.5).contains(&tf(4096)), "{}", tf(4096));
    assert!((11.0..16.0).contains(&tf(1024)), "{}", tf(1024));
    // and f16 on tensor cores: roughly 230-280 TFLOP/s at n = 8192
    let w = mm(8192, DType::F16);
    let tf16 = w.flops() / a.kernel_seconds(&w) / 1e12;
    assert!((220.0..290.0).contains(&tf16), "{tf16}");
}

#[test]
fn the_device_runs_behind_the_host() {
    let a = card("a100");
    let mut t = Timeline::new(a, 2);
    let big = mm(4096, DType::F32);
    t.kernel(&["aten::mm"], 0, big);
    // the host only paid the dispatch; the device is busy for milliseconds
    assert!(t.host < 1e-5 && t.devices[0] > 5e-3);
    assert_eq!(t.devices[1], 0.0);
    let wait = t.synchronize("sync", 0);
    assert!(wait > 5e-3 && t.host == t.devices[0]);
    // a device-to-host copy is a sync point, a recorded event is stamped in queue order
    crate::backend::profile_log::start();
    let e0 = t.event(0);
    t.kernel(&["aten::mm"], 0, big);
    let e1 = t.event(0);
    // the kernel, after the host's launch of it
    assert!(((e1 - e0) - a.kernel_seconds(&big) - HOST_DISPATCH_S).abs() < 1e-9);
    t.copy(0, 4.0, false, false, false);
    assert!(t.host >= t.devices[0]);
    let r = crate::backend::profile_log::stop();
    let steps: Vec<Step> = r.iter().map(|r| r.step).collect();
    assert_eq!(steps, [Step::Kernel, Step::Sync, Step::DeviceToHost]);
}

#[test]
fn non_blocking_pinned_copies_only_queue() {
    let a = card("a100");
    let mut t = Timeline::new(a, 1);
    t.copy(0, 64e6, true, true, true);
    assert!((t.host - HOST_DISPATCH_S).abs() < 1e-12);
    assert!(t.devices[0] > 2e-3);
    // from pageable memory the driver must stage it: the host waits even when asked not to
    let mut t = Timeline::new(a, 1);
    t.copy(0, 64e6, true, false, true);
    assert_eq!(t.host, t.devices[0]);
}

//! `cudalearn bench --sim-gpu`: the GPU suite's figures as the simulated GPU's model predicts
//! them for the imitated card (the real GPU suite, `gpu.rs`, measures a card instead).
use crate::backend::sim_model::{self, Work, HOST_DISPATCH_S};
use crate::bench::Row;
use crate::core::DType;

/// The modelled suite for the chosen card.
pub fn rows() -> Vec<Row> {
    let p = sim_model::chosen();
    let mm = |n: usize, dtype| {
        let w = Work::Matmul {
            batch: 1,
            m: n,
            n,
            k: n,
            dtype,
        };
        w.flops() / p.kernel_seconds(&w) / 1e12
    };
    let n = 100_000_000usize;
    let add = Work::Stream {
        flops: n as f64,
        bytes: 12.0 * n as f64,
        dtype: DType::F32,
    };
    let copy = |pinned| 64e6 / p.copy_seconds(64e6, pinned) / 1e9;
    let row = |name: &str, value: f64, unit| Row {
        name: format!("{name} (modelled)"),
        value,
        unit,
    };
    vec![
        row("matmul f32 4096³", mm(4096, DType::F32), "TFLOP/s"),
        row("matmul f16 4096³", mm(4096, DType::F16), "TFLOP/s"),
        row("matmul bf16 4096³", mm(4096, DType::BF16), "TFLOP/s"),
        row(
            "add f32, 100M elements",
            add.bytes() / p.kernel_seconds(&add) / 1e9,
            "GB/s",
        ),
        row("host→device 64 MB, pinned", copy(true), "GB/s"),
        row("host→device 64 MB, pageable", copy(false), "GB/s"),
        row("tiny op, host launch cost", HOST_DISPATCH_S * 1e6, "us"),
        row(
            "tiny op, device time",
            sim_model::KERNEL_FLOOR_S * 1e6,
            "us",
        ),
    ]
}

/// The report `cudalearn bench` prints on the simulated GPU.
pub fn report() -> String {
    let p = sim_model::chosen();
    let mut s = format!(
        "GPU: {} — MODELLED figures imitating the {} ({:.0} GB/s, {} TFLOP/s fp32, {} TFLOP/s fp16 tensor cores, PCIe {}), not measurements\n",
        crate::backend::sim::name(),
        p.name,
        p.bandwidth_gbs,
        p.fp32_tflops,
        p.fp16_tflops,
        p.pcie_gen
    );
    for r in rows() {
        s += &format!("{:<42} {:>10.2} {}\n", r.name, r.value, r.unit);
    }
    s
}

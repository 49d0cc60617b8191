//! `cudalearn bench`: the numbers behind "why a GPU" — and the engine's own speed, measured
//! the same way PyTorch is measured by `benches/pytorch_cpu.py`.
pub mod gpu;
pub mod sim;

use crate::lang::interp::Output;
use crate::lang::{Interp, Source};
use crate::tensor::ops::{binary::binary, matmul::matmul};
use crate::tensor::{create, BinaryOp, DType, Device, Tensor};
use std::time::{Duration, Instant};

/// Median wall time of `runs` calls of `f` after one warm-up call.
pub(crate) fn median_time(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn filled(n: usize, shape: &[usize]) -> Tensor {
    let vals: Vec<f64> = (0..n)
        .map(|k| ((k * 7919) % 1000) as f64 / 1000.0)
        .collect();
    Tensor::from_f64s(&vals, shape, DType::F32).unwrap_or_else(|_| {
        create::zeros(&[shape.len() as i64], Some(DType::F32), Device::Cpu)
            .unwrap_or_else(|e| panic!("{e:?}"))
    })
}

pub struct Row {
    pub name: String,
    pub value: f64,
    pub unit: &'static str,
}

/// Matmul GFLOP/s at size n.
pub fn matmul_gflops(n: usize) -> f64 {
    let a = filled(n * n, &[n, n]);
    let b = filled(n * n, &[n, n]);
    let runs = if n >= 1024 { 7 } else { 31 };
    let t = median_time(runs, || {
        let _ = matmul(&a, &b);
    });
    2.0 * (n as f64).powi(3) / t.as_secs_f64() / 1e9
}

/// Elementwise add of `n` float32 values, in millions of elements per second.
pub fn add_melems(n: usize) -> f64 {
    let a = filled(n, &[n]);
    let b = filled(n, &[n]);
    let t = median_time(11, || {
        let _ = binary(BinaryOp::Add, &a, &b);
    });
    n as f64 / t.as_secs_f64() / 1e6
}

fn script_time(src: &str) -> Duration {
    let mut interp = Interp::new();
    interp.out = Output::Capture(String::new());
    let src = Source::new("<bench>", src);
    median_time(5, || {
        let _ = interp.run(src.clone(), false);
    })
}

/// Cost of one `z = x + y` on 10-element tensors inside a script loop, in microseconds:
/// the loop with the op minus the same loop with a plain assignment.
pub fn per_op_us() -> (f64, f64) {
    const N: usize = 200_000;
    let setup = "import torch\nx = torch.ones(10)\ny = torch.ones(10)\n";
    let with_op = script_time(&format!("{setup}for i in range({N}):\n    z = x + y\n"));
    let without = script_time(&format!("{setup}for i in range({N}):\n    z = x\n"));
    let per_iter = with_op.as_secs_f64() / N as f64 * 1e6;
    let net = (with_op.as_secs_f64() - without.as_secs_f64()).max(0.0) / N as f64 * 1e6;
    (per_iter, net)
}

pub fn cpu_suite() -> Vec<Row> {
    let (per_iter, net) = per_op_us();
    vec![
        Row {
            name: "matmul f32 256x256".into(),
            value: matmul_gflops(256),
            unit: "GFLOP/s",
        },
        Row {
            name: "matmul f32 1024x1024".into(),
            value: matmul_gflops(1024),
            unit: "GFLOP/s",
        },
        Row {
            name: "add f32, 10M elements".into(),
            value: add_melems(10_000_000),
            unit: "M elem/s",
        },
        Row {
            name: "z = x + y (10 elems), loop iteration".into(),
            value: per_iter,
            unit: "us",
        },
        Row {
            name: "z = x + y (10 elems), op alone".into(),
            value: net,
            unit: "us",
        },
    ]
}

/// The per-op rows (`benches/cpu_ops.py`): the same script runs on PyTorch through
/// `benches/pytorch_cpu.py`, so each row compares like with like. Prints as it goes (a row
/// takes up to a few seconds); a failing row stops the script with its traceback.
pub const CPU_OPS: &str = include_str!("../benches/cpu_ops.py");

pub fn print_op_rows() {
    let mut interp = Interp::new();
    let result = interp.run(Source::new("benches/cpu_ops.py", CPU_OPS), false);
    interp.out.flush();
    if let Err(e) = result {
        eprint!("{}", crate::lang::traceback::report(&mut interp, &e, true));
    }
}

pub fn print_rows(rows: &[Row]) {
    for r in rows {
        println!("{:<42} {:>10.2} {}", r.name, r.value, r.unit);
    }
}

/// The interpreter benchmarks (`benches/lang/*.py`, each defining `main()`); the same files
/// run under `python3` with `benches/lang_side_by_side.sh`.
pub const LANG_SCRIPTS: &[(&str, &str)] = &[
    ("fib", include_str!("../benches/lang/fib.py")),
    ("calls", include_str!("../benches/lang/calls.py")),
    ("methods", include_str!("../benches/lang/methods.py")),
    ("attrs", include_str!("../benches/lang/attrs.py")),
    ("closures", include_str!("../benches/lang/closures.py")),
    ("dicts", include_str!("../benches/lang/dicts.py")),
    ("listcomp", include_str!("../benches/lang/listcomp.py")),
    ("loops", include_str!("../benches/lang/loops.py")),
    ("strbuild", include_str!("../benches/lang/strbuild.py")),
    ("strformat", include_str!("../benches/lang/strformat.py")),
    ("exceptions", include_str!("../benches/lang/exceptions.py")),
    ("nbody", include_str!("../benches/lang/nbody.py")),
    ("richards", include_str!("../benches/lang/richards.py")),
    (
        "spectral_norm",
        include_str!("../benches/lang/spectral_norm.py"),
    ),
    ("fannkuch", include_str!("../benches/lang/fannkuch.py")),
    (
        "module_call",
        include_str!("../benches/lang/module_call.py"),
    ),
];

/// `cudalearn bench --lang`: the median time of `main()` of each script, in milliseconds.
pub fn lang_suite() -> Vec<Row> {
    LANG_SCRIPTS
        .iter()
        .map(|(name, text)| {
            let mut interp = Interp::new();
            interp.out = Output::Capture(String::new());
            let defined = interp.run(Source::new(format!("{name}.py"), *text), false);
            let call = Source::new("<bench>", "main()\n");
            let t = median_time(5, || {
                let _ = interp.run(call.clone(), false);
            });
            Row {
                name: if defined.is_ok() {
                    (*name).to_string()
                } else {
                    format!("{name} (failed)")
                },
                value: t.as_secs_f64() * 1e3,
                unit: "ms",
            }
        })
        .collect()
}

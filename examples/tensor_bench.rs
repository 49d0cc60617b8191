//! Speed of the tensor engine's hot paths: `cargo run --release --example tensor_bench`.
//! (Small-op overhead, elementwise bandwidth, reductions, matmul GFLOP/s.)
use cudalearn::tensor::create::{full, ones};
use cudalearn::tensor::ops::binary::{add, binary_scalar, BinaryOp};
use cudalearn::tensor::ops::inplace::binary_inplace;
use cudalearn::tensor::ops::matmul::matmul;
use cudalearn::tensor::ops::reduce::sum;
use cudalearn::tensor::{DType, Device, Scalar, Tensor};
use std::time::Instant;

fn time<F: FnMut()>(reps: usize, mut f: F) -> f64 {
    f();
    let t = Instant::now();
    for _ in 0..reps {
        f();
    }
    t.elapsed().as_secs_f64() / reps as f64
}

fn mat(n: usize, d: DType) -> Tensor {
    let v: Vec<f64> = (0..n * n)
        .map(|i| ((i * 7 % 13) as f64) * 0.1 - 0.6)
        .collect();
    Tensor::from_f64s(&v, &[n, n], d).unwrap()
}

fn main() {
    let x = ones(&[10], None, Device::Cpu).unwrap();
    let y = ones(&[10], None, Device::Cpu).unwrap();
    let t = time(1_000_000, || {
        std::hint::black_box(add(&x, &y).unwrap());
    });
    println!("add 10 f32:            {:8.1} ns", t * 1e9);
    let t = time(1_000_000, || {
        std::hint::black_box(binary_scalar(BinaryOp::Mul, &x, Scalar::Float(2.0), false).unwrap());
    });
    println!("mul_scalar 10 f32:     {:8.1} ns", t * 1e9);
    let t = time(1_000_000, || binary_inplace(BinaryOp::Add, &x, &y).unwrap());
    println!("x += y 10 f32:         {:8.1} ns", t * 1e9);

    let n = 10_000_000;
    let a = full(&[n as i64], Scalar::Float(1.5), None, Device::Cpu).unwrap();
    let b = full(&[n as i64], Scalar::Float(2.5), None, Device::Cpu).unwrap();
    let t = time(20, || {
        std::hint::black_box(add(&a, &b).unwrap());
    });
    println!(
        "add 10M f32:           {:8.2} ms  {:6.1} GB/s",
        t * 1e3,
        12.0 * n as f64 / t / 1e9
    );
    let t = time(20, || binary_inplace(BinaryOp::Add, &a, &b).unwrap());
    println!(
        "a += b 10M f32:        {:8.2} ms  {:6.1} GB/s",
        t * 1e3,
        12.0 * n as f64 / t / 1e9
    );
    let t = time(20, || {
        std::hint::black_box(sum(&a, None, false, None).unwrap());
    });
    println!(
        "sum 10M f32:           {:8.2} ms  {:6.1} GB/s",
        t * 1e3,
        4.0 * n as f64 / t / 1e9
    );

    for (size, d, reps) in [
        (1024, DType::F32, 10),
        (256, DType::F32, 200),
        (1024, DType::F64, 5),
        (512, DType::F16, 5),
        (512, DType::BF16, 5),
    ] {
        let p = mat(size, d);
        let q = mat(size, d);
        let t = time(reps, || {
            std::hint::black_box(matmul(&p, &q).unwrap());
        });
        let gf = 2.0 * (size as f64).powi(3) / t / 1e9;
        println!(
            "matmul {size}^2 {:9}  {:8.2} ms  {:6.1} GFLOP/s",
            d.name(),
            t * 1e3,
            gf
        );
    }
}

//! The gemm crate called directly, for comparison with `tensor_bench`'s matmul numbers:
//! `cargo run --release --example gemm_raw`.
use std::time::Instant;

fn main() {
    for n in [256usize, 1024] {
        let a: Vec<f32> = (0..n * n).map(|i| (i % 13) as f32 * 0.1).collect();
        let b = a.clone();
        let mut c = vec![0f32; n * n];
        let reps = if n == 256 { 200 } else { 10 };
        let mut best = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            for _ in 0..reps {
                // SAFETY: all three buffers hold n*n elements with row stride n.
                unsafe {
                    gemm::gemm(
                        n,
                        n,
                        n,
                        c.as_mut_ptr(),
                        1,
                        n as isize,
                        false,
                        a.as_ptr(),
                        1,
                        n as isize,
                        b.as_ptr(),
                        1,
                        n as isize,
                        0.0,
                        1.0,
                        false,
                        false,
                        false,
                        gemm::Parallelism::Rayon(rayon::current_num_threads()),
                    );
                }
            }
            best = best.min(t.elapsed().as_secs_f64() / reps as f64);
        }
        println!(
            "raw gemm {n}^2 f32: {:.2} ms {:.1} GFLOP/s",
            best * 1e3,
            2.0 * (n as f64).powi(3) / best / 1e9
        );
    }
}

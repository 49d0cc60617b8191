//! A loop of 10-element adds, for profiling the per-op overhead: `perf record` this.
use cudalearn::tensor::create::ones;
use cudalearn::tensor::ops::binary::add;
use cudalearn::tensor::Device;

fn main() {
    let x = ones(&[10], None, Device::Cpu).unwrap();
    let y = ones(&[10], None, Device::Cpu).unwrap();
    let t = std::time::Instant::now();
    for _ in 0..5_000_000 {
        std::hint::black_box(add(&x, &y).unwrap());
    }
    println!("{:.1} ns/add", t.elapsed().as_secs_f64() / 5e6 * 1e9);
}

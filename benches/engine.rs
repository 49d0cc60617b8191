//! `cargo bench`: the CPU engine's numbers (compare with `benches/pytorch_cpu.py`).
fn main() {
    cudalearn::bench::print_rows(&cudalearn::bench::cpu_suite());
}

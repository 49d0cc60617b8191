#!/bin/sh
# On a machine with an NVIDIA GPU and PyTorch: cudalearn's GPU checks and benchmarks next to
# PyTorch's, in one session. Usage: benches/gpu_side_by_side.sh CUDALEARN_BINARY PARITY_TEST_BINARY OUT_DIR
set -u
BIN=$1; PARITY=$2; OUT=$3
mkdir -p "$OUT"
"$BIN" info > "$OUT/info.txt" 2>&1
"$PARITY" --nocapture > "$OUT/parity.txt" 2>&1; echo "parity exit $?" >> "$OUT/parity.txt"
"$BIN" run tests/cuda/memory.py > "$OUT/memory_cudalearn.txt" 2>&1
python3 tests/cuda/memory.py > "$OUT/memory_pytorch.txt" 2>&1
"$BIN" lesson --check-all --device cuda > "$OUT/lessons_cuda.txt" 2>&1; echo "lessons exit $?" >> "$OUT/lessons_cuda.txt"
for i in 1 2; do
  "$BIN" bench >> "$OUT/bench_cudalearn.txt" 2>&1
  python3 benches/pytorch_gpu.py >> "$OUT/bench_pytorch.txt" 2>&1
done

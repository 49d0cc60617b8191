#!/bin/sh
# On a machine with an NVIDIA GPU and PyTorch: cudalearn's GPU checks and benchmarks next to
# PyTorch's on the same card, in one session, each step under a time limit so one hang cannot eat
# the machine's time. Usage (from the repository root):
#   benches/gpu_side_by_side.sh CUDALEARN_BINARY PARITY_TEST_BINARY OUT_DIR
# The parity binary is `cargo test --release --test cuda_parity --no-run`'s. Every step's full
# output lands in OUT_DIR (one file per step, and all of them in all.log as they finish); a short
# summary is printed last.
set -u
BIN=$1; PARITY=$2; OUT=$3
PY=${PYTHON:-python3}
mkdir -p "$OUT"
step() { # step NAME SECONDS CMD...: run CMD into OUT/NAME.txt, note its exit status and time
  name=$1; secs=$2; shift 2
  t0=$(date +%s.%N)
  timeout -k 5 "$secs" "$@" > "$OUT/$name.txt" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  printf '%-24s exit %3s  %6.1f s\n' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" | tee -a "$OUT/steps.txt"
  { echo "=== $name (exit $rc)"; cat "$OUT/$name.txt"; } >> "$OUT/all.log"
}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv > "$OUT/smi.txt" 2>&1
step info 30 "$BIN" info
step parity 180 "$PARITY" --nocapture --test-threads=1
step memory_cudalearn 60 "$BIN" run tests/cuda/memory.py
step memory_pytorch 90 "$PY" tests/cuda/memory.py
step lessons_cuda 180 "$BIN" lesson --check-all --device cuda
step amp_phases_cudalearn 90 "$BIN" run benches/gpu_amp_phases.py
step amp_phases_pytorch 90 "$PY" benches/gpu_amp_phases.py
for i in 1 2; do
  step "bench_cudalearn_$i" 90 "$BIN" bench
  step "bench_pytorch_$i" 90 "$PY" benches/pytorch_gpu.py
  step "train_cudalearn_$i" 120 "$BIN" run benches/gpu_train.py
  step "train_pytorch_$i" 120 "$PY" benches/gpu_train.py
done
echo "== smi"; cat "$OUT/smi.txt"
echo "== info"; head -30 "$OUT/info.txt"
echo "== parity (last lines)"; grep -E "^test |test result|SKIP|panicked|cuda_parity on" "$OUT/parity.txt" | head -20
echo "== memory: cudalearn vs PyTorch"; diff "$OUT/memory_cudalearn.txt" "$OUT/memory_pytorch.txt" && echo identical
echo "== lessons"; grep -vE "^✓" "$OUT/lessons_cuda.txt" | head -40
echo "== AMP phases: cudalearn, then PyTorch"
cat "$OUT/amp_phases_cudalearn.txt" "$OUT/amp_phases_pytorch.txt"
for i in 1 2; do
  echo "== bench pair $i (cudalearn, then PyTorch)"
  cat "$OUT/bench_cudalearn_$i.txt" "$OUT/bench_pytorch_$i.txt"
  echo "== train pair $i (cudalearn, then PyTorch)"
  cat "$OUT/train_cudalearn_$i.txt" "$OUT/train_pytorch_$i.txt"
done

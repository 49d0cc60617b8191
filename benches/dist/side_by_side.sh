#!/usr/bin/env bash
# Interleaved runs of the 2-rank all_reduce bench: PyTorch (gloo, via torch-golden's Python)
# and cudalearn (release build). Usage: benches/dist/side_by_side.sh [PAIRS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
golden=${TORCH_GOLDEN:-/work/shared/tools/torch-golden}
uptime
for i in $(seq "${1:-3}"); do
  echo "== pair $i: PyTorch"
  "$golden" "$here/torch_spawn.py" 2>/dev/null
  echo "== pair $i: cudalearn"
  "$root/target/release/cudalearn" run --nproc-per-node 2 --master-port 0 "$here/allreduce.py" | sed 's/^\[default0\]://'
done
uptime

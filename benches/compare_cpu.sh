#!/usr/bin/env bash
# Side by side: `cudalearn bench --cpu` and benches/pytorch_cpu.py, interleaved PAIRS times
# (default 3), then each row's ratio (PyTorch time / cudalearn time; above 1 = cudalearn faster)
# as min–max over the pairs. Needs a release build and ../shared/tools/torch-golden.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-3}
py=$(../shared/tools/torch-golden --python)
out=$(mktemp -d)
uptime
for i in $(seq "$pairs"); do
  target/release/cudalearn bench --cpu >"$out/ours.$i"
  "$py" benches/pytorch_cpu.py >"$out/torch.$i"
done
uptime
python3 - "$out" "$pairs" <<'PY'
import sys, re
out, pairs = sys.argv[1], int(sys.argv[2])
def rows(path):
    d = {}
    for line in open(path):
        m = re.match(r'(.{42}) +([0-9.]+) (\S+)', line)
        if m:
            d[m.group(1).strip()] = (float(m.group(2)), m.group(3))
    return d
ours = [rows(f"{out}/ours.{i}") for i in range(1, pairs + 1)]
torch = [rows(f"{out}/torch.{i}") for i in range(1, pairs + 1)]
print(f"{'row':<42} {'cudalearn':>10} {'PyTorch':>10}  ratio (min-max of {pairs} pairs)")
for name, (v, unit) in ours[0].items():
    rs = []
    for o, t in zip(ours, torch):
        if name in o and name in t and o[name][0] > 0 and t[name][0] > 0:
            # times: reference / ours; rates (GFLOP/s, M elem/s): ours / reference
            rs.append(t[name][0] / o[name][0] if unit == 'us' else o[name][0] / t[name][0])
    if rs:
        print(f"{name:<42} {v:>10.2f} {torch[0][name][0]:>10.2f}  {min(rs):.2f}-{max(rs):.2f}")
PY

#!/usr/bin/env bash
# Side by side on benches/cpu_rows.py: PyTorch and cudalearn processes alternate PAIRS times
# (default 4). Per row: the best batch over all runs of each side and its ratio, the median of
# the runs' medians and its ratio, and each pair's median ratio (PyTorch time / cudalearn
# time; above 1 = cudalearn faster). Needs a release build and ../shared/tools/torch-golden.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-4}
py=$(../shared/tools/torch-golden --python)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
uptime
for i in $(seq "$pairs"); do
  "$py" benches/cpu_rows.py 2>/dev/null >"$out/torch.$i"
  target/release/cudalearn run benches/cpu_rows.py >"$out/ours.$i"
done
uptime
python3 - "$out" "$pairs" <<'PY'
import statistics, sys
out, n = sys.argv[1], int(sys.argv[2])
def load(path):
    rows = {}
    for line in open(path):
        name, best, med = line.strip().split('|')
        rows[name] = (float(best), float(med))
    return rows
T = [load(f"{out}/torch.{i}") for i in range(1, n + 1)]
O = [load(f"{out}/ours.{i}") for i in range(1, n + 1)]
print(f"{'row':<16}{'torch best':>11}{'ours best':>10}{'ratio':>7}{'torch med':>11}{'ours med':>10}{'ratio':>7}  per pair")
for k in T[0]:
    tb, ob = min(t[k][0] for t in T), min(o[k][0] for o in O)
    tm, om = statistics.median(t[k][1] for t in T), statistics.median(o[k][1] for o in O)
    pairs = ' '.join('%.2f' % (t[k][1] / o[k][1]) for t, o in zip(T, O))
    print(f"{k:<16}{tb:>11.1f}{ob:>10.1f}{tb / ob:>7.2f}{tm:>11.1f}{om:>10.1f}{tm / om:>7.2f}  {pairs}")
PY

#!/usr/bin/env bash
# Side by side on the rows of benches/cpu_rows.py with both processes alive at once and taking
# turns in fixed time slots: PyTorch times one batch in slot 2j, cudalearn one in slot 2j + 1
# (SLOT_MS each, default 30), sleeping through the other's slots. A batch of one side is then at
# most one slot from its counterpart, where compare_rows.sh's whole-process turns are seconds
# apart, so the shared machine's slow phases (which last seconds) hit both sides alike.
# Each batch starts with one untimed call, so both find their data in cache.
# ROUNDS passes (default 4) over all rows, BATCHES batches per row and pass (default 5).
# Per row: the median batch of each side over everything, its ratio, and each round's ratio of
# medians (PyTorch time / cudalearn time; above 1 = cudalearn faster). A batch that ran past its
# slot is counted and reported (the slot is then too short for that row).
# Needs a release build and ../shared/tools/torch-golden.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-4}
batches=${BATCHES:-5}
slot_ms=${SLOT_MS:-60}
warm_ms=${WARM_MS:-10}
py=$(../shared/tools/torch-golden --python)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
body=$(sed '/^# --- the timing loop/,$d' benches/cpu_rows.py)
t0=$(python3 -c 'import time; print(time.time() + 10)')
for side in 0 1; do
  {
    echo "$body"
    cat <<PY
T0 = $t0
SIDE = $side
SLOT = $slot_ms / 1000
WARM = $warm_ms / 1000
def wait_until(t):
    while True:
        left = t - time.time()
        if left <= 0:
            return
        if left > 0.004:
            time.sleep(left - 0.003)
slot = 0
late = 0
for r in range($rounds):
    for name, fn, reps in rows:
        for k in range($batches):
            start = T0 + (2 * slot + SIDE) * SLOT
            slot += 1
            wait_until(start)
            # warm up: caches, and the helper threads, which parked while the other side ran
            w = time.perf_counter() + WARM
            fn()
            while time.perf_counter() < w:
                fn()
            t = time.perf_counter()
            for _ in range(reps):
                fn()
            dt = (time.perf_counter() - t) / reps
            if time.time() > start + SLOT:
                late += 1
            print("%d|%s|%.2f" % (r, name, dt * 1e6))
print("late|%d" % late)
PY
  } >"$out/script.$side.py"
done
uptime
"$py" "$out/script.0.py" 2>/dev/null >"$out/torch" &
target/release/cudalearn run "$out/script.1.py" >"$out/ours"
wait
uptime
python3 - "$out" "$rounds" <<'PY'
import statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(path):
    rows, late = {}, 0
    for line in open(path):
        f = line.strip().split('|')
        if f[0] == 'late':
            late = int(f[1])
            continue
        rows.setdefault(f[1], [[] for _ in range(rounds)])[int(f[0])].append(float(f[2]))
    return rows, late
T, tl = load(f"{out}/torch")
O, ol = load(f"{out}/ours")
print(f"batches past their slot: PyTorch {tl}, cudalearn {ol}")
print(f"{'row':<20}{'torch med':>10}{'ours med':>10}{'ratio':>7}  per round")
for k in T:
    tm = statistics.median(x for r in T[k] for x in r)
    om = statistics.median(x for r in O[k] for x in r)
    per = ' '.join('%.2f' % (statistics.median(t) / statistics.median(o)) for t, o in zip(T[k], O[k]))
    print(f"{k:<20}{tm:>10.1f}{om:>10.1f}{tm / om:>7.2f}  {per}")
PY

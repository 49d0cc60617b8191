#!/usr/bin/env bash
# Times each benches/lang/*.py under python3 and under cudalearn, interleaved, PAIRS times.
# Each run executes the script's main() 5 times in one process and reports the best time, so
# start-up is not counted. Usage: benches/lang_side_by_side.sh [PAIRS] [NAME...]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
bin="${CUDALEARN:-$here/../target/release/cudalearn}"
pairs="${1:-3}"
shift || true
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    names=()
    for f in "$here"/lang/*.py; do names+=("$(basename "$f" .py)"); done
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "load: $(uptime | sed 's/.*load/load/')"
printf '%-14s %-22s %-22s %s\n' bench "python3 ms" "cudalearn ms" "ratio (py/cl)"
for name in "${names[@]}"; do
    prog="$tmp/$name.py"
    cat "$here/lang/$name.py" > "$prog"
    cat >> "$prog" <<'PY'

import time as _time
_best = 1e9
for _k in range(5):
    _t0 = _time.perf_counter()
    main()
    _best = min(_best, _time.perf_counter() - _t0)
print("%.3f" % (_best * 1000))
PY
    py=(); cl=(); ratios=()
    for _ in $(seq "$pairs"); do
        p="$(python3 "$prog" 2>/dev/null | tail -1)"
        c="$("$bin" run "$prog" 2>/dev/null | tail -1)"
        py+=("${p:-NA}"); cl+=("${c:-NA}")
        ratios+=("$(python3 -c "
try: print('%.2f' % (float('$p') / float('$c')))
except Exception: print('NA')")")
    done
    printf '%-14s %-22s %-22s %s\n' "$name" "${py[*]}" "${cl[*]}" "${ratios[*]}"
done

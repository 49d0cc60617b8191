#!/bin/sh
# Regenerate the expected stderr/stdout of every traceback case in this directory.
# Each NAME.py runs under CPython (python3, 3.11) from this directory; its stderr is stored in
# NAME.stderr and its stdout (when it printed anything) in NAME.stdout, with this directory's
# absolute path replaced by the literal text {DIR}.
#
#     sh tests/tracebacks/gen.sh            # all cases
#     sh tests/tracebacks/gen.sh NAME.py    # some cases
set -eu
cd "$(dirname "$0")"
dir=$(pwd -P)
if [ $# -eq 0 ]; then set -- *.py; fi
for f in "$@"; do
    name=${f%.py}
    # The cases are meant to fail; record whatever they print and the exit status.
    set +e
    python3 "$name.py" >"$name.stdout.tmp" 2>"$name.stderr.tmp"
    rc=$?
    set -e
    # {DIR} substitution: plain string replace (the path may contain regex metacharacters).
    DIR="$dir" python3 -c '
import os, sys
d = os.environ["DIR"]
for p in sys.argv[1:]:
    with open(p) as fh:
        text = fh.read()
    with open(p, "w") as fh:
        fh.write(text.replace(d, "{DIR}"))
' "$name.stdout.tmp" "$name.stderr.tmp"
    mv "$name.stderr.tmp" "$name.stderr"
    if [ -s "$name.stdout.tmp" ]; then
        mv "$name.stdout.tmp" "$name.stdout"
    else
        rm -f "$name.stdout.tmp" "$name.stdout"
    fi
    echo "$name: exit $rc"
done

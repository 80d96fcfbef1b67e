#!/usr/bin/env bash
# How `cmdbench compare`'s CPU time grows with the size of a results file it
# must refuse or read: files of N empty objects, in each shape the
# reader meets them. Parsing should be linear in the file size; a quadratic
# step shows as the time quadrupling when N doubles. See bench/README.md.
#   bench/compare_input.sh              N = 25000 50000 100000 400000
#   COUNTS="100000 200000" bench/compare_input.sh
# Environment: CMDBENCH_BINARY_DIR (default build), COUNTS, TIMEOUT (default
# 300: seconds per compare; a run killed at it reads "timeout").
# Prints one line per (shape, N): bytes, exit status, user + system CPU
# seconds, and the first line of stderr. Exit status 0 (a measurement), 2
# when there is no cmdbench binary.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
bindir=${CMDBENCH_BINARY_DIR:-$src/build}
bin=$bindir/bin/cmdbench
counts=${COUNTS:-25000 50000 100000 400000}
limit=${TIMEOUT:-300}

[ -x "$bin" ] || { echo "no cmdbench at $bin (build it, or set CMDBENCH_BINARY_DIR)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The file of one shape with n empty objects.
make_file() { # shape n path
    python3 - "$1" "$2" "$3" <<'EOF'
import sys
shape, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
objs = ",".join(["{}"] * n)
head = '{"schema": "cmdbench-results", "schema_version": 1, "context": {"host": "h"}, '
text = {
    "array": "[" + objs + "]",
    "runs-only": '{"runs":[' + objs + "]}",
    "results-runs": head + '"runs": [' + objs + "]}",
    "results-rows": head + '"runs": [{"name": "a", "test": "t", "status": "ok", "rows": [' +
                    objs + "]}]}",
}[shape]
open(path, "w").write(text)
EOF
}

printf '%-13s %8s %10s %5s %9s  %s\n' shape N bytes exit cpu_s stderr
for shape in array runs-only results-runs results-rows; do
    for n in $counts; do
        f=$tmp/$shape-$n.json
        make_file "$shape" "$n" "$f"
        bytes=$(stat -c %s "$f")
        # %U + %S: the CPU the parse costs, whatever else runs on the machine.
        timeout "$limit" /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" compare "$f" \
            >/dev/null 2>"$tmp/err"
        rc=$?
        if [ "$rc" = 124 ]; then
            cpu="timeout"
        else
            cpu=$(tail -n 1 "$tmp/time" | awk '{printf "%.2f", $1 + $2}')
        fi
        printf '%-13s %8s %10s %5s %9s  %s\n' "$shape" "$n" "$bytes" "$rc" "$cpu" \
            "$(head -c 150 "$tmp/err" | head -n 1 | sed "s|$tmp/||")"
        rm -f "$f"
    done
done

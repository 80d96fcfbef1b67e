#!/usr/bin/env bash
# The size of the matrix HTML page for synthetic all-pairs jobs of 64, 256
# and 1,024 ranks (bench/matrix_html.cpp), built against a host build tree:
#   bench/matrix-html.sh [HOST_BUILD_DIR]     (default: build)
# Prints a line per size: ranks, pairs, the page's bytes and the seconds it
# took to write. The pages are left in the bench build directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
host_build=$(cd "${1:-$root/build}" && pwd)
out=$host_build/matrix-html-bench
cmake -S "$root/bench" -B "$out" -DCMDBENCH_BUILD_DIR="$host_build" >/dev/null
cmake --build "$out" --target matrix_html -j2 >/dev/null
for n in 64 256 1024; do
  "$out/matrix_html" "$n" "$out/matrix-$n.html"
done

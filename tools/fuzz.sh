#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz and runs each one,
# bounded, over its checked-in corpus (tests/fuzz/corpus/NAME). Fails when a
# target crashes, leaks, times out or runs out of memory; the input that did
# it is left in build-fuzz/crashes/NAME/.
#   tools/fuzz.sh [SECONDS]   seconds per target (default 60)
# Environment: FUZZ_JOBS (build parallelism, default nproc), CC/CXX (clang).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
case $seconds in
'' | *[!0-9]* | 0) echo "usage: tools/fuzz.sh [SECONDS]: SECONDS must be a positive integer" >&2; exit 2 ;;
esac
jobs=${FUZZ_JOBS:-$(nproc)}
export CC=${CC:-clang} CXX=${CXX:-clang++}
targets=(control results scenario hist_wire)

cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMDBENCH_FUZZ=ON \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" >/dev/null
cmake --build build-fuzz -j"$jobs" --target "${targets[@]/#/fuzz_}"

status=0
for name in "${targets[@]}"; do
  corpus=tests/fuzz/corpus/$name
  # New inputs go to a scratch directory: the checked-in corpus only changes
  # by hand (minimised seeds and regression inputs).
  scratch=build-fuzz/corpus/$name
  crashes=build-fuzz/crashes/$name
  mkdir -p "$scratch" "$crashes"
  echo "fuzz_$name: ${seconds}s over $corpus"
  if ! build-fuzz/bin/fuzz_"$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" "$scratch" "$corpus" \
    >build-fuzz/fuzz_"$name".log 2>&1; then
    tail -n 60 build-fuzz/fuzz_"$name".log >&2
    echo "fuzz_$name: FAILED (input in $crashes/, log in build-fuzz/fuzz_$name.log)" >&2
    status=1
  else
    grep -E '^stat::number_of_executed_units|^Done' build-fuzz/fuzz_"$name".log || true
  fi
done
exit $status

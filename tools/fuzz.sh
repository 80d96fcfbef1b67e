#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz and runs each one,
# bounded, over its checked-in corpus (tests/fuzz/corpus/NAME). Fails when a
# target crashes, leaks, times out or runs out of memory; the input that did
# it is left in build-fuzz/crashes/NAME/.
#   tools/fuzz.sh [SECONDS]      seconds per target (default 60)
#   tools/fuzz.sh --build-only   only build the targets
# Environment: FUZZ_JOBS (build parallelism, default nproc), FUZZ_PARALLEL
# (targets run at once, default nproc), CC/CXX (clang).
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [ "${1:-}" = --build-only ]; then build_only=1; shift; fi
seconds=${1:-60}
case $seconds in
'' | *[!0-9]* | 0) echo "usage: tools/fuzz.sh [--build-only] [SECONDS]: SECONDS must be a positive integer" >&2; exit 2 ;;
esac
jobs=${FUZZ_JOBS:-$(nproc)}
export CC=${CC:-clang} CXX=${CXX:-clang++}
targets=(control results scenario hist_wire)

cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMDBENCH_FUZZ=ON \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" >/dev/null
cmake --build build-fuzz -j"$jobs" --target "${targets[@]/#/fuzz_}"
[ "$build_only" = 0 ] || exit 0

# fuzz_one NAME: runs one target for $seconds; its log is build-fuzz/fuzz_NAME.log.
fuzz_one() {
  local name=$1 corpus=tests/fuzz/corpus/$1 scratch=build-fuzz/corpus/$1 crashes=build-fuzz/crashes/$1
  # New inputs go to a scratch directory: the checked-in corpus only changes
  # by hand (minimised seeds and regression inputs).
  mkdir -p "$scratch" "$crashes"
  # The dictionary gives mutations the format's tokens (TOML's dots and
  # brackets, JSON's names, the frame magic) to splice in.
  build-fuzz/bin/fuzz_"$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -dict=tests/fuzz/dict/"$name".dict \
    -print_final_stats=1 -artifact_prefix="$crashes/" "$scratch" "$corpus" \
    >build-fuzz/fuzz_"$name".log 2>&1
}

# The targets run side by side, FUZZ_PARALLEL at a time (default: one per
# CPU): each is one single-threaded process, so each still gets a CPU of its
# own for its $seconds, and the step takes seconds x targets / CPUs.
parallel=${FUZZ_PARALLEL:-$jobs}
case $parallel in '' | *[!0-9]* | 0) echo "FUZZ_PARALLEL must be a positive integer" >&2; exit 2 ;; esac
declare -A pid_of
status=0
pending=("${targets[@]}")
running=()
report() { # report NAME EXIT-STATUS
  if [ "$2" != 0 ]; then
    tail -n 60 build-fuzz/fuzz_"$1".log >&2
    echo "fuzz_$1: FAILED (input in build-fuzz/crashes/$1/, log in build-fuzz/fuzz_$1.log)" >&2
    status=1
  else
    echo "fuzz_$1: ${seconds}s over tests/fuzz/corpus/$1"
    grep -E '^stat::number_of_executed_units|^Done' build-fuzz/fuzz_"$1".log || true
  fi
}
while [ "${#pending[@]}" -gt 0 ] || [ "${#running[@]}" -gt 0 ]; do
  while [ "${#pending[@]}" -gt 0 ] && [ "${#running[@]}" -lt "$parallel" ]; do
    fuzz_one "${pending[0]}" &
    pid_of[${pending[0]}]=$!
    running+=("${pending[0]}")
    pending=("${pending[@]:1}")
  done
  wait -n || true
  still=()
  for name in "${running[@]}"; do
    if kill -0 "${pid_of[$name]}" 2>/dev/null; then
      still+=("$name")
    else
      rc=0
      wait "${pid_of[$name]}" || rc=$?
      report "$name" "$rc"
    fi
  done
  running=("${still[@]}")
done
exit $status

#!/usr/bin/env bash
# The test suite.
#   tools/test.sh           the whole suite (what CI runs; about 42 minutes on
#                           2 CPUs, within its budget of 45)
#   tools/test.sh --quick   plain build, unit and end-to-end tests: the
#                           edit-build-test loop (under 10 minutes from clean)
#
# The whole suite builds cmdbench three times -- as shipped, with
# AddressSanitizer + UndefinedBehaviorSanitizer, and with ThreadSanitizer --,
# runs ctest in each, then runs the libFuzzer targets for a bounded time.
# The RDMA lab tests (label `rdma`, run inside QEMU guests) run once, in the
# plain build: they exercise the kernel's and rdma-core's code, not ours.
# So does the 64-rank matrix (label `scale`): its code paths are the small
# matrix tests', which the sanitizer builds run.
#
# Where the time goes, and why it is laid out this way:
# - ctest runs tests side by side (-j). Tests that measure timing or load,
#   or keep every CPU busy (the lab boots, the 64-rank matrix, the checks
#   that compare measured figures), are RUN_SERIAL in their CMakeLists:
#   nothing of the suite's own runs beside them. Launcher tests count as 2
#   CPUs (PROCESSORS).
# - The sanitizer and fuzz builds run in the background at the lowest CPU
#   priority (SCHED_IDLE, nice 19) while the plain build's tests run: they
#   take only the CPU those tests leave idle (the lab's guests wait on
#   timeouts and emulated devices), so no measured figure is disturbed.
# - The fuzz targets run side by side, one per CPU (tools/fuzz.sh).
# It ends with a table of each stage's wall time and the 15 slowest tests
# (tools/test-timing.py), and a warning above the 45-minute budget.
#
# Environment:
#   FUZZ_SECONDS  seconds per fuzz target (default 60; 0 skips fuzzing)
#   TEST_JOBS     tests ctest runs at once (default: CPUs + 1)
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
}
quick=0
case ${1:-} in
'') ;;
--quick) quick=1 ;;
-h | --help) usage; exit 0 ;;
*) echo "tools/test.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
esac

jobs=$(nproc)
# One more test than CPUs: most end-to-end tests wait on sockets and child
# processes a good part of their time.
test_jobs=${TEST_JOBS:-$((jobs + 1))}
fuzz_seconds=${FUZZ_SECONDS:-60}
for v in test_jobs fuzz_seconds; do
  case ${!v} in '' | *[!0-9]*) echo "tools/test.sh: ${v^^} must be a whole number, got '${!v}'" >&2; exit 2 ;; esac
done
[ "$test_jobs" -ge 1 ] || { echo "tools/test.sh: TEST_JOBS must be at least 1" >&2; exit 2; }
budget_seconds=$((quick ? 600 : 2700))
timing=$PWD/build-timing
rm -rf "$timing"
mkdir -p "$timing"
suite_start=${EPOCHREALTIME/./}

# record NAME START-US EXIT-STATUS [NOTE]: one line of the timing table.
record() {
  local us=$((${EPOCHREALTIME/./} - $2))
  printf '%s\t%d.%01d\t%s\t%s\n' "$1" $((us / 1000000)) $((us / 100000 % 10)) "$3" "${4:-}" \
    >>"$timing/stages.tsv"
}
# stage NAME COMMAND...: runs COMMAND, records its wall time and exit status.
stage() {
  local name=$1 t0=${EPOCHREALTIME/./} rc=0
  shift
  echo "== $name"
  "$@" || rc=$?
  record "$name" "$t0" "$rc"
  return "$rc"
}
# ctest_in DIR ARGS...: ctest in DIR, its per-test times in $timing/DIR/junit.xml.
ctest_in() {
  local dir=$1
  shift
  mkdir -p "$timing/$dir"
  (cd "$dir" && ctest --output-on-failure --timeout 1200 -j"$test_jobs" \
    --output-junit "$timing/$dir/junit.xml" "$@")
}
# build DIR CMAKE-ARGS...: configure and build one tree.
build() {
  local dir=$1
  shift
  cmake -S . -B "$dir" "$@" >/dev/null && cmake --build "$dir" -j"$jobs"
}
finish() {
  record "whole suite" "$suite_start" "$1" total
  python3 tools/test-timing.py "$timing/stages.tsv" "$budget_seconds" "$timing"/*/junit.xml || true
  exit "$1"
}

stage "build plain" build build -DCMAKE_BUILD_TYPE=RelWithDebInfo

status=0
if [ "$quick" = 1 ]; then
  stage "ctest plain: unit, e2e" ctest_in build -L 'unit|e2e' -LE 'rdma|scale|lab' || status=1
  finish $status
fi

# background_build NAME COMMAND...: one background build; its time goes to
# the table, its exit status to $timing/build-NAME.rc (read by built, below).
background_build() {
  local name=$1 t0=${EPOCHREALTIME/./} rc=0
  shift
  "$@" || rc=$?
  record "build $name" "$t0" "$rc" background
  echo "$rc" >"$timing/build-$name.rc"
}
# The other builds, one after another in the background (see the top).
background_builds() {
  # SCHED_IDLE where the kernel has it: CPU only when nothing else wants it.
  renice -n 19 -p "$BASHPID" >/dev/null
  chrt --idle -p 0 "$BASHPID" 2>/dev/null || true
  background_build asan build build-asan -DCMAKE_BUILD_TYPE=Debug -DCMDBENCH_SANITIZE=ON
  background_build tsan build build-tsan -DCMAKE_BUILD_TYPE=Debug -DCMDBENCH_TSAN=ON
  if [ "$fuzz_seconds" != 0 ]; then
    background_build fuzz tools/fuzz.sh --build-only
  fi
}
echo "== build asan, tsan, fuzz: in the background at nice 19 (log: build-timing/background-builds.log)"
# In a process group of its own (set -m), so that whatever happens no build
# is left running behind the suite.
set -m
background_builds >"$timing/background-builds.log" 2>&1 </dev/null &
background=$!
set +m
trap 'kill -- "-$background" 2>/dev/null || true' EXIT

stage "ctest plain" ctest_in build || status=1

stage "wait for the background builds" wait "$background" || true
trap - EXIT
# built NAME: whether the background build NAME succeeded (says so if not).
built() {
  if [ "$(cat "$timing/build-$1.rc" 2>/dev/null)" = 0 ]; then return 0; fi
  echo "build $1 FAILED: its tests do not run; the end of build-timing/background-builds.log:" >&2
  tail -n 60 "$timing/background-builds.log" >&2
  status=1
  return 1
}

if built asan; then
  stage "ctest asan" ctest_in build-asan -LE 'rdma|scale' || status=1
fi
# ThreadSanitizer on the host's threads (test workers, the control channel,
# serve's sessions): unit and end-to-end tests. The rstream front end's
# parity runs against Debian's rstream are left out: they run whole default
# suites, 10-50x slower under TSan, through the same host code the e2e tests
# already cover, and so are the scale tests (label scale), as under ASan.
# A race report makes the process exit 66, failing its test.
if built tsan; then
  stage "ctest tsan" ctest_in build-tsan -L 'unit|e2e' -LE scale -E '^e2e-rstream:' || status=1
fi
if [ "$fuzz_seconds" != 0 ] && built fuzz; then
  stage "fuzz (${fuzz_seconds} s per target, $jobs at once)" tools/fuzz.sh "$fuzz_seconds" || status=1
fi
finish $status

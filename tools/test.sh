#!/usr/bin/env bash
# The test suite.
#   tools/test.sh           the whole suite (what CI runs; 35-46 minutes on
#                           2 CPUs, against its budget of 45)
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
#   that compare measured figures, the pairs of busy-polling peers tagged
#   [busy-poll]), are RUN_SERIAL in their CMakeLists:
#   nothing of the suite's own runs beside them. Launcher tests count as 2
#   CPUs (PROCESSORS).
# - The sanitizer and fuzz builds, then the fuzz targets' run, go one after
#   another in the background at the lowest CPU priority (SCHED_IDLE, nice
#   19) while the plain build's tests run: they take only the CPU those
#   tests leave idle (the lab's guests wait on timeouts and emulated
#   devices), so no measured figure is disturbed. Each sanitizer's tests
#   start as soon as its own build is done.
# - The fuzz targets (tools/fuzz.sh) so run beside the sanitizers' tests,
#   for FUZZ_SECONDS of wall time each, on the CPU those tests leave: a
#   smoke run over the checked-in corpus and its regression inputs. A long
#   fuzzing session is tools/fuzz.sh SECONDS on its own.
# - The sanitized trees leave out the tests tagged [scale] (a huge input,
#   every size of a suite): their code paths are the small tests', and
#   sanitized they took one to three minutes each.
# It ends with a table of each stage's wall time and the 15 slowest tests
# (tools/test-timing.py), and a warning above the 45-minute budget.
#
# Environment:
#   FUZZ_SECONDS  seconds per fuzz target, all targets at once (default 60;
#                 0 skips fuzzing)
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

# The other builds, and the fuzz targets' run, one after another in the
# background at the lowest priority (see the top). Each step holds a lock
# file of its own from before the chain starts until the step ends (or dies:
# its descriptor closes with it); `await` waits on that lock, so each stage
# below starts the moment the step it needs is done, not after the others.
# background_step ID NAME COMMAND...: one step; its time goes to the table
# as NAME, its exit status to $timing/ID.rc (read by `await`).
background_step() {
  local id=$1 name=$2 t0=${EPOCHREALTIME/./} rc=0
  shift 2
  "$@" || rc=$?
  record "$name" "$t0" "$rc" background
  echo "$rc" >"$timing/$id.rc"
}
background_steps() {
  # SCHED_IDLE where the kernel has it: CPU only when nothing else wants it.
  renice -n 19 -p "$BASHPID" >/dev/null
  chrt --idle -p 0 "$BASHPID" 2>/dev/null || true
  background_step asan "build asan" build build-asan -DCMAKE_BUILD_TYPE=Debug -DCMDBENCH_SANITIZE=ON
  exec 7>&-
  background_step tsan "build tsan" build build-tsan -DCMAKE_BUILD_TYPE=Debug -DCMDBENCH_TSAN=ON
  exec 8>&-
  if [ "$fuzz_seconds" != 0 ]; then
    background_step fuzz-build "build fuzz" tools/fuzz.sh --build-only
    if [ "$(cat "$timing/fuzz-build.rc")" = 0 ]; then
      # All targets at once: each has its seconds of wall time whatever the
      # CPUs, so the run ends FUZZ_SECONDS after it starts, not twice that.
      FUZZ_PARALLEL=64 background_step fuzz "fuzz (${fuzz_seconds} s per target, at nice 19)" \
        tools/fuzz.sh "$fuzz_seconds"
    else
      cp "$timing/fuzz-build.rc" "$timing/fuzz.rc"
    fi
  fi
  exec 9>&-
}
exec 7>"$timing/step-7.lock" 8>"$timing/step-8.lock" 9>"$timing/step-9.lock"
flock 7 && flock 8 && flock 9
echo "== build asan, tsan, fuzz, then the fuzz run: in the background at nice 19 (log: build-timing/background.log)"
# In a process group of its own (set -m), so that whatever happens nothing
# is left running behind the suite.
set -m
background_steps >"$timing/background.log" 2>&1 </dev/null &
background=$!
set +m
exec 7>&- 8>&- 9>&- # the chain holds the locks now, not this shell
trap 'kill -- "-$background" 2>/dev/null || true' EXIT

stage "ctest plain" ctest_in build || status=1

# await FD ID WHAT: waits (a stage of its own) until the background step
# behind lock FD ends, then says whether step ID succeeded (and if not, why).
await() {
  stage "wait for $3" flock "$timing/step-$1.lock" true || true
  if [ "$(cat "$timing/$2.rc" 2>/dev/null)" = 0 ]; then return 0; fi
  echo "$3 FAILED: the end of build-timing/background.log:" >&2
  tail -n 60 "$timing/background.log" >&2
  status=1
  return 1
}

if await 7 asan "the asan build"; then
  stage "ctest asan" ctest_in build-asan -LE 'rdma|scale' || status=1
fi
# ThreadSanitizer on the host's threads (test workers, the control channel,
# serve's sessions): unit and end-to-end tests. The rstream front end's
# parity runs against Debian's rstream are left out: they run whole default
# suites, 10-50x slower under TSan, through the same host code the e2e tests
# already cover, and so are the scale tests (label scale), as under ASan.
# A race report makes the process exit 66, failing its test.
if await 8 tsan "the tsan build"; then
  stage "ctest tsan" ctest_in build-tsan -L 'unit|e2e' -LE scale -E '^e2e-rstream:' || status=1
fi
if [ "$fuzz_seconds" != 0 ]; then
  await 9 fuzz "the fuzz targets" || true
  grep -E '^fuzz_|^stat::number_of_executed_units' "$timing/background.log" || true
fi
trap - EXIT
finish $status

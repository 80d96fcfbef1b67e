# shellcheck shell=bash disable=SC2034
# Helpers for the lab's in-guest checks (tests/lab/guest.d/*.sh); sourced by
# guest-suite.sh before each check. Bash.
set -u

addr=${CMDBENCH_RDMA_ADDR:?not in the lab}
dev=${CMDBENCH_RDMA_DEV:?not in the lab}

# fail MESSAGE: print and exit 1
fail() { echo "FAIL: $*"; exit 1; }

# retry N CMD...: run CMD up to N times, 1 s apart, until it succeeds.
# For clients racing a server that is still starting.
retry() {
  local n=$1 i; shift
  for ((i = 1; i <= n; i++)); do
    "$@" && return 0
    echo "(attempt $i of $n failed: $*)"
    sleep 1
  done
  return 1
}

# wait_listen PORT [SECONDS]: wait until something listens on TCP PORT
# (rsockets and TCP; not rdma_cm).
wait_listen() {
  local port=$1 secs=${2:-30} i
  for ((i = 0; i < secs * 5; i++)); do
    ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && return 0
    sleep 0.2
  done
  return 1
}

# bg_server LOG CMD...: start CMD in the background with its output in LOG;
# sets $server_pid. stop_server waits for it (or kills it after SECONDS).
bg_server() {
  local log=$1; shift
  "$@" > "$log" 2>&1 &
  server_pid=$!
}
wait_server() {
  local secs=${1:-30} i
  for ((i = 0; i < secs * 5; i++)); do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null
    return 124
  fi
  wait "$server_pid"
}

# need_cmdbench: sets $cb to the cmdbench under test, or fails.
need_cmdbench() {
  cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
  [ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
}

# write_scenario FILE TIMEOUT [NAME] < TOML: FILE gets the scenario NAME (if
# given), a [defaults] table with TIMEOUT and bind_address = the RDMA
# address, then stdin (more defaults, the [[run]] tables).
write_scenario() {
  {
    [ -z "${3:-}" ] || echo "name = \"$3\""
    printf '[defaults]\ntimeout = %s\nbind_address = "%s"\n' "$2" "$addr"
    cat
  } > "$1"
}

# run_scenario FILE.toml [WANT_RC]: `cmdbench run` (after need_cmdbench), the
# JSON in FILE.json, the table in FILE.txt and the log in FILE.err (both
# printed); fails unless it exits WANT_RC (default 0). `cmdbench run` also
# gets the words of $run_args (with_verbs_faults sets them).
run_args=()
run_scenario() {
  local base=${1%.toml} want=${2:-0} rc
  "$cb" run "$1" "${run_args[@]}" --format json -o "$base.txt" > "$base.json" 2> "$base.err"
  rc=$?
  cat "$base.txt" "$base.err"
  [ "$rc" = "$want" ] ||
    fail "cmdbench run $1 exited $rc, want $want: $(run_failures "$base.json" "$base.err")"
}

# run_failures FILE.json FILE.err: why a `cmdbench run` failed, on one line
# (a FAIL line is what a test summary keeps): each run that did not end ok,
# with its status and error; else, as when the JSON is unreadable, the last
# line of the log.
run_failures() {
  python3 - "$1" <<'PY' 2> /dev/null || tail -n 1 "$2"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
bad = [f"{r['name']}: {r['status']}: {r.get('error') or '-'}" for r in runs if r["status"] != "ok"]
assert bad
print("; ".join(bad))
PY
}

# with_verbs_faults COMMAND...: COMMAND (a run_scenario) with plugin verbs
# as built with its faults (tests/lab/verbs-faults; the shipped plugin reads
# none) in place of the shipped one, and no other plugin. The fault's
# variable goes before it:
#   CMDBENCH_VERBS_TEST_LATE_START_MS=1000 with_verbs_faults run_scenario late.toml
with_verbs_faults() {
  local dir="$CMDBENCH_BINARY_DIR/tests/lab/verbs-faults/plugins" rc
  [ -f "$dir/cmdbench-verbs.so" ] || fail "no $dir/cmdbench-verbs.so: build target verbs_faults"
  run_args=(--no-default-plugins --plugin-dir "$dir")
  "$@"
  rc=$?
  run_args=()
  return $rc
}

# check_results FILE.json [ARG...] < PYTHON: runs the check on stdin with
# `runs` (FILE's runs by name) and metrics(row) (a row's metric values) set;
# sys.argv[1:] holds FILE.json and the ARGs.
check_results() {
  python3 -c 'import json, sys
runs = {r["name"]: r for r in json.load(open(sys.argv[1]))["runs"]}
def metrics(row):
    return {k: v["value"] for k, v in row["metrics"].items()}
'"$(cat)" "$@"
}

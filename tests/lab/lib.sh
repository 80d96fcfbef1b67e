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

# Ctrl-C (SIGINT to `cmdbench run`) in the middle of a verbs-bw send run and
# of a verbs-lat run: the run must stop within seconds, never past the 5 s
# grace (never "did not stop"), as interrupted with the first size's row
# kept, exit 130, and the local server must be gone.
need_cmdbench
. "$CMDBENCH_SOURCE_DIR/tests/lab/lib-run-stop.sh"
interrupted() {
  local name=$1 test=$2 op=$3 first=$4 server
  stop_scenario "$name" "$test" "$op"
  start_run "$name"
  wait_sent "$name"
  server=$(pgrep -P "$run_pid" -x cmdbench) || fail "$name: no local server"
  kill -INT "$run_pid"
  stop_t0=$EPOCHREALTIME
  wait_run_end "$name" 8
  [ "$run_rc" = 130 ] || fail "$name: exit $run_rc, want 130"
  check_stopped "$name" interrupted "" "$first"
  ! kill -0 "$server" 2>/dev/null || fail "$name: the local server is still running"
}
interrupted bw-send verbs-bw send 4k
interrupted lat-send verbs-lat send 64_lat

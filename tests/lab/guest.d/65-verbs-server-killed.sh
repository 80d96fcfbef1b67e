# The local server that `cmdbench run` started is killed (SIGKILL) in the
# middle of a verbs-bw send, verbs-bw write and verbs-lat run: the client
# must end within seconds (not at the run's 40 s timeout), the run failed
# with the server's death named, the first size's row kept.
need_cmdbench
. "$CMDBENCH_SOURCE_DIR/tests/lab/lib-run-stop.sh"
server_killed() {
  local name=$1 test=$2 op=$3 first=$4 server
  stop_scenario "$name" "$test" "$op"
  start_run "$name"
  wait_sent "$name"
  server=$(pgrep -P "$run_pid" -x cmdbench) || fail "$name: no local server"
  kill -9 "$server"
  stop_t0=$EPOCHREALTIME
  wait_run_end "$name" 10
  [ "$run_rc" = 1 ] || fail "$name: exit $run_rc, want 1"
  check_stopped "$name" failed "the local server was killed (SIGKILL) during run '$name'" "$first"
}
server_killed bw-send verbs-bw send 4k
server_killed bw-write verbs-bw write 4k
server_killed lat-send verbs-lat send 64_lat

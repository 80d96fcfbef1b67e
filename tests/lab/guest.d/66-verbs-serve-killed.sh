# A `cmdbench serve` named with --server is killed (SIGKILL) in the middle
# of a verbs-bw send, verbs-bw write and verbs-lat run: the client must end
# within seconds (not at the run's 40 s timeout), the run failed naming the
# lost server, the first size's row kept.
need_cmdbench
. "$CMDBENCH_SOURCE_DIR/tests/lab/lib-run-stop.sh"
serve_killed() {
  local name=$1 test=$2 op=$3 first=$4 port=$5 serve
  "$cb" serve --bind "$addr" --port "$port" --once --quiet > "$name-serve.log" 2>&1 &
  serve=$!
  wait_listen "$port" 30 || { cat "$name-serve.log"; fail "$name: cmdbench serve did not listen"; }
  stop_scenario "$name" "$test" "$op"
  start_run "$name" --server "$addr:$port"
  wait_sent "$name"
  kill -9 "$serve"
  stop_t0=$EPOCHREALTIME
  wait "$serve" 2>/dev/null
  wait_run_end "$name" 10
  [ "$run_rc" = 1 ] || fail "$name: exit $run_rc, want 1"
  check_stopped "$name" failed "lost server $addr:$port during run '$name'" "$first"
}
serve_killed bw-send verbs-bw send 4k 7661
serve_killed bw-write verbs-bw write 4k 7662
serve_killed lat-send verbs-lat send 64_lat 7663

# The local server that `cmdbench run` started is killed (SIGKILL) in the
# middle of a throughput run over rsocket and of a cm-steps run (plugins
# rsocket and rdmacm; verbs: 65): the client must end within seconds (not at
# the run's 40 s timeout), the run failed with the server's death named.
need_cmdbench
. "$CMDBENCH_SOURCE_DIR/tests/lab/lib-run-stop.sh"
server_killed() {
  local name=$1 packets=$2 rows=("${@:3}") server
  start_run "$name"
  wait_sent "$name" "$packets"
  server=$(pgrep -P "$run_pid" -x cmdbench) || fail "$name: no local server"
  kill -9 "$server"
  stop_t0=$EPOCHREALTIME
  wait_run_end "$name" 10
  [ "$run_rc" = 1 ] || fail "$name: exit $run_rc, want 1"
  check_stopped "$name" failed "the local server was killed (SIGKILL) during run '$name'" "${rows[@]}"
}
# No bind_address: the local server meets the client on rxe0's address.
cat > rsocket-tput.toml <<TOML
[[run]]
name = "rsocket-tput"
timeout = 40
test = "throughput"
transport = "rsocket"
sizes = [65536]
duration = 35.0
TOML
server_killed rsocket-tput 300
# Each connection is a handful of CM packets; 2000 of them take longer than
# the kill's moment under emulation (QPs simulated: rxe has too few for all).
cat > cm-steps.toml <<TOML
[[run]]
name = "cm-steps"
timeout = 40
bind_address = "$addr"
test = "cm-steps"
count = 2000
mimic_delay_us = 0
TOML
# Its 2000 connections may all be made before the kill, which then meets
# their teardown: its rows, reported at the end, may be there or not.
server_killed cm-steps 200 '*'

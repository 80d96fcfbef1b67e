# The perftest front ends when a side goes away mid-run (`cmdbench
# ib_write_bw -R -a`: the small sizes end at once, the large ones take
# minutes under emulation): the server killed, the client killed, the
# server stopped (SIGSTOP: its kernel keeps TCP and rxe answering, only the
# heartbeats stop) each end the other side within seconds, exit 1, naming
# the peer and what happened; the client's Ctrl-C exits 130 with the rows
# it printed kept in its -o file; a server paused for 2 s (under the
# heartbeat's 6 s) does not fail a run.
need_cmdbench
port=18600

# start SIDE NAME ARG...: `cmdbench ib_write_bw ARG...` in the background
# with SIGINT at its default (a script's background job starts with it
# ignored); its pid in ${SIDE}_pid, output in NAME.SIDE.out/.err.
start() {
  local side=$1 name=$2; shift 2
  python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$cb" ib_write_bw -R -p "$port" "$@" \
    > "$name.$side.out" 2> "$name.$side.err" &
  printf -v "${side}_pid" %s $!
}

# pair NAME [CLIENT_ARG...]: a server and a client of -a -n 200, until the
# client printed its first line.
pair() {
  local name=$1 i; shift
  port=$((port + 1))
  start server "$name" -a -n 200
  wait_listen "$port" 60 || { cat "$name".*; fail "$name: the server does not listen"; }
  start client "$name" -a -n 200 "$@" "$addr"
  for ((i = 0; i < 1200; i++)); do
    grep -qE '^ 2 ' "$name.client.out" 2>/dev/null && return 0
    kill -0 "$client_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$name".*; fail "$name: the client printed no line"
}

# ended NAME SIDE WANT_RC LIMIT TEXT: SIDE ended within LIMIT s of $t0 with
# WANT_RC, its stderr holding TEXT.
ended() {
  local name=$1 side=$2 want=$3 limit=$4 text=$5 pid i rc secs
  pid=${side}_pid; pid=${!pid}
  for ((i = 0; i < limit * 10 + 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  wait "$pid"; rc=$?
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  echo "--- $name: the $side exited $rc ${secs} s after the event"; cat "$name.$side.err"
  [ "$rc" = "$want" ] || fail "$name: the $side exited $rc, want $want"
  awk -v s="$secs" -v l="$limit" 'BEGIN { exit !(s <= l) }' ||
    fail "$name: the $side took $secs s to end, more than $limit"
  [ -z "$text" ] || grep -qF -- "$text" "$name.$side.err" ||
    fail "$name: the $side does not say '$text'"
}

pair server-killed
kill -9 "$server_pid"; t0=$EPOCHREALTIME; wait "$server_pid"
ended server-killed client 1 10 "the server ($addr:$port)"

pair client-killed
kill -9 "$client_pid"; t0=$EPOCHREALTIME; wait "$client_pid"
ended client-killed server 1 10 "the client ("

pair server-stopped
kill -STOP "$server_pid"; t0=$EPOCHREALTIME
ended server-stopped client 1 20 "said nothing for 6 s: stopped or hung"
kill -9 "$server_pid"; kill -CONT "$server_pid"; wait "$server_pid"

pair client-interrupted -o interrupted.json
kill -INT "$client_pid"; t0=$EPOCHREALTIME
ended client-interrupted client 130 10 "interrupted"
ended client-interrupted server 1 10 "the client ("
check_results interrupted.json <<'PY' || fail "client-interrupted: results file"
run = runs["ib_write_bw"]
print(run["status"], [row["name"] for row in run["rows"]])
assert run["status"] == "interrupted", run["status"]
assert run["rows"] and run["rows"][0]["name"] == "2", run["rows"]
PY

# A pause shorter than the heartbeat's limit is no failure.
port=$((port + 1))
start server paused -s 65536 -n 1500
wait_listen "$port" 60 || fail "paused: the server does not listen"
start client paused -s 65536 -n 1500 "$addr"
sleep 2; kill -STOP "$server_pid"; sleep 2; kill -CONT "$server_pid"; t0=$EPOCHREALTIME
ended paused client 0 120 ""
ended paused server 0 10 ""
grep -qE '^ 65536 ' paused.client.out || fail "paused: no result line"

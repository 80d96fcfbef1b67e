# shellcheck shell=bash
# Helpers of the checks that stop an RDMA run in its middle (guest.d/65-67,
# 69), sourced after lib.sh: a verbs run whose first size ends at once and
# whose second would last far beyond the run's 40 s timeout, started in the
# background; the moment its traffic is under way; how long it took to end
# after the kill or interrupt, and what it reported.
rxe_sent_file=/sys/class/infiniband/$dev/ports/1/hw_counters/sent_pkts
[ -r "$rxe_sent_file" ] || fail "no $rxe_sent_file"

# stop_scenario NAME TEST OP: NAME.toml, one run NAME of TEST with op = OP.
# The first size moves at most 2000 packets (1000 messages of 4 KiB, one
# packet each at the lab's MTU, or 200 64-byte round trips, and their ACKs);
# the second (1 MiB, 256 packets a message) runs for minutes under emulation.
stop_scenario() {
  local name=$1 test=$2 op=$3 sizes='[4096, 1048576]' iterations=1000
  if [ "$test" = verbs-lat ]; then sizes='[64, 1048576]'; iterations=200; fi
  write_scenario "$name.toml" 40 <<TOML
[[run]]
name = "$name"
test = "$test"
op = "$op"
sizes = $sizes
iterations = $iterations
TOML
}

# start_run NAME [ARG...]: `cmdbench run NAME.toml ARG... --format json` in
# the background, stdout in NAME.json, stderr in NAME.err; its pid in
# $run_pid, its start in $run_t0, rxe0's sent packets then in $sent_base.
# SIGINT goes back to its default first: a script's background job starts
# with it ignored, and cmdbench keeps a signal it was started ignoring
# ignored.
start_run() {
  local name=$1; shift
  sent_base=$(cat "$rxe_sent_file")
  run_t0=$EPOCHREALTIME
  python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$cb" run "$name.toml" "$@" --format json \
    > "$name.json" 2> "$name.err" &
  run_pid=$!
}

# wait_sent NAME [PACKETS]: until rxe0 sent PACKETS (default 5000) more
# than at the run's start. For a stop_scenario run the default means the
# first size's row is reported and the second size is under way.
wait_sent() {
  local name=$1 packets=${2:-5000} i
  for ((i = 0; i < 900; i++)); do
    kill -0 "$run_pid" 2>/dev/null || { cat "$name.err"; fail "$name: cmdbench ended before the kill"; }
    if [ $(($(cat "$rxe_sent_file") - sent_base)) -ge "$packets" ]; then
      echo "--- $name: $packets packets sent $(awk -v a="$run_t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s after its start"
      return 0
    fi
    sleep 0.1
  done
  cat "$name.err"
  fail "$name: its traffic never got under way"
}

# wait_run_end NAME LIMIT: waits for the run (up to 60 s: its 40 s timeout and
# the grace); $run_rc is its exit status, $run_secs the seconds since
# $stop_t0. Fails when the run took more than LIMIT seconds to end.
wait_run_end() {
  local name=$1 limit=$2 i
  for ((i = 0; i < 600; i++)); do
    kill -0 "$run_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$run_pid" 2>/dev/null && kill -9 "$run_pid"
  wait "$run_pid"
  run_rc=$?
  run_secs=$(awk -v a="$stop_t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  echo "--- $name: exit $run_rc, ended ${run_secs} s after the stop"
  cat "$name.err"
  awk -v s="$run_secs" -v l="$limit" 'BEGIN { exit !(s <= l) }' ||
    fail "$name: took ${run_secs} s to end, more than $limit s"
}

# check_stopped NAME STATUS TEXT [FIRST_ROW]: the run's status is STATUS,
# its error contains TEXT and its rows are FIRST_ROW (its first size's, kept)
# or, without it, none; FIRST_ROW "*": any rows (a run whose rows are
# reported at its end may have finished measuring before the stop).
check_stopped() {
  check_results "$1.json" "$@" <<'PY' || fail "$1: results do not match"
name, status, text = sys.argv[2:5]
first = sys.argv[5:6]
r = runs[name]
print(name, r["status"], r["error"])
assert r["status"] == status, (r["status"], status)
assert text in r["error"], (r["error"], text)
assert "did not stop" not in r["error"], r["error"]
assert first == ["*"] or [row["name"] for row in r["rows"]] == first, r["rows"]
PY
}

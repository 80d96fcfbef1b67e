# Mimic mode at scale: -m 10 (QP create/modify replaced by a 10 us sleep),
# -n 4 workers, then the no-QP test. Each peer announces its own fake QP
# range, so one rxe device serves both ends. 3,000 connections: at 10,000
# the emulated (TCG) server accepts too slowly for the CM's REQ retries
# (about 70 s) and the client sees RDMA_CM_EVENT_UNREACHABLE (-110); see
# bench/cmtime.sh for the scale runs.
bin=${CMDBENCH_BINARY_DIR:-$CMDBENCH_SOURCE_DIR/build}/bin/cmdbench
[ -x "$bin" ] || fail "no cmdbench binary at $bin (set CMDBENCH_BINARY_DIR)"
common=(-C "$addr" -b "$addr" -p 7483 -c 3000 -n 4 -m 10 --timeout 250)
bg_server server.log "$bin" cmtime -L "${common[@]}"
sleep 1
t0=$EPOCHREALTIME
/usr/bin/time -v "$bin" cmtime "${common[@]}" > client.log 2> client.err
rc=$?
wait_server 60; src=$?
echo "client exit $rc, server exit $src, $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}') s"
grep -E "Maximum resident" client.err
cat client.log; grep -v $'^\t' client.err; tail -n 25 server.log
[ "$rc" = 0 ] && [ "$src" = 0 ] || fail "mimic run failed"
grep -q "Connect (3000) simulated QPs test (delay 10 us)" client.log || fail "no mimic banner"
[ "$(grep -c '^cm_conn              3000$' client.log)" = 2 ] || fail "want two cm_conn 3000 tables"
# Simulated QPs: create qp sleeps (>= 10 us each), the attribute queries are real.
awk '/simulated QPs test/{m=1} m && /^create qp /{print; exit !($8 >= 10)}' client.log ||
  fail "create qp min is below the 10 us mimic delay"

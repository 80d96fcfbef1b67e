# Mimic mode at scale: -m 10 (QP create/modify replaced by a 10 us sleep),
# -n 4 workers, then the no-QP test. Each peer announces its own fake QP
# range, so one rxe device serves both ends. 10,000 connections, as the
# issue asks: about 30 s in a quiet guest.
# It used to fail with RDMA_CM_EVENT_UNREACHABLE (-110): the server released
# barrier 12 (14) before its own last ESTABLISHED (DISCONNECTED), so the
# client disconnected connections whose RTU the server had not yet seen, and
# the server's REP then timed out. The server now enters 12 (14) only when
# its side is done, as in cmtime. On a heavily overloaded guest the server's
# kernel can still fail to answer a burst of 10,000 connect requests within
# the CM's REQ retries (about 70 s): Debian's own cmtime -c 10000 fails there
# too (2,016 UNREACHABLE, 5,492 REJECTED, and its server crashes). The client
# now keeps at most 256 connects outstanding by default (--max-pending), so
# this run also checks the paced window at 10,000 connections.
bin=${CMDBENCH_BINARY_DIR:-$CMDBENCH_SOURCE_DIR/build}/bin/cmdbench
[ -x "$bin" ] || fail "no cmdbench binary at $bin (set CMDBENCH_BINARY_DIR)"
n=10000
common=(-C "$addr" -b "$addr" -p 7483 -c "$n" -n 4 -m 10 --timeout 250)
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
grep -q "Connect ($n) simulated QPs test (delay 10 us)" client.log || fail "no mimic banner"
[ "$(grep -c "^cm_conn *$n\$" client.log)" = 2 ] || fail "want two cm_conn $n tables"
# Simulated QPs: create qp sleeps (>= 10 us each), the attribute queries are real.
awk '/simulated QPs test/{m=1} m && /^create qp /{print; exit !($8 >= 10)}' client.log ||
  fail "create qp min is below the 10 us mimic delay"

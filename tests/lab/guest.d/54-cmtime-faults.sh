# Faults with real RDMA: the server is killed (SIGKILL) after the warm-up's
# connect and disconnect steps; the client, here the controller, must end
# with a clear error naming the lost peer, well within its --timeout,
# instead of hanging.
bin=${CMDBENCH_BINARY_DIR:-$CMDBENCH_SOURCE_DIR/build}/bin/cmdbench
[ -x "$bin" ] || fail "no cmdbench binary at $bin (set CMDBENCH_BINARY_DIR)"
common=(-C "$addr" -b "$addr" -p 7484 -c 1000 --timeout 90)
t0=$EPOCHREALTIME
"$bin" cmtime "${common[@]}" > client.log 2> client.err & client=$!
sleep 1
bg_server server.log "$bin" cmtime -L "${common[@]}"
# The server's main-test banner: its warm-up (a full connect and disconnect)
# is over and it waits in barrier 7 while the client prepares 1,000 QPs, a
# window of seconds. (Killing it later, in the main test's disconnect step,
# races with the server finishing on its own.)
for ((i = 0; i < 6000; i++)); do
  grep -q "Accept (1000) QPs test" server.log && break
  sleep 0.02
done
grep -q "Accept (1000) QPs test" server.log || { cat client.log client.err server.log; fail "the server never reached the main test"; }
kill -9 "$server_pid" || { cat client.log client.err server.log; fail "the server was gone before it could be killed"; }
echo "server killed $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}') s in"
for ((i = 0; i < 900; i++)); do kill -0 "$client" 2>/dev/null || break; sleep 0.1; done
kill -0 "$client" 2>/dev/null && { kill "$client"; fail "the client still runs 90 s after its server died (its --timeout is 90 s)"; }
wait "$client"; rc=$?
secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
echo "client exit $rc after ${secs}s"; cat client.err
[ "$rc" = 1 ] || fail "the client should fail (exit 1), got $rc"
grep -Eq "peer 1 \(|connection to the server at $addr:" client.err ||
  fail "the error does not name the lost peer"
awk -v s="$secs" 'BEGIN{exit !(s < 90)}' || fail "took ${secs}s, beyond the 90 s timeout"

# shellcheck shell=bash
# `cmdbench cmtime` under mpirun across the two guests: rank 0 (guest 0)
# serves, rank 1 (guest 1) makes 20 RDMA CM connections to it over rxe; rank
# 0 prints the summary and the cm-step tables.
if [ "$guest" = 1 ]; then serve_mpirun_peer; exit; fi
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
wait_peer_ready 120 || fail "guest 1's lab-rsh-server.py did not come up"
measured_mpirun cmtime 200 "$cb" cmtime --servers 1 -c 20 --timeout 150
[ "$rc" = 0 ] || fail "mpirun -np 2 cmdbench cmtime --servers 1 -c 20 exited $rc"
[ "$(grep -c '^cmtime under a launcher' cmtime.out)" = 1 ] || fail "the summary is not printed once"
grep -q "^  .* ($addr): rank 0$" cmtime.out || fail "rank 0 is not on guest 0 ($addr)"
grep -q "^  .* ($peer_addr): rank 1$" cmtime.out || fail "rank 1 is not on guest 1 ($peer_addr)"
grep -q '^Mesh main test: 20 client connections of 1 client' cmtime.out || fail "no client table of 20 connections"
grep -q '^Mesh main test: 20 accepted connections of 1 server' cmtime.out || fail "no server table of 20 connections"
for step in 'resolve addr' 'create qp' 'cm connect' 'disconnect'; do
  grep -q "^$step " cmtime.out || fail "no '$step' row in the step table"
done
# Real QPs (the sockets baseline, -S, would leave this row at zero).
qp_us=$(awk '$1 == "create" && $2 == "qp" { print $4; exit }' cmtime.out)
[ "${qp_us:-0}" -gt 0 ] || fail "the client created no QPs (create qp total: ${qp_us:-none})"
# 20 connections and disconnections: CM MADs and RC handshakes over rxe.
[ "$rdma_packets" -ge 40 ] || fail "too few RDMA packets left guest 0: $rdma_packets"

# rstream -k over rsockets: cmdbench prints rstream's "Keepalive: ON" and
# "  time: N" lines where rstream does: the server for its listener and for
# the accepted socket, the client for its socket, before the rows.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
header='name      bytes   xfers   iters   total       time     Gb/sec    usec/xfer'
opts=(-k 5 -S 4096 -C 20 -I 2 -p 7541)
# wait_rdma_listen PORT [SECONDS]: wait until an RDMA CM id (an rsocket
# server) listens on PORT; rsockets are not kernel sockets, so ss cannot see them.
wait_rdma_listen() {
  local port=$1 secs=${2:-30} i
  for ((i = 0; i < secs * 5; i++)); do
    rdma resource show cm_id 2>/dev/null | grep -q "state LISTEN .* src-addr [^ ]*:$port " &&
      return 0
    sleep 0.2
  done
  return 1
}
bg_server server.log "$cb" rstream --timeout 90 -b "$addr" "${opts[@]}"
wait_rdma_listen 7541 30 || { cat server.log; fail "server did not listen"; }
timeout 120 "$cb" rstream --timeout 90 -s "$addr" "${opts[@]}" > client.log 2>&1
rc=$?
wait_server 60; src=$?
echo "--- client exit $rc, server exit $src"; cat client.log server.log
[ "$rc" = 0 ] || fail "client failed"
[ "$src" = 0 ] || fail "server failed"
ka=$'Keepalive: ON\n  time: 5'
[ "$(sed '$d' server.log)" = "$header"$'\n'"$ka"$'\n'"$ka" ] || fail "server lines differ from rstream's"
[ "$(sed '$d' client.log)" = "$header"$'\n'"$ka" ] || fail "client lines differ from rstream's"
grep -Eq '^custom +4k +20 +2 ' server.log || fail "no server row"
grep -Eq '^custom +4k +20 +2 ' client.log || fail "no client row"

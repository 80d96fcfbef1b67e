# rstream's fork mode (-T f) over RDMA, the way rstream exercises it: kernel
# socket calls taken over by librspreload with RDMAV_FORK_SAFE=1 on both
# sides, so each connection starts as TCP and moves to an rsocket in the
# server's child after the fork. cmdbench's forked server
# against Debian's client, and Debian's forked server against cmdbench's
# client; small verified custom runs. rxe0's packet counter shows that the
# data went over RDMA, not TCP.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
preload=(/usr/lib/*/rsocket/librspreload.so)
preload=${preload[0]}
[ -e "$preload" ] || { echo "no librspreload.so (package librdmacm1)"; exit 77; }
counter=/sys/class/infiniband/$dev/ports/1/hw_counters/sent_pkts
[ -r "$counter" ] || fail "no $counter"
opts=(-S 4096 -C 50 -I 2 -T v)
port=7520

# forked LABEL SERVER-CMD... -- CLIENT-CMD...: both under the preload library.
forked() {
  local label=$1 server=() client=() rc src before after; shift
  while [ "$1" != -- ]; do server+=("$1"); shift; done; shift
  client=("$@")
  port=$((port + 1))
  before=$(cat "$counter")
  LD_PRELOAD=$preload RDMAV_FORK_SAFE=1 bg_server "server-$label.log" \
    "${server[@]}" -b "$addr" -p "$port" "${opts[@]}"
  wait_listen "$port" 30 || { cat "server-$label.log"; fail "$label: server did not listen"; }
  LD_PRELOAD=$preload RDMAV_FORK_SAFE=1 timeout 120 "${client[@]}" -s "$addr" -p "$port" \
    "${opts[@]}" > "client-$label.log" 2>&1
  rc=$?
  wait_server 60; src=$?
  after=$(cat "$counter")
  echo "--- $label: client exit $rc, server exit $src, rxe0 sent $((after - before)) packets"
  cat "client-$label.log" "server-$label.log"
  [ "$rc" = 0 ] || fail "$label: client failed"
  [ "$src" = 0 ] || fail "$label: server failed"
  grep -Eq '^custom +4k +50 +2 +800k ' "client-$label.log" || fail "$label: no client row"
  grep -Eq '^custom +4k +50 +2 +800k ' "server-$label.log" || fail "$label: no server row"
  # 2 x 50 transfers of 4 KiB each way at MTU 4096: hundreds of packets.
  [ $((after - before)) -ge 200 ] || fail "$label: only $((after - before)) RDMA packets: not over rsockets"
}

forked cmdbench-server "$cb" rstream --timeout 90 -T f -- rstream -T s
# cmdbench's forked server prints its header once (it flushes before forking).
[ "$(grep -c '^name ' server-cmdbench-server.log)" = 1 ] || fail "header printed more than once"
forked debian-server rstream -T f -- "$cb" rstream --timeout 90 -T s

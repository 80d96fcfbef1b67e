# rping between the guests: server in guest 1, client in guest 0, 10 pings
# with their data verified.
if [ "$guest" = 1 ]; then
  rping -s -a "$addr" -C 10 -V -v &
  for ((i = 0; i < 100; i++)); do
    # rdma_cm listeners do not show in ss: wait until rping has bound.
    [ -n "$(rdma resource show cm_id 2>/dev/null | grep -i listen)" ] && break
    sleep 0.2
  done
  peer_ready
  wait
  exit
fi
wait_peer_ready 60 || fail "guest 1's rping server did not come up"
retry 10 rping -c -a "$peer_addr" -C 10 -V -v > rping.txt 2>&1 || { cat rping.txt; fail "rping client failed"; }
cat rping.txt
[ "$(grep -c '^ping data: ' rping.txt)" = 10 ] || fail "expected 10 verified pings"

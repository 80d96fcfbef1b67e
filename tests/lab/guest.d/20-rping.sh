# Debian's rping: server and client exchange and verify 10 pings over RDMA CM.
count=10 port=7174
bg_server server.log rping -s -a "$addr" -p "$port" -C "$count" -v -V
sleep 1
retry 5 timeout 60 rping -c -a "$addr" -p "$port" -C "$count" -v -V > client.log 2>&1
rc=$?
wait_server 30; src=$?
echo "--- client (exit $rc)"; cat client.log
echo "--- server (exit $src)"; cat server.log
[ "$rc" = 0 ] || fail "rping client failed"
[ "$src" = 0 ] || fail "rping server failed"
n=$(grep -c 'ping data' client.log)
[ "$n" -ge "$count" ] || fail "client printed $n ping lines, expected $count"
n=$(grep -c 'server ping data' server.log)
[ "$n" -ge "$count" ] || fail "server printed $n ping lines, expected $count"

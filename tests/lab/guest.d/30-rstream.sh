# Debian's rstream: a small run over rsockets (RDMA) and over TCP (-T s).
# Each run is a ping-pong of 100 transfers of 4 KiB, data verified (-T v).
run_rstream() {   # run_rstream LABEL PORT [-T OPTION]...
  local label=$1 port=$2 rc src; shift 2
  local opts=("$@")
  bg_server "server-$label.log" rstream -b "$addr" -p "$port" -S 4096 -C 100 "${opts[@]}"
  sleep 0.5
  retry 5 timeout 120 rstream -s "$addr" -p "$port" -S 4096 -C 100 "${opts[@]}" \
    > "client-$label.log" 2>&1
  rc=$?
  wait_server 60; src=$?
  echo "--- $label client (exit $rc)"; cat "client-$label.log"
  echo "--- $label server (exit $src)"; cat "server-$label.log"
  [ "$rc" = 0 ] || fail "$label: rstream client failed"
  [ "$src" = 0 ] || fail "$label: rstream server failed"
  grep -Eq '^custom +4k +100 +1 ' "client-$label.log" ||
    fail "$label: no result line (custom 4k 100 1) in the client's output"
}
run_rstream rdma 7471 -T v
run_rstream tcp 7472 -T s -T v

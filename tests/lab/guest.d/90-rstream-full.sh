# Debian's rstream default suite (64 B..1 MiB, latency and bandwidth) over
# rsockets and over TCP. Slow under TCG (about 8 minutes in all on a busy
# 2-core host), so it runs only when CMDBENCH_LAB_FULL=1; otherwise SKIP.
#   CMDBENCH_LAB_FULL=1 tools/rdma-lab --timeout 1800 -- tests/lab/guest-suite.sh
[ "${CMDBENCH_LAB_FULL:-0}" = 1 ] || { echo "set CMDBENCH_LAB_FULL=1 to run"; exit 77; }
full() {   # full LABEL PORT [-T OPTION]...
  local label=$1 port=$2 rc src; shift 2
  bg_server "server-$label.log" rstream -b "$addr" -p "$port" "$@"
  sleep 0.5
  retry 5 timeout 1200 rstream -s "$addr" -p "$port" "$@" > "client-$label.log" 2>&1
  rc=$?
  wait_server 60; src=$?
  echo "--- $label client (exit $rc)"; cat "client-$label.log"
  [ "$rc" = 0 ] || fail "$label: rstream client failed"
  [ "$src" = 0 ] || fail "$label: rstream server failed"
  for t in 64_lat 4k_lat 64k_lat 1m_lat 64_bw 4k_bw 64k_bw 1m_bw; do
    grep -q "^$t " "client-$label.log" || fail "$label: no $t line"
  done
}
full rdma 7481
full tcp 7482 -T s

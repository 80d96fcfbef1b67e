# `cmdbench rstream` over rsockets (RDMA) against itself and against Debian's
# rstream in both directions, in each IO mode, with data verified (-T v).
# Small custom runs (-S/-C/-I): RDMA under TCG is 100-1000x slower than
# hardware. Every table is checked for rstream's exact layout.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
header='name      bytes   xfers   iters   total       time     Gb/sec    usec/xfer'
# shellcheck disable=SC2034  # used through the namerefs in pair()
cmd_cm=("$cb" rstream --timeout 90)
# shellcheck disable=SC2034
cmd_deb=(rstream)
port=7500

# check_table LOG: header, then exactly one "custom 4k 50 2 800k" row, widths 74/72.
check_table() {
  local log=$1
  [ "$(sed -n 1p "$log")" = "$header" ] || fail "$log: header differs"
  [ "$(grep -c . "$log")" = 2 ] || fail "$log: expected the header and one row"
  local row; row=$(sed -n 2p "$log")
  [ "${#row}" = 72 ] || fail "$log: row is ${#row} characters, not 72"
  echo "$row" | grep -Eq '^custom +4k +50 +2 +800k +[0-9]+\.[0-9]{2}s +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2}$' ||
    fail "$log: row does not match: $row"
}

# pair LABEL SERVER CLIENT [OPTION]...: SERVER and CLIENT are cm or deb.
pair() {
  local label=$1 server=$2 client=$3 rc src; shift 3
  local -n srv=cmd_$server cli=cmd_$client
  port=$((port + 1))
  bg_server "server-$label.log" "${srv[@]}" -b "$addr" -p "$port" -S 4096 -C 50 -I 2 "$@"
  sleep 1
  # Each attempt rewrites the log: only the last one is checked.
  client_once() {
    timeout 120 "${cli[@]}" -s "$addr" -p "$port" -S 4096 -C 50 -I 2 "$@" \
      > "client-$label.log" 2>&1
  }
  retry 5 client_once "$@"
  rc=$?
  wait_server 60; src=$?
  echo "--- $label ($server server, $client client, $*): client exit $rc, server exit $src"
  cat "client-$label.log"
  [ "$rc" = 0 ] || { cat "server-$label.log"; fail "$label: client failed"; }
  [ "$src" = 0 ] || { cat "server-$label.log"; fail "$label: server failed"; }
  check_table "client-$label.log"
  check_table "server-$label.log"
}

pair self-nonblocking cm cm -T v
pair self-blocking cm cm -T b -T v
pair self-block-then-nonblock cm cm -T b -T n -T v
pair self-async cm cm -T a -T v
pair self-async-blocking cm cm -T a -T b -T v
pair self-rdma-resolve cm cm -T r -f ip -T v
pair debian-server deb cm -T v
pair debian-client cm deb -T v
pair debian-server-blocking deb cm -T b -T v
pair debian-client-blocking cm deb -T b -T v
pair debian-server-async deb cm -T a -T v
pair debian-client-async cm deb -T a -T v

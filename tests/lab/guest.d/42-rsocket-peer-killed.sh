# Killing the peer mid-run over rsockets ends the other side with a clear
# error within its timeout (--timeout 20), not a hang; with -T a, with
# rstream's status for a failed readiness wait (the poll bits).
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
opts=(-S 4096 -C 10 -I 1000000)
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
# start_client NAME CMD...: start the client (output in NAME.log, pid in
# $NAME) and wait until the connection is up: connecting takes seconds under
# emulation, and a peer killed before that refuses instead.
start_client() {
  local name=$1 attempt i; shift
  for ((attempt = 1; attempt <= 5; attempt++)); do
    "$@" > "$name.log" 2>&1 &
    printf -v "$name" %s $!
    for ((i = 0; i < 150; i++)); do
      kill -0 "${!name}" 2>/dev/null || break
      # Both ends' queue pairs ready to send: the connection is up (nothing
      # else runs RC queue pairs meanwhile).
      [ "$(rdma resource show qp 2>/dev/null | grep -c 'type RC state RTS')" -ge 2 ] && return 0
      sleep 0.2
    done
    echo "(client attempt $attempt did not connect: $(tail -1 "$name.log"))"
    kill "${!name}" 2>/dev/null
    wait "${!name}" 2>/dev/null
    sleep 1
  done
  fail "the client never got going"
}
killed() {   # killed LABEL WHO PORT [-T a]: WHO (server|client) is Debian's rstream, killed mid-run
  local label=$1 who=$2 port=$3 t0 rc secs
  local run_opts=("${opts[@]}" "${@:4}")
  if [ "$who" = server ]; then
    rstream -b "$addr" -p "$port" "${run_opts[@]}" > peer.log 2>&1 & peer=$!
    wait_rdma_listen "$port" 30 || { cat peer.log; fail "$label: rstream did not listen"; }
    start_client self "$cb" rstream --timeout 20 -s "$addr" -p "$port" "${run_opts[@]}"
  else
    "$cb" rstream --timeout 20 -b "$addr" -p "$port" "${run_opts[@]}" > self.log 2>&1 & self=$!
    wait_rdma_listen "$port" 30 || { cat self.log; fail "$label: cmdbench did not listen"; }
    start_client peer rstream -s "$addr" -p "$port" "${run_opts[@]}"
  fi
  kill -0 "$self" 2>/dev/null || { cat self.log peer.log; fail "$label: cmdbench ended before the kill"; }
  kill -9 "$peer"; wait "$peer" 2>/dev/null
  t0=$EPOCHREALTIME
  for ((i = 0; i < 300; i++)); do kill -0 "$self" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$self" 2>/dev/null; then kill -9 "$self"; fail "$label: cmdbench still running 30 s after the kill"; fi
  wait "$self"; rc=$?
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
  echo "--- $label: cmdbench exit $rc, ${secs}s after the kill"; cat self.log
  if [ $# -gt 3 ]; then
    # -T a: rstream's status is the poll bits of the failed wait (it gives
    # 16, POLLHUP, or 8, POLLERR, here, depending on when the kill lands).
    [ "$rc" = 16 ] || [ "$rc" = 8 ] || fail "$label: exit $rc, not rstream's 16 or 8"
    grep -Eq '^(rsend|rrecv): .* \(poll revents: POLL(ERR|HUP)\)$' self.log ||
      fail "$label: no rsend/rrecv error line naming the poll bits"
  else
    [ "$rc" = 255 ] || fail "$label: exit $rc, not 255"
    grep -Eq '^(rsend|rrecv): ' self.log || fail "$label: no rsend/rrecv error line"
  fi
  # The disconnect itself is noticed, long before the 20 s run timeout.
  awk -v s="$secs" 'BEGIN { exit !(s < 10) }' || fail "$label: took ${secs}s to notice"
}
killed server-killed server 7701
killed client-killed client 7702
killed async-server-killed server 7703 -T a
killed async-client-killed client 7704 -T a

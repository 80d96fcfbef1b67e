# Killing the peer mid-run over rsockets ends the other side with a clear
# error within its timeout (--timeout 20), not a hang.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
opts=(-S 4096 -C 10 -I 1000000)
# start_client NAME CMD...: start the client (output in NAME.log, pid in
# $NAME) until it is still running 3 s later: a server that is slow to
# start under emulation refuses the first attempts.
start_client() {
  local name=$1 attempt; shift
  for ((attempt = 1; attempt <= 5; attempt++)); do
    sleep 2
    "$@" > "$name.log" 2>&1 &
    printf -v "$name" %s $!
    sleep 3
    kill -0 "${!name}" 2>/dev/null && return 0
    echo "(client attempt $attempt ended early: $(tail -1 "$name.log"))"
  done
  fail "the client never got going"
}
killed() {   # killed LABEL WHO PORT: WHO (server|client) is Debian's rstream, killed mid-run
  local label=$1 who=$2 port=$3 t0 rc secs
  if [ "$who" = server ]; then
    rstream -b "$addr" -p "$port" "${opts[@]}" > peer.log 2>&1 & peer=$!
    start_client self "$cb" rstream --timeout 20 -s "$addr" -p "$port" "${opts[@]}"
  else
    "$cb" rstream --timeout 20 -b "$addr" -p "$port" "${opts[@]}" > self.log 2>&1 & self=$!
    start_client peer rstream -s "$addr" -p "$port" "${opts[@]}"
  fi
  kill -0 "$self" 2>/dev/null || { cat self.log peer.log; fail "$label: cmdbench ended before the kill"; }
  kill -9 "$peer"; wait "$peer" 2>/dev/null
  t0=$EPOCHREALTIME
  for ((i = 0; i < 300; i++)); do kill -0 "$self" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$self" 2>/dev/null; then kill -9 "$self"; fail "$label: cmdbench still running 30 s after the kill"; fi
  wait "$self"; rc=$?
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
  echo "--- $label: cmdbench exit $rc, ${secs}s after the kill"; cat self.log
  [ "$rc" = 255 ] || fail "$label: exit $rc, not 255"
  grep -Eq '^(rsend|rrecv): ' self.log || fail "$label: no rsend/rrecv error line"
  # The disconnect itself is noticed, long before the 20 s run timeout.
  awk -v s="$secs" 'BEGIN { exit !(s < 10) }' || fail "$label: took ${secs}s to notice"
}
killed server-killed server 7701
killed client-killed client 7702

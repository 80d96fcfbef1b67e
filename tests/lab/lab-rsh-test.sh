#!/usr/bin/env bash
# The lab's launch agent (tests/lab/lab-rsh, lab-rsh-server.py) on this host,
# no guest: output and exit status relayed, ssh options skipped, the remote
# command killed when its client dies or the server stops, and a real mpirun
# starting orted through it (127.0.0.2 counts as another node for mpirun).
# ctest rdma-lab-rsh. Exit 0 = all passed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/server.log" ] && sed 's/^/  server| /' "$tmp/server.log"; exit 1; }
command -v mpirun > /dev/null || fail "no mpirun: install openmpi-bin and libpmix-dev (tools/install-deps.sh)"
[ -x /usr/bin/python3 ] || fail "no /usr/bin/python3: install python3 (tools/install-deps.sh)"

port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.2", 0)); print(s.getsockname()[1])')
export LAB_RSH_PORT=$port
start_server() {
  "$here/lab-rsh-server.py" --bind 127.0.0.2 --port "$port" > "$tmp/server.log" 2>&1 &
  server_pid=$!
  for ((i = 0; i < 50; i++)); do
    grep -q listening "$tmp/server.log" && return 0
    sleep 0.1
  done
  fail "lab-rsh-server.py did not listen"
}
# gone PID SECONDS: wait until PID has ended.
gone() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  return 1
}
start_server

"$here/lab-rsh" 127.0.0.2 'echo out; echo err >&2; exit 3' > "$tmp/o" 2> "$tmp/e"
rc=$?
[ "$rc" = 3 ] || fail "exit status $rc, not the command's 3"
[ "$(cat "$tmp/o")" = out ] && [ "$(cat "$tmp/e")" = err ] || fail "stdout/stderr not relayed apart"
echo "ok: stdout, stderr, exit status"

out=$("$here/lab-rsh" -x -o BatchMode=yes -p "$port" root@127.0.0.2 echo '"a  b"' '$((1+2))') ||
  fail "ssh options not skipped"
[ "$out" = "a  b 3" ] || fail "words not run by a shell as ssh does: '$out'"
echo "ok: ssh options, user@host, shell words"

"$here/lab-rsh" 127.0.0.2 'kill -9 $$'
rc=$?
[ "$rc" = 137 ] || fail "a command killed by SIGKILL gave $rc, not 137"
"$here/lab-rsh" 127.0.0.2 'read -r x; echo "[$x]"' < /dev/zero > "$tmp/o" && [ "$(cat "$tmp/o")" = "[]" ] ||
  fail "the command's stdin is not /dev/null"
"$here/lab-rsh" -p 1 127.0.0.2 true 2> "$tmp/e"
rc=$?
[ "$rc" = 255 ] && grep -q "cannot reach 127.0.0.2:1" "$tmp/e" || fail "unreachable server: exit $rc, $(cat "$tmp/e")"
echo "ok: signal status, stdin, unreachable server"

# The client dies: the command's process group goes too.
"$here/lab-rsh" 127.0.0.2 "echo \$\$ > $tmp/pid1; sleep 300 & echo \$! > $tmp/pid2; wait" &
client=$!
for ((i = 0; i < 50; i++)); do [ -s "$tmp/pid2" ] && break; sleep 0.1; done
[ -s "$tmp/pid2" ] || fail "the remote command did not start"
kill -KILL "$client"
wait "$client" 2>/dev/null
gone "$(cat "$tmp/pid1")" 5 && gone "$(cat "$tmp/pid2")" 5 || fail "the command outlived its client"
echo "ok: client killed -> command's process group killed"

# The server stops: so do the commands it runs.
rm -f "$tmp/pid1"
"$here/lab-rsh" 127.0.0.2 "echo \$\$ > $tmp/pid1; exec sleep 300" 2> "$tmp/e2" &
client=$!
for ((i = 0; i < 50; i++)); do [ -s "$tmp/pid1" ] && break; sleep 0.1; done
[ -s "$tmp/pid1" ] || fail "the remote command did not start"
kill -TERM "$server_pid"
gone "$server_pid" 5 || fail "the server did not stop on SIGTERM"
gone "$(cat "$tmp/pid1")" 5 || fail "the command outlived the server"
wait "$client"
rc=$?
[ "$rc" = 255 ] && grep -q "closed before the command's exit status" "$tmp/e2" ||
  fail "the client of a stopped server exited $rc, not 255: $(cat "$tmp/e2")"
echo "ok: server stopped -> commands killed, client exits 255"

# mpirun starts orted on "node" 127.0.0.2 through the agent.
start_server
printf 'localhost slots=1\n127.0.0.2 slots=1\n' > "$tmp/hosts"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 5 60 \
  mpirun --hostfile "$tmp/hosts" -np 2 --map-by ppr:1:node --mca plm_rsh_agent "$here/lab-rsh" \
  sh -c 'echo "rank $OMPI_COMM_WORLD_RANK"' > "$tmp/o" 2> "$tmp/e"
rc=$?
[ "$rc" = 0 ] || fail "mpirun through lab-rsh exited $rc: $(cat "$tmp/e")"
[ "$(sort "$tmp/o" | tr '\n' ' ')" = "rank 0 rank 1 " ] || fail "mpirun output: $(cat "$tmp/o")"
grep -q "running:  orted .*plm_rsh_agent" "$tmp/server.log" || fail "orted was not started through the server"
for ((i = 0; i < 50; i++)); do grep -q ": exit 0$" "$tmp/server.log" && break; sleep 0.1; done
grep -q ": exit 0$" "$tmp/server.log" || fail "orted did not exit 0 at the end of the job"
echo "ok: mpirun -np 2 --map-by ppr:1:node with orted on 127.0.0.2 through lab-rsh"
echo "all passed"

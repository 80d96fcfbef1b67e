# shellcheck shell=bash disable=SC2034
# Helpers for the two-guest checks (tests/lab/two-guest.d/*.sh), sourced
# after lib.sh by two-guest-suite.sh in both guests.
guest=${CMDBENCH_LAB_GUEST:?not in a two-guest lab}
peer_addr=${CMDBENCH_RDMA_PEER_ADDR:?not in a two-guest lab}
check_shared=${LAB_CHECK_SHARED:?not run by two-guest-suite.sh}

# peer_ready: (guest 1) tell guest 0 that the peer's side is up.
peer_ready() { : > "$check_shared/ready"; }

# wait_peer_ready [SECONDS]: (guest 0) wait for guest 1's peer_ready.
wait_peer_ready() {
  local until_s=$((SECONDS + ${1:-60}))
  until [ -e "$check_shared/ready" ]; do
    [ "$SECONDS" -ge "$until_s" ] && return 1
    sleep 0.2
  done
  return 0
}

# rxe_sent: packets rxe0 has sent so far.
rxe_sent() { rdma statistic show link "$dev/1" | sed -n 's/.* sent_pkts \([0-9]*\).*/\1/p'; }

# --- mpirun across the two guests (docs/rdma-lab.md) --------------------------
# The guests have no sshd: guest 1 runs the lab's launch agent server
# (tests/lab/lab-rsh-server.py) and guest 0's mpirun starts orted there through
# its client, tests/lab/lab-rsh, as `--mca plm_rsh_agent`.
# Both are /usr/bin/python3 scripts (tools/install-deps.sh installs python3):
# not a PATH python3, which may be a version manager's shim that takes
# seconds to start under TCG. The checks' own python3 is Debian's too:
# tests/lab/run-checks.sh puts it first on their PATH.
lab_rsh=$CMDBENCH_SOURCE_DIR/tests/lab/lab-rsh
# One agent port per check, 7600 + its number (52-mpirun-cmtime: 7652): the
# previous check's server, still ending, never holds the next one's port (a
# shared 7610 made guest 1 wait for it, and guest 0 gave up waiting in CI).
check_number=${check_shared##*/}
check_number=${check_number%%-*}
lab_rsh_port=$((7600 + 10#${check_number:-10}))

# serve_mpirun_peer: (guest 1) the whole peer part of an mpirun check: run the
# agent server, tell guest 0, and serve until the suite stops this part.
serve_mpirun_peer() {
  # The previous mpirun check's server may still be ending: its listener
  # would pass wait_listen and then vanish under guest 0's mpirun.
  local i server
  for ((i = 0; i < 150; i++)); do
    ss -Hltn "sport = :$lab_rsh_port" 2>/dev/null | grep -q . || break
    sleep 0.2
  done
  "$CMDBENCH_SOURCE_DIR/tests/lab/lab-rsh-server.py" --bind "$addr" --port "$lab_rsh_port" &
  server=$!
  wait_listen "$lab_rsh_port" 60 && kill -0 "$server" 2> /dev/null ||
    fail "lab-rsh-server.py did not listen on $addr:$lab_rsh_port"
  peer_ready
  wait
}

# lab_mpirun SECONDS ARGS...: (guest 0) mpirun with one rank in each guest
# (-np 2, guest 0's rank 0), bounded by SECONDS. The ranks start in /tmp (the
# check's directory exists in guest 0 only): give them absolute paths.
lab_mpirun() {
  local secs=$1; shift
  command -v mpirun > /dev/null ||
    fail "no mpirun: install openmpi-bin and libpmix-dev (tools/install-deps.sh)"
  printf '%s slots=1\n%s slots=1\n' "$addr" "$peer_addr" > "$PWD/lab-hosts"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LAB_RSH_PORT=$lab_rsh_port \
    timeout -k 5 "$secs" mpirun --hostfile "$PWD/lab-hosts" -np 2 --map-by ppr:1:node \
    --mca oob_tcp_if_include "$CMDBENCH_RDMA_NETDEV" --mca plm_rsh_agent "$lab_rsh" \
    --wdir /tmp "$@"
}

# measured_mpirun NAME SECONDS ARGS...: (guest 0) lab_mpirun ARGS with stdout
# in NAME.out and stderr in NAME.err; prints its exit status, wall time and
# the packets rxe0 sent meanwhile, then both outputs. Sets $rc and
# $rdma_packets.
measured_mpirun() {
  local name=$1 secs=$2 t0 sent0
  shift 2
  sent0=$(rxe_sent)
  t0=$EPOCHREALTIME
  lab_mpirun "$secs" "$@" > "$name.out" 2> "$name.err"
  rc=$?
  rdma_packets=$(($(rxe_sent) - sent0))
  echo "mpirun $name: exit $rc in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}') s;" \
    "rxe0 sent $rdma_packets packets"
  cat "$name.out" "$name.err"
}

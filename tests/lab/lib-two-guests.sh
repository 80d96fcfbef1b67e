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

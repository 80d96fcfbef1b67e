#!/usr/bin/env bash
# Runs the two-guest RDMA checks in ONE two-guest lab boot, the same script in
# both guests:
#   tools/rdma-lab --guests 2 -- tests/lab/two-guest-suite.sh [PATTERN...]
# Each tests/lab/two-guest.d/*.sh runs in both guests at once, in a fresh
# scratch directory, with tests/lab/lib.sh and lib-two-guests.sh sourced:
# guest 1 runs it as the peer ($guest = 1, e.g. a server), guest 0 as the
# main part ($guest = 0, e.g. the client). Guest 0 leads through the shared
# directory ($CMDBENCH_LAB_SHARED/NAME/: begin, end; the peer answers with
# peer-status and peer.log): when guest 0's part ends, the peer's is stopped
# (SIGTERM) if still running, which is not a failure. A check passes when
# guest 0's part exits 0 (77 = skip) and the peer's did not fail by itself.
# Guest 0 prints "two-guest suite: starting N checks", PASS/FAIL/SKIP lines
# (with both parts' output on failure) and "N passed, N failed".
# The check loop (selection, time limit, results, totals) is tests/lab/run-checks.sh,
# shared with guest-suite.sh.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CMDBENCH_SOURCE_DIR=${CMDBENCH_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
check_timeout=${LAB_CHECK_TIMEOUT:-300}
checks_dir=${LAB_TWO_GUEST_DIR:-$here/two-guest.d}

if [ "${CMDBENCH_LAB_GUESTS:-1}" != 2 ] || [ -z "${CMDBENCH_LAB_SHARED:-}" ]; then
  echo "two-guest-suite: run me inside a two-guest lab:" >&2
  echo "  tools/rdma-lab --guests 2 -- tests/lab/two-guest-suite.sh" >&2
  exit 2
fi
guest=$CMDBENCH_LAB_GUEST
shared=$CMDBENCH_LAB_SHARED

. "$here/run-checks.sh"
select_checks "$checks_dir" "$@"

# cable_report: after a failed check, the state of the cable to the other
# guest (once it stops carrying traffic, every later check that crosses it
# fails too): its packet counters, the other guest's entry in the neighbour
# table, and the kernel's last words.
cable_report() {
  local peer=${CMDBENCH_RDMA_PEER_ADDR:-} netdev=${CMDBENCH_RDMA_NETDEV:-}
  [ -n "$netdev" ] || return 0
  echo "    cable $netdev after the failure:"
  {
    ip -s link show dev "$netdev"
    [ -n "$peer" ] && echo "neighbour: $(ip neigh show to "$peer" dev "$netdev")"
    dmesg | tail -n 5
  } 2>&1 | sed 's/^/    | /'
}

scratch=$(mktemp -d /tmp/two-guest-suite.XXXXXX)
if [ "$guest" != 0 ]; then
  # The peer: follow guest 0 through the checks.
  for check in "${checks[@]}"; do
    name=$(basename "$check" .sh)
    s=$shared/$name
    wait_file "$s/begin" $((check_timeout + 60)) || { echo "peer: guest 0 never began $name"; exit 1; }
    dir=$scratch/$name; mkdir -p "$dir"
    LAB_CHECK_SHARED=$s start_part "$dir" "$here/lib.sh" "$here/lib-two-guests.sh" "$check"
    end_part "$s/end"
    # Guest 1's own view of the cable, shown by guest 0 if the check fails.
    cable_report >> "$dir/log"
    cp "$dir/log" "$s/peer.log"
    echo "$rc" > "$s/peer-status.tmp" && mv "$s/peer-status.tmp" "$s/peer-status"
  done
  exit 0
fi

echo "two-guest suite: starting ${#checks[@]} checks"
for check in "${checks[@]}"; do
  name=$(basename "$check" .sh)
  s=$shared/$name
  mkdir -p "$s"
  dir=$scratch/$name; mkdir -p "$dir"
  t0=$EPOCHREALTIME
  : > "$s/begin"
  LAB_CHECK_SHARED=$s start_part "$dir" "$here/lib.sh" "$here/lib-two-guests.sh" "$check"
  end_part
  main_rc=$rc
  : > "$s/end"
  peer_rc=none
  wait_file "$s/peer-status" 30 && read -r peer_rc < "$s/peer-status"
  record_result "$name" "$t0" "$main_rc" "$peer_rc"
  if show_log "$dir/log"; then
    echo "    guest 1 ($peer_rc):"
    sed 's/^/    | /' "$s/peer.log" 2>/dev/null
  fi
  case $result in FAIL*) cable_report ;; esac
done
rm -rf "$scratch" 2>/dev/null
end_suite "two-guest suite" "in guest 0"

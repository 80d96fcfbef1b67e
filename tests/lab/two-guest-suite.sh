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

patterns=("$@")
selected() {
  local pat
  [ "${#patterns[@]}" -eq 0 ] && return 0
  for pat in "${patterns[@]}"; do
    # shellcheck disable=SC2053
    [[ $1 == $pat ]] && return 0
  done
  return 1
}
checks=()
for check in "$checks_dir"/*.sh; do
  [ -e "$check" ] && selected "$(basename "$check" .sh)" && checks+=("$check")
done

exec {nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$nap_fd"; }
wait_file() {   # wait_file FILE SECONDS
  local until_s=$((SECONDS + $2))
  until [ -e "$1" ]; do
    [ "$SECONDS" -ge "$until_s" ] && return 1
    nap 0.2
  done
  return 0
}
# start_part CHECK DIR: this guest's part of CHECK in the background ($part_pid)
start_part() {
  ( cd "$2" && LAB_CHECK_SHARED=$shared/$(basename "$1" .sh) exec timeout -k 5 "$check_timeout" \
      bash -c '. "$1"; . "$2"; . "$3"' lab-check "$here/lib.sh" "$here/lib-two-guests.sh" "$1" ) \
    > "$2/log" 2>&1 &
  part_pid=$!
}
# end_part STOP-FILE: wait for the part, or until STOP-FILE appears (then
# stop it); sets $rc: its exit status, "stopped" or "unended".
end_part() {
  local until_s=$((SECONDS + check_timeout + 15)) i
  rc=
  while kill -0 "$part_pid" 2>/dev/null; do
    if [ -n "$1" ] && [ -e "$1" ]; then
      kill -TERM -- "-$part_pid" 2>/dev/null   # timeout's process group
      for ((i = 0; i < 50; i++)); do kill -0 "$part_pid" 2>/dev/null || break; nap 0.1; done
      rc=stopped
      break
    fi
    if [ "$SECONDS" -ge "$until_s" ]; then rc=unended; break; fi
    nap 0.2
  done
  if kill -0 "$part_pid" 2>/dev/null; then
    disown "$part_pid"
    kill -KILL -- "-$part_pid" "$part_pid" 2>/dev/null
    [ -n "$rc" ] || rc=unended
  elif [ -z "$rc" ]; then
    { wait "$part_pid"; } 2>/dev/null
    rc=$?
  else
    { wait "$part_pid"; } 2>/dev/null
  fi
}

scratch=$(mktemp -d /tmp/two-guest-suite.XXXXXX)
if [ "$guest" != 0 ]; then
  # The peer: follow guest 0 through the checks.
  for check in "${checks[@]}"; do
    name=$(basename "$check" .sh)
    s=$shared/$name
    wait_file "$s/begin" $((check_timeout + 60)) || { echo "peer: guest 0 never began $name"; exit 1; }
    dir=$scratch/$name; mkdir -p "$dir"
    start_part "$check" "$dir"
    end_part "$s/end"
    cp "$dir/log" "$s/peer.log"
    echo "$rc" > "$s/peer-status.tmp" && mv "$s/peer-status.tmp" "$s/peer-status"
  done
  exit 0
fi

echo "two-guest suite: starting ${#checks[@]} checks"
passed=0 failed=0 skipped=0 failed_names=()
suite_start=$EPOCHREALTIME
for check in "${checks[@]}"; do
  name=$(basename "$check" .sh)
  s=$shared/$name
  mkdir -p "$s"
  dir=$scratch/$name; mkdir -p "$dir"
  t0=$EPOCHREALTIME
  : > "$s/begin"
  start_part "$check" "$dir"
  end_part ""
  main_rc=$rc
  : > "$s/end"
  peer_rc=none
  wait_file "$s/peer-status" 30 && read -r peer_rc < "$s/peer-status"
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
  case "$main_rc/$peer_rc" in
    0/0|0/stopped) result=PASS ;;
    77/*) result=SKIP ;;
    unended/*) result="FAIL (did not end after the kill)" ;;
    124/*|137/*) result="FAIL (timed out after ${check_timeout}s)" ;;
    0/*) result="FAIL (guest 1's part: $peer_rc)" ;;
    *) result="FAIL (exit $main_rc)" ;;
  esac
  case $result in
    PASS) passed=$((passed + 1)) ;;
    SKIP) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)); failed_names+=("$name") ;;
  esac
  echo "$result: $name (${secs}s)"
  if [ "$result" != PASS ] && [ "$result" != SKIP ] || [ "${LAB_SUITE_VERBOSE:-0}" = 1 ]; then
    sed 's/^/    | /' "$dir/log"
    echo "    guest 1 ($peer_rc):"
    sed 's/^/    | /' "$s/peer.log" 2>/dev/null
  fi
done
rm -rf "$scratch" 2>/dev/null
total=$(awk -v a="$suite_start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
echo "two-guest suite: ${total}s in guest 0${failed_names[*]:+; failed: ${failed_names[*]}}"
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]

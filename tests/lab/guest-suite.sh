#!/usr/bin/env bash
# Runs every RDMA check of the project inside ONE lab boot:
#   tools/rdma-lab -- tests/lab/guest-suite.sh [PATTERN...]
# Each tests/lab/guest.d/*.sh is one check: it runs with bash, in a fresh
# scratch directory, with tests/lab/lib.sh sourced, CMDBENCH_SOURCE_DIR set and
# (if set by the caller) CMDBENCH_BINARY_DIR passed on. Exit 0 = PASS,
# 77 = SKIP, anything else = FAIL. A check's output is shown only when it
# fails (or with LAB_SUITE_VERBOSE=1). PATTERNs (shell globs on the file name)
# select checks. Starts with "guest suite: starting N checks", ends with
# "N passed, N failed" and exits non-zero if any failed.
# Each check is killed after LAB_CHECK_TIMEOUT seconds (default 300); one that
# has still not ended 15 s later (stuck in the kernel, e.g. on 9p) is reported
# as "FAIL (did not end after the kill)" and left behind, so that it cannot
# stall the suite. LAB_SUITE_DIR: the checks' directory (default guest.d).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CMDBENCH_SOURCE_DIR=${CMDBENCH_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
check_timeout=${LAB_CHECK_TIMEOUT:-300}
checks_dir=${LAB_SUITE_DIR:-$here/guest.d}

if [ -z "${CMDBENCH_RDMA_DEV:-}" ]; then
  echo "guest-suite: CMDBENCH_RDMA_DEV is not set: run me inside the lab:" >&2
  echo "  tools/rdma-lab -- tests/lab/guest-suite.sh" >&2
  exit 2
fi

selected() {   # selected NAME: does NAME match a PATTERN (or are there none)?
  local pat
  [ "${#patterns[@]}" -eq 0 ] && return 0
  for pat in "${patterns[@]}"; do
    # shellcheck disable=SC2053
    [[ $1 == $pat ]] && return 0
  done
  return 1
}
patterns=("$@")
checks=()
for check in "$checks_dir"/*.sh; do
  [ -e "$check" ] && selected "$(basename "$check" .sh)" && checks+=("$check")
done
echo "guest suite: starting ${#checks[@]} checks"

# nap SECONDS: a sleep that starts no program.
exec {nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$nap_fd"; }

scratch=$(mktemp -d /tmp/guest-suite.XXXXXX)
passed=0 failed=0 skipped=0 failed_names=()
suite_start=$EPOCHREALTIME
for check in "${checks[@]}"; do
  name=$(basename "$check" .sh)
  dir=$scratch/$name; mkdir -p "$dir"
  t0=$EPOCHREALTIME
  ( cd "$dir" && exec timeout -k 5 "$check_timeout" \
      bash -c '. "$1"; . "$2"' lab-check "$here/lib.sh" "$check" ) > "$dir/log" 2>&1 &
  cpid=$!
  # timeout(1) kills the check at check_timeout and 5 s later for good; a
  # check still there 10 s after that cannot be killed: leave it behind.
  ended=1
  until_s=$((SECONDS + check_timeout + 15))
  while kill -0 "$cpid" 2>/dev/null; do
    if [ "$SECONDS" -ge "$until_s" ]; then ended=0; break; fi
    nap 0.2
  done
  if [ "$ended" = 1 ]; then
    { wait "$cpid"; } 2>/dev/null   # no "Killed" notice: the result says it
    rc=$?
  else
    disown "$cpid"   # no "Killed" notice: the result says it
    kill -KILL -- "-$cpid" "$cpid" 2>/dev/null   # timeout's process group
    rc=unended
  fi
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
  case $rc in
    0)  result=PASS; passed=$((passed + 1)) ;;
    77) result=SKIP; skipped=$((skipped + 1)) ;;
    unended) result="FAIL (did not end after the kill)"; failed=$((failed + 1)); failed_names+=("$name") ;;
    124|137) result="FAIL (timed out after ${check_timeout}s)"; failed=$((failed + 1)); failed_names+=("$name") ;;
    *)  result="FAIL (exit $rc)"; failed=$((failed + 1)); failed_names+=("$name") ;;
  esac
  echo "$result: $name (${secs}s)"
  if [ "$rc" != 0 ] && [ "$rc" != 77 ] || [ "${LAB_SUITE_VERBOSE:-0}" = 1 ]; then
    sed 's/^/    | /' "$dir/log"
  fi
done
rm -rf "$scratch" 2>/dev/null
total=$(awk -v a="$suite_start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
echo "guest suite: ${total}s in the guest${failed_names[*]:+; failed: ${failed_names[*]}}"
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]

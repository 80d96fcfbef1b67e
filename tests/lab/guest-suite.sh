#!/usr/bin/env bash
# Runs every RDMA check of the project inside ONE lab boot:
#   tools/rdma-lab -- tests/lab/guest-suite.sh [PATTERN...]
# Each tests/lab/guest.d/*.sh is one check: it runs with bash, in a fresh
# scratch directory, with tests/lab/lib.sh sourced, CMDBENCH_SOURCE_DIR set and
# (if set by the caller) CMDBENCH_BINARY_DIR passed on. Exit 0 = PASS,
# 77 = SKIP, anything else = FAIL. A check's output is shown only when it
# fails (or with LAB_SUITE_VERBOSE=1). PATTERNs (shell globs on the file name)
# select checks. Ends with "N passed, N failed" and exits non-zero if any failed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CMDBENCH_SOURCE_DIR=${CMDBENCH_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
check_timeout=${LAB_CHECK_TIMEOUT:-300}

if [ -z "${CMDBENCH_RDMA_DEV:-}" ]; then
  echo "guest-suite: CMDBENCH_RDMA_DEV is not set: run me inside the lab:" >&2
  echo "  tools/rdma-lab -- tests/lab/guest-suite.sh" >&2
  exit 2
fi

scratch=$(mktemp -d /tmp/guest-suite.XXXXXX)
passed=0 failed=0 skipped=0 failed_names=()
suite_start=$EPOCHREALTIME
for check in "$here"/guest.d/*.sh; do
  [ -e "$check" ] || continue
  name=$(basename "$check" .sh)
  if [ $# -gt 0 ]; then
    sel=0
    for pat in "$@"; do
      # shellcheck disable=SC2053
      [[ $name == $pat ]] && sel=1
    done
    [ "$sel" = 1 ] || continue
  fi
  dir=$scratch/$name; mkdir -p "$dir"
  t0=$EPOCHREALTIME
  ( cd "$dir" && exec timeout -k 5 "$check_timeout" \
      bash -c '. "$1"; . "$2"' lab-check "$here/lib.sh" "$check" ) > "$dir/log" 2>&1
  rc=$?
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
  case $rc in
    0)  result=PASS; passed=$((passed + 1)) ;;
    77) result=SKIP; skipped=$((skipped + 1)) ;;
    124|137) result="FAIL (timed out after ${check_timeout}s)"; failed=$((failed + 1)); failed_names+=("$name") ;;
    *)  result="FAIL (exit $rc)"; failed=$((failed + 1)); failed_names+=("$name") ;;
  esac
  echo "$result: $name (${secs}s)"
  if [ "$rc" != 0 ] && [ "$rc" != 77 ] || [ "${LAB_SUITE_VERBOSE:-0}" = 1 ]; then
    sed 's/^/    | /' "$dir/log"
  fi
done
rm -rf "$scratch"
total=$(awk -v a="$suite_start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
echo "guest suite: ${total}s in the guest${failed_names[*]:+; failed: ${failed_names[*]}}"
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]

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
# The check loop (selection, time limit, results, totals) is tests/lab/run-checks.sh,
# shared with two-guest-suite.sh.
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

. "$here/run-checks.sh"
select_checks "$checks_dir" "$@"
echo "guest suite: starting ${#checks[@]} checks"

scratch=$(mktemp -d /tmp/guest-suite.XXXXXX)
for check in "${checks[@]}"; do
  name=$(basename "$check" .sh)
  dir=$scratch/$name; mkdir -p "$dir"
  t0=$EPOCHREALTIME
  start_part "$dir" "$here/lib.sh" "$check"
  end_part
  record_result "$name" "$t0" "$rc"
  show_log "$dir/log"
done
rm -rf "$scratch" 2>/dev/null
end_suite "guest suite" "in the guest"

#!/usr/bin/env bash
# ctest rdma-lab-two-guests: the two-guest suite in one two-guest boot,
#   tests/lab/two-guest-ctest.sh LAB-OPTIONS... [-- PATTERN...]
# i.e. tools/rdma-lab LAB-OPTIONS -- tests/lab/two-guest-suite.sh PATTERN...
# If that fails and a guest's kernel said its virtual NIC's transmit queue
# stalled ("NETDEV WATCHDOG"), the emulated cable between the guests stopped
# carrying frames: every check after that fails for it, not for anything it
# checks. Then the suite runs once more in a fresh boot, saying so and
# naming the guest; its result is the test's. Any other failure is final.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lab=${RDMA_LAB:-$here/../../tools/rdma-lab}
opts=() patterns=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
[ $# -gt 0 ] && { shift; patterns=("$@"); }
log=$(mktemp "${TMPDIR:-/tmp}/two-guest-consoles.XXXXXX")
trap 'rm -f "$log"' EXIT

run_suite() {
  : > "$log"
  "$lab" "${opts[@]}" --log "$log" -- "$here/two-guest-suite.sh" "${patterns[@]}"
}

# The watchdog's lines, each with its guest ("=== guest N ===" heads each
# console in the log).
stalls() {
  awk '/^=== guest [0-9]+ ===$/ { g = $3 } /NETDEV WATCHDOG/ { print "guest " g ": " $0 }' "$log"
}

run_suite
rc=$?
[ "$rc" = 0 ] && exit 0
stalled=$(stalls)
[ -n "$stalled" ] || exit "$rc"
{
  echo "two-guest-ctest: the run failed (exit $rc) after a virtual NIC stalled:"
  printf '%s\n' "$stalled" | sed 's/^/  /'
  echo "two-guest-ctest: the emulated cable stopped carrying frames; running the suite once more in a fresh boot"
} >&2
run_suite
rc=$?
stalled=$(stalls)
[ -z "$stalled" ] || { echo "two-guest-ctest: a virtual NIC stalled again:" >&2; printf '%s\n' "$stalled" | sed 's/^/  /' >&2; }
exit "$rc"

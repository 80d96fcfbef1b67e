#!/usr/bin/env bash
# Host-side tests of tools/rdma-lab's own behaviour. One test per call:
#   tests/lab/lab-behaviour.sh TEST
# TEST: passthrough (boots once: exit status, stdout/stderr kept apart, env
# vars, files in the cwd both ways), timeout (boots once), lab-failure (boots
# a kernel with a broken init), missing-qemu, missing-kernel, usage (no boot).
# Prints PASS/FAIL lines and "N passed, N failed"; exits non-zero on failure.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lab=${RDMA_LAB:-$here/../../tools/rdma-lab}
test=${1:?usage: lab-behaviour.sh TEST}
work=$(mktemp -d "${TMPDIR:-/tmp}/lab-behaviour.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

passed=0 failed=0
check() {   # check DESCRIPTION CMD...
  local what=$1; shift
  if "$@"; then echo "PASS: $what"; passed=$((passed + 1))
  else echo "FAIL: $what"; failed=$((failed + 1)); fi
}
show() { echo "--- $1:"; sed 's/^/    | /' "$2"; }
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

case $test in
passthrough)
  mkdir sub
  echo "from the host" > from-host.txt
  # A host file outside the caller's directory, under /tmp, where CI may
  # clone the project: the guest must see the host's /tmp, not a fresh one.
  elsewhere=$(mktemp "/tmp/lab-elsewhere.XXXXXX")
  echo "elsewhere on the host" > "$elsewhere"
  export LAB_ELSEWHERE=$elsewhere
  # shellcheck disable=SC2016
  "$lab" --timeout 300 -- bash -c '
      echo "stdout line"
      echo "stderr line" >&2
      cat from-host.txt > sub/seen-in-guest.txt
      printf "%s %s %s\n" "$CMDBENCH_RDMA_ADDR" "$CMDBENCH_RDMA_DEV" "$(ulimit -l)" > sub/env.txt
      printf "%s\n" "$PWD" > sub/pwd.txt
      echo "${LAB_TEST_VAR:-unset}" > sub/hostvar.txt
      cat "$LAB_ELSEWHERE" > sub/elsewhere.txt 2>&1
      exit 7' > out.txt 2> err.txt
  rc=$?
  rm -f "$elsewhere"
  show stdout out.txt; show stderr err.txt
  check "exit status 7 passed through (got $rc)" [ "$rc" = 7 ]
  check "stdout holds exactly the command's stdout" [ "$(cat out.txt)" = "stdout line" ]
  check "stderr holds the command's stderr" grep -qx "stderr line" err.txt
  check "no boot messages on stderr without --verbose" bash -c '! grep -q "^\[ *[0-9]*\.[0-9]*\]" err.txt'
  check "a host file is visible in the guest and a new file came back" \
    grep -qx "from the host" sub/seen-in-guest.txt
  read -r a d m < sub/env.txt 2>/dev/null
  ipv4=no; [[ "${a:-}" =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]] && ipv4=yes
  check "CMDBENCH_RDMA_ADDR is an IPv4 address (${a:-})" [ "$ipv4" = yes ]
  check "CMDBENCH_RDMA_DEV is rxe0 (${d:-})" [ "${d:-}" = rxe0 ]
  check "memlock is unlimited (${m:-})" [ "${m:-}" = unlimited ]
  check "the command ran in the caller's directory" [ "$(cat sub/pwd.txt)" = "$(pwd -P)" ]
  check "the caller's environment is passed on" [ "$(cat sub/hostvar.txt)" = "from-host-env" ]
  check "host files under /tmp outside the cwd are visible" \
    grep -qx "elsewhere on the host" sub/elsewhere.txt
  ;;
timeout)
  start=$(date +%s)
  "$lab" --timeout 20 --pidfile qemu.pid -- sleep 600 > out.txt 2> err.txt
  rc=$?
  secs=$(( $(date +%s) - start ))
  show stderr err.txt
  check "exit status 124 on timeout (got $rc)" [ "$rc" = 124 ]
  check "stopped soon after the timeout (${secs}s for --timeout 20)" [ "$secs" -lt 45 ]
  check "the message says it timed out" grep -q "timed out" err.txt
  pid=$(cat qemu.pid 2>/dev/null)
  check "QEMU's pid was recorded ($pid)" [ -n "$pid" ]
  check "QEMU (and so the guest) is gone" bash -c "! kill -0 ${pid:-0} 2>/dev/null"
  ;;
lab-failure)
  # A kernel command line that names a missing init: the guest panics.
  CMDBENCH_LAB_APPEND="rdinit=/no-such-init" "$lab" --timeout 300 -- true > out.txt 2> err.txt
  rc=$?
  show stderr err.txt
  check "exit status 125 when the guest fails (got $rc)" [ "$rc" = 125 ]
  check "the message says the lab failed and shows the console" \
    grep -q "guest stopped without running the command" err.txt
  check "nothing on stdout" [ ! -s out.txt ]
  ;;
missing-qemu)
  "$lab" --qemu /nonexistent/qemu-system-x86_64 -- true > out.txt 2> err.txt
  rc=$?
  show stderr err.txt
  check "exit status 123 when QEMU is missing (got $rc)" [ "$rc" = 123 ]
  check "the message names the package" grep -q "qemu-system-x86" err.txt
  CMDBENCH_LAB_QEMU=/nonexistent/qemu "$lab" -- true > /dev/null 2>&1
  rc=$?
  check "CMDBENCH_LAB_QEMU is honoured (got $rc)" [ "$rc" = 123 ]
  ;;
missing-kernel)
  "$lab" --kernel /nonexistent/vmlinuz-0.0.0 -- true > out.txt 2> err.txt
  rc=$?
  show stderr err.txt
  check "exit status 123 when the kernel image is missing (got $rc)" [ "$rc" = 123 ]
  check "the message names the package" grep -q "linux-image-amd64" err.txt
  CMDBENCH_LAB_KERNEL=/nonexistent/vmlinuz-0.0.0 "$lab" -- true > /dev/null 2>&1
  rc=$?
  check "CMDBENCH_LAB_KERNEL is honoured (got $rc)" [ "$rc" = 123 ]
  ;;
usage)
  "$lab" --help > out.txt 2>&1
  rc=$?
  check "--help exits 0 (got $rc)" [ "$rc" = 0 ]
  check "--help documents the exit codes" grep -q "124" out.txt
  "$lab" --no-such-option -- true > /dev/null 2>&1
  rc=$?
  check "an unknown option exits 2 (got $rc)" [ "$rc" = 2 ]
  "$lab" > /dev/null 2>&1
  rc=$?
  check "no command exits 2 (got $rc)" [ "$rc" = 2 ]
  ;;
*) echo "unknown test $test" >&2; exit 2 ;;
esac
finish

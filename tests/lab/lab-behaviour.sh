#!/usr/bin/env bash
# Host-side tests of tools/rdma-lab's own behaviour. One test per call:
#   tests/lab/lab-behaviour.sh TEST
# TEST: passthrough (boots once: exit status, stdout/stderr kept apart, env
# vars, files in the cwd both ways), timeout (boots twice: a command that runs
# too long, a boot that hangs), boot-retry (a first boot that hangs is retried;
# two that hang give up), suite-unended (a check that does not end after its
# timeout does not stall guest-suite.sh), lab-failure (boots a kernel with a broken init),
# two-guests-rping (two guests see each other over RDMA), two-guests-status (exit
# status, stopping the peer, timeout; three two-guest boots), lock-wait (the
# wait for another lab run has its own bound; boots once), missing-qemu,
# missing-kernel, usage, two-guest-retry (tests/lab/two-guest-ctest.sh's
# retry after a stalled virtual NIC, against a stand-in lab) (no boot).
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
  # A boot takes 5-10 s under emulation: the bounds here leave 2-4 times
  # that, so that the test's waiting stays short.
  start=$(date +%s)
  "$lab" --timeout 20 --pidfile qemu.pid -- sleep 600 > out.txt 2> err.txt
  rc=$?
  secs=$(( $(date +%s) - start ))
  show stderr err.txt
  check "exit status 124 on timeout (got $rc)" [ "$rc" = 124 ]
  check "stopped soon after the timeout (${secs}s for --timeout 20)" [ "$secs" -lt 45 ]
  check "the message says it timed out" grep -q "timed out" err.txt
  check "the message says the command had started and for how long" \
    grep -q "the command had started .* had run for [0-9.]*s" err.txt
  check "the console's tail is shown (lab: ready)" grep -q "^  lab: ready" err.txt
  pid=$(cat qemu.pid 2>/dev/null)
  check "QEMU's pid was recorded ($pid)" [ -n "$pid" ]
  check "QEMU (and so the guest) is gone" bash -c "! kill -0 ${pid:-0} 2>/dev/null"
  # A guest that never starts the command (the test hook hangs stage 2), with
  # no boot deadline: the timeout says the command had not started.
  CMDBENCH_LAB_APPEND="cmdbench_lab_test=hang-boot" \
    "$lab" --timeout 20 --boot-timeout 0 -- echo never > out2.txt 2> err2.txt
  rc=$?
  show stderr err2.txt
  check "a hung boot times out with 124 (got $rc)" [ "$rc" = 124 ]
  check "the message says the command had not started" grep -q "the command had NOT started" err2.txt
  check "the console's tail shows where the guest hung" grep -q "test hook: hanging" err2.txt
  check "the command did not run" [ ! -s out2.txt ]
  ;;
lock-wait)
  # Another lab run holds the lock (a stand-in: flock on a private lock).
  export CMDBENCH_LAB_LOCK=$work/lock
  : > "$CMDBENCH_LAB_LOCK"
  echo "pid 4242 since 10:00:00Z: a stand-in lab run" > "$CMDBENCH_LAB_LOCK.holder"
  flock "$CMDBENCH_LAB_LOCK" sleep 8 & holder=$!
  sleep 0.5
  start=$(date +%s)
  "$lab" --timeout 300 --lock-timeout 2 -- true > out.txt 2> err.txt
  rc=$?
  secs=$(( $(date +%s) - start ))
  show stderr err.txt
  check "the lock wait has its own bound: 124 after --lock-timeout 2 (got $rc in ${secs}s)" \
    bash -c "[ $rc = 124 ] && [ $secs -lt 6 ]"
  check "the message names the lock wait, its option and the holder" \
    bash -c "grep -q 'gave up after 2s (--lock-timeout)' err.txt && grep -q 'held by pid 4242' err.txt"
  wait "$holder"
  # The holder lets go after 5 s; --timeout 4 then starts: the guest's
  # command, not the wait, runs out of time.
  flock "$CMDBENCH_LAB_LOCK" sleep 5 & holder=$!
  sleep 0.5
  start=$(date +%s)
  "$lab" --timeout 4 --lock-timeout 60 -- sleep 60 > out.txt 2> err.txt
  rc=$?
  secs=$(( $(date +%s) - start ))
  wait "$holder"
  show stderr err.txt
  check "--timeout counts from when the lock is held (124 after ${secs}s, at least 8)" \
    bash -c "[ $rc = 124 ] && [ $secs -ge 8 ]"
  check "it was the guest's time that ran out" grep -q "timed out after 4s (QEMU killed)" err.txt
  ;;
boot-retry)
  # The first boot hangs before the command (test hook, first boot only):
  # after --boot-timeout the lab kills it and boots again; the command runs.
  start=$(date +%s)
  CMDBENCH_LAB_APPEND="cmdbench_lab_test=hang-boot-once" \
    "$lab" --timeout 300 --boot-timeout 20 -- sh -c 'echo ran; exit 3' > out.txt 2> err.txt
  rc=$?
  secs=$(( $(date +%s) - start ))
  show stdout out.txt; show stderr err.txt
  check "the command's status after a retried boot (got $rc)" [ "$rc" = 3 ]
  check "the command ran once" [ "$(cat out.txt)" = ran ]
  check "the hung boot is reported" \
    grep -q "did not start the command within --boot-timeout 20s (boot 1 of 2)" err.txt
  check "with the console's tail" grep -q "^  lab: test hook: hanging" err.txt
  check "and a second boot" grep -q "booting again (boot 2 of 2)" err.txt
  check "within the boot deadline plus one boot (${secs}s)" [ "$secs" -lt 100 ]
  # Every boot hangs: two tries, then the lab gives up (125).
  CMDBENCH_LAB_APPEND="cmdbench_lab_test=hang-boot" \
    CMDBENCH_LAB_BOOT_TIMEOUT=10 "$lab" --timeout 200 -- echo never > out2.txt 2> err2.txt
  rc=$?
  show stderr err2.txt
  check "two hung boots: exit 125 (got $rc)" [ "$rc" = 125 ]
  check "CMDBENCH_LAB_BOOT_TIMEOUT is honoured, both boots reported" \
    grep -q "within --boot-timeout 10s (boot 2 of 2)" err2.txt
  check "the lab says it gave up" grep -q "giving up" err2.txt
  check "the command did not run" [ ! -s out2.txt ]
  ;;
two-guests-rping)
  # Two guests joined by the lab's cable: rping from guest 0 to guest 1's
  # address (which guest 0 does not have), data verified on both sides.
  # shellcheck disable=SC2016
  "$lab" --guests 2 --timeout 400 --pidfile qemu.pids \
    --peer-cmd 'echo "uptime $(cut -d" " -f1 /proc/uptime) guest $CMDBENCH_LAB_GUEST addr $CMDBENCH_RDMA_ADDR peer $CMDBENCH_RDMA_PEER_ADDR"
                rping -s -a "$CMDBENCH_RDMA_ADDR" -C 3 -v' \
    -- bash -c '
      echo "uptime $(cut -d" " -f1 /proc/uptime) guest $CMDBENCH_LAB_GUEST addr $CMDBENCH_RDMA_ADDR peer $CMDBENCH_RDMA_PEER_ADDR"
      ip -br addr show | grep -q "$CMDBENCH_RDMA_PEER_ADDR/" && echo "the peer address is local!"
      for i in $(seq 20); do
        rping -c -a "$CMDBENCH_RDMA_PEER_ADDR" -C 3 -v && break
        sleep 1
      done
      rdma statistic show link rxe0/1 | grep -o "sent_pkts [0-9]*"
      echo "tx_packets $(cat /sys/class/net/$CMDBENCH_RDMA_NETDEV/statistics/tx_packets)"' > out.txt 2> err.txt
  rc=$?
  show stdout out.txt; show stderr err.txt
  check "exit status 0 (got $rc)" [ "$rc" = 0 ]
  check "guest 0 has its address and knows its peer's" \
    grep -q "^uptime [0-9.]* guest 0 addr 192.0.2.1 peer 192.0.2.2$" out.txt
  check "guest 1's output comes back, prefixed, with its own address" \
    grep -q "^\[guest 1\] uptime [0-9.]* guest 1 addr 192.0.2.2 peer 192.0.2.1$" out.txt
  check "the peer's address is not guest 0's own" bash -c '! grep -q "is local" out.txt'
  check "guest 0's rping client verified 3 pings" grep -q "^ping data: rdma-ping-2: " out.txt
  check "guest 1's rping server got them" grep -q "^\[guest 1\] server ping data: rdma-ping-2: " out.txt
  sent=$(sed -n 's/^sent_pkts //p' out.txt) tx=$(sed -n 's/^tx_packets //p' out.txt)
  check "guest 0's rxe0 sent packets (${sent:-none})" [ "${sent:-0}" -gt 0 ]
  check "and they left through its NIC (tx_packets ${tx:-none})" [ "${tx:-0}" -ge "${sent:-1}" ]
  pids=$(cat qemu.pids 2>/dev/null | tr '\n' ' ')
  check "two QEMUs were started ($pids)" [ "$(wc -l < qemu.pids)" = 2 ]
  check "both QEMUs are gone" bash -c "! kill -0 $pids 2>/dev/null"
  ;;
two-guests-status)
  # Guest 1's own failure fails the run when guest 0's command succeeds.
  "$lab" --guests 2 --timeout 300 --peer-cmd 'echo peer; exit 5' -- true > out.txt 2> err.txt
  rc=$?
  show stdout out.txt; show stderr err.txt
  check "guest 1's failure is the exit status (got $rc)" [ "$rc" = 5 ]
  check "the lab says which guest failed" grep -q "guest 1's command exited with status 5" err.txt
  check "guest 1's output came back" grep -qx "\[guest 1\] peer" out.txt
  # Guest 0's status wins; a peer still running when guest 0's command ends
  # is stopped (SIGTERM), which is not a failure. Same CMD in both guests.
  start=$(date +%s)
  # shellcheck disable=SC2016
  "$lab" --guests 2 --timeout 300 -- bash -c '
    if [ "$CMDBENCH_LAB_GUEST" = 1 ]; then
      trap "echo got-term > peer-term.txt; exit 143" TERM
      echo "peer waiting"; : > "$CMDBENCH_LAB_SHARED/armed"
      sleep 1000 & wait
    else
      # the shared directory: wait until the peer has its trap set
      for i in $(seq 300); do [ -e "$CMDBENCH_LAB_SHARED/armed" ] && break; sleep 0.2; done
      exit 3
    fi' > out2.txt 2> err2.txt
  rc=$?
  secs=$(( $(date +%s) - start ))
  show stdout out2.txt; show stderr err2.txt
  check "guest 0's status (got $rc)" [ "$rc" = 3 ]
  check "the same CMD ran in guest 1" grep -qx "\[guest 1\] peer waiting" out2.txt
  check "guest 1's command got SIGTERM when guest 0's ended" grep -qx got-term peer-term.txt
  check "and that is not reported as a failure" bash -c '! grep -q "guest 1.s command exited" err2.txt'
  check "well before the timeout (${secs}s)" [ "$secs" -lt 200 ]
  # A timeout kills both guests and says, for each, how far it got.
  "$lab" --guests 2 --timeout 25 --pidfile qemu.pids -- sleep 1000 > out3.txt 2> err3.txt
  rc=$?
  show stderr err3.txt
  check "two guests time out with 124 (got $rc)" [ "$rc" = 124 ]
  check "the message covers guest 0" grep -q "^rdma-lab: Guest 0: the command had" err3.txt
  check "and guest 1" grep -q "^rdma-lab: Guest 1: the command had" err3.txt
  check "with both consoles" grep -q "guest 1's console" err3.txt
  pids=$(cat qemu.pids 2>/dev/null | tr '\n' ' ')
  check "both QEMUs are gone ($pids)" bash -c "[ -n '$pids' ] && ! kill -0 $pids 2>/dev/null"
  ;;
suite-unended)
  # A check that nothing can end: it stops its own timeout(1) (SIGSTOP), so
  # what the suite waits for does not end after the check's time, as with a
  # process stuck in D state on 9p. (A real D state, the cgroup-v1 freezer,
  # stalled the guest's kernel under TCG once in two runs.) The suite must
  # report it and go on with the next check.
  mkdir checks
  cat > checks/10-stuck.sh <<'CHECK'
echo $PPID > /tmp/stuck-timeout.pid
kill -STOP $PPID   # timeout(1)
sleep 1000
CHECK
  cat > checks/20-after.sh <<'CHECK'
pid=$(cat /tmp/stuck-timeout.pid) || fail "the stuck check did not start"
if kill -0 "$pid" 2>/dev/null; then grep State: /proc/$pid/status; fail "the stuck check's timeout is still there"; fi
echo "the suite removed the stuck check ($pid)"
CHECK
  start=$(date +%s)
  LAB_SUITE_DIR=$PWD/checks LAB_CHECK_TIMEOUT=5 LAB_SUITE_VERBOSE=1 \
    "$lab" --timeout 200 -- "$here/guest-suite.sh" > out.txt 2> err.txt
  rc=$?
  secs=$(( $(date +%s) - start ))
  show stdout out.txt; show stderr err.txt
  check "the suite fails (got $rc)" [ "$rc" = 1 ]
  check "it announces the number of checks" grep -qx "guest suite: starting 2 checks" out.txt
  check "the check that did not end is reported" grep -q "^FAIL (did not end after the kill): 10-stuck" out.txt
  check "the next check ran, and the first one is gone" grep -q "^PASS: 20-after" out.txt
  check "the summary counts both" grep -qx "1 passed, 1 failed" out.txt
  check "in about check timeout + 15 s plus a boot (${secs}s)" [ "$secs" -lt 150 ]
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
two-guest-retry)
  # tests/lab/two-guest-ctest.sh against a stand-in for rdma-lab (no boot):
  # each call is counted and plays the next line of plan.txt (exit status,
  # and whether guest 1's console shows a NIC watchdog).
  cat > fake-lab <<'FAKE'
#!/usr/bin/env bash
log=""
while [ $# -gt 0 ]; do [ "$1" = --log ] && log=$2; [ "$1" = -- ] && break; shift; done
n=$(( $(cat calls 2>/dev/null || echo 0) + 1 )); echo "$n" > calls
read -r rc stall < <(sed -n "${n}p" plan.txt)
{ echo "=== guest 0 ==="; echo "[ 1.0] booted"; echo "=== guest 1 ==="
  [ "$stall" = stall ] && echo "[ 159.1] virtio_net virtio6 lab0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 125936 ms"
} > "$log"
exit "$rc"
FAKE
  chmod +x fake-lab
  try() {   # try PLAN: sets rc (the wrapper's), calls, err.txt
    printf '%s\n' "$@" > plan.txt; rm -f calls
    RDMA_LAB=$PWD/fake-lab "$here/two-guest-ctest.sh" --guests 2 -- '20*' > /dev/null 2> err.txt
    rc=$?; calls=$(cat calls)
  }
  try "1 stall" "0 ok"
  check "a stalled NIC's failure is run once more, whose pass is the result (rc $rc, $calls runs)" test "$rc" = 0 -a "$calls" = 2
  check "the retry names the guest whose NIC stalled" grep -q "guest 1: .*NETDEV WATCHDOG" err.txt
  try "3 ok"
  check "a failure without a stall is final, its status kept (rc $rc, $calls runs)" test "$rc" = 3 -a "$calls" = 1
  try "1 stall" "1 stall" "0 ok"
  check "at most one retry: two stalls fail (rc $rc, $calls runs)" test "$rc" = 1 -a "$calls" = 2
  check "the second stall is reported too" grep -q "stalled again" err.txt
  try "0 stall"
  check "a pass with a watchdog line is a pass, not run again (rc $rc, $calls runs)" test "$rc" = 0 -a "$calls" = 1
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
  "$lab" --guests 3 -- true > /dev/null 2> err.txt
  rc=$?
  check "--guests 3 exits 2 and names the range (got $rc)" bash -c "[ $rc = 2 ] && grep -q -- '--guests: 1 or 2' err.txt"
  "$lab" --peer-cmd true -- true > /dev/null 2> err.txt
  rc=$?
  check "--peer-cmd without --guests 2 exits 2 (got $rc)" bash -c "[ $rc = 2 ] && grep -q -- '--peer-cmd needs --guests 2' err.txt"
  "$lab" --boot-timeout soon -- true > /dev/null 2> err.txt
  rc=$?
  check "a bad --boot-timeout exits 2 (got $rc)" bash -c "[ $rc = 2 ] && grep -q -- '--boot-timeout' err.txt"
  ;;
*) echo "unknown test $test" >&2; exit 2 ;;
esac
finish

# shellcheck shell=bash
# The check loop shared by the lab's suites (guest-suite.sh, one guest;
# two-guest-suite.sh, both guests), sourced by them: picking the checks,
# running one part of a check with a time limit, its result, the PASS/FAIL
# lines and the totals. Needs $check_timeout (seconds per check).

# Every check's python3 is Debian's /usr/bin/python3 (tools/install-deps.sh
# installs it). The caller's PATH, which the guest inherits, may put a version
# manager's shim first: pyenv's is a bash script that took 4.5 s a start
# under TCG (0.09 s on the host), and a suite starts python3 about a hundred
# times.
lab_bin=$(mktemp -d /tmp/lab-bin.XXXXXX)
ln -s /usr/bin/python3 "$lab_bin/python3"
export PATH=$lab_bin:$PATH
trap 'rm -rf "$lab_bin"' EXIT

# nap SECONDS: a sleep that starts no program.
exec {nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$nap_fd"; }

# wait_file FILE SECONDS: wait until FILE exists; 1 if it did not in time.
wait_file() {
  local until_s=$((SECONDS + $2))
  until [ -e "$1" ]; do
    [ "$SECONDS" -ge "$until_s" ] && return 1
    nap 0.2
  done
  return 0
}

# select_checks DIR [PATTERN...]: checks=(DIR/*.sh whose name without .sh
# matches a PATTERN, a shell glob; all of them without PATTERNs).
select_checks() {
  local dir=$1 check pat name
  shift
  checks=()
  for check in "$dir"/*.sh; do
    [ -e "$check" ] || continue
    name=$(basename "$check" .sh)
    if [ "$#" -gt 0 ]; then
      for pat in "$@"; do
        # shellcheck disable=SC2053
        [[ $name == $pat ]] && break
      done
      # shellcheck disable=SC2053
      [[ $name == $pat ]] || continue
    fi
    checks+=("$check")
  done
}

# start_part DIR FILE...: in DIR, in the background ($part_pid), bash sourcing
# the FILEs in order (the libraries, then the check), killed by timeout(1)
# after $check_timeout s and for good 5 s later; output in DIR/log.
start_part() {
  local dir=$1 script='' i
  shift
  for ((i = 1; i <= $#; i++)); do script+=". \"\$$i\"; "; done
  ( cd "$dir" && exec timeout -k 5 "$check_timeout" bash -c "$script" lab-check "$@" ) \
    > "$dir/log" 2>&1 &
  part_pid=$!
}

# end_part [STOP-FILE]: wait for the part, or until STOP-FILE appears (then
# stop it: SIGTERM to its process group); sets $rc: its exit status,
# "stopped", or "unended" when it is still there 15 s after the timeout (stuck
# in the kernel, e.g. on 9p: it is left behind so that it cannot stall the
# suite).
end_part() {
  local stop_file=${1:-} until_s=$((SECONDS + check_timeout + 15)) i
  rc=
  while kill -0 "$part_pid" 2>/dev/null; do
    if [ -n "$stop_file" ] && [ -e "$stop_file" ]; then
      kill -TERM -- "-$part_pid" 2>/dev/null   # timeout's process group
      for ((i = 0; i < 50; i++)); do kill -0 "$part_pid" 2>/dev/null || break; nap 0.1; done
      rc=stopped
      break
    fi
    if [ "$SECONDS" -ge "$until_s" ]; then rc=unended; break; fi
    nap 0.2
  done
  if kill -0 "$part_pid" 2>/dev/null; then
    disown "$part_pid"   # no "Killed" notice: the result says it
    kill -KILL -- "-$part_pid" "$part_pid" 2>/dev/null
    [ -n "$rc" ] || rc=unended
  elif [ -z "$rc" ]; then
    { wait "$part_pid"; } 2>/dev/null
    rc=$?
  else
    { wait "$part_pid"; } 2>/dev/null
  fi
}

passed=0 failed=0 skipped=0 failed_names=()
suite_start=$EPOCHREALTIME

# record_result NAME T0 RC [PEER_RC]: count and print "RESULT: NAME (SECS s)"
# for a check that began at $EPOCHREALTIME T0 and whose part ended with RC
# (and the peer's part, with two guests, with PEER_RC: 0 or "stopped" is
# fine). Sets $result. 0 = PASS, 77 = SKIP, anything else = FAIL.
record_result() {
  local name=$1 t0=$2 main_rc=$3 peer_rc=${4:-0} secs
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
}

# show_log LOG: a part's output, indented, for a check that did not pass or
# skip (or always, with LAB_SUITE_VERBOSE=1); 1 when it is not shown.
show_log() {
  if [ "$result" != PASS ] && [ "$result" != SKIP ] || [ "${LAB_SUITE_VERBOSE:-0}" = 1 ]; then
    sed 's/^/    | /' "$1" 2>/dev/null
    return 0
  fi
  return 1
}

# end_suite LABEL WHERE: print "LABEL: SECS s WHERE[; failed: ...]" and the
# totals; 0 when no check failed and at least one ran (with LAB_NO_SKIP=1:
# when every check passed, for a boot made for checks that skip elsewhere).
end_suite() {
  local total
  total=$(awk -v a="$suite_start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}')
  echo "$1: ${total}s $2${failed_names[*]:+; failed: ${failed_names[*]}}"
  if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
  else
    echo "$passed passed, $failed failed"
  fi
  [ "${LAB_NO_SKIP:-0}" = 1 ] && [ "$skipped" -gt 0 ] && { echo "LAB_NO_SKIP=1: a skip fails the suite"; return 1; }
  [ "$failed" -eq 0 ] && [ $((passed + skipped)) -gt 0 ]
}

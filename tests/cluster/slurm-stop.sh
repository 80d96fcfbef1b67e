#!/usr/bin/env bash
# Stops what tests/cluster/slurm-start.sh DIR started, by the pids it
# recorded: slurmd, slurmctld, then munged. SIGTERM, then SIGKILL for a
# daemon still there after SLURM_STOP_TIMEOUT seconds (default 20; slurmd
# takes about 5 s). Safe to run twice, or after a failed start.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: slurm-stop.sh DIR" >&2
  exit 2
fi
dir=$1
timeout_s=${SLURM_STOP_TIMEOUT:-20}
status=0
for daemon in slurmd slurmctld munged; do
  pid_file=$dir/$daemon.pid
  [ -s "$pid_file" ] || continue
  pid=$(cat "$pid_file")
  # Only the daemon we started: a pid reused since is left alone.
  if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != "$daemon" ]; then
    rm -f "$pid_file"
    continue
  fi
  kill -TERM "$pid" 2>/dev/null
  deadline=$((SECONDS + timeout_s))
  while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "slurm-stop.sh: $daemon (pid $pid) still running after ${timeout_s}s: SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null
    status=1
  fi
  rm -f "$pid_file"
done
exit $status

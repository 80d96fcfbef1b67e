#!/usr/bin/env bash
# Starts a single-node Slurm (munged, slurmctld, slurmd in the foreground,
# no systemd) with everything under DIR: config, state, spool, logs, munge
# key and socket, pid files. Free ports are picked, so several can run at
# once. Waits until sinfo shows the node idle (at most
# SLURM_START_TIMEOUT seconds, default 60). Then:
#   export SLURM_CONF=DIR/slurm.conf; srun -O -n 4 --mpi=pmix cmdbench job
# Stop it with tests/cluster/slurm-stop.sh DIR (also after a failed start).
# Needs root (slurmd runs jobs as their users) and the packages slurmctld
# slurmd slurm-client munge libpmix-dev (tools/install-deps.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: slurm-start.sh DIR" >&2
  exit 2
fi
for prog in munged slurmctld slurmd sinfo python3; do
  if ! command -v "$prog" >/dev/null && [ ! -x "/usr/sbin/$prog" ]; then
    echo "slurm-start.sh: $prog not found: install slurmctld slurmd slurm-client munge" \
      "(tools/install-deps.sh)" >&2
    exit 2
  fi
done
export PATH=$PATH:/usr/sbin
mkdir -p "$1"
dir=$(cd "$1" && pwd)
timeout_s=${SLURM_START_TIMEOUT:-60}
node=$(hostname -s)
mkdir -p "$dir"/{state,spool,log,tmp,munge}
chmod 0755 "$dir"
chmod 0700 "$dir/munge"

# Two free TCP ports (bound then closed: a race with other programs, but
# not with another cluster of this script, which gets different ones).
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# munge: a key of its own, its own socket, so the system's munged (or
# another cluster's) is left alone.
if [ ! -s "$dir/munge/munge.key" ]; then
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
fi
chmod 0600 "$dir/munge/munge.key"
munge_socket=$dir/munge/munge.socket
setsid munged -F --force --key-file="$dir/munge/munge.key" --socket="$munge_socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
  --seed-file="$dir/munge/munged.seed" </dev/null >>"$dir/log/munged.out" 2>&1 &
echo $! >"$dir/munged.pid"

# Job ids from a random start: slurmd names per-job files (spool, PMIx
# directories in TmpFS) by job id, and clusters running side by side must
# not meet there.
first_job_id=$((100000 + RANDOM * 16 + RANDOM % 16))
cpus=$(nproc)
cat >"$dir/slurm.conf" <<CONF
ClusterName=cmdbench
SlurmctldHost=$node
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_socket
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
TmpFS=$dir/tmp
SlurmctldPidFile=$dir/slurmctld.conf.pid
SlurmdPidFile=$dir/slurmd.conf.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
FirstJobId=$first_job_id
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
export SLURM_CONF=$dir/slurm.conf

deadline=$((SECONDS + timeout_s))
fail() {
  echo "slurm-start.sh: $1 (logs in $dir/log)" >&2
  tail -n 5 "$dir"/log/*.log >&2 || true
  exit 1
}
until [ -S "$munge_socket" ]; do
  kill -0 "$(cat "$dir/munged.pid")" 2>/dev/null || fail "munged exited"
  [ $SECONDS -lt $deadline ] || fail "munged did not create its socket within ${timeout_s}s"
  sleep 0.1
done

setsid slurmctld -D -i </dev/null >>"$dir/log/slurmctld.out" 2>&1 &
echo $! >"$dir/slurmctld.pid"
setsid slurmd -D </dev/null >>"$dir/log/slurmd.out" 2>&1 &
echo $! >"$dir/slurmd.pid"

until [ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" = idle ]; do
  for daemon in slurmctld slurmd; do
    kill -0 "$(cat "$dir/$daemon.pid")" 2>/dev/null || fail "$daemon exited"
  done
  [ $SECONDS -lt $deadline ] || fail "node $node not idle in sinfo within ${timeout_s}s"
  sleep 0.2
done
echo "slurm-start.sh: node $node idle; export SLURM_CONF=$dir/slurm.conf"

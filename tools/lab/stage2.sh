#!/bin/bash
# Stage 2 of the RDMA lab's guest, PID 1 on the host's root file system
# (read-only 9p under a tmpfs overlay). tools/rdma-lab copies this file into
# the run directory, which the guest mounts at /run/cmdbench-lab with:
#   cwd      the caller's directory (shared read-write as 9p tag "labcwd")
#   argv     the command, NUL-separated
#   env      the caller's exported environment (export -p)
#   config   lab settings (LAB_ADDR, LAB_PREFIX, LAB_MTU, LAB_DEV, LAB_NETDEV)
# It writes "status" there: "exit N" once the command ran, or
# "setup-failed REASON". It always ends by powering the guest off.
run=/run/cmdbench-lab
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

log() { echo "lab: $*" > /dev/console; }
poweroff_now() {
  sync
  echo o > /proc/sysrq-trigger
  sleep 30
}
fail() {
  log "FAILED: $*"
  echo "setup-failed $*" > "$run/status"
  poweroff_now
}

exec < /dev/null > /dev/console 2>&1

# shellcheck source=/dev/null
. "$run/config" || fail "no config"
if [ "${LAB_TRACE:-0}" = 1 ]; then PS4='+ ${EPOCHREALTIME} '; set -x; fi

mount -t tmpfs -o mode=1777 tmpfs /tmp || fail "mount /tmp"
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts || log "warning: devpts"
mount -t tmpfs -o mode=1777 tmpfs /dev/shm || log "warning: /dev/shm"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
hostname cmdbench-lab 2>/dev/null || echo cmdbench-lab > /proc/sys/kernel/hostname

# --- Soft-RoCE over a dummy interface (rxe loops its own traffic back) ------
ip link set lo up || fail "ip link set lo up"
ip link add "$LAB_NETDEV" type dummy || fail "ip link add $LAB_NETDEV type dummy"
ip link set "$LAB_NETDEV" mtu "$LAB_MTU" || fail "mtu $LAB_MTU"
ip addr add "$LAB_ADDR/$LAB_PREFIX" dev "$LAB_NETDEV" || fail "ip addr add $LAB_ADDR"
ip link set "$LAB_NETDEV" up || fail "ip link set $LAB_NETDEV up"
rdma link add "$LAB_DEV" type rxe netdev "$LAB_NETDEV" || fail "rdma link add $LAB_DEV"
for _ in $(seq 100); do
  [ -c /dev/infiniband/uverbs0 ] && [ -c /dev/infiniband/rdma_cm ] && break
  sleep 0.1
done
[ -c /dev/infiniband/uverbs0 ] || fail "/dev/infiniband/uverbs0 did not appear"
[ -c /dev/infiniband/rdma_cm ] || fail "/dev/infiniband/rdma_cm did not appear"

# --- the caller's directory, read-write -------------------------------------
cwd=$(cat "$run/cwd") || fail "no cwd"
mkdir -p "$cwd" 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,cache=none,msize=512000 labcwd "$cwd" \
  || fail "mount $cwd"

# --- the command's stdout and stderr: virtio-serial ports -------------------
port() {
  local p
  for p in /sys/class/virtio-ports/*; do
    if [ "$(cat "$p/name" 2>/dev/null)" = "$1" ]; then
      echo "/dev/${p##*/}"; return 0
    fi
  done
  return 1
}
out=$(port cmdbench.out) || fail "no virtio port cmdbench.out"
err=$(port cmdbench.err) || fail "no virtio port cmdbench.err"

ulimit -l unlimited || fail "ulimit -l unlimited"
mapfile -d '' argv < "$run/argv"
[ "${#argv[@]}" -gt 0 ] || fail "empty command"

log "ready: $LAB_DEV on $LAB_NETDEV $LAB_ADDR (uptime $(cut -d' ' -f1 /proc/uptime) s)"
(
  # shellcheck source=/dev/null
  . "$run/env" 2>/dev/null
  export CMDBENCH_LAB=1 CMDBENCH_RDMA_ADDR="$LAB_ADDR" CMDBENCH_RDMA_DEV="$LAB_DEV" \
         CMDBENCH_RDMA_NETDEV="$LAB_NETDEV" CMDBENCH_RDMA_PORT=1
  cd "$cwd" || exit 125
  exec "${argv[@]}"
) < /dev/null > "$out" 2> "$err"
status=$?
log "command exited with status $status (uptime $(cut -d' ' -f1 /proc/uptime) s)"
echo "exit $status" > "$run/status"
poweroff_now

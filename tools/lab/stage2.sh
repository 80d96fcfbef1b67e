#!/bin/bash
# Stage 2 of the RDMA lab's guest: PID 1 on the host's root file system
# (read-only 9p under a tmpfs overlay), started by tools/lab/init, which has
# already mounted everything and brought up the dummy interface.
# tools/rdma-lab copies this file into the run directory, which the guest
# mounts at /run/cmdbench-lab with:
#   cwd      the caller's directory (mounted read-write, 9p tag "labcwd")
#   argv     the command, NUL-separated
#   env      the caller's exported environment (export -p)
#   config   lab settings (LAB_ADDR, LAB_PREFIX, LAB_MTU, LAB_DEV, LAB_NETDEV,
#            LAB_GUEST, LAB_GUESTS, LAB_PEER_ADDR; with --rails, the other
#            rails' LAB_RAIL_ADDRS, LAB_RAIL_PEERS and LAB_RAIL_MACS)
# It writes "started" there (the guest's uptime) just before running the
# command, so that the host can tell a boot hang from a command that hangs,
# then "status": "exit N" once the command ran, or "setup-failed REASON".
# It always ends by powering the guest off.
# With two guests: it writes "ready" once set up and waits for the host's
# "go" (both guests start together); the command runs in its own session,
# and the host's "stop" (guest 0's command has ended) makes stage 2 end it:
# status "stopped N" then.
run=/run/cmdbench-lab
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

uptime() { local u _; read -r u _ < /proc/uptime; echo "$u"; }
log() { echo "lab: $*" > /dev/console; }
# nap SECONDS: sleep without starting a program (a hung 9p must not stop us).
exec {nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$nap_fd"; }
poweroff_now() {
  # sync, but do not wait for ever on a file system that hangs.
  local i
  sync &
  for ((i = 0; i < 50; i++)); do kill -0 $! 2>/dev/null || break; nap 0.1; done
  echo o > /proc/sysrq-trigger
  nap 30
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

# --- Soft-RoCE on the dummy interface (rxe loops its own traffic back) ------
log "adding $LAB_DEV (uptime $(uptime) s)"
rdma link add "$LAB_DEV" type rxe netdev "$LAB_NETDEV" || fail "rdma link add $LAB_DEV"
for ((i = 0; i < 100; i++)); do
  [ -c /dev/infiniband/uverbs0 ] && [ -c /dev/infiniband/rdma_cm ] && break
  sleep 0.1
done
[ -c /dev/infiniband/uverbs0 ] || fail "/dev/infiniband/uverbs0 did not appear"
[ -c /dev/infiniband/rdma_cm ] || fail "/dev/infiniband/rdma_cm did not appear"

# --- more rails (--rails): rxeK on dummyK, or on the NIC labK of cable K ----
rail_devs=$LAB_DEV rail_netdevs=$LAB_NETDEV rail_addrs=$LAB_ADDR
read -r -a macs <<< "${LAB_RAIL_MACS:-}"
k=0
for a in ${LAB_RAIL_ADDRS:-}; do
  k=$((k + 1))
  if [ -n "${macs[k - 1]:-}" ]; then
    nd=lab$k nic=
    for n in /sys/class/net/*; do
      [ "$(cat "$n/address")" = "${macs[k - 1]}" ] && nic=${n##*/}
    done
    [ -n "$nic" ] || fail "no network interface with MAC address ${macs[k - 1]}"
    ip link set dev "$nic" name "$nd" || fail "ip link set $nic name $nd"
  else
    nd=dummy$k
    ip link add "$nd" type dummy || fail "ip link add $nd type dummy"
  fi
  ip link set "$nd" mtu "$LAB_MTU" || fail "ip link set $nd mtu $LAB_MTU"
  ip addr add "$a/$LAB_PREFIX" dev "$nd" || fail "ip addr add $a/$LAB_PREFIX dev $nd"
  ip link set "$nd" up || fail "ip link set $nd up"
  rdma link add "rxe$k" type rxe netdev "$nd" || fail "rdma link add rxe$k"
  for ((i = 0; i < 100; i++)); do
    [ -c "/dev/infiniband/uverbs$k" ] && break
    sleep 0.1
  done
  [ -c "/dev/infiniband/uverbs$k" ] || fail "/dev/infiniband/uverbs$k did not appear"
  rail_devs+=" rxe$k" rail_netdevs+=" $nd" rail_addrs+=" $a"
done

# --- the command's stdout and stderr: virtio-serial ports -------------------
port() {
  local p name
  for p in /sys/class/virtio-ports/*; do
    read -r name < "$p/name" 2>/dev/null
    if [ "$name" = "$1" ]; then echo "/dev/${p##*/}"; return 0; fi
  done
  return 1
}
out=$(port cmdbench.out) || fail "no virtio port cmdbench.out"
err=$(port cmdbench.err) || fail "no virtio port cmdbench.err"

# Two guests: each resolves both guests' names (cmdbench-lab0/1) to their lab0
# addresses, as cluster nodes do; mpirun and matrix mode name nodes by host
# name. /etc is the overlay's, so this stays in the guest.
if [ "${LAB_GUESTS:-1}" -gt 1 ]; then
  printf '%s cmdbench-lab%s\n' "$LAB_ADDR" "$LAB_GUEST" "$LAB_PEER_ADDR" "$((1 - LAB_GUEST))" \
    >> /etc/hosts || fail "add the guests' names to /etc/hosts"
fi

read -r cwd < "$run/cwd"
cd "$cwd" || fail "cd $cwd"
ulimit -l unlimited || fail "ulimit -l unlimited"
mapfile -d '' argv < "$run/argv"
[ "${#argv[@]}" -gt 0 ] || fail "empty command"

# A hook for the lab's own tests (tests/lab/lab-behaviour.sh boot-retry):
# hang here, before the command, like a boot that never finishes.
case " $(< /proc/cmdline) " in
  *" cmdbench_lab_test=hang-boot-once "*)
    if [ ! -e "$run/test-hung-once" ]; then
      : > "$run/test-hung-once"
      log "test hook: hanging before the command (this boot only)"
      while :; do nap 3600; done
    fi ;;
  *" cmdbench_lab_test=hang-boot "*)
    log "test hook: hanging before the command"
    while :; do nap 3600; done ;;
esac

run_command() {
  # shellcheck source=/dev/null
  . "$run/env" 2>/dev/null
  export CMDBENCH_LAB=1 CMDBENCH_RDMA_ADDR="$LAB_ADDR" CMDBENCH_RDMA_DEV="$LAB_DEV" \
         CMDBENCH_RDMA_NETDEV="$LAB_NETDEV" CMDBENCH_RDMA_PORT=1 \
         CMDBENCH_RDMA_DEVS="$rail_devs" CMDBENCH_RDMA_NETDEVS="$rail_netdevs" \
         CMDBENCH_RDMA_ADDRS="$rail_addrs" \
         CMDBENCH_LAB_GUEST="${LAB_GUEST:-0}" CMDBENCH_LAB_GUESTS="${LAB_GUESTS:-1}"
  if [ "${LAB_GUESTS:-1}" -gt 1 ]; then
    export CMDBENCH_RDMA_PEER_ADDR="$LAB_PEER_ADDR" CMDBENCH_LAB_SHARED=/run/cmdbench-lab-shared \
           CMDBENCH_RDMA_PEER_ADDRS="$LAB_PEER_ADDR${LAB_RAIL_PEERS:+ $LAB_RAIL_PEERS}"
    exec setsid "${argv[@]}"   # its own process group, to be stopped as a whole
  fi
  exec "${argv[@]}"
}

log "ready: $LAB_DEV on $LAB_NETDEV $LAB_ADDR (uptime $(uptime) s)"
if [ "${LAB_GUESTS:-1}" -le 1 ]; then
  uptime > "$run/started"
  ( run_command ) < /dev/null > "$out" 2> "$err"
  status=$?
  log "command exited with status $status (uptime $(uptime) s)"
  echo "exit $status" > "$run/status"
  poweroff_now
fi

# Two guests: start together, stop when guest 0's command is done.
: > "$run/ready"
until [ -e "$run/go" ]; do
  if [ -e "$run/stop" ]; then
    log "stopped before the start: the other guest has gone"
    echo "not-started" > "$run/status"
    poweroff_now
  fi
  nap 0.1
done
uptime > "$run/started"
( run_command ) < /dev/null > "$out" 2> "$err" &
cpid=$!
stopped=
while kill -0 "$cpid" 2>/dev/null; do
  if [ -e "$run/stop" ]; then
    log "stopping the command: guest 0's command has ended"
    kill -TERM -- "-$cpid" 2>/dev/null
    for ((i = 0; i < 50; i++)); do kill -0 "$cpid" 2>/dev/null || break; nap 0.1; done
    kill -KILL -- "-$cpid" 2>/dev/null
    stopped=1
    break
  fi
  nap 0.2
done
wait "$cpid"
status=$?
log "command exited with status $status${stopped:+ (stopped)} (uptime $(uptime) s)"
if [ -n "$stopped" ]; then echo "stopped $status"; else echo "exit $status"; fi > "$run/status"
poweroff_now

# The lab's RDMA device is there and its port is active.
echo "device $dev, address $addr"
ibv_devices | tee devices.txt
grep -qw "$dev" devices.txt || fail "ibv_devices does not list $dev"
ibv_devinfo -d "$dev" | tee devinfo.txt
grep -q 'state:.*PORT_ACTIVE' devinfo.txt || fail "$dev port is not active"
rdma link show | tee link.txt
grep -q "$dev/1 state ACTIVE" link.txt || fail "rdma link: $dev/1 not ACTIVE"
[ -c /dev/infiniband/rdma_cm ] || fail "no /dev/infiniband/rdma_cm"
[ "$(ulimit -l)" = unlimited ] || fail "memlock is $(ulimit -l), not unlimited"

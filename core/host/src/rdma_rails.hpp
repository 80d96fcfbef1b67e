// The rails of `rails = "all"`: every RDMA device port that is ACTIVE and
// whose network interface has an IPv4 address, read from sysfs and the
// interface list.
#pragma once
#include <string>
#include <vector>

namespace cmdbench {

struct RdmaRail {
    std::string device; // "mlx5_0", "rxe1"
    unsigned port = 1;
    std::string netdev;  // its network interface: the RoCE netdev, or IPoIB's
    std::string address; // that interface's first IPv4 address
};

// In device-name order, one per device (its first active port with an
// address). `sysfs_root` is "/sys" (tests pass a fake tree); addresses come
// from this machine's interfaces.
std::vector<RdmaRail> active_rdma_rails(const std::string &sysfs_root = "/sys");

} // namespace cmdbench

// The rails of `rails = "all"`: every RDMA device with an ACTIVE port and
// an address that reaches it (interface_address.hpp: rdma_device_address,
// the lookup `[matrix] device` uses too).
#pragma once
#include "cmdbench/host/machine/gid_entries.hpp"

#include <string>
#include <vector>

namespace cmdbench {

struct RdmaRail {
    std::string device;  // "mlx5_0", "rxe1"
    std::string address; // its IP address (IPv4 first)
};

// In device-name order. `sysfs_root` is "/sys" (tests pass a fake tree);
// interface addresses come from this machine's interfaces; GID tables as
// gid_entries.hpp reads them.
std::vector<RdmaRail> active_rdma_rails(const std::string &sysfs_root = "/sys",
                                        GidTable gid_table = nullptr);

} // namespace cmdbench
